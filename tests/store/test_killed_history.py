"""A run killed at any moment (SIGKILL, in a subprocess) leaves the floor history as if it
never ran, or whole: `trends` reads exactly the nights recorded before it, or those and
the killed run's night entire, never part of it; the store stays sound."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import text

from auditor.cli import main
from auditor.store import list_runs, open_store
from tests.helpers import ROOT
from tests.helpers.audits import audit


def _night(tmp_path: Path, day: str) -> Path:
    folder = tmp_path / day
    assert main(["simulate", "--out", str(folder), "--game", "standard", "--tables", "4",
                 "--rounds", "150", "--faults", "0.05", "--seed", day, "--date", day,
                 "--quiet"]) == 0
    return folder


def _trends(tmp_path: Path, store: Path, name: str) -> dict:
    out = tmp_path / name
    assert main(["trends", "--store", str(store), "--out", str(out), "--quiet"]) in (0, 1)
    document = json.loads((out / "trends.json").read_text(encoding="utf-8"))
    return {"runs": document["trends"]["runs"], "inputs": document["trends"]["inputs"],
            "rounds": document["trends"]["rounds"], "findings": document["trends"]["findings"],
            "money": document["rates"]["floor"]["money"],
            "days": [(row["key"], row["rounds"], row["findings"])
                     for row in document["rates"]["day"]],
            "dealers": [(row["key"], row["rounds"], row["findings"])
                        for row in document["rates"]["dealer"]]}


def test_a_run_killed_at_random_moments_leaves_the_history_whole(tmp_path) -> None:
    first, second = _night(tmp_path, "2026-11-20"), _night(tmp_path, "2026-11-21")
    before = tmp_path / "before.sqlite"
    assert audit(first, out=tmp_path / "n1", store=before, more=["--new-store"]) == 1
    whole = tmp_path / "whole.sqlite"
    shutil.copy(before, whole)
    assert audit(second, out=tmp_path / "n2", store=whole) == 1
    expected = {"running": _trends(tmp_path, before, "t-before"),
                "finished": _trends(tmp_path, whole, "t-whole")}
    assert expected["running"]["days"][0][0] == "2026-11-20"
    assert [day for day, _, _ in expected["finished"]["days"]] == ["2026-11-20", "2026-11-21"]
    moments = random.Random("kills").sample(range(0, 100), 6)  # hundredths of the audit
    started = time.monotonic()
    assert audit(second, out=tmp_path / "timed", store=tmp_path / "timed.sqlite",
                 more=["--new-store"]) == 1
    length = time.monotonic() - started
    seen = []
    for number, moment in enumerate(moments):
        store = tmp_path / f"killed-{number}.sqlite"
        shutil.copy(before, store)
        process = subprocess.Popen(
            [sys.executable, "-m", "auditor", "audit", str(second), "--out",
             str(tmp_path / f"k{number}"), "--store", str(store), "--quiet", "--jobs", "1"],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        engine = open_store(str(store))
        deadline = time.monotonic() + 60
        while len(list_runs(engine)) < 2 and process.poll() is None:  # the run has begun
            assert time.monotonic() < deadline
            time.sleep(0.01)
        time.sleep(length * moment / 100)
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        status = list_runs(engine)[1].status
        with engine.connect() as connection:
            assert connection.execute(text("PRAGMA integrity_check")).scalar() == "ok"
        engine.dispose()
        assert _trends(tmp_path, store, f"t{number}") == expected[status], (moment, status)
        seen.append(status)
    assert "running" in seen  # at least one kill landed mid-run
