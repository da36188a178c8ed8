"""Several runs publishing into one --out at once (auditor/output/publish.py): a run's
folder being written is never removed by another run's clean-up of old folders."""

from __future__ import annotations

import os
from pathlib import Path

from auditor.output.publish import RUNS, publish


def test_a_folder_being_written_outlives_three_newer_runs_published_meanwhile(
        tmp_path: Path) -> None:
    """A long night's run writes its report while three short runs into the same --out
    begin and end (cron lines that overlap): each of them kept the newest three folders
    by name and removed the rest, the long run's among them, under its feet; its outputs
    were lost (those written before; the next made the folder again, alone in it)."""
    out = tmp_path / "out"

    def slow_report() -> str:
        for number in range(3):
            publish(out, {"findings.json": lambda number=number: f"short {number}\n"})
        return "long night\n"

    folder = publish(out, {"summary.csv": lambda: "sum\n", "findings.json": slow_report})
    assert folder.is_dir()
    assert (out / "findings.json").read_text(encoding="utf-8") == "long night\n"
    assert (out / "summary.csv").read_text(encoding="utf-8") == "sum\n"
    assert os.readlink(out / "current") == f"{RUNS}/{folder.name}"
    # the three newest by name, and the one published last (current)
    assert len(list((out / RUNS).iterdir())) == 4
