"""Two revisions of the auditor on one fixed workload, run in turn: which is faster per core.

    .venv/bin/python bench/compare.py REV [REV2] [--runs N] [--jobs J] [--rounds R]

REV (and REV2, or else the working tree as it is now) is checked out with `git worktree add`
into a temporary folder and run on this venv with PYTHONPATH pointing at it (the older
revisions need no dependency this venv lacks). The workload is the speed issue's (27): 8
simulated records of three games, 20,000 rounds in all (about 871,000 lines), 2 % of rounds
with a planted fault; made once by the simulator of the working tree, seeded, and cached under
bench/.data/. `--rounds` scales it (for the large file of `--one-file`: one standard record);
`--fault-rate` plants a fault in that share of rounds instead (0.25: the findings-heavy
workload of issue 44, cached apart).

Each run is `auditor audit DIR --out TMP --quiet --jobs J` in a fresh process with a fresh
store, the two revisions alternating `--runs` times. Both trees are byte-compiled first and
run with bytecode on, as an installed auditor runs (PYTHONDONTWRITEBYTECODE is dropped).
For each it prints the median wall time, the median CPU seconds of the child (user + sys,
the measure to trust when other processes load the machine), rounds per second per core
(rounds / CPU seconds), the peak resident memory of the child and its workers, and the
ratio; then the machine, and each revision's findings: their count and whether their
content (findings.json without the run's times, paths and versions) is the same, or else
whether they name the same faults. A benchmark, never a unit test.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / ".data"
SEED = "compare-1"
FAULTS = 0.02
# game, records, rounds per record (for 20,000 rounds), options: ~871,000 lines in all
MIX = (("standard", 3, 2500, {"surrender": "late"}), ("switch", 2, 2500, {}),
       ("db21", 3, 2500, {"db21.paytable": "1"}))

# Lines a second per core of a hand-written Python reader that replays the standard game's
# money, measured for issue 44 on this workload: the mark beyond which the auditor's
# objects, not Python, would be the cost.
PYTHON_BOUND = 661_000

# Run in a fresh interpreter: the auditor's command line, then its CPU seconds and peaks.
_CHILD = """
import resource, sys
from auditor.cli import main
status = main(sys.argv[1:])
me = resource.getrusage(resource.RUSAGE_SELF)
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
print("\\nCOMPARE", me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime,
      me.ru_maxrss, kids.ru_maxrss, status)
"""


def workload(rounds: int, one_file: bool, faults: float = FAULTS) -> tuple[Path, int]:
    """The seeded workload (made once, cached): its folder and its rounds."""
    sys.path.insert(0, str(ROOT))
    from auditor.simulate import simulate, table_spec

    name = f"one-{rounds}" if one_file else f"mix-{rounds}"
    if faults != FAULTS:  # (the default's folder keeps its name: caches made before)
        name += f"-faults-{faults:g}"
    folder = DATA / name
    done = folder / "rounds.txt"
    if done.exists():
        return folder, int(done.read_text())
    shutil.rmtree(folder, ignore_errors=True)
    total = 0
    if one_file:
        spec = table_spec("standard", table_id="L01", options={"surrender": "late"})
        total += simulate(folder, spec, rounds=rounds, seed=SEED, faults=faults).rounds
    else:
        for index, (game, tables, each, options) in enumerate(MIX):
            spec = table_spec(game, table_id=f"T{index + 1}", options=options)
            total += simulate(folder / game, spec, tables=tables,
                              rounds=max(1, each * rounds // 20_000), seed=SEED,
                              faults=faults).rounds
    done.write_text(str(total))
    return folder, total


def checkout(rev: str, base: Path) -> Path:
    """A worktree of `rev` under `base` (removed by `remove`), byte-compiled."""
    where = base / f"rev-{rev.replace('/', '_')}"
    subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(where), rev],
                   cwd=ROOT, check=True)
    return compiled(where)


def child_environment(tree: Path, **more: str) -> dict[str, str]:
    """The environment of a measured run: the tree on the path, bytecode read and written
    as an installed auditor's is (a shell's PYTHONDONTWRITEBYTECODE would make every run
    compile the auditor's modules again, about 0.3 s a run, as no user's run does)."""
    env = dict(os.environ, PYTHONPATH=str(tree), **more)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def compiled(tree: Path) -> Path:
    """`tree` with its modules byte-compiled, as pip leaves an installed package."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "auditor")],
                   env=child_environment(tree), check=True)
    return tree


def remove(where: Path) -> None:
    subprocess.run(["git", "worktree", "remove", "--force", str(where)], cwd=ROOT,
                   check=False, capture_output=True)


def run_once(tree: Path, folder: Path, jobs: int, out: Path) -> dict:
    shutil.rmtree(out, ignore_errors=True)
    env = child_environment(tree, XDG_DATA_HOME=str(out))  # the store in out
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _CHILD, "audit", str(folder), "--out",
                           str(out), "--quiet", "--jobs", str(jobs)],
                          capture_output=True, text=True, cwd=out.parent, env=env, check=False)
    wall = time.perf_counter() - started
    tail = [line for line in done.stdout.splitlines() if line.startswith("COMPARE ")]
    if not tail or tail[-1].split()[-1] not in ("0", "1"):
        raise RuntimeError(f"the audit of {tree} failed:\n{done.stdout[-2000:]}"
                           f"\n{done.stderr[-4000:]}")
    _, cpu, parent, children, _ = tail[-1].split()
    return {"wall": wall, "cpu": float(cpu), "peak_mib": max(int(parent), int(children)) / 1024}


# Keys of findings.json that say when, where and by what the run was made, not what it found.
_RUN_KEYS = {"started", "finished", "started_utc", "finished_utc", "generated", "generated_at",
             "path", "command", "out", "store", "version", "auditor_version", "duration",
             "seconds", "elapsed", "run_id", "run"}


def _scrub(value, folder: str):
    if isinstance(value, dict):
        return {k: _scrub(v, folder) for k, v in value.items() if k not in _RUN_KEYS}
    if isinstance(value, list):
        return [_scrub(v, folder) for v in value]
    if isinstance(value, str):
        return value.replace(folder, "<in>")
    return value


def findings_of(out: Path, folder: Path) -> tuple[int, str, list]:
    """The count of findings, a digest of their content, and the content itself."""
    data = json.loads((out / "findings.json").read_text())
    findings = data["findings"] if isinstance(data, dict) else data
    content = _scrub(findings, str(folder))
    text = json.dumps(content, sort_keys=True)
    return len(findings), hashlib.sha256(text.encode()).hexdigest()[:16], content


def machine() -> str:
    model = ""
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as cpuinfo:
        model = next((line.split(":", 1)[1].strip() for line in cpuinfo
                      if line.startswith("model name")), "")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{os.cpu_count()} cores ({model or platform.processor()}), Linux "
            f"{platform.release()}, CPython {platform.python_version()}, load average {load}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", help="a git revision (the baseline)")
    parser.add_argument("rev2", nargs="?", help="another revision (default: the working tree)")
    parser.add_argument("--runs", type=int, default=3, help="alternations (default 3)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--one-file", action="store_true",
                        help="one standard record of --rounds rounds instead of the mix")
    parser.add_argument("--fault-rate", type=float, default=FAULTS,
                        help=f"the share of rounds with a planted fault (default {FAULTS})")
    args = parser.parse_args(argv)
    if not 0 <= args.fault_rate <= 1:
        parser.error("--fault-rate is a share of rounds, from 0 to 1")

    folder, rounds = workload(args.rounds, args.one_file, args.fault_rate)
    lines = sum(1 for path in folder.rglob("*.bjh") for _ in path.open())
    base = Path(tempfile.mkdtemp(prefix="bjh-compare-"))
    trees: dict[str, Path] = {}
    try:
        trees[args.rev] = checkout(args.rev, base)
        if args.rev2:
            trees[args.rev2] = checkout(args.rev2, base)
        else:
            trees["working tree"] = compiled(ROOT)
        results: dict[str, list[dict]] = {name: [] for name in trees}
        found: dict[str, tuple] = {}
        for turn in range(args.runs):
            for name, tree in trees.items():
                out = base / f"out-{len(found)}-{turn}"
                results[name].append(run_once(tree, folder, args.jobs, out))
                if name not in found:
                    found[name] = findings_of(out, folder)
                shutil.rmtree(out, ignore_errors=True)
                run = results[name][-1]
                print(f"  turn {turn + 1} {name}: {run['wall']:.1f} s wall, "
                      f"{run['cpu']:.1f} CPU s", file=sys.stderr, flush=True)
    finally:
        for tree in trees.values():
            if tree != ROOT:
                remove(tree)
        shutil.rmtree(base, ignore_errors=True)

    print(f"workload: {folder.relative_to(ROOT)}, {rounds:,} rounds, {lines:,} lines, "
          f"{args.fault_rate:.0%} faulty rounds; audit --jobs {args.jobs}; {args.runs} runs each, "
          "in turn")
    print(f"machine: {machine()}")
    print("| revision | wall median, s | CPU median, s | rounds/s per core | peak MiB | "
          "findings |")
    print("|---|---|---|---|---|---|")
    medians = {}
    for name, runs in results.items():
        wall = statistics.median(r["wall"] for r in runs)
        cpu = statistics.median(r["cpu"] for r in runs)
        peak = max(r["peak_mib"] for r in runs)
        medians[name] = (wall, cpu)
        count, digest, _ = found[name]
        print(f"| {name} | {wall:.1f} | {cpu:.1f} | {rounds / cpu:,.0f} | "
              f"{peak:.0f} | {count} ({digest}) |")
    (old_wall, old_cpu), (new_wall, new_cpu) = medians.values()
    names = list(trees)
    print("lines a second per core (lines / CPU median), against issue 44's Python bound of "
          f"{PYTHON_BOUND:,} (a hand-written reader with the standard game's money): "
          + "; ".join(f"{name} {lines / cpu:,.0f}, {lines / cpu / PYTHON_BOUND:.3f} of it"
                      for name, (_, cpu) in medians.items()))
    print(f"ratio {names[1]} over {names[0]}: {old_cpu / new_cpu:.2f} x per core (CPU s), "
          f"{old_wall / new_wall:.2f} x wall")
    print(ratio_spread(*(results[name] for name in names)))
    first, second = (found[name][2] for name in names)
    if first == second:
        print("findings: the same content in both")
    else:
        differ = (sum(1 for a, b in zip(first, second, strict=False) if a != b)
                  + abs(len(first) - len(second)))
        if _faults(first) != _faults(second):
            print(f"findings: DIFFERENT ({differ} differ, and the faults they name too)")
            return 1
        # An older revision may lack fields added since (the ID recipe, the gaming day…):
        # the same faults, told differently, are still the same findings for speed.
        fields = sorted({key for a, b in zip(first, second, strict=True)
                         for key in a.keys() | b.keys() if a.get(key) != b.get(key)})
        print(f"findings: the same faults (citation, file, round, line, amounts); "
              f"{differ} differ in these fields: {', '.join(fields)}")
    return 0


def ratio_spread(old: list[dict], new: list[dict]) -> str:
    """The ratio told two more ways, for a machine whose speed drifts between runs: the
    median of each turn's ratio (the two runs of a turn are minutes apart, so a slow spell
    mostly falls on both), and the ratio of each side's least CPU seconds (a run is slowed
    by what else loads the machine, never sped up, so the least is the nearest to its own
    cost)."""
    turns = sorted(a["cpu"] / b["cpu"] for a, b in zip(old, new, strict=True))
    least = min(r["cpu"] for r in old) / min(r["cpu"] for r in new)
    return (f"per turn (CPU s): {', '.join(f'{t:.2f}' for t in turns)}; median "
            f"{statistics.median(turns):.2f} x; least over least {least:.2f} x")


def _faults(findings: list) -> list[tuple]:
    """What each finding says is wrong and where, whatever else it carries."""
    return [tuple(str(f.get(key)) for key in _FAULT_KEYS) for f in findings]


_FAULT_KEYS = ("citation", "file", "round", "line", "seat", "hand", "expected", "actual",
               "difference", "severity")


if __name__ == "__main__":
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    sys.exit(main())
