"""Waivers: known findings accepted for a stated reason, until a date.

A waiver file is TOML, one `[[waiver]]` table per waiver:

    [[waiver]]
    citation = "20:18:15:30.10(12)"
    table = "RL-0412/T07"          # a table ID, or licence (or casino) / table ID
    justification = "pay table 1 misprinted on the layout; reprint ordered"
    approved_by = "J. Doe, compliance"
    expires = 2026-12-31           # holds until the end of that day, UTC

What a waiver covers is every finding that matches all it names: `id` (a finding's stable
ID), `citation`, `table`, `dealer`, `file` (the file's name, its path as given, or its
SHA-256), and `from`/`until` (the dates of the records, inclusive). A waived finding stays in
every output, marked with its waiver; it does not count toward the exit code. An expired
waiver is not applied; a waiver that matches nothing is unused. Both are reported.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from auditor.findings import Finding, Waiver, changed
from auditor.identity import table_identity

if TYPE_CHECKING:
    from auditor.audit import AuditResult, InputSummary

CRITERIA = ("id", "citation", "table", "dealer", "file", "from", "until")


class WaiverFileError(Exception):
    """A waiver file that cannot be used; the message names the file and the line."""


class WaiverRule(BaseModel):
    """One `[[waiver]]` of the file."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    name: str | None = None
    id: str | None = None
    citation: str | None = None
    table: str | None = None
    dealer: str | None = None
    file: str | None = None
    from_date: date | None = Field(default=None, alias="from")
    until: date | None = None
    justification: str = Field(min_length=1)
    approved_by: str = Field(min_length=1)
    expires: date

    @field_validator("justification", "approved_by")
    @classmethod
    def _not_blank(cls, text: str) -> str:
        if not text.strip():
            raise ValueError("must not be blank")
        return text

    def criteria(self) -> dict[str, str]:
        named = {"id": self.id, "citation": self.citation, "table": self.table,
                 "dealer": self.dealer, "file": self.file,
                 "from": self.from_date and self.from_date.isoformat(),
                 "until": self.until and self.until.isoformat()}
        return {key: value for key, value in named.items() if value is not None}


class WaiverStatus(BaseModel):
    """A waiver as the run used it: applied, expired (not applied) or unused."""

    index: int
    line: int
    name: str | None
    status: Literal["applied", "expired", "unused"]
    matches: int  # findings it covers (an expired waiver: those it would have covered)
    justification: str
    approved_by: str
    expires: str
    matched_on: dict[str, str]


class LoadedWaiver(BaseModel):
    index: int
    line: int
    rule: WaiverRule


def load_waivers(path: str | Path) -> list[LoadedWaiver]:
    """The waivers of a file, or WaiverFileError naming the line at fault."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise WaiverFileError(f"{path}: cannot be read ({error})") from error
    return parse_waivers(text, str(path))


def parse_waivers(text: str, name: str = "<waivers>") -> list[LoadedWaiver]:
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        # tomllib says "… (at line L, column C)": lead with the line, as the other errors do.
        found = re.search(r"\(at line (\d+), column (\d+)\)", str(error))
        where = f"line {found.group(1)}: " if found else ""
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(error))
        raise WaiverFileError(f"{name}: {where}not valid TOML: {message}") from error
    others = sorted(set(document) - {"waiver"})
    if others:
        raise WaiverFileError(f"{name}: line {_key_line(text, others[0])}: unknown table or "
                              f"key {others[0]!r}; a waiver file holds [[waiver]] tables only")
    entries = document.get("waiver", [])
    if not isinstance(entries, list):
        raise WaiverFileError(f"{name}: line {_key_line(text, 'waiver')}: `waiver` must be "
                              "[[waiver]] tables")
    headers = _header_lines(text)
    loaded: list[LoadedWaiver] = []
    for index, entry in enumerate(entries, start=1):
        line = headers[index - 1] if index <= len(headers) else 1
        try:
            rule = WaiverRule.model_validate(entry)
        except ValidationError as error:
            problems = "; ".join(_problem_text(e) for e in error.errors())
            raise WaiverFileError(f"{name}: line {line}: waiver {index}: {problems}") from error
        if not rule.criteria():
            raise WaiverFileError(f"{name}: line {line}: waiver {index} names nothing to "
                                  f"match: give at least one of {', '.join(CRITERIA)}")
        if rule.from_date and rule.until and rule.from_date > rule.until:
            raise WaiverFileError(f"{name}: line {line}: waiver {index}: `from` is after "
                                  "`until`")
        loaded.append(LoadedWaiver(index=index, line=line, rule=rule))
    return loaded


def _problem_text(error: dict[str, Any]) -> str:
    field = ".".join(str(part) for part in error["loc"]) or "waiver"
    if error["type"] == "missing":
        return f"`{field}` is required"
    if error["type"] == "extra_forbidden":
        return f"`{field}` is not a waiver field (fields: name, {', '.join(CRITERIA)}, " \
               "justification, approved_by, expires)"
    return f"`{field}`: {error['msg']}"


_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*waiver[ \t]*\]\]")


def _header_lines(text: str) -> list[int]:
    """The line of each `[[waiver]]` header, in order: the n-th table starts on the n-th."""
    return [number for number, line in enumerate(text.splitlines(), start=1)
            if _HEADER.match(line)]


def _key_line(text: str, key: str) -> int:
    pattern = re.compile(rf"^[ \t]*\[*[ \t]*{re.escape(key)}\b")
    for number, line in enumerate(text.splitlines(), start=1):
        if pattern.match(line):
            return number
    return 1


def matches(rule: WaiverRule, finding: Finding, summary: InputSummary | None) -> bool:
    """Whether the finding is everything the waiver names."""
    if rule.id is not None and finding.id != rule.id:
        return False
    if rule.citation is not None and finding.citation != rule.citation:
        return False
    if rule.dealer is not None and finding.dealer != rule.dealer:
        return False
    if rule.table is not None:
        tables = {finding.table}
        if summary is not None:
            tables.add(table_identity(summary.licence, summary.casino, summary.table))
            tables.add(table_identity(None, summary.casino, summary.table))
        if rule.table not in tables:
            return False
    if rule.file is not None:
        files = {finding.file, Path(finding.file).name}
        if summary is not None and summary.sha256:
            files.add(summary.sha256)
        if rule.file not in files and rule.file.lower() not in files:
            return False
    if rule.from_date is not None or rule.until is not None:
        if not finding.date:
            return False
        try:
            day = date.fromisoformat(finding.date)
        except ValueError:
            return False
        if rule.from_date is not None and day < rule.from_date:
            return False
        if rule.until is not None and day > rule.until:
            return False
    return True


def apply_waivers(result: AuditResult, waivers: list[LoadedWaiver], today: date) -> None:
    """Mark the findings of a run held in memory that the unexpired waivers cover, in place,
    and record each waiver's status in the result (`Waiving`)."""
    waive = Waiving(waivers, result.inputs, today)
    findings = result.findings
    for place, finding in enumerate(findings):  # in place: each one replaced is freed at once
        findings[place] = waive(finding)
    result.waivers = waive.statuses()


class Waiving:
    """Marks findings, one at a time, with the first waiver in the file that covers them and
    is not expired, and counts each waiver's matches for its status.

    `today` is the date in UTC: a waiver holds through its `expires` day."""

    def __init__(self, waivers: list[LoadedWaiver], inputs: Iterable[InputSummary],
                 today: date) -> None:
        self.waivers, self.today = waivers, today
        self.summaries = {summary.path: summary for summary in inputs}
        self.counts = [0] * len(waivers)

    def __call__(self, finding: Finding) -> Finding:
        summary = self.summaries.get(finding.file)
        cover: Waiver | None = None
        for position, loaded in enumerate(self.waivers):
            if not matches(loaded.rule, finding, summary):
                continue
            self.counts[position] += 1
            if cover is None and loaded.rule.expires >= self.today:
                cover = _shown(loaded)
        return changed(finding, waiver=cover) if cover else finding

    def statuses(self) -> list[WaiverStatus]:
        today, counts = self.today, self.counts
        return [
            WaiverStatus(index=loaded.index, line=loaded.line, name=loaded.rule.name,
                         status=("expired" if loaded.rule.expires < today
                                 else "applied" if counts[position] else "unused"),
                         matches=counts[position], justification=loaded.rule.justification,
                         approved_by=loaded.rule.approved_by,
                         expires=loaded.rule.expires.isoformat(),
                         matched_on=loaded.rule.criteria())
            for position, loaded in enumerate(self.waivers)]


def _shown(loaded: LoadedWaiver) -> Waiver:
    rule = loaded.rule
    return Waiver(index=loaded.index, name=rule.name, justification=rule.justification,
                  approved_by=rule.approved_by, expires=rule.expires.isoformat(),
                  matched_on=rule.criteria())
