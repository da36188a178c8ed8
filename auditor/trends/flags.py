"""Each flag `auditor trends` raises, kept in the run store with the night it judged, so that
a unit's flags can be followed from night to night and the night a flag was first raised
is known.

A trends run's *night* is the last gaming day of its window (`trends.night`). Its flags of
dealers and tables (the window's test, `outlier`; a change in rate, `change`, with the
change's first night) and of dealer–player pairs (`pair`) are added to the store's
trend_flags, one row a flag and night: run again on the same night, nothing is added (the
first record stays). Then every flag recorded on the window's nights is read back and each
unit's entry gets `flag_history`: [{"night", "question", "since"}], by night.

`trends` opens the store for reading; the flags are written through a second connection
that may write (and bring the store to the current schema). Where the store cannot be
written (read-only media, an archive), nothing is recorded and the history is read as it
stands, if the store has one.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime
from typing import Any

from auditor.store.engine import Engine
from auditor.store.trend_flags import add_flags, flags_between, latest_flags
from auditor.trends.analysis import flags

Unit = tuple[str, str, str]  # (kind, unit, partner): partner is a pair's player, else ""


def raised(document: dict[str, Any]) -> list[dict[str, Any]]:
    """The document's flags as trend_flags rows (without the time)."""
    night = document["trends"].get("night")
    if night is None:  # no dated round in the window: no night to keep them under
        return []
    found = flags(document)
    rows = [{"question": "outlier", "kind": e["unit"]["kind"], "unit": e["unit"]["key"],
             "partner": "", "since": None} for e in found["outliers"]]
    rows += [{"question": "change", "kind": e["unit"]["kind"], "unit": e["unit"]["key"],
              "partner": "", "since": e["change"]["since"]} for e in found["changes"]]
    rows += [{"question": "pair", "kind": "pair", "unit": e["unit"]["dealer"],
              "partner": e["unit"]["player"], "since": None} for e in found["pairs"]]
    return [{**row, "night": night} for row in rows]


def record(engine: Engine, document: dict[str, Any]) -> int:
    """The document's flags added to the store (those not already kept for that night);
    returns how many were added."""
    rows = raised(document)
    if not rows:
        return 0
    now = datetime.now(UTC).isoformat(timespec="seconds")
    return add_flags(engine, rows[0]["night"], rows, now)


def history(engine: Engine, since: str | None, until: str | None) -> dict[Unit, list]:
    """Every flag kept for the nights of the window, by unit, in order of night."""
    found: dict[Unit, list] = defaultdict(list)
    for row in flags_between(engine, since, until):
        found[row["kind"], row["unit"], row["partner"]].append(
            {"night": row["night"], "question": row["question"], "since": row["since"]})
    return dict(found)


def latest(engine: Engine) -> tuple[str | None, list[dict[str, Any]]]:
    """The last night any flag was kept for, and its flags (for the live page): each as
    {"kind", "unit", "partner", "question", "since"}, by unit."""
    night, rows = latest_flags(engine)
    return night, [{"kind": row["kind"], "unit": row["unit"], "partner": row["partner"] or None,
                    "question": row["question"], "since": row["since"]} for row in rows]


def attach(document: dict[str, Any], kept: dict[Unit, list]) -> None:
    """Each dealer's and table's entry, and each pair's, gets its `flag_history`."""
    for entry in document["outliers"]:
        entry["flag_history"] = kept.get((entry["unit"]["kind"], entry["unit"]["key"], ""), [])
    for entry in document["pairs"]:
        entry["flag_history"] = kept.get(
            ("pair", entry["unit"]["dealer"], entry["unit"]["player"]), [])


def first_raised(entry: dict[str, Any], question: str) -> dict[str, Any] | None:
    """The first record of a question's flag in an entry's history."""
    return next((h for h in entry.get("flag_history", []) if h["question"] == question), None)
