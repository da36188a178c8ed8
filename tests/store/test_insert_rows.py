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


def test_a_findings_row_gives_every_column_in_the_tables_order() -> None:
    """The findings go to the driver as tuples of `_finding_row`'s values: its keys must be
    the table's columns, in order (a column added to one and not the other fails here)."""
    from auditor.findings import Finding
    from auditor.store.recording import FINDING_COLUMNS, _finding_row

    finding = Finding(citation="20:18:15:26", rule="standard.payouts", severity="high",
                      file="T1.bjh", line=12, round="4", message="paid 10",
                      expected="15.00", actual="10.00", difference="-5.00", currency="USD")
    assert tuple(_finding_row(1, 0, finding, 0)) == FINDING_COLUMNS
    assert tuple(schema.findings.columns.keys()) == FINDING_COLUMNS
