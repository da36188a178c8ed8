"""A round replayed step by step, for the report: the table after each statement."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from auditor.reader import RoundRecord
from auditor.replay.engine import replay_round
from auditor.replay.state import TableState
from auditor.replay.view import RoundView


@dataclass
class RoundEvidence:
    file: str
    round_id: str
    start_line: int
    lines: list[tuple[int, str]]  # the record's lines of the round, as written
    steps: dict[int, dict[str, Any]] = field(default_factory=dict)  # line -> table after it


def trace_round(before: TableState, record: RoundRecord, file: str,
                source: dict[int, str]) -> RoundEvidence:
    last = record.end_line or record.last_line
    lines = [(n, source[n]) for n in range(record.start.line, last + 1) if n in source]
    evidence = RoundEvidence(file, record.round_id, record.start.line, lines)

    def step(event, view: RoundView) -> None:
        evidence.steps[event.line] = snapshot(view)

    replay_round(before.clone(), record, file, on_step=step)
    return evidence


def snapshot(view: RoundView) -> dict[str, Any]:
    """Hands with their cards and totals, the dealer's cards, every wager's state, and the
    named players in their seats."""
    hands = []
    for hand in view.hands.values():
        status = ("over 21" if hand.busted else hand.complete_reason
                  or ("blackjack" if hand.natural else ""))
        hands.append({"hand": hand.name, "cards": hand.card_codes, "total": hand.total,
                      "soft": hand.soft, "status": status,
                      "doubled": str(hand.doubled) if hand.doubled else ""})
    dealer = view.dealer
    wagers = [{"wager": w.label, "amount": str(w.amount),
               "settled": (f"{w.settlement.outcome} {w.settlement.amount}"
                           if w.settlement else ""),
               "target": w.target, "kind": w.kind, "tip": w.tip} for w in view.wagers]
    players = dict(view.occupied_before)  # seat -> player, as the round's sits and leaves left it
    for change in view.seat_changes:
        if change.kind == "sit":
            players[change.seat] = change.player
        else:
            players.pop(change.seat, None)
    return {"hands": hands,
            "dealer": {"cards": dealer.card_codes, "total": dealer.total if dealer.cards else None,
                       "revealed": dealer.reveal_line is not None},
            "wagers": wagers,
            "players": {seat: player for seat, player in sorted(players.items()) if player}}
