"""Findings as a pandas frame: the CSV export, and summaries by citation, table, dealer, shift.

A finding's table is known by the file it came from: the file's header names the casino,
its licence and the table, and `table_key` (licence or else casino, "/", table ID) is the
table's identity in every summary, so equal table IDs of two casinos never merge.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from decimal import Decimal
from itertools import chain
from typing import TYPE_CHECKING, Any

import pandas as pd

from auditor import shown
from auditor.batches import batched
from auditor.checks.base import citation_sort_key
from auditor.findings import FINDING_FIELDS, Finding
from auditor.gaming_day import shift_shown
from auditor.money import currency_label, currency_order, exact_text

if TYPE_CHECKING:
    from auditor.results import InputSummary

IDENTITY_COLUMNS = ["casino", "licence", "table_key", "currency"]
WAIVER_COLUMNS = ["baseline", "waived", "waiver_justification", "waiver_approved_by",
                  "waiver_expires"]
CSV_COLUMNS = [*FINDING_FIELDS, "column", "game", "dealer", "date", "time", "gaming_day",
               "shift", "player", *WAIVER_COLUMNS,
               *IDENTITY_COLUMNS]

SUMMARY_DIMENSIONS = ("citation", "table", "dealer", "shift", "currency")


def identities(inputs: Iterable[InputSummary]) -> dict[str, dict[str, str | None]]:
    """Each file's table identity (casino, licence, table_key, currency), by path."""
    return {i.path: {"casino": i.casino, "licence": i.licence, "table_key": i.table_key,
                     "currency": i.currency} for i in inputs}


def with_identity(row: dict, identity: dict[str, dict[str, str | None]]) -> dict:
    """A finding's row with its file's table identity (a finding of a file with no header
    keeps its own table ID as its key)."""
    known = identity.get(row["file"])
    if known is None:
        return {**row, "casino": None, "licence": None, "table_key": row.get("table"),
                "currency": None}
    return {**row, **known, "table_key": known["table_key"] or row.get("table")}


def findings_frame(findings: list[Finding], inputs: Iterable[InputSummary] = ()
                   ) -> pd.DataFrame:
    identity = identities(inputs)
    rows = [with_identity(_row(f), identity) for f in findings]
    frame = pd.DataFrame(rows, columns=[*CSV_COLUMNS, "evidence"])
    for name in MONEY_COLUMNS:  # exact amounts: Decimal objects, summed exactly
        frame[name] = frame[name].map(_amount, na_action="ignore").astype(object)
    frame["line"] = frame["line"].astype("Int64")
    frame["column"] = frame["column"].astype("Int64")
    frame["shift"] = pd.Series([shift_shown(f) for f in findings], dtype=object)
    return frame


def summary_frame(findings: Iterable[Finding], inputs: Iterable[InputSummary] = ()
                  ) -> pd.DataFrame:
    """Only what the summaries count (`summary_by`), the findings walked once: a month's
    findings as whole rows (`findings_frame`) are several times the findings themselves."""
    columns = SummaryColumns(inputs)
    for finding in findings:
        columns.add(finding)
    return columns.frame()


class SummaryColumns:
    """The columns of `summary_frame`, a finding at a time. Their texts repeat (a month's
    findings name a few hundred tables, dealers and dates): one copy of each is kept, as
    findings read from the store each bring their own."""

    def __init__(self, inputs: Iterable[InputSummary] = ()) -> None:
        self.identity = identities(inputs)
        self.columns: dict[str, list] = {name: [] for name in SUMMARY_FRAME_COLUMNS}
        self.texts: dict[str, str] = {}

    def add(self, finding: Finding) -> None:
        columns, known, texts = self.columns, self.identity.get(finding.file), self.texts
        table = (known["table_key"] if known else None) or finding.table
        for name, value in (("citation", finding.citation), ("table_key", table),
                            ("dealer", finding.dealer), ("date", finding.date),
                            ("shift", shift_shown(finding)),
                            ("severity", finding.severity)):
            columns[name].append(value if value is None else texts.setdefault(value, value))
        columns["difference"].append(finding.difference)
        # A run stored before findings carried their currency: the file's.
        columns["currency"].append(finding.currency if finding.currency is not None or not known
                                   else known["currency"])

    def frame(self) -> pd.DataFrame:
        columns = {**self.columns,
                   "difference": pd.Series(self.columns["difference"], dtype=object)}
        return pd.DataFrame(columns, columns=SUMMARY_FRAME_COLUMNS)


SUMMARY_FRAME_COLUMNS = ["citation", "table_key", "dealer", "date", "shift", "severity",
                         "difference", "currency"]


def _row(finding: Finding) -> dict:
    """A finding's JSON form with its waiver flattened into columns."""
    row = finding.as_dict()
    waiver = row.pop("waiver", None) or {}
    row["waived"] = finding.waiver is not None
    row["waiver_justification"] = waiver.get("justification")
    row["waiver_approved_by"] = waiver.get("approved_by")
    row["waiver_expires"] = waiver.get("expires")
    return row


CSV_ROWS_AT_ONCE = 1000  # findings made into a frame at a time: the CSV is written in parts


def to_csv(findings: Iterable[Finding], inputs: Iterable[InputSummary] = ()) -> Iterator[str]:
    """findings.csv in parts of CSV_ROWS_AT_ONCE findings, the header with the first."""
    inputs = list(inputs)
    batches = batched(findings, CSV_ROWS_AT_ONCE)
    first = next(batches, [])  # with no finding, the header alone
    for number, batch in enumerate(chain([first], batches)):
        frame = findings_frame(batch, inputs)[CSV_COLUMNS]
        # bidi controls shown as markers (no comma, quote or newline in them: the CSV holds)
        yield shown.neutral(spreadsheet_safe(frame).to_csv(index=False, header=number == 0,
                                                           lineterminator="\n"))


MONEY_COLUMNS = ("expected", "actual", "difference")
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _amount(text: str) -> Decimal:
    return Decimal(text)


def spreadsheet_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """Text cells that a spreadsheet would read as a formula (starting with = + - @, a tab
    or a carriage return) get a leading apostrophe, as OWASP advises for CSV exports;
    record text such as a file name is untrusted. Amounts and counts stay numbers."""
    def neutral(value: object) -> object:
        if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
            return "'" + value
        return value

    safe = frame.copy()
    for name in safe.columns:
        if name not in MONEY_COLUMNS and not pd.api.types.is_numeric_dtype(safe[name]):
            safe[name] = safe[name].map(neutral)
    return safe


def summary_csv(frame: pd.DataFrame) -> str:
    """Every summary in one long table: dimension, key, currency, counts and money. A key's
    findings in two currencies are two rows: amounts of two currencies are never added (the
    `currency` dimension gives each currency's total; an empty currency is undeclared)."""
    parts = [summary_by(frame, d).rename(columns={d: "key"}).assign(dimension=d)
             for d in SUMMARY_DIMENSIONS if d != "currency"]
    totals = summary_by(frame, "currency")
    parts.append(totals.assign(dimension="currency", key=totals["currency"].map(currency_label)))
    table = pd.concat(parts, ignore_index=True)
    columns = ["dimension", "key", "currency", "findings", "high", "medium", "low",
               "under_paid", "over_paid"]
    return shown.neutral(table[columns].to_csv(index=False, lineterminator="\n"))


UNDECLARED_KEY = ""  # the group of findings whose table declares no currency (never a code)


_shared: dict[Any, Any] | None = None  # while `summaries_shared`: summaries made, by content


@contextmanager
def summaries_shared() -> Iterator[None]:
    """Within it, `summary_by` of a frame of the same content and the same column is made
    once: findings.json, summary.csv and the report each count the run's findings by the
    same five columns, fifteen pandas groupbys of which five differ (issue 27). The outputs
    of one run are made within it; nothing changes the findings meanwhile."""
    global _shared
    _shared = {}
    try:
        yield
    finally:
        _shared = None


def summary_by(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    """Findings counted by `column`, currency and severity, with the money involved: one row
    per key and currency (currency None: undeclared), so no sum adds two currencies. A table
    is counted by its identity (`table_key`), not its ID alone."""
    shared = _shared
    if shared is None:
        return _summary_by(frame, column)
    kept = shared.get(id(frame))  # the frame is kept with its key: its id stays its own
    if kept is None or kept[0] is not frame:
        kept = shared[id(frame)] = (frame, _content(frame))
    key = (column, kept[1])
    table = shared.get(key)
    if table is None:
        table = shared[key] = _summary_by(frame, column)
    return table.copy()  # each caller its own, as when made for it


def _content(frame: pd.DataFrame) -> tuple:
    """What a frame of `summary_frame` holds, comparable: texts as they are, amounts as
    their exact text (1.0 and 1.00 are equal numbers, written apart)."""
    return (tuple(frame.columns), len(frame), *(
        tuple(map(str, frame[name])) if name == "difference" else tuple(frame[name].tolist())
        for name in frame.columns))


def _summary_by(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    source = "table_key" if column == "table" else column
    if frame.empty:
        return pd.DataFrame(columns=[*dict.fromkeys([column, "currency"]), "findings", "high",
                                     "medium", "low", "under_paid", "over_paid"])
    difference = frame["difference"]
    severity = frame["severity"]
    zero = Decimal(0)
    data = pd.DataFrame({
        "key": frame[source].fillna("(none)"),
        "currency": frame["currency"].fillna(UNDECLARED_KEY), "findings": 1,
        "high": severity == "high", "medium": severity == "medium", "low": severity == "low",
        "under_paid": difference.map(lambda d: -d if d is not None and d < 0 else zero,
                                     na_action=None).astype(object),
        "over_paid": difference.map(lambda d: d if d is not None and d > 0 else zero,
                                    na_action=None).astype(object)})
    if column == "currency":
        data = data.drop(columns="key")
    # One sum of every column: the findings, each severity (a count of True), and the
    # money, exactly (Decimal objects), written as exact text (`money.exact_text`).
    keys = ["currency"] if column == "currency" else ["key", "currency"]
    table = data.groupby(keys, sort=False).sum()
    for name in ("under_paid", "over_paid"):
        table[name] = table[name].map(lambda amount: exact_text(Decimal(amount)))
    table = table.reset_index()
    if column != "currency":
        table = table.rename(columns={"key": column})
    # Object, not pandas' text: an undeclared currency stays None (null in JSON), not NaN.
    table["currency"] = pd.Series([c if isinstance(c, str) and c else None
                                   for c in table["currency"]], index=table.index, dtype=object)
    if column == "citation":
        first = table["citation"].map(citation_sort_key)
    elif column == "currency":
        first = pd.Series([()] * len(table), index=table.index)
    else:
        first = table[column].map(lambda key: (key,))
    order = [(*a, *currency_order(b)) for a, b in zip(first, table["currency"], strict=True)]
    table = table.iloc[sorted(range(len(table)), key=order.__getitem__)]
    return table.reset_index(drop=True)
