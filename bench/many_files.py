"""Many tiny files (probe R01): the cost per file at two sizes, which a linear audit keeps
the same.

    .venv/bin/python bench/many_files.py [--small 2000] [--large 6000] [--jobs 2]

Each file is a one-round standard record of its own table, made by the simulator (seeded,
cached under bench/.data/). Each size is audited with `auditor audit DIR --out TMP --quiet
--jobs J` in a fresh process with a fresh store; printed are the wall and CPU seconds (the
parent's and its workers'), and each per file. A cost per file that grows with the number
of files is something quadratic (tests/cli/test_many_files.py counts the pool's part of it). A
benchmark, never a unit test.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import DATA, ROOT, machine
from large_file import run


def tiny_files(count: int) -> Path:
    folder = DATA / f"many-{count}"
    if (folder / "done").exists():
        return folder
    sys.path.insert(0, str(ROOT))
    from auditor.simulate import simulate, table_spec

    shutil.rmtree(folder, ignore_errors=True)
    simulate(folder, table_spec("standard", table_id="M"), tables=count, rounds=1,
             seed="many-1")
    (folder / "done").write_text("")
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=int, default=2000)
    parser.add_argument("--large", type=int, default=6000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="bjh-many-"))
    rows = []
    try:
        for count in (args.small, args.large):
            wall, parent, workers = run(tiny_files(count), args.jobs, base / "out")
            rows.append((count, wall, parent, workers))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"tiny one-round files, audit --jobs {args.jobs}; machine: {machine()}")
    print("| files | wall, s | parent CPU s | workers CPU s | wall per file, ms | "
          "CPU per file, ms |")
    print("|---|---|---|---|---|---|")
    for count, wall, parent, workers in rows:
        print(f"| {count:,} | {wall:.1f} | {parent:.1f} | {workers:.1f} | "
              f"{1000 * wall / count:.2f} | {1000 * (parent + workers) / count:.2f} |")
    (small, *s), (large, *b) = rows
    print(f"{large / small:.1f} x the files: {b[0] / s[0]:.2f} x the wall time, "
          f"{(b[1] + b[2]) / (s[1] + s[2]):.2f} x the CPU time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
