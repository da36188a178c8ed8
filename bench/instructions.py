"""Revisions of the auditor compared by the instructions they execute, not by the clock.

    .venv/bin/python bench/instructions.py REV [REV ...] [--files N]

On this project's machine (a shared virtual machine) the CPU seconds of one revision on one
workload vary by up to 30 % from run to run, so `bench/compare.py`'s ratios move by more
than a change worth measuring. The count of instructions a run executes barely moves. This
runs `auditor audit --jobs 1` (every output, a fresh store) of each revision, and of the
working tree, under valgrind's callgrind, on a subset of `bench/compare.py`'s workload: the
first N records of each game (default 1: three records, about 7,500 rounds). Valgrind makes
a run about 50 times slower; the revisions run one after another. It prints the instructions
of each, in billions, and each revision's count over the working tree's (how many times the
working tree is faster). Needs `valgrind` on the PATH. A benchmark, never a unit test.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import compare  # bench/compare.py: the workload and the checkouts

COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def subset(folder: Path, per_game: int, into: Path) -> int:
    """The first `per_game` records of each game, copied into `into`; their rounds."""
    rounds = 0
    for game in sorted(p for p in folder.iterdir() if p.is_dir()):
        for record in sorted(game.glob("*.bjh"))[:per_game]:
            shutil.copy(record, into / record.name)
            rounds += sum(1 for line in record.open(encoding="utf-8", errors="replace")
                          if line.startswith("round "))
    return rounds


def instructions(tree: Path, records: Path, out: Path) -> int:
    """The instructions of one audit in `tree`, counted after a first audit uncounted: the
    caches a user's runs keep (the report's compiled templates, keyed by the checkout's
    paths) are warm in every tree, as in the working tree, where they were warm already."""
    env = compare.child_environment(tree, XDG_DATA_HOME=str(out))
    command = [sys.executable, "-m", "auditor", "audit", str(records), "--out", str(out),
               "--quiet", "--jobs", "1"]
    subprocess.run(command, capture_output=True, cwd=out.parent, env=env, check=False)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        capture_output=True, text=True, cwd=out.parent, env=env, check=False)
    found = COLLECTED.findall(done.stderr)
    if done.returncode not in (0, 1) or not found:
        raise RuntimeError(f"the audit of {tree} failed:\n{done.stderr[-3000:]}")
    return int(found[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revisions", nargs="+")
    parser.add_argument("--files", type=int, default=1, help="records of each game")
    arguments = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not on the PATH (apt-get install valgrind)", file=sys.stderr)
        return 2
    folder, _ = compare.workload(20_000, False)
    with tempfile.TemporaryDirectory(prefix="bjh-instructions-") as scratch:
        base = Path(scratch)
        records = base / "records"
        records.mkdir()
        rounds = subset(folder, arguments.files, records)
        counts: dict[str, int] = {}
        for name in [*arguments.revisions, "working tree"]:
            tree = (compare.compiled(compare.ROOT) if name == "working tree"
                    else compare.checkout(name, base))
            try:
                counts[name] = instructions(tree, records, base / f"out-{len(counts)}")
            finally:
                if tree != compare.ROOT:
                    compare.remove(tree)
            print(f"  {name}: {counts[name] / 1e9:.2f} G instructions", flush=True)
    print(f"workload: {arguments.files} record(s) of each game of {folder}, {rounds:,} rounds; "
          "audit --jobs 1 under callgrind")
    print(compare.machine())
    print("| revision | instructions, G | per round, k | working tree faster by |")
    print("|---|---|---|---|")
    mine = counts["working tree"]
    for name, count in counts.items():
        print(f"| {name} | {count / 1e9:.2f} | {count / rounds / 1e3:.0f} | "
              f"{count / mine:.2f} x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
