"""One large file on one process and on two, in turn: wall time, and the CPU seconds of the
parent (the serial part) and of its workers.

    .venv/bin/python bench/large_file.py [--rounds 40000] [--runs 3]

The file is bench/compare.py's `--one-file` workload (one seeded standard record, 2 % faulty
rounds, cached under bench/.data/). Each run is `auditor audit FILE --out TMP --quiet
--jobs J` in a fresh process with a fresh store. On a machine that other processes load,
the wall ratio says little; the CPU seconds say how far two cores could go: the parent's
own seconds cannot be shared, the workers' can. A benchmark, never a unit test.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import ROOT, machine, workload

_CHILD = """
import resource, sys
from auditor.cli import main
status = main(sys.argv[1:])
me = resource.getrusage(resource.RUSAGE_SELF)
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
print("\\nLARGE", me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime, status)
"""


def run(folder: Path, jobs: int, out: Path) -> tuple[float, float, float]:
    shutil.rmtree(out, ignore_errors=True)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _CHILD, "audit", str(folder), "--out",
                           str(out), "--quiet", "--jobs", str(jobs)], capture_output=True,
                          text=True, cwd=out.parent, check=False,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(out)))
    wall = time.perf_counter() - started
    tail = [line for line in done.stdout.splitlines() if line.startswith("LARGE ")]
    if not tail or tail[-1].split()[-1] not in ("0", "1"):
        raise RuntimeError(f"the audit failed:\n{done.stderr[-4000:]}")
    _, parent, workers, _ = tail[-1].split()
    return wall, float(parent), float(workers)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    folder, rounds = workload(args.rounds, True)
    base = Path(tempfile.mkdtemp(prefix="bjh-large-"))
    runs: dict[int, list[tuple[float, float, float]]] = {1: [], 2: []}
    try:
        for turn in range(args.runs):
            for jobs in (1, 2):
                runs[jobs].append(run(folder, jobs, base / "out"))
                wall, parent, workers = runs[jobs][-1]
                print(f"  turn {turn + 1} --jobs {jobs}: {wall:.1f} s wall, parent "
                      f"{parent:.1f} CPU s, workers {workers:.1f}", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"one standard record, {rounds:,} rounds; {args.runs} runs each, in turn")
    print(f"machine: {machine()}")
    print("| run | wall median, s | parent CPU s | workers CPU s |")
    print("|---|---|---|---|")
    medians = {}
    for jobs, results in runs.items():
        medians[jobs] = [statistics.median(r[i] for r in results) for i in range(3)]
        wall, parent, workers = medians[jobs]
        print(f"| --jobs {jobs} | {wall:.1f} | {parent:.1f} | {workers:.1f} |")
    one = medians[1][0]
    wall2, parent2, workers2 = medians[2]
    # Two cores at best: the parent's seconds and half the workers', if the parent's
    # overlap with the workers' were nil (the pessimistic bound) or whole (the optimistic).
    print(f"wall ratio --jobs 2 / --jobs 1: {one / wall2:.2f} x")
    print(f"bound from CPU seconds: {medians[1][1] / max(parent2, (parent2 + workers2) / 2):.2f}"
          f" x if the parent overlaps the workers, "
          f"{medians[1][1] / (parent2 + workers2 / 2):.2f} x if it does not")
    return 0


if __name__ == "__main__":
    sys.exit(main())
