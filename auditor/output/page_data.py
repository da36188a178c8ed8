"""The data behind report.html's script, in a <script type="application/json"> element:
every finding in a compact record (what the filters and the recomputed summaries need, and
what drawing it needs), the citations, the files, and in a large report the replays."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from json.encoder import c_make_encoder, encode_basestring_ascii
from typing import Any

from markupsafe import Markup

from auditor.findings import Finding
from auditor.gaming_day import Calendar, shift_shown, time_date
from auditor.output.formatting import no_replay_text, waiver_note
from auditor.report.groups import finding_item
from auditor.report.model import Report
from auditor.results import AuditResult, InputSummary

PAGE_SIZE = 25  # findings shown at once in a citation's group (JS pagination)
SUMMARY_TOP = 15  # rows of a long summary table shown (and printed) before "show all"


def script_json(document: Any) -> Markup:
    """JSON for a <script type="application/json"> element: <, > and & are written as
    \\u003c, \\u003e and \\u0026, so no text of a record can close the element or open
    another; JSON.parse reads them back as the characters they were."""
    return Markup(_script_text(document))


# `json.dumps(document, separators=(",", ":"))`, its C encoder made once: `dumps` with an
# option makes a new encoder at every call, and the page's data is one call per finding.
# (No check for a value that holds itself: the page's data is the auditor's own.)
_JSON = json.JSONEncoder(separators=(",", ":"))
_encode = (None if c_make_encoder is None else c_make_encoder(
    None, _JSON.default, encode_basestring_ascii, None, ":", ",", False, False, True))


def _script_text(document: Any) -> str:
    # ASCII (other characters as \\u escapes, U+2028 and U+2029 included, which a script
    # must not hold raw): a text holding one card suit takes two bytes a character in
    # Python, and a month's findings are megabytes of it.
    text = _JSON.encode(document) if _encode is None else "".join(_encode(document, 0))
    if "\\u20" in text or "\\u061" in text:  # bidi controls drawn by the script: markers
        text = _SCRIPT_BIDI.sub(_script_marker, text)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


# A bidi control as JSON writes it (ASCII): `\u202e` not itself preceded by a backslash
# (an even run of backslashes before it is escaped backslashes, not its own escape).
_SCRIPT_BIDI = re.compile(r"(?<!\\)((?:\\\\)*)\\u(061c|200e|200f|202[a-e]|206[6-9])")


def _script_marker(match: re.Match) -> str:
    return f"{match.group(1)}\\u27e6U+{match.group(2).upper()}\\u27e7"


def _put(record: dict[str, Any], key: str, value: Any) -> None:
    if value is not None and value != "" and value != ():
        record[key] = value


def finding_record(f: Finding, number: int, group: int, key: str, file: int,
                   replay: int | None, line: Any, no_replay: str,
                   texts: dict[str, int]) -> dict[str, Any]:
    """One finding as the page's script reads it: what the filters and the summary count
    (group, severity, table key, dealer, game, date, gaming day, shift, money) and what it shows.
    An object of short keys, absent when empty, so more fields (a waiver, a baseline) are
    added without changing the others."""
    record: dict[str, Any] = {"n": number, "g": group, "s": f.severity}
    for name, value in (("k", key), ("d", f.dealer), ("m", f.game), ("a", f.date),
                        ("h", shift_shown(f)), ("r", f.round), ("t", f.table),
                        ("p", f.player), ("gd", f.gaming_day),
                        ("o", f.hand or f.seat), ("tm", f.time), ("l", f.line),
                        ("c", f.column), ("msg", f.message), ("id", f.id),
                        ("ev", list(f.evidence)), ("rp", replay), ("b", f.baseline),
                        ("w", waiver_note(f.waiver) if f.waiver else None)):
        _put(record, name, value)
    record["f"] = file
    for name, amount in (("e", f.expected), ("u", f.actual), ("x", f.difference)):
        if amount is not None:
            record[name] = str(amount)
    _put(record, "cu", f.currency)  # absent: the table declares no currency
    on = time_date(f)
    if on != f.date:  # a time past midnight in a round begun before it: its own date
        record["td"] = on
    if line is not None:
        record["lt"] = [line.time, line.text]
    if no_replay:
        record["nr"] = texts.setdefault(no_replay, len(texts))
    return record


def replay_record(replay: dict[str, Any], file: int) -> dict[str, Any]:
    """A lean replay as data: the summary's facts, and each row as aligned text with the
    findings on it (fault rows with the whole table after them) and the evidence it shows."""
    rows = []
    for row in replay["rows"]:
        entry: list[Any] = [row.line, row.plain]
        if row.faults or row.supports:
            entry.append(list(row.supports))
        if row.faults:
            entry.append([[ref["ref"], ref["id"], ref["severity"], ref["citation"],
                           ref["message"]] for ref in row.faults])
            entry.append(list(row.state_lines))
        rows.append(entry)
    return {"n": replay["number"], "f": file, "rd": replay["round"],
            "a": replay["first_line"], "z": replay["last_line"], "k": replay["table"],
            "dt": replay["date"], "dl": replay["dealer"],
            "refs": [[ref["ref"], ref["id"], ref["severity"]] for ref in replay["findings"]],
            "rows": rows}


def scope_rounds(summary: InputSummary, calendar: Calendar) -> list[list] | None:
    """An input's rounds as a filter counts them: [dealer, date, gaming day, shift, read,
    audited] for each dealer and hour, the gaming day and shift the run's calendar gives
    (as its findings'), "" for none. None: the run did not keep them (an older run), so a
    filtered view can count only whole files."""
    if summary.round_counts is None:
        return None
    rows = []
    for dealer, stamp, read, audited in summary.round_counts:
        day, shift = calendar.of_stamp(stamp)
        date = stamp.partition(" ")[0] if stamp else ""
        rows.append([dealer or "", date, day or "", shift or "", read, audited])
    return rows


def report_data(report: Report, findings: Iterable[Finding], result: AuditResult,
                views: dict[int, dict[str, Any]], keys: dict[str, str],
                in_report: int) -> ReportData:
    """The compact data behind the page's script: every finding (filters, recomputed
    summaries, and, in a large report, drawing the shown ones), the citations, the files,
    and in a large report the replays (drawn when opened; `views`: each replay laid out,
    by its number). The findings are walked twice: to number the files and texts the
    records refer to (in the groups' order), then to make each record as it is written."""
    replays = report.replays
    calendar = Calendar.of_described(report.run.get("calendar"))
    files = [i.path for i in result.inputs]
    file_index = {path: index for index, path in enumerate(files)}
    group_of = {group.citation: group.index for group in report.groups}
    first_file: dict[str, tuple[int, int]] = {}  # where each is first met, in the groups
    first_text: dict[str, tuple[int, int]] = {}
    for number, finding in enumerate(findings, start=1):
        place = (group_of[finding.citation], number)
        file = finding.file
        if file not in file_index and (file not in first_file or place < first_file[file]):
            first_file[file] = place
        item = finding_item(finding, number, replays, keys)
        text = no_replay_text(item.no_replay, finding, in_report)
        if text and (text not in first_text or place < first_text[text]):
            first_text[text] = place
    for file in sorted(first_file, key=first_file.__getitem__):
        file_index[file] = len(files)
        files.append(file)
    texts = {text: index for index, text in
             enumerate(sorted(first_text, key=first_text.__getitem__))}
    head = _script_text({
        "pageSize": PAGE_SIZE, "lazy": report.lazy, "summaryTop": SUMMARY_TOP,
        "groups": [{"citation": g.citation, "title": g.title} for g in report.groups],
        "files": files, "texts": list(texts),
        # Each input (by position, as in `files`): what a filtered view's scope is made of,
        # with its first and last gaming days (what From and To pick), and its rounds by
        # dealer, date, gaming day and shift (`scope_rounds`).
        "inputs": [[i.table_key or i.table or "", i.game or "",
                    *(day or "" for day in i.gaming_days()), i.rounds, i.rounds_audited,
                    i.casino or "", i.licence or "", 1 if i.error else 0, i.currency or "",
                    scope_rounds(i, calendar)]
                   for i in result.inputs]})
    tail = _script_text([replay_record(views[r.number], file_index.get(r.file, 0))
                         for r in replays.shown] if report.lazy else [])

    def records() -> Iterator[str]:
        for number, finding in enumerate(findings, start=1):
            item = finding_item(finding, number, replays, keys)
            view = views[item.replay.number] if item.replay is not None else None
            line = view["text_of"].get(finding.line) if view is not None \
                and finding.line is not None else None
            yield _script_text(finding_record(
                finding, number, group_of[finding.citation], item.table_key,
                file_index[finding.file], item.replay.number - 1 if view else None, line,
                no_replay_text(item.no_replay, finding, in_report), texts))

    return ReportData(head, records, tail)


@dataclass
class ReportData:
    """The page's data as the text `script_json` gives the whole document (same keys, same
    order), made in parts: each finding's record is made as it is written (`parts`), so a
    month's findings are never one text, nor that text again as markup, in memory."""

    head: str
    records: Callable[[], Iterator[str]]  # each finding's record, in the run's order
    tail: str

    def parts(self) -> Iterator[str]:
        yield self.head[:-1] + ',"findings":['
        for place, record in enumerate(self.records()):
            yield ("," if place else "") + record
        yield '],"replays":' + self.tail + "}"

    def __html__(self) -> str:  # rendered whole (a template given the data itself)
        return "".join(self.parts())
