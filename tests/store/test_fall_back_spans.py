"""A table-night's span (its first and last round's local time, auditor/store/tallies.py)
on the night daylight saving time ends: 01:00-02:00 comes twice, so clock text alone does
not order two recordings' rounds within that hour. Each round of these records pays a
blackjack even money (tests/helpers/gaming_day_records.py); Denver falls back at 02:00 MDT
on 2026-11-01, and every round here is of gaming day 2026-10-31."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import select

from auditor.cli import main
from auditor.store import open_store, schema
from auditor.store.tallies import _moment
from tests.helpers.gaming_day_records import HEADER, ROUND

SETTINGS = 'time-zone = "America/Denver"\n'
# The recorder rotated its file twice: before 01:20 MDT, and after 01:40 MDT; the third
# file begins after the clock went back, at 01:10 MST (50 minutes after the second ended).
EVENING = [("2026-10-31", "22:30"), ("2026-10-31", "23:50"), ("2026-11-01", "00:30"),
           ("2026-11-01", "01:15")]
FIRST_PASS = [("2026-11-01", "01:20"), ("2026-11-01", "01:40")]
SECOND_PASS = [("2026-11-01", "01:10"), ("2026-11-01", "05:30")]


def night(rounds: list[tuple[str, str]], first: int) -> str:
    """A record of T11 with a round at each (date, HH:MM), numbered from `first`."""
    day, clock = rounds[0]
    text = HEADER.format(date=day, time=f"{clock}:00")
    for number, (day, clock) in enumerate(rounds, start=first):
        hh, mm = clock.split(":")
        text += ROUND.format(number=number, date=day, hh=hh, mm=mm,
                             suit="hsdc"[number % 4], ten="JQK"[number % 3])
    return text


def trends(tmp_path: Path, parts: list[tuple[str, list, int]]) -> tuple[int, list]:
    """The rounds `trends` counts of `parts` (name, rounds, first number) audited in one
    run under the Denver zone, and the recordings it left out (file, night)."""
    records = tmp_path / "records"
    records.mkdir()
    for name, rounds, first in parts:
        (records / name).write_text(night(rounds, first), encoding="utf-8")
    (tmp_path / "settings.toml").write_text(SETTINGS, encoding="utf-8")
    store = str(tmp_path / "history.sqlite")
    assert main(["audit", str(records), "--out", str(tmp_path / "run"), "--quiet",
                 "--config", str(tmp_path / "settings.toml"), "--store", store,
                 "--new-store", "--jobs", "1"]) == 1
    assert main(["trends", "--store", store, "--out", str(tmp_path / "trends"),
                 "--quiet"]) == 0
    document = json.loads((tmp_path / "trends" / "trends.json").read_text(encoding="utf-8"))
    return document["trends"]["rounds"], [(Path(row["file"]).name, row["night"])
                                          for row in document["trends"]["superseded"]]


def test_a_file_of_the_first_pass_is_not_within_one_of_the_second(tmp_path: Path) -> None:
    # by clock text 01:20-01:40 lies within 01:10-05:30; in time it ended before it began
    assert trends(tmp_path, [("1-evening.bjh", EVENING, 1), ("2-first.bjh", FIRST_PASS, 5),
                             ("3-second.bjh", SECOND_PASS, 7)]) == (8, [])
    # the store keeps which ends lie in the repeated hour: those are never compared
    engine = open_store(str(tmp_path / "history.sqlite"))
    try:
        with engine.connect() as connection:
            spans = connection.execute(select(
                schema.table_nights.c.first_round, schema.table_nights.c.last_round)
                .order_by(schema.table_nights.c.position)).all()
    finally:
        engine.dispose()
    assert [tuple(span) for span in spans] == [
        ("2026-10-31 22:30:00", "2026-11-01 01:15:00 MDT or MST"),
        ("2026-11-01 01:20:00 MDT or MST", "2026-11-01 01:40:00 MDT or MST"),
        ("2026-11-01 01:10:00 MDT or MST", "2026-11-01 05:30:00")]


def test_without_a_time_zone_the_spans_are_the_clock_as_written() -> None:
    # no zone named: no repeated hour is known, and the text is compared as it was
    assert _moment(None, "2026-11-01", "01:20:00") == "2026-11-01 01:20:00"
    assert _moment("America/Denver", "2026-10-31", "01:20:00") == "2026-10-31 01:20:00"
    assert _moment("America/Denver", "2026-11-01", "02:00:00") == "2026-11-01 02:00:00"
    assert _moment("America/Denver", "2026-11-01", "00:59:59") == "2026-11-01 00:59:59"


def test_a_half_begun_in_the_repeated_hour_is_within_the_whole_night(tmp_path: Path) -> None:
    # the whole night (22:30 to 05:30) holds the half begun at 01:10 MST, whichever pass
    whole = EVENING + FIRST_PASS + SECOND_PASS
    assert trends(tmp_path, [("night.bjh", whole, 1), ("second-half.bjh", SECOND_PASS, 7)]) \
        == (8, [("second-half.bjh", "2026-10-31")])


def test_a_half_ended_in_the_repeated_hour_is_within_the_whole_night(tmp_path: Path) -> None:
    # the first half ends at 01:40 (either pass); the whole night runs on to 05:30 MST
    whole = EVENING + FIRST_PASS + SECOND_PASS
    assert trends(tmp_path, [("night.bjh", whole, 1),
                             ("first-half.bjh", EVENING[1:] + FIRST_PASS, 2)]) \
        == (8, [("first-half.bjh", "2026-10-31")])


def test_two_files_ended_at_one_round_of_the_repeated_hour_count_once(tmp_path: Path) -> None:
    # the table closed at 01:40 (either pass); the second file holds rounds 2-6 of the
    # first, the same last round (its ID and time): it lies within the whole night
    assert trends(tmp_path, [("night.bjh", EVENING + FIRST_PASS, 1),
                             ("late-file.bjh", EVENING[1:] + FIRST_PASS, 2)]) \
        == (6, [("late-file.bjh", "2026-10-31")])


def test_two_files_begun_at_one_round_of_the_repeated_hour_count_once(tmp_path: Path) -> None:
    # both begin at round 7 (01:10, the second pass), on other lines; one ends sooner
    assert trends(tmp_path, [("to-five.bjh", SECOND_PASS, 7),
                             ("to-one.bjh", SECOND_PASS[:1], 7)]) \
        == (2, [("to-one.bjh", "2026-10-31")])


def test_a_run_without_the_zone_is_not_ordered_within_the_repeated_hour(tmp_path: Path
                                                                        ) -> None:
    """The first pass's file recorded with the zone (its end kept as "01:40:00 MDT or
    MST"), the second pass's file by a run without it (its start kept as "01:10:00", as
    written): which pass 01:10 is, the text cannot say, so the files neither overlap nor
    hold one another, and every round counts once."""
    records = tmp_path / "records"
    records.mkdir()
    (records / "first.bjh").write_text(night(EVENING + FIRST_PASS, 1), encoding="utf-8")
    (records / "second.bjh").write_text(night(SECOND_PASS, 7), encoding="utf-8")
    (tmp_path / "settings.toml").write_text(SETTINGS, encoding="utf-8")
    (tmp_path / "plain.toml").write_text("", encoding="utf-8")
    store = str(tmp_path / "history.sqlite")
    for number, (name, settings) in enumerate((("first.bjh", "settings.toml"),
                                               ("second.bjh", "plain.toml"))):
        assert main(["audit", str(records / name), "--out", str(tmp_path / f"run{number}"),
                     "--quiet", "--config", str(tmp_path / settings), "--store", store,
                     "--jobs", "1", *(["--new-store"] if not number else [])]) == 1
    assert main(["trends", "--store", store, "--out", str(tmp_path / "trends"),
                 "--quiet"]) == 0
    document = json.loads((tmp_path / "trends" / "trends.json").read_text(encoding="utf-8"))
    assert (document["trends"]["rounds"], document["trends"]["superseded"]) == (8, [])
