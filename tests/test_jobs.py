"""`--jobs N` gives the same output as one job, byte for byte but for the run's own clock.

Parallel runs audit the largest files first and collect results as workers finish; the
output must still follow the input order.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from auditor.cli import main

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
OUTPUTS = ("findings.json", "findings.csv", "summary.csv", "report.html")
# What differs between two runs of the same audit: when it ran and where it wrote.
RUN_CLOCK = re.compile(r'"(started|finished|command)": "[^"]*"'
                       r"|\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\+00:00| UTC)"
                       r"|\(\d+ s\)|--out \S+|--jobs \d+")


def audit(folder: Path, out: Path, jobs: int) -> dict[str, str]:
    assert main(["audit", str(folder), "--out", str(out), "--quiet", "--jobs", str(jobs)]) == 1
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
    one = audit(uneven_folder, tmp_path / "one", 1)
    parallel = audit(uneven_folder, tmp_path / "parallel", jobs)
    for name in OUTPUTS:
        assert parallel[name] == one[name], f"{name} differs with --jobs {jobs}"
    report = json.loads((tmp_path / "parallel" / "findings.json").read_text(encoding="utf-8"))
    inputs = [Path(i["path"]).name for i in report["inputs"]]
    assert inputs == sorted(p.name for p in uneven_folder.glob("*.bjh"))
