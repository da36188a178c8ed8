"""Nights recorded in a store as `auditor audit` records their runs, without writing the
four outputs: the floors of the trends tests, kept fast."""

from __future__ import annotations

from pathlib import Path

from auditor.cli import exit_code
from auditor.identity import apply_identity
from auditor.run import audit_paths, collect_paths
from auditor.store import begin_run, finish_run, open_store, record_result


def record_nights(store: str, nights: list[Path]) -> None:
    """Each night audited and recorded as a run, as `auditor audit` records it."""
    engine = open_store(store)
    for night in nights:
        run = {"version": "test", "rule_base": "test", "command": f"audit {night.name}",
               "started": "2026-11-24T00:00:00+00:00"}
        run_id = begin_run(engine, run, {})
        result = audit_paths(collect_paths([str(night)]), jobs=2)
        apply_identity(result)
        record_result(engine, run_id, result)
        finish_run(engine, run_id, {**run, "finished": "2026-11-24T00:01:00+00:00"},
                   exit_code(result))
    engine.dispose()
