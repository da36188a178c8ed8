"""Waivers: known findings accepted for a stated reason, until a date.

A waiver file is TOML, one `[[waiver]]` table per waiver:

    [[waiver]]
    citation = "20:18:15:30.10(12)"
    table = "RL-0412/T07"          # a table ID, or licence (or casino) / table ID
    justification = "pay table 1 misprinted on the layout; reprint ordered"
    approved_by = "J. Doe, compliance"
    expires = 2026-12-31           # holds until the end of that day, UTC

What a waiver covers is every finding that matches all it names: `id` (a finding's stable
ID), `citation` (one the rule base knows, in full or in the short form `auditor rules show`
reads: `06`, `30.10(4)`), `table`, `dealer`, `file` (the file's name or its path as given,
exactly, case and all, or its SHA-256), and `from`/`until` (gaming days, inclusive: a
finding at 01:00 on 11-01 is of the night of 10-31, as the report's From and To, `auditor
case --from/--until` and `auditor trends --since/--until` pick it; a run judged before
findings carried one: its calendar date). A waived finding stays in every output, marked
with its waiver; it does not count toward the exit code. An expired waiver is not applied;
a waiver that matches nothing is unused. Both are reported.

`expires`, `from` and `until` are dates (`2026-12-31`), never date-times: a waiver holds
through its `expires` day in UTC, and an offset or a time of day would say otherwise.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from auditor.findings import Finding, Waiver, changed
from auditor.gaming_day import day_counted
from auditor.identity import table_identity
from auditor.tomlfile import read_toml
from auditor.waiver_status import WaiverStatus  # the model the run keeps of each waiver

if TYPE_CHECKING:
    from auditor.results import AuditResult, InputSummary

CRITERIA = ("id", "citation", "table", "dealer", "file", "from", "until")
DATE_FIELDS = ("expires", "from", "until")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_SHA256 = re.compile(r"[0-9a-fA-F]{64}")


class WaiverFileError(Exception):
    """A waiver file that cannot be used; the message names the file and the line."""


class WaiverRule(BaseModel):
    """One `[[waiver]]` of the file."""

    # defer_build: built at first use, so an audit without a waiver file builds none of
    # this module's models (each costs more to build than a short audit's replay)
    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)

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

    @field_validator("expires", "from_date", "until", mode="before")
    @classmethod
    def _a_date(cls, value: Any) -> Any:
        """A TOML date (`2026-12-31`) or that text; a date-time is refused, not cut to its
        date: `2030-01-01T00:00:00+14:00` is another day in UTC."""
        if isinstance(value, datetime):
            raise ValueError(f"must be a date such as 2026-12-31, not the date-time "
                             f"{value.isoformat()}: a waiver holds through that day, UTC")
        if isinstance(value, date):
            return value
        if isinstance(value, str) and _DATE.fullmatch(value):
            return value  # a calendar date or not: the date type says
        raise ValueError("must be a date such as 2026-12-31")

    @field_validator("file")
    @classmethod
    def _sha_in_lower_case(cls, text: str | None) -> str | None:
        """A SHA-256 is compared as the digest it is; a name exactly as written."""
        return text.lower() if text is not None and _SHA256.fullmatch(text) else text

    def criteria(self) -> dict[str, str]:
        named = {"id": self.id, "citation": self.citation, "table": self.table,
                 "dealer": self.dealer, "file": self.file,
                 "from": self.from_date and self.from_date.isoformat(),
                 "until": self.until and self.until.isoformat()}
        return {key: value for key, value in named.items() if value is not None}


class LoadedWaiver(BaseModel):
    model_config = ConfigDict(defer_build=True)

    index: int
    line: int
    rule: WaiverRule


def load_waivers(path: str | Path) -> list[LoadedWaiver]:
    """The waivers of a file, or WaiverFileError naming the line at fault."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError) as error:  # ValueError: a NUL in the path
        raise WaiverFileError(f"{path}: cannot be read ({error})") from error
    return parse_waivers(text, str(path))


def parse_waivers(text: str, name: str = "<waivers>") -> list[LoadedWaiver]:
    document = read_toml(text, name, WaiverFileError, DATE_FIELDS)
    others = sorted(set(document) - {"waiver"})
    if others:
        raise WaiverFileError(f"{name}: line {_key_line(text, others[0])}: unknown table or "
                              f"key {others[0]!r}; a waiver file holds [[waiver]] tables only")
    entries = document.get("waiver", [])
    if not isinstance(entries, list):
        raise WaiverFileError(f"{name}: line {_key_line(text, 'waiver')}: `waiver` must be "
                              "[[waiver]] tables")
    headers = _header_lines(text)
    lines = text.splitlines()
    loaded: list[LoadedWaiver] = []
    for index, entry in enumerate(entries, start=1):
        line = headers[index - 1] if index <= len(headers) else 1
        block = lines[line - 1:headers[index] - 1] if index < len(headers) else lines[line - 1:]
        if not isinstance(entry, dict):
            raise WaiverFileError(f"{name}: line {line}: waiver {index} is not a table of "
                                  "fields")
        try:
            rule = WaiverRule.model_validate(entry)
        except ValidationError as error:
            errors = error.errors()
            # The line of the first field at fault, else (a field missing) the header's.
            at = line + _field_offset(block, str(errors[0]["loc"][0]) if errors[0]["loc"]
                                      else "")
            problems = "; ".join(_problem_text(e) for e in errors)
            raise WaiverFileError(f"{name}: line {at}: waiver {index}: {problems}") from error
        if rule.citation is not None:
            rule = rule.model_copy(update={"citation": known_citation(
                rule.citation, name, line + _field_offset(block, "citation"), index)})
        if not rule.criteria():
            raise WaiverFileError(f"{name}: line {line}: waiver {index} names nothing to "
                                  f"match: give at least one of {', '.join(CRITERIA)}")
        if rule.from_date and rule.until and rule.from_date > rule.until:
            raise WaiverFileError(f"{name}: line {line}: waiver {index}: `from` is after "
                                  "`until`")
        loaded.append(LoadedWaiver(index=index, line=line, rule=rule))
    return loaded


def known_citation(citation: str, name: str, line: int, index: int) -> str:
    """The rule base's citation a waiver names (its short form as `auditor rules show`
    reads it), or WaiverFileError naming the nearest: a waiver of a citation nothing
    checks would sit unused while its author believes it holds."""
    from auditor.rule_coverage import resolve_citation
    from auditor.rulebase import rule_entries

    citations = list(rule_entries())
    known = resolve_citation(citation, citations)
    if known is not None:
        return known
    nearest = nearest_citation(citation, citations)
    near = f"; the nearest is {nearest}" if nearest else ""
    raise WaiverFileError(f"{name}: line {line}: waiver {index}: `citation` {citation!r} is "
                          f"not in the rule base{near} (`auditor rules` lists them)")


def nearest_citation(citation: str, citations: list[str]) -> str | None:
    """The known citation closest to what was written: the same numbers with their
    leading zeros (`20:18:15:6` is 20:18:15:06); else one of the same form and the same
    numbers but the last, the nearest in that (`30.10(13)`: 30.10(12)); else the most
    alike as text, the first in the rule base's order on a tie; None if none is even half
    alike (`*`)."""
    def plain(text: str) -> str:
        return text.replace("¶", "").replace(" ", "").removeprefix("20:18:15:").lower()

    def numbers(text: str) -> list[int]:
        return [int(digits) for digits in re.findall(r"\d+", plain(text))]

    def form(text: str) -> str:
        return re.sub(r"\d+", "#", plain(text))

    wanted = numbers(citation)
    same_form = [known for known in citations if form(known) == form(citation)]
    for known in same_form:
        if numbers(known) == wanted:
            return known
    siblings = [known for known in same_form if wanted and numbers(known)[:-1] == wanted[:-1]]
    if siblings:
        return min(siblings, key=lambda known: abs(numbers(known)[-1] - wanted[-1]))
    likeness = [difflib.SequenceMatcher(None, plain(citation), plain(known)).ratio()
                for known in citations]
    best = max(likeness)
    return citations[likeness.index(best)] if best >= 0.5 else None


def _problem_text(error: dict[str, Any]) -> str:
    field = ".".join(str(part) for part in error["loc"]) or "waiver"
    if error["type"] == "missing":
        return f"`{field}` is required"
    if error["type"] == "value_error":  # our validators' words, without pydantic's prefix
        return f"`{field}` {error['msg'].removeprefix('Value error, ')}"
    if error["type"] == "extra_forbidden":
        return f"`{field}` is not a waiver field (fields: name, {', '.join(CRITERIA)}, " \
               "justification, approved_by, expires)"
    return f"`{field}`: {error['msg']}"


_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*waiver[ \t]*\]\]")


def _header_lines(text: str) -> list[int]:
    """The line of each `[[waiver]]` header, in order: the n-th table starts on the n-th."""
    return [number for number, line in enumerate(text.splitlines(), start=1)
            if _HEADER.match(line)]


def _field_offset(block: list[str], key: str) -> int:
    """How many lines after its header a waiver sets `key` (0: not found, the header)."""
    pattern = re.compile(rf"^[ \t]*\"?{re.escape(key)}\"?[ \t]*=")
    for offset, text in enumerate(block):
        if key and pattern.match(text):
            return offset
    return 0


def _key_line(text: str, key: str) -> int:
    """The line a top-level key or table is written on, bare or in quotes (`"extra" = 1`,
    `['other']`); 1 when it is not found as written (a key spelled with escapes)."""
    name = re.escape(key)
    pattern = re.compile(rf"^[ \t]*\[*[ \t]*(?:{name}(?![\w-])|\"{name}\"|'{name}')")
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
        if rule.file not in files:  # exactly: NIGHT.bjh is not night.bjh
            return False
    if rule.from_date is not None or rule.until is not None:
        counted = day_counted(finding)  # its gaming day, as every date a user picks
        if not counted:
            return False
        try:
            day = date.fromisoformat(counted)
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
