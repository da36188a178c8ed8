"""What a case covers: one licensee, optionally narrowed to tables, gaming dates and
citations. The same scope picks the inputs and findings when the case is made and when it
is verified (it is written into the manifest).

Dates are gaming dates (auditor/gaming_day.py): a round at 01:30 on 2026-11-01 is of gaming
day 2026-10-31 when the gaming day begins at 06:00, so a night is filed under one date. The
scope keeps the hour the run's gaming day began at (`gaming_day_starts`, from the run's
calendar), so that a finding audited again, which has no gaming day of its own yet, is
given the same one as when the case was made."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from auditor.gaming_day import DEFAULT_DAY_STARTS, Calendar

if TYPE_CHECKING:
    from auditor.findings import Finding
    from auditor.results import InputSummary


@dataclass(frozen=True)
class Scope:
    licensee: str | None = None  # a licence ID or a casino name, as the header gives them
    tables: tuple[str, ...] = ()  # table IDs; none: every table of the licensee
    date_from: str | None = None  # YYYY-MM-DD, gaming dates, both ends included
    date_until: str | None = None
    citations: tuple[str, ...] = ()  # a citation, or a section that holds it
    gaming_day_starts: str = DEFAULT_DAY_STARTS  # the run's calendar's ("HH:00")

    def takes_input(self, summary: InputSummary) -> bool:
        """An input is in scope when its header names the licensee (licence or casino), its
        table is one asked for, and its gaming dates meet the dates asked for. An input whose
        header was not read names no licensee: it is in no case."""
        if summary.error or summary.table is None:
            return False
        if self.licensee is not None and self.licensee not in (summary.licence,
                                                               summary.casino):
            return False
        if self.tables and summary.table not in self.tables:
            return False
        if self.date_from or self.date_until:
            first, last = self._gaming_days(summary)
            if first is None or last is None:
                return False
            if self.date_from and last < self.date_from:
                return False
            if self.date_until and first > self.date_until:
                return False
        return True

    def _gaming_days(self, summary: InputSummary) -> tuple[str | None, str | None]:
        """The input's first and last gaming days. A run recorded before inputs carried
        them gives calendar dates only: a round of its first date may be of the gaming day
        before, so the span starts a day earlier (an input too many, never one too few;
        its findings are still picked by their own gaming day)."""
        if summary.first_gaming_day is not None:
            return summary.first_gaming_day, summary.last_gaming_day
        # the gaming day of a round at midnight on its first date: the day before, unless
        # the gaming day begins at midnight
        return (self._calendar.gaming_day(summary.first_date, "00:00"), summary.last_date)

    def gaming_day(self, finding: Finding) -> str | None:
        """The finding's gaming day: the one its run gave it, else (a finding just audited
        again) the one its round's date and start time fall in under this scope's start."""
        if finding.gaming_day is not None:
            return finding.gaming_day
        return self._calendar.gaming_day(finding.date, finding.round_started or finding.time)

    @cached_property
    def _calendar(self) -> Calendar:
        return Calendar.of(self.gaming_day_starts)

    def holds(self, finding: Finding) -> bool:
        """A finding of an input in scope is in scope when its gaming date is in the dates
        asked for (a finding with no date, about the whole record, stays with its record)
        and its citation is one asked for."""
        if self.date_from or self.date_until:
            day = self.gaming_day(finding)
            if day is not None:
                if self.date_from and day < self.date_from:
                    return False
                if self.date_until and day > self.date_until:
                    return False
        return not self.citations or any(_cites(finding.citation, wanted)
                                         for wanted in self.citations)

    def as_document(self) -> dict[str, Any]:
        return {"licensee": self.licensee, "tables": list(self.tables),
                "from": self.date_from, "until": self.date_until,
                "citations": list(self.citations),
                "gaming_day_starts": self.gaming_day_starts}

    @classmethod
    def of_document(cls, document: dict[str, Any]) -> Scope:
        """The scope a manifest records; one made before scopes named the hour the gaming
        day began at was made under the default (06:00). ValueError (a sentence) when that
        hour is not a time on the hour (ManifestError)."""
        from auditor.manifest import ManifestError

        starts = document.get("gaming_day_starts", DEFAULT_DAY_STARTS)
        try:
            Calendar.of(starts if isinstance(starts, str) else repr(starts))
        except ValueError as error:
            raise ManifestError(f"the scope's gaming_day_starts: {error}") from None
        return cls(licensee=document.get("licensee"),
                   tables=tuple(document.get("tables") or ()),
                   date_from=document.get("from"), date_until=document.get("until"),
                   citations=tuple(document.get("citations") or ()),
                   gaming_day_starts=starts)

    def under_calendar_of(self, run: dict[str, Any]) -> Scope:
        """This scope with the hour the gaming day began at in `run` (findings.json's
        `auditor`, whose `calendar` says it; a run made before runs recorded it was judged
        under the default). ValueError (a sentence) when the run's hour cannot be read."""
        calendar = run.get("calendar")
        starts = calendar.get("gaming_day_starts") if isinstance(calendar, dict) else None
        starts = starts or DEFAULT_DAY_STARTS
        Calendar.of(starts if isinstance(starts, str) else repr(starts))  # checked
        return replace(self, gaming_day_starts=starts)

    def narrowing(self) -> list[str]:
        """The narrowing asked for, in words."""
        said = []
        if self.tables:
            said.append("table " + ", ".join(self.tables))
        if self.date_from or self.date_until:
            said.append(f"gaming dates {self.date_from or 'any'} to {self.date_until or 'any'}")
        if self.citations:
            said.append("citation " + ", ".join(self.citations))
        return said


def _cites(citation: str, wanted: str) -> bool:
    """`20:18:15:30.10` asks for every subsection of 30.10, `20:18:15:30.10(12)` for one."""
    return citation == wanted or citation.startswith(wanted + "(")
