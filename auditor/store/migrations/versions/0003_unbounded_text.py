"""Unbounded text for everything a record names: table, licence, game, round, dealer, site,
player, shoe and seat. The format sets no length on these; VARCHAR(200) made PostgreSQL
refuse a whole audit over one long dealer ID, while SQLite (which never enforces a length)
kept it.

On PostgreSQL each column's type is changed (VARCHAR to TEXT needs no rewrite). On SQLite
nothing is stored differently (both are TEXT affinity): only the declared types in the
schema are rewritten, by SQLite's documented procedure for changes that leave the stored
rows as they are (writable_schema, then a new schema_version), so a large store is not
copied table by table.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25
"""

from __future__ import annotations

import re

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

# table: {column: its former declared type}
WIDENED = {
    "inputs": {"table_id": 200, "licence": 200, "game": 20},
    "findings": {"round_id": 200, "table_id": 200, "dealer": 200},
    "tally_rounds": {"site": 200, "table_id": 200, "dealer": 200},
    "tally_pairs": {"dealer": 200, "player": 200},
    "tally_seats": {"seat": 4, "player": 200},
    "tally_game": {"dealer": 200},
    "tally_shuffles": {"site": 200, "table_id": 200, "shoe_id": 200},
}


def upgrade() -> None:
    _change(widen=True)


def downgrade() -> None:
    _change(widen=False)


def _change(widen: bool) -> None:
    connection = op.get_bind()
    if connection.dialect.name == "sqlite":
        _sqlite_declared_types(connection, widen)
        return
    for table, columns in WIDENED.items():
        for column, length in columns.items():
            old, new = sa.String(length), sa.Text()
            op.alter_column(table, column, type_=new if widen else old,
                            existing_type=old if widen else new)


def _sqlite_declared_types(connection, widen: bool) -> None:
    version = connection.exec_driver_sql("PRAGMA schema_version").scalar()
    connection.exec_driver_sql("PRAGMA writable_schema = ON")
    for table, columns in WIDENED.items():
        sql = connection.exec_driver_sql(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?",
            (table,)).scalar()
        for column, length in columns.items():
            before, after = (f"VARCHAR({length})", "TEXT") if widen else (
                "TEXT", f"VARCHAR({length})")
            sql, changed = re.subn(rf"(\b{column}\s+){re.escape(before)}", rf"\g<1>{after}",
                                   sql, count=1)
            if not changed:
                raise RuntimeError(f"store schema: {table}.{column} is not as expected")
        connection.exec_driver_sql(
            "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?", (sql, table))
    connection.exec_driver_sql(f"PRAGMA schema_version = {int(version) + 1}")
    connection.exec_driver_sql("PRAGMA writable_schema = OFF")
