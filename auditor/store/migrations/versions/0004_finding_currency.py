"""Each finding's currency (its table header's `currency=CODE`; NULL: the table declares
none), so that the store's money is summed per currency, never across. Findings stored
before take their input's currency, as the run's input document records it.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

import json
from collections import defaultdict

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_AT_ONCE = 500  # input positions per UPDATE: well under every backend's parameter limit


def upgrade() -> None:
    # Text: a currency code is an identifier of any length (BJH 1 bounds none).
    op.add_column("findings", sa.Column("currency", sa.Text))
    places = sa.table("run_inputs", sa.column("run_id"), sa.column("position"),
                      sa.column("document"))
    findings = sa.table("findings", sa.column("run_id"), sa.column("input_position"),
                        sa.column("currency"))
    connection = op.get_bind()
    declared: dict[tuple[int, str], list[int]] = defaultdict(list)
    for run_id, position, document in connection.execute(
            sa.select(places.c.run_id, places.c.position, places.c.document)):
        currency = json.loads(document).get("currency")
        if currency is not None:
            declared[run_id, currency].append(position)
    # One statement per run, currency and batch of inputs: each reads the run's findings
    # once (the key begins with the run), not once per input.
    for (run_id, currency), positions in declared.items():
        for start in range(0, len(positions), _AT_ONCE):
            connection.execute(sa.update(findings).where(
                findings.c.run_id == run_id,
                findings.c.input_position.in_(positions[start:start + _AT_ONCE]),
            ).values(currency=currency))


def downgrade() -> None:
    with op.batch_alter_table("findings") as batch:
        batch.drop_column("currency")
