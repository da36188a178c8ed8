"""The tables' clocks in the casino's time zone (`time-zone` in the settings): each time of
a case's exhibits given with its offset's name on its date, the repeated hour of the
fall-back night said to be either, never guessed; a zone the database does not hold is a
settings error naming the line."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from auditor.cli import main
from auditor.clock import ZoneError, date_after, past_midnight, zone_described, zoned
from tests.helpers.gaming_day_records import FALL_BACK, audited


@pytest.mark.parametrize("day, earlier, later, dated", [
    ("2026-10-31", "23:50:00", "00:30:00", "2026-11-01"),  # past midnight
    ("2026-12-31", "23:59:59.900", "00:00:00.100", "2027-01-01"),  # into a new year
    ("2028-02-28", "23:30:00", "00:10:00", "2028-02-29"),  # a leap day
    ("2026-11-01", "01:55:00", "01:05:00", "2026-11-01"),  # the fall-back hour, no zone
    ("2026-11-01", "01:59:59", "00:59:59", "2026-11-01"),  # back exactly an hour
    ("2026-11-01", "02:00:00", "00:59:59", "2026-11-02"),  # a second more: past midnight
    ("2026-03-08", "01:59:00", "03:01:00", "2026-03-08"),  # spring forward: on
    ("2026-11-01", "00:30:00", "00:30:00", "2026-11-01"),
    ("2026-11-01", None, "00:30:00", "2026-11-01"),  # unknown: the date as it is
    ("2026-11-01", "23:00:00", "2:00", "2026-11-01"),  # unreadable: the date as it is
    ("2026-13-01", "23:50:00", "00:30:00", "2026-13-01"),  # a wrong date: as written
    (None, "23:50:00", "00:30:00", None),
])
def test_one_rule_dates_a_time_read_after_another(day, earlier, later, dated) -> None:
    assert date_after(day, earlier, later) == dated
    # the clock's own reading, whatever the date: back more than an hour
    assert past_midnight(earlier, later) == (earlier in ("23:50:00", "23:59:59.900",
                                                         "23:30:00", "02:00:00"))


@pytest.mark.parametrize("day, clock, said", [
    ("2026-11-20", "20:22:47", "20:22:47 MST"),
    ("2026-07-04", "20:22:47", "20:22:47 MDT"),
    ("2026-11-01", "01:30:00", "01:30:00 MDT or MST"),  # the hour repeated
    ("2026-11-01", "00:59:59", "00:59:59 MDT"),
    ("2026-11-01", "02:00:00", "02:00:00 MST"),
    ("2026-03-08", "02:30:00", "02:30:00 (no such time in America/Denver that day)"),
    ("2026-03-08", "03:00:00", "03:00:00 MDT"),
    ("2026-13-01", "01:00:00", "01:00:00"),  # a date the record wrote wrongly: as written
    (None, "01:00:00", "01:00:00"),
])
def test_a_time_with_its_zone_on_its_date(day, clock: str, said: str) -> None:
    assert zoned("America/Denver", day, clock) == said


def test_no_zone_leaves_the_time_as_written() -> None:
    assert zoned(None, "2026-11-20", "20:22:47") == "20:22:47"
    assert zone_described("America/Denver") == "America/Denver (MST UTC-07:00, MDT UTC-06:00)"
    with pytest.raises(ZoneError):
        zoned("Mars/Olympus", "2026-11-20", "20:22:47")


def where_lines(case: Path) -> list[str]:
    html = (case / "case.html").read_text(encoding="utf-8")
    return [re.sub(r"\s+", " ", re.sub("<[^>]+>", "", unescape(found))).split(";")[0]
            for found in re.findall(r"<th>Where</th>\s*<td>(.*?)</td>", html, re.S)]


def test_the_fall_back_night_in_the_case_with_its_zone(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bjh-auditor.toml").write_text('time-zone = "America/Denver"\n',
                                              encoding="utf-8")
    run = audited(tmp_path, FALL_BACK)
    assert main(["case", str(run), "--licensee", "RL-0412", "--out", str(tmp_path / "c")]) == 0
    lines = where_lines(tmp_path / "c")
    assert [line.split(", ", 1)[1].split(", dealer")[0] for line in lines] == [
        "2026-10-31, round 1, 22:30:16 MDT",
        "2026-10-31, round 2, 23:50:16 MDT",
        "2026-11-01 (gaming day 2026-10-31), round 3, 00:30:16 MDT",
        "2026-11-01 (gaming day 2026-10-31), round 4, 01:30:16 MDT or MST",
        "2026-11-01 (gaming day 2026-10-31), round 5, 01:10:16 MDT or MST",
        "2026-11-01 (gaming day 2026-10-31), round 6, 05:30:16 MST",
        "2026-11-01, round 7, 06:30:16 MST"]
    html = (tmp_path / "c" / "case.html").read_text(encoding="utf-8")
    assert "times are the tables' own clocks, in America/Denver (MST UTC-07:00, MDT " \
           "UTC-06:00)" in html
    assert main(["verify", str(tmp_path / "c")]) == 4  # the zone is part of the conditions


def test_without_a_zone_the_case_says_so_and_the_run_records_none(tmp_path: Path) -> None:
    import json

    run = audited(tmp_path, FALL_BACK[:2])
    document = json.loads((run / "findings.json").read_text(encoding="utf-8"))
    assert "time_zone" not in document["auditor"]["calendar"]
    assert main(["case", str(run), "--licensee", "RL-0412", "--out", str(tmp_path / "c")]) == 0
    assert [line.split(", ", 1)[1].split(", dealer")[0] for line in
            where_lines(tmp_path / "c")] == ["2026-10-31, round 1, 22:30:16",
                                             "2026-10-31, round 2, 23:50:16"]
    assert "the run named no time zone" in (tmp_path / "c" / "case.html").read_text()


def test_a_zone_the_database_does_not_hold_is_refused(tmp_path: Path, monkeypatch,
                                                     capsys) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bjh-auditor.toml").write_text('\n\ntime-zone = "Mars/Olympus"\n',
                                              encoding="utf-8")
    capsys.readouterr()
    assert main(["audit", str(tmp_path), "--out", str(tmp_path / "o"), "--quiet"]) == 2
    error = capsys.readouterr().err
    assert "time-zone" in error and "Mars/Olympus" in error and "line 3" in error


@pytest.mark.parametrize(("clock", "seconds"), [
    ("00:00:00", 0), ("23:59:59", 86_399), ("01:02:03.456", 3_723),
    ("2x:00:00", None), ("00:x0:00", None), ("00:00:0x", None), ("0:00:00", None),
    ("00-00-00", None), ("", None), (None, None)])
def test_the_seconds_of_a_time_stamp(clock, seconds) -> None:
    """A time stamp's seconds since midnight; anything not HH:MM:SS has none (never an
    error: a record's text)."""
    from auditor.clock import clock_seconds

    assert clock_seconds(clock) == seconds
