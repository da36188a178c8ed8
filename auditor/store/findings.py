"""A run's findings in the store read back and judged in place: walked in the run's order a
batch at a time (never the whole run in memory), and each replaced by what the run's
judges (auditor/api.py `judge_run`) make of it."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import suppress
from json.encoder import encode_basestring
from typing import Any

from sqlalchemy import Engine, bindparam, func, select, update

import auditor.store.schema as schema
from auditor.findings import Finding
from auditor.gaming_day import shift_shown
from auditor.store.encoding import _json
from auditor.store.engine import reading

_BATCH = 1000  # rows read at a time
_ANNOTATED_AT_ONCE = 500  # findings read, annotated and written back at a time (an IN list)


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


def annotate_findings(engine: Engine, run_id: int,
                      annotate: Callable[[Finding], Finding]) -> None:
    """Each of the run's findings, in the run's order, replaced in the store by what
    `annotate` makes of it (its stable ID, waiver, baseline mark): one transaction, a batch of
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
        for start in range(0, len(positions), _ANNOTATED_AT_ONCE):
            batch = positions[start:start + _ANNOTATED_AT_ONCE]
            rows = {row.position: row for row in connection.execute(
                select(table.c.position, table.c.document, table.c.statement)
                .where(table.c.run_id == run_id, table.c.position.in_(batch)))}
            updates = []
            for position in batch:
                finding = annotate(_finding_of(rows[position]))
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
