"""Speed of `auditor audit` on one process, on two, and on a Dask cluster of two workers.

    .venv/bin/python bench/cluster.py [--workload night|large|both] [--data DIR] [--repeat N]

Two fixed, seeded workloads (made once by the simulator and kept in `--data`, default
bench/.data):

- night: 200,000 rounds in 80 daily records (20 tables of each game, 2,500 rounds each,
  2 % of rounds with a planted fault), the workload of bench/store_memory.py;
- large: one record of 100,000 rounds (a standard table's month, 2 % faults), which
  `--jobs 2` and the cluster audit in pieces (auditor/split.py).

Each is audited by the auditor's own command line, in a fresh process with a fresh store
and every output: `--jobs 1`, `--jobs 2`, and `--scheduler` on a `dask scheduler` with two
`dask worker` processes (one thread each) started here on this machine as the README
recommends (`DASK_ENV`). Each run is made
`--repeat` times (default 3), in turns, and the best time counts (the machine is shared:
its speed varies from one minute to the next). The script prints every time, the best,
rounds per second and the ratio to `--jobs 1`, and checks that the runs' findings are the
same. A script, never a unit test.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from auditor.simulate import simulate, table_spec  # noqa: E402
from bench.store_memory import workload as night_workload  # noqa: E402

BIN = Path(sys.executable).parent
LARGE_ROUNDS = 100_000
SEED = "cluster-1"


def large_workload(data: Path) -> Path:
    folder = data / "large"
    done = folder / ".complete"
    if not done.exists():
        simulate(folder, table_spec("standard", options={"surrender": "late"}),
                 rounds=LARGE_ROUNDS, seed=SEED, faults=0.02, header_fault=True)
        done.write_text("")
    return folder


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# As the README recommends for a cluster that audits: Dask's event-loop watchdog ticks once a
# second instead of every 20 ms (idle, each scheduler, nanny and worker process spends about
# 2 % of a core on it; with 1 s, under 1 %). The auditor pauses the workers' profiler itself.
DASK_ENV = {"DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL": "1s"}


def start_cluster(workers: int) -> tuple[str, list[subprocess.Popen]]:
    address = f"tcp://127.0.0.1:{free_port()}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL,
             "env": {**os.environ, **DASK_ENV}}
    processes = [subprocess.Popen([BIN / "dask", "scheduler", "--host", "127.0.0.1", "--port",
                                   address.rsplit(":", 1)[1], "--no-dashboard"], **quiet)]
    processes += [subprocess.Popen([BIN / "dask", "worker", address, "--nthreads", "1",
                                    "--no-dashboard"], **quiet) for _ in range(workers)]
    from distributed import Client

    deadline = time.monotonic() + 60
    while True:
        try:
            with Client(address, timeout="5s") as client:
                client.wait_for_workers(workers, timeout=60)
            return address, processes
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def measure(records: Path, options: list[str]) -> dict:
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        finished = subprocess.run([BIN / "auditor", "audit", str(records), "--out", out,
                                   "--quiet", *options], capture_output=True, text=True,
                                  check=False, env=dict(os.environ, XDG_DATA_HOME=out))
        seconds = time.perf_counter() - started
        if finished.returncode not in (0, 1):
            raise SystemExit(f"the audit failed:\n{finished.stderr}")
        document = json.loads((Path(out) / "findings.json").read_text())
    rounds = sum(i["rounds"] for i in document["inputs"])
    return {"rounds": rounds, "files": len(document["inputs"]), "seconds": round(seconds, 1),
            "rounds_per_second": round(rounds / seconds),
            "findings": [(f["id"], f["citation"], f["line"]) for f in document["findings"]]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workload", choices=["night", "large", "both"], default="both")
    parser.add_argument("--data", type=Path, default=ROOT / "bench" / ".data")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each (the best counts)")
    arguments = parser.parse_args()
    chosen = ["night", "large"] if arguments.workload == "both" else [arguments.workload]
    machine = {"cpus": os.cpu_count(), "python": platform.python_version(),
               "system": f"{platform.system()} {platform.machine()}"}
    print(json.dumps({"machine": machine}), flush=True)
    address, processes = start_cluster(2)
    try:
        for name in chosen:
            records = (night_workload(arguments.data, "night") if name == "night"
                       else large_workload(arguments.data))
            runs = {"jobs 1": ["--jobs", "1"], "jobs 2": ["--jobs", "2"],
                    "scheduler, 2 workers": ["--scheduler", address]}
            tries: dict[str, list[dict]] = {label: [] for label in runs}
            for _ in range(arguments.repeat):  # in turns: a slow minute hits every run
                for label, options in runs.items():
                    tries[label].append(measure(records, options))
            results = {label: min(made, key=lambda r: r["seconds"])
                       for label, made in tries.items()}
            base = results["jobs 1"]
            for label, result in results.items():
                print(json.dumps({
                    "workload": name, "run": label, "files": result["files"],
                    "rounds": result["rounds"], "seconds": result["seconds"],
                    "every_time": [r["seconds"] for r in tries[label]],
                    "rounds_per_second": result["rounds_per_second"],
                    "ratio_to_jobs_1": round(base["seconds"] / result["seconds"], 2),
                    "same_findings_as_jobs_1": all(r["findings"] == base["findings"]
                                                   for r in tries[label])}),
                    flush=True)
    finally:
        for process in processes:
            process.kill()


if __name__ == "__main__":
    main()
