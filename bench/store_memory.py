"""Memory of a whole `auditor audit` run with a run store, on a night and on a month.

    .venv/bin/python bench/store_memory.py [--scale night|month|both] [--data DIR]

The workloads are seeded and fixed: a night is 200,000 rounds in 80 daily records (20 tables
of each game, 2,500 rounds each), a month 900,000 rounds in 360 (90 of each game); 2 % of
rounds carry a planted fault (`--faults 0.02`). The records are made once by the simulator
and kept in `--data` (default bench/.data). Each workload is audited by the auditor's own
command line in a fresh process (`--jobs 2`, a fresh SQLite store, every output), and the
script reports the peak resident memory of the parent process and of its workers, the peak
of the whole command (its processes together, sampled every 0.1 s: the sum of their
resident sizes, and of their proportional sizes, which count a page shared by the forked
workers once), the wall time, rounds per second and the size of each output. A script,
never a unit test.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from auditor.simulate import simulate, table_spec  # noqa: E402

GAMES = ("standard", "switch", "db21", "tensticks")
OPTIONS = {"standard": {"surrender": "late"}, "switch": {}, "db21": {"db21.paytable": "1"},
           "tensticks": {"tensticks.lights": "10"}}
SCALES = {"night": 20, "month": 90}  # tables of each game, 2,500 rounds each
ROUNDS = 2_500
FAULT_RATE = 0.02
SEED = "store-memory-1"

# The peak of the process itself is VmHWM (ru_maxrss survives exec and would count the
# benchmark's own memory at the fork); the workers' is RUSAGE_CHILDREN.
_CHILD = """
import resource, sys
from auditor.cli import main
status = main(sys.argv[1:])
with open("/proc/self/status") as status_file:
    peak = next(int(l.split()[1]) for l in status_file if l.startswith("VmHWM:"))
print(peak, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, status)
"""


def workload(data: Path, scale: str) -> Path:
    folder = data / scale
    done = folder / ".complete"
    if done.exists():
        return folder
    for game in GAMES:
        simulate(folder / game, table_spec(game, options=OPTIONS[game]),
                 tables=SCALES[scale], rounds=ROUNDS, seed=SEED, faults=FAULT_RATE,
                 header_fault=True)
    done.write_text("")
    return folder


def _tree(pid: int) -> list[int]:
    """A process and its descendants, from /proc (Linux)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*"):
            with contextlib.suppress(OSError):  # the task ended meanwhile
                todo += [int(child) for child in (task / "children").read_text().split()]
    return found


def _rollup(pid: int) -> tuple[int, int]:
    """(resident, proportional) kB of one process; (0, 0) once it has ended."""
    sizes = {"Rss:": 0, "Pss:": 0}
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            name, *value = line.split()
            if name in sizes:
                sizes[name] = int(value[0])
    except (OSError, ValueError, IndexError):
        pass
    return sizes["Rss:"], sizes["Pss:"]


class TreeSampler(threading.Thread):
    """The largest sum, over the samples, of a process tree's resident and proportional
    sizes (kB)."""

    def __init__(self, pid: int, every: float = 0.1) -> None:
        super().__init__(daemon=True)
        self.pid, self.every = pid, every
        self.peak_rss = self.peak_pss = 0
        self.finished = threading.Event()

    def run(self) -> None:
        while not self.finished.wait(self.every):
            sizes = [_rollup(pid) for pid in _tree(self.pid)]
            self.peak_rss = max(self.peak_rss, sum(rss for rss, _ in sizes))
            self.peak_pss = max(self.peak_pss, sum(pss for _, pss in sizes))


def measure(records: Path, jobs: int) -> dict:
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-c", _CHILD, "audit", str(records), "--out", out, "--quiet",
             "--jobs", str(jobs), "--store", str(Path(out) / "history.sqlite")], cwd=ROOT,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        sampler = TreeSampler(process.pid)
        sampler.start()
        stdout, stderr = process.communicate()
        sampler.finished.set()
        sampler.join()
        seconds = time.perf_counter() - started
        finished = subprocess.CompletedProcess(process.args, process.returncode, stdout,
                                               stderr)
        if finished.returncode != 0:
            raise SystemExit(f"the audit failed:\n{finished.stderr}")
        parent, workers, status = (int(v) for v in finished.stdout.split()[-3:])
        document = json.loads((Path(out) / "findings.json").read_text())
        rounds = sum(i["rounds"] for i in document["inputs"])
        sizes = {name: os.path.getsize(Path(out) / name) for name in
                 ("findings.json", "findings.csv", "summary.csv", "report.html",
                  "history.sqlite")}
    return {"rounds": rounds, "files": len(document["inputs"]),
            "findings": len(document["findings"]), "exit_code": status,
            "seconds": round(seconds, 1), "rounds_per_second": round(rounds / seconds),
            "parent_peak_mib": round(parent / 1024), "worker_peak_mib": round(workers / 1024),
            "whole_command_peak_rss_mib": round(sampler.peak_rss / 1024),
            "whole_command_peak_pss_mib": round(sampler.peak_pss / 1024),
            "bytes": sizes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", choices=["night", "month", "both"], default="night")
    parser.add_argument("--data", type=Path, default=ROOT / "bench" / ".data")
    parser.add_argument("--jobs", type=int, default=2)
    arguments = parser.parse_args()
    scales = ["night", "month"] if arguments.scale == "both" else [arguments.scale]
    machine = {"cpus": os.cpu_count(), "python": platform.python_version(),
               "system": f"{platform.system()} {platform.machine()}"}
    print(json.dumps({"machine": machine}))
    for scale in scales:
        records = workload(arguments.data, scale)
        print(json.dumps({"workload": scale, "jobs": arguments.jobs,
                          **measure(records, arguments.jobs)}), flush=True)


if __name__ == "__main__":
    main()
