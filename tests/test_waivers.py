"""Waivers: applied, expired, unused and malformed, through the command line and its outputs."""

from __future__ import annotations

import csv
import json
from datetime import date
from pathlib import Path

import pytest

from auditor.audit import audit_paths
from auditor.cli import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, main
from auditor.identity import apply_identity
from auditor.waivers import WaiverFileError, apply_waivers, parse_waivers

SAMPLES = Path(__file__).parent.parent / "sample_logs"
DB21 = str(SAMPLES / "db21-t07-2026-11-20.bjh")  # T07, licence RL-0412, dealer D-1188
STANDARD = str(SAMPLES / "standard-t11-2026-11-20.bjh")

WAIVERS = """\
# Waivers of the compliance office
[[waiver]]
name = "DB21 pay table"
citation = "20:18:15:30.10(12)"
table = "RL-0412/T07"
justification = "Layout misprint; pay table reprinted"
approved_by = "J. Doe"
expires = 2099-12-31

[[waiver]]
citation = "20:18:15:30.10(8)"
table = "T07"
justification = "Dealer retrained"
approved_by = "J. Doe"
expires = 2020-01-31

[[waiver]]
citation = "20:18:15:24"
table = "T07"
justification = "Nothing like it happened"
approved_by = "J. Doe"
expires = "2099-12-31"
"""


def run(tmp_path: Path, *arguments: str) -> tuple[int, dict, list[dict]]:
    out = tmp_path / "out"
    code = main(["audit", *arguments, "--out", str(out), "--quiet", "--jobs", "1"])
    document = json.loads((out / "findings.json").read_text(encoding="utf-8"))
    with (out / "findings.csv").open(encoding="utf-8") as stream:
        rows = list(csv.DictReader(stream))
    return code, document, rows


def test_applied_expired_and_unused_waivers(tmp_path, capsys) -> None:
    waivers = tmp_path / "waivers.toml"
    waivers.write_text(WAIVERS, encoding="utf-8")
    code, document, rows = run(tmp_path, DB21, "--waivers", str(waivers))
    by_citation = {f["citation"]: f for f in document["findings"]}
    assert sorted(by_citation) == ["20:18:15:30.10(12)", "20:18:15:30.10(8)",
                                   "20:18:15:30.10(9)"]
    # Applied: the finding is still there, marked with its waiver.
    assert by_citation["20:18:15:30.10(12)"]["waiver"] == {
        "index": 1, "name": "DB21 pay table",
        "justification": "Layout misprint; pay table reprinted", "approved_by": "J. Doe",
        "expires": "2099-12-31",
        "matched_on": {"citation": "20:18:15:30.10(12)", "table": "RL-0412/T07"}}
    # Expired: not applied.
    assert by_citation["20:18:15:30.10(8)"]["waiver"] is None
    assert by_citation["20:18:15:30.10(9)"]["waiver"] is None
    assert [(w["index"], w["line"], w["status"], w["matches"]) for w in document["waivers"]] \
        == [(1, 2, "applied", 1), (2, 10, "expired", 1), (3, 17, "unused", 0)]
    # Two unwaived findings (medium) remain: the run fails.
    assert code == EXIT_FINDINGS
    assert "auditor: waiver 2" in capsys.readouterr().err
    waived = {row["citation"]: (row["waived"], row["waiver_justification"],
                                row["waiver_approved_by"], row["waiver_expires"])
              for row in rows}
    assert waived == {
        "20:18:15:30.10(12)": ("True", "Layout misprint; pay table reprinted", "J. Doe",
                               "2099-12-31"),
        "20:18:15:30.10(8)": ("False", "", "", ""),
        "20:18:15:30.10(9)": ("False", "", "", "")}
    assert all(row["id"] == by_citation[row["citation"]]["id"] for row in rows)
    html = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "Waived by waiver 1" in html and "expired" in html


def test_ignore_waivers_audits_as_if_there_were_none(tmp_path) -> None:
    waivers = tmp_path / "waivers.toml"
    waivers.write_text(WAIVERS, encoding="utf-8")
    code, document, _ = run(tmp_path, DB21, "--waivers", str(waivers), "--ignore-waivers")
    assert code == EXIT_FINDINGS
    assert document["waivers"] == []
    assert [f["waiver"] for f in document["findings"]] == [None, None, None]


def test_a_waiver_by_id_dealer_file_and_dates(tmp_path) -> None:
    result = audit_paths([DB21, STANDARD], jobs=1)
    apply_identity(result)
    target = next(f for f in result.findings if f.citation == "20:18:15:26")
    text = f"""
[[waiver]]
id = "{target.id}"
justification = "one finding"
approved_by = "A"
expires = 2030-01-01
[[waiver]]
dealer = "D-1188"
file = "db21-t07-2026-11-20.bjh"
from = 2026-11-20
until = 2026-11-20
justification = "that night at T07"
approved_by = "B"
expires = 2030-01-01
[[waiver]]
dealer = "D-1188"
from = 2026-11-21
justification = "the next night: nothing"
approved_by = "C"
expires = 2030-01-01
"""
    apply_waivers(result, parse_waivers(text), today=date(2026, 11, 24))
    waived = [(f.citation, f.waiver.index) for f in result.findings if f.waiver]
    assert waived == [("20:18:15:30.10(12)", 2), ("20:18:15:30.10(8)", 2),
                      ("20:18:15:30.10(9)", 2), ("20:18:15:26", 1)]
    assert [(w.status, w.matches) for w in result.waivers] == \
        [("applied", 1), ("applied", 3), ("unused", 0)]


def test_a_waiver_holds_to_the_end_of_its_day(tmp_path) -> None:
    text = """[[waiver]]
citation = "20:18:15:30.10(12)"
justification = "x"
approved_by = "y"
expires = 2026-11-24
"""
    for today, status in ((date(2026, 11, 24), "applied"), (date(2026, 11, 25), "expired")):
        result = audit_paths([DB21], jobs=1)
        apply_identity(result)
        apply_waivers(result, parse_waivers(text), today=today)
        assert [w.status for w in result.waivers] == [status]
        assert sum(1 for f in result.findings if f.waiver) == (status == "applied")


@pytest.mark.parametrize(("text", "message"), [
    # a schema error in the second waiver: its header's line
    ("[[waiver]]\ncitation = \"20:18:15:06\"\njustification = \"x\"\napproved_by = \"y\"\n"
     "expires = 2030-01-01\n\n# second\n[[waiver]]\ncitation = \"20:18:15:06\"\n"
     "justification = \"x\"\nexpires = 2030-01-01\n",
     "line 8: waiver 2: `approved_by` is required"),
    # not TOML at all
    ("[[waiver]]\ncitation = 20:18:15:06\n", "line 2: not valid TOML"),
    ("[[waiver]]\ncitation = \"x\"\njustification = \"x\"\napproved_by = \"y\"\n"
     "expires = \"next year\"\n", "line 1: waiver 1: `expires`"),
    ("[[waiver]]\njustification = \"x\"\napproved_by = \"y\"\nexpires = 2030-01-01\n",
     "line 1: waiver 1 names nothing to match"),
    ("[[waiver]]\ncitation = \"x\"\nseat = \"s1\"\njustification = \"x\"\n"
     "approved_by = \"y\"\nexpires = 2030-01-01\n", "`seat` is not a waiver field"),
])
def test_a_malformed_waiver_file_is_an_error_naming_the_line(tmp_path, capsys, text,
                                                               message) -> None:
    with pytest.raises(WaiverFileError, match=message.replace("(", r"\(")):
        parse_waivers(text, "w.toml")
    waivers = tmp_path / "w.toml"
    waivers.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["audit", DB21, "--waivers", str(waivers), "--out", str(out), "--quiet"]) \
        == EXIT_ERROR
    assert message in capsys.readouterr().err
    assert not out.exists()  # refused before any audit


def test_waiving_every_finding_makes_a_clean_exit(tmp_path) -> None:
    waivers = tmp_path / "w.toml"
    waivers.write_text('[[waiver]]\nfile = "db21-t07-2026-11-20.bjh"\n'
                       'justification = "under review"\napproved_by = "Q"\n'
                       'expires = 2099-01-01\n', encoding="utf-8")
    code, document, _ = run(tmp_path, DB21, "--waivers", str(waivers))
    assert code == EXIT_CLEAN
    assert [f["waiver"]["index"] for f in document["findings"]] == [1, 1, 1]
