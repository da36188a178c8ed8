"""The auditor's benchmark: a fixed, seeded workload of every game, timed stage by stage.

    .venv/bin/python bench/run.py [--rounds N] [--tables T] [--repeat R] [--out FILE]

For each game the simulator deals `tables` records of `rounds` rounds each (seeded, 1 % of
rounds with a planted fault, so the report has findings to show) into a temporary folder.
Then, for each game and for the four games together, it measures:

- end to end: `auditor audit DIR --out TMP --quiet --jobs J` in a fresh process (start-up,
  parse, replay, every check, findings.json, findings.csv, summary.csv and report.html),
  for J = 1 and 2; peak memory is the largest resident set of that process and of its
  worker processes (resource.getrusage);
- parse alone: reading and parsing every line into events (source.py + parser/), and
  the same through Lark alone (`parse_lines_lark`, the parser before its fast path);
- replay alone: the replay of every round from already parsed records (engine.py);
- the audit core: `audit_file` in process (parse, replay, every check, evidence), no output;
- memory against input size: the tracemalloc peak of `audit_file` on one record and on a
  record four times as long (flat memory means the same peak).

Rates are rounds per second (best of `repeat` runs; the machine is shared, so take every
figure as ±15 %). The table is printed and everything is written to bench/results.json.
This is a script, never a unit test.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import tracemalloc
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from auditor import events as ev  # noqa: E402
from auditor.audit import audit_file  # noqa: E402
from auditor.parser import parse_lines, parse_lines_lark  # noqa: E402
from auditor.reader import Header, RoundRecord, read_structure  # noqa: E402
from auditor.replay.engine import replay_round  # noqa: E402
from auditor.replay.state import TableState  # noqa: E402
from auditor.simulate import simulate, table_spec  # noqa: E402
from auditor.source import SourceFile  # noqa: E402

GAMES = ("standard", "switch", "db21", "tensticks")
OPTIONS = {"standard": {"surrender": "late"}, "switch": {}, "db21": {"db21.paytable": "1"},
           "tensticks": {"tensticks.lights": "10"}}
SEED = "bench-1"
FAULT_RATE = 0.01
NOTE_ROUND = 15  # statements in a round of shared/notes/parsing-performance.md

# Run in a fresh interpreter: the auditor's own command line, then its peak memory and that
# of its workers, in KiB. The process's own peak is VmHWM where Linux gives it: ru_maxrss
# survives exec, so it would count the benchmark's own memory at the fork.
_CHILD = """
import resource, sys
from auditor.cli import main
status = main(sys.argv[1:])
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    with open("/proc/self/status") as status_file:
        peak = next(int(l.split()[1]) for l in status_file if l.startswith("VmHWM:"))
except (OSError, StopIteration):
    pass
print(peak, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, status)
"""


def workload(base: Path, rounds: int, tables: int) -> dict[str, list[Path]]:
    files = {}
    for game in GAMES:
        spec = table_spec(game, options=OPTIONS[game])
        result = simulate(base / game, spec, tables=tables, rounds=rounds, seed=SEED,
                          faults=FAULT_RATE)
        files[game] = result.files
    return files


def count_rounds(paths: list[Path]) -> int:
    return sum(json.loads(p.with_suffix(".truth.json").read_text())["rounds"] for p in paths)


def best_of(repeat: int, run) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def end_to_end(folder: Path, jobs: int, repeat: int) -> dict:
    best, peaks = float("inf"), (0, 0)
    with tempfile.TemporaryDirectory() as out:
        for _ in range(repeat):
            started = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-c", _CHILD, "audit", str(folder), "--out", out, "--quiet",
                 "--jobs", str(jobs), "--store", str(Path(out) / "history.sqlite")],
                capture_output=True, text=True, cwd=ROOT, check=False)
            elapsed = time.perf_counter() - started
            parent, children, status = done.stdout.split()[-3:]
            if status not in ("0", "1"):
                raise RuntimeError(f"auditor audit failed: {done.stderr}")
            if elapsed < best:
                best, peaks = elapsed, (int(parent), int(children))
    return {"seconds": best, "peak_mib": round(max(peaks) / 1024, 1),
            "parent_mib": round(peaks[0] / 1024, 1), "worker_mib": round(peaks[1] / 1024, 1)}


def parse_only(paths: list[Path]) -> None:
    for path in paths:
        for _ in parse_lines(SourceFile(str(path)).lines()):
            pass


def parse_lark(paths: list[Path]) -> None:
    """The reference parse through Lark alone (the parser before its fast path)."""
    for path in paths:
        for _ in parse_lines_lark(SourceFile(str(path)).lines()):
            pass


def replay_only(records: list[list]) -> None:
    for items in records:
        state = None
        for item in items:
            if isinstance(item, RoundRecord):
                replay_round(state, item, "bench")
            elif isinstance(item, Header):
                state = TableState(item.config)
            elif isinstance(item, ev.Event):
                state.apply(item)


def audit_core(paths: list[Path]) -> None:
    for path in paths:
        audit_file(str(path))


def memory_peak(path: Path) -> float:
    tracemalloc.start()
    audit_file(str(path))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return round(peak / 2**20, 2)


def measure(name: str, folder: Path, paths: list[Path], repeat: int) -> dict:
    rounds = count_rounds(paths)
    lines = sum(sum(1 for _ in SourceFile(str(p)).lines()) for p in paths)
    records = [list(read_structure(parse_lines(SourceFile(str(p)).lines()))) for p in paths]
    row = {"game": name, "files": len(paths), "rounds": rounds, "lines": lines,
           "bytes": sum(p.stat().st_size for p in paths)}
    for jobs in (1, 2):
        run = end_to_end(folder, jobs, repeat)
        row[f"end_to_end_jobs{jobs}"] = round(rounds / run["seconds"])
        row[f"peak_mib_jobs{jobs}"] = run["peak_mib"]
        row[f"worker_mib_jobs{jobs}"] = run["worker_mib"]
    row["parse"] = round(rounds / best_of(repeat, lambda: parse_only(paths)))
    row["parse_lark"] = round(rounds / best_of(1, lambda: parse_lark(paths)))
    row["parse_over_lark"] = round(row["parse"] / row["parse_lark"], 2)
    row["replay"] = round(rounds / best_of(repeat, lambda: replay_only(records)))
    row["audit_core"] = round(rounds / best_of(repeat, lambda: audit_core(paths)))
    row["lines_per_round"] = round(lines / rounds, 1)
    row["end_to_end_jobs1_lines"] = round(row["end_to_end_jobs1"] * lines / rounds)
    # The parsing note's figures are for rounds of about 15 statements; ours are longer.
    row["end_to_end_jobs1_note_rounds"] = round(row["end_to_end_jobs1_lines"] / NOTE_ROUND)
    row["jobs2_over_jobs1"] = round(row["end_to_end_jobs2"] / row["end_to_end_jobs1"], 2)
    row["end_to_end_over_target"] = round(row["end_to_end_jobs1"] / 10_000, 2)
    return row


def flatness(base: Path, rounds: int) -> dict:
    """Memory on a record and on one four times as long, clean and with 5 % faulty rounds:
    the tracemalloc peak of `audit_file`, and the peak resident set of `auditor audit` end
    to end (which also holds every finding and writes the reports)."""
    found: dict[str, float] = {}
    for faults, label in ((0.0, "clean"), (0.05, "faulty")):
        for factor in (1, 4):
            spec = table_spec("standard", table_id=f"M{factor}")
            folder = base / "memory" / label / str(factor)
            path = simulate(folder, spec, rounds=rounds * factor, seed=SEED,
                            faults=faults).files[0]
            found[f"{label}_traced_{rounds * factor}_rounds_mib"] = memory_peak(path)
            found[f"{label}_rss_{rounds * factor}_rounds_mib"] = \
                end_to_end(folder, 1, 1)["peak_mib"]
        names = list(found)[-4:]
        found[f"{label}_traced_ratio"] = round(found[names[2]] / found[names[0]], 2)
        found[f"{label}_rss_ratio"] = round(found[names[3]] / found[names[1]], 2)
    return found


def print_table(rows: list[dict], memory: dict) -> None:
    head = (f"{'workload':<10}{'rounds':>8}{'lines/rd':>9}{'e2e j1':>9}{'e2e j2':>9}"
            f"{'j2/j1':>7}{'parse':>9}{'replay':>9}{'core':>9}{'peak MiB j1':>13}"
            f"{'peak MiB j2':>13}")
    print(head)
    print("-" * len(head))
    for row in rows:
        print(f"{row['game']:<10}{row['rounds']:>8}{row['lines_per_round']:>9}"
              f"{row['end_to_end_jobs1']:>9}"
              f"{row['end_to_end_jobs2']:>9}{row['jobs2_over_jobs1']:>7}{row['parse']:>9}"
              f"{row['replay']:>9}{row['audit_core']:>9}{row['peak_mib_jobs1']:>13}"
              f"{row['peak_mib_jobs2']:>13}")
    print("rates in rounds/s (best of runs); e2e = `auditor audit` in a fresh process, with "
          "JSON, CSV and HTML; core = audit_file in process, no output")
    print(f"end to end, one job, in rounds of the parsing note's {NOTE_ROUND} statements: "
          + ", ".join(f"{row['game']} {row['end_to_end_jobs1_note_rounds']}" for row in rows))
    print("parse through Lark alone: " + ", ".join(
        f"{row['game']} {row['parse_lark']} ({row['parse_over_lark']}x)" for row in rows))
    print("memory on standard records (traced: audit_file; rss: auditor audit): "
          + ", ".join(f"{k} {v}" for k, v in memory.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=2500, help="rounds per record")
    parser.add_argument("--tables", type=int, default=4, help="records per game")
    parser.add_argument("--repeat", type=int, default=2, help="runs per figure (best kept)")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results.json"))
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bjh-bench-") as temporary:
        base = Path(temporary)
        started = time.perf_counter()
        files = workload(base, arguments.rounds, arguments.tables)
        made = time.perf_counter() - started
        rows = [measure(game, base / game, files[game], arguments.repeat) for game in GAMES]
        rows.append(measure("all", base, [p for game in GAMES for p in files[game]],
                            arguments.repeat))
        memory = flatness(base, arguments.rounds)
    print_table(rows, memory)
    results = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"python": platform.python_version(), "platform": platform.platform(),
                    "cpus": os.cpu_count(), "load_average_after": os.getloadavg()},
        "workload": {"games": list(GAMES), "rounds_per_record": arguments.rounds,
                     "records_per_game": arguments.tables, "seed": SEED,
                     "fault_rate": FAULT_RATE, "options": OPTIONS,
                     "simulated_in_seconds": round(made, 1)},
        "units": "rounds per second; memory in MiB; ratios are plain numbers",
        "target": {"end_to_end_jobs1": 10_000, "end_to_end_jobs2": 20_000},
        "results": rows,
        "memory_flatness": memory,
    }
    Path(arguments.out).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"written to {arguments.out}")


if __name__ == "__main__":
    main()
