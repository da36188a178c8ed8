"""What `--baseline last` reads of the store to find the run to compare with: the tables
each run audited and the day its record of each began. Which run is chosen is
auditor/baseline_runs.py's."""

from __future__ import annotations

from collections.abc import Iterator

from sqlalchemy import Engine, select

import auditor.store.schema as schema
from auditor.store.engine import reading
from auditor.store.recording import FINISHED

# (first date, licence, casino, table ID) of one recorded input
InputTable = tuple[str | None, str | None, str | None, str | None]


def _inputs_query():
    runs, links, inputs = schema.runs, schema.run_inputs, schema.inputs
    return (select(links.c.run_id, inputs.c.first_date, inputs.c.licence, inputs.c.casino,
                   inputs.c.table_id)
            .join(inputs, links.c.input_id == inputs.c.id)
            .join(runs, runs.c.id == links.c.run_id))


def run_input_tables(engine: Engine, run_id: int) -> list[InputTable]:
    """The table of each input run `run_id` recorded (an input that could not be read has
    none), with the first date of its record."""
    query = _inputs_query().where(schema.run_inputs.c.run_id == run_id)
    with reading(engine).connect() as connection:
        return [tuple(row[1:]) for row in connection.execute(query)]


def earlier_input_tables(engine: Engine, run_id: int) -> Iterator[tuple[int, InputTable]]:
    """(run, its input's table) of every finished run before `run_id`, latest run first,
    read as the caller walks them (stop early: close it, or let it go)."""
    runs = schema.runs
    query = (_inputs_query().where(runs.c.status == FINISHED, runs.c.id < run_id)
             .order_by(runs.c.id.desc()))
    with reading(engine).connect() as connection:
        for row in connection.execute(query):
            yield row.run_id, tuple(row[1:])
