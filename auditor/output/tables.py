"""Findings as a pandas frame: the CSV export, and summaries by citation, table, dealer, shift."""

from __future__ import annotations

import pandas as pd

from auditor.checks.base import citation_sort_key
from auditor.findings import FINDING_FIELDS, Finding
from auditor.tally import shift_of  # one definition of the shifts, for the report and trends

CSV_COLUMNS = [*FINDING_FIELDS, "column", "game", "dealer", "date", "time"]

SUMMARY_DIMENSIONS = ("citation", "table", "dealer", "shift")


def findings_frame(findings: list[Finding]) -> pd.DataFrame:
    rows = [f.as_dict() for f in findings]
    frame = pd.DataFrame(rows, columns=[*CSV_COLUMNS, "evidence"])
    frame["line"] = frame["line"].astype("Int64")
    frame["column"] = frame["column"].astype("Int64")
    frame["shift"] = frame["time"].map(shift_of)
    return frame


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
