"""`auditor trends` over a year of a large floor: wall time and peak memory.

    .venv/bin/python bench/trends_year.py [--tables 60] [--nights 365 | --years Y]
                                          [--rounds 390] [--data DIR] [--runs 1]

The workload is fixed and seeded: a year (365 nights from 2026-01-01) of 60 tables, 390
rounds a table a night (8.5 million rounds, the issue's 4,650 a night over 12 tables, five
times wider), three dealers a table a night from a roster of 180, players from a pool of
20,000, findings at 5.8 per 1,000 rounds, six-deck shoes cut at three quarters (about 130
million cards), table 1's first shuffle of night 200 dealt again at the last table, and a
careless dealer (D-1004, four times the rate) from night 300. Its tallies are written
straight into an SQLite store by auditor/simulate/tallies.py (no records are dealt or
audited), once, kept in --data (default bench/.data). `--years Y` is `--nights 365×Y`,
the same floor longer (ten years: whether trends' memory grows with the years). Then
`auditor trends` runs in a fresh process, `--runs` times: its wall time, CPU seconds and
peak resident memory (VmHWM, the process's own), the rounds, the machine (the load
average too: the machine is shared).
`--against REV` runs another revision's auditor on the same store. Results go to
--results (default bench/trends_year.json), and the table row for docs/performance.md is
printed. A script, never a unit test.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_CHILD = """
import sys
from auditor.cli import main
status = main(sys.argv[1:])
with open("/proc/self/status") as status_file:
    peak = next(int(l.split()[1]) for l in status_file if l.startswith("VmHWM:"))
print(peak, status)
"""


def store_of(data: Path, tables: int, nights: int, rounds: int) -> tuple[Path, dict]:
    """The workload's store, written once."""
    from datetime import date

    from auditor.simulate.tallies import FloorPlan, write_floor
    from auditor.store import open_store

    plan = FloorPlan(tables=tables, nights=nights, rounds=rounds, first=date(2026, 1, 1),
                     seed="trends-year-1", careless=("D-1004", 4.0, min(300, nights)),
                     repeat_night=min(200, nights))
    path = data / f"trends-year-{tables}x{nights}x{rounds}.sqlite"
    done = path.with_suffix(".json")
    if done.exists():
        return path, json.loads(done.read_text())
    path.unlink(missing_ok=True)
    data.mkdir(parents=True, exist_ok=True)
    engine = open_store(str(path), new_store=True)
    started = time.perf_counter()
    total = write_floor(engine, plan)
    engine.dispose()
    made = {"rounds": total, "seconds_to_write": round(time.perf_counter() - started, 1),
            "store_bytes": path.stat().st_size}
    done.write_text(json.dumps(made))
    return path, made


def machine() -> dict:
    memory = next((line.split()[1] for line in Path("/proc/meminfo").read_text().splitlines()
                   if line.startswith("MemTotal:")), "0")
    return {"cpus": os.cpu_count(), "memory_gib": round(int(memory) / 2**20, 1),
            "system": f"{platform.system()} {platform.machine()}",
            "python": platform.python_version(),
            "load": [round(x, 2) for x in os.getloadavg()]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--nights", type=int, default=365)
    parser.add_argument("--years", type=int, default=None,
                        help="365 nights a year, instead of --nights")
    parser.add_argument("--rounds", type=int, default=390, help="a table a night")
    parser.add_argument("--data", type=Path, default=ROOT / "bench" / ".data")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--results", type=Path, default=ROOT / "bench" / "trends_year.json")
    parser.add_argument("--against", metavar="REV",
                        help="run the auditor of this git revision instead (its package "
                             "exported into a temporary folder), on the same store")
    arguments = parser.parse_args()
    if arguments.years is not None:
        arguments.nights = 365 * arguments.years
    store, made = store_of(arguments.data, arguments.tables, arguments.nights,
                           arguments.rounds)
    with tempfile.TemporaryDirectory() as source:
        if arguments.against:
            archive = subprocess.run(["git", "archive", arguments.against, "auditor",
                                      "grammars", "rules"], cwd=ROOT, capture_output=True,
                                     check=True).stdout
            subprocess.run(["tar", "-x", "-C", source], input=archive, check=True)
        runs = measure(store, arguments.runs, Path(source) if arguments.against else ROOT)
    if runs is None:
        return 1
    result = {"workload": {"tables": arguments.tables, "nights": arguments.nights,
                           "rounds_a_table_a_night": arguments.rounds, **made},
              "revision": arguments.against or "this checkout",
              "machine": machine(), "runs": runs}
    arguments.results.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    best = min(runs, key=lambda r: r["seconds"])
    load = result["machine"]["load"][0]
    print(f"| {arguments.tables} tables × {arguments.nights} nights | "
          f"{arguments.against or 'this checkout'} | {best['rounds']:,} | "
          f"{made['store_bytes'] / 2**30:.1f} GiB | {best['seconds']:.0f} s (load {load:.1f}) | "
          f"{best['cpu_seconds']:.0f} s | {max(r['peak_mib'] for r in runs):.0f} MiB |")
    return 0


def measure(store: Path, times: int, source: Path) -> list[dict] | None:
    """`auditor trends` of `source` (a checkout) on the store, `times` times."""
    runs = []
    for _ in range(times):
        with tempfile.TemporaryDirectory() as out:
            started = time.perf_counter()
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run([sys.executable, "-c", _CHILD, "trends", "--store",
                                   str(store), "--out", out, "--quiet"], cwd=source,
                                  env={**os.environ, "PYTHONPATH": str(source)},
                                  capture_output=True, text=True, check=False)
            seconds = time.perf_counter() - started
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            if done.returncode != 0:
                print(done.stderr, file=sys.stderr)
                return None
            peak, status = done.stdout.split()[-2:]
            document = json.loads((Path(out) / "trends.json").read_text(encoding="utf-8"))
        flagged = sorted(f"{e['unit']['kind']} {e['unit'].get('key', e['unit'].get('cards'))}"
                         for name in ("outliers", "pairs", "repeats", "game_math")
                         for e in document[name] if e["status"] == "flagged")
        runs.append({"seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1),
                     "peak_mib": round(int(peak) / 1024, 1),
                     "exit": int(status), "rounds": document["trends"]["rounds"],
                     "findings": document["trends"]["findings"], "flagged": flagged})
        print(json.dumps(runs[-1]), flush=True)
    return runs


if __name__ == "__main__":
    sys.exit(main())
