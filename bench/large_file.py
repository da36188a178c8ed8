"""One large file on one process and on two, in turn: wall time, and the CPU seconds of the
parent (the serial part) and of its workers.

    .venv/bin/python bench/large_file.py [--rounds 40000] [--runs 3] [--against REV]

The file is bench/compare.py's `--one-file` workload (one seeded standard record, 2 % faulty
rounds, cached under bench/.data/). Each run is `auditor audit FILE --out TMP --quiet
--jobs J` in a fresh process with a fresh store. On a machine that other processes load,
the wall ratio says little; the CPU seconds say how far two cores could go: the parent's
own seconds cannot be shared, the workers' can. A benchmark, never a unit test.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import ROOT, checkout, child_environment, compiled, machine, remove, workload

# The `auditor` command as installed (`command_line`: `main`, then the interpreter's exit
# with the collector's last walks skipped, about 0.2 s on this record); `main` alone in a
# revision from before it.
_CHILD = """
import resource, sys
try:
    from auditor.cli import command_line
except ImportError:
    from auditor.cli import main as command_line
status = command_line()
me = resource.getrusage(resource.RUSAGE_SELF)
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
print("\\nLARGE", me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime, status)
"""


def run(tree: Path, folder: Path, jobs: int, out: Path) -> tuple[float, float, float]:
    shutil.rmtree(out, ignore_errors=True)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _CHILD, "audit", str(folder), "--out",
                           str(out), "--quiet", "--jobs", str(jobs)], capture_output=True,
                          text=True, cwd=out.parent, check=False,
                          env=child_environment(tree, XDG_DATA_HOME=str(out)))
    wall = time.perf_counter() - started
    tail = [line for line in done.stdout.splitlines() if line.startswith("LARGE ")]
    if not tail or tail[-1].split()[-1] not in ("0", "1"):
        raise RuntimeError(f"the audit failed:\n{done.stderr[-4000:]}")
    _, parent, workers, _ = tail[-1].split()
    return wall, float(parent), float(workers)


def report(name: str, runs: dict[int, list[tuple[float, float, float]]]) -> None:
    print(f"**{name}**")
    print("| run | wall median, s | parent CPU s | workers CPU s |")
    print("|---|---|---|---|")
    medians = {}
    for jobs, results in runs.items():
        medians[jobs] = [statistics.median(r[i] for r in results) for i in range(3)]
        wall, parent, workers = medians[jobs]
        print(f"| --jobs {jobs} | {wall:.1f} | {parent:.1f} | {workers:.1f} |")
    one = medians[1][0]
    wall2, parent2, workers2 = medians[2]
    print(f"wall ratio --jobs 2 / --jobs 1: {one / wall2:.2f} x")
    # The ratio within each turn (its two runs side by side): on a machine whose speed
    # drifts by a fifth within minutes (a shared host), their median is the steadier figure.
    turns = [first[0] / second[0] for first, second in zip(runs[1], runs[2], strict=True)]
    print("each turn: " + ", ".join(f"{ratio:.2f}" for ratio in turns)
          + f"; median {statistics.median(turns):.2f} x")
    # Two cores at best: the parent's seconds and half the workers', if the parent's
    # overlap with the workers' were nil (the pessimistic bound) or whole (the optimistic).
    print(f"bound from CPU seconds: {medians[1][1] / max(parent2, (parent2 + workers2) / 2):.2f}"
          f" x if the parent overlaps the workers, "
          f"{medians[1][1] / (parent2 + workers2 / 2):.2f} x if it does not")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--against", metavar="REV",
                        help="a git revision measured in the same turns, for its ratio")
    args = parser.parse_args()
    folder, rounds = workload(args.rounds, True)
    base = Path(tempfile.mkdtemp(prefix="bjh-large-"))
    trees = {"this tree": compiled(ROOT)}
    try:
        if args.against:
            trees = {args.against: checkout(args.against, base), **trees}
        runs: dict[str, dict[int, list]] = {name: {1: [], 2: []} for name in trees}
        for turn in range(args.runs):
            for name, tree in trees.items():
                # each turn in the other order: a machine growing slower or faster over
                # the sitting favours neither
                for jobs in (1, 2) if turn % 2 == 0 else (2, 1):
                    runs[name][jobs].append(run(tree, folder, jobs, base / "out"))
                    wall, parent, workers = runs[name][jobs][-1]
                    print(f"  turn {turn + 1} {name} --jobs {jobs}: {wall:.1f} s wall, "
                          f"parent {parent:.1f} CPU s, workers {workers:.1f}",
                          file=sys.stderr, flush=True)
    finally:
        for tree in trees.values():
            if tree != ROOT:
                remove(tree)
        shutil.rmtree(base, ignore_errors=True)
    print(f"one standard record, {rounds:,} rounds; {args.runs} runs each, in turn")
    print(f"machine: {machine()}")
    for name, measured in runs.items():
        report(name, measured)
    return 0


if __name__ == "__main__":
    sys.exit(main())
