"""The start-up of `auditor audit`: what its imports cost, module by module.

    .venv/bin/python bench/startup.py [REV ...] [--runs N] [--instructions]

Runs `python -X importtime -m auditor audit sample_logs --out TMP --quiet --jobs 1` (a fresh
store each time, the user's cache warmed by a first run) `--runs` times for the working tree
and for each REV (checked out as bench/compare.py does, byte-compiled, bytecode on). The
samples load the same modules as bench/compare.py's workload (Lark too: some lines only it
can judge), in a run short enough that the imports are most of it.

On a shared machine one import's time moves by more than itself from run to run; each
module's own time (`self` in importtime's words) is taken as the least of the runs, and the
start-up as the sum of those. It prints, for each tree: that sum, the modules loaded, the
child's CPU seconds (least and median of the runs), the CPU seconds spent making the
dataclasses (timed in three more runs, the least), then the start-up by package (the
auditor's modules one by one, the others by their top package), heaviest first. With
`--instructions`, also the instructions of one such run under callgrind (needs valgrind),
the measure that barely moves, those of importing (alone) what it imports, and those of
importing the libraries it runs on alone.
A benchmark, never a unit test.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import compare  # bench/compare.py: the checkouts and the child's environment

SAMPLES = compare.ROOT / "sample_logs"
IMPORT_LINE = re.compile(r"import time:\s+(\d+) \|\s+\d+ \|( *)(\S+)")
COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")
# The child: the command line, then its CPU seconds on stderr's last line.
_CHILD = """
import resource, sys
from auditor.cli import main
code = main(sys.argv[1:])
usage = resource.getrusage(resource.RUSAGE_SELF)
print("STARTUP-CPU", usage.ru_utime + usage.ru_stime, code, file=sys.stderr)
"""
# The child with each dataclass's making timed (CPU), summed by whose class it is.
_DATACLASS_CHILD = """
import dataclasses, sys, time
made = {}
process_class = dataclasses._process_class
def timed(cls, *arguments):
    started = time.process_time()
    done = process_class(cls, *arguments)
    whose = "auditor" if cls.__module__.startswith("auditor") else "others"
    count, seconds = made.get(whose, (0, 0.0))
    made[whose] = (count + 1, seconds + time.process_time() - started)
    return done
dataclasses._process_class = timed
from auditor.cli import main
code = main(sys.argv[1:])
for whose, (count, seconds) in sorted(made.items()):
    print("STARTUP-DATACLASSES", whose, count, seconds, file=sys.stderr)
print("STARTUP-CPU", 0, code, file=sys.stderr)
"""


def audit_command(out: Path) -> list[str]:
    return ["audit", str(SAMPLES), "--out", str(out / "out"), "--quiet", "--jobs", "1",
            "--store", str(out / "store.sqlite"), "--new-store"]


def _audit_with_importtime(tree: Path, out: Path) -> subprocess.CompletedProcess:
    """The audit of the samples in a fresh child of `tree`, its imports timed on stderr."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    env = compare.child_environment(tree, XDG_CACHE_HOME=str(out.parent / "cache"),
                                    XDG_DATA_HOME=str(out))
    return subprocess.run([sys.executable, "-X", "importtime", "-c", _CHILD,
                           *audit_command(out)],
                          capture_output=True, text=True, cwd=out.parent, env=env, check=False)


def run_once(tree: Path, out: Path) -> tuple[dict[str, int], float]:
    """Each module's own import time in microseconds, and the child's CPU seconds."""
    done = _audit_with_importtime(tree, out)
    tail = [line.split() for line in done.stderr.splitlines() if line.startswith("STARTUP-CPU")]
    if not tail or tail[-1][2] not in ("0", "1"):
        raise RuntimeError(f"the audit of {tree} failed:\n{done.stderr[-3000:]}")
    own: dict[str, int] = {}
    for found in IMPORT_LINE.finditer(done.stderr):
        own[found[3]] = own.get(found[3], 0) + int(found[1])
    return own, float(tail[-1][1])


def imports_alone(tree: Path, out: Path) -> str:
    """A child that imports what the audit of the samples imports, in its order, and
    nothing else (the modules it imports itself, first; each loads what it loads)."""
    done = _audit_with_importtime(tree, out)
    first = [found[3] for found in IMPORT_LINE.finditer(done.stderr)
             if len(found[2]) == 1]  # one space: imported at the top level
    return ("import gc, importlib\ngc.set_threshold(20_000, 20, 10)\n"
            f"for name in {first!r}:\n    importlib.import_module(name)\n")


def dataclasses_made(tree: Path, out: Path) -> dict[str, tuple[int, float]]:
    """Whose dataclasses the run made at import (the auditor's, the libraries'): how many,
    and the CPU seconds `@dataclass` took to make them (mostly compiling each `__init__`)."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    env = compare.child_environment(tree, XDG_CACHE_HOME=str(out.parent / "cache"),
                                    XDG_DATA_HOME=str(out))
    done = subprocess.run([sys.executable, "-c", _DATACLASS_CHILD, *audit_command(out)],
                          capture_output=True, text=True, cwd=out.parent, env=env, check=False)
    made = {}
    for line in done.stderr.splitlines():
        if line.startswith("STARTUP-DATACLASSES"):
            _, whose, count, seconds = line.split()
            made[whose] = (int(count), float(seconds))
    if not made:
        raise RuntimeError(f"the audit of {tree} failed:\n{done.stderr[-3000:]}")
    return made


# The libraries an audit runs on, imported alone, and one pydantic model made (the first
# loads pydantic's schema builder): the floor under the audit's start-up.
_LIBRARIES_CHILD = """
import gc
gc.set_threshold(20_000, 20, 10)  # as auditor/cli.py's main
import jinja2, lark, pydantic, sqlalchemy
class Made(pydantic.BaseModel):
    number: int = 1
"""


def instructions(tree: Path, out: Path, child: str = _CHILD) -> int:
    """The instructions of the audit of the samples (or of `child` alone) under callgrind."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    env = compare.child_environment(tree, XDG_CACHE_HOME=str(out.parent / "cache"),
                                    XDG_DATA_HOME=str(out))
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           sys.executable, "-c", child,
                           *(audit_command(out) if child == _CHILD else ())],
                          capture_output=True, text=True, cwd=out.parent, env=env, check=False)
    found = COLLECTED.findall(done.stderr)
    if not found:
        raise RuntimeError(f"the audit of {tree} failed:\n{done.stderr[-3000:]}")
    return int(found[-1])


def group(module: str) -> str:
    """The auditor's modules by name, any other by its top package."""
    return module if module.startswith("auditor.") else module.split(".")[0]


def measure(tree: Path, scratch: Path, runs: int, count_instructions: bool) -> dict:
    run_once(tree, scratch / "warm")  # the user's cache: templates, the grammar's terminals
    least: dict[str, int] = {}
    cpu = []
    for turn in range(runs):
        own, seconds = run_once(tree, scratch / f"run-{turn}")
        cpu.append(seconds)
        for module, micro in own.items():
            least[module] = min(micro, least.get(module, micro))
    made = [dataclasses_made(tree, scratch / "dataclasses") for _ in range(3)]
    result = {"least": least, "cpu": cpu,
              "dataclasses": {whose: (made[0][whose][0],
                                      min(turn[whose][1] for turn in made))
                              for whose in made[0]}}
    if count_instructions:
        result["instructions"] = instructions(tree, scratch / "callgrind")
        result["import instructions"] = instructions(
            tree, scratch / "callgrind", imports_alone(tree, scratch / "imports"))
    return result


def report(name: str, result: dict, top: int) -> None:
    least = result["least"]
    total = sum(least.values())
    mine = sum(micro for module, micro in least.items() if module.split(".")[0] == "auditor")
    print(f"{name}: start-up (imports) {total / 1000:.0f} ms, of which the auditor's own "
          f"modules {mine / 1000:.0f} ms; {len(least)} modules; audit of sample_logs "
          f"{min(result['cpu']):.2f} s CPU least, {statistics.median(result['cpu']):.2f} s "
          "median" + (f"; {result['instructions'] / 1e6:,.0f} M instructions, of which "
                      f"its imports alone {result['import instructions'] / 1e6:,.0f} M"
                      if "instructions" in result else ""))
    whose_name = {"auditor": "the auditor's", "others": "the libraries'"}
    print("dataclasses made at import (CPU, the least of 3 runs): " + "; ".join(
        f"{whose_name[whose]} {count} in {seconds * 1000:.0f} ms"
        for whose, (count, seconds) in sorted(result["dataclasses"].items())))
    groups: dict[str, int] = defaultdict(int)
    for module, micro in least.items():
        groups[group(module)] += micro
    print("| module or package | ms |")
    print("|---|---|")
    for module, micro in sorted(groups.items(), key=lambda item: -item[1])[:top]:
        print(f"| {module} | {micro / 1000:.1f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revisions", nargs="*")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--top", type=int, default=20, help="rows of the table")
    parser.add_argument("--instructions", action="store_true",
                        help="also count one run's instructions under callgrind")
    arguments = parser.parse_args(argv)
    if arguments.instructions and shutil.which("valgrind") is None:
        print("valgrind is not on the PATH (apt-get install valgrind)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="bjh-startup-") as scratch:
        base = Path(scratch)
        for index, name in enumerate([*arguments.revisions, "working tree"]):
            tree = (compare.compiled(compare.ROOT) if name == "working tree"
                    else compare.checkout(name, base))
            try:
                result = measure(tree, base / f"tree-{index}", arguments.runs,
                                 arguments.instructions)
            finally:
                if tree != compare.ROOT:
                    compare.remove(tree)
            report(name, result, arguments.top)
        if arguments.instructions:
            floor = instructions(compare.ROOT, base / "libraries", _LIBRARIES_CHILD)
            print(f"the libraries alone (import jinja2, lark, pydantic, sqlalchemy and make one "
                  f"pydantic model): {floor / 1e6:,.0f} M instructions")
    print(f"-X importtime, each module's own time the least of {arguments.runs} runs; "
          + compare.machine())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
