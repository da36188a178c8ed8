"""`auditor trends` on simulated floors: the planted careless dealer, colluding pair and
repeated shoe are flagged, and the same floors without them raise no flag.

A floor is 20 tables over 5 nights (80 rounds a table a night, 8,000 rounds), dealt by a
roster of 40 dealers who move between tables from night to night, with planted faults on
3% of rounds; each night is audited as one run into one SQLite store. The planted floor is
audited night by night through the command line; the clean floors, to keep the suite fast,
are recorded through the same functions without writing the four reports. Larger floors
and more seeds run with BJH_SLOW_TESTS=1.
"""

from __future__ import annotations

import json
import os
import re
from datetime import date, timedelta
from pathlib import Path

import pytest

from auditor.cli import exit_code, main
from auditor.identity import apply_identity
from auditor.run import audit_paths, collect_paths
from auditor.store import begin_run, finish_run, open_store, record_result
from auditor.store.tallies import lines_of
from auditor.trends.analysis import FLAGGED, TOO_FEW, Settings, flags, trends_document
from tests.helpers.recorded_nights import record_nights

TABLES, NIGHTS, ROUNDS = 20, 5, 80
FAULTS = "0.03"
CARELESS, COLLUDING, COLLUDER = "D-1003", "D-1017", "P-7770001"
MIN_ROUNDS = "100"
FIRST_NIGHT = date(2026, 11, 20)


def simulate_floor(folder: Path, seed: str, planted: bool, rounds: int = ROUNDS) -> list[Path]:
    """One folder a night; with `planted`, the careless dealer and the colluding pair every
    night and the repeated shoe on the third."""
    nights = []
    for night in range(NIGHTS):
        out = folder / f"night{night + 1}"
        arguments = ["simulate", "--game", "standard", "--tables", str(TABLES), "--rounds",
                     str(rounds), "--faults", FAULTS, "--seed", f"{seed}-{night}", "--date",
                     (FIRST_NIGHT + timedelta(days=night)).isoformat(), "--out", str(out),
                     "--quiet", "--roster"]
        if planted:
            # six times the floor's rate: on about 200 rounds of the dealer's a night's four
            # times was found only as often as the draw allowed (the test must not hang on
            # how the simulator's random streams fall)
            arguments += ["--careless", f"{CARELESS}:6", "--collude",
                          f"{COLLUDING}:{COLLUDER}:0.2"]
            if night == 2:
                arguments.append("--repeat-shoe")
        assert main(arguments) == 0
        nights.append(out)
    return nights


@pytest.fixture(scope="module")
def planted(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("planted")
    nights = simulate_floor(folder, "floor", planted=True)
    store = str(folder / "history.sqlite")
    for night in nights:
        assert main(["audit", str(night), "--out", str(folder / f"out-{night.name}"),
                     "--store", store, "--quiet", "--jobs", "2"]) == 1
    out = folder / "trends"
    code = main(["trends", "--store", store, "--out", str(out), "--min-rounds", MIN_ROUNDS,
                 "--quiet"])
    document = json.loads((out / "trends.json").read_text(encoding="utf-8"))
    return {"folder": folder, "nights": nights, "store": store, "out": out, "code": code,
            "document": document, "flags": flags(document)}


def ids_by_place(*outs: Path) -> dict[str, str]:
    """Each finding's stable ID by `file:line`, from the findings.json of audits."""
    ids = {}
    for out in outs:
        for finding in json.loads((out / "findings.json").read_text())["findings"]:
            ids[f"{finding['file']}:{finding['line']}"] = finding["id"]
    return ids


def truth(night: Path) -> dict:
    return json.loads((night / "surveillance.truth.json").read_text(encoding="utf-8"))


def tables_dealt_by(nights: list[Path], dealers: set[str]) -> set[str]:
    """The tables (as trends names them) where any of these dealers dealt a round."""
    tables = set()
    for night in nights:
        for record in night.glob("*.bjh"):
            text = record.read_text(encoding="utf-8")
            table = next(line.split()[1] for line in text.splitlines()
                         if line.startswith("table "))
            if any(re.search(rf"dealer={re.escape(dealer)}\r?$", text, re.M)
                   for dealer in dealers):
                tables.add(f"RL-SIM-01 {table}")
    return tables


def test_the_careless_dealer_is_flagged_and_only_planted_dealers_are(planted) -> None:
    flagged = {(e["unit"]["kind"], e["unit"]["key"]) for e in planted["flags"]["outliers"]}
    assert ("dealer", CARELESS) in flagged
    # The colluding dealer's over-payments are findings too: flagging that dealer is right.
    # A table where a planted dealer dealt is judged given its dealers: never a flag of
    # its own. No other dealer or table is flagged.
    assert flagged == {("dealer", CARELESS), ("dealer", COLLUDING)}
    planted_tables = tables_dealt_by(planted["nights"], {CARELESS, COLLUDING})
    assert all(e["unit"]["key"] in planted_tables and e["explained_by"][0]["key"] in
               (CARELESS, COLLUDING) for e in planted["document"]["outliers"]
               if e["status"] == "explained")
    careless = next(e for e in planted["flags"]["outliers"] if e["unit"]["key"] == CARELESS)
    assert careless["counts"]["findings"] > 2 * careless["counts"]["expected"]
    assert careless["q"] <= 0.05 and careless["p"] <= careless["q"]
    assert "exact binomial" in careless["tested"] and "does not prove" in \
        careless["not_proven"].lower()
    assert planted["code"] == 1  # something is flagged


def test_the_colluding_pair_is_flagged_with_exactly_the_planted_over_payments(planted) -> None:
    flagged = planted["flags"]["pairs"]
    assert [(e["unit"]["dealer"], e["unit"]["player"]) for e in flagged] == [
        (COLLUDING, COLLUDER)]
    planted_lines = set()
    for night in planted["nights"]:
        for record in sorted(night.glob("*.truth.json")):
            if record.name == "surveillance.truth.json":
                continue
            for fault in json.loads(record.read_text(encoding="utf-8"))["faults"]:
                if COLLUDER in fault["what"]:
                    planted_lines.add(f"{night / fault['file']}:{fault['line']}")
    assert len(planted_lines) >= 10
    ids = ids_by_place(*(planted["folder"] / f"out-{night.name}" for night in planted["nights"]))
    assert set(flagged[0]["findings"]) == {ids[place] for place in planted_lines}
    assert flagged[0]["counts"]["over_payments"] == len(planted_lines)
    # The pair night by night: the planted over-payments of each night, the player's
    # rounds at the dealer's table that night.
    by_night = [sum(1 for place in planted_lines if place.startswith(f"{night}/"))
                for night in planted["nights"]]
    assert [(n["day"], n["over_payments"]) for n in flagged[0]["history"]] == [
        ((FIRST_NIGHT + timedelta(days=k)).isoformat(), count)
        for k, count in enumerate(by_night)]
    assert sum(n["rounds"] for n in flagged[0]["history"]) == flagged[0]["counts"]["rounds"]
    assert all(n["rounds"] > 0 for n in flagged[0]["history"])


def test_the_repeated_shoe_is_flagged_at_both_places(planted) -> None:
    repeats = planted["flags"]["repeats"]
    assert len(repeats) == 1
    where = truth(planted["nights"][2])["repeated_shoe"]
    night = planted["nights"][2]
    places = [(p["file"], p["round"]) for p in repeats[0]["places"]]
    assert places == [(str(night / where["source"]["file"]), where["source"]["round"]),
                      (str(night / where["target"]["file"]), where["target"]["round"])]
    assert repeats[0]["unit"]["cards"] >= 12
    assert repeats[0]["p"] < 1e-12


def test_trends_json_entries_have_the_documented_fields(planted) -> None:
    document = planted["document"]
    assert set(document) == {"trends", "rates", "outliers", "pairs", "repeats", "game_math",
                             "not_judged"}
    for name in ("outliers", "pairs", "repeats", "game_math"):
        for entry in document[name]:
            assert {"unit", "counts", "statistic", "p", "q", "status", "tested",
                    "not_proven"} <= set(entry), name
            assert entry["status"] in (FLAGGED, "not flagged", TOO_FEW) + (
                ("explained",) if name == "outliers" else ())
            assert (entry["p"] is None) == (entry["status"] == TOO_FEW)
    too_few = [e for e in document["outliers"] if e["status"] == TOO_FEW]
    assert all(e["counts"]["rounds"] < int(MIN_ROUNDS) for e in too_few)
    for entry in document["outliers"]:
        assert {"rank", "rates", "floor_test", "explained_by"} <= set(entry)
        assert (entry["explained_by"] != []) == (entry["status"] == "explained")
        assert ("history" in entry) == (entry["status"] != TOO_FEW)
    assert document["rates"]["floor"]["rounds"] == TABLES * NIGHTS * ROUNDS
    # Money per currency (the simulator's tables hold several), exact decimal text.
    money = document["rates"]["floor"]["money"]
    assert money and all(isinstance(m["over_paid"], str) for m in money)
    assert len({m["currency"] for m in money}) == len(money)


def test_a_window_of_dates_and_a_night_audited_twice(planted, tmp_path) -> None:
    """--since/--until select gaming dates; a night audited again counts once."""
    store = planted["store"]
    again = planted["nights"][0]
    assert main(["audit", str(again), "--out", str(tmp_path / "again"), "--store", store,
                 "--quiet", "--jobs", "2"]) == 1
    engine = open_store(store)
    whole = trends_document(engine, Settings(min_rounds=int(MIN_ROUNDS)), store)
    assert whole["rates"]["floor"]["rounds"] == TABLES * NIGHTS * ROUNDS
    first = FIRST_NIGHT.isoformat()
    one_day = trends_document(engine, Settings(since=first, until=first), store)
    engine.dispose()
    assert [row["key"] for row in one_day["rates"]["day"]] == [first]
    assert one_day["rates"]["day"][0]["rounds"] == whole["rates"]["day"][0]["rounds"]
    assert main(["trends", "--store", store, "--since", "2026-13-01", "--quiet"]) == 2
    assert main(["trends", "--store", str(tmp_path / "none.sqlite"), "--quiet"]) == 2


def test_undated_rounds_and_their_findings_are_counted_together(planted, tmp_path) -> None:
    """date= is optional in BJH 1: the planted floor with every date removed gives the same
    findings, money and flags as dated, its rounds and findings on one undated day."""
    nights = []
    for night in planted["nights"]:
        undated = tmp_path / night.name
        undated.mkdir()
        for record in night.glob("*.bjh"):
            text = re.sub(r" date=\d{4}-\d\d-\d\d", "", record.read_text(encoding="utf-8"))
            (undated / record.name).write_text(text, encoding="utf-8")
        nights.append(undated)
    assert "date=" not in (nights[0] / "standard-T01-01.bjh").read_text(encoding="utf-8")
    store = str(tmp_path / "undated.sqlite")
    record_nights(store, nights)
    engine = open_store(store)
    document = trends_document(engine, Settings(min_rounds=int(MIN_ROUNDS)), store)
    engine.dispose()
    dated = planted["document"]
    assert document["rates"]["floor"] == dated["rates"]["floor"]
    assert dated["rates"]["floor"]["findings"] > 0
    assert document["rates"]["day"] == [{
        **dated["rates"]["floor"], "key": "(undated)",
        "floor_findings_per_1000": dated["rates"]["floor"]["findings_per_1000"]}]
    for dimension in ("dealer", "table", "citation", "shift"):
        assert document["rates"][dimension] == dated["rates"][dimension], dimension

    def judged(entries: list[dict]) -> list:
        return [(e["unit"], e["counts"], e["status"]) for e in entries]

    for question in ("outliers", "pairs", "game_math"):
        assert judged(document[question]) == judged(dated[question]), question
    assert [e["unit"] for e in flags(document)["repeats"]] == \
        [e["unit"] for e in planted["flags"]["repeats"]]
    assert {e["unit"]["key"] for e in flags(document)["outliers"]} >= {CARELESS}
    assert [e["unit"] for e in flags(document)["pairs"]] == [
        {"kind": "pair", "dealer": COLLUDING, "player": COLLUDER}]


def clean_floor_flags(tmp_path: Path, seed: str, rounds: int = ROUNDS) -> dict:
    nights = simulate_floor(tmp_path / seed, seed, planted=False, rounds=rounds)
    store = str(tmp_path / f"{seed}.sqlite")
    record_nights(store, nights)
    engine = open_store(store)
    document = trends_document(engine, Settings(min_rounds=int(MIN_ROUNDS)), store)
    engine.dispose()
    return flags(document)


# (seed, rounds a table a night): two small floors always; four floors twice as long slow.
CLEAN_FLOORS = [("quiet-1", ROUNDS), ("quiet-2", ROUNDS)]
LONG_CLEAN_FLOORS = [("quiet-3", 2 * ROUNDS), ("quiet-4", 2 * ROUNDS), ("quiet-5", 2 * ROUNDS),
                     ("quiet-6", 2 * ROUNDS)]


@pytest.mark.parametrize("floors", [
    pytest.param(CLEAN_FLOORS, id="small"),
    pytest.param(LONG_CLEAN_FLOORS, id="long", marks=pytest.mark.slow)])
def test_clean_floors_raise_no_flag(tmp_path, floors: list[tuple[str, int]]) -> None:
    """The same floors without the planted patterns. Each question controls its false
    discovery rate at 5%: with nothing to find, a seed raises a false flag in a question
    with chance at most 5%. We assert no flag at all on these seeds (checked), and state
    that a rare false flag on another seed would not be a failure of the method."""
    raised = {seed: {name: [e["unit"] for e in entries]
                     for name, entries in clean_floor_flags(tmp_path, seed, rounds).items()
                     if entries}
              for seed, rounds in floors}
    assert raised == {seed: {} for seed, _ in floors}


# ---- trends.html in a real browser (Debian's chromium through playwright) ----

from tests.helpers.browser import ARTIFACTS, Page  # noqa: E402

HOSTILE_NAME = '"><img src=x onerror=window.__pwned=1>.bjh'
HOSTILE_RECORD = """\
bjh 1
casino "<script>window.__pwned=1</script>"
table T9 game=standard decks=6 min=10 max=500
shoe 1 date=2026-11-22
09:00:00 shuffle
09:00:05 cut
round 1 time=09:01:00 dealer=D-7
09:01:00 sit s2 player=P-1
09:01:01 bet s2h1 main 20
09:01:02 deal s2h1 9c
09:01:03 deal dealer 7d
09:01:04 deal s2h1 8s
09:01:05 deal dealer Kd
09:01:06 stand s2h1
09:01:07 reveal
09:01:08 settle s2h1 main win 20
end
"""


def test_trends_html_opens_with_its_flags_and_no_console_error(planted, browser) -> None:
    page = Page(browser, planted["out"] / "trends.html")
    try:
        flags_text = page.page.inner_text("#flags")
        items = page.page.locator("li.flag")
        assert items.count() == sum(len(v) for v in planted["flags"].values())
        assert f"dealer {CARELESS}" in flags_text
        assert f"dealer {COLLUDING} and player {COLLUDER}" in flags_text
        assert "Shuffle repeated:" in flags_text and "Does not prove:" in flags_text
        # The stylesheet is allowed by its hash: a CSP refusal would be a console error,
        # and the masthead would stay unstyled.
        background = page.page.evaluate(
            "getComputedStyle(document.querySelector('.masthead')).backgroundColor")
        assert background == "rgb(18, 50, 79)"
        assert page.page.locator("#funnel-dealer g.unit.flagged").count() >= 1
        ARTIFACTS.mkdir(exist_ok=True)
        page.page.screenshot(path=str(ARTIFACTS / "trends.png"), full_page=True)
        assert page.problems == []
    finally:
        page.context.close()


def test_record_text_in_trends_html_is_text_never_markup(tmp_path, browser) -> None:
    records = tmp_path / "records"
    records.mkdir()
    (records / HOSTILE_NAME).write_text(HOSTILE_RECORD, encoding="utf-8")
    store = str(tmp_path / "history.sqlite")
    assert main(["audit", str(records), "--out", str(tmp_path / "out"), "--store", store,
                 "--quiet", "--jobs", "1"]) == 1
    out = tmp_path / "trends"
    assert main(["trends", "--store", store, "--out", str(out), "--min-rounds", "1",
                 "--min-pair-rounds", "1", "--quiet"]) == 0
    document = json.loads((out / "trends.json").read_text(encoding="utf-8"))
    assert [(e["unit"], e["findings"]) for e in document["pairs"]] == [
        ({"kind": "pair", "dealer": "D-7", "player": "P-1"},
         [ids_by_place(tmp_path / "out")[f"{records / HOSTILE_NAME}:16"]])]
    page = Page(browser, out / "trends.html")
    try:
        assert page.page.evaluate("window.__pwned") is None
        body = page.page.inner_text("body")
        assert "<script>window.__pwned=1</script> T9" in body  # the casino, as text
        # pairs cite findings by stable ID, so the hostile file name is not on the page
        assert document["pairs"][0]["findings"][0] in body
        assert page.problems == []
    finally:
        page.context.close()


# ---- the tally of one small record, counted by hand ----

TALLIED = """\
bjh 1
casino "Test" licence=RL-9
table T4 game=standard decks=6 min=10 max=500
shoe S1 date=2026-11-22
13:59:00 shuffle
13:59:05 cut
13:59:06 burn 4h
round 1 time=13:59:30 dealer=D-1
13:59:31 sit s1 player=P-1
13:59:32 sit s3 player=P-3
13:59:33 bet s1h1 main 20
13:59:34 bet s3h1 main 20
13:59:35 deal s1h1 Ac
13:59:36 deal s3h1 9c
13:59:37 deal dealer 6d
13:59:38 deal s1h1 Kd
13:59:39 deal s3h1 7s
13:59:40 deal dealer Td
13:59:41 settle s1h1 main win 30
13:59:42 stand s3h1
13:59:43 reveal
13:59:44 draw 9h
13:59:45 settle s3h1 main win 30
end
14:00:00 dealer D-2
14:00:01 burn 2s
round 2 time=14:00:10 dealer=D-2
14:00:11 leave s3
14:00:12 bet s1h1 main 20
14:00:13 deal s1h1 5c
14:00:14 deal dealer Ad
14:00:15 deal s1h1 5d
14:00:16 deal dealer Kh
14:00:17 peek
14:00:18 reveal
14:00:19 settle s1h1 main lose 20
end
"""


def test_the_tally_of_a_small_record(tmp_path) -> None:
    from auditor.audit import audit_file

    path = tmp_path / "tallied.bjh"
    path.write_text(TALLIED, encoding="utf-8")
    result = audit_file(str(path))
    tally = result.tally
    # s3's 16 against the dealer's bust is paid 30 for 20: one over-payment, line 23
    assert [(f.citation, f.line, f.seat, str(f.difference)) for f in result.findings] == [
        ("20:18:15:06", 23, "s3", "10")]
    assert (tally.site, tally.table_id, tally.decks) == ("RL-9", "T4", 6)
    # The worker keeps each round's date and hour; the store makes them gaming days and
    # shifts.
    assert dict(tally.rounds) == {("D-1", "2026-11-22 13", 13): 1,
                                  ("D-2", "2026-11-22 14", 14): 1}
    assert dict(tally.pairs) == {("D-1", "P-1", "2026-11-22 13"): 1,
                                 ("D-1", "P-3", "2026-11-22 13"): 1,
                                 ("D-2", "P-1", "2026-11-22 14"): 1}
    assert tally.seats == [(23, "s3", "P-3")]
    assert sorted(tally.game_counts()) == [
        ("D-1", "2026-11-22 13", "dealer bust", 6, 1, 1),
        ("D-1", "2026-11-22 13", "player natural", None, 2, 1),
        ("D-2", "2026-11-22 14", "dealer natural", 1, 1, 1),
        ("D-2", "2026-11-22 14", "player natural", None, 1, 0)]
    [shuffled] = tally.shuffles
    assert shuffled.cards == "4hAc9c6dKd7sTd9h2s5cAd5dKh"
    assert lines_of(shuffled.lines) == [7, 13, 14, 15, 16, 17, 18, 22, 26, 30, 31, 32, 33]
    assert shuffled.lines == "[7,6,1,1,1,1,1,4,4,4,1,1,1]"  # as the store keeps them
    assert shuffled.rounds == '[[0,"1"],[8,"2"]]'  # each with the burn before it
    assert (shuffled.shoe_id, shuffled.date) == ("S1", "2026-11-22 13")


def test_a_tally_is_in_the_same_order_whatever_the_hash_seed(tmp_path) -> None:
    """The store numbers a tally's rows in the tally's order: the same record must give the
    same rows in every process, whose string hashing differs (PYTHONHASHSEED)."""
    import subprocess
    import sys

    from auditor.simulate import simulate, table_spec

    simulate(tmp_path, table_spec("standard", table_id="T1"), rounds=300, seed="seeded",
             faults=0.05)
    (path,) = sorted(tmp_path.glob("*.bjh"))
    script = ("import sys; from auditor.audit import audit_file; t = audit_file(sys.argv[1])"
              ".tally; print(list(t.pairs), list(t.rounds), list(t.game))")
    orders = {subprocess.run([sys.executable, "-c", script, str(path)], check=True,
                             capture_output=True, text=True,
                             env=dict(os.environ, PYTHONHASHSEED=seed)).stdout
              for seed in ("1", "2", "3")}
    assert len(orders) == 1 and "P-" in orders.pop()


def test_floor_options_that_cannot_be_planted_are_refused(tmp_path, capsys) -> None:
    base = ["simulate", "--rounds", "10", "--tables", "2", "--out", str(tmp_path),
            "--quiet", "--faults", "0.1"]
    assert main([*base, "--game", "switch", "--collude", "D-1001:P-1:0.5"]) == 2
    assert "20:18:15:06" in capsys.readouterr().err
    assert main([*base, "--game", "standard", "--careless", "D-2001:3"]) == 2
    assert "not on the roster (D-1001 to D-1004)" in capsys.readouterr().err


def test_trends_reads_a_sqlite_and_a_postgresql_store(store_url, tmp_path) -> None:
    """The same small record through each kind of store: the over-payment joined to its
    player, the rounds counted, and an empty window."""
    path = tmp_path / "tallied.bjh"
    path.write_text(TALLIED, encoding="utf-8")
    engine = open_store(store_url)
    empty = trends_document(engine, Settings(), store_url)
    assert (empty["rates"]["floor"]["rounds"], empty["outliers"], empty["pairs"]) == (0, [], [])
    engine.dispose()
    assert main(["audit", str(path), "--out", str(tmp_path / "out"), "--store", store_url,
                 "--quiet", "--jobs", "1"]) == 1
    engine = open_store(store_url)
    document = trends_document(engine, Settings(min_rounds=1, min_pair_rounds=1), store_url)
    window = trends_document(engine, Settings(since="2026-11-23"), store_url)
    engine.dispose()
    assert [(e["unit"]["dealer"], e["unit"]["player"], e["counts"]["rounds"],
             e["counts"]["money"], e["findings"]) for e in document["pairs"]] == [
        ("D-1", "P-3", 1, [{"currency": None, "money_findings": 1, "under_paid": "0.00",
                            "over_paid": "10.00", "under_paid_per_1000": None,
                            "over_paid_per_1000": None}],
         [ids_by_place(tmp_path / "out")[f"{path}:23"]])]
    assert [(r["key"], r["rounds"], r["findings"]) for r in document["rates"]["dealer"]] == [
        ("D-1", 1, 1), ("D-2", 1, 0)]
    assert window["rates"]["floor"]["rounds"] == 0


def _ladies_floor(folder: Path, doctored: bool) -> tuple[dict, int, int]:
    """Three Lucky Ladies tables (six decks) for one night, recorded into a store; with
    `doctored`, every Lucky Ladies wager taken is written as paid even money instead."""
    night = folder / "night1"
    assert main(["simulate", "--game", "ladies", "--tables", "3", "--rounds", "300",
                 "--seed", "ladies", "--out", str(night), "--quiet"]) == 0
    trials = wins = 0
    for record in night.glob("*.bjh"):
        text = record.read_text(encoding="utf-8")
        if doctored:
            text = re.sub(r"( settle s\d ladies) lose ", r"\1 win ", text)
            record.write_text(text, encoding="utf-8")
        trials += len(re.findall(r" settle s\d ladies (?:win|lose) ", text))
        wins += len(re.findall(r" settle s\d ladies win ", text))
    store = f"sqlite:///{folder / 'ladies.sqlite'}"
    record_nights(store, [night])
    engine = open_store(store)
    document = trends_document(engine, Settings(min_rounds=50), store)
    engine.dispose()
    return document, trials, wins


@pytest.mark.parametrize("doctored", [False, True])
def test_the_lucky_ladies_win_rate_against_its_exact_value(tmp_path, doctored) -> None:
    """The floor's share of Lucky Ladies wagers won, held to the chance of a 20 in two
    cards of six decks (auditor/trends/odds.py): dealt fairly it is not flagged; with every
    wager paid it is."""
    from auditor.trends.odds import ladies_win

    document, trials, wins = _ladies_floor(tmp_path, doctored)
    [floor] = [e for e in document["game_math"] if e["unit"]["statistic"] == "ladies win"
               and e["unit"]["kind"] == "floor"]
    assert floor["counts"]["trials"] == trials > 300
    assert floor["counts"]["hits"] == wins
    assert floor["exact"] == round(float(ladies_win(6)), 6)
    assert (floor["status"] == FLAGGED) == doctored


# ---- rankings that do not mislead: a careless dealer alone, and dealers of one round ----

RANKED_TABLES, RANKED_NIGHTS, RANKED_MIN = 10, 3, 100
RELIEF = "D-9"  # one-round relief dealers planted in the records: D-9001, D-9002, …


def plant_relief_dealers(night: Path, number: int, start: int) -> dict[str, str]:
    """`number` rounds of the night, each given to its own relief dealer (a dealer of one
    round): rounds with a planted fault first (one round, one or more findings: the raw
    rate that led the old chart), never the careless dealer's. Returns relief -> file."""
    chosen = []
    for truth_file in sorted(night.glob("standard-*.truth.json")):
        for fault in json.loads(truth_file.read_text(encoding="utf-8"))["faults"]:
            chosen.append((fault["file"], fault["line"]))
    relieved: dict[str, str] = {}
    for name, line in chosen:
        if len(relieved) == number:
            break
        path = night / name
        lines = path.read_text(encoding="utf-8").split("\n")
        at = next(i for i in range(line - 1, -1, -1) if lines[i].startswith("round "))
        if f"dealer={CARELESS}" in lines[at] or f"dealer={RELIEF}" in lines[at]:
            continue
        relief = f"{RELIEF}{start + len(relieved):03d}"
        lines[at] = re.sub(r"dealer=\S+", f"dealer={relief}", lines[at])
        path.write_text("\n".join(lines), encoding="utf-8")
        relieved[relief] = name
    assert len(relieved) == number
    return relieved


@pytest.fixture(scope="module")
def ranked(tmp_path_factory) -> dict:
    """Three nights of ten tables, the careless dealer (ten times the floor's fault rate)
    the only planted pattern, two one-round relief dealers a night, each night recorded as
    a run; then `auditor trends`."""
    folder = tmp_path_factory.mktemp("ranked")
    nights, results = [], []
    store = str(folder / "history.sqlite")
    engine = open_store(store)
    for night in range(RANKED_NIGHTS):
        out = folder / f"night{night + 1}"
        assert main(["simulate", "--game", "standard", "--tables", str(RANKED_TABLES),
                     "--rounds", str(ROUNDS), "--faults", FAULTS, "--seed", f"ranked-{night}",
                     "--date", (FIRST_NIGHT + timedelta(days=night)).isoformat(),
                     "--out", str(out), "--quiet", "--careless", f"{CARELESS}:10"]) == 0
        plant_relief_dealers(out, 2, 1 + 2 * night)
        run = {"version": "test", "rule_base": "test", "command": f"audit {out.name}",
               "started": "2026-11-24T00:00:00+00:00"}
        run_id = begin_run(engine, run, {})
        result = audit_paths(collect_paths([str(out)]), jobs=2)
        apply_identity(result)
        record_result(engine, run_id, result)
        finish_run(engine, run_id, {**run, "finished": "2026-11-24T00:01:00+00:00"},
                   exit_code(result))
        nights.append(out)
        results.append(result)
    engine.dispose()
    trends = folder / "trends"
    code = main(["trends", "--store", store, "--out", str(trends), "--min-rounds",
                 str(RANKED_MIN), "--quiet"])
    document = json.loads((trends / "trends.json").read_text(encoding="utf-8"))
    return {"nights": nights, "results": results, "store": store, "out": trends,
            "code": code, "document": document}


def dealt(nights: list[Path]) -> dict[tuple[str, str], int]:
    """Rounds by (dealer, night's date), read from the records themselves."""
    counts: dict[tuple[str, str], int] = {}
    for number, night in enumerate(nights):
        day = (FIRST_NIGHT + timedelta(days=number)).isoformat()
        for record in night.glob("*.bjh"):
            for dealer in re.findall(r"^round .*dealer=(\S+?)\r?$",
                                     record.read_text(encoding="utf-8"), re.M):
                counts[dealer, day] = counts.get((dealer, day), 0) + 1
    return counts


def found(results: list, dealer: str) -> list[int]:
    """The dealer's findings of each night, from the audits' own results: in rounds, and
    between rounds while the dealer was at the table."""
    return [sum(1 for f in result.findings if f.dealer == dealer and counted(f))
            for result in results]


def counted(finding) -> bool:
    """Whether trends count a finding: one of a round, or met between rounds (it has the
    date and dealer in force); never one about a whole file."""
    return (finding.round is not None or finding.date is not None
            or finding.dealer is not None)


def test_the_careless_dealer_leads_the_ranking_and_one_round_dealers_are_folded(
        ranked) -> None:
    outliers = ranked["document"]["outliers"]
    first = outliers[0]
    assert (first["rank"], first["unit"], first["status"]) == (
        1, {"kind": "dealer", "key": CARELESS}, FLAGGED)
    assert [e["unit"]["key"] for e in outliers if e["status"] == FLAGGED] == [CARELESS]
    # The ranks run 1, 2, … over the judged units: flagged, explained, not flagged, each
    # by the evidence (the larger of its two p), never by the raw rate.
    judged = [e for e in outliers if e["status"] != TOO_FEW]
    assert [e["rank"] for e in judged] == list(range(1, len(judged) + 1))
    assert [e["status"] for e in judged] == sorted(
        (e["status"] for e in judged), key=[FLAGGED, "explained", "not flagged"].index)
    for status in ("explained", "not flagged"):
        evidence = [max(e["p"], e["floor_test"]["p"]) for e in judged if e["status"] == status]
        assert evidence == sorted(evidence)
    rates = [e["rates"]["findings_per_1000"] for e in judged]
    assert rates != sorted(rates, reverse=True)  # (the raw rate would order them otherwise)
    # The relief dealers dealt one round each, most with a finding: by raw rate they would
    # lead (1,000 or more per 1,000); they are not judged, not ranked, and folded with the
    # other dealers under the minimum into one line.
    rounds = dealt(ranked["nights"])
    relief = {dealer for dealer, _ in rounds if dealer.startswith(RELIEF)}
    assert relief == {f"{RELIEF}{n:03d}" for n in range(1, 7)}
    reliefs = [e for e in outliers if e["unit"]["key"] in relief]
    assert all(e["status"] == TOO_FEW and e["rank"] is None and e["counts"]["rounds"] == 1
               for e in reliefs)
    assert max(e["rates"]["findings_per_1000"] for e in reliefs) >= 1000
    assert all(e["rates"]["shrunk_per_1000"] < first["rates"]["shrunk_per_1000"]
               for e in reliefs)
    totals: dict[str, int] = {}
    for (dealer, _), count in rounds.items():
        totals[dealer] = totals.get(dealer, 0) + count
    small = sorted(d for d, n in totals.items() if n < RANKED_MIN)
    assert relief <= set(small)
    [line] = [x for x in ranked["document"]["not_judged"] if x["question"] == "outliers"]
    assert line == {"question": "outliers", "kind": "dealer", "units": len(small),
                    "rounds": sum(totals[d] for d in small),
                    "findings": sum(sum(found(ranked["results"], d)) for d in small),
                    "minimum_rounds": RANKED_MIN}
    assert ranked["code"] == 1


def test_the_tables_the_careless_dealer_worked_are_explained_by_him(ranked) -> None:
    outliers = ranked["document"]["outliers"]
    worked = tables_dealt_by(ranked["nights"], {CARELESS})
    assert len(worked) == RANKED_NIGHTS  # one table a night, a different one each night
    tables = {e["unit"]["key"]: e for e in outliers if e["unit"]["kind"] == "table"}
    # Against the floor's rate alone a table he worked stands out (the old flag) ...
    explained = [key for key in worked if tables[key]["floor_test"]["flagged"]]
    assert explained
    for key in sorted(worked):
        table = tables[key]
        assert table["status"] != FLAGGED, key
        if key in explained:  # ... and it is shown as his, not as a flag of its own
            assert table["status"] == "explained"
            assert [p["key"] for p in table["explained_by"]] == [CARELESS]
            assert table["explained_by"][0]["findings"] > table["explained_by"][0]["excess"] > 0
            assert table["p"] > 0.05 and table["floor_test"]["q"] <= 0.05
            assert table["counts"]["expected_given"] > table["counts"]["expected"]
    # Nothing at all is flagged but the dealer.
    assert [e["unit"]["key"] for e in flags(ranked["document"])["outliers"]] == [CARELESS]


def test_each_judged_unit_has_its_history_night_by_night(ranked) -> None:
    rounds = dealt(ranked["nights"])
    days = [(FIRST_NIGHT + timedelta(days=n)).isoformat() for n in range(RANKED_NIGHTS)]
    careless = ranked["document"]["outliers"][0]
    findings = found(ranked["results"], CARELESS)
    assert careless["history"] == [
        {"day": day, "rounds": rounds[CARELESS, day], "findings": count,
         "findings_per_1000": round(1000 * count / rounds[CARELESS, day], 3)}
        for day, count in zip(days, findings, strict=True)]
    assert sum(n["rounds"] for n in careless["history"]) == careless["counts"]["rounds"]
    assert sum(findings) == careless["counts"]["findings"]
    # A table's nights: its rounds every night (ROUNDS a night), its findings the night's.
    table = next(e for e in ranked["document"]["outliers"] if e["status"] == "explained")
    name = table["unit"]["key"].split()[-1]
    assert [n["rounds"] for n in table["history"]] == [ROUNDS] * RANKED_NIGHTS
    assert [n["findings"] for n in table["history"]] == [
        sum(1 for f in result.findings if f.table == name and counted(f))
        for result in ranked["results"]]
    # trends --json prints the same document, history included.
    assert all(len(e["history"]) == RANKED_NIGHTS for e in ranked["document"]["outliers"]
               if e["status"] != TOO_FEW)


def test_the_page_and_the_terminal_show_the_ranking_readably(ranked, tmp_path,
                                                             capsys) -> None:
    from html.parser import HTMLParser

    from auditor.trends.numbers import count, probability, rate

    document = ranked["document"]
    [line] = [x for x in document["not_judged"] if x["question"] == "outliers"]
    folded = (f"{line['units']} dealers with fewer than {RANKED_MIN} rounds: "
              f"{line['findings']} findings")
    html = (ranked["out"] / "trends.html").read_text(encoding="utf-8")

    class Rows(HTMLParser):
        """The text of each row of the ranking table."""

        def __init__(self) -> None:
            super().__init__()
            self.rows: list[str] = []
            self.inside = False

        def handle_starttag(self, tag, attrs) -> None:
            if tag == "table":
                self.inside = "ranking" in (dict(attrs).get("class") or "")
            elif tag == "tr" and self.inside:
                self.rows.append("")

        def handle_endtag(self, tag) -> None:
            if tag == "table":
                self.inside = False

        def handle_data(self, data) -> None:
            if self.inside and self.rows:
                self.rows[-1] += data

    parser = Rows()
    parser.feed(html)
    _header, *rows = [row.strip() for row in parser.rows]
    careless = document["outliers"][0]
    counts, rates = careless["counts"], careless["rates"]
    assert rows[0] == "".join([
        "1", f"dealer {CARELESS}", count(counts["rounds"]), count(counts["findings"]),
        rate(rates["findings_per_1000"]), rate(rates["shrunk_per_1000"]),
        count(counts["expected_given"]), probability(careless["p"]),
        probability(careless["q"]), count(counts["expected"]),
        probability(careless["floor_test"]["p"]), "flagged"])
    assert f"{rates['findings_per_1000']:.1f}" in rows[0] and " × 10" in rows[0]
    assert rows[-1].startswith(folded) and rows[-1].endswith("not judged.")
    judged = [e for e in document["outliers"] if e["status"] != TOO_FEW]
    assert len(rows) == len(judged) + 1 and not any(RELIEF in row for row in rows)
    explained = next(e for e in judged if e["status"] == "explained")
    assert any(row.startswith(f"{explained['rank']}table {explained['unit']['key']}")
               and row.endswith(f"explained by dealer {CARELESS}") for row in rows)
    # The funnels: both kinds, the four control limits each, the dealer's point flagged.
    assert html.count('<figure class="funnel"') == 2
    assert html.count('<polyline class="limit') == 8
    assert re.search(rf'<g class="unit flagged"><title>{CARELESS}: ', html)
    assert f"{document['trends']['rounds']:,} rounds" in html
    raw = str(rates["findings_per_1000"])  # as trends.json keeps it: 259.259
    assert len(raw.split(".")[1]) == 3 and raw not in html
    assert f"<td>{rates['findings_per_1000']:.1f}</td>" in html
    # The terminal: the same numbers, formatted, the folded line, the explained table.
    assert main(["trends", "--store", ranked["store"], "--out", str(tmp_path / "t"),
                 "--min-rounds", str(RANKED_MIN)]) == 1
    printed = capsys.readouterr().out
    assert f"  {folded}, not judged\n" in printed
    assert f"  explained table {explained['unit']['key']}: " in printed
    assert f": by dealer {CARELESS}\n" in printed
    assert f"  FLAG dealer {CARELESS}: {careless['counts']['findings']} findings in " \
           f"{careless['counts']['rounds']} rounds " in printed
    assert re.search(r"p = \d\.\d × 10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+, q = ", printed)
    assert main(["trends", "--store", ranked["store"], "--out", str(tmp_path / "t"),
                 "--min-rounds", str(RANKED_MIN), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["outliers"] == document["outliers"]


def test_the_test_given_the_other_kind_is_exact() -> None:
    """One stratum: the exact binomial test. Two: the convolution, summed by hand."""
    from scipy.stats import binom, binomtest

    from auditor.trends.analysis import _conditional_p

    p, expected = _conditional_p(7, [(100, 400, 20)])
    assert (p, expected) == (pytest.approx(binomtest(7, 20, 0.25, "greater").pvalue,
                                           rel=1e-12), 5.0)
    by_hand = sum(binom.pmf(a, 10, 0.5) * binom.pmf(b, 6, 0.25)
                  for a in range(11) for b in range(7) if a + b >= 9)
    p, expected = _conditional_p(9, [(50, 100, 10), (20, 80, 6), (30, 60, 0)])
    assert (p, expected) == (pytest.approx(by_hand, rel=1e-12), 6.5)


def test_numbers_are_formatted_for_reading() -> None:
    from auditor.trends.numbers import count, probability, rate, stated

    assert [count(12000), count(10.734), count(None), rate(165.517), rate(None)] == [
        "12,000", "10.7", "—", "165.5", "—"]
    assert [probability(v) for v in (1.0, 0.0412, 0.00123, 3.94e-7, 1.3e-23, 0, None)] == [
        "1", "0.041", "0.0012", "3.9 × 10⁻⁷", "1.3 × 10⁻²³", "< 10⁻³⁰⁰", "—"]
    assert probability(0, -361.2) == "≈ 10⁻³⁶¹"
    assert [stated("p", 0.0412), stated("q", 0, -361.2), stated("p", 0)] == [
        "p = 0.041", "q ≈ 10⁻³⁶¹", "p < 10⁻³⁰⁰"]
