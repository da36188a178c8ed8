"""Findings as a pandas frame: the CSV export, and summary.csv (the summaries themselves are
counted in auditor/report/frames.py).

A finding's table is known by the file it came from: the file's header names the casino,
its licence and the table, and `table_key` (licence or else casino, "/", table ID) is the
table's identity in every summary, so equal table IDs of two casinos never merge.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from decimal import Decimal
from itertools import chain
from typing import TYPE_CHECKING

import pandas as pd

from auditor import shown
from auditor.batches import batched
from auditor.findings import FINDING_FIELDS, Finding
from auditor.gaming_day import shift_shown
from auditor.money import currency_label
from auditor.report.frames import SUMMARY_DIMENSIONS, identities, summary_by

if TYPE_CHECKING:
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


