"""The parts of auditor/gaming_day.py with exact values: a setting's hour, a shift's span, a
round's hour and tally key, a gaming day at and around its start, the shift of each hour
(shifts that cross midnight, hours no shift covers), the calendar a run records and reads
back, and the gaming day and shift a finding is stamped with."""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest

from auditor.findings import Finding
from auditor.gaming_day import (
    DEFAULT,
    Calendar,
    hour_of_clock,
    hour_stamp,
    local_hour,
    shift_hours,
    shift_shown,
    stamped_shift,
)

# A calendar unlike the default in every part: the day begins at midnight, a gap between
# its shifts (14:00 to 20:00 is in none), one shift crossing midnight.
CUSTOM = Calendar.of("00:00", {"early": "02:00-14:00", "late": "20:00-02:00"},
                     "America/Chicago")


def test_an_hour_of_the_settings() -> None:
    assert [hour_of_clock(text) for text in ("00:00", "06:00", "19:00", "23:00")] == [
        0, 6, 19, 23]
    for wrong in ("06:30", "24:00", "6:00", " 06:00", "06:00 ", "0600"):
        with pytest.raises(ValueError) as error:
            hour_of_clock(wrong)
        assert str(error.value) == (f"{wrong!r} is not a time on the hour (HH:00, 00:00 to "
                                    "23:00)")
    with pytest.raises(ValueError, match=r"^6 is not a time on the hour"):
        hour_of_clock(6)  # type: ignore[arg-type]


def test_a_shifts_span_of_hours() -> None:
    assert shift_hours("06:00-14:00") == (6, 14)
    assert shift_hours("22:00-06:00") == (22, 6)
    assert shift_hours(" 23:00 - 00:00 ") == (23, 0)
    for wrong, message in (
            ("0600", "'0600' is not a span of hours (HH:00-HH:00)"),
            (6, "6 is not a span of hours (HH:00-HH:00)"),
            ("06:00-06:00", "'06:00-06:00' is empty (it starts where it ends)"),
            ("06:00-06:30", "'06:30' is not a time on the hour (HH:00, 00:00 to 23:00)")):
        with pytest.raises(ValueError) as error:
            shift_hours(wrong)  # type: ignore[arg-type]
        assert str(error.value) == message


def test_a_rounds_hour_and_its_tally_key() -> None:
    assert [local_hour(t) for t in ("00:00:00", "01:30:05", "09:59", "23:59:59")] == [
        0, 1, 9, 23]
    assert [local_hour(t) for t in (None, "", "24:00:00", "7:30", "ab:cd", 7)] == [
        None] * 6
    assert hour_stamp("2026-03-02", "01:30:05") == "2026-03-02 01"
    assert hour_stamp("2026-03-02", "23:00:00") == "2026-03-02 23"
    assert hour_stamp("2026-03-02", None) == "2026-03-02"
    assert hour_stamp("2026-03-02", "late") == "2026-03-02"
    assert hour_stamp(None, "01:30:05") is None


def test_the_calendar_of_the_settings() -> None:
    assert Calendar.of() == DEFAULT == Calendar()
    assert DEFAULT.day_starts == 6
    assert DEFAULT.shifts == (("day", 6, 14), ("swing", 14, 22), ("grave", 22, 6))
    assert DEFAULT.time_zone is None
    assert (CUSTOM.day_starts, CUSTOM.shifts, CUSTOM.time_zone) == (
        0, (("early", 2, 14), ("late", 20, 2)), "America/Chicago")
    assert Calendar.of("05:00", {}).shifts == DEFAULT.shifts  # none given: the defaults
    assert Calendar.of("05:00", None).day_starts == 5
    # The default calendar is shared by every run of a process: nothing may change it.
    with pytest.raises(FrozenInstanceError):
        DEFAULT.day_starts = 0  # type: ignore[misc]
    assert hash(Calendar.of()) == hash(DEFAULT)


def test_the_gaming_day_at_and_around_its_start() -> None:
    day = DEFAULT.gaming_day
    assert day("2026-03-01", "05:59:59") == "2026-02-28"
    assert day("2026-03-01", "06:00:00") == "2026-03-01"
    assert day("2026-03-01", "23:59:59") == "2026-03-01"
    assert day("2026-03-01", "00:00:00") == "2026-02-28"
    assert day("2026-01-01", "01:00:00") == "2025-12-31"
    assert day("2024-03-01", "02:00:00") == "2024-02-29"
    assert day("2026-03-01", None) == "2026-03-01"
    assert day(None, "01:00:00") is None
    assert day(None, "07:00:00") is None
    # A date the record wrote wrongly is kept as written, before the day begins too.
    assert day("2026-02-30", "01:00:00") == "2026-02-30"
    assert day("2026-02-30", "07:00:00") == "2026-02-30"
    # A day that begins at midnight is the wall calendar's.
    assert CUSTOM.gaming_day("2026-03-01", "00:00:00") == "2026-03-01"
    assert Calendar.of("07:00").gaming_day("2026-03-01", "06:59:00") == "2026-02-28"
    assert Calendar.of("07:00").gaming_day("2026-03-01", "07:00:00") == "2026-03-01"


def test_the_shift_of_every_hour() -> None:
    assert [DEFAULT.shift_of_hour(hour) for hour in range(24)] == (
        ["grave"] * 6 + ["day"] * 8 + ["swing"] * 8 + ["grave"] * 2)
    assert [CUSTOM.shift_of_hour(hour) for hour in range(24)] == (
        ["late"] * 2 + ["early"] * 12 + [None] * 6 + ["late"] * 4)
    only_night = Calendar.of("06:00", {"night": "22:00-02:00"})
    assert [only_night.shift_of_hour(hour) for hour in (21, 22, 23, 0, 1, 2, 3)] == [
        None, "night", "night", "night", "night", None, None]
    only_day = Calendar.of("06:00", {"day": "06:00-14:00"})
    assert [only_day.shift_of_hour(hour) for hour in (5, 6, 13, 14)] == [
        None, "day", "day", None]
    assert DEFAULT.shift_of_hour(None) is None
    assert DEFAULT.shift("13:59:59") == "day"
    assert DEFAULT.shift(None) is None
    assert DEFAULT.shift("late") is None


def test_the_calendar_a_run_records_and_reads_back() -> None:
    assert DEFAULT.described() == {
        "gaming_day_starts": "06:00",
        "shifts": {"day": "06:00-14:00", "swing": "14:00-22:00", "grave": "22:00-06:00"}}
    assert CUSTOM.described() == {
        "gaming_day_starts": "00:00",
        "shifts": {"early": "02:00-14:00", "late": "20:00-02:00"},
        "time_zone": "America/Chicago"}
    assert Calendar.read(CUSTOM.described()) == CUSTOM
    assert Calendar.of_described(CUSTOM.described()) == CUSTOM
    assert Calendar.read({}) == DEFAULT
    assert Calendar.read({"gaming_day_starts": "05:00", "shifts": {}}) == Calendar.of("05:00")
    for described, message in (
            ([], "a calendar is a table, not list"),
            ({"shifts": ["06:00-14:00"]}, "the shifts are not a table"),
            ({"time_zone": 5}, "the time zone is not text"),
            ({"gaming_day_starts": "06:30"},
             "'06:30' is not a time on the hour (HH:00, 00:00 to 23:00)")):
        with pytest.raises(ValueError) as error:
            Calendar.read(described)
        assert str(error.value) == message
        assert Calendar.of_described(described) is DEFAULT
    assert Calendar.of_described(None) is DEFAULT


def test_a_tally_keys_gaming_day_and_shift_and_a_files_span() -> None:
    assert DEFAULT.of_stamp("2026-03-02 05") == ("2026-03-01", "grave")
    assert DEFAULT.of_stamp("2026-03-02 06") == ("2026-03-02", "day")
    assert DEFAULT.of_stamp("2026-03-02 14") == ("2026-03-02", "swing")
    assert CUSTOM.of_stamp("2026-03-02 15") == ("2026-03-02", None)
    assert DEFAULT.of_stamp("2026-03-02") == ("2026-03-02", None)
    assert DEFAULT.of_stamp(None) == (None, None)
    assert DEFAULT.span(["2026-03-03 07", "2026-03-02 05", None, "2026-03-04 01"]) == (
        "2026-03-01", "2026-03-03")
    assert DEFAULT.span(["2026-03-05", "2026-03-04 23"]) == ("2026-03-04", "2026-03-05")
    assert DEFAULT.span([]) == (None, None)
    assert DEFAULT.span([None]) == (None, None)


def finding(**fields: object) -> Finding:
    return Finding(citation="20:18:15:06", rule="r", severity="high", file="f", line=1,
                   message="m", **fields)


def test_a_finding_is_stamped_at_its_rounds_start() -> None:
    # The round began before 06:00 and the payout was after: one gaming day a round.
    crossing = DEFAULT.stamp(finding(date="2026-11-23", round_started="05:59:00",
                                     time="06:01:00"))
    assert (crossing.gaming_day, crossing.shift) == ("2026-11-22", "grave")
    timed = DEFAULT.stamp(finding(date="2026-11-23", time="01:00:00"))
    assert (timed.gaming_day, timed.shift) == ("2026-11-22", "grave")
    started = DEFAULT.stamp(finding(date="2026-11-23", round_started="14:00:00"))
    assert (started.gaming_day, started.shift) == ("2026-11-23", "swing")
    undated = DEFAULT.stamp(finding())
    assert (undated.gaming_day, undated.shift) == (None, None)
    # Stamped already as this calendar would: the very finding back.
    assert DEFAULT.stamp(crossing) is crossing
    # Stamped by another calendar: a right gaming day does not keep a wrong shift, nor a
    # right shift a wrong gaming day.
    for day, shift in (("2026-11-22", "day"), ("2026-11-23", "grave"), (None, None)):
        again = DEFAULT.stamp(finding(date="2026-11-23", round_started="05:59:00",
                                      gaming_day=day, shift=shift))
        assert (again.gaming_day, again.shift) == ("2026-11-22", "grave")
    custom = CUSTOM.stamp(finding(date="2026-11-23", round_started="15:00:00"))
    assert (custom.gaming_day, custom.shift) == ("2026-11-23", None)


def test_the_shift_a_finding_is_counted_under() -> None:
    assert stamped_shift("swing", "2026-11-22", "2026-11-22", "23:50:00") == "swing"
    assert stamped_shift("swing", None, None, None) == "swing"
    assert stamped_shift(None, "2026-11-22", "2026-11-22", "23:50:00") is None
    assert stamped_shift(None, None, "2026-11-22", "14:00:00") == "swing"  # an older run
    assert stamped_shift(None, None, "2026-11-22", None) is None
    assert stamped_shift(None, None, None, "14:00:00") is None
    assert shift_shown(finding(date="2026-11-22", round_started="21:59:00",
                               time="22:00:00")) == "swing"
    assert shift_shown(finding(date="2026-11-22", time="22:00:00")) == "grave"
    assert shift_shown(finding(date="2026-11-22", time="22:00:00", shift="day")) == "day"
