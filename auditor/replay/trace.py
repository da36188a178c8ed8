"""A round replayed step by step, for the report: the table after each statement."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from operator import is_
from typing import Any

from auditor.reader import RoundRecord
from auditor.replay.changes import round_changes
from auditor.replay.engine import replay_round
from auditor.replay.state import TableState
from auditor.replay.view import DealerHand, Hand, RoundView, Wager


@dataclass(eq=False)
class RoundEvidence:
    file: str
    round_id: str
    start_line: int
    lines: list[tuple[int, str]]  # the record's lines of the round, as written
    steps: dict[int, dict[str, Any]] = field(default_factory=dict)  # line -> table after it
    # What each line changed (`changes.py`): made once from the steps, or read back from a
    # store without them
    recorded_changes: dict[str, Any] | None = None

    @property
    def last_line(self) -> int | None:
        return self.lines[-1][0] if self.lines else None

    def __eq__(self, other: object) -> bool:
        """The same round, steps and changes, whether its steps are made yet or not
        (`PendingTrace`)."""
        if not isinstance(other, RoundEvidence):
            return NotImplemented
        return (self.file, self.round_id, self.start_line, self.lines, self.steps,
                self.recorded_changes) == (other.file, other.round_id, other.start_line,
                                           other.lines, other.steps, other.recorded_changes)

    def whole(self) -> RoundEvidence:
        """The replay with its steps (a stored one is read whole only when shown)."""
        return self

    def changes(self) -> dict[str, Any]:
        """What each line changed on the table, as the report shows it (`changes.py`)."""
        if self.recorded_changes is None:
            self.recorded_changes = round_changes(self)
        return self.recorded_changes

    def shown(self) -> RoundEvidence:
        """What the report reads of the replay: its lines and `changes` (a stored one reads
        no step)."""
        return self


STEPS_AT_MOST = 120
"""A round of more statements than this (a record gone wrong: thousands of cards to one
hand) keeps the table after its first 80 and last 30 statements and around each line a
finding stands on: each step holds every hand whole, so keeping them all would grow with
the square of the round's length (one round of 4,000 cards: 2.6 GB and a 110 MB report).
Every line is still shown; the others without the table after them."""


def trace_round(before: TableState, record: RoundRecord, file: str,
                source: dict[int, str], faults: Iterable[int] = ()) -> RoundEvidence:
    """The round's replay, step by step: its lines now, its steps when first read
    (`PendingTrace`). `before`, the table as the round began, is the caller's to give up."""
    last = record.end_line or record.last_line
    lines = [(n, source[n]) for n in range(record.start.line, last + 1) if n in source]
    return PendingTrace(file, record.round_id, record.start.line, lines,
                        (before, record, tuple(faults)))


def _traced(before: TableState, record: RoundRecord, file: str,
            faults: Iterable[int]) -> dict[int, dict[str, Any]]:
    """The table after each statement of the round (the steps a long round keeps)."""
    snapshot = Snapshots()
    steps: dict[int, dict[str, Any]] = {}
    kept = _steps_kept(record, faults)

    def step(event, view: RoundView) -> None:
        if kept is None or event.line in kept:
            steps[event.line] = snapshot(view)

    replay_round(before.clone(), record, file, on_step=step)
    return steps


class PendingTrace(RoundEvidence):
    """A round's replay whose steps are made when first read: the audit picks more rounds
    than a run keeps (a file's first per citation, the run's first of those), and a round
    the run drops is never replayed a second time. Sent to another process (pickled), it
    is traced first and goes as a plain `RoundEvidence`: the pools' workers trace their
    own rounds, as before."""

    def __init__(self, file: str, round_id: str, start_line: int,
                 lines: list[tuple[int, str]],
                 pending: tuple[TableState, RoundRecord, tuple[int, ...]]) -> None:
        self.file, self.round_id, self.start_line, self.lines = file, round_id, start_line, lines
        self.recorded_changes = None
        self.pending: tuple[TableState, RoundRecord, tuple[int, ...]] | None = pending
        self.made: dict[int, dict[str, Any]] = {}

    @property
    def steps(self) -> dict[int, dict[str, Any]]:  # type: ignore[override]
        if self.pending is not None:
            before, record, faults = self.pending
            self.made = _traced(before, record, self.file, faults)
            self.pending = None  # the table and the statements let go
        return self.made

    def __reduce__(self) -> tuple:
        return (RoundEvidence, (self.file, self.round_id, self.start_line, self.lines,
                                self.steps, self.recorded_changes))


def _steps_kept(record: RoundRecord, faults: Iterable[int]) -> set[int] | None:
    """The lines whose step a long round keeps (STEPS_AT_MOST); None: every line."""
    events = record.events
    if len(events) <= STEPS_AT_MOST:
        return None
    kept = {e.line for e in events[:80]} | {e.line for e in events[-30:]}
    for line in faults:
        kept.update((line - 1, line))
    return kept


class Snapshots:
    """The table after each statement of one round: hands with their cards and totals, the
    dealer's cards, every wager's state, and the named players in their seats.

    A statement changes little of the table, so what did not change is shared with the
    step before: the dealer's entry until a card or the reveal, a hand's entry until its
    cards or status change, a wager's until it is
    settled (or its amount grows), the seated players until someone sits or leaves; and
    the list of hands, or of wagers, while all its entries are the step before's (a step
    that deals the dealer a card keeps both): what reads the steps (`changes.py`, the
    store's JSON) then knows them unchanged by identity. Steps are read, never changed.
    """

    def __init__(self) -> None:
        self.hands: dict[int, tuple[int, str, Decimal, dict[str, Any]]] = {}  # by the hand's id
        self.wagers: dict[int, tuple[Decimal, int, dict[str, Any]]] = {}  # by the wager's id
        self.dealers: dict[tuple, dict[str, Any]] = {}  # the one dealer's, by change
        self.players: tuple[int, dict[str, str]] | None = None
        self.last_hands: list[dict[str, Any]] = []  # the step before's lists
        self.last_wagers: list[dict[str, Any]] = []

    def __call__(self, view: RoundView) -> dict[str, Any]:
        # Each hand's and wager's last entry while what it shows is unchanged, looked up
        # here: a step of a round of several seats looks up a dozen of them
        hands, wagers = [], []
        made_hands, made_wagers = self.hands, self.wagers
        for hand in view.hands.values():
            # `natural` (a property) only for a 21: it is one
            total = hand.total
            status = ("over 21" if total > 21 else hand.complete_reason
                      or ("blackjack" if total == 21 and hand.natural else ""))
            made = made_hands.get(id(hand))
            if (made is None or made[0] != hand.changes or made[1] != status
                    or made[2] is not hand.doubled):
                made = self.hand(hand, status)
            hands.append(made[3])
        for wager in view.wagers:
            made = made_wagers.get(id(wager))
            if made is None or made[0] is not wager.amount or made[1] != len(wager.settlements):
                made = self.wager(wager)
            wagers.append(made[2])
        last = self.last_hands
        if len(last) == len(hands) and all(map(is_, hands, last)):
            hands = last
        else:
            self.last_hands = hands
        last = self.last_wagers
        if len(last) == len(wagers) and all(map(is_, wagers, last)):
            wagers = last
        else:
            self.last_wagers = wagers
        return {"hands": hands, "dealer": self.dealer(view.dealer), "wagers": wagers,
                "players": self.seated(view)}

    def dealer(self, dealer: DealerHand) -> dict[str, Any]:
        key = (id(dealer), dealer.changes, dealer.reveal_line is not None)
        entry = self.dealers.get(key)
        if entry is None:
            entry = self.dealers[key] = {"cards": [c.card for c in dealer.cards],
                                         "total": dealer.total if dealer.cards else None,
                                         "revealed": key[2]}
        return entry

    def hand(self, hand: Hand, status: str) -> tuple[int, str, Decimal, dict[str, Any]]:
        """The hand's entry as it is now (`status`: its status now), with the count of
        changes to its cards, the status and the doubled amount it was made at (kept by
        the hand's id: the hands live as long as the round)."""
        made = self.hands[id(hand)] = (hand.changes, status, hand.doubled, {
            "hand": hand.name, "cards": [c.card for c in hand.cards], "total": hand.total,
            "soft": hand.soft, "status": status,
            "doubled": str(hand.doubled) if hand.doubled else ""})
        return made

    def wager(self, wager: Wager) -> tuple[Decimal, int, dict[str, Any]]:
        """The wager's entry as it is now, with the amount and count of settlements it was
        made at (kept by the wager's id: the wagers live as long as the round)."""
        settlement = wager.settlement
        made = self.wagers[id(wager)] = (wager.amount, len(wager.settlements), {
            "wager": wager.label, "amount": str(wager.amount),
            "settled": f"{settlement.outcome} {settlement.amount}" if settlement else "",
            "target": wager.target, "kind": wager.kind, "tip": wager.tip})
        return made

    def seated(self, view: RoundView) -> dict[str, str]:
        changes = len(view.seat_changes)
        if self.players is None or self.players[0] != changes:
            players = dict(view.occupied_before)  # seat -> player, as sits and leaves left it
            for change in view.seat_changes:
                if change.kind == "sit":
                    players[change.seat] = change.player
                else:
                    players.pop(change.seat, None)
            self.players = (changes, {seat: player for seat, player in sorted(players.items())
                                      if player})
        return self.players[1]
