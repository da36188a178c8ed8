"""A store made by the first schema as it shipped, brought to what revision 0001 makes now.

Revision 0001 was edited after stores of it were written (issue 45): its findings gained
`input_position`, `order_key`, `shift` and `statement`, and its replays were reshaped
(keyed by round, with their input and first line, compressed). A store of the first schema
as it shipped is stamped 0001 all the same, and every later revision expects the edited
tables. This revision, the first after 0001, brings such a store to them:

- findings: the missing columns added and filled from each finding's own document (its
  input: the position of the run's input with its file, as the recorder places it; its
  order key and shift as the recorder computes them); `statement` stays empty, as for any
  finding recorded before statements were (the readers judge those again);
- replays: each row moved to the reshaped table, its document compressed as the recorder
  compresses one (a replay with no `changes` is read whole, its changes made from it).

A store made by today's 0001 already has all of this: nothing of it is touched. What is
computed here is written out in full, not imported from the auditor, so that the revision
does the same whatever later code does (a shipped migration is never edited).

Revision ID: 0001a
Revises: 0001
Create Date: 2026-11-28
"""

from __future__ import annotations

import json
import zlib

import sqlalchemy as sa
from alembic import op

revision = "0001a"
down_revision = "0001"
branch_labels = None
depends_on = None

_AT_ONCE = 500  # rows read and written back at a time
# The shifts as the first schema's recorder named them by the hour of a finding's time
# (auditor/tally.py at the time): day 06-14, swing 14-22, anything else grave.
_SHIFTS = (("day", 6, 14), ("swing", 14, 22))


def upgrade() -> None:
    connection = op.get_bind()
    inspector = sa.inspect(connection)
    findings = {column["name"] for column in inspector.get_columns("findings")}
    if not {"input_position", "order_key"} <= findings:
        _findings(connection, findings)
    replays = {column["name"] for column in inspector.get_columns("replays")}
    if "start_line" not in replays:
        _replays(connection)


def downgrade() -> None:
    """Nothing: a store of today's 0001 has these columns from 0001 itself."""


def _shift(time: object) -> str | None:
    if not isinstance(time, str) or len(time) < 2 or not time[:2].isdigit():
        return None
    hour = int(time[:2])
    for name, start, end in _SHIFTS:
        if start <= hour < end:
            return name
    return "grave"


def _order_key(document: dict) -> bytes:
    """The recorder's order key: the line as 8 big-endian bytes, then citation, seat and
    hand in UTF-8, each ended by a NUL."""
    text = "\0".join((document["citation"], document.get("seat") or "",
                      document.get("hand") or "")) + "\0"
    return (document.get("line") or 0).to_bytes(8, "big") + text.encode("utf-8")


def _places(connection) -> dict[int, dict[str, int]]:
    """Each run's inputs: the position of each path."""
    run_inputs = sa.table("run_inputs", sa.column("run_id"), sa.column("position"),
                          sa.column("path"))
    places: dict[int, dict[str, int]] = {}
    for run_id, position, path in connection.execute(
            sa.select(run_inputs.c.run_id, run_inputs.c.position, run_inputs.c.path)):
        places.setdefault(run_id, {})[path] = position
    return places


def _findings(connection, present: set[str]) -> None:
    for name, kind in (("input_position", sa.Integer), ("order_key", sa.LargeBinary),
                       ("shift", sa.String(8)), ("statement", sa.Text)):
        if name not in present:
            op.add_column("findings", sa.Column(name, kind))
    findings = sa.table("findings", sa.column("run_id"), sa.column("position"),
                        sa.column("document"), sa.column("input_position"),
                        sa.column("order_key"), sa.column("shift"))
    places = _places(connection)
    update = sa.update(findings).where(
        findings.c.run_id == sa.bindparam("run"), findings.c.position == sa.bindparam("at"),
    ).values(input_position=sa.bindparam("place"), order_key=sa.bindparam("key"),
             shift=sa.bindparam("named"))
    last = (-1, -1)
    while True:  # in key order, a batch at a time
        batch = connection.execute(
            sa.select(findings.c.run_id, findings.c.position, findings.c.document)
            .where(sa.tuple_(findings.c.run_id, findings.c.position) > sa.tuple_(*last))
            .order_by(findings.c.run_id, findings.c.position).limit(_AT_ONCE)).all()
        if not batch:
            break
        values = []
        for run_id, position, text in batch:
            document = json.loads(text)
            known = places.get(run_id, {})
            values.append({"run": run_id, "at": position,
                           "place": known.get(document["file"], len(known)),
                           "key": _order_key(document), "named": _shift(document.get("time"))})
        connection.execute(update, values)
        last = (batch[-1][0], batch[-1][1])
    # Every row filled: the two columns the recorder always writes become required, as
    # 0001 makes them (SQLite copies the table to change a column: Alembic's batch mode).
    with op.batch_alter_table("findings") as batch:
        batch.alter_column("input_position", existing_type=sa.Integer, nullable=False)
        batch.alter_column("order_key", existing_type=sa.LargeBinary, nullable=False)


def _replays(connection) -> None:
    """The replays table made again as 0001 makes it, each row moved over."""
    old = "replays_first_schema"
    op.rename_table("replays", old)
    if connection.dialect.name == "postgresql":  # the key's name would be taken
        op.execute(f"ALTER TABLE {old} RENAME CONSTRAINT replays_pkey TO {old}_pkey")
    op.create_table(
        "replays",
        sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("round_key", sa.Text, primary_key=True),
        sa.Column("input_position", sa.Integer, nullable=False),
        sa.Column("start_line", sa.Integer, nullable=False),
        sa.Column("document", sa.LargeBinary, nullable=False),
    )
    source = sa.table(old, sa.column("run_id"), sa.column("position"),
                      sa.column("round_key"), sa.column("document"))
    target = sa.table("replays", sa.column("run_id"), sa.column("round_key"),
                      sa.column("input_position"), sa.column("start_line"),
                      sa.column("document"))
    places = _places(connection)
    last = (-1, -1)
    while True:  # in key order, a batch at a time: replays are the bulk of a store
        batch = connection.execute(
            sa.select(source.c.run_id, source.c.position, source.c.round_key,
                      source.c.document)
            .where(sa.tuple_(source.c.run_id, source.c.position) > sa.tuple_(*last))
            .order_by(source.c.run_id, source.c.position).limit(_AT_ONCE)).all()
        if not batch:
            break
        rows = []
        for run_id, _position, key, text in batch:
            document = json.loads(text)
            known = places.get(run_id, {})
            rows.append({"run_id": run_id, "round_key": key,
                         "input_position": known.get(document["file"], len(known)),
                         "start_line": document["start_line"],
                         "document": zlib.compress(text.encode("utf-8"), 3)})
        connection.execute(sa.insert(target), rows)
        last = (batch[-1][0], batch[-1][1])
    op.drop_table(old)
