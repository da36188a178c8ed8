"""Hostile input (issue: trust under hostile input and faults): a corrupted byte, numbers of
any length, unreal dates and times, a crash of the auditor itself. Each test names the
finding it expects by citation and line, and the exit code."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from auditor.cli import EXIT_CRASH, main
from tests.helpers import ROOT
from tests.helpers.audits import audit, findings_of, written

SWITCH = ROOT / "sample_logs" / "switch-bjs2-evening.bjh"
STANDARD = ROOT / "sample_logs" / "standard-t11-2026-11-20.bjh"


def audited(tmp_path: Path, text: str, name: str = "record.bjh") -> tuple[int, dict]:
    code = audit(written(tmp_path, text, name), out=tmp_path / "out")
    return code, findings_of(tmp_path / "out")


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


def test_every_input_is_audited_once_and_none_is_passed_over(tmp_path):
    import os

    folder = tmp_path / "records"
    (folder / "sub").mkdir(parents=True)
    (folder / "loop").mkdir()
    (folder / "A.BJH").write_text(STANDARD.read_text())  # any case of .bjh
    (folder / "sub" / "b.bjh").write_text(SWITCH.read_text())
    os.symlink("../../records", folder / "loop" / "back")  # a loop of links ends
    os.symlink("nowhere.bjh", folder / "dangling.bjh")
    os.mkfifo(folder / "fifo.bjh")
    os.symlink("sub", folder / "linked")
    # the folder, a file inside it, and the same file by another spelling
    code = main(["audit", str(folder), str(folder / "A.BJH"),
                 str(folder / "sub" / ".." / "A.BJH"), "--out", str(tmp_path / "out"),
                 "--quiet", "--jobs", "1"])
    assert code == 2  # two entries could not be read
    document = json.loads((tmp_path / "out" / "findings.json").read_text())
    assert [(i["path"].removeprefix(str(folder) + "/"), i["error"] is None, i["rounds"])
            for i in document["inputs"]] == [
        ("A.BJH", True, 32), ("dangling.bjh", False, 0), ("fifo.bjh", False, 0),
        ("linked/b.bjh", True, 28)]
    errors = {i["path"].rsplit("/", 1)[1]: i["error"] for i in document["inputs"]}
    assert "a link to nothing" in errors["dangling.bjh"]
    assert "a FIFO, not a regular file" in errors["fifo.bjh"]


def test_a_fifo_named_on_the_command_line_is_refused_not_waited_on(tmp_path):
    import os
    import subprocess
    import sys

    os.mkfifo(tmp_path / "pipe.bjh")
    finished = subprocess.run(
        [sys.executable, "-m", "auditor", "audit", str(tmp_path / "pipe.bjh"), "--out",
         str(tmp_path / "out"), "--quiet"], cwd=ROOT, capture_output=True, text=True,
        timeout=60)
    assert finished.returncode == 2
    assert "a FIFO, not a regular file" in finished.stderr


@pytest.mark.parametrize("kind", ["a file", "a dangling link", "under a file"])
def test_a_bad_out_folder_is_refused_before_the_audit(tmp_path, capsys, kind, floor_history):
    import os

    (tmp_path / "report.txt").write_text("not a folder")
    out = {"a file": tmp_path / "report.txt", "a dangling link": tmp_path / "gone",
           "under a file": tmp_path / "report.txt" / "out"}[kind]
    if kind == "a dangling link":
        os.symlink(tmp_path / "nowhere", out)
    code = main(["audit", str(STANDARD), "--out", str(out), "--quiet", "--jobs", "1"])
    error = capsys.readouterr().err
    assert code == 2 and error.startswith(f"auditor: --out {out}") and "Traceback" not in error
    assert not floor_history.exists()  # nothing was audited or recorded (the default store)


def test_outputs_honour_the_umask(tmp_path):
    import os

    previous = os.umask(0o022)
    try:
        main(["audit", str(STANDARD), "--out", str(tmp_path / "out"), "--quiet", "--jobs", "1"])
    finally:
        os.umask(previous)
    for name in ("findings.json", "findings.csv", "summary.csv", "report.html"):
        assert (tmp_path / "out" / name).stat().st_mode & 0o777 == 0o644, name


def _without_run_times(document: dict) -> dict:
    return {key: value for key, value in document.items() if key != "auditor"}


def test_a_killed_worker_costs_a_retry_never_the_run(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    records = tmp_path / "records"
    assert main(["simulate", "--game", "standard", "--tables", "6", "--rounds", "2500",
                 "--seed", "kill", "--faults", "0.02", "--out", str(records), "--quiet"]) == 0
    assert main(["audit", str(records), "--out", str(tmp_path / "whole"), "--quiet",
                 "--jobs", "1"]) == 1
    process = subprocess.Popen(
        [sys.executable, "-m", "auditor", "audit", str(records), "--out",
         str(tmp_path / "killed"), "--quiet", "--jobs", "2"], cwd=ROOT,
        stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    workers: list[str] = []
    while not workers:  # a worker is auditing: kill it as the OOM killer would
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.2)
        found = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True,
                               text=True).stdout.split()
        workers = found if len(found) >= 2 else []
    time.sleep(0.5)
    os.kill(int(workers[0]), signal.SIGKILL)
    _, errors = process.communicate(timeout=300)
    assert process.returncode == 1, errors
    whole = json.loads((tmp_path / "whole" / "findings.json").read_text())
    killed = json.loads((tmp_path / "killed" / "findings.json").read_text())
    assert _without_run_times(killed) == _without_run_times(whole)


def _complete_set(out: Path) -> str:
    """The run folder `current` names, after checking that each output is whole."""
    folder = os.path.realpath(out / "current")
    document = json.loads((out / "findings.json").read_text())
    assert document["auditor"]["finished"]
    assert (out / "report.html").read_text().rstrip().endswith("</html>")
    for name in ("findings.csv", "summary.csv"):
        assert (out / name).read_text().endswith("\n")
    for name in ("findings.json", "findings.csv", "summary.csv", "report.html"):
        assert os.path.realpath(out / name) == os.path.join(folder, name)
    return folder


@pytest.mark.parametrize("kills", [8, pytest.param(30, marks=pytest.mark.slow)])
def test_a_kill_at_any_moment_leaves_one_complete_set_of_outputs(tmp_path, kills: int):
    import random
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "out"
    assert main(["audit", str(STANDARD), "--out", str(out), "--quiet", "--jobs", "1"]) == 1
    sets = {_complete_set(out)}
    chance = random.Random(12)
    for _ in range(kills):
        process = subprocess.Popen(
            [sys.executable, "-m", "auditor", "audit", str(ROOT / "sample_logs"), "--out",
             str(out), "--quiet", "--jobs", "1"], cwd=ROOT, stderr=subprocess.DEVNULL)
        time.sleep(chance.uniform(0.8, 3.0))
        process.send_signal(signal.SIGKILL)
        process.wait()
        sets.add(_complete_set(out))  # the previous set or the new one, whole
    assert len(os.listdir(out / ".runs")) <= 3 + 1  # old sets pruned (one may be half-made)


def test_a_run_of_unreadable_lines_is_one_finding_naming_the_range(tmp_path):
    text = STANDARD.read_text().rstrip("\n") + "\n" + "\x01 not a statement\n" * 20_000
    _, document = audited(tmp_path, text)
    first = len(STANDARD.read_text().rstrip("\n").split("\n")) + 1
    runs = [f for f in document["findings"] if f["line"] == first]
    assert [(f["citation"], f["message"].split(";")[0]) for f in runs] == [
        ("record:syntax", f"Lines {first}–{first + 19_999} (20,000 lines in a row) cannot "
                          "be read")]
    assert document["inputs"][0]["lines"] == first + 19_999  # every line counted


def test_a_round_of_thousands_of_cards_keeps_its_replay_linear(tmp_path):
    from auditor.replay.trace import STEPS_AT_MOST

    cards = [rank + suit for rank in "A23456789TJQK" for suit in "cdhs"]
    lines = ["bjh 1", 'casino "X" licence=RL-1', "table T1 game=standard decks=8 min=10 max=500",
             "shoe 1 date=2026-11-22", "shuffle", "cut", "round 1 time=10:00:00 dealer=D-1",
             "sit s1 player=P-1", "bet s1h1 main 20", "deal s1h1 2c", "deal dealer 7d",
             "deal s1h1 3c", "deal dealer 9d"]
    lines += [f"hit s1h1 {cards[i % 52]}" for i in range(4000)]
    lines += ["reveal", "settle s1h1 main lose 20", "end"]
    _, document = audited(tmp_path, "\n".join(lines) + "\n")
    from auditor.audit import audit_file

    evidence = next(iter(audit_file(str(tmp_path / "record.bjh")).evidence.values()))
    assert len(evidence.lines) == len(lines) - 6  # every line of the round is shown
    faults = {f["line"] for f in document["findings"] if f["round"] == "1"}
    assert len(evidence.steps) <= STEPS_AT_MOST + 2 * len(faults)
    assert (tmp_path / "out" / "report.html").stat().st_size < 10_000_000


def test_a_full_disk_while_writing_leaves_the_previous_set_whole(tmp_path, capsys):
    import subprocess

    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=400k", "tmpfs", str(disk)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"a small filesystem cannot be mounted here: {mounted.stderr.strip()}")
    try:
        out, store = disk / "out", str(tmp_path / "history.sqlite")
        assert main(["audit", str(STANDARD), "--out", str(out), "--store", store,
                     "--quiet", "--jobs", "1"]) == 1
        before = _complete_set(out)
        # every sample log's outputs do not fit in what is left: the disk fills mid-set
        code = main(["audit", str(ROOT / "sample_logs"), "--out", str(out), "--store", store,
                     "--quiet", "--jobs", "1"])
        assert code == EXIT_CRASH
        assert _complete_set(out) == before  # the previous complete set, untouched
        assert "OSError" in capsys.readouterr().err
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True)


def test_evidence_lines_come_from_the_bytes_that_were_hashed(tmp_path, monkeypatch):
    """A file replaced while it is audited: the replay shows the lines that were read, the
    ones whose SHA-256 is reported, never the new file's."""
    from auditor.audit import audit_file
    from auditor.source import SourceFile

    record = tmp_path / "t11.bjh"
    record.write_text(STANDARD.read_text())
    original = STANDARD.read_text().split("\n")
    lines = SourceFile.lines

    def then_replaced(self):
        yield from lines(self)
        record.write_text("\n".join(text.upper() for text in original))

    monkeypatch.setattr(SourceFile, "lines", then_replaced)
    result = audit_file(str(record))
    shown = [text for evidence in result.evidence.values() for _, text in evidence.lines]
    assert shown and all(text == original[number - 1]
                         for evidence in result.evidence.values()
                         for number, text in evidence.lines)
