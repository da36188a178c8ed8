"""Findings as a pandas frame: the CSV export, and summaries by citation, table, dealer, shift."""

from __future__ import annotations

import pandas as pd

from auditor.checks.base import citation_sort_key
from auditor.findings import FINDING_FIELDS, Finding

CSV_COLUMNS = [*FINDING_FIELDS, "column", "game", "dealer", "date", "time", "baseline",
               "waived", "waiver_justification", "waiver_approved_by", "waiver_expires"]

SHIFTS = (("day", 6, 14), ("swing", 14, 22))  # local hours; anything else is "grave"
SUMMARY_DIMENSIONS = ("citation", "table", "dealer", "shift")


def findings_frame(findings: list[Finding]) -> pd.DataFrame:
    rows = [_row(f) for f in findings]
    frame = pd.DataFrame(rows, columns=[*CSV_COLUMNS, "evidence"])
    frame["line"] = frame["line"].astype("Int64")
    frame["column"] = frame["column"].astype("Int64")
    frame["shift"] = frame["time"].map(shift_of)
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


def shift_of(time: str | None) -> str | None:
    """The shift of a local time stamp: day 06-14, swing 14-22, grave 22-06."""
    if not isinstance(time, str) or len(time) < 2 or not time[:2].isdigit():
        return None
    hour = int(time[:2])
    for name, start, end in SHIFTS:
        if start <= hour < end:
            return name
    return "grave"


def to_csv(findings: list[Finding]) -> str:
    return findings_frame(findings)[CSV_COLUMNS].to_csv(index=False, lineterminator="\n")


def summary_csv(frame: pd.DataFrame) -> str:
    """Every summary in one long table: dimension, key, counts and money."""
    parts = [summary_by(frame, d).rename(columns={d: "key"}).assign(dimension=d)
             for d in SUMMARY_DIMENSIONS]
    table = pd.concat(parts, ignore_index=True)
    columns = ["dimension", "key", "findings", "high", "medium", "low", "under_paid", "over_paid"]
    return table[columns].to_csv(index=False, lineterminator="\n")


def summary_by(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    """Findings counted by `column` and severity, with the money involved."""
    if frame.empty:
        return pd.DataFrame(columns=[column, "findings", "high", "medium", "low",
                                     "under_paid", "over_paid"])
    difference = frame["difference"]
    severity = frame["severity"]
    data = pd.DataFrame({
        "key": frame[column].fillna("(none)"), "findings": 1,
        "high": severity == "high", "medium": severity == "medium", "low": severity == "low",
        "under_paid": difference.where(difference < 0, 0).fillna(0).abs(),
        "over_paid": difference.where(difference > 0, 0).fillna(0)})
    # One vectorised sum of every column: the findings, each severity (a count of True),
    # and the money (rounding leaves the counts alone).
    table = data.groupby("key", sort=False).sum().round(2)
    table = table.reset_index().rename(columns={"key": column})
    if column == "citation":
        table = table.sort_values("citation", key=lambda c: c.map(citation_sort_key))
    else:
        table = table.sort_values(column)
    return table.reset_index(drop=True)
