"""The reading stage alone, as the audit runs it: CPU seconds of `FileAudit.read` over the
workload of bench/compare.py, with each round's replay, checks and tally stubbed out (only
the kept texts' `forget`, which is reading's own work, stays).

    .venv/bin/python bench/read_stage.py [TREE] [--runs N]

TREE (default: this working tree) is the root of a checkout of any revision, e.g. one made
by `git worktree add --detach /tmp/base 55e64be`; run two trees in turn and compare the
least of their runs. A benchmark, never a unit test.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("tree", nargs="?", default=str(ROOT))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, args.tree)
    from auditor import audit
    from auditor.source import SourceFile

    def forget_only(self, item) -> None:
        self.texts.forget(item.start.line, item.end_line or item.last_line)

    audit.FileAudit._round = forget_only
    audit.FileAudit._between_rounds = lambda self, item: None
    files = sorted((ROOT / "bench" / ".data" / "mix-20000").glob("*/*.bjh"))
    if not files:
        sys.exit("no workload: run bench/compare.py once to make bench/.data/mix-20000")

    def once() -> float:
        started = time.process_time()
        for path in files:
            source = SourceFile(str(path))
            source.open_check()
            # a SourceFile is read a block at a time, as the audit reads it (revisions
            # before SourceFile.batches take its lines)
            audit.FileAudit(str(path)).read(
                source if hasattr(source, "batches") else source.lines())
        return time.process_time() - started

    once()  # imports, the grammar, the patterns
    best = min(once() for _ in range(args.runs))
    print(f"{audit.__file__}: reading {best:.3f} CPU s (least of {args.runs})")


if __name__ == "__main__":
    main()
