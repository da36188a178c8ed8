"""findings.csv and summary.csv (the summaries themselves are counted in
auditor/report/frames.py), written by Python's csv module as pandas' `to_csv` wrote them
before (so that an audit's outputs import no pandas): empty for a missing value, the
money as exact text, counts as integers, QUOTE_MINIMAL, "\n" between rows.

A finding's table is known by the file it came from: the file's header names the casino,
its licence and the table, and `table_key` (licence or else casino, "/", table ID) is the
table's identity in every summary, so equal table IDs of two casinos never merge.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from decimal import Decimal
from itertools import chain
from typing import TYPE_CHECKING, Any

from auditor import shown
from auditor.batches import batched
from auditor.findings import FINDING_FIELDS, Finding
from auditor.gaming_day import shift_shown
from auditor.money import currency_label
from auditor.report.frames import SUMMARY_DIMENSIONS, identities

if TYPE_CHECKING:
    import pandas as pd

    from auditor.report.frames import RunSummary
    from auditor.results import InputSummary

IDENTITY_COLUMNS = ["casino", "licence", "table_key", "currency"]
WAIVER_COLUMNS = ["baseline", "waived", "waiver_justification", "waiver_approved_by",
                  "waiver_expires"]
CSV_COLUMNS = [*FINDING_FIELDS, "column", "game", "dealer", "date", "time", "gaming_day",
               "shift", "player", *WAIVER_COLUMNS,
               *IDENTITY_COLUMNS]


def with_identity(row: dict, identity: dict[str, dict[str, str | None]]) -> dict:
    """A finding's row with its file's table identity (a finding of a file with no header
    keeps its own table ID as its key)."""
    known = identity.get(row["file"])
    if known is None:
        return {**row, "casino": None, "licence": None, "table_key": row.get("table"),
                "currency": None}
    return {**row, **known, "table_key": known["table_key"] or row.get("table")}


def _csv_text(rows: Iterable[Iterable[Any]]) -> str:
    """Rows as CSV, as pandas' `to_csv(lineterminator="\n")` writes them (a missing value
    is written as nothing)."""
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    return text.getvalue()


def _csv_row(finding: Finding, identity: dict[str, dict[str, str | None]]) -> list[Any]:
    """A finding's row of findings.csv, its cells in CSV_COLUMNS' order."""
    row = with_identity(_row(finding), identity)
    row["shift"] = shift_shown(finding)
    cells = []
    for name in CSV_COLUMNS:
        value = row[name]
        if value is None:
            cells.append("")
        elif name in MONEY_COLUMNS:  # exact amounts, as their decimal text
            cells.append(str(Decimal(value)))
        elif name in _NUMBER_COLUMNS or type(value) is bool:  # counts and flags as they are
            cells.append(value)
        else:
            cells.append(_neutral(value))
    return cells


_NUMBER_COLUMNS = ("line", "column")


def _row(finding: Finding) -> dict:
    """A finding's JSON form with its waiver flattened into columns."""
    row = finding.as_dict()
    waiver = row.pop("waiver", None) or {}
    row["waived"] = finding.waiver is not None
    row["waiver_justification"] = waiver.get("justification")
    row["waiver_approved_by"] = waiver.get("approved_by")
    row["waiver_expires"] = waiver.get("expires")
    return row


CSV_ROWS_AT_ONCE = 1000  # findings made into rows at a time: the CSV is written in parts


def to_csv(findings: Iterable[Finding], inputs: Iterable[InputSummary] = ()) -> Iterator[str]:
    """findings.csv in parts of CSV_ROWS_AT_ONCE findings, the header with the first."""
    identity = identities(inputs)
    batches = batched(findings, CSV_ROWS_AT_ONCE)
    first = next(batches, [])  # with no finding, the header alone
    for number, batch in enumerate(chain([first], batches)):
        rows = [_csv_row(finding, identity) for finding in batch]
        # bidi controls shown as markers (no comma, quote or newline in them: the CSV holds)
        yield shown.neutral(_csv_text([CSV_COLUMNS, *rows] if number == 0 else rows))


MONEY_COLUMNS = ("expected", "actual", "difference")
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _neutral(value: object) -> object:
    """A text cell that a spreadsheet would read as a formula (starting with = + - @, a tab
    or a carriage return) gets a leading apostrophe, as OWASP advises for CSV exports;
    record text such as a file name is untrusted."""
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


def spreadsheet_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """A frame's text cells made safe (`_neutral`); amounts and counts stay numbers."""
    import pandas as pd

    safe = frame.copy()
    for name in safe.columns:
        if name not in MONEY_COLUMNS and not pd.api.types.is_numeric_dtype(safe[name]):
            safe[name] = safe[name].map(_neutral)
    return safe


SUMMARY_CSV_COLUMNS = ["dimension", "key", "currency", "findings", "high", "medium", "low",
                       "under_paid", "over_paid"]


def summary_csv(summary: RunSummary) -> str:
    """Every summary in one long table: dimension, key, currency, counts and money. A key's
    findings in two currencies are two rows: amounts of two currencies are never added (the
    `currency` dimension gives each currency's total; an empty currency is undeclared)."""
    rows: list[list[Any]] = [SUMMARY_CSV_COLUMNS]
    for dimension in SUMMARY_DIMENSIONS:
        for row in summary.by(dimension):
            key = currency_label(row["currency"]) if dimension == "currency" else row[dimension]
            # the key is record text (a casino's name, a dealer's ID): neutral, as in
            # findings.csv; counts and amounts stay numbers
            rows.append([dimension, _neutral(key),
                         "" if row["currency"] is None else _neutral(row["currency"]),
                         row["findings"], row["high"], row["medium"], row["low"],
                         row["under_paid"], row["over_paid"]])
    return shown.neutral(_csv_text(rows))
