"""What the trends tally costs the audit: one file audited with and without it.

    .venv/bin/python bench/tally_overhead.py [--rounds N] [--repeats R]

A seeded standard-game record of N rounds (default 10,000; 2 % of rounds with a planted
fault) is made by the simulator in a temporary folder, then audited R times (default 5)
in this process by `audit_file`, alternately with the tally (auditor/tally.py) and with
its two hooks made to do nothing. Prints the best and median times of each and the
overhead of the best. A script, never a unit test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from auditor import audit  # noqa: E402
from auditor.simulate import simulate, table_spec  # noqa: E402
from auditor.tally import Tally  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        simulate(folder, table_spec("standard"), rounds=arguments.rounds, seed="tally",
                 faults=0.02)
        path = str(next(Path(folder).glob("*.bjh")))
        hooks = (Tally.add_round, Tally.add_event)

        def timed(enabled: bool) -> float:
            if enabled:
                Tally.add_round, Tally.add_event = hooks
            else:
                Tally.add_round = lambda self, view, findings: None
                Tally.add_event = lambda self, event: None
            started = time.perf_counter()
            audit.audit_file(path, keep_evidence=False)
            return time.perf_counter() - started

        timed(True)  # warm up: the grammar and the checks load once
        on, off = [], []
        for _ in range(arguments.repeats):
            on.append(timed(True))
            off.append(timed(False))
    print(f"{arguments.rounds:,} rounds, {arguments.repeats} runs each")
    print(f"with the tally:    best {min(on):.3f} s, median {statistics.median(on):.3f} s")
    print(f"without the tally: best {min(off):.3f} s, median {statistics.median(off):.3f} s")
    print(f"overhead of the best: {100 * (min(on) / min(off) - 1):.1f} %")


if __name__ == "__main__":
    main()
