"""The floor's parts one at a time, with exact values: patterns across nights (their
counts, statuses, weights against chance and lines), computed by hand here from the
binomial law. tests/test_patterns*.py audit whole floors; these hold the branches a floor
seldom reaches (issue 45: mutants of the floor code that no test saw)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import comb

import pytest

from auditor.patterns import (
    at_least,
    compare_patterns,
    describe,
    every_pattern_lines,
    pattern_counts,
    pattern_lines,
    summary_lines,
    table_keys,
    unit_rates,
    weigh_patterns,
)
from auditor.trends.changes import _change, _strata
from auditor.trends.counts import FloorCounts

C06, C30 = "20:18:15:06", "20:18:15:30"


def tail(count: int, trials: int, share: Fraction) -> float:
    """P(X ≥ count) of Binomial(trials, share), exactly, then as a float."""
    return float(sum(comb(trials, j) * share ** j * (1 - share) ** (trials - j)
                     for j in range(count, trials + 1)))


def test_at_least_is_the_binomial_tail() -> None:
    assert at_least(0, 5, 0.3) == 1.0
    assert at_least(-1, 5, 0.3) == 1.0
    assert at_least(1, 5, 0.3) == pytest.approx(1 - 0.7 ** 5, rel=1e-12)
    assert at_least(2, 4, 0.5) == pytest.approx(11 / 16, rel=1e-12)
    assert at_least(3, 10, 0.1) == pytest.approx(tail(3, 10, Fraction(1, 10)), rel=1e-12)
    assert at_least(6, 5, 0.3) == 0.0
    assert at_least(1, 5, 0.0) == 0.0
    assert at_least(1, 5, 1.0) == 1.0
    assert at_least(5, 5, 1.0) == 1.0


def test_table_keys_and_pattern_counts_with_their_places() -> None:
    inputs = [{"path": "a.bjh", "licence": "RL-1", "casino": "C", "table": "T1"},
              {"path": "b.bjh", "licence": None, "casino": "Other", "table": "T1"},
              {"path": "c.bjh", "licence": None, "casino": None, "table": "T9"},
              {"path": "d.bjh", "licence": "RL-1", "table": None}]
    tables = table_keys(inputs)
    assert tables == {"a.bjh": "RL-1/T1", "b.bjh": "Other/T1", "c.bjh": "T9"}
    findings = [
        {"citation": C06, "file": "a.bjh", "dealer": "D-1", "player": "P-1"},
        {"citation": C06, "file": "b.bjh", "dealer": "D-1", "player": None},
        {"citation": C30, "file": "x.bjh", "table": "T5", "dealer": None},
    ]
    places: dict = {}
    citations: Counter = Counter()
    counts = pattern_counts(findings, tables, places, citations)
    assert counts == Counter({("table", "RL-1/T1", C06): 1, ("table", "Other/T1", C06): 1,
                              ("dealer", "D-1", C06): 2, ("player", "P-1", C06): 1,
                              ("table", "T5", C30): 1})
    assert places == {("table", "RL-1/T1", C06): {"RL-1/T1"},
                      ("table", "Other/T1", C06): {"Other/T1"},
                      ("dealer", "D-1", C06): {"RL-1/T1", "Other/T1"},
                      ("player", "P-1", C06): {"RL-1/T1"}, ("table", "T5", C30): {"T5"}}
    assert citations == Counter({C06: 2, C30: 1})


def test_a_pattern_gone_from_a_table_not_audited_again_is_not_audited() -> None:
    earlier = Counter({("dealer", "D-1", C06): 2, ("dealer", "D-2", C06): 1})
    later = Counter({("dealer", "D-3", C06): 1})
    places = {("dealer", "D-1", C06): {"RL-1/T1"}, ("dealer", "D-2", C06): {"RL-1/T2"}}
    patterns = compare_patterns(earlier, later, 4, 5, places, {"RL-1/T2"})
    assert [(p["key"]["dealer"], p["status"], p["counts"]) for p in patterns] == [
        ("D-3", "new", {"4": 0, "5": 1}), ("D-2", "gone", {"4": 1, "5": 0}),
        ("D-1", "not audited", {"4": 2, "5": 0})]
    plain = compare_patterns(earlier, later, 4, 5)  # no places: gone is gone
    assert [p["status"] for p in plain] == ["new", "gone", "gone"]


def rates(floor: int, dealers: dict[str, int], findings: int) -> dict:
    return unit_rates({"dealer": Counter(dealers), "floor": Counter({"rounds": floor})},
                      Counter({C06: findings}))


def test_unit_rates() -> None:
    assert rates(500, {"D-1": 100}, 4) == {
        "rounds": {"dealer": Counter({"D-1": 100}), "floor": Counter({"rounds": 500})},
        "total": 500, "findings": Counter({C06: 4})}
    assert unit_rates({}, Counter())["total"] == 0


def weighed() -> list[dict]:
    """D-1 recurring (3 then 2 findings of :06 in 100 rounds of each night), D-2 new (2 in
    50 rounds), D-3 gone with no rounds known in the earlier night: the floor had 4 then
    2 findings of :06 in 500 then 400 rounds."""
    earlier = Counter({("dealer", "D-1", C06): 3, ("dealer", "D-3", C06): 1})
    later = Counter({("dealer", "D-1", C06): 2, ("dealer", "D-2", C06): 2})
    patterns = compare_patterns(earlier, later, 1, 2)
    weigh_patterns(patterns, rates(500, {"D-1": 100}, 4),
                   rates(400, {"D-1": 100, "D-2": 50}, 2))
    return patterns


def test_patterns_weighed_against_the_floor_s_rate() -> None:
    patterns = {p["key"]["dealer"]: p for p in weighed()}
    new, recurring, gone = patterns["D-2"], patterns["D-1"], patterns["D-3"]
    # 6 findings of :06 on the two nights, 900 rounds.
    assert recurring["expected"] == {"1": 0.667, "2": 0.667}
    assert new["expected"] == {"1": 0.0, "2": 0.333}
    assert gone["expected"] == {"1": 0.0, "2": 0.0}
    p_recurring = tail(5, 6, Fraction(200, 900))
    p_new = tail(2, 6, Fraction(50, 900))
    assert recurring["p"] == pytest.approx(p_recurring, rel=1e-9)
    assert new["p"] == pytest.approx(p_new, rel=1e-9)
    assert gone["p"] is None and gone["q"] is None
    # Benjamini–Hochberg over the two weighed: the smaller p times 2, the larger as it is.
    assert (p_recurring < p_new, recurring["q"]) == (True, pytest.approx(
        min(2 * p_recurring, p_new), rel=1e-9))
    assert new["q"] == pytest.approx(p_new, rel=1e-9)
    assert (recurring["notable"], new["notable"], gone["notable"]) == (
        recurring["q"] <= 0.05, new["q"] <= 0.05, True)


def test_a_pattern_at_the_false_discovery_rate_itself_is_notable() -> None:
    patterns = weighed()
    recurring = next(p for p in patterns if p["status"] == "recurring")
    edge = recurring["q"]
    weigh_patterns(patterns, rates(500, {"D-1": 100}, 4),
                   rates(400, {"D-1": 100, "D-2": 50}, 2), fdr=edge)
    assert recurring["notable"] is True
    weigh_patterns(patterns, rates(500, {"D-1": 100}, 4),
                   rates(400, {"D-1": 100, "D-2": 50}, 2), fdr=edge * (1 - 1e-9))
    assert recurring["notable"] is False


def test_a_run_weighed_against_itself() -> None:
    counts = Counter({("dealer", "D-1", C06): 2})
    patterns = compare_patterns(counts, counts, 7, 7)
    assert patterns[0]["counts"] == {"7": 2}
    same = rates(300, {"D-1": 100}, 3)
    weigh_patterns(patterns, same, same)
    # both nights are the one night: 6 findings in 600 rounds, D-1's 200 of them
    assert patterns[0]["expected"] == {"7": 1.0}
    assert patterns[0]["p"] == pytest.approx(tail(4, 6, Fraction(1, 3)), rel=1e-9)


def test_without_the_earlier_night_s_rounds_nothing_is_weighed() -> None:
    counts = Counter({("dealer", "D-1", C06): 2})
    patterns = compare_patterns(Counter(), counts, 1, 2)
    weigh_patterns(patterns, None, rates(300, {"D-1": 100}, 3))
    assert (patterns[0]["expected"], patterns[0]["p"], patterns[0]["q"],
            patterns[0]["notable"]) == ({"1": None, "2": None}, None, None, True)


def test_the_lines_of_patterns() -> None:
    patterns = weighed()
    recurring = next(p for p in patterns if p["status"] == "recurring")
    new = next(p for p in patterns if p["status"] == "new")
    recurring["notable"], new["notable"] = True, False  # as a floor's rates may make them
    assert every_pattern_lines(patterns) == [
        "  new         dealer D-2 × 20:18:15:06  run 1: 0, run 2: 2",
        "  recurring   dealer D-1 × 20:18:15:06  run 1: 3, run 2: 2  notable: q = "
        f"{recurring['q']:.2g}",
        "  gone        dealer D-3 × 20:18:15:06  run 1: 1, run 2: 0"]
    assert summary_lines(patterns) == [
        "Patterns (table, dealer, player × citation) against run 1: 1 new, 1 recurring, "
        "1 gone, 0 not audited.",
        "  … and 1 more new within chance at their units' rounds: not listed "
        "(findings.json `patterns` has them all)",
        "  recurring   dealer D-1 × 20:18:15:06  run 1: 3, run 2: 2",
        "  gone        dealer D-3 × 20:18:15:06  run 1: 1, run 2: 0"]
    assert summary_lines([]) == [
        "Patterns (table, dealer, player × citation) against the baseline run: none in "
        "either run."]


def test_each_status_lists_at_most_its_limit_then_says_how_many_more() -> None:
    later = Counter({("dealer", f"D-{n}", C06): n for n in range(1, 4)})
    patterns = compare_patterns(Counter(), later, 1, 2)
    assert pattern_lines(patterns, limit=2) == [
        "  new         dealer D-3 × 20:18:15:06  run 1: 0, run 2: 3",
        "  new         dealer D-2 × 20:18:15:06  run 1: 0, run 2: 2",
        "  … and 1 more notable new (--verbose lists them all; findings.json `patterns`)"]
    assert len(pattern_lines(patterns, limit=3)) == 3
    assert pattern_lines(patterns, every=True, limit=1)[-1] == (
        "  new         dealer D-1 × 20:18:15:06  run 1: 0, run 2: 1")


def test_a_unit_with_a_control_character_is_described_escaped() -> None:
    pattern = {"kind": "player", "key": {"player": "P-\x1b[2J", "citation": C06}}
    assert describe(pattern) == "player P-\\u001b[2J × 20:18:15:06"


def test_the_summary_of_a_single_pattern() -> None:
    patterns = compare_patterns(Counter(), Counter({("table", "RL-1/T1", C30): 1}), 3, 8)
    assert summary_lines(patterns) == [
        "Patterns (table, dealer, player × citation) against run 3: 1 new, 0 recurring, "
        "0 gone, 0 not audited.",
        "  new         table RL-1/T1 × 20:18:15:30  run 3: 0, run 8: 1"]


NIGHTS = ["2026-11-01", "2026-11-02", "2026-11-03"]


def small_floor() -> tuple[FloorCounts, FloorCounts]:
    """Three nights: D-1 deals 90, 100 and 100 rounds at T1 with 2, 3, 3 findings; D-2
    deals 100 a night at T1 with 1 finding each night, and 50 at T2 with none. The window's
    sums, and the same night by night and cell by cell (what `count_floor` gives with
    `by_cell_day`)."""
    cells = {("D-1", "T1"): ([90, 100, 100], [2, 3, 3]),
             ("D-2", "T1"): ([100, 100, 100], [1, 1, 1]), ("D-2", "T2"): ([50, 50, 50], [0, 0, 0])}
    floor, recent = FloorCounts(), FloorCounts(by_cell_day=True)
    for (dealer, table), (rounds, found) in cells.items():
        for day, rounds_of_day, n in zip(NIGHTS, rounds, found, strict=True):
            for kind, unit in (("dealer", dealer), ("table", table)):
                floor.day_rounds[kind, unit, day] += rounds_of_day
                floor.day_found[kind, unit, day] += n
            recent.cell_day_rounds[dealer, table, day] += rounds_of_day
            recent.cell_day_found[dealer, table, day] += n
    return floor, recent


def test_a_change_found_since_the_night_its_rate_rose() -> None:
    floor, recent = small_floor()
    judged = {("dealer", "D-1"), ("dealer", "D-2"), ("table", "T1"), ("table", "T2")}
    strata = _strata(recent, judged)
    assert strata["dealer"][0]["T1"] == Counter({
        (day, what): n for day, rounds, found in zip(NIGHTS, (190, 200, 200), (3, 4, 4),
                                                     strict=True)
        for what, n in (("rounds", rounds), ("found", found))})
    change = _change("dealer", "D-1", NIGHTS, NIGHTS[1:], floor, strata)
    assert change is not None
    # From the 2nd night: 6 of its 8 findings in 200 of its 290 rounds; given T1's
    # findings on those nights (8 in 400 rounds, D-1's 200), 6 of 8 at a half. From the
    # 3rd night the larger p is larger: the 2nd night is the likelier start.
    own = tail(6, 8, Fraction(200, 290))
    given = tail(6, 8, Fraction(1, 2))
    assert (change["since"], change["candidates"]) == ("2026-11-02", 2)
    assert change["counts"] == {"rounds_since": 200, "findings_since": 6,
                                "rounds_before": 90, "findings_before": 2,
                                "expected_from_before": 5.517, "expected_given": 4.0}
    assert change["rates"] == {"since_per_1000": 30.0, "before_per_1000": 22.222}
    assert max(own, given) < max(tail(3, 8, Fraction(100, 290)), tail(3, 4, Fraction(1, 2)))
    assert change["p_before"] == pytest.approx(own, rel=1e-9)
    assert change["p_given"] == pytest.approx(given, rel=1e-9)
    assert 2 * max(own, given) > 1
    assert change["p"] == 1.0  # the larger p times the 2 nights tried, at most 1
    assert change["q"] is None
    assert change["tested"].startswith(
        "Findings at dealer D-1 from 2026-11-02: 6 in 200 rounds, against 5.5 expected "
        "from its own rate before (2 in 90 rounds) and 4.0 given its tables' findings")
    # A table with no finding: every candidate alike (p 1), the earliest named.
    quiet = _change("table", "T2", NIGHTS, NIGHTS[1:], floor, strata)
    assert quiet is not None
    assert (quiet["since"], quiet["p"], quiet["p_before"], quiet["p_given"],
            quiet["rates"]) == ("2026-11-02", 1.0, 1.0, 1.0,
                                {"since_per_1000": 0.0, "before_per_1000": 0.0})


def test_no_change_where_every_round_is_on_one_side_of_each_candidate() -> None:
    floor, recent = small_floor()
    strata = _strata(recent, {("dealer", "D-1"), ("table", "T1")})
    # D-2 and T2 not judged: pooled
    assert sorted(strata["dealer"][0]) == ["(under the minimum)", "T1"]
    assert _change("dealer", "D-1", NIGHTS, NIGHTS[:1], floor, strata) is None
