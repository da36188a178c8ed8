"""A run's findings in the store read back and judged in place: walked in the run's order a
batch at a time (never the whole run in memory), and each replaced by what the run's
judges (auditor/api.py `judge_run`) make of it. A run of up to HELD_AT_MOST findings keeps
them, as judged, for the outputs to walk (`StoredFindings.hold`): a night's findings are
then decoded once, not once per output; a month's are still read from the store."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import suppress
from json.encoder import encode_basestring
from typing import Any

from sqlalchemy import Engine, bindparam, func, select, update

import auditor.store.schema as schema
from auditor.findings import Finding, compact
from auditor.gaming_day import shift_shown
from auditor.store.encoding import _json
from auditor.store.engine import reading

_BATCH = 1000  # rows read at a time
_ANNOTATED_AT_ONCE = 500  # findings read, annotated and written back at a time (an IN list)
HELD_AT_MOST = 10_000
"""Findings of a run that `annotate_findings` hands back, judged, to be walked from memory
(about 1.5 KiB each: a night of 200,000 rounds at 2 % faults holds 4,000 to 6,000); a run
of more (a month) is walked from the store each time, a batch at a time."""


def finding_documents(engine: Engine, run_id: int) -> Iterator[dict[str, Any]]:
    """The run's findings in their order, as findings.json shows them, read in batches."""
    table = schema.findings
    query = _in_run_order(select(table.c.document).where(table.c.run_id == run_id)
                          ).execution_options(yield_per=_BATCH)
    with reading(engine).connect() as connection:
        for document in connection.execute(query).scalars():
            yield json.loads(document)


def _in_run_order(query, table=schema.findings):
    return query.order_by(table.c.input_position, table.c.order_key, table.c.position)


def _finding_of(row, currencies: dict[str, str | None] | None = None) -> Finding:
    return _finding_from(row.document, row.statement, currencies)


def _finding_from(text: str, statement_text: str | None,
                  currencies: dict[str, str | None] | None = None) -> Finding:
    # A finding's JSON, its statement put in as the first key, validated as JSON text in
    # one step (a third of the time of decoding it, then validating the dict; the outputs
    # walk the run's findings seven times). `"key":` is found only as a key: in a string it
    # would be written `\"key\":`.
    if '"currency":' in text and '"statement":' not in text:
        statement = "null" if statement_text is None else encode_basestring(statement_text)
        with suppress(ValueError):  # text that is not UTF-8 (a lone surrogate): as below
            return Finding.model_validate_json(f'{{"statement":{statement},{text[1:]}')
    document = json.loads(text)
    if currencies and "currency" not in document:  # stored before findings carried it
        document["currency"] = currencies.get(document.get("file"))
    return Finding.model_validate({**document, "statement": statement_text})


class StoredFindings(Sequence):
    """A run's findings in the run's order, read from the store in batches each time they
    are walked: what the outputs are written from, so that a month's findings are never in
    memory at once. Walk it as a list (`for`, `len`); indexing reads the whole run."""

    def __init__(self, engine: Engine, run_id: int,
                 currencies: dict[str, str | None] | None = None) -> None:
        self.engine, self.run_id = engine, run_id
        self.currencies = currencies  # by file: the currency of a finding stored without
        self.held: list[Finding] | None = None  # the run's findings as stored (`hold`)
        table = schema.findings
        with reading(engine).connect() as connection:
            self.count = connection.execute(
                select(func.count()).select_from(table).where(table.c.run_id == run_id)
            ).scalar_one()

    def __len__(self) -> int:
        return self.count

    def hold(self, findings: list[Finding]) -> None:
        """Walk `findings` from now on: the run's, as read back from the store once they
        were written (`annotate_findings`), in the run's order."""
        if len(findings) != self.count:
            raise ValueError(f"{len(findings)} findings held for a run of {self.count}")
        self.held = findings

    def __iter__(self) -> Iterator[Finding]:
        if self.held is not None:
            return iter(self.held)
        return self._read()

    def _read(self) -> Iterator[Finding]:
        table = schema.findings
        query = _in_run_order(select(table.c.document, table.c.statement)
                              .where(table.c.run_id == self.run_id)
                              ).execution_options(yield_per=_BATCH)
        with reading(self.engine).connect() as connection:
            for row in connection.execute(query):
                yield _finding_of(row, self.currencies)

    def __getitem__(self, index):  # rare (a test, a caller of the list API): reads them all
        return list(self)[index]


def annotate_findings(engine: Engine, run_id: int, annotate: Callable[[Finding], Finding],
                      hold_at_most: int | None = None) -> list[Finding] | None:
    """Each of the run's findings, in the run's order, replaced in the store by what
    `annotate` makes of it (its stable ID, waiver, baseline mark): one transaction, a batch of
    findings in memory at a time. A run of up to `hold_at_most` findings gets them back, in
    the run's order, each as reading its row again would give it (its stored text decoded:
    what the outputs would read); a larger run, None. `hold_at_most`: HELD_AT_MOST if None."""
    table = schema.findings
    with engine.begin() as connection:
        positions = list(connection.execute(_in_run_order(
            select(table.c.position).where(table.c.run_id == run_id))).scalars())
        limit = HELD_AT_MOST if hold_at_most is None else hold_at_most
        held: list[Finding] | None = [] if len(positions) <= limit else None
        change = (update(table).where(table.c.run_id == run_id,
                                      table.c.position == bindparam("at"))
                  .values(finding_id=bindparam("finding_id"), waived=bindparam("waived"),
                          baseline=bindparam("baseline"), document=bindparam("document"),
                          statement=bindparam("statement"), date=bindparam("day"),
                          shift=bindparam("shift")))
        for start in range(0, len(positions), _ANNOTATED_AT_ONCE):
            batch = positions[start:start + _ANNOTATED_AT_ONCE]
            rows = {row.position: row for row in connection.execute(
                select(table.c.position, table.c.document, table.c.statement)
                .where(table.c.run_id == run_id, table.c.position.in_(batch)))}
            updates = []
            for position in batch:
                finding = annotate(_finding_of(rows[position]))
                document = _json(finding.as_dict())
                updates.append({"at": position, "finding_id": finding.id,
                                "waived": finding.waiver is not None,
                                "baseline": finding.baseline,
                                "document": document,
                                "statement": finding.statement,
                                # trends count by gaming day (auditor/gaming_day.py)
                                "day": finding.gaming_day or finding.date,
                                "shift": shift_shown(finding)})
                if held is not None:  # decoded from its text: as the store gives it back
                    held.append(compact(_finding_from(document, finding.statement)))
            connection.execute(change, updates)
    return held


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
