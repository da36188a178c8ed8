"""Tallies for `auditor trends`: rounds by dealer, table, date and shift; rounds by dealer
and player; the players at seats named by findings; the dealer's cards by up card; the
cards of each shuffle in the order dealt.

Revision ID: 0002
Revises: 0001a (0001 when it shipped: 0001a was put between them, see there)
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001a"
branch_labels = None
depends_on = None


def _tally_key() -> list[sa.Column]:
    return [sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id", ondelete="CASCADE"),
                      primary_key=True),
            sa.Column("position", sa.Integer, primary_key=True),
            sa.Column("item", sa.Integer, primary_key=True)]


def upgrade() -> None:
    op.create_table(
        "tally_rounds", *_tally_key(),
        sa.Column("site", sa.String(200)),
        sa.Column("table_id", sa.String(200)),
        sa.Column("dealer", sa.String(200)),
        sa.Column("date", sa.String(10), index=True),
        sa.Column("shift", sa.String(8)),
        sa.Column("rounds", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "tally_pairs", *_tally_key(),
        sa.Column("dealer", sa.String(200)),
        sa.Column("player", sa.String(200), nullable=False),
        sa.Column("date", sa.String(10), index=True),
        sa.Column("rounds", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "tally_seats", *_tally_key(),
        sa.Column("line", sa.Integer, nullable=False),
        sa.Column("seat", sa.String(4), nullable=False),
        sa.Column("player", sa.String(200), nullable=False),
    )
    op.create_table(
        "tally_game", *_tally_key(),
        sa.Column("dealer", sa.String(200)),
        sa.Column("date", sa.String(10), index=True),
        sa.Column("decks", sa.Integer),
        sa.Column("hits_soft_17", sa.Boolean, nullable=False),
        sa.Column("statistic", sa.String(20), nullable=False),
        sa.Column("up", sa.Integer),
        sa.Column("trials", sa.BigInteger, nullable=False),
        sa.Column("hits", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "tally_shuffles", *_tally_key(),
        sa.Column("site", sa.String(200)),
        sa.Column("table_id", sa.String(200)),
        sa.Column("shoe_id", sa.String(200)),
        sa.Column("date", sa.String(10), index=True),
        sa.Column("decks", sa.Integer),
        sa.Column("cards", sa.Text, nullable=False),
        sa.Column("lines", sa.Text, nullable=False),
        sa.Column("rounds", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for table in ("tally_shuffles", "tally_game", "tally_seats", "tally_pairs",
                  "tally_rounds"):
        op.drop_table(table)
