"""Early detection: a dealer made careless on the 8th night of a month is flagged within
two nights, with the night the change began; a dealer–player pair colluding from the 15th
night is flagged too, and nothing else is; each flag is kept in the store with the night it
was first raised, and the page shows each unit's flag history.

The month has the issue's shape, made small enough for the suite: 6 tables of standard, 240
rounds a table a night, 2 % of rounds with a planted fault, a roster of 12 dealers moved
between tables from night to night. Dealer D-1004 deals with four times the fault rate from
night 8 (`simulate --careless`); from night 15 player P-7777 sits at dealer D-1007's table
whenever he deals and is over-paid in 3 % of those rounds (`simulate --collude`). Each
night is simulated, audited into one store and judged by `auditor trends`, as the cron
sequence of docs/night.md does. The month stops at night 17, two nights after the pair's
start: the nights after it would add only cost.

Sizing (measured with these seeds): the nights cannot be made smaller. The careless dealer
deals about half of two tables' rounds a night (about 120 of 240); at 160 or 180 rounds a
table he is first flagged on night 11, three nights late. The pair needs no more: it is
flagged on its first night at 240 rounds (4 over-payments of the dealer's 5 to a player
with 97 of his player-rounds) and on its second at 160 (the test for a pair is conditional
on the dealer's over-payments, and at a 2 % fault rate a dealer has about one honest
over-payment a fortnight, so a few are enough; a pair under `min_pair_rounds`, 50 rounds
together, is not judged at all: P-7777 reaches it on his first night). Its rate is kept low
(3 %, about 3.6 over-payments a night, a dealer's own rate about doubled) so that the
colluding dealer is not himself flagged by the window's or the change test within these
nights: the test for a pair is what finds him.
"""

from __future__ import annotations

import json
from datetime import date, timedelta

import pytest
from sqlalchemy import select

from auditor.cli import main
from auditor.store import open_store, schema
from auditor.store.engine import HEAD_REVISION
from auditor.trends.analysis import Settings, flags, trends_document
from tests.helpers.recorded_nights import record_nights

TABLES, ROUNDS, FAULTS, CARELESS, FROM_NIGHT = 6, 240, "0.02", "D-1004", 8
COLLUDER, PLAYER, COLLUDE_RATE, PAIR_FROM, LAST = "D-1007", "P-7777", "0.03", 15, 17
FIRST = date(2026, 11, 1)


def tables_dealt(store: str, run_id: int, dealer: str) -> set[str]:
    """The tables `dealer` has findings at in run `run_id` (a night)."""
    engine = open_store(store, read_only=True)
    findings = schema.findings
    with engine.connect() as connection:
        tables = set(connection.execute(select(findings.c.table_id).where(
            findings.c.run_id == run_id, findings.c.dealer == dealer)).scalars())
    engine.dispose()
    return tables


def night_of(number: int) -> str:
    return (FIRST + timedelta(days=number - 1)).isoformat()


def unit_of(entry: dict) -> tuple:
    unit = entry["unit"]
    if unit["kind"] == "pair":
        return ("pair", unit["dealer"], unit["player"])
    return (unit["kind"], unit["key"])


@pytest.fixture(scope="module")
def month(tmp_path_factory) -> dict:
    """LAST nights, each followed by `auditor trends`; what each night's run flagged."""
    folder = tmp_path_factory.mktemp("month")
    store = str(folder / "floor.sqlite")
    raised, codes, since, documents = {}, {}, {}, {}
    for number in range(1, LAST + 1):
        out = folder / f"night{number:02d}"
        arguments = ["simulate", "--game", "standard", "--tables", str(TABLES), "--rounds",
                     str(ROUNDS), "--faults", FAULTS, "--seed", f"month-{number}", "--date",
                     night_of(number), "--out", str(out), "--quiet", "--roster"]
        if number >= FROM_NIGHT:
            arguments += ["--careless", f"{CARELESS}:4"]
        if number >= PAIR_FROM:
            arguments += ["--collude", f"{COLLUDER}:{PLAYER}:{COLLUDE_RATE}"]
        assert main(arguments) == 0
        record_nights(store, [out])
        codes[number] = main(["trends", "--store", store, "--out", str(folder / "trends"),
                              "--quiet"])
        document = json.loads((folder / "trends" / "trends.json").read_text("utf-8"))
        assert document["trends"]["night"] == night_of(number)
        found = flags(document)
        raised[number] = {name: [unit_of(e) for e in entries]
                          for name, entries in found.items() if entries}
        since[number] = {unit_of(e): e["change"]["since"] for e in found["changes"]}
        if number in (FROM_NIGHT + 2, LAST):
            documents[number] = document
    return {"folder": folder, "store": store, "raised": raised, "codes": codes,
            "since": since, "documents": documents, "document": documents[LAST]}


def test_the_careless_dealer_and_the_pair_are_flagged_and_nothing_else(month) -> None:
    """Night by night, exactly what was flagged: nothing before night 8; the careless
    dealer by the change test on night 10 (two nights after his start), since night 8,
    then by the window's test too; the pair on its first night, 15; nothing else but, on
    night 9, a table the careless dealer dealt at that night (his faults are its
    findings; the table's test given its dealers cannot yet tell him from it), never
    flagged again once he is."""
    raised = month["raised"]
    dealer, pair = ("dealer", CARELESS), ("pair", COLLUDER, PLAYER)
    expected = {number: {} for number in range(1, FROM_NIGHT + 1)}
    expected[FROM_NIGHT + 1] = {"outliers": [("table", "RL-SIM-01 T01-01")]}
    expected[FROM_NIGHT + 2] = {"changes": [dealer]}
    for number in range(FROM_NIGHT + 3, LAST + 1):
        expected[number] = {"outliers": [dealer], "changes": [dealer]}
        if number >= PAIR_FROM:
            expected[number]["pairs"] = [pair]
    assert raised == expected
    # the one table flagged: where he dealt that night
    assert "T01-01" in tables_dealt(month["store"], FROM_NIGHT + 1, CARELESS)
    assert month["since"][FROM_NIGHT + 2] == {dealer: night_of(FROM_NIGHT)}
    entry = next(e for e in month["documents"][FROM_NIGHT + 2]["outliers"]
                 if e["unit"]["key"] == CARELESS)
    change = entry["change"]
    assert change["since"] == night_of(FROM_NIGHT)
    assert change["status"] == "flagged" and change["q"] <= 0.05
    assert change["rates"]["since_per_1000"] > 2 * change["rates"]["before_per_1000"]
    assert change["candidates"] == 7  # the last 7 nights tried, Bonferroni over them
    assert "Bonferroni" in change["tested"] and "does not prove" in \
        change["not_proven"].lower()
    # the pair: over-paid at the colluding dealer's rounds, nights 15 to 17 only
    [entry] = [e for e in month["document"]["pairs"] if e["status"] == "flagged"]
    assert unit_of(entry) == pair and entry["q"] <= 0.05
    assert [h["day"] for h in entry["history"] if h["over_payments"]] == [
        night_of(n) for n in range(PAIR_FROM, LAST + 1)]
    assert month["codes"][FROM_NIGHT + 2] == 1 and month["codes"][FROM_NIGHT - 1] == 0


def test_each_flag_is_kept_with_the_night_it_was_first_raised(month, tmp_path,
                                                              capsys) -> None:
    engine = open_store(month["store"], read_only=True)
    table = schema.trend_flags
    with engine.connect() as connection:
        rows = [(r.question, r.kind, r.unit, r.partner, r.night, r.since)
                for r in connection.execute(select(table).order_by(table.c.night,
                                                                   table.c.question))]
    engine.dispose()
    first = FROM_NIGHT + 2  # (the test above)
    # the change's first night moves on once night 8 leaves the candidates (the last 7)
    since = {n: month["since"][n][("dealer", CARELESS)] for n in range(first, LAST + 1)}
    assert since[first] == night_of(FROM_NIGHT) and since[LAST] == night_of(LAST - 6)
    expected = [("outlier", "table", "RL-SIM-01 T01-01", "", night_of(FROM_NIGHT + 1), None),
                ("change", "dealer", CARELESS, "", night_of(first), since[first])]
    for n in range(first + 1, LAST + 1):
        expected += [("change", "dealer", CARELESS, "", night_of(n), since[n]),
                     ("outlier", "dealer", CARELESS, "", night_of(n), None)]
        if n >= PAIR_FROM:
            expected.append(("pair", "pair", COLLUDER, PLAYER, night_of(n), None))
    assert rows == expected
    # judged again on the same night: nothing added, the same history
    assert main(["trends", "--store", month["store"], "--out", str(tmp_path / "again"),
                 "--quiet"]) == 1
    engine = open_store(month["store"], read_only=True)
    with engine.connect() as connection:
        assert len(list(connection.execute(select(table)))) == len(rows)
    engine.dispose()
    [entry] = [e for e in month["document"]["outliers"] if e["unit"]["key"] == CARELESS]
    assert [h for h in entry["flag_history"] if h["question"] == "change"] == [
        {"night": night_of(n), "question": "change", "since": since[n]}
        for n in range(first, LAST + 1)]
    [pair] = [e for e in month["document"]["pairs"] if e["status"] == "flagged"]
    assert pair["flag_history"] == [{"night": night_of(n), "question": "pair", "since": None}
                                    for n in range(PAIR_FROM, LAST + 1)]
    page = (month["folder"] / "trends" / "trends.html").read_text("utf-8")
    # flagged by both tests, one item: the window's test first raised on the night after
    # the change test, the change since its current first night
    assert f"First raised on the night of {night_of(first + 1)}." in page
    # and the change's own first night said in the same item, as the terminal says it
    assert f"The change was first raised on the night of {night_of(first)}.</p>" in page
    assert f'since <span class="since">{since[LAST]}</span>' in page
    # the history keeps the change as first raised: since night 8, on nights 10 to 14
    assert (f"<tr><th scope=\"row\">dealer <code>{CARELESS}</code></th><td>change</td>"
            f"<td>{night_of(first)}</td><td>{night_of(FROM_NIGHT)}</td><td>"
            + ", ".join(night_of(n) for n in range(first, PAIR_FROM)) + "</td></tr>") in page
    assert '<section id="flag-history">' in page
    capsys.readouterr()
    assert main(["trends", "--store", month["store"], "--out", str(tmp_path / "shown")]) == 1
    printed = capsys.readouterr().out
    assert (f"  FLAG dealer {CARELESS} since {since[LAST]} (first raised on "
            f"{night_of(first)}): ") in printed


def test_a_dealer_careless_all_along_is_no_change(month, tmp_path) -> None:
    """Seven nights of the month with the dealer careless on every one (nights 8 to 14,
    recorded into a store of their own): the window's test flags him, the change test
    never (his rate did not change)."""
    store = str(tmp_path / "always.sqlite")
    record_nights(store, [month["folder"] / f"night{number:02d}"
                          for number in range(FROM_NIGHT, PAIR_FROM)])
    engine = open_store(store)
    document = trends_document(engine, Settings(), store)
    engine.dispose()
    assert flags(document)["changes"] == []
    assert [e["unit"]["key"] for e in flags(document)["outliers"]] == [CARELESS]


def test_a_window_of_one_night_or_undated_judges_no_change(month) -> None:
    engine = open_store(month["store"], read_only=True)
    one = trends_document(engine, Settings(since=night_of(3), until=night_of(3)), "store")
    engine.dispose()
    assert all(e["change"] is None for e in one["outliers"])


def test_flags_are_read_but_not_written_where_the_store_cannot_be_written(month, tmp_path,
                                                                         capsys) -> None:
    """A store on read-only media (a read-only bind mount as root, else a folder and file
    made read-only) is judged, its history read as it stands, and one note said (none
    with --quiet); not a byte of it changes."""
    import os
    import shutil
    import sqlite3
    import subprocess

    folder = tmp_path / "archive"
    folder.mkdir()
    copy = folder / "floor.sqlite"
    with sqlite3.connect(month["store"]) as source:  # the log's pages into the file first
        source.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copyfile(month["store"], copy)
    before = copy.read_bytes()
    mounted = False
    if os.geteuid() == 0:
        bind = subprocess.run(["mount", "--bind", str(folder), str(folder)],
                              capture_output=True)
        mounted = bind.returncode == 0 and subprocess.run(
            ["mount", "-o", "remount,ro,bind", str(folder)],
            capture_output=True).returncode == 0
        if bind.returncode == 0 and not mounted:
            subprocess.run(["umount", str(folder)], capture_output=True)
        if not mounted:
            pytest.skip("root here, and a read-only bind mount cannot be made")
    else:
        copy.chmod(0o444)
        folder.chmod(0o555)
    try:
        capsys.readouterr()
        assert main(["trends", "--store", str(copy), "--out", str(tmp_path / "t"),
                     "--quiet"]) == 1
        assert capsys.readouterr().err == ""
        assert main(["trends", "--store", str(copy), "--out", str(tmp_path / "t")]) == 1
        assert "auditor: the flags were not recorded in the store" in capsys.readouterr().err
        document = json.loads((tmp_path / "t" / "trends.json").read_text("utf-8"))
        [entry] = [e for e in document["outliers"] if e["unit"]["key"] == CARELESS]
        assert entry["flag_history"]  # read from the store as it stands
    finally:
        if mounted:
            subprocess.run(["umount", str(folder)], check=True)
        else:
            folder.chmod(0o755)
            copy.chmod(0o644)
    assert sorted(p.name for p in folder.iterdir()) == ["floor.sqlite"]
    assert copy.read_bytes() == before


def test_a_store_of_the_previous_schema_gets_its_flag_table(store_url, tmp_path) -> None:
    """A store at 0006 (before trend_flags) is read as it is, then given the table by the
    trends that records its flags; on SQLite and PostgreSQL alike."""
    from sqlalchemy import create_engine, text

    from auditor.simulate.tallies import FloorPlan, write_floor
    from tests.helpers.old_stores import store_at

    url = store_url if "://" in store_url else f"sqlite:///{store_url}"
    store_at(url, "0006")
    engine = create_engine(url)  # written as the previous auditor left it: no upgrade
    write_floor(engine, FloorPlan(tables=4, nights=6, rounds=200, players=50,
                                  seed="old-store", fault_rate=0.02,
                                  careless=("D-1002", 8.0, 5)))
    engine.dispose()
    assert main(["trends", "--store", store_url, "--out", str(tmp_path / "t"),
                 "--quiet"]) == 1
    engine = create_engine(url)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() \
            == HEAD_REVISION
        rows = list(connection.execute(select(schema.trend_flags)))
    engine.dispose()
    assert ("change", "D-1002", "2026-01-05") in {(r.question, r.unit, r.since) for r in rows}
    document = json.loads((tmp_path / "t" / "trends.json").read_text("utf-8"))
    [entry] = [e for e in document["outliers"] if e["unit"]["key"] == "D-1002"]
    assert {"night": "2026-01-06", "question": "change", "since": "2026-01-05"} in \
        entry["flag_history"]
