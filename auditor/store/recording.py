"""Recording a run in the store. A run is recorded in three steps so that a killed audit
leaves a trace: `begin_run` (status `running`), its rows (a `RunWriter` fed file by file by
the run layer's merger, or `record_result` for a result merged already), `finish_run`
(status `finished`, the exit code and the finishing time). A run that never finished keeps
the status `running`; it is listed as unfinished and never taken as a baseline."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

import auditor.store.schema as schema
from auditor.batches import batched
from auditor.findings import Finding
from auditor.gaming_day import DEFAULT as DEFAULT_CALENDAR
from auditor.gaming_day import Calendar
from auditor.replay.trace import RoundEvidence
from auditor.results import AuditResult, FileResult, InputSummary
from auditor.store.encoding import _compressed, _evidence_document, _json, _lines_asked
from auditor.store.tallies import insert_rows, record_tallies, record_tally

RUNNING, FINISHED = "running", "finished"
_BATCH = 1000  # rows inserted per statement


def begin_run(engine: Engine, run: dict[str, Any], settings: dict[str, Any]) -> int:
    """Record that a run has begun; its ID."""
    with engine.begin() as connection:
        row = connection.execute(insert(schema.runs).values(
            tool_version=run["version"], rule_base=run["rule_base"], command=run["command"],
            started=run["started"], status=RUNNING, settings=_json(settings),
            document=_json(run), extras=_json({})).returning(schema.runs.c.id)).one()
    return row.id


class RunWriter:
    """A run's rows as the run layer's merger (`auditor.run.RunMerger`) hands them over, a
    file at a time in the order files finish: its input, tally, findings and the replays
    the run keeps of it, in one transaction, and the replays no longer kept taken out;
    at the end, the findings judged across files and the coverage. It merges nothing: which
    replays are kept, and the findings across files, are the merger's."""

    def __init__(self, engine: Engine, run_id: int, calendar: Calendar = DEFAULT_CALENDAR,
                 recorded: dict[str, RoundEvidence] | None = None) -> None:
        self.engine = engine
        self.run_id = run_id
        self.calendar = calendar  # the gaming days the tallies are stored by
        # if given: what the report shows of each replay kept (`load_result`'s `recorded`)
        self.shown_replays = recorded
        self.recorded = 0  # findings so far: the next one's position

    def add_file(self, place: int, result: FileResult, findings: list[Finding],
                 kept: list[str], dropped: set[str]) -> None:
        """File `place`'s rows: `findings` its own, in order; `kept` the keys of its replays
        the run keeps, `dropped` those of earlier files the run no longer keeps."""
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

    def add_run(self, findings: list[Finding], places: dict[str, int],
                applied: Mapping[str, int]) -> None:
        """The findings judged across files (placed by their file's input, `places`), and
        the rounds each citation judged."""
        with self.engine.begin() as connection:
            self._record_findings(connection, findings, places)
            _record_coverage(connection, self.run_id, applied)

    def _record_findings(self, connection, findings: list[Finding],
                         places: dict[str, int]) -> None:
        _record_findings(connection, self.run_id, self.recorded, findings, places)
        self.recorded += len(findings)


def record_result(engine: Engine, run_id: int, result: AuditResult) -> None:
    """A result merged already (`auditor.run.merge`: inputs, findings in the run's order,
    coverage, the replays kept, tallies) written whole in one transaction. It merges
    nothing; a replay keeps the steps at its file's findings' lines (a merged result has
    no facts left)."""
    places = {summary.path: place for place, summary in enumerate(result.inputs)}
    with engine.begin() as connection:
        for place, summary in enumerate(result.inputs):
            _record_input(connection, run_id, place, summary)
        _record_findings(connection, run_id, 0, result.findings, places)
        _record_coverage(connection, run_id, result.applied)
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


def _record_findings(connection, run_id: int, first: int, findings: list[Finding],
                     places: dict[str, int]) -> None:
    """Findings numbered from `first` in the order given, each placed by its file's input
    (`places`; a file of none, after every input)."""
    rows = (tuple(_finding_row(run_id, first + number, finding,
                               places.get(finding.file, len(places))).values())
            for number, finding in enumerate(findings))
    for batch in batched(rows, _BATCH):  # to SQLite's driver as they are (`insert_rows`)
        insert_rows(connection, schema.findings, FINDING_COLUMNS, batch)


def _record_coverage(connection, run_id: int, applied: Mapping[str, int]) -> None:
    coverage = [{"run_id": run_id, "citation": citation, "rounds": rounds}
                for citation, rounds in applied.items()]
    if coverage:
        connection.execute(insert(schema.coverage), coverage)


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


FINDING_COLUMNS = tuple(schema.findings.columns.keys())
"""The findings table's columns, in the order `_finding_row` gives their values."""


def _finding_row(run_id: int, position: int, finding: Finding,
                 input_position: int) -> dict[str, Any]:
    """A finding's row: its values keyed by column, in FINDING_COLUMNS' order."""
    return {
        "run_id": run_id, "position": position, "input_position": input_position,
        "order_key": order_key(finding), "finding_id": getattr(finding, "id", None),
        "citation": finding.citation, "severity": finding.severity, "file": finding.file,
        "line": finding.line, "round_id": finding.round, "table_id": finding.table,
        "dealer": finding.dealer, "date": finding.date,
        # by the default shifts until the run's calendar names it (store/findings.py)
        "shift": DEFAULT_CALENDAR.shift(finding.time),
        "expected_cents": _cents(finding.expected), "actual_cents": _cents(finding.actual),
        "difference_cents": _cents(finding.difference), "currency": finding.currency,
        "waived": getattr(finding, "waiver", None) is not None,
        "baseline": getattr(finding, "baseline", None),
        "document": _json(finding.as_dict()), "statement": finding.statement,
    }
