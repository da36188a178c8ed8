"""What unknown house rules cost: one record audited with k of its options given two values.

    .venv/bin/python bench/unknown_rules.py [--rounds N] [--repeat R]

Probe U01 (../shared/probes/evidence/U01-unknown-rules-blowup.sh) gives each option of a
Ten sticks record two values, k of them at once, and `decks=` two ways at k = 11. This
script makes the same headers in process and times `audit_file` (parse, replay, checks;
best of `repeat`, the records audited in turn, the interpreter's start left out):

- the probe's record (sample_logs/tensticks-t31-2026-11-20.bjh, 8 rounds), k = 0 to 11;
- a seeded record of each game (`rounds` rounds, 5 % of them with a planted fault), with
  no option unknown and with every option of its game given two values.

Each doubled option keeps the record's own value beside another, so the tables the header
could describe include the record's own: the findings of the regulation at any k are at
most those at k = 0 (a finding stands only where every table gives it). It prints the time,
its ratio to k = 0, and those findings.
This is a script, never a unit test.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TWO_VALUES = {"soft17": ("hit", "stand"), "peek": ("yes", "no"), "blackjack": ("3:2", "6:5"),
              "double": ("any", "9-11"), "das": ("yes", "no"), "splits": ("1", "3"),
              "surrender": ("no", "late"), "tensticks.trade": ("yes", "no"),
              "tensticks.lights": ("1", "3"), "tensticks.prize": ("100", "250"),
              "db21.paytable": ("1", "2"), "ladies.paytable": ("A", "B"),
              "sidebet.min": ("1", "5"), "sidebet.max": ("100", "500")}
COMMON = ["soft17", "peek", "blackjack", "double", "das", "splits", "surrender"]
OWN = {"standard": [], "switch": [],
       "tensticks": ["tensticks.trade", "tensticks.lights", "tensticks.prize"],
       "db21": ["db21.paytable", "sidebet.min", "sidebet.max"],
       "ladies": ["ladies.paytable", "sidebet.min", "sidebet.max"]}


DEFAULTS = {"soft17": "stand", "peek": "yes", "blackjack": "3:2", "double": "any", "das": "yes",
            "splits": "3", "surrender": "no", "tensticks.trade": "yes", "tensticks.lights": "10"}


def doubled(text: str, keys: list[str], decks: bool) -> str:
    """The record with each option of `keys` given two values, its own (or the default)
    and another, and `decks=` given a second value: the tables the header could describe
    then include the record's own, so what stands under all of them stands under it."""
    lines = text.split("\n")
    own = dict(line.split()[1].split("=", 1) for line in lines if line.startswith("option "))
    out = []
    for line in lines:
        if line.startswith("option ") and line.split()[1].split("=")[0] in keys:
            continue
        if line.startswith("table "):
            out.append(line + (" decks=2" if decks else ""))
            for key in keys:
                first = own.get(key, DEFAULTS.get(key))
                other = next(v for v in TWO_VALUES[key] if v != first)
                out.extend(f"option {key}={value}" for value in (first or other, other)
                           if value is not None)
            continue
        out.append(line)
    return "\n".join(out)


def race(paths: list[Path], repeat: int) -> list[tuple[float, list]]:
    """Each record's best time of `repeat` audits and its findings, the records audited in
    turn (on a shared machine, a slow moment then falls on all of them alike)."""
    from auditor.audit import audit_file

    times: list[list[float]] = [[] for _ in paths]
    findings: list[list] = [[] for _ in paths]
    for _ in range(repeat):
        for index, path in enumerate(paths):
            started = time.perf_counter()
            findings[index] = audit_file(str(path), keep_evidence=False).findings
            times[index].append(time.perf_counter() - started)
    return [(min(each), found) for each, found in zip(times, findings, strict=True)]


def _rules(findings: list) -> int:
    """Findings of the regulation (record findings left out: the header's grow with k)."""
    return sum(not f.citation.startswith("record:") for f in findings)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=800)
    parser.add_argument("--repeat", type=int, default=5)
    arguments = parser.parse_args()
    from auditor.simulate import simulate, table_spec

    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        source = (ROOT / "sample_logs" / "tensticks-t31-2026-11-20.bjh").read_text("utf-8")
        keys = COMMON + OWN["tensticks"]
        print("probe U01's record (Ten sticks, 8 rounds), audit_file in process:")
        paths = []
        for k in (0, 2, 4, 6, 8, 10, 11):
            path = work / f"u01-{k}.bjh"
            path.write_text(doubled(source, keys[:min(k, 10)], k >= 11), "utf-8")
            paths.append(path)
        timed = race(paths, arguments.repeat)
        base = timed[0][0]
        for k, (seconds, findings) in zip((0, 2, 4, 6, 8, 10, 11), timed, strict=True):
            print(f"  k={k:<2} {seconds * 1000:8.1f} ms  {seconds / base:5.2f} x k=0  "
                  f"findings of the rules {_rules(findings)}")
        print(f"seeded records of {arguments.rounds} rounds, 5 % with a planted fault:")
        for game in ("standard", "switch", "db21", "tensticks", "ladies"):
            made = simulate(work / game, table_spec(game, table_id="T1"),
                            rounds=arguments.rounds, seed="bench", faults=0.05)
            plain = Path(made.files[0])
            keys = COMMON + OWN[game]
            unknown = work / f"{game}-unknown.bjh"
            unknown.write_text(doubled(plain.read_text("utf-8"), keys, True), "utf-8")
            (known_s, known), (unknown_s, found) = race([plain, unknown], arguments.repeat)
            print(f"  {game:<9} k=0 {known_s * 1000:8.1f} ms  k={len(keys) + 1:<2} "
                  f"{unknown_s * 1000:8.1f} ms  {unknown_s / known_s:5.2f} x  findings of "
                  f"the rules {_rules(known)} -> {_rules(found)}")


if __name__ == "__main__":
    main()
