"""Patterns ranked by evidence (auditor/patterns.py): a pattern is listed as new, recurring
or gone only when its findings are unlikely by chance given its unit's rounds and the
floor's findings of the citation that night; the rest are counted, not listed, and kept
whole in findings.json with their evidence."""

from __future__ import annotations

import contextlib
import io
import json
from collections import Counter

import pytest

from auditor.cli import main
from auditor.patterns import (
    at_least,
    compare_patterns,
    summary_lines,
    unit_rates,
    weigh_patterns,
)


def test_the_binomial_tail_is_scipys() -> None:
    from scipy.stats import binom

    for trials in (1, 3, 40, 900):
        for share in (1e-4, 0.01, 0.3, 0.99):
            for count in sorted({0, 1, trials // 4, trials // 2, trials}):
                assert at_least(count, trials, share) == pytest.approx(
                    binom.sf(count - 1, trials, share), rel=1e-9, abs=1e-300)
    assert at_least(900, 900, 0.01) == 0.0  # 10⁻¹⁸⁰⁰: below a float
    assert at_least(200, 900, 0.01) == pytest.approx(binom.sf(199, 900, 0.01), rel=1e-9)
    assert 0 < at_least(200, 900, 0.01) < 1e-100


def rounds(**units: int) -> dict:
    """A night's rounds: dealer units by name, 1,000 rounds in all."""
    return {"table": Counter(), "dealer": Counter(units), "player": Counter(),
            "floor": Counter({"rounds": 1000})}


def test_only_patterns_unlikely_by_chance_are_listed() -> None:
    """Two nights of a floor of 1,000 rounds each: D-1 dealt 100 rounds of night 2 and had
    8 of the two nights' 10 findings of 20:18:15:06 (0.5 expected at the floor's rate):
    listed. D-2 dealt 500 and had 3 of them (2.5 expected): new, within chance. D-3 (100
    rounds a night) had 3 of 4 of 20:18:15:23 on both nights: recurring and listed. D-4's
    two nights of one finding are chance; D-5's 6 of 6 on night 1 stopped (gone, listed);
    D-6 has findings but no tallied round: not weighed, listed."""
    earlier = Counter({("dealer", "D-3", "20:18:15:23"): 3, ("dealer", "D-4", "X"): 1,
                       ("dealer", "D-5", "Y"): 6})
    later = Counter({("dealer", "D-1", "20:18:15:06"): 8, ("dealer", "D-2", "20:18:15:06"): 3,
                     ("dealer", "D-3", "20:18:15:23"): 3, ("dealer", "D-4", "X"): 1,
                     ("dealer", "D-6", "X"): 2})
    patterns = compare_patterns(earlier, later, 1, 2)
    weigh_patterns(patterns,
                   unit_rates(rounds(**{"D-3": 100, "D-4": 300, "D-5": 50}),
                              Counter({"20:18:15:23": 4, "X": 5, "Y": 6})),
                   unit_rates(rounds(**{"D-1": 100, "D-2": 500, "D-3": 100, "D-4": 300}),
                              Counter({"20:18:15:06": 10, "20:18:15:23": 4, "X": 6})))
    weighed = {(p["key"]["dealer"], p["status"]): p for p in patterns}
    assert {key for key, p in weighed.items() if p["notable"]} == {
        ("D-1", "new"), ("D-3", "recurring"), ("D-5", "gone"), ("D-6", "new")}
    assert weighed["D-1", "new"]["expected"] == {"1": 0.0, "2": 0.5}
    assert weighed["D-2", "new"]["expected"] == {"1": 0.0, "2": 2.5}
    assert weighed["D-1", "new"]["p"] == pytest.approx(at_least(8, 10, 0.05))
    # both nights: 6 of the 8 findings of 20:18:15:23, on 200 of the 2,000 rounds
    assert weighed["D-3", "recurring"]["p"] == pytest.approx(at_least(6, 8, 0.1))
    assert weighed["D-5", "gone"]["p"] == pytest.approx(0.025 ** 6)
    assert weighed["D-6", "new"]["p"] is None and weighed["D-6", "new"]["q"] is None
    assert all(p["q"] >= p["p"] for p in patterns if p["p"] is not None)
    assert summary_lines(patterns) == [
        "Patterns (table, dealer, player × citation) against run 1: 3 new, 2 recurring, "
        "1 gone, 0 not audited.",
        "  new         dealer D-6 × X  run 1: 0, run 2: 2",
        "  new         dealer D-1 × 20:18:15:06  run 1: 0, run 2: 8",
        "  … and 1 more new within chance at their units' rounds: not listed "
        "(findings.json `patterns` has them all)",
        "  recurring   dealer D-3 × 20:18:15:23  run 1: 3, run 2: 3",
        "  … and 1 more recurring within chance at their units' rounds: not listed "
        "(findings.json `patterns` has them all)",
        "  gone        dealer D-5 × Y  run 1: 6, run 2: 0"]
    assert len(summary_lines(patterns, every=True)) == 1 + len(patterns)


@pytest.fixture(scope="module")
def nights(tmp_path_factory) -> dict:
    """Four nights of six tables (240 rounds a table a night, 2 % of rounds with a planted
    fault, a roster of twelve dealers), each audited with `--baseline last`; D-1004 deals
    with ten times the fault rate on nights 3 and 4."""
    folder = tmp_path_factory.mktemp("patterns")
    store = str(folder / "history.sqlite")
    outs, printed = [], []
    for number, day in enumerate(("2026-11-20", "2026-11-21", "2026-11-22", "2026-11-23"),
                                 start=1):
        records = folder / f"night{number}"
        arguments = ["simulate", "--game", "standard", "--tables", "6", "--rounds", "240",
                     "--faults", "0.02", "--seed", f"pat-{number}", "--date", day, "--out",
                     str(records), "--quiet", "--roster"]
        if number > 2:
            arguments += ["--careless", "D-1004:10"]
        assert main(arguments) == 0
        out = folder / f"out{number}"
        summary = io.StringIO()
        with contextlib.redirect_stdout(summary):
            assert main(["audit", str(records), "--out", str(out), "--store", store,
                         "--jobs", "2", "--baseline", "last"]) == 1
        outs.append(out)
        printed.append(summary.getvalue())
    return {"folder": folder, "store": store, "outs": outs, "printed": printed}


def test_a_night_lists_its_unlikely_patterns_and_counts_the_rest(nights) -> None:
    listed = {}
    for number, out in enumerate(nights["outs"], start=1):
        lines = nights["printed"][number - 1].splitlines()
        if number == 1:
            continue
        heading = next(i for i, line in enumerate(lines) if line.startswith("Patterns ("))
        block = []
        for line in lines[heading + 1:]:
            if not line.startswith("  "):
                break
            block.append(line)
        listed[number] = [line for line in block if not line.startswith("  … ")]
        patterns = json.loads((out / "findings.json").read_text("utf-8"))["patterns"]
        statuses = Counter(p["status"] for p in patterns)
        # every pattern kept, each with its evidence; the heading counts them all
        assert lines[heading] == (
            f"Patterns (table, dealer, player × citation) against run {number - 1}: "
            f"{statuses['new']} new, {statuses['recurring']} recurring, "
            f"{statuses['gone']} gone, {statuses['not audited']} not audited.")
        assert all({"expected", "p", "q", "notable"} <= set(p) for p in patterns)
        assert len(listed[number]) == sum(p["notable"] for p in patterns)
        quiet = Counter(p["status"] for p in patterns if not p["notable"])
        for status, count in quiet.items():
            assert (f"  … and {count} more {status} within chance at their units' rounds: "
                    "not listed (findings.json `patterns` has them all)") in block
    # the clean nights list nothing; the careless dealer's second night lists nothing of
    # anyone else (his own recurring patterns where they pass the false discovery control:
    # at this small floor, among some 200 patterns a night, they sit near its edge) ...
    assert listed[2] == [] and listed[3] == []
    assert all(line.startswith("  recurring   dealer D-1004 × ") for line in listed[4])
    # ... and ranks them first by evidence: the night's most unlikely patterns are his
    patterns = json.loads((nights["outs"][3] / "findings.json").read_text("utf-8"))["patterns"]
    weighed = sorted((p for p in patterns if p["p"] is not None), key=lambda p: p["p"])
    assert [(p["kind"], p["key"].get("dealer"), p["status"]) for p in weighed[:3]] == [
        ("dealer", "D-1004", "recurring")] * 3


def test_diff_lists_every_pattern_and_marks_the_notable(nights, capsys) -> None:
    """`auditor diff` lists every pattern, as it did; those the audit's summary lists are
    marked "notable" with their q; a run compared with itself is weighed too."""
    capsys.readouterr()
    assert main(["diff", "3", "4", "--store", nights["store"]]) == 0
    printed = capsys.readouterr().out.splitlines()
    patterns = json.loads((nights["outs"][3] / "findings.json").read_text("utf-8"))[
        "patterns"]
    listed = [line for line in printed if " × " in line and "  run 3: " in line]
    assert len(listed) == len(patterns)
    marked = [line for line in listed if "  notable: q = " in line]
    summary = [line for line in nights["printed"][3].splitlines()
               if line.startswith("  recurring ")]
    assert [line.split("  notable:")[0] for line in marked] == sorted(
        summary, key=[line.split("  notable:")[0] for line in marked].index)
    heading = next(line for line in printed if line.startswith("Patterns ("))
    assert heading.endswith(f"; {len(marked)} notable.")
    assert main(["diff", "4", "4", "--store", nights["store"]]) == 0


def test_a_pattern_without_tallied_rounds_is_listed_unweighed() -> None:
    """A run recorded before tallies (its units' rounds unknown): its patterns are listed,
    as before, with no p."""
    patterns = compare_patterns(Counter(), Counter({("table", "T1", "X"): 1}), 1, 2)
    weigh_patterns(patterns, None, unit_rates({"floor": Counter()}, Counter({"X": 1})))
    assert [(p["notable"], p["p"], p["expected"]) for p in patterns] == [
        (True, None, {"1": None, "2": None})]
