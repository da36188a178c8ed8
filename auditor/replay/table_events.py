"""A round's statements about the table rather than the play of its hands: seats taken
and left, lights and prizes, markers (tuck, discard, misdeal), the shoe's own statements
(shuffle, cut, cutting card) and unreadable lines.

Each is a handler of the replay (`engine._HANDLERS`): called with the round's replay, the
statement's index in the round and the statement.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from auditor import events as ev
from auditor.reader import Problem
from auditor.replay.state import SeatState
from auditor.replay.view import LightEvent, Marker, SeatChange, seat_of

if TYPE_CHECKING:
    from auditor.replay.engine import RoundReplay


def on_sit(replay: RoundReplay, index: int, event: ev.Sit) -> None:
    replay.note_seat(event.seat, event.line)
    held = replay.state.seats.get(event.seat)
    if held is not None:  # a named player, or an unnamed one a wager seated (no `leave`)
        who = held.player if held.player is not None else "an unnamed player"
        replay.problem(event.line, f"`sit` on {event.seat}, which {who} still occupies (the "
                                   "new player replaces them)", event.seat)
    replay.state.seat_player(event.seat, event.player, event.punches)
    replay.view.seat_changes.append(SeatChange("sit", event.seat, event.player, event.line,
                                               index, event.punchcard, event.punches, None))


def on_leave(replay: RoundReplay, index: int, event: ev.Leave) -> None:
    seat = replay.state.unseat(event.seat)
    if seat is None:
        replay.problem(event.line, f"`leave` of {event.seat}, which no player occupies",
                       event.seat)
    recorded = replay.state.lights.get(event.seat, 0)
    replay.view.seat_changes.append(SeatChange(
        "leave", event.seat, seat.player if seat else None, event.line, index,
        event.punchcard, event.punches, seat.held(recorded) if seat else recorded))


def on_light(replay: RoundReplay, index: int, event: ev.Light) -> None:
    state = replay.state
    seat = state.seats.get(event.seat)
    if seat is None:
        replay.problem(event.line, f"`light` on {event.seat}, which no player occupies",
                       event.seat)
        seat = state.seats[event.seat] = SeatState(None)
    replay.view.lights.append(LightEvent(
        event.seat, event.count, event.line, index, seat.player,
        state.lights.get(event.seat, 0),
        None if seat.lit_since_sit else seat.player_start, not seat.lit_since_sit,
        seat.prize_since_light, seat.other_prize_since_light))
    state.seat_lit(event.seat, event.count)


def on_prize(replay: RoundReplay, index: int, event: ev.Prize) -> None:
    state = replay.state
    paid = state.seats.get(event.seat)
    held = paid.held(state.lights.get(event.seat, 0)) if paid else None
    replay.view.markers.append(Marker("prize", event.seat, event.line, index, event.amount,
                                      held))
    state.prize_paid(event.seat)


def on_marker(replay: RoundReplay, index: int, event: ev.Tuck | ev.Discard | ev.Misdeal
              ) -> None:
    kind = type(event).__name__.lower()
    if isinstance(event, ev.Misdeal):
        target = misdeal_target(replay, event)
    elif replay.hand(event.hand, event.line, kind) is None:
        return
    else:
        target = event.hand
    view = replay.view
    view.markers.append(Marker(kind, target, event.line, index))
    if kind == "misdeal":
        for hand in view.hands.values():
            if target in ("dealer", hand.seat):
                hand.misdealt = True


def misdeal_target(replay: RoundReplay, event: ev.Misdeal) -> str:
    """The seat (or `dealer`) a misdeal is declared for. The format names a seat; a hand
    is reported and read as a misdeal of its seat, the closest the record comes."""
    target = event.target
    replay.note_seat(target, event.line)
    if len(target) > 2 and target != "dealer":  # a hand
        seat = seat_of(target)
        replay.problem(event.line, f"`misdeal {target}` names a hand, but a misdeal is "
                                   f"declared for a seat or the dealer: read as a misdeal "
                                   f"of {seat}", target)
        return seat
    return target


def on_table_event(replay: RoundReplay, index: int, event: ev.Event) -> None:
    state, view = replay.state, replay.view
    state.apply(event)
    if type(event) is ev.Shuffle:
        view.shuffled_in_round = True
        # Running out of cards (bjh-format.md §5): the cards on the layout are not in the
        # shuffled stack, so counting starts again from them.
        for hand in view.hands.values():
            for card in hand.cards:
                state.count_card(card.card)
        for card in view.dealer.cards:
            state.count_card(card.card)


def on_unreadable(replay: RoundReplay, index: int, event: ev.Unreadable) -> None:
    view = replay.view
    view.unreadable = True
    view.problems.append(Problem("syntax", event.line, event.message, column=event.column))


HANDLERS: dict[type, Callable[[RoundReplay, int, Any], None]] = {
    ev.Sit: on_sit, ev.Leave: on_leave, ev.Light: on_light, ev.Prize: on_prize,
    ev.Tuck: on_marker, ev.Discard: on_marker, ev.Misdeal: on_marker,
    ev.CutCard: on_table_event, ev.Shuffle: on_table_event, ev.Cut: on_table_event,
    ev.Unreadable: on_unreadable,
}
"""The handlers of this module, by statement type."""
