"""A record's times in the casino's time zone: a table's clock is local wall time (BJH 1
writes no zone), and the settings may name the zone (`time-zone = "America/Denver"`), so a
case says which offset each time had. The hour repeated when daylight saving time ends is
said to be either, never guessed; a time skipped when it begins is said to be no such time.

One rule dates a time read after another on the same clock (`past_midnight`, `date_after`):
the reader dates a round that gives no date of its own by it, a case its exhibit's time, the
incidents a round's end."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


class ZoneError(ValueError):
    """A time zone name the machine's zone database does not hold."""


@cache
def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise ZoneError(f"{name!r} is not a time zone of the IANA database (e.g. "
                        "America/Denver)") from error


def zoned(zone_name: str | None, day: str | None, clock: str | None) -> str | None:
    """`clock` with its zone's abbreviation on `day` (`20:22:47 MST`); `01:30:00 MDT or
    MST` in the repeated hour; `02:30:00 (no such time in ZONE that day)` in the skipped
    one; `clock` as it is when the zone, the day or the time is not known."""
    if not (zone_name and day and clock):
        return clock
    try:
        wall = datetime.combine(date.fromisoformat(day), time.fromisoformat(clock))
    except ValueError:
        return clock
    where = zone(zone_name)
    first, second = wall.replace(tzinfo=where, fold=0), wall.replace(tzinfo=where, fold=1)
    if first.utcoffset() == second.utcoffset():
        return f"{clock} {first.tzname()}"
    # the two folds differ: the hour repeated (the first is the earlier offset) or skipped
    round_trip = first.astimezone(ZoneInfo("UTC")).astimezone(where).replace(tzinfo=None)
    if round_trip != wall:
        return f"{clock} (no such time in {zone_name} that day)"
    return f"{clock} {first.tzname()} or {second.tzname()}"


def repeated(zone_name: str, day: str, clock: str) -> bool:
    """Whether `clock` on `day` is in the hour the zone repeats when daylight saving time
    ends (its two folds have different offsets and both exist); False for a date, time or
    zone that cannot be read (a ZoneError is a ValueError)."""
    try:
        wall = datetime.combine(date.fromisoformat(day), time.fromisoformat(clock))
        where = zone(zone_name)
    except ValueError:
        return False
    first, second = wall.replace(tzinfo=where, fold=0), wall.replace(tzinfo=where, fold=1)
    if first.utcoffset() == second.utcoffset():
        return False
    round_trip = first.astimezone(ZoneInfo("UTC")).astimezone(where).replace(tzinfo=None)
    return round_trip == wall


SET_BACK_AT_MOST = 3600
"""The most, in seconds, a table's clock goes back without passing midnight: the hour it is
set back when daylight saving time ends (less in a zone that sets it back less)."""


def clock_seconds(clock: str | None) -> int | None:
    """The seconds since midnight of a time stamp `HH:MM:SS[.fff]` (its fraction dropped);
    None for anything else."""
    if not isinstance(clock, str) or len(clock) < 8 or clock[2] != ":" or clock[5] != ":":
        return None
    hours, minutes, seconds = clock[0:2], clock[3:5], clock[6:8]
    if not (hours.isdigit() and minutes.isdigit() and seconds.isdigit()):
        return None
    return int(hours) * 3600 + int(minutes) * 60 + int(seconds)


def past_midnight(earlier: str | None, later: str | None) -> bool:
    """Whether the time `later`, read after `earlier` on the same table's clock, is on the
    next date: the clock went back more than an hour (23:50, then 00:30: it passed
    midnight). Back an hour or less it is the same date (01:55, then 01:05: the hour set
    back when daylight saving time ends, or a clock put right), with or without a time
    zone: a zone would say which hour is repeated, but no round or shoe lasts the 23 hours
    the other reading needs, and every output dates a time alike whatever the settings.
    False when either time is unknown or unreadable."""
    if earlier is None or later is None or later >= earlier:
        return False  # (nearly every time read: on, as text; read no further)
    first, then = clock_seconds(earlier), clock_seconds(later)
    return first is not None and then is not None and first - then > SET_BACK_AT_MOST


def date_after(day: str | None, earlier: str | None, later: str | None) -> str | None:
    """The date of the time `later`, read after `earlier` on `day`: the next date where
    the clock passed midnight between them (`past_midnight`), else `day`. A date that
    cannot be read is kept as written."""
    if day is None or not past_midnight(earlier, later):
        return day
    try:
        return (date.fromisoformat(day) + timedelta(days=1)).isoformat()
    except ValueError:
        return day


def zone_described(zone_name: str) -> str:
    """The zone and its offsets over a year, for a page's legend."""
    where = zone(zone_name)
    seen: dict[str, str] = {}
    for month in (1, 7):
        moment = datetime(2026, month, 15, 12, tzinfo=where)
        offset = moment.utcoffset()
        if offset is None:
            continue
        minutes = int(offset.total_seconds() // 60)
        sign = "+" if minutes >= 0 else "-"
        seen.setdefault(moment.tzname() or "?",
                        f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}")
    return f"{zone_name} (" + ", ".join(f"{name} {offset}" for name, offset in seen.items()) \
        + ")"
