"""The nights of each table an input records, so that a later recording of the same
table-night (a record audited while the table was still open, then again once finished)
supersedes the earlier one in `trends` and `incidents`: no round counted twice.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_nights",
        sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("night", sa.String(10), primary_key=True),
        sa.Column("site", sa.Text),
        sa.Column("table_id", sa.Text),
        sa.Column("start", sa.Text, nullable=False),
        sa.Column("rounds", sa.BigInteger, nullable=False),
        sa.Column("complete", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_nights")
