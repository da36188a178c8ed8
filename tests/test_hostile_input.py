"""Hostile input (issue: trust under hostile input and faults): a corrupted byte, numbers of
any length, unreal dates and times, a crash of the auditor itself. Each test names the
finding it expects by citation and line, and the exit code."""

from __future__ import annotations

import json
from pathlib import Path

from auditor.cli import EXIT_CRASH, main

ROOT = Path(__file__).resolve().parent.parent
SWITCH = ROOT / "sample_logs" / "switch-bjs2-evening.bjh"
STANDARD = ROOT / "sample_logs" / "standard-t11-2026-11-20.bjh"


def audited(tmp_path: Path, text: str, name: str = "record.bjh") -> tuple[int, dict]:
    record = tmp_path / name
    record.write_text(text, encoding="utf-8")
    code = main(["audit", str(record), "--out", str(tmp_path / "out"), "--quiet",
                 "--jobs", "1"])
    return code, json.loads((tmp_path / "out" / "findings.json").read_text())


def changed(path: Path, line: int, old: str, new: str) -> str:
    lines = path.read_text(encoding="utf-8").split("\n")
    assert old in lines[line - 1], lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new)
    return "\n".join(lines)


def places(document: dict) -> list[tuple[str, int | None]]:
    return [(f["citation"], f["line"]) for f in document["findings"]]


def test_an_unknown_game_is_a_header_finding_and_no_game_is_judged(tmp_path):
    line = next(n for n, text in enumerate(SWITCH.read_text().split("\n"), 1)
                if text.startswith("table "))
    code, document = audited(tmp_path, changed(SWITCH, line, "game=switch", "game=swatch"))
    assert code == 1
    assert places(document) == [("record:header", line)]
    assert "swatch is not one the format knows" in document["findings"][0]["message"]
    summary = document["inputs"][0]
    assert (summary["game"], summary["rounds"], summary["rounds_audited"]) == (None, 28, 0)


def test_numbers_of_any_length_are_findings_on_their_line_not_crashes(tmp_path):
    digits = "9" * 5000
    code, document = audited(tmp_path, changed(STANDARD, 11, "bjh 1", f"bjh {digits}"))
    assert code == 1 and ("record:syntax", 11) in places(document)
    code, document = audited(tmp_path, changed(STANDARD, 455, "lose 50",
                                               "lose 1" + "0" * 26))
    assert code == 1 and ("record:syntax", 455) in places(document)
    code, document = audited(tmp_path, changed(STANDARD, 455, "lose 50",
                                               "lose 99999999999999.98"))
    money = next(f for f in document["findings"] if f["line"] == 455)
    assert (money["citation"], money["expected"], money["actual"], money["difference"]) == (
        "20:18:15:30", "-25.00", "-99999999999999.98", "-99999999999974.98")


def test_dates_and_times_that_are_not_real_are_syntax_findings(tmp_path):
    _, document = audited(tmp_path, changed(STANDARD, 22, "date=2026-11-20",
                                               "date=2026-02-30"))
    assert [(c, n) for c, n in places(document) if c.startswith("record:")] == [
        ("record:syntax", 22), ("record:syntax", 720)]
    _, document = audited(tmp_path, changed(STANDARD, 28, "19:59:49", "25:61:61"))
    assert [(c, n) for c, n in places(document) if c.startswith("record:")] == [
        ("record:syntax", 28), ("record:syntax", 720)]


def test_money_is_exact_decimal_text_in_json_and_csv(tmp_path):
    _, document = audited(tmp_path, STANDARD.read_text())
    paid = next(f for f in document["findings"] if f["citation"] == "20:18:15:06")
    assert (paid["expected"], paid["actual"], paid["difference"]) == ("30.00", "20.00", "-10.00")
    by_citation = {row["citation"]: row for row in document["summary"]["citation"]}
    assert by_citation["20:18:15:06"]["under_paid"] == "10.00"
    csv = (tmp_path / "out" / "findings.csv").read_text()
    assert ",30.00,20.00,-10.00," in csv


def test_spreadsheet_formulas_in_text_cells_are_neutralised(tmp_path, monkeypatch):
    import csv

    monkeypatch.chdir(tmp_path)  # the file named as given: its name starts the cell
    Path("=HYPERLINK(1).bjh").write_text(STANDARD.read_text())
    assert main(["audit", "=HYPERLINK(1).bjh", "--out", "out", "--quiet", "--jobs", "1"]) == 1
    with open("out/findings.csv", newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert {row["file"] for row in rows} == {"'=HYPERLINK(1).bjh"}
    paid = next(row for row in rows if row["citation"] == "20:18:15:06")
    assert paid["difference"] == "-10.00"  # a negative amount stays a number


def test_a_crash_of_the_auditor_exits_3_naming_the_file_with_the_traceback_in_a_log(
        tmp_path, monkeypatch, capsys):
    from auditor.checks import base

    check = base.registry()["20:18:15:06"]

    def broken(view):
        raise RuntimeError("a bug in a check")

    monkeypatch.setattr(check, "round", broken)
    record = tmp_path / "t11.bjh"
    record.write_text(STANDARD.read_text())
    code = main(["audit", str(record), "--out", str(tmp_path / "out"), "--quiet",
                 "--jobs", "1"])
    assert code == EXIT_CRASH == 3
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and str(record) in error and "auditor-crash.log" in error
    log = (tmp_path / "out" / "auditor-crash.log").read_text()
    assert "Traceback" in log and "RuntimeError: a bug in a check" in log
