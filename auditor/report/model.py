"""The report's model: what report.html says, as typed values (counts as ints, money as
Decimals per currency, dates as the record wrote them), with no markup and nothing formatted.
Built by `auditor.report.build`; laid out by auditor/output (formatting and templates)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from auditor.findings import Finding
from auditor.money import MoneyTotals
from auditor.results import InputSummary

if TYPE_CHECKING:
    from auditor.waiver_status import WaiverStatus


@dataclass
class Licensee:
    """A casino and its licence, as the tables' headers named them."""

    casino: str | None
    licence: str | None
    tables: int  # how many tables (by identity)
    inputs: list[int]  # the inputs (positions) it stands for


@dataclass
class TableIdentity:
    """A table (by identity) as its files declared it: game, shoe, seats, limits, currency
    and the house rules in force; one row per way its files declared it."""

    key: str | None
    table: str | None
    casino: str | None
    licence: str | None
    game: str | None
    decks: int | None
    seats: int | None
    minimum: Any  # Decimal | None
    maximum: Any  # Decimal | None
    currency: str | None
    # option, value in force, and whether the header declared it (False: the default the
    # auditor assumed; None: the run did not record which)
    rules: list[tuple[str, str, bool | None]]
    # the rules the header leaves unknown (record:header), judged under each value: key, why
    unknown: tuple[tuple[str, str], ...] = ()
    files: int = 0
    rounds: int = 0
    inputs: list[int] = field(default_factory=list)
    varies: bool = False  # the same table declared otherwise in another file


@dataclass
class Masthead:
    """Who was audited and under which house rules."""

    licensees: list[Licensee]
    tables: list[TableIdentity]
    currencies: list[str]
    undeclared_currency: bool


@dataclass
class Scope:
    """What was audited, and what the findings add up to."""

    files: int
    readable_files: int
    unreadable_files: list[InputSummary]
    tables: list[str]
    games: list[str]
    # The first and last gaming days of the inputs' rounds (a run recorded before inputs
    # carried them: their calendar dates), as the From and To filters pick them.
    first_gaming_day: str | None
    last_gaming_day: str | None
    rounds: int
    audited: int
    not_audited: int
    dealers: list[str]
    dealer_inputs: dict[str, list[int]]  # dealer -> the inputs (positions) they dealt in
    findings: int
    severities: dict[str, int]
    rounds_with_findings: int
    money: MoneyTotals  # under- and over-paid per currency, never added


@dataclass
class SummaryRow:
    """Findings of one key (a citation, table, dealer, shift or date): counts by severity,
    and the money one amount per currency."""

    key: Any
    label: str
    findings: int = 0
    high: int = 0
    medium: int = 0
    low: int = 0
    money: MoneyTotals = field(default_factory=MoneyTotals)
    title: str = ""  # a citation's


@dataclass(frozen=True)
class NoReplay:
    """Why a finding's round is not replayed in the report: `cut` (the report's caps),
    `beyond_file_cap` (the audit's per-file cap), `beyond_run_cap` (the run's cap per
    citation, auditor/run.py: its replay was made and not kept), `not_recorded`, or `file`
    (the finding is of the file, not a round)."""

    kind: str
    recorded: int = 0  # rounds whose replay the audit recorded (`cut`, `beyond_run_cap`)


@dataclass(frozen=True)
class FaultRef:
    """A finding on a replay's line."""

    number: int
    citation: str
    severity: str
    message: str
    line: int | None = None


class TableEntity(NamedTuple):
    """The dealer, a hand or a seat, and its raw state (`replay.changes`); `left`: a seated
    player who left on this line."""

    key: str
    state: Any
    left: bool = False


@dataclass
class ReplayLine:
    """One line of a replayed round: what it changed on the table (raw entities, see
    `replay.changes`), the findings standing on it, those it is evidence of (by number), and
    on a finding's line the whole table after it (`state`)."""

    line: int
    time: str
    text: str
    changes: list[TableEntity]
    faults: list[FaultRef]
    supports: list[int]
    state: list[TableEntity] | None


@dataclass
class Replay:
    """A round that holds findings, replayed line by line."""

    number: int
    file: str
    round: str
    first_line: int
    last_line: int
    table: str | None
    date: str | None
    dealer: str | None
    lines: list[ReplayLine]
    findings: list[FaultRef]

    def line(self, number: int | None) -> ReplayLine | None:
        return next((row for row in self.lines if row.line == number), None)


@dataclass
class Replays:
    """The replays the report shows, and what it left out: how many rounds had a recorded
    replay, the findings whose round lost its replay to the report's caps (`cut`), the
    (file, citation) pairs that reached the audit's per-file cap (`full`), and the citations
    of which the run kept as many replays as it keeps (`run_full`)."""

    shown: list[Replay]
    of_finding: dict[int, Replay]  # by the finding's number
    recorded: int
    cut: set[int]
    full: set[tuple[str, str]]
    run_full: set[str] = field(default_factory=set)


@dataclass
class FindingItem:
    """A finding as the report lists it: its number in the run (F-0001 is 1), its table's
    identity, its replay or why it has none."""

    finding: Finding
    number: int
    table_key: str
    replay: Replay | None
    no_replay: NoReplay | None


@dataclass
class CitationGroup:
    """The findings of one citation, with the regulation's words and how the auditor reads
    it; `findings` only in a report small enough to list them as markup."""

    index: int
    citation: str
    title: str
    words: str
    rule: str
    reading: str
    severity: str
    severities: Counter
    money: MoneyTotals
    count: int
    findings: list[FindingItem] = field(default_factory=list)
    on_file: bool = True  # the regulation's words are on file; else the reading is the basis


@dataclass
class CoverageRow:
    """A subsection of the rule base: how it is checked (or why it cannot be), how many
    rounds its check was applied to and how many findings it gave. `note`: why it was not
    applied ("not_selected", "not_in_force", "no_outside_file", "game_absent",
    "no_round"), with `since` (the date it came in force) or `outside_file`."""

    citation: str
    title: str
    checked: bool
    rule: str
    severity: str
    why: str
    applied: int
    findings: int
    games: frozenset[str]
    unreadable: bool
    game_absent: bool
    note: str = ""
    since: Any = None  # date | None
    outside_file: str = ""


@dataclass
class CoverageSection:
    section: str
    title: str
    source: str
    rows: list[CoverageRow]
    checked: int
    not_checkable: int
    applied: int
    absent_games: list[str]  # no check of the section applied: their games were absent


@dataclass
class RoundNotAudited:
    file: str
    round: str
    line: int | None
    # when, and by whom, for a filtered view (the round's unreadable line's finding)
    dealer: str | None = None
    date: str | None = None
    gaming_day: str | None = None
    shift: str | None = None


@dataclass
class Provenance:
    """Who audited what, when (ISO time stamps as the run recorded them), and what was left
    out."""

    version: str
    rule_base: str
    command: str
    started: str | None
    finished: str | None
    inputs: list[InputSummary]
    unreadable: list[tuple[int, InputSummary]]  # (position, input)
    partial: list[InputSummary]  # read, some rounds not audited
    rounds_not_audited: list[RoundNotAudited]
    rounds_listed: bool  # the list accounts for every round not audited
    build: str | None = None  # the SHA-256 of the auditor's files (auditor/build.py)
    # files not finished (no `close`): a round open at their end, read and not judged, or
    # a last line not yet written (auditor/audit.py)
    unfinished: list[InputSummary] = field(default_factory=list)


@dataclass
class Report:
    """Everything report.html says."""

    run: dict[str, Any]
    fingerprint: str
    masthead: Masthead
    scope: Scope
    summaries: dict[str, list[SummaryRow]]  # by citation, table, dealer, shift, date
    groups: list[CitationGroup]
    replays: Replays
    coverage: list[CoverageSection]
    provenance: Provenance
    facets: dict[str, Any]
    waivers: list[WaiverStatus]
    waived: int
    resolved: list[dict[str, Any]] | None  # findings of the baseline not found again
    lazy: bool  # too many findings to list as markup: the page's script draws them
