"""`--jobs N` gives the same output as one job, byte for byte but for the run's own clock.

Parallel runs audit the largest files first and collect results as workers finish; the
output must still follow the input order.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import SAMPLES
from tests.helpers.audits import audit
from tests.helpers.processes import children
from tests.helpers.run_outputs import OUTPUTS, RUN_CLOCK


def outputs_of(folder: Path, out: Path, jobs: int) -> dict[str, str]:
    """The outputs of an audit of `folder` on `jobs` jobs, without the run's clock."""
    assert audit(folder, out=out, jobs=jobs) == 1
    return {name: RUN_CLOCK.sub("", (out / name).read_text(encoding="utf-8"))
            for name in OUTPUTS}


@pytest.fixture(scope="module")
def uneven_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample logs, with the smallest file made the largest so that size order and
    input order disagree."""
    folder = tmp_path_factory.mktemp("uneven")
    paths = sorted(SAMPLES.glob("*.bjh"))
    for path in paths:
        shutil.copy(path, folder / path.name)
    smallest = min(paths, key=lambda p: p.stat().st_size)
    padding = "".join(f"# padding {n}\n" for n in range(20_000))
    with (folder / smallest.name).open("a", encoding="utf-8") as copy:
        copy.write(padding)
    return folder


@pytest.mark.parametrize("jobs", [2, 3])
def test_parallel_output_is_the_output_of_one_job(uneven_folder: Path, tmp_path: Path,
                                                  jobs: int) -> None:
    one = outputs_of(uneven_folder, tmp_path / "one", 1)
    parallel = outputs_of(uneven_folder, tmp_path / "parallel", jobs)
    for name in OUTPUTS:
        assert parallel[name] == one[name], f"{name} differs with --jobs {jobs}"
    report = json.loads((tmp_path / "parallel" / "findings.json").read_text(encoding="utf-8"))
    inputs = [Path(i["path"]).name for i in report["inputs"]]
    assert inputs == sorted(p.name for p in uneven_folder.glob("*.bjh"))


def _mapped(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return ""  # ended meanwhile


OUTPUT_LIBRARIES = ("numpy", "pandas")  # as their folders appear in a memory map


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_workers_do_not_carry_the_output_libraries(tmp_path: Path) -> None:
    """The workers are forked from the parent when the audit starts: what the parent has
    imported by then, each worker holds in memory as long as it lives. The outputs' pandas
    and numpy (about 35 MiB a worker, bench/store_memory.py) load in the parent only after
    the workers are made. (A memory map shows compiled libraries only: Jinja, pure Python,
    cannot be seen there, and its compiled MarkupSafe comes earlier with the store's
    Alembic.)"""
    from auditor.simulate import simulate, table_spec

    for number in range(1, 3):
        simulate(tmp_path / "records", table_spec("standard", table_id=f"T{number}"),
                 rounds=3000, seed="workers-memory")
    audit = subprocess.Popen([sys.executable, "-m", "auditor.cli", "audit",
                              str(tmp_path / "records"), "--out", str(tmp_path / "out"),
                              "--quiet", "--jobs", "2"])
    carrying: dict[int, set[str]] = {}  # each child process seen, and what it had mapped
    publishing = tmp_path / "out" / ".runs"
    while audit.poll() is None:
        seen = {pid: _mapped(pid) for pid in children(audit.pid)}
        # The report's own child (output/aside.py) is forked once the outputs begin, the
        # workers gone: it carries what the parent has. A look at the children that may
        # have seen it (the outputs' folder made before it was forked) is not counted.
        if publishing.exists():
            break
        for pid, maps in seen.items():
            carrying.setdefault(pid, set()).update(
                library for library in OUTPUT_LIBRARIES if f"/{library}/" in maps)
        time.sleep(0.05)
    audit.wait()
    assert audit.returncode == 0
    assert len(carrying) >= 2, "the two workers were not seen"
    assert carrying == {pid: set() for pid in carrying}
