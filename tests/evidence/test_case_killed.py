"""`auditor case` killed outright (SIGKILL) at several moments, run twice at once into the
same --out, and out of room (a file size limit in the child): never a half case at --out,
the folder left beside it never verifies as a whole signed case, and the same command run
again makes the case. Real processes, real signals."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import ROOT
from tests.helpers.signed_case import T11, audited_t11, made_key


@pytest.fixture(scope="module")
def key(tmp_path_factory) -> Path:
    return made_key(tmp_path_factory)


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    return audited_t11(tmp_path_factory)


def auditor(*arguments: str, cwd: Path, limit: int | None = None) -> subprocess.Popen:
    def limited() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(cwd / "xdg"),
                   "XDG_CACHE_HOME": str(cwd / "cache")}
    return subprocess.Popen([sys.executable, "-m", "auditor", *arguments], cwd=cwd,
                            env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=limited)


def verify(folder: Path, key: Path, cwd: Path) -> tuple[int, str]:
    done = auditor("verify", str(folder), "--key", f"{key}.pub", cwd=cwd)
    out, err = done.communicate(timeout=300)
    return done.returncode, out + err


def debris(parent: Path) -> list[Path]:
    return sorted(p for p in parent.iterdir() if ".making-" in p.name)


@pytest.mark.parametrize("when", ["inputs", "case.html", "findings.json", "manifest.json"])
def test_a_case_killed_leaves_no_half_case_and_the_retry_works(
        run: Path, key: Path, when: str, tmp_path: Path) -> None:
    out = tmp_path / "case"
    making = auditor("case", str(run), "--licensee", "RL-0412", "--out", str(out), "--sign",
                     str(key), cwd=tmp_path)
    caught = False
    while making.poll() is None:  # stopped the moment `when` is seen, then killed
        if any((folder / when).exists() for folder in debris(tmp_path)):
            making.send_signal(signal.SIGSTOP)
            caught = True
            break
        time.sleep(0.001)
    making.kill()
    making.communicate()
    print(f"killed at {when}" if caught else f"ended before {when} was seen")
    assert not out.exists() or not caught  # a case whole is renamed in one step
    for folder in debris(tmp_path):
        if (folder / "manifest.json").exists() and not (folder / "manifest.sig").exists():
            status, said = verify(folder, key, tmp_path)
            assert status == 1 and "DIFFERS manifest.sig: missing" in said, said
        if not (folder / "manifest.json").exists():
            status, said = verify(folder, key, tmp_path)
            assert status == 2 and "holds no manifest.json" in said, said
    if out.exists():  # it ended before it was caught
        return
    again = auditor("case", str(run), "--licensee", "RL-0412", "--out", str(out), "--sign",
                    str(key), cwd=tmp_path)
    said = again.communicate(timeout=300)
    assert again.returncode == 0, said
    status, told = verify(out, key, tmp_path)
    assert status == 0, told


def test_two_cases_into_one_folder_at_once_make_one_case(run: Path, key: Path,
                                                          tmp_path: Path) -> None:
    out = tmp_path / "case"
    both = [auditor("case", str(run), "--licensee", "RL-0412", "--out", str(out), "--sign",
                    str(key), cwd=tmp_path) for _ in range(2)]
    ended = [(process.wait(timeout=300), process.communicate()) for process in both]
    codes = sorted(code for code, _ in ended)
    assert codes == [0, 2], ended
    loser = next(said for code, said in ended if code == 2)
    assert loser[1] in (
        f"auditor: --out {out} was made meanwhile and is not an empty folder: a case is "
        "never written over another\n",
        f"auditor: --out {out} exists and is not an empty folder: a case is never written "
        "over another\n"), loser
    assert debris(tmp_path) == []
    status, said = verify(out, key, tmp_path)
    assert status == 0, said


def test_a_case_out_of_room_leaves_nothing_and_the_retry_works(run: Path, key: Path,
                                                                tmp_path: Path) -> None:
    out = tmp_path / "case"
    full = auditor("case", str(run), "--licensee", "RL-0412", "--out", str(out), "--sign",
                   str(key), cwd=tmp_path, limit=T11.stat().st_size // 2)
    _, err = full.communicate(timeout=300)
    assert full.returncode == 2, err
    assert err.startswith("auditor: ") and "File too large" in err and err.count("\n") == 1
    assert not out.exists() and debris(tmp_path) == []
    again = auditor("case", str(run), "--licensee", "RL-0412", "--out", str(out), "--sign",
                    str(key), cwd=tmp_path)
    assert again.wait(timeout=300) == 0, again.communicate()
    assert verify(out, key, tmp_path)[0] == 0
