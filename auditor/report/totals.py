"""What the report counts of a run's findings, gathered in one walk over them.

A run's findings may be read from the run store as they are walked (`store.StoredFindings`),
never held whole: the report walks them three times (these totals; the numbering of the
page's files and texts; the page's records, made as they are written) and keeps only what
it counts, and the findings of the rounds it may replay, whose number the audit bounds
(`run.ReplaySelection`). Findings are known by their number, 1 for the first in the
run's order, as the report shows them (F-0001).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from auditor.findings import Finding
from auditor.gaming_day import DEFAULT_SHIFTS, day_counted, shift_shown
from auditor.money import MoneyTotals

if TYPE_CHECKING:
    from auditor.replay.trace import RoundEvidence
    from auditor.results import AuditResult

Numbered = tuple[int, Finding]  # a finding and its number in the run
NONE = "(none)"  # no gaming day, no shift


def _none_last(value: str) -> tuple[bool, str]:
    return value == NONE, value


def _shift_order(value: str) -> tuple[int, str]:
    """The default shifts in the day's order (as the report's script orders them), then
    the settings' own names, then "(none)"."""
    order = list(DEFAULT_SHIFTS)
    return (order.index(value) if value in order else len(order) + (value == NONE)), value


def key_of(finding: Finding, keys: dict[str, str]) -> str:
    """The finding's table identity: its file's (`keys`, by path), else its table ID."""
    return keys.get(finding.file) or finding.table or ""


@dataclass
class CitationTotals:
    """One citation's findings: how many, by severity, the money, and what its first says."""

    severity: str  # the first finding's
    rule: str  # the first finding's check
    count: int = 0
    severities: Counter = field(default_factory=Counter)
    money: MoneyTotals = field(default_factory=MoneyTotals)  # per currency, never added


class FindingsTotals:
    """Everything the report's summary, groups, facets, coverage and provenance count, and
    which findings stand in rounds with a recorded replay (`members`, by round)."""

    def __init__(self, result: AuditResult, keys: dict[str, str]) -> None:
        self.keys = keys
        self.count = 0
        self.severities: Counter = Counter()
        self.money = MoneyTotals()  # under- and over-paid per currency, never added
        self.waived = 0
        self.rounds: set[tuple[str, str]] = set()  # (file, round) with a finding
        self.citations: dict[str, CitationTotals] = {}
        self.facet_values: dict[str, set[str]] = {name: set() for name in (
            "table", "dealer", "game", "date", "gaming_day", "shift")}
        self.undated = False
        # rounds not audited: (file, round, line, dealer, date, gaming day, shift)
        self.syntax_rounds: set[tuple] = set()
        # The replays the audit recorded, by (file, round): a round ID may repeat in a file.
        self._replays: dict[tuple[str, str], list[RoundEvidence]] = defaultdict(list)
        for evidence in result.evidence.values():
            self._replays[(evidence.file, evidence.round_id)].append(evidence)
        self.replayable: dict[int, RoundEvidence] = {}  # by id(): rounds with a replay
        self.members: dict[int, list[Numbered]] = defaultdict(list)  # their findings

    @classmethod
    def of(cls, findings: Iterable[Finding], result: AuditResult,
           keys: dict[str, str]) -> FindingsTotals:
        totals = cls(result, keys)
        for number, finding in enumerate(findings, start=1):
            totals.add(number, finding)
        return totals

    def add(self, number: int, finding: Finding) -> None:
        self.count += 1
        self.severities[finding.severity] += 1
        difference = finding.difference
        totals = self.citations.get(finding.citation)
        if totals is None:
            totals = self.citations[finding.citation] = CitationTotals(finding.severity,
                                                                       finding.rule)
        totals.count += 1
        totals.severities[finding.severity] += 1
        if difference:
            self.money.add(finding.currency, difference)
            totals.money.add(finding.currency, difference)
        if finding.waiver is not None:
            self.waived += 1
        if finding.round:
            self.rounds.add((finding.file, finding.round))
        if finding.citation == "record:syntax" and finding.round is not None:
            self.syntax_rounds.add((finding.file, finding.round, finding.line, finding.dealer,
                                    finding.date, finding.gaming_day, shift_shown(finding)))
        values = self.facet_values
        values["table"].add(key_of(finding, self.keys))
        # "date": the day From and To pick it by, its gaming day (`day_counted`)
        for name, value in (("dealer", finding.dealer), ("game", finding.game),
                            ("date", day_counted(finding))):
            if value:
                values[name].add(value)
        # The gaming day and shift filters: "(none)" for a finding without one (no date, an
        # hour no shift covers), as the summary's shift table names it.
        values["gaming_day"].add(finding.gaming_day or NONE)
        values["shift"].add(shift_shown(finding) or NONE)
        self.undated = self.undated or not finding.date
        evidence = self.replay_of(finding)
        if evidence is not None:
            self.replayable[id(evidence)] = evidence
            self.members[id(evidence)].append((number, finding))

    def replay_of(self, finding: Finding) -> RoundEvidence | None:
        """The recorded replay of the finding's round, if any."""
        if finding.round is None:
            return None
        candidates = self._replays.get((finding.file, finding.round), [])
        for evidence in candidates:  # a round ID may repeat in a file (a new shoe)
            if evidence.last_line is not None and finding.line is not None and \
                    evidence.start_line <= finding.line <= evidence.last_line:
                return evidence
        return candidates[0] if len(candidates) == 1 else None

    def found(self) -> Counter:
        """Findings by citation."""
        return Counter({citation: totals.count for citation, totals in self.citations.items()})

    def facets(self) -> dict[str, Any]:
        values = self.facet_values
        return {"values": {"table": sorted(values["table"] - {""}),
                           "dealer": sorted(values["dealer"]),
                           "game": sorted(values["game"]),
                           "date": sorted(values["date"]),
                           "gaming_day": sorted(values["gaming_day"], key=_none_last),
                           "shift": sorted(values["shift"], key=_shift_order)},
                "undated": self.undated}
