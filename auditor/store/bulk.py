"""Rows written straight into the store, not from an audit: a floor's history made up at a
size the simulator would take days to deal (auditor/simulate/tallies.py, for
bench/trends_year.py and the tests of trends' memory). Each row is a tuple of its table's
columns in order (`insert_rows`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, Table

import auditor.store.schema as schema
from auditor.store.tallies import TALLY_COLUMNS, insert_rows


def last_ids(engine: Engine) -> tuple[int, int]:
    """The highest run ID and input ID in the store (0: none yet)."""
    with engine.begin() as connection:
        run_id = connection.execute(schema.runs.select().with_only_columns(
            schema.runs.c.id).order_by(schema.runs.c.id.desc())).scalar() or 0
        input_id = connection.execute(schema.inputs.select().with_only_columns(
            schema.inputs.c.id).order_by(schema.inputs.c.id.desc())).scalar() or 0
    return run_id, input_id


def write_night(engine: Engine, run: dict[str, Any], inputs: list[tuple],
                places: list[tuple], findings: list[tuple],
                tallies: dict[Table, list[tuple]]) -> None:
    """One run written in one transaction: its row (`run`, the runs table's values), its
    inputs, their places in the run (run_inputs), its findings and its tally rows (by
    tally table)."""
    with engine.begin() as connection:
        connection.execute(schema.runs.insert().values(**run))
        insert_rows(connection, schema.inputs, tuple(schema.inputs.columns.keys()), inputs)
        insert_rows(connection, schema.run_inputs, tuple(schema.run_inputs.columns.keys()),
                    places)
        insert_rows(connection, schema.findings, tuple(schema.findings.columns.keys()),
                    findings)
        for table, values in tallies.items():
            insert_rows(connection, table, TALLY_COLUMNS[table], values)
