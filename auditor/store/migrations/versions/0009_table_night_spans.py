"""Each table-night's first and last round (local date and time), so that a recording
whose rounds lie within another's of the same table-night (a night's record split in two
files, the whole record audited too) is superseded in `trends` and `incidents`, not
counted beside it. Table-nights recorded before keep no span (NULL): they are superseded
as before, by their first round alone.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("table_nights", sa.Column("first_round", sa.Text))
    op.add_column("table_nights", sa.Column("last_round", sa.Text))


def downgrade() -> None:
    with op.batch_alter_table("table_nights") as batch:
        batch.drop_column("last_round")
        batch.drop_column("first_round")
