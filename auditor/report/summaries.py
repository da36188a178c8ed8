"""Findings counted by citation, table, dealer, shift and date, with the money involved."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from auditor.money import MoneyTotals
from auditor.report.model import SummaryRow
from auditor.rulebase import rule_entries

if TYPE_CHECKING:
    from auditor.report.frames import RunSummary

SHIFT_ORDER = ("day", "swing", "grave", "(none)")
DIMENSIONS = ("citation", "table", "dealer", "shift", "date")


def build_summaries(summary: RunSummary) -> dict[str, list[SummaryRow]]:
    """A row per key, its money one amount per currency (`money`), never added; shifts in
    the day's order, the others as `summary_by` orders them."""
    entries = rule_entries()
    summaries: dict[str, list[SummaryRow]] = {}
    for column in DIMENSIONS:
        rows: dict[object, SummaryRow] = {}
        for part in summary.by(column):  # by key and currency
            key = part[column]
            row = rows.get(key)
            if row is None:
                label = str(key)
                if column == "date" and label in ("(none)", "None"):
                    label = "undated"  # a shoe without date=: kept, and said so
                row = rows[key] = SummaryRow(key, label, money=MoneyTotals())
                if column == "citation":
                    entry = entries.get(key)
                    row.title = entry.title if entry else ""
            row.findings += int(part["findings"])
            row.high += int(part["high"])
            row.medium += int(part["medium"])
            row.low += int(part["low"])
            row.money.add_totals(part["currency"], Decimal(part["under_paid"]),
                                 Decimal(part["over_paid"]))
        ordered = list(rows.values())
        if column == "shift":
            ordered.sort(key=lambda r: SHIFT_ORDER.index(r.key)
                         if r.key in SHIFT_ORDER else len(SHIFT_ORDER))
        summaries[column] = ordered
    return summaries
