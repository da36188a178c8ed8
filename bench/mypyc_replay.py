"""The replay compiled by mypyc, against the replay as it is: measured first (issue 44).

    .venv/bin/python bench/mypyc_replay.py [FOLDER] [--runs N] [--instructions]

Three copies of the committed tree (HEAD) are made in a temporary folder: HEAD as it is;
HEAD with bench/mypyc_replay.patch applied, which makes the replay's modules what mypyc can
compile into native classes (each object built by its constructor, where native classes
refuse `object.__new__`; dataclasses without `slots=True` and without the Python base
`Fieldwise`, with the repr and eq that dataclass writes; `@mypyc_attr(serializable=True)`, so
that views pickle and copy; the annotations the dataclasses read at run time imported), left
pure; and that patched tree compiled in place by mypyc (needs mypy and a C compiler).

In each it runs bench/replay_stage.py on FOLDER (the replay and the checks, best of
`--runs`), the same with the checks' runner a no-op (the replay alone), and a read of one
attribute of a Hand from interpreted code (as the checks read the views); checks that a
RoundView of the compiled tree pickles and loads equal; with `--instructions`, counts under
callgrind (valgrind; slow) the instructions of one pass of the replay and the checks, and
of the replay alone, on bench/instructions.py's subset (a record of each game), each less
those of reading the records (the CPU seconds of a shared machine move by 15-30 %).
Prints a table, each tree against HEAD. A benchmark, never a unit test.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import compare  # bench/compare.py: the workload, the machine
import instructions  # bench/instructions.py: the subset, callgrind's count

ROOT = compare.ROOT
PATCH = ROOT / "bench" / "mypyc_replay.patch"
COMPILED_MODULES = ["engine", "view", "state", "outcomes", "round_end", "table_events",
                    "switch", "tensticks", "ladies", "under"]
BEST = re.compile(r"best ([\d.]+) CPU s of \d+ \(([\d,]+) rounds/s\), (\d+) findings, "
                  r"digest (\w+)")

BUILD = """
import sys
from setuptools import setup
from mypyc.build import mypycify
modules = [f"auditor/replay/{name}.py" for name in sys.argv[1].split(",")]
sys.argv[1:] = ["build_ext", "--inplace", "--build-temp", sys.argv[2]]
setup(name="replay-compiled", packages=[], py_modules=[],
      ext_modules=mypycify(modules, opt_level="3"))
"""

REPLAY_ALONE = """
import runpy, sys
sys.path.insert(0, ".")
from auditor.checks.runner import RoundRunner
RoundRunner.run = lambda self, view: False  # the checks: not measured here
sys.argv = ["bench/replay_stage.py", *sys.argv[1:]]
runpy.run_path("bench/replay_stage.py", run_name="__main__")
"""

ATTRIBUTE_READ = """
import sys, timeit
sys.path.insert(0, ".")
from auditor.replay.view import make_hand
hand = make_hand("s1h1", "s1", "s1h1")
best = min(timeit.repeat("hand.total; hand.cards; hand.main; hand.doubled; hand.parent",
                         globals={"hand": hand}, number=200_000, repeat=5))
print(f"{best / 1_000_000 * 1e9:.1f}")
"""

PICKLED = """
import pickle, sys
sys.path.insert(0, ".")
from auditor.replay.engine import replay_round
from auditor.replay.state import TableState
from auditor.reader import Header, RoundRecord, read_structure
from auditor.parser import parse_lines
from auditor.source import SourceFile
source = SourceFile(sys.argv[1]); source.open_check()
items = list(read_structure(parse_lines(source.lines())))
header = next(i for i in items if isinstance(i, Header))
state = TableState(header.config)
views = [replay_round(state, item, sys.argv[1]) for item in items
         if isinstance(item, RoundRecord)]
again = pickle.loads(pickle.dumps(views))
import auditor.replay.view as view
print(view.__file__.endswith(".so"), again == views, len(views))
"""


def run(tree: Path, *command: str) -> str:
    done = subprocess.run([sys.executable, *command], cwd=tree, capture_output=True,
                          text=True, env=compare.child_environment(tree), check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command[:2])} in {tree} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def copy_of_head(where: Path) -> Path:
    where.mkdir()
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    (where / "bench" / ".data").symlink_to(compare.DATA)
    return where


def patched(where: Path) -> Path:
    subprocess.run(["git", "apply", str(PATCH)], cwd=where, check=True)
    return where


def built(tree: Path, scratch: Path) -> Path:
    run(tree, "-c", BUILD, ",".join(COMPILED_MODULES), str(scratch / "build-temp"))
    found = sorted(p.name for p in (tree / "auditor" / "replay").glob("*.so"))
    if len(found) != len(COMPILED_MODULES):
        raise RuntimeError(f"mypyc built {found}, not the {len(COMPILED_MODULES)} modules")
    return tree


def counted(tree: Path, *command: str) -> int:
    """The instructions `python COMMAND` executes in `tree`, under callgrind."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           sys.executable, *command], cwd=tree, capture_output=True,
                          text=True, env=compare.child_environment(tree), check=False)
    found = instructions.COLLECTED.findall(done.stderr)
    if done.returncode != 0 or not found:
        raise RuntimeError(f"{' '.join(command[:2])} in {tree} failed:\n{done.stderr[-3000:]}")
    return int(found[-1])


def stage_instructions(tree: Path, records: Path) -> tuple[int, int]:
    """The instructions of one pass of the replay and the checks over `records`, and of the
    replay alone: each run's count less that of reading them alone (`--runs 0`)."""
    reading = counted(tree, "bench/replay_stage.py", str(records), "--runs", "0")
    both = counted(tree, "bench/replay_stage.py", str(records), "--runs", "1")
    alone = counted(tree, "-c", REPLAY_ALONE, str(records), "--runs", "1")
    return both - reading, alone - reading


def best(output: str) -> tuple[float, str]:
    match = BEST.search(output)
    if match is None:
        raise RuntimeError(f"no result in {output!r}")
    return float(match.group(1)), f"{match.group(3)} findings, digest {match.group(4)}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(compare.DATA / "mix-20000"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--instructions", action="store_true")
    arguments = parser.parse_args(argv)
    folder = str(Path(arguments.folder).resolve())
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                          capture_output=True, check=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="bjh-mypyc-") as name:
        scratch = Path(name)
        trees = {
            f"{head} (pure)": copy_of_head(scratch / "head"),
            "patched, pure": patched(copy_of_head(scratch / "pure")),
            "patched, compiled (mypyc)": built(patched(copy_of_head(scratch / "mypyc")),
                                               scratch),
        }
        stage: dict[str, float] = {}
        alone: dict[str, float] = {}
        reads: dict[str, float] = {}
        digests: dict[str, str] = {}
        counts: dict[str, tuple[int, int]] = {}
        for label, tree in trees.items():
            stage[label], digests[label] = best(run(
                tree, "bench/replay_stage.py", folder, "--runs", str(arguments.runs)))
            alone[label], _ = best(run(tree, "-c", REPLAY_ALONE, folder, "--runs",
                                       str(arguments.runs)))
            reads[label] = float(run(tree, "-c", ATTRIBUTE_READ))
            print(f"  {label}: replay + checks {stage[label]:.2f} CPU s, replay alone "
                  f"{alone[label]:.2f}, an attribute read {reads[label]:.1f} ns",
                  file=sys.stderr, flush=True)
        record = str(sorted(Path(folder).rglob("*.bjh"))[0])
        loaded, equal, views = run(trees["patched, compiled (mypyc)"], "-c", PICKLED,
                                   record).split()
        if arguments.instructions:
            records = scratch / "records"
            records.mkdir()
            instructions.subset(compare.DATA / "mix-20000", 1, records)
            for label, tree in trees.items():
                counts[label] = stage_instructions(tree, records)
                print(f"  {label}: replay + checks {counts[label][0] / 1e9:.2f} G "
                      f"instructions, replay alone {counts[label][1] / 1e9:.2f} G",
                      file=sys.stderr, flush=True)
    first = next(iter(trees))
    print(f"workload: {Path(folder).name}; bench/replay_stage.py best of {arguments.runs}; "
          f"the replay alone: the checks' runner a no-op; modules compiled: "
          f"{', '.join(COMPILED_MODULES)}")
    print(compare.machine())
    columns = "| tree | replay + checks, CPU s | faster by | replay alone, CPU s | faster by " \
              "| an attribute read, ns |"
    if counts:
        columns += (" replay + checks, G instructions | fewer by | replay alone, G "
                    "instructions | fewer by |")
    print(columns)
    print("|" + "---|" * (columns.count("|") - 1))
    for label in trees:
        row = (f"| {label} | {stage[label]:.2f} | {stage[first] / stage[label]:.2f} x "
               f"| {alone[label]:.2f} | {alone[first] / alone[label]:.2f} x "
               f"| {reads[label]:.1f} |")
        if counts:
            (both, alone_count), (first_both, first_alone) = counts[label], counts[first]
            row += (f" {both / 1e9:.2f} | {first_both / both:.2f} x | {alone_count / 1e9:.2f}"
                    f" | {first_alone / alone_count:.2f} x |")
        print(row)
    same = len(set(digests.values())) == 1
    print(f"findings: {'the same in every tree' if same else 'NOT the same'} "
          f"({digests[first]})")
    print(f"pickle: {views} views of the compiled tree (compiled: {loaded}) pickled and "
          f"loaded {'equal' if equal == 'True' else 'NOT equal'}")
    return 0 if same and equal == "True" else 1


if __name__ == "__main__":
    raise SystemExit(main())
