"""What stable IDs, waivers and baselines cost: seeded records, timed in process.

    .venv/bin/python bench/identity_cost.py [--rounds N] [--repeat R] [--source DIR]

Deals one record of each game (`rounds` rounds, 5 % of rounds with a planted fault), then
times, best of `repeat`:
- the audit core (`audit_file` of every record: parse, replay, checks; the worker keeps the
  text of the lines findings stand on while the file streams, for their IDs);
- `apply_identity` (the IDs, in the parent), `apply_waivers` (five waivers) and `compare`
  (the run against itself as a baseline).
`--source DIR` runs the audit core from another checkout of the auditor (e.g. the commit
before IDs, `git archive`d into DIR), to compare the core's rate; the other timings need
this checkout. This is a script, never a unit test.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def best(repeat: int, action) -> tuple[float, object]:
    times, value = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        value = action()
        times.append(time.perf_counter() - started)
    return min(times), value


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--source", default=str(ROOT))
    arguments = parser.parse_args()
    sys.path.insert(0, arguments.source)
    from auditor.audit import audit_file
    from auditor.run import merge
    from auditor.simulate import simulate, table_spec

    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for game in ("standard", "switch", "db21", "tensticks"):
            made = simulate(Path(folder) / game, table_spec(game, table_id="T1"),
                            rounds=arguments.rounds, seed="bench", faults=0.05)
            paths.extend(str(p) for p in made.files)
        rounds = 4 * arguments.rounds
        seconds, result = best(arguments.repeat, lambda: merge(
            [audit_file(p, keep_evidence=False) for p in paths]))
        print(f"source {arguments.source}")
        print(f"audit core: {rounds} rounds in {seconds:.2f} s, {rounds / seconds:,.0f} "
              f"rounds/s, {len(result.findings)} findings")
        if arguments.source != str(ROOT):
            return
        from auditor.audit import _LineTexts
        from auditor.source import SourceFile

        def read_plain():
            for path in paths:
                for _ in SourceFile(path).batches():
                    pass

        def read_tapped():  # each batch kept, and a round's lines dropped every 40 lines
            for path in paths:
                texts = _LineTexts()
                for first, batch, _ in SourceFile(path).batches():
                    texts.keep(first, batch)
                    for number in range(first, first + len(batch)):
                        if number % 40 == 0:
                            texts.forget(number - 39, number)

        lines = sum(1 for path in paths for _ in SourceFile(path).lines())
        plain, _ = best(arguments.repeat, read_plain)
        tapped, _ = best(arguments.repeat, read_tapped)
        print(f"line texts kept for IDs: {(tapped - plain) * 1000:.0f} ms over {lines:,} "
              f"lines ({(tapped - plain) / lines * 1e9:.0f} ns a line; reading them: "
              f"{plain * 1000:.0f} ms)")
        from auditor.baseline import compare
        from auditor.identity import apply_identity
        from auditor.waivers import apply_waivers, parse_waivers

        def identify():
            result.findings = [f.model_copy(update={"id": None}) for f in result.findings]
            apply_identity(result)

        seconds, _ = best(arguments.repeat, identify)
        print(f"apply_identity: {len(result.findings)} findings in {seconds * 1000:.1f} ms")
        waivers = parse_waivers("".join(
            f'[[waiver]]\ncitation = "{c}"\ntable = "T1"\njustification = "j"\n'
            f'approved_by = "a"\nexpires = 2099-01-01\n'
            for c in ("20:18:15:06", "20:18:15:24", "20:18:15:30.10(12)",
                      "20:18:15:30.09(13)", "record:syntax")))
        from datetime import date

        seconds, _ = best(arguments.repeat,
                          lambda: apply_waivers(result, waivers, date(2026, 11, 24)))
        print(f"apply_waivers (5 waivers): {seconds * 1000:.1f} ms")
        earlier = [f.as_dict() for f in result.findings]
        seconds, _ = best(arguments.repeat, lambda: compare(result, earlier))
        print(f"compare (baseline of {len(earlier)} findings): {seconds * 1000:.1f} ms")


if __name__ == "__main__":
    main()
