"""Ten sticks 21's punched player's card (20:18:15:30.02(¶11)), judged across files in time order.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePath

from auditor import events as ev
from auditor.checks.base import Check, register
from auditor.checks.tensticks.common import TENSTICKS
from auditor.fieldwise import Fieldwise
from auditor.findings import Finding
from auditor.replay.view import RoundView


@dataclass(frozen=True, slots=True, repr=False)
class PunchCardFact(Fieldwise):
    """A punched player's card punched (at a `leave`) or handed in (at a `sit`)."""

    kind: str  # punch or hand-in
    card: str
    punches: int
    player: str | None
    seat: str
    date: str | None
    time: str | None
    file: str
    line: int
    round: str
    table: str
    dealer: str | None
    currency: str | None = None

    @property
    def place(self) -> str:
        return f"table {self.table} ({PurePath(self.file).name} line {self.line}"


def in_time_order(facts: list[PunchCardFact]) -> Iterator[PunchCardFact]:
    """The facts of every file merged by date and time, each file's in record order.

    Line order is event order within a file (bjh-format.md), so only files are interleaved.
    A fact with no date (a round of a shoe without `date=`) takes the date of the fact
    before it in its file, or of the first dated one after it.
    """
    by_file: dict[str, list[PunchCardFact]] = {}
    for fact in facts:  # merged in input order, each file's facts in record order
        by_file.setdefault(fact.file, []).append(fact)
    timelines = []
    for items in by_file.values():
        dated = [f.date for f in items if f.date]
        date = dated[0] if dated else None
        timeline = []
        for fact in items:
            date = fact.date or date
            timeline.append(((date or "", fact.time or ""), fact))
        timelines.append(timeline)
    for _, fact in heapq.merge(*timelines, key=lambda entry: entry[0]):
        yield fact


@register
class PunchedPlayersCard(Check):
    """A player's card punched with other than the lights held, handed in with other than
    its punches, or handed in twice.

    Regulation: "A casino may allow players leaving the game to receive a player's card on
    which the dealer punches a total equaling the number of lights which that player
    accumulated during play. If the player resumes the game at a later time, the player
    would start the game with the same number of bonus lights as punches on the player's
    card. The player must surrender the card at the time the game is resumed. The form of
    the player's card used by a casino under this option must have the prior approval of the
    commission." (20:18:15:30.02(¶11))
    Violating: the player holds 6 lights and `leave s2 punchcard=PC-9 punches=7`; or PC-9
    was punched 6 and `sit s5 player=P-1 punchcard=PC-9 punches=7` at another table; or
    PC-9 is handed in again with no new punch in between.
    Compliant: `leave s2 punchcard=PC-9 punches=6`, then at any table, on any day,
    `sit s5 player=P-1 punchcard=PC-9 punches=6`.
    Reading: the lights held are the seat's last recorded count, what the player started
    with if no light followed, and zero after a prize. Cards are followed across every file
    of the audit in time order (the round's date and the statement's time), from every
    round, even one with an unreadable line; a card handed in that was punched outside the
    audited records is not a finding, but a second hand-in of it is. Handing a card in
    surrenders it; a new punch of the same card makes it good again. The prior approval of
    the card's form is not in a record. A card handed in with the wrong punches is this
    subsection's one finding, at the statement that punched it: the player who hands it in
    starts with the punches as recorded, and the lights count on from them ((5) and (8)
    judge the count from there).
    """

    citation = "20:18:15:30.02(¶11)"
    name = "tensticks.punched_players_card"
    options = frozenset()
    severity = "medium"
    needs = frozenset({ev.Leave})
    games = TENSTICKS

    def round(self, view: RoundView) -> Iterator[Finding]:
        for change in view.seat_changes:
            if (change.kind == "leave" and change.punchcard is not None
                    and change.punches is not None and change.lights_held is not None
                    and change.punches != change.lights_held):
                yield self.finding(view, change.line, f"Card {change.punchcard} was punched "
                                   f"{change.punches} times, but the player leaving "
                                   f"{change.seat} held {change.lights_held} lights.",
                                   seat=change.seat)

    def collect(self, view: RoundView) -> list[PunchCardFact]:
        return [PunchCardFact("punch" if c.kind == "leave" else "hand-in", c.punchcard,
                              c.punches, c.player, c.seat, view.date, view.line_time(c.line),
                              view.file, c.line, view.round_id, view.config.table_id,
                              view.dealer_id, view.config.currency)
                for c in view.seat_changes if c.punchcard is not None and c.punches is not None]

    def audit(self, facts: list[PunchCardFact]) -> Iterator[Finding]:
        punched: dict[str, PunchCardFact] = {}  # card -> its last punch, until handed in
        handed_in: dict[str, PunchCardFact] = {}  # card -> its hand-in, until punched again
        for fact in in_time_order(facts):
            if fact.kind == "punch":
                punched[fact.card] = fact
                handed_in.pop(fact.card, None)
                continue
            earlier = handed_in.get(fact.card)
            punch = punched.pop(fact.card, None)
            handed_in[fact.card] = fact
            if earlier is not None:
                yield self._finding(fact, f"Card {fact.card} was handed in at {fact.seat}, but it "
                                    f"had already been surrendered at {earlier.place}) and not "
                                    "punched since.")
            elif punch is not None and punch.punches != fact.punches:
                yield self._finding(fact, f"Card {fact.card} was handed in at {fact.seat} with "
                                    f"{fact.punches} punches, but it was punched "
                                    f"{punch.punches} at {punch.place}).")

    def _finding(self, fact: PunchCardFact, message: str) -> Finding:
        return Finding(citation=self.citation, rule=self.name, severity=self.severity,
                       file=fact.file, line=fact.line, round=fact.round, table=fact.table,
                       seat=fact.seat, message=message, game="tensticks", dealer=fact.dealer,
                       date=fact.date, time=fact.time, currency=fact.currency)
