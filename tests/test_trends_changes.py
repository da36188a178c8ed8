"""Early detection: a dealer made careless on the 8th night of a month is flagged within
two nights, with the night the change began, and nothing else is; each flag is kept in the
store with the night it was first raised, and the page shows each unit's flag history.

The month is small enough for the suite (6 tables of standard, 240 rounds a table a night,
2 % of rounds with a planted fault, a roster of 12 dealers moved between tables from night
to night) and has the issue's shape: dealer D-1004 deals with four times the fault rate
from night 8 (`simulate --careless` from that night on). Each night is simulated, audited
into one store and judged by `auditor trends`, as the cron sequence of docs/night.md does.
"""

from __future__ import annotations

import json
from datetime import date, timedelta

import pytest
from sqlalchemy import select
from test_trends import record_nights

from auditor.cli import main
from auditor.store import open_store, schema
from auditor.store.engine import HEAD_REVISION
from auditor.trends.analysis import Settings, flags, trends_document

TABLES, ROUNDS, FAULTS, CARELESS, FROM_NIGHT = 6, 240, "0.02", "D-1004", 8
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


@pytest.fixture(scope="module")
def month(tmp_path_factory) -> dict:
    """Ten nights, each followed by `auditor trends`; what each night's run flagged."""
    folder = tmp_path_factory.mktemp("month")
    store = str(folder / "floor.sqlite")
    raised, codes = {}, {}
    for number in range(1, 11):
        out = folder / f"night{number:02d}"
        arguments = ["simulate", "--game", "standard", "--tables", str(TABLES), "--rounds",
                     str(ROUNDS), "--faults", FAULTS, "--seed", f"month-{number}", "--date",
                     night_of(number), "--out", str(out), "--quiet", "--roster"]
        if number >= FROM_NIGHT:
            arguments += ["--careless", f"{CARELESS}:4"]
        assert main(arguments) == 0
        record_nights(store, [out])
        codes[number] = main(["trends", "--store", store, "--out", str(folder / "trends"),
                              "--quiet"])
        document = json.loads((folder / "trends" / "trends.json").read_text("utf-8"))
        assert document["trends"]["night"] == night_of(number)
        raised[number] = {name: [(e["unit"]["kind"], e["unit"].get("key")
                                  or e["unit"].get("dealer")) for e in entries]
                          for name, entries in flags(document).items() if entries}
    return {"folder": folder, "store": store, "raised": raised, "codes": codes,
            "document": document}


def test_the_careless_dealer_is_flagged_within_two_nights_since_night_8(month) -> None:
    raised = month["raised"]
    assert all(raised[n] == {} for n in range(1, FROM_NIGHT))  # nothing before the change
    assert raised[10]["changes"] == [("dealer", CARELESS)]
    for number in range(FROM_NIGHT, 11):  # nothing but him, by any question ...
        worked = tables_dealt(month["store"], number, CARELESS)
        # ... or, before he is flagged himself, a table he dealt at that night (his faults,
        # those between rounds included, are its findings)
        assert all(unit == ("dealer", CARELESS)
                   or (unit[0] == "table" and unit[1].split()[-1] in worked)
                   for units in raised[number].values() for unit in units), (
            number, raised[number], worked)
    [entry] = [e for e in month["document"]["outliers"] if e["unit"]["key"] == CARELESS]
    change = entry["change"]
    assert change["since"] == night_of(FROM_NIGHT)
    assert change["status"] == "flagged" and change["q"] <= 0.05
    assert change["rates"]["since_per_1000"] > 2 * change["rates"]["before_per_1000"]
    assert change["candidates"] == 7  # the last 7 nights tried, Bonferroni over them
    assert "Bonferroni" in change["tested"] and "does not prove" in \
        change["not_proven"].lower()
    assert month["codes"][10] == 1 and month["codes"][7] == 0


def test_each_flag_is_kept_with_the_night_it_was_first_raised(month, tmp_path,
                                                              capsys) -> None:
    engine = open_store(month["store"], read_only=True)
    table = schema.trend_flags
    with engine.connect() as connection:
        rows = [(r.question, r.kind, r.unit, r.partner, r.night, r.since)
                for r in connection.execute(select(table).order_by(table.c.night,
                                                                   table.c.question))]
    engine.dispose()
    first = next(n for n in range(1, 11) if any(
        ("dealer", CARELESS) in units for units in month["raised"][n].values()))
    his = [row for row in rows if row[2] == CARELESS]
    assert his[0] == ("change", "dealer", CARELESS, "", night_of(first), night_of(8))
    # anything else kept is a table he dealt at (test above), never another dealer
    assert all(row[1] == "table" for row in rows if row[2] != CARELESS), rows
    kept = [r for r in his if r[0] == "change"]
    assert [r[4] for r in kept] == [night_of(n) for n in range(first, 11)]
    # judged again on the same night: nothing added, the same history
    assert main(["trends", "--store", month["store"], "--out", str(tmp_path / "again"),
                 "--quiet"]) == 1
    engine = open_store(month["store"], read_only=True)
    with engine.connect() as connection:
        assert len(list(connection.execute(select(table)))) == len(rows)
    engine.dispose()
    [entry] = [e for e in month["document"]["outliers"] if e["unit"]["key"] == CARELESS]
    assert [h for h in entry["flag_history"] if h["question"] == "change"] == [
        {"night": night_of(n), "question": "change", "since": night_of(8)}
        for n in range(first, 11)]
    page = (month["folder"] / "trends" / "trends.html").read_text("utf-8")
    assert f"First raised on the night of {night_of(first)}." in page
    assert f'since <span class="since">{night_of(8)}</span>' in page
    assert '<section id="flag-history">' in page
    capsys.readouterr()
    assert main(["trends", "--store", month["store"], "--out", str(tmp_path / "shown")]) == 1
    printed = capsys.readouterr().out
    assert (f"  FLAG dealer {CARELESS} since {night_of(8)} (first raised on "
            f"{night_of(first)}): ") in printed


def test_a_dealer_careless_all_along_is_no_change(month, tmp_path) -> None:
    """The same floor's first seven nights with the dealer careless on every one: the
    window's test may flag him, the change test never (his rate did not change)."""
    store = str(tmp_path / "always.sqlite")
    for number in range(1, 8):
        out = tmp_path / f"night{number}"
        assert main(["simulate", "--game", "standard", "--tables", str(TABLES), "--rounds",
                     str(ROUNDS), "--faults", FAULTS, "--seed", f"month-{number}", "--date",
                     night_of(number), "--out", str(out), "--quiet", "--roster",
                     "--careless", f"{CARELESS}:4"]) == 0
        record_nights(store, [out])
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
    from old_stores import store_at
    from sqlalchemy import create_engine, text

    from auditor.simulate.tallies import FloorPlan, write_floor

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
