"""Incidents already exported (`auditor incidents`), so that each leaves once; and
unbounded text for shift names, which the settings file now chooses (`[shifts]`).

Shift columns: on PostgreSQL VARCHAR(8) becomes TEXT (no rewrite); on SQLite, which never
enforces a declared length, only the declared type is rewritten, as migration 0003 does
(writable_schema, then a new schema_version), so no table is copied.

Revision ID: 0006
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

import re

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0004"
branch_labels = None
depends_on = None

_SHIFTS = ("findings", "tally_rounds")


def upgrade() -> None:
    op.create_table(
        "incident_exports",
        # The finding's stable ID: a finding re-audited in a later run is the same incident.
        sa.Column("finding_id", sa.String(64), primary_key=True),
        sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("exported", sa.String(40), nullable=False),  # UTC, ISO 8601
    )
    _shift_columns(widen=True)


def downgrade() -> None:
    op.drop_table("incident_exports")
    _shift_columns(widen=False)


def _shift_columns(widen: bool) -> None:
    connection = op.get_bind()
    old, new = sa.String(8), sa.Text()
    if connection.dialect.name != "sqlite":
        for table in _SHIFTS:
            op.alter_column(table, "shift", type_=new if widen else old,
                            existing_type=old if widen else new,
                            **({} if widen else {"postgresql_using": "left(shift, 8)"}))
        return
    before, after = ("VARCHAR(8)", "TEXT") if widen else ("TEXT", "VARCHAR(8)")
    version = connection.exec_driver_sql("PRAGMA schema_version").scalar()
    connection.exec_driver_sql("PRAGMA writable_schema = ON")
    for table in _SHIFTS:
        sql = connection.exec_driver_sql(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?",
            (table,)).scalar()
        sql, changed = re.subn(rf"(\bshift\s+){re.escape(before)}", rf"\g<1>{after}", sql,
                               count=1)
        if not changed:
            raise RuntimeError(f"store schema: {table}.shift is not as expected")
        connection.exec_driver_sql(
            "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?", (sql, table))
    connection.exec_driver_sql(f"PRAGMA schema_version = {int(version) + 1}")
    connection.exec_driver_sql("PRAGMA writable_schema = OFF")
