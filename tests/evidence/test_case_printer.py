"""Chromium as `auditor case --pdf` runs it (auditor/case/render.py): a printer that hangs
past its time is ended with every process it started, never left running behind the
case; the printers are small shell scripts given as BJH_CHROMIUM."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from auditor.case import render
from auditor.case.render import PrintError, print_pdf
from tests.helpers.waiting import until


def _ended(pid: int) -> bool:
    """Whether process `pid` is gone or a zombie (ended, not yet reaped by its new parent)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state in ("Z", "X")


def test_a_printer_that_hangs_is_ended_with_the_processes_it_started(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Chromium is a family of processes (its renderers, its GPU and zygote helpers): a
    printer killed alone at its time left its children running, and printing, behind the
    case that had given up on them."""
    started = tmp_path / "child.pid"
    printer = tmp_path / "hangs.sh"
    printer.write_text(f"#!/bin/sh\nsleep 600 &\necho $! > {started}.part\n"
                       f"mv {started}.part {started}\nsleep 600\n", encoding="utf-8")
    printer.chmod(0o755)
    monkeypatch.setenv("BJH_CHROMIUM", str(printer))
    monkeypatch.setattr(render, "PRINT_SECONDS", 3)
    page = tmp_path / "case.html"
    page.write_text("<p>case</p>", encoding="utf-8")
    with pytest.raises(PrintError) as refused:
        print_pdf(page, tmp_path / "case.pdf")
    assert str(refused.value) == "Chromium could not print the case (TimeoutExpired)"
    child = int(started.read_text())
    try:
        until(lambda: _ended(child), within=30, what=f"the printer's child {child} ended")
    finally:
        if not _ended(child):
            os.kill(child, 9)
