"""Findings counted for the summaries: by citation, table, dealer, shift and currency.

What the report, summary.csv and findings.json say of the run's findings as a whole, one
row per key and currency (amounts of two currencies are never added). A finding's table is
known by the file it came from (`table_key`: licence or else casino, "/", table ID), so
equal table IDs of two casinos never merge. The model of what is said; how each output
writes it is in auditor/output/.

Counted in plain Python: the rows are those a pandas groupby gave before, key for
key and in the same order, and an audit's outputs need not import pandas (its import
alone cost a twentieth of a night's audit).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from auditor.checks.base import citation_sort_key
from auditor.findings import Finding
from auditor.gaming_day import day_counted, shift_shown
from auditor.money import currency_order, exact_text

if TYPE_CHECKING:
    from auditor.results import InputSummary

SUMMARY_DIMENSIONS = ("citation", "table", "dealer", "shift", "currency")


def identities(inputs: Iterable[InputSummary]) -> dict[str, dict[str, str | None]]:
    """Each file's table identity (casino, licence, table_key, currency), by path."""
    return {i.path: {"casino": i.casino, "licence": i.licence, "table_key": i.table_key,
                     "currency": i.currency} for i in inputs}


def summary_frame(findings: Iterable[Finding], inputs: Iterable[InputSummary] = ()
                  ) -> SummaryColumns:
    """Only what the summaries count (`summary_by`), the findings walked once: a month's
    findings as whole rows are several times the findings themselves."""
    columns = SummaryColumns(inputs)
    for finding in findings:
        columns.add(finding)
    return columns


class SummaryColumns:
    """The columns the summaries count (`SUMMARY_FRAME_COLUMNS`), a finding at a time. Their
    texts repeat (a month's findings name a few hundred tables, dealers and dates): one
    copy of each is kept, as findings read from the store each bring their own."""

    def __init__(self, inputs: Iterable[InputSummary] = ()) -> None:
        self.identity = identities(inputs)
        self.columns: dict[str, list] = {name: [] for name in SUMMARY_FRAME_COLUMNS}
        self.texts: dict[str, str] = {}

    def add(self, finding: Finding) -> None:
        columns, known, texts = self.columns, self.identity.get(finding.file), self.texts
        table = (known["table_key"] if known else None) or finding.table
        for name, value in (("citation", finding.citation), ("table_key", table),
                            ("dealer", finding.dealer), ("date", day_counted(finding)),
                            ("shift", shift_shown(finding)),
                            ("severity", finding.severity)):
            columns[name].append(value if value is None else texts.setdefault(value, value))
        columns["difference"].append(finding.difference)
        # A run stored before findings carried their currency: the file's.
        columns["currency"].append(finding.currency if finding.currency is not None or not known
                                   else known["currency"])

    @property
    def empty(self) -> bool:
        return not self.columns["citation"]

    def __len__(self) -> int:
        return len(self.columns["citation"])

    def __getitem__(self, name: str) -> list:
        return self.columns[name]

    def __setitem__(self, name: str, values: list) -> None:
        if len(values) != len(self):
            raise ValueError(f"{len(values)} values for a column of {len(self)}")
        self.columns[name] = list(values)

    def copy(self) -> SummaryColumns:
        other = SummaryColumns()
        other.identity, other.texts = self.identity, self.texts
        other.columns = {name: list(values) for name, values in self.columns.items()}
        return other


SUMMARY_FRAME_COLUMNS = ["citation", "table_key", "dealer", "date", "shift", "severity",
                         "difference", "currency"]


UNDECLARED_KEY = ""  # the group of findings whose table declares no currency (never a code)
NO_KEY = "(none)"  # the group of findings with no value in the column counted by


SummaryRows = list[dict[str, Any]]

# What the outputs count the run's findings by: findings.json and summary.csv the first five,
# the report the first four and the date, the terminal the citation and the currency.
SUMMARY_BY = (*SUMMARY_DIMENSIONS, "date")


@dataclass(frozen=True)
class RunSummary:
    """The run's findings counted once, by each of `SUMMARY_BY` (`summary_by`), and handed
    to every output (findings.json, summary.csv, report.html, the terminal): none counts
    them again. The rows are read, never changed."""

    rows: dict[str, SummaryRows]

    @classmethod
    def of(cls, frame: SummaryColumns) -> RunSummary:
        return cls({dimension: summary_by(frame, dimension) for dimension in SUMMARY_BY})

    def by(self, dimension: str) -> SummaryRows:
        return self.rows[dimension]


def run_summary(findings: Iterable[Finding], inputs: Iterable[InputSummary] = ()
                ) -> RunSummary:
    """The summary of a run's findings (walked once), for every output."""
    return RunSummary.of(summary_frame(findings, inputs))


def summary_by(frame: SummaryColumns, column: str) -> SummaryRows:
    """Findings counted by `column`, currency and severity, with the money involved: one row
    per key and currency (currency None: undeclared), so no sum adds two currencies. A table
    is counted by its identity (`table_key`), not its ID alone.

    Each row: the key (named `column`; no key for "currency"), "currency", "findings",
    "high", "medium", "low", "under_paid" and "over_paid" (exact text); the rows by key
    (citations in the rule base's order) and then currency, undeclared last."""
    columns = frame.columns
    by_currency = column == "currency"
    source = "table_key" if column == "table" else column
    zero = Decimal(0)
    # By (key, currency) in the order first met: counts, then the money as it adds up (an
    # amount's own exponent kept: the sum is what the first amount plus the others gives).
    groups: dict[tuple, list] = {}
    keys = [None] * len(frame) if by_currency else columns[source]
    for key, currency, severity, difference in zip(keys, columns["currency"],
                                                    columns["severity"],
                                                    columns["difference"], strict=True):
        group = (None if by_currency else NO_KEY if key is None else key,
                 UNDECLARED_KEY if currency is None else currency)
        under = -difference if difference is not None and difference < 0 else zero
        over = difference if difference is not None and difference > 0 else zero
        counted = groups.get(group)
        if counted is None:
            groups[group] = [1, severity == "high", severity == "medium", severity == "low",
                             under, over]
            continue
        counted[0] += 1
        counted[1] += severity == "high"
        counted[2] += severity == "medium"
        counted[3] += severity == "low"
        counted[4] += under
        counted[5] += over
    rows = []
    for (key, currency), (found, high, medium, low, under, over) in groups.items():
        currency = currency or None  # undeclared: None (null in JSON), never ""
        if by_currency:
            first: tuple = ()
            row: dict[str, Any] = {"currency": currency}
        else:
            first = citation_sort_key(key) if column == "citation" else (key,)
            row = {column: key, "currency": currency}
        row.update(findings=found, high=int(high), medium=int(medium), low=int(low),
                   under_paid=exact_text(under), over_paid=exact_text(over))
        rows.append(((*first, *currency_order(currency)), row))
    rows.sort(key=lambda pair: pair[0])  # stable: equal keys keep the order first met
    return [row for _, row in rows]
