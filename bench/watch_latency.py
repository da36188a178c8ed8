"""`auditor watch` at a floor's pace: alert latency and CPU per table.

    .venv/bin/python bench/watch_latency.py [--tables 60] [--rounds 40] [--speed 30]
                                            [--alert-on low] [--write-docs]

The workload is fixed and seeded: `auditor simulate` deals --tables standard records of
--rounds rounds each (planted faults in 5 % of rounds, seed 1). A writer thread replays them
into a watched folder line by line at a table's pace compressed by --speed: each table
deals a round every 30 to 60 seconds of play (drawn per round), its lines spread evenly over
the round, the tables starting at random moments of the first round; at --speed 30 a round
takes 1 to 2 seconds. `auditor watch` runs in a process of its own with --alert-jsonl and
--alert-on (default low, for more samples than `high` gives); a tail of the JSONL file
stamps each alert as it lands. Latency: from the flush of a finding's round's `end` line
to its alert line in the JSONL. CPU: the watch process's user + system seconds (from
/proc), split into what polling costs while nothing is written (measured first, for
--idle seconds, per wall second) and what judging costs (the rest, per round): at a real
table's pace (a round every 45 s on average, 80 rounds an hour) the CPU per table per hour
of play is judging per round × 80 + polling per second × 3600 / tables.

Results go to --results (default bench/watch_latency.json); with --write-docs, the
figures are written into docs/performance.md between its watch-latency markers. A script,
never a unit test.
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import platform
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- watch-latency:begin -->", "<!-- watch-latency:end -->"
ROUNDS_PER_HOUR = 80  # a round every 45 s, the middle of 30 to 60


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def is_end(line: bytes) -> bool:
    words = line.split()
    return bool(words) and (words[0] == b"end" or (len(words) > 1 and words[1] == b"end"
                                                   and words[0][:1].isdigit()))


def schedule(records: list[Path], folder: Path, speed: float, seed: int
             ) -> list[tuple[float, int, Path, bytes, int]]:
    """(when, order, target, line, number) for every line of every record."""
    rng = random.Random(seed)
    events = []
    order = 0
    for record in records:
        lines = record.read_bytes().splitlines(keepends=True)
        target = folder / record.name
        clock = rng.uniform(0, 45) / speed
        # the header and each round with the statements before it: spread over the round
        chunk: list[tuple[int, bytes]] = []
        for number, line in enumerate(lines, 1):
            chunk.append((number, line))
            if is_end(line) or number == len(lines):
                length = rng.uniform(30, 60) / speed
                for index, (n, text) in enumerate(chunk):
                    order += 1
                    events.append((clock + length * (index + 1) / len(chunk), order, target,
                                   text, n))
                clock += length
                chunk = []
    events.sort()
    return events


class Tail(threading.Thread):
    """Stamps each alert line of the JSONL file as it lands."""

    def __init__(self, path: Path) -> None:
        super().__init__(daemon=True)
        self.path, self.seen, self.stop = path, {}, threading.Event()

    def run(self) -> None:
        offset, pending = 0, b""
        while not self.stop.is_set():
            try:
                with open(self.path, "rb") as handle:
                    handle.seek(offset)
                    data = handle.read()
            except FileNotFoundError:
                data = b""
            now = time.time()
            offset += len(data)
            pending += data
            *lines, pending = pending.split(b"\n")
            for line in lines:
                finding = json.loads(line)
                self.seen[(finding["file"], finding["line"], finding["id"])] = now
            time.sleep(0.005)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--speed", type=float, default=30.0)
    parser.add_argument("--alert-on", default="low")
    parser.add_argument("--idle", type=float, default=20.0)
    parser.add_argument("--results", default=str(ROOT / "bench" / "watch_latency.json"))
    parser.add_argument("--write-docs", action="store_true")
    arguments = parser.parse_args()
    python = str(ROOT / ".venv" / "bin" / "python")
    with tempfile.TemporaryDirectory(prefix="watch-bench-") as scratch:
        base = Path(scratch)
        today = datetime.now(UTC).date().isoformat()
        subprocess.run([python, "-m", "auditor", "simulate", "--game", "standard", "--rounds",
                        str(arguments.rounds), "--tables", str(arguments.tables), "--faults",
                        "0.05", "--seed", "1", "--date", today, "--out", str(base / "sim"),
                        "--quiet"], check=True)
        records = sorted((base / "sim").glob("*.bjh"))
        folder = base / "floor"
        folder.mkdir()
        events = schedule(records, folder, arguments.speed, seed=1)
        # the records begin with their headers, so the watch follows every table from the start
        for record in records:
            (folder / record.name).write_bytes(b"")
        alerts = base / "alerts.jsonl"
        watch = subprocess.Popen(
            [python, "-m", "auditor", "watch", str(folder), "--alert-jsonl", str(alerts),
             "--alert-on", arguments.alert_on, "--state", str(base / "state"), "--out",
             str(base / "out"), "--close-grace", "1000000"], stderr=subprocess.PIPE)
        time.sleep(3.0)  # started, every file found
        idle_start = cpu_seconds(watch.pid)
        time.sleep(arguments.idle)
        idle_cpu = cpu_seconds(watch.pid) - idle_start
        tail = Tail(alerts)
        tail.start()
        # held open the whole replay, as a table's writer holds its record; closed below
        handles = {record.name: open(folder / record.name, "ab", buffering=0)  # noqa: SIM115
                   for record in records}
        ends: dict[tuple[str, int], float] = {}
        busy_start = cpu_seconds(watch.pid)
        began = time.monotonic()
        heap = list(events)
        heapq.heapify(heap)
        while heap:
            when, _, target, line, number = heapq.heappop(heap)
            delay = began + when - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            handles[target.name].write(line)
            if is_end(line):
                ends[(str(target), number)] = time.time()
        written = time.monotonic() - began
        time.sleep(3.0)
        busy_cpu = cpu_seconds(watch.pid) - busy_start
        busy_wall = time.monotonic() - began
        tail.stop.set()
        tail.join()
        watch.send_signal(signal.SIGTERM)
        watch.wait(30)
        errors = watch.stderr.read().decode("utf-8", "replace")
        for handle in handles.values():
            handle.close()
    end_lines: dict[str, list[int]] = {}
    for file, number in ends:
        end_lines.setdefault(file, []).append(number)
    for numbers in end_lines.values():
        numbers.sort()
    latencies = []
    for (file, line, _), landed in tail.seen.items():
        end = min(n for n in end_lines[file] if n >= line)
        latencies.append(landed - ends[(file, end)])
    latencies.sort()
    rounds = arguments.tables * arguments.rounds
    idle_rate = idle_cpu / arguments.idle  # CPU s per wall s, polling alone
    judging_per_round = max(0.0, busy_cpu - idle_rate * busy_wall) / rounds
    per_table_hour = judging_per_round * ROUNDS_PER_HOUR + idle_rate * 3600 / arguments.tables
    result = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "tables": arguments.tables, "rounds": rounds, "speed": arguments.speed,
        "alert_on": arguments.alert_on, "alerts": len(latencies),
        "latency_median_s": round(statistics.median(latencies), 3) if latencies else None,
        "latency_p99_s": round(latencies[min(len(latencies) - 1,
                                             int(0.99 * len(latencies)))], 3)
        if latencies else None,
        "latency_max_s": round(latencies[-1], 3) if latencies else None,
        "write_seconds": round(written, 1),
        "cpu_busy_s": round(busy_cpu, 2), "cpu_idle_per_s": round(idle_rate, 4),
        "cpu_per_round_ms": round(judging_per_round * 1000, 2),
        "cpu_per_table_hour_s": round(per_table_hour, 2),
        "core_share_at_real_pace": round(per_table_hour * arguments.tables / 3600, 4),
        "machine": f"{os.cpu_count()} cores, {platform.machine()}, Python "
                   f"{platform.python_version()}, load {os.getloadavg()[0]:.1f}",
        "errors": errors.strip().splitlines()[:5],
    }
    Path(arguments.results).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    if arguments.write_docs:
        write_docs(result)
    return 0


def write_docs(result: dict) -> None:
    doc = ROOT / "docs" / "performance.md"
    text = doc.read_text(encoding="utf-8")
    block = (
        f"{BEGIN}\n"
        f"Measured {result['date'][:10]} ({result['machine']}); written by "
        "`bench/watch_latency.py --write-docs`, results in `bench/watch_latency.json`.\n\n"
        "| tables | rounds | speed | alerts | latency median | latency 99th | latency max "
        "| CPU a round | polling | CPU a table an hour | share of a core |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|\n"
        f"| {result['tables']} | {result['rounds']:,} | {result['speed']:g} × "
        f"| {result['alerts']} ({result['alert_on']} and above) "
        f"| {result['latency_median_s']:.2f} s | {result['latency_p99_s']:.2f} s "
        f"| {result['latency_max_s']:.2f} s | {result['cpu_per_round_ms']:.1f} ms "
        f"| {result['cpu_idle_per_s'] * 1000:.1f} ms/s | {result['cpu_per_table_hour_s']:.2f} s "
        f"| {result['core_share_at_real_pace'] * 100:.1f} % |\n"
        f"{END}")
    if BEGIN in text:
        text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, text,
                      flags=re.S)
    else:
        text = text.rstrip("\n") + "\n\n### Following the floor live (watch)\n\n" + block + "\n"
    doc.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
