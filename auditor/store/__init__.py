"""The run store: every audit kept in a database (SQLite by default, PostgreSQL for a floor).

`open_store` gives an engine at the current schema; `recording` records runs (fed by the run
layer's one merger, `auditor.run.RunMerger`), `runs` reads them back. All of the auditor's SQL
is in this package. Only the parent process of an audit writes here: workers never touch the
database.
"""

from auditor.store.engine import StoreError, StoreFailure, open_store, store_url
from auditor.store.recording import RunWriter
from auditor.store.runs import (
    RunRow,
    annotate_findings,
    begin_run,
    finding_documents,
    finish_run,
    latest_run_over,
    list_runs,
    load_result,
    missing_statements,
    record_result,
    run_document,
    run_extras_of,
    run_inputs_sha256,
)

__all__ = [
    "RunRow",
    "RunWriter",
    "StoreError",
    "StoreFailure",
    "annotate_findings",
    "begin_run",
    "finding_documents",
    "finish_run",
    "latest_run_over",
    "list_runs",
    "load_result",
    "missing_statements",
    "open_store",
    "record_result",
    "run_document",
    "run_extras_of",
    "run_inputs_sha256",
    "store_url",
]
