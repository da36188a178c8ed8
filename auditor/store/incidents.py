"""What `auditor incidents` reads and writes in the store: which run to export, the run's
table-nights a later recording superseded, and the findings exported before (each export's
rows bear its mark, so a pending export is known remembered or not). The export's logic is
auditor/incidents.py's."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, Engine, and_, func, insert, select

import auditor.store.schema as schema
from auditor.store.engine import one_at_a_time, reading
from auditor.store.recording import FINISHED
from auditor.store.trend_reads import records_nights, superseded_nights

_IN_LIST = 500  # finding IDs asked at a time (an IN list)
_BATCH = 1000  # rows inserted per statement


def latest_finished_run(engine: Engine) -> int | None:
    runs = schema.runs
    with reading(engine).connect() as connection:
        latest = connection.execute(select(runs.c.id).where(runs.c.status == FINISHED)
                                    .order_by(runs.c.id.desc()).limit(1)).scalar()
    return None if latest is None else int(latest)


def run_status(engine: Engine, run_id: int) -> str | None:
    """`running` or `finished` (recording.RUNNING, FINISHED); None: no such run."""
    runs = schema.runs
    with reading(engine).connect() as connection:
        return connection.execute(select(runs.c.status).where(runs.c.id == run_id)).scalar()


def superseded_places(engine: Engine, run_id: int) -> set[tuple[str, str]]:
    """(file, gaming day) of the run's table-nights that a later recording supersedes
    (trend_reads.superseded_nights); none in a store that records no table-nights. A cut
    of a night that only overlaps another is not among them: the rounds only it holds are
    events of the night, and those of the overlap are in both with the same finding IDs,
    which export once."""
    if not records_nights(engine):
        return set()
    superseded = superseded_nights(engine, overlapping=False)
    places = schema.run_inputs
    query = (select(places.c.path, superseded.c.night)
             .join(places, and_(places.c.run_id == superseded.c.run_id,
                                places.c.position == superseded.c.position))
             .where(superseded.c.run_id == run_id))
    with reading(engine).connect() as connection:
        return {(path, night) for path, night in connection.execute(query)}


def exported_before(connection: Connection, ids: Iterable[str]) -> set[str]:
    """Those of `ids` some export remembered, asked a chunk of IDs at a time."""
    table, ids, seen = schema.incident_exports, list(ids), set()
    for start in range(0, len(ids), _IN_LIST):
        seen.update(connection.execute(select(table.c.finding_id).where(
            table.c.finding_id.in_(ids[start:start + _IN_LIST]))).scalars())
    return seen


class ExportRecord:
    """The exports remembered, within one transaction of the store (`export_transaction`)."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def exported_before(self, ids: Iterable[str]) -> set[str]:
        return exported_before(self.connection, ids)

    def remember(self, run_id: int, mark: str, finding_ids: list[str]) -> None:
        """Each finding ID exported from run `run_id`, by the export marked `mark`."""
        rows = [{"finding_id": i, "run_id": run_id, "exported": mark} for i in finding_ids]
        for start in range(0, len(rows), _BATCH):
            self.connection.execute(insert(schema.incident_exports),
                                    rows[start:start + _BATCH])


@contextmanager
def export_transaction(engine: Engine) -> Iterator[ExportRecord]:
    """A transaction of the store, committed when the block ends, rolled back if it
    raises: what it remembered is kept only with what the block wrote."""
    with engine.begin() as connection:
        one_at_a_time(connection, "incident exports")
        yield ExportRecord(connection)


def rows_marked(engine: Engine, mark: str) -> int:
    """The findings the export marked `mark` remembered."""
    table = schema.incident_exports
    with reading(engine).connect() as connection:
        return connection.execute(select(func.count()).select_from(table).where(
            table.c.exported == mark)).scalar_one()
