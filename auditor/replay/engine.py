"""The replay engine: a round's events, in order, against the table's state.

It records what happened (and, in outcomes.py, what the rules say should have happened);
it never decides that anything is a violation. A statement that cannot be replayed (a hand
that does not exist) is recorded as a `reference` problem and the replay goes on.

Every statement goes to the handler of its type (`_HANDLERS`): the play of the hands and
the wagers here, the table's own statements in table_events.py; the round's end (the
dealer's turn, what each wager should have been paid) is round_end.py's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from auditor import blackjack
from auditor import events as ev
from auditor.reader import Problem, RoundRecord
from auditor.replay import table_events
from auditor.replay.round_end import end_round
from auditor.replay.state import TableState
from auditor.replay.view import (
    Card,
    DealerDraw,
    DealerHand,
    Hand,
    LateCard,
    RoundView,
    Settlement,
    Trade,
    Wager,
    make_hand,
    seat_number,
    seat_of,
)

# A card, a settlement and a wager (several a round) are made in place, `_new(Card)` and
# their fields stored, rather than by calling the class, whose generated `__init__` is
# entered from C as a second frame; tests/replay/test_replay_inits.py holds them to the
# constructors' fields.
_new = object.__new__

UNRECORDED_KINDS = frozenset({ev.Deal, ev.Bet, ev.Stand, ev.Settle})
"""The statement types `RoundView.kinds` leaves out (the commonest: no check picks by them)."""

def replay_round(state: TableState, record: RoundRecord, file: str,
                 on_step: Callable[[ev.Event, RoundView], None] | None = None) -> RoundView:
    """Replay one round against the table; `on_step` sees the view after each statement."""
    start = record.start
    clock = start.clock or start.time
    view = RoundView(
        file, state.config, start.round_id, start.line, record.end_line, record.last_line,
        state.dated(start.date, clock), clock, start.dealer or state.dealer,
        record.events, state.shoe_status(), list(record.problems),
        {seat: seated.player for seat, seated in state.seats.items()})
    replay = RoundReplay(state, view)
    handlers = _HANDLERS.get
    for index, event in enumerate(record.events):
        handler = handlers(type(event))
        if handler is not None:
            handler(replay, index, event)
        if on_step is not None:  # the evidence's replay (auditor/replay/trace.py)
            on_step(event, view)
    events = record.events
    if start.date is None and events and events[-1].time is not None:  # (past midnight?)
        state.dated(None, events[-1].time)
    kinds = view.kinds
    kinds.update(map(type, events))
    kinds -= UNRECORDED_KINDS
    end_round(view)
    return view


_SEAT_DIGITS: dict[int, frozenset[str]] = {}
"""Per table size, the second characters of the targets of its seats (`s1` to `s7`)."""


def _seat_digits(seats: int) -> frozenset[str]:
    digits = _SEAT_DIGITS.get(seats)
    if digits is None:
        digits = _SEAT_DIGITS[seats] = frozenset(str(n) for n in range(10) if n <= seats)
    return digits


class RoundReplay:
    """One round being replayed: the table's state, the round's view, and its wagers by
    their target, kind and tip."""

    __slots__ = ("counts", "hands", "seat_digits", "seats", "seats_reported", "state", "view",
                 "wager_index")

    def __init__(self, state: TableState, view: RoundView) -> None:
        self.state, self.view = state, view
        self.wager_index: dict[tuple[str, str, bool], Wager] = {}
        self.seats_reported: set[str] = set()  # seats beyond the table's, told once
        self.seats: int = state.config.seats
        self.counts: dict[str, int] = state.counts
        self.hands: dict[str, Hand] = view.hands
        self.seat_digits: frozenset[str] = _seat_digits(self.seats)

    # ---- helpers ----
    def problem(self, line: int, message: str, target: str | None = None) -> None:
        seat = seat_of(target) if target and target != "dealer" else None
        hand = target if target and len(target) > 2 and target != "dealer" else None
        self.view.problems.append(Problem("reference", line, message, seat=seat, hand=hand))

    def count(self, card: str, line: int) -> None:
        """A card out of the shoe: counted (`TableState.counts`) and kept in shoe order."""
        counts = self.counts
        seen = counts[card] = counts.get(card, 0) + 1
        view = self.view
        view.card_codes.append(card)
        view.card_seen.append(seen)
        view.card_lines.append(line)

    def note_seat(self, target: str, line: int) -> None:
        """A seat beyond the table's count is reported once a round; its statements are
        still replayed as recorded, so that nothing false follows from refusing them."""
        if target[1] in self.seat_digits or target == "dealer" or (
                seat_number(target) <= self.seats):
            return
        seat = seat_of(target)
        if seat not in self.seats_reported:
            self.seats_reported.add(seat)
            self.problem(line, f"{target} names seat {seat}, but the table has "
                               f"{self.state.config.seats} seats", target)

    def hand(self, name: str, line: int, statement: str) -> Hand | None:
        hand = self.hands.get(name)
        if hand is None:
            self.problem(line, f"`{statement}` names hand {name}, which was neither dealt nor "
                               "wagered on in this round", name)
        return hand

    def new_hand(self, name: str) -> Hand:
        hand = self.hands[name] = make_hand(name, name[:2], name)  # seat_of
        return hand

    @staticmethod
    def complete(hand: Hand) -> bool:
        """Complete as bjh-format.md §5 says; a hand at 21 counts once play has moved on."""
        return (hand.complete_index is not None or hand.total >= 21 or hand.misdealt
                or hand.natural or (hand.split_aces and len(hand.cards) >= 2))

    @staticmethod
    def set_complete(hand: Hand, index: int, reason: str) -> None:
        if hand.complete_index is None:
            hand.complete_index, hand.complete_reason = index, reason

    def add_card(self, hand: Hand, card: str, line: int, index: int) -> None:
        """A card a player's hand draws (hit, double): one after the hand was complete is
        kept apart as a late card, and one over 21 completes the hand."""
        if hand.complete_index is not None:
            hand.late_cards = [*hand.late_cards,  # () until the first: most hands have none
                               LateCard(Card(card, line, index), hand.complete_reason or "")]
        elif hand.split_aces and len(hand.cards) >= 2:
            hand.late_cards = [*hand.late_cards, LateCard(Card(card, line, index), "split ace")]
        added = _new(Card)
        added.card, added.line, added.index = card, line, index
        hand.add(added)
        if hand.bust_line is None and hand.total > 21:
            hand.bust_line = line
            self.set_complete(hand, index, "over 21")

    def decide(self, index: int, line: int, hand: Hand | None) -> None:
        """The decision at `index` (its statement's line) on `hand` (None: a seat's switch)."""
        if hand is not None and hand.parent is not None and hand.played_before_parent_line is None:
            parent = self.hands.get(hand.parent)
            if parent is not None and not self.complete(parent):
                hand.played_before_parent_line = line
        self.view.decision_indices.append(index)  # its Decision made when read

    # ---- wagers ----
    def on_bet(self, index: int, event: ev.Bet) -> None:
        target, kind = event.target, event.kind
        wants_hand = kind in ("main", "insurance")
        if target == "dealer" or wants_hand != (len(target) > 2):  # a hand
            self.problem(event.line, f"a {kind} wager must name a "
                                     f"{'hand' if wants_hand else 'seat'}, not {target}", target)
            return
        if target[1] not in self.seat_digits:
            self.note_seat(target, event.line)
        seat = target[:2]  # seat_of
        if seat not in self.state.seats:
            self.state.seat_wagerer(seat)
        hands = self.hands
        if kind == "insurance" and (target not in hands or hands[target].main is None):
            self.problem(event.line, f"insurance on {target}, which has no main wager", target)
            return
        view = self.view
        key = (target, kind, event.tip)
        existing = self.wager_index.get(key)
        if existing is not None:
            if view.first_card_index is not None and not existing.after_first_card:
                # chips added after the first card: the wager stays what was placed in time,
                # and the late chips are kept apart for the checks of late wagers
                existing.late_additions = [*existing.late_additions,  # () until the first
                                           (event.amount, event.line)]
                return
            self.problem(event.line, f"a second bet on the {existing.label}, first placed at "
                                     f"line {existing.line}", target)
            existing.amount += event.amount
            return
        # Wager(target, kind, event.tip, event.amount, event.line, index, late), made in place
        wager = self.wager_index[key] = _new(Wager)
        wager.target, wager.kind, wager.tip, wager.amount = target, kind, event.tip, event.amount
        wager.line, wager.index = event.line, index
        wager.after_first_card = view.first_card_index is not None
        wager.initial = True
        wager.settlements, wager.late_additions = [], ()
        wager.expected = wager.expected_burned = None
        wager.seat = seat
        view.wagers.append(wager)
        if kind != "main":
            view.wager_marks.add(kind)
        if event.tip:
            view.wager_marks.add("tip")
        elif kind == "main":
            hand = hands.get(target)
            if hand is None:
                hand = self.new_hand(target)
            hand.main = wager

    def on_settle(self, index: int, event: ev.Settle) -> None:
        wager = self.wager_index.get((event.target, event.kind, event.tip))
        if wager is None:
            self.problem(event.line, f"`settle` of a {'tip ' if event.tip else ''}{event.kind} "
                                     f"wager on {event.target} that was not placed",
                         event.target)
            return
        # Settlement(event.line, index, event.outcome, event.amount, event.time), in place
        settled = _new(Settlement)
        settled.line, settled.index, settled.outcome = event.line, index, event.outcome
        settled.amount, settled.time = event.amount, event.time
        wager.settlements.append(settled)

    # ---- cards ----
    def on_deal(self, index: int, event: ev.Deal) -> None:
        code, target, line = event.card, event.target, event.line
        self.count(code, line)
        view = self.view
        if view.first_card_index is None:
            view.first_card_index = index
        view.deal_end_index = index
        hand: Hand | DealerHand | None = self.hands.get(target)  # its seat was told already
        if hand is None:
            if target == "dealer":
                hand = view.dealer
            elif len(target) <= 2:
                self.problem(line, f"`deal` to {target}: cards are dealt to a hand", target)
                return
            else:
                self.note_seat(target, line)
                hand = self.new_hand(target)
        card = _new(Card)  # Card(code, line, index), in place
        card.card, card.line, card.index = code, line, index
        hand.add(card)
        dealt = hand.dealt = hand.dealt + 1
        if dealt == 1:  # (the super match's four cards, the tally's game math)
            hand.first_dealt = code
        elif dealt == 2:
            hand.second_dealt = code

    def on_hit(self, index: int, event: ev.Hit) -> None:
        line, code = event.line, event.card
        self.count(code, line)
        hand = self.hand(event.hand, line, "hit")
        if hand is None:
            return
        self.decide(index, line, hand)
        self.add_card(hand, code, line, index)

    def on_stand(self, index: int, event: ev.Stand) -> None:
        line = event.line
        hand = self.hand(event.hand, line, "stand")
        if hand is None:
            return
        self.decide(index, line, hand)
        hand.stood_line = hand.stood_line or line
        self.set_complete(hand, index, "stood")

    def on_double(self, index: int, event: ev.Double) -> None:
        self.count(event.card, event.line)
        hand = self.hand(event.hand, event.line, "double")
        if hand is None:
            return
        self.decide(index, event.line, hand)
        if hand.double_line is None:
            hand.double_line, hand.double_cards_before = event.line, len(hand.cards)
            hand.double_amount = event.amount
        hand.doubled += event.amount
        self.add_card(hand, event.card, event.line, index)
        if hand.complete_index == index:
            hand.complete_reason = "doubled"  # a double completes the hand, bust or not
        self.set_complete(hand, index, "doubled")

    def on_split(self, index: int, event: ev.Split) -> None:
        hand = self.hand(event.hand, event.line, "split")
        if hand is None:
            return
        if event.new_hand in self.view.hands or seat_of(event.new_hand) != hand.seat:
            self.problem(event.line, f"`split` of {event.hand} into {event.new_hand}: the new "
                                     "hand must be a new hand of the same seat", event.new_hand)
            return
        self.decide(index, event.line, hand)
        new = self.new_hand(event.new_hand)
        new.parent, new.root, new.split_line = hand.name, hand.root, event.line
        new.split_from_cards = tuple(hand.card_codes)
        new.switched = hand.switched
        hand.was_split = True
        if len(hand.cards) >= 2:
            new.cards.append(hand.cards.pop(1))
        hand.recount()
        new.recount()
        aces = [c.card[0] for c in hand.cards + new.cards] == ["A", "A"]
        hand.split_aces = new.split_aces = aces
        root = self.view.hands.get(hand.root, hand)
        root.splits_of_root += 1
        wager = Wager(event.new_hand, "main", False, event.amount, event.line, index, True,
                      initial=False)
        self.wager_index[(event.new_hand, "main", False)] = wager
        self.view.wagers.append(wager)
        new.main = wager

    def on_surrender(self, index: int, event: ev.Surrender) -> None:
        hand = self.hand(event.hand, event.line, "surrender")
        if hand is None:
            return
        hand.surrender_after_decision = any(d.target == hand.name for d in self.view.decisions)
        self.decide(index, event.line, hand)
        hand.surrendered_line = event.line
        self.set_complete(hand, index, "surrendered")

    def on_switch(self, index: int, event: ev.Switch) -> None:
        seat = event.seat
        first, second = self.view.hands.get(seat + "h1"), self.view.hands.get(seat + "h2")
        if first is None or second is None or len(first.cards) < 2 or len(second.cards) < 2:
            self.problem(event.line, f"`switch` of {seat}, which does not hold two hands of "
                                     "two cards", seat)
            return
        self.decide(index, event.line, None)
        first.cards[1], second.cards[1] = second.cards[1], first.cards[1]
        first.recount()
        second.recount()
        first.switched = second.switched = True
        self.view.switched_seats.setdefault(seat, event.line)

    def on_trade(self, index: int, event: ev.Trade) -> None:
        self.count(event.card, event.line)
        if event.target == "dealer":
            cards = self.view.dealer.cards
            hand = None
        else:
            hand = self.hand(event.target, event.line, "trade")
            if hand is None:
                return
            cards = hand.cards
        if not cards:
            self.problem(event.line, f"`trade` on {event.target}, which holds no card",
                         event.target)
            return
        codes = [c.card for c in cards]
        held = blackjack.BONUS_CARD in codes
        position = len(codes) - 1 - codes[::-1].index(blackjack.BONUS_CARD) if held else -1
        over = held and blackjack.total(codes)[0] > 21
        gave_up = cards[position].card
        received = Card(event.card, event.line, index)
        cards[position] = received
        if hand is None:
            self.view.dealer.recount()
        else:
            hand.recount()
        self.view.trades.append(Trade(event.target, received, gave_up, held, over))
        if hand is not None and hand.bust_line is not None and not hand.busted:
            hand.bust_line = None  # the recorded cards no longer go over 21
            if hand.complete_reason == "over 21":
                hand.complete_index = hand.complete_reason = None
        elif hand is not None and hand.bust_line is None and hand.busted:
            hand.bust_line = event.line
            self.set_complete(hand, index, "over 21")

    # ---- the dealer ----
    def on_peek(self, index: int, event: ev.Peek) -> None:
        self.view.dealer.peek_line, self.view.dealer.peek_index = event.line, index

    def on_reveal(self, index: int, event: ev.Reveal) -> None:
        self.view.dealer.reveal_line, self.view.dealer.reveal_index = event.line, index

    def on_draw(self, index: int, event: ev.Draw) -> None:
        self.count(event.card, event.line)
        dealer = self.view.dealer
        before, soft = dealer.total, dealer.soft
        complete = self.complete
        waiting = tuple([h.name for h in self.view.hands.values()  # wagered, not complete
                         if h.main is not None and not complete(h)])
        card = _new(Card)  # Card(event.card, event.line, index), in place
        card.card, card.line, card.index = event.card, event.line, index
        draw = DealerDraw(card, before, soft, waiting)
        dealer.draws.append(draw)
        dealer.add(card)

    def on_burn(self, index: int, event: ev.Burn) -> None:
        self.count(event.card, event.line)


# (each handler takes its own statement type: `Any`, as the table pairs them by type)
_HANDLERS: dict[type, Callable[[RoundReplay, int, Any], None]] = {
    ev.Deal: RoundReplay.on_deal, ev.Bet: RoundReplay.on_bet,
    ev.Settle: RoundReplay.on_settle, ev.Hit: RoundReplay.on_hit,
    ev.Stand: RoundReplay.on_stand, ev.Double: RoundReplay.on_double,
    ev.Split: RoundReplay.on_split, ev.Surrender: RoundReplay.on_surrender,
    ev.Switch: RoundReplay.on_switch, ev.Trade: RoundReplay.on_trade,
    ev.Peek: RoundReplay.on_peek, ev.Reveal: RoundReplay.on_reveal,
    ev.Draw: RoundReplay.on_draw, ev.Burn: RoundReplay.on_burn,
    **table_events.HANDLERS,
}
"""Each statement type's handler (a type without one changes nothing: a round's start and
end, a comment's)."""
