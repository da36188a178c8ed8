"""Records replayed round by round for the replay's tests: a standard table's header, and
each round of a text with the table as it stood before the round."""

from __future__ import annotations

from auditor import events as ev
from auditor.parser import parse_lines
from auditor.reader import Header, RoundRecord, read_structure
from auditor.replay.engine import replay_round
from auditor.replay.state import TableState

HEADER = """bjh 1
casino "Example" licence=RL-1
table T1 game=standard decks=6 seats=7 min=10 max=500 currency=USD
dealer D-1
shoe 1 date=2026-11-20
"""


def rounds_of(text: str):
    """(state, record) of each round of `text`, the state as it stands before the round."""
    lines = [(number, line, None) for number, line in enumerate(text.splitlines(), 1)]
    state = None
    for item in read_structure(parse_lines(lines)):
        if isinstance(item, Header):
            state = TableState(item.config)
        elif isinstance(item, RoundRecord):
            yield state, item
        elif isinstance(item, ev.Event) and state is not None:
            state.apply(item)


def replayed(text: str):
    return [replay_round(state, record, "f.bjh") for state, record in rounds_of(text)]


def table_made_afresh(view) -> dict:
    """The step `Snapshots` gives, every entry made again from the view."""
    hands = []
    for hand in view.hands.values():
        status = ("over 21" if hand.total > 21 else hand.complete_reason
                  or ("blackjack" if hand.natural else ""))
        hands.append({"hand": hand.name, "cards": [c.card for c in hand.cards],
                      "total": hand.total, "soft": hand.soft, "status": status,
                      "doubled": str(hand.doubled) if hand.doubled else ""})
    dealer = view.dealer
    wagers = [{"wager": w.label, "amount": str(w.amount),
               "settled": f"{w.settlement.outcome} {w.settlement.amount}" if w.settlement
               else "", "target": w.target, "kind": w.kind, "tip": w.tip}
              for w in view.wagers]
    players = dict(view.occupied_before)
    for change in view.seat_changes:
        if change.kind == "sit":
            players[change.seat] = change.player
        else:
            players.pop(change.seat, None)
    return {"hands": hands, "dealer": {"cards": [c.card for c in dealer.cards],
                                       "total": dealer.total if dealer.cards else None,
                                       "revealed": dealer.reveal_line is not None},
            "wagers": wagers,
            "players": {seat: player for seat, player in sorted(players.items()) if player}}
