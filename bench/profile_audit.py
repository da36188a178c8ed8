"""Where the end-to-end audit spends its time: cProfile, and py-spy where it is installed.

    .venv/bin/python bench/profile_audit.py [--rounds N] [--tables T] [--py-spy PATH]

The workload is bench/run.py's (every game, seeded, 1 % faulty rounds). The audit is
`auditor audit DIR --out TMP --quiet --jobs 1`, end to end (start-up and the three
reports included). cProfile runs it in process and lists the functions with the most
time of their own; py-spy (`pip install py-spy`; a sampling profiler, so the audit runs at
full speed) runs it in a fresh process and attributes every sample to a stage of the
pipeline by the innermost auditor frame on its stack. Results go to bench/profile.json;
bench/PROFILE.md says what they mean.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from run import count_rounds, workload  # noqa: E402

from auditor.cli import main as auditor_main  # noqa: E402

STAGES = (  # module prefix -> stage, judged on the innermost auditor frame of a sample
    ("auditor/source.py", "read lines (source.py)"),
    ("auditor/parser/", "parse (parser/)"),
    ("auditor/reader.py", "structure (reader.py)"),
    ("auditor/config.py", "structure (reader.py)"),
    ("auditor/replay/", "replay (replay/)"),
    ("auditor/checks/", "checks (checks/)"),
    ("auditor/findings.py", "checks (checks/)"),
    ("auditor/blackjack.py", "replay (replay/)"),
    ("auditor/audit.py", "per-file loop (audit.py)"),
)


def stage_of(frames: list[str]) -> str:
    files = [f.rsplit("(", 1)[-1] for f in frames]
    if any(f.startswith("trace_round ") for f in frames):
        return "evidence traces (replay/trace.py)"
    for name, label in (("auditor/output/html_report.py", "report.html"),
                        ("auditor/output/json_report.py", "findings.json"),
                        ("auditor/output/tables.py", "findings.csv, summary.csv")):
        if any(f.startswith(name) for f in files):
            return label
    if any("importlib" in f for f in files):
        return "start-up (imports)"
    for file in reversed(files):
        for prefix, label in STAGES:
            if file.startswith(prefix):
                return label
    return "other (interpreter, CLI)"


def py_spy(binary: str, folder: Path, out: str) -> dict:
    raw = Path(out) / "py-spy.txt"
    subprocess.run([binary, "record", "-r", "250", "-f", "raw", "-o", str(raw), "--",
                    sys.executable, "-m", "auditor", "audit", str(folder), "--out",
                    str(Path(out) / "reports"), "--quiet", "--jobs", "1", "--store",
                    str(Path(out) / "history.sqlite")], cwd=ROOT, check=False, capture_output=True)
    stages: Counter = Counter()
    leaves: Counter = Counter()
    inclusive: Counter = Counter()
    total = 0
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        samples = int(count)
        frames = stack.split(";")
        total += samples
        stages[stage_of(frames)] += samples
        leaves[frames[-1]] += samples
        for frame in set(f.split(" (")[0] + " (" + f.rsplit("(", 1)[-1].split(":")[0] + ")"
                         for f in frames):
            inclusive[frame] += samples

    def share(counter: Counter, top: int) -> list[tuple[str, float]]:
        return [(name, round(100 * n / total, 1)) for name, n in counter.most_common(top)]

    return {"samples": total, "stages": share(stages, 20), "self": share(leaves, 25),
            "inclusive": [row for row in share(inclusive, 60)
                          if "auditor/" in row[0]][:30]}


def profile_in_process(folder: Path, out: str) -> dict:
    profiler = cProfile.Profile()
    profiler.enable()
    auditor_main(["audit", str(folder), "--out", str(Path(out) / "reports"), "--quiet",
                  "--jobs", "1", "--store", str(Path(out) / "history.sqlite")])
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = stats.total_tt
    rows = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)[:30]
    return {"seconds": round(total, 2), "self": [
        (f"{name} ({Path(file).name}:{line})", calls, round(100 * own / total, 1))
        for (file, line, name), (_, calls, own, _, _) in rows]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=2500)
    parser.add_argument("--tables", type=int, default=2)
    parser.add_argument("--py-spy", dest="py_spy", default=shutil.which("py-spy"),
                        help="the py-spy program (default: found on PATH)")
    parser.add_argument("--out", default=str(ROOT / "bench" / "profile.json"))
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bjh-profile-") as temporary:
        base = Path(temporary)
        files = workload(base, arguments.rounds, arguments.tables)
        rounds = count_rounds([p for paths in files.values() for p in paths])
        results = {"rounds": rounds, "cprofile": profile_in_process(base, temporary)}
        if arguments.py_spy:
            results["py_spy"] = py_spy(arguments.py_spy, base, temporary)
    Path(arguments.out).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"{rounds} rounds, every game; cProfile total {results['cprofile']['seconds']} s")
    print("\ncProfile, own time:")
    for name, calls, percent in results["cprofile"]["self"][:20]:
        print(f"  {percent:5.1f} %  {calls:>9}  {name}")
    if "py_spy" in results:
        spy = results["py_spy"]
        print(f"\npy-spy, {spy['samples']} samples, by stage:")
        for name, percent in spy["stages"]:
            print(f"  {percent:5.1f} %  {name}")
        print("\npy-spy, inclusive (auditor functions):")
        for name, percent in spy["inclusive"][:25]:
            print(f"  {percent:5.1f} %  {name}")
    print(f"\nwritten to {arguments.out}")


if __name__ == "__main__":
    main()
