"""Every refusal of the commands that read the run store (`runs`, `report`, `diff`,
`trends`, `incidents`) through the real command line: its exact line on standard error
(escaped, one line) and exit 2, whichever way it is told (the command raising `Refused`
for the one guard, auditor/commands/guard.py). The refusals tested elsewhere with their
exact line: trends' temporary files (tests/floor/test_trends_scale.py), an unreadable
store (tests/cli/test_exit_codes.py), a run killed half-way (tests/store/test_store_seams.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from auditor.cli import main
from tests.helpers import ROOT
from tests.helpers.audits import audit

T11 = ROOT / "sample_logs" / "standard-t11-2026-11-20.bjh"


@pytest.fixture(scope="module")
def floor(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A store of two runs of T11: run 1 finished, run 2 left as a run still under way
    (every input recorded, its findings never judged); and a file where folders are due."""
    folder = tmp_path_factory.mktemp("refusals")
    store = folder / "floor.sqlite"
    assert audit(T11, out=folder / "one", store=store) == 1
    assert audit(T11, out=folder / "two", store=store) == 1
    with sqlite3.connect(store) as database:  # as a kill leaves it: begun, never finished
        database.execute("UPDATE runs SET status = 'running', finished = NULL WHERE id = 2")
    database.close()
    a_file = folder / "a-file"
    a_file.write_text("not a folder\n", encoding="utf-8")
    return {"folder": folder, "store": store, "file": a_file}


def refused(capsys: pytest.CaptureFixture, *words: str) -> str:
    """`auditor WORDS…` run; it must exit 2, print nothing on standard output and one line
    on standard error: that line."""
    capsys.readouterr()
    assert main(list(words)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err


UNFINISHED = ("auditor: run 2 is UNFINISHED (killed, failed or still running): all 1 "
              "input(s) audited but its findings never judged; it is not {verb} "
              "(`auditor runs show 2` lists what it holds)\n")


def test_runs_refusals(floor: dict, capsys: pytest.CaptureFixture) -> None:
    store = str(floor["store"])
    missing = floor["folder"] / "none.sqlite"
    assert refused(capsys, "runs", "--store", str(missing)) == (
        f"auditor: no run store at {missing}\n")
    assert refused(capsys, "runs", "show", "--store", store) == (
        "auditor: usage: auditor runs show RUN\n")
    assert refused(capsys, "runs", "show", "99", "--store", store) == (
        "auditor: the store has no run 99\n")


def test_report_refusals(floor: dict, capsys: pytest.CaptureFixture) -> None:
    store, out = str(floor["store"]), str(floor["folder"] / "report")
    assert refused(capsys, "report", "2", "--store", store, "--out", out) == (
        UNFINISHED.format(verb="reported"))
    assert refused(capsys, "report", "1", "--store", store, "--out", str(floor["file"])) == (
        f"auditor: --out {floor['file']} exists and is not a folder\n")
    assert refused(capsys, "report", "99", "--store", store, "--out", out) == (
        "auditor: the store has no run 99\n")


def test_diff_refusals(floor: dict, capsys: pytest.CaptureFixture) -> None:
    store = str(floor["store"])
    assert refused(capsys, "diff", "1", "99", "--store", store) == (
        "auditor: the store has no run 99\n")
    assert refused(capsys, "diff", "98", "99", "--store", store) == (
        "auditor: the store has no run 98, 99\n")
    assert refused(capsys, "diff", "1", "2", "--store", store) == (
        UNFINISHED.format(verb="compared"))


def test_trends_refusals(floor: dict, capsys: pytest.CaptureFixture) -> None:
    store, out = str(floor["store"]), str(floor["folder"] / "trends")
    assert refused(capsys, "trends", "--store", store, "--out", out,
                   "--since", "2026-13-01") == (
        "auditor: --since '2026-13-01' is not a date (YYYY-MM-DD)\n")
    # a control character in the value is shown, never obeyed
    assert refused(capsys, "trends", "--store", store, "--out", out,
                   "--until", "\x1b[31m[b]red") == (
        "auditor: --until '\\x1b[31m[b]red' is not a date (YYYY-MM-DD)\n")
    for setting in (["--fdr", "1"], ["--min-rounds", "0"], ["--min-pair-rounds", "0"],
                    ["--change-nights", "0"]):
        assert refused(capsys, "trends", "--store", store, "--out", out, *setting) == (
            "auditor: --fdr is between 0 and 1, the minimums and --change-nights are 1 or "
            "more\n")
    assert refused(capsys, "trends", "--store", store, "--out", str(floor["file"])) == (
        f"auditor: --out {floor['file']} exists and is not a folder\n")
    missing = floor["folder"] / "none.sqlite"
    assert refused(capsys, "trends", "--store", str(missing), "--out", out) == (
        f"auditor: no run store at {missing}\n")


def test_incidents_refusals(floor: dict, capsys: pytest.CaptureFixture) -> None:
    store, out = str(floor["store"]), floor["folder"] / "incidents"
    settings = floor["folder"] / "bad.toml"
    settings.write_text("[tool.bjh-auditor\n", encoding="utf-8")
    told = refused(capsys, "incidents", "--store", store, "--out", str(out), "--config",
                   str(settings))
    assert told == (f"auditor: settings: {settings}: line 1: not valid TOML: Expected ']' at "
                    "the end of a table declaration\n")
    assert refused(capsys, "incidents", "--store", store, "--out", str(floor["file"])) == (
        f"auditor: --out {floor['file']} exists and is not a folder\n")
    missing = floor["folder"] / "none.sqlite"
    assert refused(capsys, "incidents", "--store", str(missing), "--out", str(out)) == (
        f"auditor: no run store at {missing}\n")
    assert refused(capsys, "incidents", "--store", store, "--run", "99", "--out",
                   str(out)) == "auditor: the store has no run 99\n"
    assert refused(capsys, "incidents", "--store", store, "--run", "2", "--out",
                   str(out)) == "auditor: run 2 did not finish: its findings are not exported\n"
    # the file system refusing the publication: the file, why, and that the export the
    # store remembers waits to be published (tests/floor/test_incidents_parts.py)
    (out / "incidents.json").mkdir(parents=True)
    assert refused(capsys, "incidents", "--store", store, "--run", "1", "--out", str(out)) == (
        f"auditor: {out}/incidents.json: Is a directory: the export is remembered and waits "
        f"in {out}/.incidents-pending; the next export to this folder publishes it\n")
