"""Runs in the store read back: listed with their counts, one run as the outputs read it
(`load_result`), its documents, the inputs it was given and never recorded.

Recording a run is auditor/store/recording.py's; its findings, auditor/store/findings.py's;
its replays, auditor/store/replays.py's; the documents' encoding, auditor/store/encoding.py's.
The names below from those modules are those this module has always been imported for.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import Engine, case, func, select

import auditor.store.schema as schema
from auditor.replay.trace import RoundEvidence
from auditor.results import AuditResult, InputSummary
from auditor.store.encoding import (  # noqa: F401  (imported from here by the tests)
    _compressed,
    _evidence_document,
    _evidence_json,
    _json,
    _lines_asked,
    _steps_asked,
)
from auditor.store.engine import reading
from auditor.store.findings import (  # noqa: F401  (as above, and the rest of the auditor)
    StoredFindings,
    _finding_of,
    annotate_findings,
    finding_documents,
    missing_statements,
)
from auditor.store.recording import (  # noqa: F401
    FINISHED,
    RUNNING,
    _finding_row,
    begin_run,
    finish_run,
    order_key,
    record_result,
)
from auditor.store.replays import StoredReplay, _ReplayReader
from auditor.waiver_status import WaiverStatus


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


def load_result(engine: Engine, run_id: int,
                recorded: dict[str, RoundEvidence] | None = None
                ) -> tuple[AuditResult, dict[str, Any]]:
    """A stored run as the outputs read it: its findings are read from the store each time
    they are walked (`StoredFindings`), never held whole, and its replays only when shown.
    `recorded`: what this process recorded of the run's replays (`auditor.run.RunRecorder`),
    shown as it is rather than read back and decoded (the same lines and changes)."""
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
    result.not_compared = run.get("not_compared")
    return result, run


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
    contents."""
    return next(runs_over(engine, sha256s, before), None)


def runs_over(engine: Engine, sha256s: Iterable[str],
              before: int | None = None) -> Iterator[int]:
    """The finished runs (before run `before`, if given) whose inputs are exactly these
    contents, latest first, found as the caller walks them: what `--baseline last` chooses
    among (auditor/baseline_runs.py)."""
    wanted = frozenset(sha256s)
    runs = schema.runs
    query = select(runs.c.id).where(runs.c.status == FINISHED).order_by(runs.c.id.desc())
    if before is not None:
        query = query.where(runs.c.id < before)
    with reading(engine).connect() as connection:
        candidates = list(connection.execute(query).scalars())
    for run_id in candidates:
        if run_inputs_sha256(engine, run_id) == wanted:
            yield run_id


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


def run_settings_text(engine: Engine, run_id: int) -> str | None:
    """The settings a run was recorded with, as stored (JSON text); None: no such run."""
    with reading(engine).connect() as connection:
        return connection.execute(select(schema.runs.c.settings)
                                  .where(schema.runs.c.id == run_id)).scalar()


def run_not_judged(engine: Engine, run_id: int) -> frozenset[str]:
    """The citations a run left unjudged (`--select`, `--ignore`), as its settings name them
    (`not_judged`); none for a run that judged every check, or one recorded before runs
    named them (it judged every check it had)."""
    text = run_settings_text(engine, run_id)
    named = json.loads(text).get("not_judged") if text else None
    return frozenset(named) if isinstance(named, list) else frozenset()
