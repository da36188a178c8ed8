"""The flags `auditor trends` raised, kept by night in the store's trend_flags (see
auditor/trends/flags.py for what a flag is and when one is kept). A store made before the
table existed, read as it stands, has none."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, func, inspect, select

import auditor.store.schema as schema
from auditor.store.engine import one_at_a_time, reading


def add_flags(engine: Engine, night: str, rows: list[dict[str, Any]], raised: str) -> int:
    """Of `rows` (trend_flags rows of `night`, without their time), those not kept for that
    night yet (by question, kind, unit and partner), added with the time `raised`; how many
    were added."""
    table = schema.trend_flags
    with engine.begin() as connection:
        one_at_a_time(connection, "trend flags")
        kept = {(r.question, r.kind, r.unit, r.partner) for r in connection.execute(
            select(table.c.question, table.c.kind, table.c.unit, table.c.partner)
            .where(table.c.night == night))}
        new = [{**row, "raised": raised} for row in rows
               if (row["question"], row["kind"], row["unit"], row["partner"]) not in kept]
        if new:
            connection.execute(table.insert(), new)
    return len(new)


def flags_between(engine: Engine, since: str | None, until: str | None
                  ) -> list[dict[str, Any]]:
    """Every flag kept for the nights from `since` to `until` (either open), by night and
    question: {"night", "question", "kind", "unit", "partner", "since"}."""
    table = schema.trend_flags
    with reading(engine).connect() as connection:
        if not inspect(connection).has_table(table.name):
            return []
        query = select(table).order_by(table.c.night, table.c.question)
        if since:
            query = query.where(table.c.night >= since)
        if until:
            query = query.where(table.c.night <= until)
        return [_flag(row) for row in connection.execute(query)]


def latest_flags(engine: Engine) -> tuple[str | None, list[dict[str, Any]]]:
    """The last night any flag was kept for, and its flags by unit (kind, unit, partner,
    question), each as `flags_between` gives it."""
    table = schema.trend_flags
    with reading(engine).connect() as connection:
        if not inspect(connection).has_table(table.name):
            return None, []
        night = connection.execute(select(func.max(table.c.night))).scalar()
        if night is None:
            return None, []
        rows = connection.execute(select(table).where(table.c.night == night).order_by(
            table.c.kind, table.c.unit, table.c.partner, table.c.question))
        return night, [_flag(row) for row in rows]


def _flag(row: Any) -> dict[str, Any]:
    return {"night": row.night, "question": row.question, "kind": row.kind,
            "unit": row.unit, "partner": row.partner, "since": row.since}
