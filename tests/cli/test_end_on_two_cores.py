"""The end of a run on two cores (issue 27): report.html rendered by a forked child while the
parent writes the other outputs. The child never uses its parent's store connections, reads
in a transaction that waits for no writer, and a child that fails leaves the set of outputs
whole, written by the parent. Real SQLite files, real forks, a real kill."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from auditor import api
from auditor.output.aside import can_fork
from auditor.run import RunRecorder
from auditor.store import begin_run, open_store
from auditor.store import engine as store_engine
from auditor.store.runs import StoredFindings
from tests.helpers import ROOT

T11 = ROOT / "sample_logs" / "standard-t11-2026-11-20.bjh"
# T11's findings, as (citation, line), in the run's order
T11_FINDINGS = [("20:18:15:26", 424), ("20:18:15:30", 455), ("20:18:15:06", 524),
                ("20:18:15:23", 567), ("record:syntax", 720)]
RUN = {"version": "test", "rule_base": "test", "command": "auditor audit …",
       "started": "2026-11-25T00:00:00+00:00"}


def recorded_run(location: str) -> int:
    engine = open_store(location, new_store=True)
    run_id = begin_run(engine, RUN, {"paths": [str(T11)]})
    recorder = RunRecorder(engine, run_id, [str(T11)])
    recorder.add(0, api.audit_input(str(T11)))
    recorder.close()
    engine.dispose()
    return run_id


def test_a_read_of_the_store_neither_waits_for_a_writer_nor_holds_one_up(tmp_path, monkeypatch):
    """A writer holds the write lock; the run's findings are walked from another connection
    meanwhile, and a write begins and commits while a walk is half-way. Before, every read
    began with BEGIN IMMEDIATE: the walk waited for the writer (here 0.3 s, then 'database is
    locked'), and two processes writing the outputs took turns."""
    location = str(tmp_path / "history.sqlite")
    run_id = recorded_run(location)
    monkeypatch.setattr(store_engine, "SQLITE_BUSY_MILLISECONDS", 300)
    writer, reader = open_store(location), open_store(location)
    findings = StoredFindings(reader, run_id)
    expected = T11_FINDINGS
    with writer.begin() as connection:  # the write lock, held
        connection.execute(text("UPDATE runs SET status = status WHERE id = :id"),
                           {"id": run_id})
        assert [(f.citation, f.line) for f in findings] == expected
    walk = iter(findings)
    first = next(walk)  # a walk half-way: its transaction open
    with writer.begin() as connection:
        connection.execute(text("UPDATE runs SET status = status WHERE id = :id"),
                           {"id": run_id})
    assert [(first.citation, first.line), *((f.citation, f.line) for f in walk)] == expected
    writer.dispose()
    reader.dispose()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="this system does not fork")
def test_a_forked_child_opens_store_connections_of_its_own(tmp_path):
    """A child forked with the store open (a pool's worker, the process writing the report)
    gets a fresh pool: it never uses, or closes, the SQLite handle its parent pooled."""
    location = str(tmp_path / "history.sqlite")
    run_id = recorded_run(location)
    engine = open_store(location)
    with engine.connect() as connection:
        parent_handle = id(connection.connection.dbapi_connection)
    pid = os.fork()
    if pid == 0:
        code = 3
        try:
            with engine.connect() as connection:
                child_handle = id(connection.connection.dbapi_connection)
            walked = [(f.citation, f.line) for f in StoredFindings(engine, run_id)]
            code = 0 if child_handle != parent_handle and walked == T11_FINDINGS else 4
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, "the child used its parent's connection"
    with engine.connect() as connection:  # the parent's own connection still works
        assert id(connection.connection.dbapi_connection) == parent_handle
        assert connection.execute(text("SELECT count(*) FROM findings")).scalar() == 5
    engine.dispose()


# The publishing of a set with one file written aside, in a fresh interpreter (no thread of
# another test: a process with threads writes everything itself). Each file's text names
# the process that wrote it; `HOW` says what the child does.
_PUBLISH = textwrap.dedent("""
    import os, signal, sys, time
    from pathlib import Path
    from auditor.output.aside import can_fork
    from auditor.output.publish import publish

    parent, how, out = os.getpid(), sys.argv[1], Path(sys.argv[2])
    assert can_fork()

    def written(name):
        def text():
            if os.getpid() != parent:
                (out.parent / "child.pid").write_text(str(os.getpid()))
                if how == "killed":
                    os.kill(os.getpid(), signal.SIGKILL)
                if how == "fails":
                    raise OSError("no space left on device")
                if how == "slow":
                    time.sleep(60)
            return [name, " by ", "parent" if os.getpid() == parent else "child"]
        return text

    def broken():
        while not (out.parent / "child.pid").exists():
            time.sleep(0.01)
        raise RuntimeError("the parent fails")

    files = {name: written(name) for name in ("a.json", "b.csv", "report.html")}
    if how == "slow":
        files["a.json"] = broken
    publish(out, files, aside=("report.html",))
""")


def _publish(tmp_path: Path, how: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", _PUBLISH, how, str(tmp_path / "out")],
                          capture_output=True, text=True, cwd=ROOT, timeout=60,
                          check=False)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="this system does not fork")
@pytest.mark.parametrize(("how", "report_by"), [("writes", "child"), ("killed", "parent"),
                                                ("fails", "parent")])
def test_a_file_written_aside_is_in_the_set_whatever_becomes_of_the_child(
        tmp_path, how, report_by):
    done = _publish(tmp_path, how)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "out"
    assert (out / "a.json").read_text() == "a.json by parent"
    assert (out / "b.csv").read_text() == "b.csv by parent"
    assert (out / "report.html").read_text() == f"report.html by {report_by}"
    assert (tmp_path / "child.pid").exists()  # a child was forked
    folder = (out / "current").resolve()
    assert sorted(p.name for p in folder.iterdir()) == ["a.json", "b.csv", "report.html"]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="this system does not fork")
def test_a_parent_that_fails_leaves_no_child_running(tmp_path):
    started = time.monotonic()
    done = _publish(tmp_path, "slow")
    assert done.returncode != 0 and "the parent fails" in done.stderr
    assert time.monotonic() - started < 30  # the child's minute of sleep was not waited for
    child = int((tmp_path / "child.pid").read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(child, 0)
    assert not (tmp_path / "out" / "current").exists()  # no set was published


def test_a_process_with_another_thread_writes_every_file_itself():
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not can_fork()
    finally:
        stop.set()
        thread.join()


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_a_run_on_two_processes_writes_the_report_aside_and_the_same_outputs(
        store_url, tmp_path):
    """`auditor audit --jobs 2`, on SQLite and PostgreSQL: a child is forked for the report
    once the outputs begin (seen among the run's processes after its run folder is made),
    and the four outputs are those of `--jobs 1`, byte for byte but for the run's clock."""
    from auditor.simulate import simulate, table_spec
    from tests.helpers.processes import children
    from tests.helpers.run_outputs import OUTPUTS, RUN_CLOCK

    for number in range(1, 4):
        simulate(tmp_path / "records", table_spec("standard", table_id=f"A{number}"),
                 rounds=2500, seed="aside", faults=0.05)
    outputs, forked = {}, set()
    for jobs in (1, 2):
        out = tmp_path / f"out-{jobs}"
        audit = subprocess.Popen([sys.executable, "-m", "auditor", "audit",
                                  str(tmp_path / "records"), "--out", str(out), "--quiet",
                                  "--jobs", str(jobs), "--store", store_url], cwd=ROOT)
        while audit.poll() is None:
            if jobs == 2 and (out / ".runs").exists():
                forked.update(children(audit.pid))
            time.sleep(0.002)
        assert audit.returncode == 1
        outputs[jobs] = {name: RUN_CLOCK.sub("", (out / name).read_text(encoding="utf-8"))
                         for name in OUTPUTS}
    assert forked, "no child was seen writing the report"
    assert outputs[2] == outputs[1]
