"""The open round's parts, fast and exact: which days a table may still be dealing
(`Judging.may_be_live`, `live_from`), a last line the table may still be writing, the
table-nights a recording stores (`table_nights`, migration 0008) and which recording of a
night counts. They run first in the `open` mutation area (scripts/mutation.py); the whole
story is tests/test_open_round.py."""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from pathlib import Path

from auditor.audit import audit_file
from auditor.cli import main
from auditor.selection import Judging
from tests.helpers.open_records import HEADER, TODAY, round_text, write

# --- which days a table may still be dealing


def test_a_round_may_be_live_from_live_from_to_two_days_after() -> None:
    judging = Judging(live_from="2026-12-30")
    assert [judging.may_be_live(day) for day in (
        "2026-12-29", "2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02")] == [
        False, True, True, True, False]
    assert judging.may_be_live(None) is True  # an undated round: always
    assert Judging().may_be_live("1999-01-01") is True  # no live_from: any date
    assert Judging().may_be_live(None) is True
    assert Judging(finished=True, live_from="2026-12-30").may_be_live("2026-12-30") is False
    assert Judging(finished=True).may_be_live(None) is False
    assert Judging().finished is False and Judging().live_from is None
    # a live_from that is no date (given through the library) bounds nothing past itself
    assert Judging(live_from="tonight").may_be_live("tonight") is True
    assert Judging(live_from="tonight").may_be_live("tonight2") is False


def test_live_from_is_yesterday_by_the_tables_clock() -> None:
    from zoneinfo import ZoneInfo

    from auditor.commands.audit import live_from
    from auditor.gaming_day import DEFAULT, Calendar

    for zone in ("Pacific/Kiritimati", "Pacific/Pago_Pago"):  # UTC+14 and UTC-11
        calendar = Calendar.of(time_zone=zone)
        today = datetime.now(ZoneInfo(zone)).date()
        assert live_from(calendar) == (today - timedelta(days=1)).isoformat()
    assert live_from(DEFAULT) == (date.today() - timedelta(days=1)).isoformat()


# --- a last line the table may still be writing


def test_a_last_line_cut_before_any_body_is_not_yet_written(tmp_path) -> None:
    result = audit_file(str(write(tmp_path, "cut.bjh", 'bjh 1\ncasino "Test" licen')))
    assert (result.summary.unwritten_line, result.summary.open_round) == (2, None)
    # a header the table may still be writing is open from its first line, not judged
    # (a finished one is: tests/checks/test_open_round.py)
    assert result.summary.open_header == 1 and result.findings == []


def test_a_last_comment_or_blank_line_with_no_newline_is_read(tmp_path) -> None:
    opened = HEADER + round_text(1) + "round 2 time=20:02:00 dealer=D1\nsit s1 player=P1\n"
    for name, last in (("comment.bjh", "# the dealer steps away"), ("blank.bjh", "   ")):
        result = audit_file(str(write(tmp_path, name, opened + last)))
        assert result.summary.unwritten_line is None, name
        assert result.summary.open_round == {"round": "2", "line": 19, "last_line": 20}


def test_an_old_nights_half_line_is_read_as_it_is_though_no_round_was_judged_yet(
        tmp_path) -> None:
    """The shoe's date is an old night's and no round has ended: the record is an old
    one cut short, so its last line is read (a syntax finding), not set aside."""
    older = (date.today() - timedelta(days=3)).isoformat()
    yesterday = (date.today() - timedelta(days=1)).isoformat()
    text = HEADER.replace(TODAY, older) + "round 1 dealer=D1\nsit s1 player=P1\nbet s1h1 ma"
    result = audit_file(str(write(tmp_path, "old.bjh", text)),
                        judging=Judging(live_from=yesterday))
    assert sorted((f.citation, f.round, f.line) for f in result.findings) == [
        ("record:reference", "1", 7), ("record:syntax", "1", 9)]
    assert (result.summary.unwritten_line, result.summary.open_round) == (None, None)
    # today's: set aside, and its round open
    today = audit_file(str(write(tmp_path, "today.bjh", text.replace(older, TODAY))),
                       judging=Judging(live_from=yesterday))
    assert today.findings == [] and today.summary.unwritten_line == 9
    assert today.summary.open_round == {"round": "1", "line": 7, "last_line": 8}


# --- the table-nights a recording stores


def _nights(store: Path) -> list[tuple]:
    with sqlite3.connect(store) as connection:
        return connection.execute(
            "SELECT run_id, position, night, site, table_id, start, rounds, complete "
            "FROM table_nights ORDER BY run_id, position, night").fetchall()


def test_each_night_of_a_table_is_stored_with_its_rounds_and_its_first_round(tmp_path) -> None:
    """Three rounds of two dealers over two hours: one night of 3 rounds, begun at the
    first round of its first hour; a record without `close` is not complete."""
    late = round_text(3).replace("time=20:03:00", "time=21:03:00")
    text = HEADER + round_text(1) + round_text(2).replace("dealer=D1", "dealer=D2") + late
    store = tmp_path / "history.sqlite"
    record = write(tmp_path, "night.bjh", text + "close\n")
    assert main(["audit", str(record), "--out", str(tmp_path / "a"), "--store", str(store),
                 "--new-store", "--quiet"]) == 0
    record.write_text(text, encoding="utf-8")
    assert main(["audit", str(record), "--out", str(tmp_path / "b"), "--store", str(store),
                 "--quiet"]) == 0
    assert _nights(store) == [
        (1, 0, TODAY, "RL-9", "T4", f'["{TODAY} 20",7,"1"]', 3, 1),
        (2, 0, TODAY, "RL-9", "T4", f'["{TODAY} 20",7,"1"]', 3, 0)]


def test_an_undated_night_stores_no_table_night(tmp_path) -> None:
    text = HEADER.replace(f" date={TODAY}", "") + round_text(1) + "close\n"
    store = tmp_path / "history.sqlite"
    record = write(tmp_path, "undated.bjh", text)
    assert main(["audit", str(record), "--out", str(tmp_path / "a"), "--store", str(store),
                 "--new-store", "--quiet"]) == 0
    assert _nights(store) == []


def test_migration_0008_keys_a_table_night_and_requires_what_supersession_reads(
        tmp_path) -> None:
    from sqlalchemy import create_engine, inspect

    from tests.helpers.old_stores import store_at

    url = f"sqlite:///{tmp_path / 'migrated.sqlite'}"
    store_at(url, "0008")
    engine = create_engine(url)
    try:
        found = inspect(engine)
        assert found.get_pk_constraint("table_nights")["constrained_columns"] == [
            "run_id", "position", "night"]
        columns = {c["name"]: c["nullable"] for c in found.get_columns("table_nights")}
        assert columns == {"run_id": False, "position": False, "night": False, "site": True,
                           "table_id": True, "start": False, "rounds": False,
                           "complete": False}
        [key] = found.get_foreign_keys("table_nights")
        assert (key["referred_table"], key["constrained_columns"]) == ("runs", ["run_id"])
    finally:
        engine.dispose()


def test_a_store_from_before_table_nights_exports_every_finding_of_a_run(tmp_path) -> None:
    """export_incidents over a store of schema 0007 (no table_nights: nothing recorded to
    supersede), as a store being upgraded meanwhile would be: nothing is superseded."""
    import json

    from sqlalchemy import create_engine, insert

    from auditor.incidents import Floor, export_incidents
    from auditor.store import schema
    from tests.helpers.old_stores import store_at

    url = f"sqlite:///{tmp_path / 'older.sqlite'}"
    store_at(url, "0007")
    engine = create_engine(url)
    try:
        document = {"id": "BJH-00000000000000A1", "citation": "20:18:15:09", "rule": "payout",
                    "severity": "high", "file": "t4.bjh", "line": 28, "gaming_day": TODAY,
                    "message": "paid 15 on a 10 win"}
        with engine.begin() as connection:
            connection.execute(insert(schema.runs).values(
                id=1, tool_version="test", rule_base="test", command="audit",
                started="2026-11-28T06:00:00+00:00", status="finished", settings="{}",
                document="{}", extras="{}"))
            connection.execute(insert(schema.findings).values(
                run_id=1, position=0, input_position=0, order_key=b"\x00", waived=False,
                finding_id=document["id"], citation="20:18:15:09", severity="high",
                file="t4.bjh", line=28, document=json.dumps(document)))
        assert export_incidents(engine, 1, tmp_path / "out", Floor(), "older") == (1, 0)
    finally:
        engine.dispose()
    exported = json.loads((tmp_path / "out" / "incidents.json").read_text(encoding="utf-8"))
    assert [item["incident_id"] for item in exported["incidents"]] == ["BJH-00000000000000A1"]
