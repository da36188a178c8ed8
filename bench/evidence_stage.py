"""The evidence the store keeps of each replayed round, stage by stage, in two revisions.

    .venv/bin/python bench/evidence_stage.py REV [--fault-rate F] [--files N] [--repeat K]
                                             [--runs R] [--callgrind]

For REV (checked out with `git worktree add`, as bench/compare.py does) and the working
tree, in turn: the first N records of each game of bench/compare.py's workload are audited
once, outside the measure; then each of their replays (every round a file picks, more than
a run keeps) goes K times through each stage of `RunWriter._replay_document`: `trace`
(the round replayed again, the table after each statement: `trace._traced`), `changes`
(what each line changed: `changes.round_changes`) and `encode` (the stored document,
JSON and zlib: `encoding._compressed`). Each stage prints its process time, the least of R
runs, per pass over the replays; with `--callgrind`, the instructions of a pass instead
(valgrind's callgrind, a run with K passes less one with none: slow, minutes a run).
A digest of the stored documents tells whether both revisions store the same bytes.
A benchmark, never a unit test.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import compare  # bench/compare.py: the workload and the checkouts

STAGES = ("trace", "changes", "encode")

# Run in the revision's tree: audit the records, then time one stage K times.
_CHILD = """
import gc, hashlib, sys, time
from auditor.audit import audit_file
from auditor.replay.changes import round_changes
from auditor.replay.trace import _traced
from auditor.store.encoding import _compressed, _evidence_document, _lines_asked

stage, passes, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
replays = []
for path in files:
    result = audit_file(path)
    asked = _lines_asked(result.findings, result.facts)
    for evidence in result.evidence.values():
        replays.append((evidence, evidence.pending, asked))
for evidence, _, _ in replays:
    evidence.changes()  # every replay traced and its changes made once, outside the measure
gc.freeze()
gc.set_threshold(20_000, 20, 10)  # as `auditor audit` runs
started = time.process_time()
for _ in range(passes):
    if stage == "trace":
        for evidence, (before, record, faults), _ in replays:
            _traced(before, record, evidence.file, faults)
    elif stage == "changes":
        for evidence, _, _ in replays:
            round_changes(evidence)
    elif stage == "encode":
        for evidence, _, asked in replays:
            _compressed(_evidence_document(evidence, evidence.changes(), asked))
spent = time.process_time() - started
digest = hashlib.sha256()
for evidence, _, asked in replays:
    digest.update(_compressed(_evidence_document(evidence, evidence.changes(), asked)))
print("STAGE", len(replays), spent, digest.hexdigest()[:16])
"""

COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def run_stage(tree: Path, stage: str, passes: int, files: list[str],
              callgrind: bool) -> tuple[int, float, str]:
    command = [sys.executable, "-c", _CHILD, stage, str(passes), *files]
    if callgrind:
        command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command]
    done = subprocess.run(command, capture_output=True, text=True,
                          env=compare.child_environment(tree), check=False)
    found = [line.split() for line in done.stdout.splitlines() if line.startswith("STAGE ")]
    if done.returncode != 0 or not found:
        raise RuntimeError(f"the stage {stage} of {tree} failed:\n{done.stderr[-3000:]}")
    _, replays, spent, digest = found[-1]
    if callgrind:
        spent = str(int(COLLECTED.findall(done.stderr)[-1]))
    return int(replays), float(spent), digest


def measure(tree: Path, files: list[str], passes: int, runs: int,
            callgrind: bool) -> tuple[dict[str, float], int, str]:
    figures: dict[str, float] = {}
    replays, digest = 0, ""
    none = run_stage(tree, "none", 0, files, True)[1] if callgrind else 0.0
    for stage in STAGES:
        if callgrind:  # the run with no pass counted once: the audit and the start-up
            replays, some, digest = run_stage(tree, stage, passes, files, True)
            figures[stage] = (some - none) / passes
        else:
            spent = []
            for _ in range(runs):
                replays, seconds, digest = run_stage(tree, stage, passes, files, False)
                spent.append(seconds / passes)
            figures[stage] = min(spent)
    return figures, replays, digest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revision")
    parser.add_argument("--fault-rate", type=float, default=compare.FAULTS)
    parser.add_argument("--files", type=int, default=1, help="records of each game")
    parser.add_argument("--repeat", type=int, default=4, help="passes over the replays")
    parser.add_argument("--runs", type=int, default=3, help="runs of each stage (least)")
    parser.add_argument("--callgrind", action="store_true",
                        help="count instructions under valgrind instead of timing")
    arguments = parser.parse_args(argv)
    folder, _ = compare.workload(20_000, False, arguments.fault_rate)
    files = [str(record) for game in sorted(p for p in folder.iterdir() if p.is_dir())
             for record in sorted(game.glob("*.bjh"))[:arguments.files]]
    results = {}
    with tempfile.TemporaryDirectory(prefix="bjh-evidence-") as scratch:
        for name in (arguments.revision, "working tree"):
            tree = (compare.compiled(compare.ROOT) if name == "working tree"
                    else compare.checkout(name, Path(scratch)))
            try:
                results[name] = measure(tree, files, arguments.repeat, arguments.runs,
                                        arguments.callgrind)
            finally:
                if tree != compare.ROOT:
                    compare.remove(tree)
    replays = results["working tree"][1]
    unit = "G instructions" if arguments.callgrind else "CPU s, least of " + str(arguments.runs)
    print(f"workload: {len(files)} record(s) of {folder} ({arguments.files} of each game), "
          f"{replays:,} replays; each stage {arguments.repeat} passes, per pass in {unit}")
    print(compare.machine())
    print("| stage | " + " | ".join(results) + " | working tree faster by |")
    print("|---|" + "---|" * len(results) + "---|")
    scale = 1e9 if arguments.callgrind else 1
    base, mine = results[arguments.revision][0], results["working tree"][0]
    for stage in STAGES:
        cells = " | ".join(f"{results[name][0][stage] / scale:.3f}" for name in results)
        print(f"| {stage} | {cells} | {base[stage] / mine[stage]:.2f} x |")
    total = sum(base.values()) / sum(mine.values())
    print("| all three | " + " | ".join(f"{sum(results[n][0].values()) / scale:.3f}"
                                          for n in results) + f" | {total:.2f} x |")
    same = len({digest for _, _, digest in results.values()}) == 1
    print("stored documents: " + ("the same bytes" if same else "DIFFERENT") + " ("
          + ", ".join(f"{name} {digest}" for name, (_, _, digest) in results.items()) + ")")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
