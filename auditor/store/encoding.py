"""How the store writes its documents: JSON text made the one way every row is written, and
a replay made the document the store keeps (the steps a case file may ask for, compressed).
Plain values in, text and bytes out: no database here."""

from __future__ import annotations

import json
import zlib
from bisect import bisect_right
from collections.abc import Iterable
from json.encoder import c_make_encoder, encode_basestring
from typing import Any

from auditor.findings import Finding
from auditor.replay.trace import RoundEvidence

# `json.dumps(value, ensure_ascii=False, separators=(",", ":"))`, its encoder made once:
# `dumps` with any option makes a new one at every call (a store writes thousands of texts),
# and so does `JSONEncoder.encode`, whose C encoder is here made once too (building it
# cost more than encoding a wager). No check for a value that holds
# itself: what the store encodes is made by the auditor, never a loop.
_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_encode = (None if c_make_encoder is None else c_make_encoder(
    None, _JSON.default, encode_basestring, None, ":", ",", False, False, True))


def _json(value: Any) -> str:
    if type(value) is str:
        return encode_basestring(value)
    if _encode is None:  # a Python without json's C encoder
        return _JSON.encode(value)
    return "".join(_encode(value, 0))


def _lines_asked(findings: Iterable[Finding], facts: dict[str, list]) -> set[int]:
    """The lines of a file a case file may ask a stored replay the table at (`case.model`):
    those of its findings, and of its facts, from which the findings across files are
    made (added once the replays are stored: `RunMerger.close`, auditor/run.py)."""
    asked = {finding.line for finding in findings}
    for items in facts.values():
        asked.update(getattr(fact, "line", None) for fact in items)
    asked.discard(None)
    return asked


def _steps_asked(steps: dict[int, Any], asked: Iterable[int] | None,
                 first: int, last: int | None) -> dict[int, Any]:
    """The steps a case file reads of a replay: for each line asked within the round, the
    table after the last statement up to it (`case.model._exhibit`); every step if `asked`
    is None. A step holds the whole table, so storing them all grew with the square of the
    round's length, and only these were ever read of a stored
    replay that has its changes."""
    if asked is None:
        return steps
    lines = sorted(steps)
    kept = set()
    for line in asked:
        if first <= line and (last is None or line <= last):
            at = bisect_right(lines, line)
            if at:
                kept.add(lines[at - 1])
    return {line: step for line, step in steps.items() if line in kept}


def _evidence_document(evidence: RoundEvidence, changes: dict[str, Any] | None = None,
                       asked: Iterable[int] | None = None) -> dict[str, Any]:
    """A replay as the store holds it; `asked`: the lines whose table a case file may show
    (`_steps_asked`), None for every step."""
    steps = _steps_asked(evidence.steps, asked, evidence.start_line, evidence.last_line)
    return {"file": evidence.file, "round_id": evidence.round_id,
            "start_line": evidence.start_line, "lines": evidence.lines,
            "steps": {str(line): step for line, step in steps.items()},
            # last, after the steps: what the report shows, read without them (`shown`)
            "changes": evidence.changes() if changes is None else changes}


def _compressed(document: dict[str, Any]) -> bytes:
    # Level 3: zlib's fast levels (1 to 3) take 40 % of level 6's work on a replay's JSON
    # (its steps repeat every hand), and 3 is as fast as 1 for less room. Any level reads
    # back the same (zlib.decompress), older rows and older code alike.
    return zlib.compress(_evidence_json(document).encode("utf-8"), 3)


_STEP_KEYS = ["hands", "dealer", "wagers", "players"]  # a step as replay/trace.py makes it
_REPLAY_KEYS = ["file", "round_id", "start_line", "lines", "steps", "changes"]  # as above


def _evidence_json(document: dict[str, Any]) -> str:
    """`_json(document)` of a replay (`_evidence_document`), each hand, wager and seating
    encoded once: a step shares them with the step before it (`trace.Snapshots`), and
    encoding the steps one by one encoded them again at every step. Only the
    layout of a step is written here; any other shape is left to `_json`."""
    steps = document.get("steps")
    if list(document) != _REPLAY_KEYS or type(steps) is not dict:
        return _json(document)
    encoded: dict[int, str] = {}  # by id: the entries live as long as the document

    def shared(entry: Any) -> str:
        text = encoded.get(id(entry))
        if text is None:
            text = encoded[id(entry)] = _json(entry)
        return text

    listed: dict[tuple, str] = {}  # by the ids of its entries: most steps change one
    lists: dict[int, str] = {}  # by the list's id: a step may hold the step before's

    def entries(items: list) -> str:
        text = lists.get(id(items))
        if text is None:
            key = tuple(map(id, items))
            text = listed.get(key)
            if text is None:  # an entry met before, looked up in place (most are)
                text = listed[key] = ",".join([encoded.get(id(item)) or shared(item)
                                               for item in items])
            lists[id(items)] = text
        return text

    def step_text(step: Any) -> str:
        if type(step) is not dict or list(step) != _STEP_KEYS or type(
                step["hands"]) is not list or type(step["wagers"]) is not list:
            return _json(step)
        return "".join(('{"hands":[', entries(step["hands"]), '],"dealer":',
                        shared(step["dealer"]), ',"wagers":[', entries(step["wagers"]),
                        '],"players":', shared(step["players"]), "}"))

    return "".join(('{"file":', _json(document["file"]), ',"round_id":',
                    _json(document["round_id"]), ',"start_line":',
                    _json(document["start_line"]), ',"lines":', _json(document["lines"]),
                    ',"steps":{', ",".join([_json(str(line)) + ":" + step_text(step)
                                             if type(line) is not int else
                                             f'"{line}":' + step_text(step)
                                             for line, step in steps.items()]), "}",
                    ',"changes":', _json(document["changes"]), "}"))
