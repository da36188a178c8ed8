"""`auditor case` is made whole or not at all (auditor/case/building.py): no Chromium, a
Chromium that fails after writing half a PDF, one that exits 0 with half a PDF, and a
process killed while printing leave nothing at `--out` (an empty folder given stays
empty), so the same command run again makes the case. Real Chromium for the retry; the
failing ones are small shell scripts given as BJH_CHROMIUM."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from auditor.cli import main
from tests.helpers import ROOT

RECORD = ROOT / "sample_logs" / "tensticks-t32-2026-11-21.bjh"
CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("audit") / "run"
    assert main(["audit", str(RECORD), "--out", str(out), "--quiet", "--store",
                 str(out.parent / "history.sqlite")]) == 1
    return out


def make_case(run: Path, out: Path, *more: str) -> int:
    return main(["case", str(run), "--licensee", "RL-0412", "--out", str(out), *more])


def said(capsys: pytest.CaptureFixture) -> list[str]:
    captured = capsys.readouterr()
    return (captured.out + captured.err).splitlines()


def script(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text("#!/bin/sh\n" + body, encoding="utf-8")
    path.chmod(0o755)
    return path


HALF_PDF = ('for a; do case $a in --print-to-pdf=*) printf "%%PDF-1.4 half" > '
            '"${a#--print-to-pdf=}";; esac; done\n')


def no_debris(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if ".making-" in p.name)


def retry_with_real_chromium(run: Path, out: Path, capsys: pytest.CaptureFixture) -> None:
    if not os.access(CHROMIUM, os.X_OK):
        print(f"retry with Chromium skipped: no {CHROMIUM} (scripts/install-browser.sh)")
        return
    capsys.readouterr()
    status = make_case(run, out, "--pdf")
    assert status == 0, said(capsys)
    assert (out / "case.pdf").read_bytes().startswith(b"%PDF-")
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(manifest["outputs"]) == ["case.html", "case.pdf", "findings.json"]
    capsys.readouterr()
    assert main(["verify", str(out)]) == 4  # holds; unsigned


def test_no_chromium_leaves_nothing_and_the_retry_works(
        run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture) -> None:
    missing = tmp_path / "no-such-chromium"
    monkeypatch.setenv("BJH_CHROMIUM", str(missing))
    out = tmp_path / "case"
    capsys.readouterr()
    assert make_case(run, out, "--pdf") == 2
    assert said(capsys) == [f"auditor: --pdf needs Chromium at {missing} "
                            "(scripts/install-browser.sh installs it; BJH_CHROMIUM names "
                            "another)"]
    assert not out.exists() and no_debris(tmp_path) == []
    monkeypatch.delenv("BJH_CHROMIUM")
    retry_with_real_chromium(run, out, capsys)


@pytest.mark.parametrize("exit_code, message", [
    (1, "auditor: Chromium could not print the case (exit 1)"),
    (0, "auditor: Chromium exited without printing the whole case (no PDF, or one without "
        "its end)")])
def test_a_failing_chromium_leaves_an_empty_folder_empty(
        run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture, exit_code: int, message: str) -> None:
    """Chromium writes half a PDF and exits 1, or exits 0: either way no case.pdf, no
    case.html, nothing in the empty folder given; the retry fills it."""
    fake = script(tmp_path, "fail.sh", HALF_PDF + f"exit {exit_code}\n")
    monkeypatch.setenv("BJH_CHROMIUM", str(fake))
    out = tmp_path / "case"
    out.mkdir(mode=0o750)
    out.chmod(0o750)
    capsys.readouterr()
    assert make_case(run, out, "--pdf") == 2
    assert said(capsys) == [message]
    assert list(out.iterdir()) == [] and no_debris(tmp_path) == []
    monkeypatch.delenv("BJH_CHROMIUM")
    retry_with_real_chromium(run, out, capsys)
    if (out / "case.pdf").exists():
        assert out.stat().st_mode & 0o777 == 0o750  # the folder given keeps its mode


def test_chromium_named_as_a_folder_is_said_plainly(
        run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setenv("BJH_CHROMIUM", str(tmp_path))
    capsys.readouterr()
    assert make_case(run, tmp_path / "case", "--pdf") == 2
    assert said(capsys) == [f"auditor: --pdf: BJH_CHROMIUM names {tmp_path}, a folder, "
                            "not Chromium's program"]
    assert not (tmp_path / "case").exists()


def test_a_case_killed_while_printing_leaves_no_half_case(run: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture
                                                          ) -> None:
    """Killed (SIGKILL, no clean-up at all) while Chromium prints: --out does not exist;
    the folder being built is left beside it, hidden; the same command then makes the
    case."""
    started = tmp_path / "printing"
    fake = script(tmp_path, "slow.sh", f"touch {started}\nsleep 60\n")
    out = tmp_path / "case"
    process = subprocess.Popen(
        [sys.executable, "-m", "auditor", "case", str(run), "--licensee", "RL-0412",
         "--out", str(out), "--pdf"], env={**os.environ, "BJH_CHROMIUM": str(fake)},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not started.exists():
            assert process.poll() is None, "the case ended before printing"
            assert time.monotonic() < deadline, "Chromium was never started"
            time.sleep(0.05)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    assert not out.exists()
    left = no_debris(tmp_path)
    assert len(left) == 1 and left[0].startswith(".case.making-")
    assert (tmp_path / left[0] / "case.html").is_file()  # killed half-way indeed
    assert make_case(run, out) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "case.html", "findings.json", "inputs", "manifest.json"]
    capsys.readouterr()
    assert main(["verify", str(out)]) == 4  # holds; unsigned


def test_out_that_cannot_take_a_case(run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture) -> None:
    full = tmp_path / "full"
    full.mkdir()
    (full / "keep.txt").write_text("x", encoding="utf-8")
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "empty", target_is_directory=True)
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path / "empty")
    capsys.readouterr()
    assert make_case(run, full) == 2
    assert make_case(run, link) == 2
    assert make_case(run, Path(".")) == 2
    assert said(capsys) == [
        f"auditor: --out {full} exists and is not an empty folder: a case is never written "
        "over another",
        f"auditor: --out {link} is a link: give the folder itself",
        "auditor: --out . is the working folder: give a new folder for the case"]
    assert sorted(p.name for p in full.iterdir()) == ["keep.txt"]
    assert list((tmp_path / "empty").iterdir()) == []
