"""store/tallies.insert_rows hands SQLite's driver an INSERT compiled once per table and
dialect (compiling it for every file's rows cost more than the rows): rows written through
it must be those given, in every store a process opens, and the compiled text made once."""

from __future__ import annotations

from sqlalchemy import select

import auditor.store.schema as schema
from auditor.store.engine import open_store
from auditor.store.recording import begin_run
from auditor.store.tallies import TALLY_COLUMNS, _driver_insert, insert_rows


def _seats(engine) -> list[tuple]:
    table = schema.tally_seats
    with engine.connect() as connection:
        return [tuple(row) for row in connection.execute(
            select(*table.columns).order_by(table.c.run_id, table.c.position, table.c.item))]


def test_rows_go_into_each_store_as_given_and_the_insert_is_compiled_once(tmp_path) -> None:
    table = schema.tally_seats
    columns = TALLY_COLUMNS[table]
    assert columns == ("run_id", "position", "item", "line", "seat", "player")
    _driver_insert.cache_clear()
    stores = [open_store(str(tmp_path / f"store-{n}.sqlite"), new_store=True) for n in (1, 2)]
    try:
        for engine in stores:
            number = begin_run(engine, {"version": "t", "rule_base": "t", "command": "t",
                                        "started": "2026-11-28T00:00:00+00:00"}, {})
            rows = [(number, 0, 0, 10, "1", "Ann"), (number, 0, 1, 12, "2", "O'Brien; --"),
                    (number, 1, 0, 3, "7", "\u202eZoë")]
            with engine.begin() as connection:
                insert_rows(connection, table, columns, rows[:2])
                insert_rows(connection, table, columns, rows[2:])
            assert _seats(engine) == rows
        # one text per table and dialect: each store's dialect compiles it once
        assert _driver_insert.cache_info().misses == len(stores)
        assert _driver_insert.cache_info().hits == len(stores)
    finally:
        for engine in stores:
            engine.dispose()
