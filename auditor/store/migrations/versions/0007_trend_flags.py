"""The flags `auditor trends` raised, night by night: each unit's flag history, and the
night each flag was first raised.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "trend_flags",
        sa.Column("question", sa.String(16), primary_key=True),
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("unit", sa.Text, primary_key=True),
        sa.Column("partner", sa.Text, primary_key=True),
        sa.Column("night", sa.String(10), primary_key=True),
        sa.Column("since", sa.String(10)),
        sa.Column("raised", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("trend_flags")
