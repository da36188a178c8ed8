"""Runs in the store: recording an audit as it goes, listing runs, reading one back.

A run is recorded in three steps so that a killed audit leaves a trace: `begin_run` (status
`running`), `record_result` (inputs, findings, coverage, replays), `finish_run` (status
`finished`, the exit code and the finishing time). A run that never finished keeps the
status `running`; it is listed as unfinished and never taken as a baseline.
"""

from __future__ import annotations

import json
import zlib
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import suppress
from dataclasses import dataclass
from decimal import Decimal
from json.encoder import c_make_encoder, encode_basestring
from typing import Any

from sqlalchemy import Engine, bindparam, case, func, insert, select, update
from sqlalchemy.exc import IntegrityError

import auditor.store.schema as schema
from auditor.batches import batched
from auditor.findings import Finding
from auditor.gaming_day import DEFAULT as DEFAULT_CALENDAR
from auditor.gaming_day import Calendar, shift_shown
from auditor.money import MoneyTotals
from auditor.replay.changes import read_back
from auditor.replay.trace import RoundEvidence
from auditor.results import AuditResult, FileResult, InputSummary
from auditor.run import ReplaySelection, RunTotals
from auditor.store.engine import reading
from auditor.store.tallies import record_tallies, record_tally
from auditor.tally import shift_of
from auditor.waiver_status import WaiverStatus

RUNNING, FINISHED = "running", "finished"
_BATCH = 1000  # rows inserted per statement
_JUDGED_AT_ONCE = 500  # findings read, judged and written back at a time (an IN list)


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



def begin_run(engine: Engine, run: dict[str, Any], settings: dict[str, Any]) -> int:
    """Record that a run has begun; its ID."""
    with engine.begin() as connection:
        row = connection.execute(insert(schema.runs).values(
            tool_version=run["version"], rule_base=run["rule_base"], command=run["command"],
            started=run["started"], status=RUNNING, settings=_json(settings),
            document=_json(run), extras=_json({})).returning(schema.runs.c.id)).one()
    return row.id


class RunRecorder:
    """Records a run's files as each one finishes, in any order, so that the parent holds no
    file's findings or replays once they are stored: what it keeps is `RunTotals` (inputs,
    rounds judged, cross-file facts) and which replays the run keeps (`ReplaySelection`).
    `close` adds the findings that judge across files and the coverage."""

    def __init__(self, engine: Engine, run_id: int, paths: list[str],
                 calendar: Calendar = DEFAULT_CALENDAR,
                 recorded: dict[str, RoundEvidence] | None = None) -> None:
        self.engine = engine
        # if given: what the report shows of each replay kept (`load_result`'s `recorded`)
        self.shown_replays = recorded
        self.calendar = calendar  # the gaming days the tallies are stored by
        self.run_id = run_id
        self.totals = RunTotals(paths)
        self.replays = ReplaySelection()
        self.recorded = 0  # findings so far: the next one's position

    def add(self, place: int, result: FileResult) -> None:
        # The file's first and last gaming days, by this run's calendar, from the hours its
        # rounds were dealt in (`auditor case --from/--until` picks inputs by them).
        summary = result.summary
        summary.first_gaming_day, summary.last_gaming_day = self.calendar.span(
            stamp for _, stamp, _ in result.tally.rounds)
        self.totals.add(place, result)
        kept, dropped = self.replays.offer(place, result)
        findings = sorted(result.findings, key=Finding.sort_key)
        with self.engine.begin() as connection:
            _record_input(connection, self.run_id, place, result.summary)
            # for `auditor trends`, in gaming days
            record_tally(connection, self.run_id, place, result.tally, self.calendar)
            self._record_findings(connection, findings, {result.summary.path: place})
            if dropped:
                table = schema.replays
                connection.execute(table.delete().where(
                    table.c.run_id == self.run_id, table.c.round_key.in_(sorted(dropped))))
            asked = _lines_asked(result.findings, result.facts) if kept else set()
            rows = ({"run_id": self.run_id, "round_key": key, "input_position": place,
                     "start_line": result.evidence[key].start_line,
                     "document": self._replay_document(key, result.evidence[key], asked)}
                    for key in kept)
            for batch in batched(rows, _BATCH):
                connection.execute(insert(schema.replays), batch)
        if dropped and self.shown_replays is not None:  # after the commit: as the store holds
            for key in dropped:
                self.shown_replays.pop(key, None)

    def _replay_document(self, key: str, evidence: RoundEvidence, asked: set[int]) -> bytes:
        """The stored replay; its changes made once, for the store and, kept in `recorded`,
        for the report (which then neither reads nor decodes it again)."""
        changes = evidence.changes()
        if self.shown_replays is not None:
            self.shown_replays[key] = RoundEvidence(evidence.file, evidence.round_id,
                                               evidence.start_line, evidence.lines,
                                               recorded_changes=changes)
        return _compressed(_evidence_document(evidence, changes, asked))

    def close(self) -> None:
        """The findings judged across files, and the rounds each citation judged."""
        places = self.totals.place_of()
        with self.engine.begin() as connection:
            self._record_findings(connection, self.totals.cross_file_findings(), places)
            coverage = [{"run_id": self.run_id, "citation": citation, "rounds": rounds}
                        for citation, rounds in self.totals.applied.items()]
            if coverage:
                connection.execute(insert(schema.coverage), coverage)

    def _record_findings(self, connection, findings: list[Finding],
                         places: dict[str, int]) -> None:
        rows = (_finding_row(self.run_id, self.recorded + number, finding,
                             places.get(finding.file, len(places)))
                for number, finding in enumerate(findings))
        for batch in batched(rows, _BATCH):
            connection.execute(insert(schema.findings), batch)
        self.recorded += len(findings)


def record_result(engine: Engine, run_id: int, result: AuditResult) -> None:
    """A whole audit's merged result (inputs, findings, coverage, replays) in one go."""
    places = {summary.path: place for place, summary in enumerate(result.inputs)}
    with engine.begin() as connection:
        for place, summary in enumerate(result.inputs):
            _record_input(connection, run_id, place, summary)
        rows = (_finding_row(run_id, number, finding, places.get(finding.file, len(places)))
                for number, finding in enumerate(result.findings))
        for batch in batched(rows, _BATCH):
            connection.execute(insert(schema.findings), batch)
        coverage = [{"run_id": run_id, "citation": citation, "rounds": rounds}
                    for citation, rounds in result.applied.items()]
        if coverage:
            connection.execute(insert(schema.coverage), coverage)
        asked: dict[str, set[int]] = {}  # by file
        for finding in result.findings:
            if finding.line is not None:
                asked.setdefault(finding.file, set()).add(finding.line)
        replays = ({"run_id": run_id, "round_key": key, "start_line": evidence.start_line,
                    "input_position": places.get(evidence.file, len(places)),
                    "document": _compressed(_evidence_document(
                        evidence, asked=asked.get(evidence.file, set())))}
                   for key, evidence in result.evidence.items())
        for batch in batched(replays, _BATCH):
            connection.execute(insert(schema.replays), batch)
        record_tallies(connection, run_id, result.tallies)  # what `auditor trends` reads


def _record_input(connection, run_id: int, place: int, summary: InputSummary) -> None:
    input_id = _input_id(connection, summary) if summary.sha256 else None
    connection.execute(insert(schema.run_inputs).values(
        run_id=run_id, position=place, input_id=input_id, path=summary.path,
        rounds_audited=summary.rounds_audited, error=summary.error,
        document=_json(summary.model_dump(mode="json"))))


def finish_run(engine: Engine, run_id: int, run: dict[str, Any], exit_code: int,
               extras: dict[str, Any] | None = None) -> None:
    with engine.begin() as connection:
        connection.execute(update(schema.runs).where(schema.runs.c.id == run_id).values(
            status=FINISHED, finished=run["finished"], exit_code=exit_code,
            document=_json(run), extras=_json(extras or {})))


def _input_id(connection, summary: InputSummary) -> int:
    """The row of this content, added the first time it is audited."""
    table = schema.inputs
    found = connection.execute(
        select(table.c.id).where(table.c.sha256 == summary.sha256)).scalar()
    if found is not None:
        return found
    values = dict(sha256=summary.sha256, table_id=summary.table, game=summary.game,
                  casino=getattr(summary, "casino", None),
                  licence=getattr(summary, "licence", None),
                  first_date=summary.first_date, last_date=summary.last_date,
                  lines=summary.lines, rounds=summary.rounds)
    try:
        with connection.begin_nested():
            return connection.execute(
                insert(table).values(**values).returning(table.c.id)).scalar_one()
    except IntegrityError:  # another audit added the same content meanwhile
        return connection.execute(
            select(table.c.id).where(table.c.sha256 == summary.sha256)).scalar_one()


def _cents(amount: Decimal | None) -> int | None:
    return None if amount is None else int(amount.scaleb(2))


def order_key(finding: Finding) -> bytes:
    """`Finding.sort_key` within one input as bytes that every backend compares as Python
    compares the key: the line as 8 big-endian bytes, then citation, seat and hand in UTF-8
    (byte order is code point order), each ended by a NUL (a prefix sorts first)."""
    text = "\0".join((finding.citation, finding.seat or "", finding.hand or "")) + "\0"
    return (finding.line or 0).to_bytes(8, "big") + text.encode("utf-8")


def _finding_row(run_id: int, position: int, finding: Finding,
                 input_position: int) -> dict[str, Any]:
    return {
        "run_id": run_id, "position": position, "input_position": input_position,
        "order_key": order_key(finding), "finding_id": getattr(finding, "id", None),
        "citation": finding.citation, "severity": finding.severity, "file": finding.file,
        "line": finding.line, "round_id": finding.round, "table_id": finding.table,
        "dealer": finding.dealer, "date": finding.date, "shift": shift_of(finding.time),
        "expected_cents": _cents(finding.expected), "actual_cents": _cents(finding.actual),
        "difference_cents": _cents(finding.difference), "currency": finding.currency,
        "waived": getattr(finding, "waiver", None) is not None,
        "baseline": getattr(finding, "baseline", None),
        "document": _json(finding.as_dict()), "statement": finding.statement,
    }


def _lines_asked(findings: Iterable[Finding], facts: dict[str, list]) -> set[int]:
    """The lines of a file a case file may ask a stored replay the table at (`case.model`):
    those of its findings, and of its facts, from which the findings across files are
    made (added once the replays are stored: `RunRecorder.close`)."""
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


# A replay whose JSON is longer than this is read with its shared entries (_SharedEntries);
# a shorter one, read one at a time (the report holds one while it draws it), stays small
# without them, and their hook in Python costs four times the decoding.
_SHARED_OVER = 1 << 20


class _SharedEntries:
    """A JSON object hook that gives equal objects one Python object, as the replay had them
    before it was stored: a step shares with the step before it every hand, wager and seat
    that did not change (`Snapshots`). Read back without it, a long replay takes ten times
    the memory. Objects are compared by their items, nested objects by identity (they were
    made one already) and lists by their contents."""

    def __init__(self) -> None:
        self.seen: dict[tuple, dict[str, Any]] = {}

    def __call__(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        key = tuple((name, self._key(value)) for name, value in pairs)
        found = self.seen.get(key)
        if found is None:
            found = self.seen[key] = dict(pairs)
        return found

    def _key(self, value: Any) -> Any:
        if isinstance(value, dict):
            return ("object", id(value))
        if isinstance(value, list):
            return ("list", *map(self._key, value))
        return value


@dataclass(frozen=True)
class StoredReplay:
    """A stored replay as a run is read back: where its round is. A night records hundreds
    of replays, a month thousands, and the report shows a few hundred
    (report/replays.py): only those are read again, the report's without their steps
    (`shown`), the case file's whole (`whole`), so memory does not grow with the replays a
    run recorded."""

    file: str
    round_id: str
    start_line: int
    last_line: int | None
    key: str
    reader: _ReplayReader
    # what the report shows of it, as this process recorded it (`load_result`)
    known: RoundEvidence | None = None

    @classmethod
    def recorded(cls, key: str, shown: RoundEvidence, reader: _ReplayReader) -> StoredReplay:
        return cls(shown.file, shown.round_id, shown.start_line, shown.last_line, key,
                   reader, shown)

    @classmethod
    def of(cls, key: str, document: bytes, reader: _ReplayReader) -> StoredReplay:
        text = zlib.decompress(document)
        # Where the round is stands before its steps, the bulk of the document (see
        # _evidence_document): only that part is decoded. No JSON string can hold the
        # bytes `,"steps":` (its quotes would be escaped), so the first is the key.
        steps = text.find(b',"steps":')
        found = json.loads(text[:steps] + b"}" if steps > 0 else text)
        lines = found["lines"]
        return cls(found["file"], found["round_id"], found["start_line"],
                   lines[-1][0] if lines else None, key, reader)

    def whole(self) -> RoundEvidence:
        return _whole(zlib.decompress(self.reader.document(self.key)))

    def changes(self) -> dict[str, Any]:
        return self.shown().changes()

    def shown(self) -> RoundEvidence:
        """The round's lines and what each changed (`replay.changes`), the steps not read: a
        replay stored before the changes were is read whole, its changes made from it."""
        if self.known is not None:
            return self.known
        text = zlib.decompress(self.reader.document(self.key))
        # No JSON string holds `,"steps":` or `,"changes":` (its quotes would be escaped):
        # the first is the key of the steps, and the last the key of the changes, which
        # come after them and hold no object.
        steps, changes = text.find(b',"steps":'), text.rfind(b',"changes":')
        if steps < 0 or changes < steps:
            return _whole(text)
        found = json.loads(text[:steps] + b"}")
        found["steps"] = {}
        evidence = _evidence(found)
        evidence.recorded_changes = read_back(json.loads(b"{" + text[changes + 1:])["changes"])
        return evidence


def _whole(text: bytes) -> RoundEvidence:
    if len(text) <= _SHARED_OVER:  # the common replay: read at the decoder's speed
        return _evidence(json.loads(text))
    return _evidence(json.loads(text, object_pairs_hook=_SharedEntries()))


class _ReplayReader:
    """Reads one stored replay of a run again, by its round key."""

    def __init__(self, engine: Engine, run_id: int) -> None:
        self.engine, self.run_id = engine, run_id
        replays = schema.replays
        self.select = select(replays.c.document).where(  # made once: hundreds are read
            replays.c.run_id == run_id, replays.c.round_key == bindparam("key"))

    def document(self, key: str) -> bytes:
        with reading(self.engine).connect() as connection:
            return connection.execute(self.select, {"key": key}).scalar_one()


def _evidence(document: dict[str, Any]) -> RoundEvidence:
    return RoundEvidence(document["file"], document["round_id"], document["start_line"],
                         [(number, text) for number, text in document["lines"]],
                         {int(line): step for line, step in document["steps"].items()})


# ---- reading runs back ----

@dataclass(frozen=True)
class RunRow:
    """One run as `auditor runs` lists it."""

    id: int
    started: str
    finished: str | None
    status: str
    exit_code: int | None
    command: str
    inputs: int
    rounds: int
    findings: int
    high: int
    medium: int
    low: int
    waived: int

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def list_runs(engine: Engine, run_ids: Iterable[int] | None = None) -> list[RunRow]:
    """Every run (or those named), oldest first, with its counts."""
    runs, inputs, findings = schema.runs, schema.run_inputs, schema.findings
    input_counts = (select(inputs.c.run_id, func.count().label("inputs"),
                           func.coalesce(func.sum(schema.inputs.c.rounds), 0).label("rounds"))
                    .select_from(inputs.outerjoin(schema.inputs,
                                                  inputs.c.input_id == schema.inputs.c.id))
                    .group_by(inputs.c.run_id).subquery())
    def how_many(condition) -> Any:
        return func.sum(case((condition, 1), else_=0))

    severity = findings.c.severity
    finding_counts = (select(
        findings.c.run_id, func.count().label("findings"),
        how_many(severity == "high").label("high"),
        how_many(severity == "medium").label("medium"),
        how_many(severity == "low").label("low"),
        how_many(findings.c.waived.is_(True)).label("waived"))
        .group_by(findings.c.run_id).subquery())
    query = (select(runs.c.id, runs.c.started, runs.c.finished, runs.c.status,
                    runs.c.exit_code, runs.c.command,
                    func.coalesce(input_counts.c.inputs, 0),
                    func.coalesce(input_counts.c.rounds, 0),
                    *(func.coalesce(finding_counts.c[name], 0)
                      for name in ("findings", "high", "medium", "low", "waived")))
             .select_from(runs.outerjoin(input_counts, input_counts.c.run_id == runs.c.id)
                          .outerjoin(finding_counts, finding_counts.c.run_id == runs.c.id))
             .order_by(runs.c.id))
    if run_ids is not None:
        query = query.where(runs.c.id.in_(list(run_ids)))
    with reading(engine).connect() as connection:
        return [RunRow(*(int(v) if isinstance(v, Decimal) else v for v in row))
                for row in connection.execute(query)]


def run_document(engine: Engine, run_id: int) -> dict[str, Any]:
    """The run as findings.json's "auditor" object; KeyError if there is no such run."""
    with reading(engine).connect() as connection:
        row = connection.execute(select(schema.runs.c.document, schema.runs.c.extras)
                                 .where(schema.runs.c.id == run_id)).one_or_none()
    if row is None:
        raise KeyError(run_id)
    return json.loads(row.document)


def run_inputs_documents(engine: Engine, run_id: int) -> list[dict[str, Any]]:
    """The run's inputs in their order, as findings.json shows them."""
    with reading(engine).connect() as connection:
        return [json.loads(text) for text in connection.execute(
            select(schema.run_inputs.c.document).where(schema.run_inputs.c.run_id == run_id)
            .order_by(schema.run_inputs.c.position)).scalars()]


def run_extras(engine: Engine, run_id: int) -> dict[str, Any]:
    with reading(engine).connect() as connection:
        text = connection.execute(select(schema.runs.c.extras)
                                  .where(schema.runs.c.id == run_id)).scalar_one()
    return json.loads(text)


def finding_documents(engine: Engine, run_id: int) -> Iterator[dict[str, Any]]:
    """The run's findings in their order, as findings.json shows them, read in batches."""
    table = schema.findings
    query = _in_run_order(select(table.c.document).where(table.c.run_id == run_id)
                          ).execution_options(yield_per=_BATCH)
    with reading(engine).connect() as connection:
        for document in connection.execute(query).scalars():
            yield json.loads(document)


def load_result(engine: Engine, run_id: int,
                recorded: dict[str, RoundEvidence] | None = None
                ) -> tuple[AuditResult, dict[str, Any]]:
    """A stored run as the outputs read it: its findings are read from the store each time
    they are walked (`StoredFindings`), never held whole, and its replays only when shown.
    `recorded`: what this process recorded of the run's replays (`RunRecorder`), shown as
    it is rather than read back and decoded (the same lines and changes)."""
    run = run_document(engine, run_id)
    inputs = [InputSummary.model_validate(document)
              for document in run_inputs_documents(engine, run_id)]
    with reading(engine).connect() as connection:
        applied = Counter({row.citation: row.rounds for row in connection.execute(
            select(schema.coverage).where(schema.coverage.c.run_id == run_id))})
        replays = schema.replays
        reader = _ReplayReader(engine, run_id)
        order = (replays.c.input_position, replays.c.start_line, replays.c.round_key)
        if recorded is None:
            evidence = {row.round_key: StoredReplay.of(row.round_key, row.document, reader)
                        for row in connection.execute(
                            select(replays).where(replays.c.run_id == run_id)
                            .order_by(*order))}
        else:  # a replay not recorded here (none, as the audit runs) is read back
            evidence = {key: StoredReplay.recorded(key, recorded[key], reader)
                        if key in recorded else
                        StoredReplay.of(key, connection.execute(reader.select, {"key": key})
                                        .scalar_one(), reader)
                        for key in connection.execute(
                            select(replays.c.round_key).where(replays.c.run_id == run_id)
                            .order_by(*order)).scalars().all()}
    result = AuditResult(inputs, StoredFindings(engine, run_id, {i.path: i.currency
                                                                 for i in inputs}),
                         applied, evidence)
    extras = run_extras(engine, run_id)
    result.waivers = [WaiverStatus.model_validate(w) for w in extras.get("waivers", [])]
    result.resolved = extras.get("resolved")
    result.patterns = extras.get("patterns")
    return result, run


def _in_run_order(query, table=schema.findings):
    return query.order_by(table.c.input_position, table.c.order_key, table.c.position)


def _finding_of(row, currencies: dict[str, str | None] | None = None) -> Finding:
    text = row.document
    # A finding's JSON, its statement put in as the first key, validated as JSON text in
    # one step (a third of the time of decoding it, then validating the dict; the outputs
    # walk the run's findings seven times). `"key":` is found only as a key: in a string it
    # would be written `\"key\":`.
    if '"currency":' in text and '"statement":' not in text:
        statement = "null" if row.statement is None else encode_basestring(row.statement)
        with suppress(ValueError):  # text that is not UTF-8 (a lone surrogate): as below
            return Finding.model_validate_json(f'{{"statement":{statement},{text[1:]}')
    document = json.loads(text)
    if currencies and "currency" not in document:  # stored before findings carried it
        document["currency"] = currencies.get(document.get("file"))
    return Finding.model_validate({**document, "statement": row.statement})


class StoredFindings(Sequence):
    """A run's findings in the run's order, read from the store in batches each time they
    are walked: what the outputs are written from, so that a month's findings are never in
    memory at once. Walk it as a list (`for`, `len`); indexing reads the whole run."""

    def __init__(self, engine: Engine, run_id: int,
                 currencies: dict[str, str | None] | None = None) -> None:
        self.engine, self.run_id = engine, run_id
        self.currencies = currencies  # by file: the currency of a finding stored without
        table = schema.findings
        with reading(engine).connect() as connection:
            self.count = connection.execute(
                select(func.count()).select_from(table).where(table.c.run_id == run_id)
            ).scalar_one()

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Finding]:
        table = schema.findings
        query = _in_run_order(select(table.c.document, table.c.statement)
                              .where(table.c.run_id == self.run_id)
                              ).execution_options(yield_per=_BATCH)
        with reading(self.engine).connect() as connection:
            for row in connection.execute(query):
                yield _finding_of(row, self.currencies)

    def __getitem__(self, index):  # rare (a test, a caller of the list API): reads them all
        return list(self)[index]


def judge_findings(engine: Engine, run_id: int, judge: Callable[[Finding], Finding]) -> None:
    """Each of the run's findings, in the run's order, replaced in the store by what `judge`
    makes of it (its stable ID, waiver, baseline mark): one transaction, a batch of
    findings in memory at a time."""
    table = schema.findings
    with engine.begin() as connection:
        positions = list(connection.execute(_in_run_order(
            select(table.c.position).where(table.c.run_id == run_id))).scalars())
        change = (update(table).where(table.c.run_id == run_id,
                                      table.c.position == bindparam("at"))
                  .values(finding_id=bindparam("finding_id"), waived=bindparam("waived"),
                          baseline=bindparam("baseline"), document=bindparam("document"),
                          statement=bindparam("statement"), date=bindparam("day"),
                          shift=bindparam("shift")))
        for start in range(0, len(positions), _JUDGED_AT_ONCE):
            batch = positions[start:start + _JUDGED_AT_ONCE]
            rows = {row.position: row for row in connection.execute(
                select(table.c.position, table.c.document, table.c.statement)
                .where(table.c.run_id == run_id, table.c.position.in_(batch)))}
            updates = []
            for position in batch:
                finding = judge(_finding_of(rows[position]))
                updates.append({"at": position, "finding_id": finding.id,
                                "waived": finding.waiver is not None,
                                "baseline": finding.baseline,
                                "document": _json(finding.as_dict()),
                                "statement": finding.statement,
                                # trends count by gaming day (auditor/gaming_day.py)
                                "day": finding.gaming_day or finding.date,
                                "shift": shift_shown(finding)})
            connection.execute(change, updates)


def missing_statements(engine: Engine, run_id: int) -> dict[str, set[int]]:
    """The lines, by file, of the findings recorded without their statement (those judged
    across files, in the parent): what their IDs need read from the records."""
    table = schema.findings
    wanted: dict[str, set[int]] = {}
    with reading(engine).connect() as connection:
        for row in connection.execute(select(table.c.file, table.c.line).where(
                table.c.run_id == run_id, table.c.statement.is_(None),
                table.c.line.is_not(None))):
            wanted.setdefault(row.file, set()).add(row.line)
    return wanted


def run_extras_of(result: AuditResult) -> dict[str, Any]:
    """What findings.json holds of the run beyond its inputs and findings: the waivers with
    their use, the findings resolved since the baseline and the patterns against it."""
    return {"waivers": [waiver.model_dump(mode="json") for waiver in result.waivers],
            "resolved": result.resolved, "patterns": result.patterns}


def run_inputs_sha256(engine: Engine, run_id: int) -> frozenset[str]:
    with reading(engine).connect() as connection:
        return frozenset(connection.execute(
            select(schema.inputs.c.sha256).join(
                schema.run_inputs, schema.run_inputs.c.input_id == schema.inputs.c.id)
            .where(schema.run_inputs.c.run_id == run_id)).scalars())


def latest_run_over(engine: Engine, sha256s: Iterable[str],
                    before: int | None = None) -> int | None:
    """The latest finished run (before run `before`, if given) whose inputs are exactly these
    contents: what `--baseline last` compares with."""
    wanted = frozenset(sha256s)
    runs = schema.runs
    query = select(runs.c.id).where(runs.c.status == FINISHED).order_by(runs.c.id.desc())
    if before is not None:
        query = query.where(runs.c.id < before)
    with reading(engine).connect() as connection:
        candidates = list(connection.execute(query).scalars())
    for run_id in candidates:
        if run_inputs_sha256(engine, run_id) == wanted:
            return run_id
    return None


def diff_runs(engine: Engine, earlier: int, later: int) -> dict[str, Any]:
    """Findings of `later` that are new or persisting against `earlier`, and those of
    `earlier` that are resolved, matched by stable ID with multiplicity; and the money of
    each (`money`: per status, one row per currency, never added across currencies)."""
    remaining = Counter(d.get("id") for d in finding_documents(engine, earlier))
    new, persisting = [], []
    for document in _with_currency(engine, later, finding_documents(engine, later)):
        key = document.get("id")
        if key is not None and remaining[key] > 0:
            remaining[key] -= 1
            persisting.append(document)
        else:
            new.append(document)
    resolved = []
    for document in _with_currency(engine, earlier, finding_documents(engine, earlier)):
        key = document.get("id")
        if remaining[key] > 0:
            remaining[key] -= 1
            resolved.append(document)
    found = {"new": new, "persisting": persisting, "resolved": resolved}
    money = {}
    for status, documents in found.items():
        totals = MoneyTotals()
        for document in documents:
            if document.get("difference"):
                totals.add(document["currency"], Decimal(document["difference"]))
        money[status] = totals.rows()
    return {**found, "money": money, "patterns": run_patterns(engine, earlier, later)}


def run_patterns(engine: Engine, earlier: int, later: int) -> list[dict[str, Any]]:
    """The patterns (auditor/patterns.py) new, recurring, gone and not audited from
    `earlier` to `later`: table, dealer and player × citation, with their counts in each
    run, weighed against chance (`notable`). A pattern of tables the later run did not
    audit is `not audited`, never `gone`."""
    from collections import Counter

    from auditor.patterns import (
        compare_patterns,
        pattern_counts,
        table_keys,
        unit_rates,
        weigh_patterns,
    )
    from auditor.store.trend_reads import run_unit_rounds

    places: dict = {}
    tables = [table_keys(run_inputs_documents(engine, run_id)) for run_id in (earlier, later)]
    citations: list[Counter] = [Counter(), Counter()]
    before = pattern_counts(finding_documents(engine, earlier), tables[0], places,
                            citations[0])
    after = pattern_counts(finding_documents(engine, later), tables[1], None, citations[1])
    patterns = compare_patterns(before, after, earlier, later, places,
                                set(tables[1].values()))
    # each weighed against chance: its unit's rounds times the floor's rate, each night
    weigh_patterns(patterns, *(unit_rates(run_unit_rounds(engine, run_id), found)
                               for run_id, found in zip((earlier, later), citations,
                                                        strict=True)))
    return patterns


def _with_currency(engine: Engine, run_id: int, documents: Iterable[dict[str, Any]]
                   ) -> Iterator[dict[str, Any]]:
    """Findings with their currency: a run stored before findings carried one gives each
    its input's (the table header's)."""
    currencies: dict[str, str | None] | None = None
    for document in documents:
        if "currency" not in document:
            if currencies is None:
                currencies = {i["path"]: i.get("currency")
                              for i in run_inputs_documents(engine, run_id)}
            document["currency"] = currencies.get(document.get("file"))
        yield document


def unaudited_inputs(engine: Engine, run_id: int) -> list[str] | None:
    """The inputs a run was given and never recorded (a killed or failed run), in their
    order; None for a run recorded before the run's inputs were kept with its settings."""
    with reading(engine).connect() as connection:
        settings = connection.execute(select(schema.runs.c.settings)
                                      .where(schema.runs.c.id == run_id)).scalar_one()
        recorded = set(connection.execute(select(schema.run_inputs.c.position).where(
            schema.run_inputs.c.run_id == run_id)).scalars())
    given = json.loads(settings).get("inputs")
    if given is None:
        return None
    return [path for place, path in enumerate(given) if place not in recorded]
