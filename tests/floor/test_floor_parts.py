"""The floor's parts one at a time, with exact values: patterns across nights (their
counts, statuses, weights against chance and lines), computed by hand here from the
binomial law. tests/floor/test_patterns*.py audit whole floors; these hold the branches a floor
seldom reaches (issue 45: mutants of the floor code that no test saw)."""

from __future__ import annotations

import os
import shutil
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest
from sqlalchemy import Engine

from auditor.cli import main
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
from auditor.store import open_store, trend_reads
from auditor.trends.analysis import Settings
from auditor.trends.changes import _change, _strata, add_changes
from auditor.trends.counts import FloorCounts
from tests.helpers import ROOT

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


# ---- the store's reads for trends (auditor/store/trend_reads.py) ----

T11, T07 = "standard-t11-2026-11-20.bjh", "db21-t07-2026-11-20.bjh"


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """Run 1 audits T11 and T07 (places 0 and 1), run 2 T11 again: trends read T07 of run
    1 and T11 of run 2 (each content's latest run)."""
    folder = tmp_path_factory.mktemp("two-runs")
    samples = ROOT / "sample_logs"
    for name in (T11, T07):
        shutil.copy2(samples / name, folder / name)
    here = Path.cwd()
    os.chdir(folder)
    try:
        assert main(["audit", T11, T07, "--out", "one", "--quiet", "--store", "h.sqlite"]) == 1
        assert main(["audit", T11, "--out", "two", "--quiet", "--store", "h.sqlite"]) == 1
    finally:
        os.chdir(here)
    engine = open_store(str(folder / "h.sqlite"), read_only=True)
    yield engine
    engine.dispose()


def test_a_run_s_rounds_by_unit(two_runs: Engine) -> None:
    # T11: D-2207 and D-3140 deal 16 rounds each; T07: D-1188 and D-2650 15 each.
    first = trend_reads.run_unit_rounds(two_runs, 1)
    assert (first["table"], first["dealer"], first["floor"]) == (
        {"RL-0412/T11": 32, "RL-0412/T07": 30},
        {"D-2207": 16, "D-3140": 16, "D-1188": 15, "D-2650": 15}, {"rounds": 62})
    second = trend_reads.run_unit_rounds(two_runs, 2)
    assert (second["table"], second["dealer"], second["floor"]) == (
        {"RL-0412/T11": 32}, {"D-2207": 16, "D-3140": 16}, {"rounds": 32})
    assert second["player"]["P-3137"] == 32 and "P-5548" not in second["player"]
    assert trend_reads.run_unit_rounds(two_runs, 3)["floor"] == {}


def test_the_window_s_inputs_and_findings(two_runs: Engine) -> None:
    assert trend_reads.window_inputs(two_runs, None, None) == ([1, 2], 2)
    assert trend_reads.window_inputs(two_runs, "2026-11-20", "2026-11-20") == ([1, 2], 2)
    assert trend_reads.window_inputs(two_runs, "2026-11-21", None) == ([], 0)
    assert trend_reads.window_inputs(two_runs, None, "2026-11-19") == ([], 0)
    expected = [  # (run, place, site, dealer, table, date, citation, line)
        (1, 1, "RL-0412", "D-1188", "T07", "2026-11-20", "20:18:15:30.10(12)", 239),
        (1, 1, "RL-0412", "D-1188", "T07", "2026-11-20", "20:18:15:30.10(8)", 555),
        (1, 1, "RL-0412", "D-1188", "T07", "2026-11-20", "20:18:15:30.10(9)", 559),
        (2, 0, "RL-0412", "D-2207", "T11", "2026-11-20", "20:18:15:26", 424),
        (2, 0, "RL-0412", "D-2207", "T11", "2026-11-20", "20:18:15:30", 455),
        (2, 0, "RL-0412", "D-2207", "T11", "2026-11-20", "20:18:15:06", 524),
        (2, 0, "RL-0412", "D-2207", "T11", "2026-11-20", "20:18:15:23", 567),
        (2, 0, "RL-0412", "D-3140", "T11", "2026-11-20", "record:syntax", 720)]

    def rows(since: str | None, until: str | None) -> list[tuple]:
        return [(r.run_id, r.place, r.site, r.dealer, r.table_id, r.date, r.citation, r.line)
                for r in trend_reads.window_findings(two_runs, since, until)]

    assert rows(None, None) == expected
    assert rows("2026-11-20", "2026-11-20") == expected
    assert rows("2026-11-21", None) == []
    assert rows(None, "2026-11-19") == []


def test_the_shuffles_read_back_with_their_input(two_runs: Engine) -> None:
    keys = sorted((r.run_id, r.position, r.item)
                  for r in trend_reads.shuffle_cards(two_runs, None, None, 0))
    assert keys == [(1, 1, 0), (1, 1, 1), (1, 1, 2), (2, 0, 0), (2, 0, 1), (2, 0, 2)]
    found = trend_reads.shuffles_at(two_runs, keys)
    assert {key: row.path for key, row in found.items()} == {
        (1, 1, 0): T07, (1, 1, 1): T07, (1, 1, 2): T07, (2, 0, 0): T11, (2, 0, 1): T11,
        (2, 0, 2): T11}
    assert trend_reads.shuffle_characters(two_runs, None, None, 0) == sum(
        len(row.cards) for row in found.values())
    assert trend_reads.shuffles_at(two_runs, [(2, 1, 0)]) == {}


def test_pair_nights_sum_each_pair_s_rounds(two_runs: Engine) -> None:
    rows = list(trend_reads.pair_nights(two_runs, None, None, "(none)"))
    assert [tuple(row) for row in rows[:3]] == [
        ("D-1188", "P-5521", "2026-11-20", 1, 15), ("D-1188", "P-5548", "2026-11-20", 1, 15),
        ("D-1188", "P-5551", "2026-11-20", 1, 15)]
    by_player: Counter = Counter()
    for row in rows:
        by_player[row.player] += row.rounds
    assert by_player["P-3137"] == 32 and by_player["P-5548"] == 30  # the rounds they wagered
    assert {row.run_id for row in rows} == {1, 2}
    assert list(trend_reads.pair_nights(two_runs, "2026-11-21", None, "(none)")) == []


def test_shuffles_of_at_least_so_many_characters(two_runs: Engine) -> None:
    lengths = sorted(len(row.cards) for row in trend_reads.shuffle_cards(two_runs, None, None, 0))
    longest = lengths[-1]
    assert [len(row.cards) for row in trend_reads.shuffle_cards(
        two_runs, None, None, longest)] == [longest]
    assert list(trend_reads.shuffle_cards(two_runs, None, None, longest + 1)) == []
    assert trend_reads.shuffle_characters(two_runs, None, None, longest) == longest


NO_DEALER = """bjh 1
casino "Plain Casino" licence=RL-0101
table T01 game=standard decks=6 seats=7 min=10 max=500 currency=USD
shoe 1 date=2026-11-20
21:00:00 shuffle
21:00:05 cut
round 1 time=21:01:00
21:01:00 sit s2 player=P-1
21:01:01 bet s2h1 main 20
21:01:02 deal s2h1 Tc
21:01:03 deal dealer Th
21:01:04 deal s2h1 9d
21:01:05 deal dealer 6s
21:01:06 stand s2h1
21:01:07 reveal
21:01:08 settle s2h1 main win 20
end
"""


def test_a_round_with_no_dealer_counts_for_its_table_and_the_floor_only(tmp_path: Path) -> None:
    record = tmp_path / "t01.bjh"
    record.write_text(NO_DEALER, encoding="utf-8")
    store = tmp_path / "h.sqlite"
    main(["audit", str(record), "--out", str(tmp_path / "out"), "--quiet", "--store",
          str(store)])
    engine = open_store(str(store), read_only=True)
    try:
        rounds = trend_reads.run_unit_rounds(engine, 1)
    finally:
        engine.dispose()
    assert (rounds["table"], rounds["dealer"], rounds["player"], rounds["floor"]) == (
        {"RL-0101/T01": 1}, {}, {"P-1": 1}, {"rounds": 1})


def test_a_unit_dealt_on_one_night_only_has_no_change(two_runs: Engine) -> None:
    """D-1 has rounds before and since the 2nd night; T9 only on the 3rd, so no candidate
    has rounds on both sides: its entry keeps no change, the others are judged."""
    floor, _ = small_floor()
    floor.day_rounds["table", "T9", NIGHTS[2]] += 40
    entries = [{"unit": {"kind": "dealer", "key": "D-1"}, "status": "judged"},
               {"unit": {"kind": "table", "key": "T9"}, "status": "judged"},
               {"unit": {"kind": "dealer", "key": "D-7"}, "status": "too few"}]
    add_changes(two_runs, floor, entries, Settings(until=NIGHTS[2]), "FLAG", "-", "too few")
    assert [entry["change"] is None for entry in entries] == [False, True, True]
    assert entries[0]["change"]["status"] in ("FLAG", "-")
    assert entries[0]["change"]["q"] == pytest.approx(entries[0]["change"]["p"])


def test_a_change_is_never_dated_to_a_night_the_unit_did_not_work() -> None:
    """D-1 errs 1 in 100 on the 1st and 2nd nights, is off on the 3rd, and errs 8 in 100 on
    the 4th: the change began on the 4th, the first night he dealt again, not the 3rd
    (which gives the same rounds since, hence the same p); the 3rd is not a candidate
    tried, so Bonferroni counts two."""
    nights = ["2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04"]
    cells = {("D-1", "T1"): ([100, 100, 0, 100], [1, 1, 0, 8]),
             ("D-2", "T1"): ([100, 100, 100, 100], [1, 1, 1, 1])}
    floor, recent = FloorCounts(), FloorCounts(by_cell_day=True)
    for (dealer, table), (rounds, found) in cells.items():
        for day, rounds_of_day, n in zip(nights, rounds, found, strict=True):
            for kind, unit in (("dealer", dealer), ("table", table)):
                floor.day_rounds[kind, unit, day] += rounds_of_day
                floor.day_found[kind, unit, day] += n
            recent.cell_day_rounds[dealer, table, day] += rounds_of_day
            recent.cell_day_found[dealer, table, day] += n
    strata = _strata(recent, {("dealer", "D-1"), ("dealer", "D-2"), ("table", "T1")})
    change = _change("dealer", "D-1", nights, nights[1:], floor, strata)
    assert change is not None
    assert (change["since"], change["candidates"]) == ("2026-11-04", 2)
    assert change["counts"] == {"rounds_since": 100, "findings_since": 8,
                                "rounds_before": 200, "findings_before": 2,
                                "expected_from_before": 3.333, "expected_given": 4.5}
    # 8 of D-1's 10 findings in a third of his rounds; given T1's 9 findings on the 4th
    # night, 8 of 9 at a half
    own, given = tail(8, 10, Fraction(1, 3)), tail(8, 9, Fraction(1, 2))
    assert change["p_before"] == pytest.approx(own, rel=1e-9)
    assert change["p_given"] == pytest.approx(given, rel=1e-9)
    assert change["p"] == pytest.approx(2 * max(own, given), rel=1e-9)
