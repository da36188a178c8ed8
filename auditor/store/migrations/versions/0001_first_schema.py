"""The first schema: runs, inputs, the inputs of each run, findings, coverage, replays.

Revision ID: 0001
Revises:
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _run_key() -> sa.Column:
    return sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id", ondelete="CASCADE"),
                     primary_key=True)


def upgrade() -> None:
    op.create_table(
        "runs",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tool_version", sa.String(40), nullable=False),
        sa.Column("rule_base", sa.String(80), nullable=False),
        sa.Column("command", sa.Text, nullable=False),
        sa.Column("started", sa.String(40), nullable=False),
        sa.Column("finished", sa.String(40)),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("exit_code", sa.Integer),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("document", sa.Text, nullable=False),
        sa.Column("extras", sa.Text, nullable=False),
    )
    op.create_table(
        "inputs",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("sha256", sa.String(64), nullable=False, unique=True),
        sa.Column("table_id", sa.String(200)),
        sa.Column("casino", sa.Text),
        sa.Column("licence", sa.String(200)),
        sa.Column("game", sa.String(20)),
        sa.Column("first_date", sa.String(10)),
        sa.Column("last_date", sa.String(10)),
        sa.Column("lines", sa.BigInteger),
        sa.Column("rounds", sa.BigInteger),
    )
    op.create_table(
        "run_inputs",
        _run_key(),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("input_id", sa.Integer, sa.ForeignKey("inputs.id")),
        sa.Column("path", sa.Text, nullable=False),
        sa.Column("rounds_audited", sa.BigInteger),
        sa.Column("error", sa.Text),
        sa.Column("document", sa.Text, nullable=False),
    )
    op.create_table(
        "findings",
        _run_key(),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("input_position", sa.Integer, nullable=False),
        sa.Column("order_key", sa.LargeBinary, nullable=False),
        sa.Column("finding_id", sa.String(64), index=True),
        sa.Column("citation", sa.String(40), nullable=False, index=True),
        sa.Column("severity", sa.String(8), nullable=False),
        sa.Column("file", sa.Text, nullable=False),
        sa.Column("line", sa.Integer),
        sa.Column("round_id", sa.String(200)),
        sa.Column("table_id", sa.String(200)),
        sa.Column("dealer", sa.String(200)),
        sa.Column("date", sa.String(10)),
        sa.Column("shift", sa.String(8)),
        sa.Column("expected_cents", sa.BigInteger),
        sa.Column("actual_cents", sa.BigInteger),
        sa.Column("difference_cents", sa.BigInteger),
        sa.Column("waived", sa.Boolean, nullable=False),
        sa.Column("baseline", sa.String(16)),
        sa.Column("document", sa.Text, nullable=False),
        sa.Column("statement", sa.Text),
    )
    op.create_table(
        "coverage",
        _run_key(),
        sa.Column("citation", sa.String(40), primary_key=True),
        sa.Column("rounds", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "replays",
        _run_key(),
        sa.Column("round_key", sa.Text, primary_key=True),
        sa.Column("input_position", sa.Integer, nullable=False),
        sa.Column("start_line", sa.Integer, nullable=False),
        sa.Column("document", sa.LargeBinary, nullable=False),
    )


def downgrade() -> None:
    for table in ("replays", "coverage", "findings", "run_inputs", "inputs", "runs"):
        op.drop_table(table)
