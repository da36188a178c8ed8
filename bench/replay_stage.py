"""The replay and check stage alone: its CPU seconds on issue 27's workload.

    .venv/bin/python bench/replay_stage.py [FOLDER] [--runs N] [--profile OUT]

The records are read (text -> events -> rounds) once, outside the timing; then each file's
rounds are replayed as `FileAudit._round` replays them (the table's state cloned before each
round, for the evidence) and judged by the file's checks, and the process time of that is
printed (best of `--runs`), with a digest of the findings so that two revisions can be
compared. A benchmark, never a unit test.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import hashlib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from auditor.audit import FileAudit  # noqa: E402
from auditor.parser import parse_lines  # noqa: E402
from auditor.reader import RoundRecord, read_structure  # noqa: E402
from auditor.source import SourceFile  # noqa: E402


def load(folder: Path) -> list[tuple[str, list]]:
    files = []
    for path in sorted(folder.rglob("*.bjh")):
        source = SourceFile(str(path))
        source.open_check()
        items = list(read_structure(parse_lines(source.lines())))
        files.append((str(path), items))
    return files


def stage(files: list[tuple[str, list]]) -> tuple[float, int, str]:
    """Replay and judge every round; (process seconds, findings, digest of the findings)."""
    digest = hashlib.sha256()
    count = 0
    spent = 0.0
    for path, items in files:
        audit = FileAudit(path)
        audit.texts.attach = lambda findings, start: None  # the IDs' statements: not this stage
        audit.texts.forget = lambda first, last: None
        audit.result.tally.add_round = lambda view, found: None  # the tally: not this stage
        audit.result.tally.add_event = lambda item: None
        started = time.process_time()
        audit.audit_items(items)
        spent += time.process_time() - started
        for finding in audit.result.findings:
            digest.update(finding.model_dump_json().encode())
        count += len(audit.result.findings)
    return spent, count, digest.hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default=str(ROOT / "bench/.data/mix-20000"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", help="write a cProfile of one run here")
    args = parser.parse_args(argv)
    files = load(Path(args.folder))
    # as `auditor audit` runs (auditor/commands/audit.py): what is loaded kept out of the
    # collector's walks
    gc.freeze()
    gc.set_threshold(20_000, 20, 10)
    rounds = sum(isinstance(i, RoundRecord) for _, items in files for i in items)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        stage(files)
        profiler.disable()
        profiler.dump_stats(args.profile)
    if args.runs == 0:  # reading alone: subtracted from a count of instructions of one run
        return 0
    times = []
    for _ in range(args.runs):
        spent, count, digest = stage(files)
        times.append(spent)
        print(f"  {spent:.2f} CPU s", file=sys.stderr, flush=True)
    best = min(times)
    print(f"replay + checks: {rounds:,} rounds, best {best:.2f} CPU s of {args.runs} "
          f"({rounds / best:,.0f} rounds/s), {count} findings, digest {digest}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
