"""Gaming days and shifts: the casino's calendar, not the wall calendar.

A gaming day begins at `gaming_day_starts` (06:00 unless the settings file says otherwise)
and is named by the date it begins on: a round at 01:30 on 2026-03-02 belongs to gaming day
2026-03-01, so a night that crosses midnight is one gaming day. Shifts are named spans of
local time (`[shifts] day = "06:00-14:00"`); a span may cross midnight ("22:00-06:00").

Everything that needs a gaming day or a shift asks a `Calendar` from here, in the parent:
findings get theirs when the run is judged (`Calendar.stamp`), the tallies of `trends` when
they are stored (the worker keeps their rounds by date and hour, `hour_stamp`). Boundaries
are whole hours, so that an hour of counted rounds never straddles two days or two shifts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import TYPE_CHECKING

from auditor.fieldwise import Fieldwise

if TYPE_CHECKING:
    from auditor.findings import Finding

DEFAULT_DAY_STARTS = "06:00"
DEFAULT_SHIFTS = {"day": "06:00-14:00", "swing": "14:00-22:00", "grave": "22:00-06:00"}
_CLOCK = re.compile(r"([01]\d|2[0-3]):([0-5]\d)")
_HOUR = re.compile(r"([01]\d|2[0-3]):00")


def hour_of_clock(text: str) -> int:
    """The hour of an "HH:00" setting; ValueError (a sentence) for anything else."""
    if not isinstance(text, str) or not _HOUR.fullmatch(text):
        raise ValueError(f"{text!r} is not a time on the hour (HH:00, 00:00 to 23:00)")
    return int(text[:2])


def shift_hours(span: str) -> tuple[int, int]:
    """The first and end hours of a shift written "HH:00-HH:00"; ValueError otherwise."""
    if not isinstance(span, str) or "-" not in span:
        raise ValueError(f"{span!r} is not a span of hours (HH:00-HH:00)")
    first, _, end = span.partition("-")
    start, stop = hour_of_clock(first.strip()), hour_of_clock(end.strip())
    if start == stop:
        raise ValueError(f"{span!r} is empty (it starts where it ends)")
    return start, stop


def local_hour(time: str | None) -> int | None:
    """The hour of a round's local time stamp ("01:30:05"), None if it has none."""
    if not isinstance(time, str):
        return None
    match = _CLOCK.match(time)
    return int(match.group(1)) if match else None


def hour_stamp(day: str | None, time: str | None) -> str | None:
    """A round's date and hour as one key ("2026-03-02 01"), for the worker's tallies: the
    parent turns it into a gaming day and a shift. The bare date if the time is unknown."""
    hour = local_hour(time)
    if day is None or hour is None:
        return day
    return f"{day} {hour:02d}"


@dataclass(frozen=True, repr=False)
class Calendar(Fieldwise):
    """When the gaming day begins, and the shifts by name (in the settings' order)."""

    day_starts: int = 6  # the hour
    shifts: tuple[tuple[str, int, int], ...] = field(default_factory=lambda: tuple(
        (name, *shift_hours(span)) for name, span in DEFAULT_SHIFTS.items()))
    # The tables' clocks' time zone (IANA name, `time-zone` in the settings): the pages say
    # each time's offset (auditor/clock.py); None: local time of no named zone.
    time_zone: str | None = None

    @classmethod
    def of(cls, day_starts: str | None = None,
           shifts: dict[str, str] | None = None, time_zone: str | None = None) -> Calendar:
        """From the settings' text (validated there); the defaults for what is not given."""
        chosen = shifts if shifts else DEFAULT_SHIFTS
        return cls(hour_of_clock(day_starts or DEFAULT_DAY_STARTS),
                   tuple((name, *shift_hours(span)) for name, span in chosen.items()),
                   time_zone)

    @classmethod
    def read(cls, described: object) -> Calendar:
        """The calendar a run recorded (`described`, as `described()` writes it); raises
        ValueError where it cannot be read as one."""
        if not isinstance(described, dict):
            raise ValueError(f"a calendar is a table, not {type(described).__name__}")
        shifts, zone = described.get("shifts"), described.get("time_zone")
        if shifts is not None and not isinstance(shifts, dict):
            raise ValueError("the shifts are not a table")
        if zone is not None and not isinstance(zone, str):
            raise ValueError("the time zone is not text")
        try:
            return cls.of(described.get("gaming_day_starts"), shifts or None, zone)
        except TypeError as error:
            raise ValueError(str(error)) from None

    @classmethod
    def of_described(cls, described: object) -> Calendar:
        """The calendar a run recorded; the default for a run recorded before runs kept
        theirs, or a record that cannot be read as one (for pages; a reproduction reads it
        strictly with `read`)."""
        try:
            return cls.read(described)
        except ValueError:
            return DEFAULT

    def gaming_day(self, day: str | None, time: str | None) -> str | None:
        """The gaming day of a round on `day` at local `time`: the day before when the time
        is before the gaming day begins; the date itself when the time is unknown."""
        hour = local_hour(time)
        return self._day(day, hour)

    def _day(self, day: str | None, hour: int | None) -> str | None:
        if day is None or hour is None or hour >= self.day_starts:
            return day
        try:
            return (date.fromisoformat(day) - timedelta(days=1)).isoformat()
        except ValueError:  # a date the record wrote wrongly: kept as written
            return day

    def shift(self, time: str | None) -> str | None:
        """The shift of a local time, None if unknown or if no shift covers that hour."""
        return self.shift_of_hour(local_hour(time))

    def shift_of_hour(self, hour: int | None) -> str | None:
        """The shift of a local hour (0-23), None if unknown or if no shift covers it."""
        if hour is None:
            return None
        for name, start, end in self.shifts:
            if (start <= hour < end) if start < end else (hour >= start or hour < end):
                return name
        return None

    def described(self) -> dict[str, object]:
        """The calendar as the run's record shows it (findings.json's `auditor`, the
        report): when the gaming day begins, and each shift's span, in order."""
        described: dict[str, object] = {
            "gaming_day_starts": f"{self.day_starts:02d}:00",
            "shifts": {name: f"{start:02d}:00-{end:02d}:00"
                       for name, start, end in self.shifts}}
        if self.time_zone:  # only when named: a run without one records what it did
            described["time_zone"] = self.time_zone
        return described

    def of_stamp(self, stamp: str | None) -> tuple[str | None, str | None]:
        """The gaming day and shift of a tally's `hour_stamp`."""
        if stamp is None or " " not in stamp:
            return stamp, None
        day, _, hour = stamp.partition(" ")
        return self._day(day, int(hour)), self.shift_of_hour(int(hour))

    def span(self, stamps: Iterable[str | None]) -> tuple[str | None, str | None]:
        """The first and last gaming days of rounds given by their `hour_stamp`s (a file's
        tally keys): what `auditor case --from/--until` picks a file's inputs by."""
        days = [day for day in (self.of_stamp(stamp)[0] for stamp in stamps if stamp)
                if day]
        return (min(days), max(days)) if days else (None, None)

    def stamp(self, finding: Finding) -> Finding:
        """`finding` with its gaming day and shift, from its round's date and time."""
        from auditor.findings import changed

        time = finding.round_started or finding.time  # the round's start: one day a round
        gaming_day, shift = self.gaming_day(finding.date, time), self.shift(time)
        if finding.gaming_day == gaming_day and finding.shift == shift:
            return finding
        return changed(finding, gaming_day=gaming_day, shift=shift)


DEFAULT = Calendar()


def shift_shown(finding: Finding) -> str | None:
    """The shift a finding is counted and filtered under (`stamped_shift`)."""
    return stamped_shift(finding.shift, finding.gaming_day, finding.date,
                         finding.round_started or finding.time)


def time_date(finding: Finding) -> str | None:
    """The date of the finding's time: its round's date, or the next where the clock passed
    midnight since the round began (auditor/clock.py `date_after`): 00:00:16 in a round
    begun at 23:59 on 2026-11-20 is on 2026-11-21, as the report and a case show it."""
    from auditor.clock import date_after

    return date_after(finding.date, finding.round_started, finding.time)


def day_counted(finding: Finding) -> str | None:
    """The date a finding is counted under in the report's "Findings by gaming day": its
    gaming day (a round after midnight is of the night before, as the gaming-day filter and
    the case file have it); a finding of a run judged before findings carried one: its
    calendar date, all that run knew."""
    return finding.gaming_day if finding.gaming_day is not None else finding.date


def stamped_shift(shift: str | None, gaming_day: str | None, day: str | None,
                  started: str | None) -> str | None:
    """The shift a finding is counted and filtered under: the one its run's calendar gave
    it when the run was judged (None when no shift covers its round's hour: "(none)", never
    a default shift). Only a finding of a run judged before findings carried a gaming day
    and a shift (it has a date `day` but no gaming day) takes the default shifts, at its
    round's start `started`."""
    if shift is not None or gaming_day is not None or day is None:
        return shift
    return DEFAULT.shift(started)
