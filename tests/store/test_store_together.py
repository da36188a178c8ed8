"""Two commands remembering the same things in one PostgreSQL store at once: the second
waits for the first and reads what it remembered (on SQLite each transaction that may
write takes the write lock at its start: auditor/store/engine.py)."""

from __future__ import annotations

import threading

from sqlalchemy import insert, text

from auditor.store import open_store, schema
from auditor.store.engine import one_at_a_time
from auditor.store.incidents import export_transaction
from auditor.store.trend_flags import add_flags
from tests.helpers.waiting import until

IDS = ["BJH-1", "BJH-2", "BJH-3"]
FLAG = {"question": "outlier", "kind": "dealer", "unit": "D-1", "partner": "",
        "night": "2026-11-20", "since": None}


def _with_a_run(url: str):
    engine = open_store(url)
    with engine.begin() as connection:
        connection.execute(insert(schema.runs).values(
            id=1, tool_version="test", rule_base="test", command="audit",
            started="2026-11-21T06:00:00+00:00", status="finished", settings="{}",
            document="{}", extras="{}"))
    return engine


def _waiting(engine) -> bool:
    """Whether another session of the database waits for a lock."""
    with engine.connect() as connection:
        return connection.execute(text(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type IN "
            "('Lock', 'LWLock') AND pid <> pg_backend_pid() "
            "AND datname = current_database()")).scalar_one() > 0


def _meanwhile(work) -> tuple[threading.Thread, dict]:
    said: dict = {}

    def run() -> None:
        try:
            said["value"] = work()
        except Exception as error:  # kept for the test to report
            said["error"] = error
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, said


def test_two_exports_at_once_each_incident_leaves_once(postgres_socket) -> None:
    """Both read the findings exported before (none), then both remembered them: the
    second failed on the first's rows, an error out of the store for an export that had
    nothing left to export."""
    from tests.helpers.postgres import create_database

    url = create_database(postgres_socket, "bjh_exports_together")
    first_engine, second_engine = _with_a_run(url), open_store(url)

    def second() -> set[str]:
        with export_transaction(second_engine) as exports:
            before = exports.exported_before(IDS)
            exports.remember(1, "second", sorted(set(IDS) - before))
            return before

    try:
        with export_transaction(first_engine) as exports:
            assert exports.exported_before(IDS) == set()
            exports.remember(1, "first", IDS)
            thread, said = _meanwhile(second)
            until(lambda: _waiting(first_engine) or not thread.is_alive(),
                  what="the second export to wait for the first")
        thread.join(60)
        assert said == {"value": set(IDS)}
    finally:
        first_engine.dispose()
        second_engine.dispose()


def test_two_trends_runs_at_once_keep_each_flag_once(postgres_socket) -> None:
    """Both read the night's flags kept (none), then both added the same flag: the second
    failed on the first's row."""
    from tests.helpers.postgres import create_database

    url = create_database(postgres_socket, "bjh_flags_together")
    first_engine, second_engine = _with_a_run(url), open_store(url)
    try:
        with first_engine.begin() as connection:  # the first run's add_flags, held open
            one_at_a_time(connection, "trend flags")
            connection.execute(insert(schema.trend_flags).values(**FLAG, raised="first"))
            thread, said = _meanwhile(
                lambda: add_flags(second_engine, "2026-11-20", [FLAG], "second"))
            until(lambda: _waiting(first_engine) or not thread.is_alive(),
                  what="the second run to wait for the first")
        thread.join(60)
        assert said == {"value": 0}
    finally:
        first_engine.dispose()
        second_engine.dispose()
