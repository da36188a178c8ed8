"""Stable finding IDs: what a finding is, in its own record, not where it stands in the file
nor which other files are audited with it.

An ID is `BJH-` and the first 16 hex digits of the SHA-256 of one UTF-8 text: the compact
JSON array (no spaces, non-ASCII characters as themselves, `null` for a missing field)

    ["bjh-finding-id/2", site, table, date, shoe, round, time, dealer, citation, seat, hand,
     statement, message, n]

- site, table: the file's header: its licence (or else its casino name), its table ID;
- date: the date of the finding's round: its `date=`, else its shoe's moved on a day
  each time the clock passed midnight (auditor/clock.py); auditors before that gave such
  a round its shoe's date, so only a finding of a round past midnight that gives no
  `date=` of its own has another ID than they gave it; shoe: the shoe's ID;
- round, time, dealer, citation, seat, hand: as in the finding (the time is the line's
  time stamp, else the last one before it in the round, else the round's `time=`);
- statement: the text of the line the finding stands on, its time stamp kept, its comment
  removed and runs of spaces and tabs made one space (null for a finding with no line,
  or on a line that could not be read); message: the finding's message when there is no
  statement, else null;
- n: 1, 2, … for findings of one file equal in everything above, in record order: counted
  within the file, never across the run, so the other files audited with it (and their
  names) cannot change an ID. Two files holding the same rounds (a record given twice)
  give them the same IDs: nothing in the record tells them apart.

Each field is a JSON string (or null), so no text in a record can make two different
findings one recipe. Nothing depends on line numbers or file names: blank lines, comments
and notes inserted into a record, CRLF line ends, tabs for spaces, or a renamed or moved
file leave every ID as it was. The `2` after the slash is the recipe's version: a change to
the recipe changes it, so old IDs are never silently reused (version 1 joined the fields
with `|` and counted `n` across the run).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from auditor.findings import Finding, changed
from auditor.gaming_day import DEFAULT as DEFAULT_CALENDAR
from auditor.gaming_day import Calendar

if TYPE_CHECKING:
    from auditor.results import AuditResult, InputSummary

RECIPE = "bjh-finding-id/2"
_SPACE = re.compile(r"[ \t]+")


def normalise_statement(text: str) -> str:
    """A statement as the ID sees it: its time stamp kept (a statement between rounds has
    no other time), no comment, single spaces."""
    text = _strip_comment(text).strip(" \t")
    return _SPACE.sub(" ", text).strip(" ")


def _strip_comment(text: str) -> str:
    """The line up to a `#` that is not inside a quoted string."""
    if "#" not in text:
        return text
    quoted = escaped = False
    for position, character in enumerate(text):
        if escaped:
            escaped = False
        elif quoted and character == "\\":
            escaped = True
        elif character == '"':
            quoted = not quoted
        elif character == "#" and not quoted:
            return text[:position]
    return text


def table_identity(licence: str | None, casino: str | None, table: str | None) -> str:
    """The table as waivers and summaries name it: `<licence or else casino>/<table ID>`."""
    return f"{licence or casino or ''}/{table or ''}"


Site = tuple[str | None, str | None]
"""A file's licence (or else casino) and table ID, as the ID recipe takes them."""


def identity_key(finding: Finding, site: Site) -> tuple[str | None, ...]:
    """Everything an ID depends on but the occurrence number."""
    statement = (finding.statement or None) if finding.line is not None else None
    return (*site, finding.date, finding.shoe, finding.round, finding.time, finding.dealer,
            finding.citation, finding.seat, finding.hand, statement,
            finding.message if statement is None else None)


def canonical_text(key: tuple[str | None, ...], occurrence: int) -> str:
    """The text the ID hashes: every field a JSON string or null, so none can be confused
    with its neighbours whatever it holds."""
    return json.dumps([RECIPE, *key, occurrence], ensure_ascii=False, separators=(",", ":"))


def finding_id(key: tuple[str | None, ...], occurrence: int) -> str:
    canonical = canonical_text(key, occurrence)
    return "BJH-" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16].upper()


class Identifier:
    """Gives findings their IDs one at a time, each file's in record order. What it keeps
    of each key it has seen is a digest with the file's name, for the occurrence numbers
    within that file: a month's findings are walked once, never held."""

    def __init__(self, sites: dict[str, Site], statements: dict[tuple[str, int], str] | None
                 = None) -> None:
        self.sites = sites  # a file's licence (or casino) and table ID, by path
        self.statements = statements or {}  # (file, line): the text of lines read again
        self.seen: Counter = Counter()

    @classmethod
    def of_inputs(cls, inputs: Iterable[InputSummary],
                  statements: dict[tuple[str, int], str] | None = None) -> Identifier:
        return cls({summary.path: (summary.licence or summary.casino or None, summary.table)
                    for summary in inputs}, statements)

    def __call__(self, finding: Finding) -> Finding:
        if finding.statement is None and (finding.file, finding.line) in self.statements:
            finding = finding.model_copy(
                update={"statement": self.statements[finding.file, finding.line]})
        key = identity_key(finding, self.sites.get(finding.file, (None, finding.table)))
        # The file's name only tells one file's count from another's; it is not in the ID.
        digest = hashlib.sha256(repr((finding.file, key)).encode("utf-8")).digest()[:16]
        self.seen[digest] += 1
        return changed(finding, id=finding_id(key, self.seen[digest]))


def apply_identity(result: AuditResult, calendar: Calendar = DEFAULT_CALENDAR) -> None:
    """Give every finding of a merged run held in memory its ID, its gaming day and shift
    (`calendar`) and the player at its seat (once, in the parent, before waivers and
    baselines look at the findings), in place: as `api.annotate_run` does in the store."""
    findings = result.findings
    identify = Identifier.of_inputs(result.inputs, read_statements(
        lines_without_statement(findings)))
    players = {(summary.path, line, seat): player
               for summary, tally in zip(result.inputs, result.tallies, strict=False)
               for line, seat, player in tally.seats}
    for place, finding in enumerate(findings):  # each one replaced is freed at once
        finding = calendar.stamp(identify(finding))
        player = players.get((finding.file, finding.line, finding.seat))
        findings[place] = finding if player is None else changed(finding, player=player)


def lines_without_statement(findings: Iterable[Finding]) -> dict[str, set[int]]:
    """The lines, by file, of findings whose statement the worker could not take (those of
    the checks across files, made in the parent)."""
    wanted: dict[str, set[int]] = {}
    for finding in findings:
        if finding.statement is None and finding.line is not None:
            wanted.setdefault(finding.file, set()).add(finding.line)
    return wanted


def read_statements(wanted: dict[str, set[int]]) -> dict[tuple[str, int], str]:
    """The normalised text of these lines of these files: only those lines are kept. A file
    that cannot be read leaves its findings' IDs to their messages, as for no line."""
    if not wanted:
        return {}
    from auditor.source import SourceFile, UnreadableFile

    texts: dict[tuple[str, int], str] = {}
    for file, lines in wanted.items():
        source = SourceFile(file)
        try:
            source.open_check()
            for number, text, _ in source.lines():
                if number in lines and text is not None:
                    texts[file, number] = normalise_statement(text)
        except (UnreadableFile, OSError):
            continue
    return texts
