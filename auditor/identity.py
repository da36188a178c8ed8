"""Stable finding IDs: what a finding is, not where it stands in the file.

An ID is `BJH-` and the first 16 hex digits of the SHA-256 of one UTF-8 line:

    bjh-finding-id/1|<table identity>|<gaming date>|<round>|<citation>|<seat>|<hand>|<statement>|<n>

- table identity: `<licence or else casino>/<table ID>` from the file's header (either part
  empty if the header lacks it);
- gaming date: the `date=` of the finding's round, or of its shoe (empty if none);
- round, citation, seat, hand: as in the finding (empty if none);
- statement: the text of the line the finding stands on with its time stamp and comment
  removed and runs of spaces and tabs made one space; a finding with no line (about the
  whole file, or across files) uses its message instead;
- n: 1, 2, … for findings equal in everything above, in record order.

Nothing depends on line numbers or file names, so blank lines, comments and notes inserted
into a record, or a renamed file, leave every ID as it was. The `1` after the slash is the
recipe's version: a change to the recipe changes it, so old IDs are never silently reused.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from auditor.findings import Finding, changed

if TYPE_CHECKING:
    from auditor.audit import AuditResult, InputSummary

RECIPE = "bjh-finding-id/1"
_TIME_STAMP = re.compile(r"^\d{2}:\d{2}:\d{2}(?:\.\d+)?(?=[ \t]|$)")
_SPACE = re.compile(r"[ \t]+")


def normalise_statement(text: str) -> str:
    """A statement as the ID sees it: no time stamp, no comment, single spaces."""
    text = _strip_comment(text).strip(" \t")
    text = _TIME_STAMP.sub("", text)
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
    return f"{licence or casino or ''}/{table or ''}"


def identity_key(finding: Finding, table: str) -> tuple[str, ...]:
    """Everything an ID depends on but the occurrence number."""
    statement = finding.statement if finding.line is not None else None
    return (table, finding.date or "", finding.round or "", finding.citation,
            finding.seat or "", finding.hand or "",
            statement or finding.message)


def finding_id(key: tuple[str, ...], occurrence: int) -> str:
    canonical = "|".join((RECIPE, *key, str(occurrence)))
    return "BJH-" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16].upper()


def assign_ids(findings: Iterable[Finding], tables: dict[str, str]) -> list[Finding]:
    """Every finding with its ID; `tables` maps a file to its table identity. Findings must
    be in record order (as `audit.merge` sorts them) for the occurrence numbers."""
    identify = Identifier(tables)
    return [identify(finding) for finding in findings]


class Identifier:
    """Gives findings their IDs one at a time, in record order. What it keeps of each key it
    has seen is a digest, for the occurrence numbers: a month's findings are walked once,
    never held."""

    def __init__(self, tables: dict[str, str], statements: dict[tuple[str, int], str] | None
                 = None) -> None:
        self.tables = tables  # a file's table identity, by path
        self.statements = statements or {}  # (file, line): the text of lines read again
        self.seen: Counter = Counter()

    @classmethod
    def of_inputs(cls, inputs: Iterable[InputSummary],
                  statements: dict[tuple[str, int], str] | None = None) -> Identifier:
        return cls({summary.path: table_identity(summary.licence, summary.casino,
                                                 summary.table) for summary in inputs},
                   statements)

    def __call__(self, finding: Finding) -> Finding:
        if finding.statement is None and (finding.file, finding.line) in self.statements:
            finding = finding.model_copy(
                update={"statement": self.statements[finding.file, finding.line]})
        key = identity_key(finding, self.tables.get(finding.file, "/" + (finding.table or "")))
        digest = hashlib.sha256(repr(key).encode("utf-8")).digest()[:16]
        self.seen[digest] += 1
        return changed(finding, id=finding_id(key, self.seen[digest]))


def apply_identity(result: AuditResult) -> None:
    """Give every finding of a merged run held in memory its ID (once, in the parent,
    before waivers and baselines look at the findings), in place."""
    findings = result.findings
    identify = Identifier.of_inputs(result.inputs, read_statements(
        lines_without_statement(findings)))
    for place, finding in enumerate(findings):  # each one replaced is freed at once
        findings[place] = identify(finding)


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
