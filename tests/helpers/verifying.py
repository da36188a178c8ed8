"""`auditor verify` of a folder as the tests run it: its exit status and all it said."""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor.cli import main


def verify(folder: Path, *more: str, capsys: pytest.CaptureFixture) -> tuple[int, str]:
    """`auditor verify FOLDER MORE…`: its exit status, and its output and errors together."""
    capsys.readouterr()
    status = main(["verify", str(folder), *more])
    captured = capsys.readouterr()
    return status, captured.out + captured.err
