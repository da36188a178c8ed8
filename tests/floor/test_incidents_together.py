"""Two `auditor incidents` exports into one folder at once (auditor/incidents.py): each
export's incidents are published, none dropped as another's leftover."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from sqlalchemy import insert

from auditor import incidents
from auditor.incidents import EXPORT, PENDING, Floor, export_incidents
from auditor.output import files
from auditor.store import open_store, schema
from tests.helpers.waiting import until


def _store_of_two_runs(path: Path):
    engine = open_store(str(path), new_store=True)
    with engine.begin() as connection:
        for run_id in (1, 2):
            connection.execute(insert(schema.runs).values(
                id=run_id, tool_version="test", rule_base="test", command="audit",
                started=f"2026-11-2{run_id}T06:00:00+00:00", status="finished",
                settings="{}", document="{}", extras="{}"))
            rows = []
            for position in range(2):
                finding_id = f"BJH-{run_id}{position:015X}"
                document = {"id": finding_id, "citation": "20:18:15:09", "rule": "payout",
                            "severity": "high", "file": f"t{run_id}.bjh",
                            "line": position + 1, "message": "paid wrongly"}
                rows.append({"run_id": run_id, "position": position, "input_position": 0,
                             "order_key": position.to_bytes(4, "big"),
                             "finding_id": finding_id, "citation": "20:18:15:09",
                             "severity": "high", "file": f"t{run_id}.bjh",
                             "line": position + 1, "waived": False,
                             "document": json.dumps(document)})
            connection.execute(insert(schema.findings), rows)
    return engine


def _waits_for_a_lock() -> bool:
    """Whether a thread of this process waits for a file lock (/proc/locks marks a waiter
    with `->`)."""
    return any("->" in line and f" {os.getpid()} " in line
               for line in Path("/proc/locks").read_text().splitlines())


def test_an_export_begun_while_another_is_pending_drops_nothing_of_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second export began as the first had written its files, not yet remembered in
    the store: it took them for the leftover of an export that never left and removed
    them; the first, once remembered, found nothing to publish. Its incidents were
    remembered as exported and never written out."""
    engine = _store_of_two_runs(tmp_path / "history.sqlite")
    out = tmp_path / "out"
    published: list[str] = []
    real_replace, real_write = os.replace, files.write_atomic
    second: dict = {}

    def replace(source, target, *arguments, **keywords):
        if Path(target) == out / "incidents.json":  # published (not written pending)
            published.extend(item["incident_id"] for item in json.loads(
                Path(source).read_text(encoding="utf-8"))["incidents"])
        return real_replace(source, target, *arguments, **keywords)

    def write_atomic(path, text):
        real_write(path, text)
        if Path(path).name == EXPORT and not second:  # the first export, not yet remembered
            def run() -> None:
                second["result"] = export_incidents(engine, 1, out, Floor(), "history")
            second["thread"] = threading.Thread(target=run, daemon=True)
            second["thread"].start()
            until(lambda: not (out / PENDING).exists() or _waits_for_a_lock(),
                  what="the second export to begin")

    monkeypatch.setattr(incidents.os, "replace", replace)
    monkeypatch.setattr(files, "write_atomic", write_atomic)
    try:
        assert export_incidents(engine, 2, out, Floor(), "history") == (2, 0)
        second["thread"].join(60)
        assert second["result"] == (2, 0)
    finally:
        engine.dispose()
    assert sorted(published) == ["BJH-1000000000000000", "BJH-1000000000000001",
                                 "BJH-2000000000000000", "BJH-2000000000000001"]
