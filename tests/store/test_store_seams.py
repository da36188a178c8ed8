"""The run store at its seams (issue 24): an unfinished run is never reported or compared, no
length limit in the schema, a store that fails mid-run, passwords never written or printed,
every store command guarded, store paths and URLs refused in one plain line, a read-only
store read. Real SQLite files and the real PostgreSQL of tests/helpers/postgres.py, same result on
both."""

from __future__ import annotations

import json
import os
import re
import shlex
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import select, text

from auditor import api
from auditor.cli import main
from auditor.run import RunRecorder
from auditor.store import begin_run, list_runs, open_store, schema
from auditor.store.urls import command_line, shown
from tests.helpers import ROOT, SAMPLES
from tests.helpers.audits import audit

T11 = SAMPLES / "standard-t11-2026-11-20.bjh"
T32 = SAMPLES / "tensticks-t32-2026-11-21.bjh"
OUTPUTS = ("findings.json", "findings.csv", "summary.csv", "report.html")




def one_line(captured: str) -> str:
    lines = [line for line in captured.splitlines() if line.strip()]
    assert len(lines) == 1, captured
    assert "Traceback" not in captured
    return lines[0]


def with_password(url: str, password: str = "S3cretPW") -> str:
    """The test server trusts its socket: a password in the URL is accepted and unused."""
    return url.replace("postgresql+psycopg://postgres@", f"postgresql+psycopg://postgres:"
                                                         f"{password}@")


# ---- P05: an unfinished run is never reported or compared ----

def _killed_run(store_url: str, given: list[Path], audited: int) -> int:
    """A run as a kill leaves it: begun, `audited` of its inputs recorded, never finished."""
    engine = open_store(store_url)
    run = {"version": "test", "rule_base": "test", "command": "auditor audit …",
           "started": "2026-11-25T00:00:00+00:00"}
    paths = list(map(str, given))
    run_id = begin_run(engine, run, {"paths": paths, "jobs": 1, "inputs": paths})
    recorder = RunRecorder(engine, run_id, paths)
    for place in range(audited):
        recorder.add(place, api.audit_input(paths[place]))
    engine.dispose()
    return run_id


def test_report_and_diff_refuse_an_unfinished_run_naming_the_inputs_not_audited(
        store_url, tmp_path, capsys):
    given = [T11, T32, SAMPLES / "switch-bjs2-evening.bjh"]
    assert audit(*given, out=tmp_path / "whole", store=store_url) == 1
    assert _killed_run(store_url, given, audited=1) == 2
    capsys.readouterr()
    assert main(["report", "2", "--store", store_url, "--out", str(tmp_path / "r")]) == 2
    line = one_line(capsys.readouterr().err)
    assert line == (f"auditor: run 2 is UNFINISHED (killed, failed or still running): 1 of 3 "
                    f"input(s) audited; not audited: {given[1]}, {given[2]}; it is not "
                    "reported (`auditor runs show 2` lists what it holds)")
    assert not (tmp_path / "r").exists()
    assert main(["diff", "1", "2", "--store", store_url]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert one_line(captured.err).startswith("auditor: run 2 is UNFINISHED")
    assert "it is not compared" in captured.err
    assert main(["runs", "show", "2", "--store", store_url]) == 0
    shown_run = capsys.readouterr().out
    assert "UNFINISHED: 2 input(s) not audited" in shown_run
    assert f"  - {given[2]}: not audited" in shown_run
    assert main(["runs", "show", "2", "--store", store_url, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["not_audited"] == [str(given[1]),
                                                                 str(given[2])]
    assert main(["report", "1", "--store", store_url, "--out", str(tmp_path / "r1")]) == 0


# ---- P06: no arbitrary length limit ----

def _long_names(tmp_path: Path) -> tuple[Path, str, str, str]:
    dealer, player = "D-" + "9" * 250, "P" + "1" * 200
    casino = "Deadwood " + "Example " * 25 + "Casino"
    record = (T11.read_text(encoding="utf-8")
              .replace("dealer D-2207", f"dealer {dealer}")
              .replace("dealer=D-2207", f"dealer={dealer}")
              .replace("player=P-3100", f"player={player}")
              .replace('"Deadwood Example Casino"', f'"{casino}"'))
    path = tmp_path / "long.bjh"
    path.write_text(record, encoding="utf-8")
    return path, dealer, player, casino


def test_a_252_character_dealer_and_201_character_names_audit_on_every_store(
        store_url, tmp_path, capsys):
    path, dealer, player, casino = _long_names(tmp_path)
    assert (len(dealer), len(player), len(casino)) == (252, 201, 215)
    assert audit(T32, path, out=tmp_path / "out", store=store_url) == 1
    written = json.loads((tmp_path / "out" / "findings.json").read_text(encoding="utf-8"))
    assert {f["dealer"] for f in written["findings"] if f["file"] == str(path)} >= {dealer}
    reference = tmp_path / "reference.sqlite"
    assert audit(T32, path, out=tmp_path / "ref", store=str(reference)) == 1
    again = json.loads((tmp_path / "ref" / "findings.json").read_text(encoding="utf-8"))
    assert [f["id"] for f in written["findings"]] == [f["id"] for f in again["findings"]]
    engine = open_store(store_url)
    with engine.connect() as connection:
        assert dealer in set(connection.execute(select(schema.findings.c.dealer)).scalars())
        assert player in set(connection.execute(select(schema.tally_pairs.c.player)).scalars())
    engine.dispose()
    assert main(["trends", "--store", store_url, "--out", str(tmp_path / "t"), "--quiet"]) \
        in (0, 1)


def newest_revision() -> str:
    from alembic.script import ScriptDirectory

    from auditor.store.engine import MIGRATIONS

    (head,) = ScriptDirectory(str(MIGRATIONS)).get_heads()
    return head


def test_migration_0003_widens_a_store_written_at_0002(store_url, tmp_path):
    """A store at 0002 opened by this auditor is upgraded through 0003 (unbounded text) to
    the newest revision, and holds names of any length."""
    from tests.helpers.old_stores import store_at

    store_at(store_url if "://" in store_url else f"sqlite:///{store_url}", "0002")
    path, dealer, _, _ = _long_names(tmp_path)
    assert audit(path, out=tmp_path / "out", store=store_url) == 1
    engine = open_store(store_url)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() \
            == newest_revision()
        assert dealer in set(connection.execute(select(schema.findings.c.dealer)).scalars())
        if engine.dialect.name == "sqlite":
            assert connection.execute(text("PRAGMA integrity_check")).scalar() == "ok"
    engine.dispose()


# ---- P07: a password is never written or printed ----

def test_a_store_password_is_never_written_or_printed(store_url, tmp_path, capsys):
    if "://" not in store_url:
        pytest.skip("an SQLite path has no password (PostgreSQL half of this test)")
    url = with_password(store_url)
    assert audit(T32, out=tmp_path / "o", store=url, more=("--verbose",)) == 1
    assert main(["audit", str(T32), "--out", str(tmp_path / "o2"), f"--store={url}",
                 "--jobs", "1"]) == 1
    assert main(["trends", "--store", url, "--out", str(tmp_path / "t")]) in (0, 1)
    assert main(["runs", "show", "1", "--store", url]) == 0
    assert main(["runs", "--store", url, "--json"]) == 0
    assert main(["runs", "show", "2", "--store", url, "--json"]) == 0
    refused = "postgresql+psycopg://postgres:S3cretPW@127.0.0.1:1/nowhere"
    assert audit(T32, out=tmp_path / "o3", store=refused) == 2
    captured = capsys.readouterr()
    printed = captured.out + captured.err
    assert "S3cretPW" not in printed
    assert "postgres:***@" in printed  # the URL is still named, its password hidden
    for path in [*(tmp_path / "o" / name for name in OUTPUTS),
                 tmp_path / "t" / "trends.json", tmp_path / "t" / "trends.html"]:
        assert "S3cretPW" not in path.read_text(encoding="utf-8"), path
    recorded = json.loads((tmp_path / "o2" / "findings.json").read_text(encoding="utf-8"))
    assert recorded["auditor"]["command"].endswith(
        " " + shlex.join([f"--store={shown(url)}", "--jobs", "1"]))
    engine = open_store(store_url)
    with engine.connect() as connection:
        commands = list(connection.execute(select(schema.runs.c.command, schema.runs.c.document)))
    engine.dispose()
    assert commands and all("S3cretPW" not in a + b for a, b in commands)


def test_urls_are_recorded_with_their_password_hidden():
    assert shown("postgresql+psycopg://auditor:S3cretPW@db:5432/audits") == \
        "postgresql+psycopg://auditor:***@db:5432/audits"
    assert shown("reports/history.sqlite") == "reports/history.sqlite"
    assert shown("weird://u:p@ss:w@rd@h/x") == "weird://u:***@h/x"
    assert command_line(["audit", "x.bjh", "--store", "postgresql://a:pw@h/d",
                         "--store=postgresql://a:pw@h/d"]) == \
        "auditor audit x.bjh --store 'postgresql://a:***@h/d' '--store=postgresql://a:***@h/d'"


# ---- P09, P10, H02, item 8 and 9: one line and exit 2 ----

def _damage(store_url: str) -> None:
    engine = open_store(store_url)
    with engine.begin() as connection:
        connection.execute(text("DROP TABLE findings"))
    engine.dispose()


def test_every_store_command_refuses_a_damaged_store_in_one_line(store_url, tmp_path, capsys):
    assert audit(T32, out=tmp_path / "o", store=store_url) == 1
    assert main(["audit", str(T32), "--out", str(tmp_path / "o"), "--store", store_url,
                 "--jobs", "1"]) == 1
    assert re.fullmatch(r"auditor: run 2 recorded in .+",
                        capsys.readouterr().err.strip().splitlines()[-1])
    _damage(store_url)
    for command in (["runs"], ["runs", "show", "1"], ["diff", "1", "2"],
                    ["report", "1", "--out", str(tmp_path / "r")],
                    ["trends", "--out", str(tmp_path / "t")]):
        assert main([*command, "--store", store_url]) == 2, command
        line = one_line(capsys.readouterr().err)
        assert line.startswith(f"auditor: store {shown(store_url)} cannot be read (") and \
            "findings" in line, command
    assert audit(T32, out=tmp_path / "o3", store=store_url) == 2
    line = one_line(capsys.readouterr().err)
    assert line.startswith(f"auditor: store {shown(store_url)} failed during the audit (")
    assert line.endswith(f"run 3 is left unfinished, and {tmp_path / 'o3'} keeps the outputs "
                         "it had")


def test_a_store_damaged_mid_file_and_an_out_that_is_a_file(tmp_path, capsys):
    good = tmp_path / "good.sqlite"
    assert audit(T11, T32, out=tmp_path / "o", store=str(good)) == 1
    damaged = tmp_path / "mid.sqlite"
    data = bytearray(good.read_bytes())
    middle = len(data) // 2
    data[middle:middle + len(data) // 4] = os.urandom(len(data) // 4)
    damaged.write_bytes(bytes(data))
    capsys.readouterr()
    for command in (["runs"], ["trends", "--out", str(tmp_path / "t")],
                    ["report", "1", "--out", str(tmp_path / "r")], ["diff", "1", "1"]):
        code = main([*command, "--store", str(damaged)])
        err = capsys.readouterr().err
        assert (code, "malformed" in one_line(err)) == (2, True) if code else not err, command
    afile = tmp_path / "afile"
    afile.write_text("x")
    for command in (["trends", "--out", str(afile)], ["report", "1", "--out", str(afile)]):
        assert main([*command, "--store", str(good)]) == 2, command
        assert one_line(capsys.readouterr().err) == \
            f"auditor: --out {afile} exists and is not a folder"


def test_store_paths_that_cannot_be_used_are_one_line_and_exit_2(tmp_path, capsys):
    afile = tmp_path / "afile"
    afile.write_text("x")
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as connection:  # another program's database
        connection.execute("create table runs(id integer primary key)")
    expected = {
        str(afile / "h.sqlite"): f"its folder {afile} cannot be made (a file stands in the way)",
        str(tmp_path / "nonexistent" / "dir" / "h.sqlite"):
            f"the folder {tmp_path / 'nonexistent' / 'dir'} does not exist (give --new-store",
        "postgres://u:pw@h/db": "postgres is not a supported database",
        "mysql://u:pw@h/db": "mysql is not a supported database",
        "postgresql+psycopg2://u:pw@h/db": "cannot be used (No module named 'psycopg2')",
        "sqlite://": "names no file",
        str(foreign): "is not an auditor's run store (it holds a table runs but no schema",
    }
    for location, reason in expected.items():
        assert audit(T32, out=tmp_path / "o", store=location) == 2, location
        line = one_line(capsys.readouterr().err)
        assert line.startswith(f"auditor: store {shown(location)}: ") and reason in line, line
        assert "pw@" not in line
    for location in ("postgres://u:pw@h/db", "mysql://u:pw@h/db"):
        assert audit(T32, out=tmp_path / "o", store=location) == 2
        assert "a store is a SQLite file path, sqlite:///PATH, or postgresql+psycopg://" in \
            capsys.readouterr().err
    assert not (tmp_path / "nonexistent").exists()
    new = tmp_path / "new" / "dir" / "h.sqlite"
    assert audit(T32, out=tmp_path / "o", store=str(new), more=("--new-store",)) == 1
    assert [r.id for r in list_runs(open_store(str(new)))] == [1]
    assert audit(T32, out=tmp_path / "fresh-out", store=tmp_path / "fresh-out") == 2  # a folder


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs Linux's /proc")
def test_a_store_that_cannot_be_used_stops_workers_already_begun(tmp_path):
    """With several jobs the workers begin before the store is opened (their first pieces
    overlap its loading): a store that cannot be used ends them with the run, the tasks
    they were handed unfinished, and says so in one line."""
    from auditor.simulate import simulate, table_spec

    for number in range(1, 7):
        simulate(tmp_path / "records", table_spec("standard", table_id=f"W{number}"),
                 rounds=1500, seed="stopped-workers")
    missing = tmp_path / "nonexistent" / "h.sqlite"
    out = tmp_path / "stopped-out"
    done = subprocess.run([sys.executable, "-m", "auditor", "audit", str(tmp_path / "records"),
                           "--out", str(out), "--quiet", "--jobs", "2", "--store",
                           str(missing)], capture_output=True, text=True, cwd=ROOT,
                          timeout=120, check=False)
    assert done.returncode == 2
    assert one_line(done.stderr).startswith(f"auditor: store {missing}: the folder ")
    time.sleep(0.5)
    left = []  # any process of this run still alive: the workers share its command line
    for entry in Path("/proc").iterdir():
        try:
            if str(out).encode() in (entry / "cmdline").read_bytes():
                left.append(entry.name)
        except OSError:
            continue
    assert left == []
    assert not out.joinpath(".runs").exists()


def test_a_closed_pipe_ends_a_command_quietly(tmp_path):
    store = tmp_path / "h.sqlite"
    assert audit(T32, out=tmp_path / "o", store=str(store)) == 1
    reader, writer = os.pipe()
    os.close(reader)  # the reader is gone before the first line: `| head -0`
    try:
        done = subprocess.run([sys.executable, "-m", "auditor", "runs", "--json", "--store",
                               str(store)], stdout=writer, stderr=subprocess.PIPE, cwd=ROOT,
                              text=True, timeout=120)
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr) == (0, "")


# ---- P13: the store fails mid-run ----

def _simulated(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    assert main(["simulate", "--out", str(folder), "--game", "standard", "--tables", "6",
                 "--rounds", "2000", "--faults", "0.02", "--seed", "7", "--quiet"]) == 0
    return folder


def _mounted_tmpfs(folder: Path, size: str) -> bool:
    folder.mkdir()
    if os.geteuid() != 0:
        return False
    return subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                          capture_output=True).returncode == 0


@pytest.mark.slow  # a few minutes
def test_a_full_disk_under_the_store_is_one_line_and_the_run_left_unfinished(tmp_path):
    records = _simulated(tmp_path)
    full = tmp_path / "full"
    if not _mounted_tmpfs(full, "600k"):
        pytest.skip("a small tmpfs cannot be mounted here (needs root)")
    try:
        out = tmp_path / "out"
        assert audit(T32, out=out, store=str(tmp_path / "before.sqlite")) == 1
        before = {name: (out / name).read_bytes() for name in OUTPUTS}
        done = subprocess.run([sys.executable, "-m", "auditor", "audit", str(records), "--out",
                               str(out), "--store", str(full / "h.sqlite"), "--quiet",
                               "--jobs", "2"], capture_output=True, text=True, cwd=ROOT)
        assert done.returncode == 2, done.stderr
        line = one_line(done.stderr)
        assert line.startswith(f"auditor: store {full / 'h.sqlite'} failed during the audit "
                               "(database or disk is full); run 1 is left unfinished")
        assert {name: (out / name).read_bytes() for name in OUTPUTS} == before
        engine = open_store(str(full / "h.sqlite"), read_only=True)
        assert [(r.id, r.status) for r in list_runs(engine)] == [(1, "running")]
        engine.dispose()
    finally:
        subprocess.run(["umount", str(full)], capture_output=True)


@pytest.mark.slow  # a few minutes
def test_a_postgresql_server_stopped_mid_run_is_one_line_and_the_run_left_unfinished(
        tmp_path):
    from tests.helpers.postgres import PORT, create_database, running_server, server_binaries

    if server_binaries() is None:
        pytest.skip("no PostgreSQL server: scripts/install-postgres.sh installs it")
    records = _simulated(tmp_path)
    with running_server() as socket:
        url = create_database(socket, "stopped")
        command = [sys.executable, "-m", "auditor", "audit", str(records), "--out",
                   str(tmp_path / "out"), "--store", with_password(url), "--quiet",
                   "--jobs", "2"]
        process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        engine = open_store(url)
        deadline = time.monotonic() + 120
        while True:
            with engine.connect() as connection:
                if connection.execute(select(schema.run_inputs.c.position)).first():
                    break
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.05)
        engine.dispose()
        data = Path(socket).parent / "data"
        control = [str(server_binaries() / "pg_ctl"), "-D", str(data)]
        as_server = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*as_server, *control, "-m", "immediate", "stop"], check=True,
                       capture_output=True)
        _, err = process.communicate(timeout=300)
        assert process.returncode == 2, err
        line = one_line(err)
        assert line.startswith("auditor: store postgresql+psycopg://postgres:***@/stopped")
        assert "failed during the audit (" in line and "run 1 is left unfinished" in line
        assert "S3cretPW" not in err
        options = f"-k {socket} -c listen_addresses='' -p {PORT} -F"
        subprocess.run([*as_server, *control, "-o", options, "-l",
                        str(Path(socket).parent / "server.log"), "-w", "start"], check=True,
                       capture_output=True)
        engine = open_store(url, read_only=True)
        assert [(r.id, r.status) for r in list_runs(engine)] == [(1, "running")]
        engine.dispose()


# ---- P14: a store on read-only media is read ----

def test_a_store_on_read_only_media_is_read(tmp_path, capsys):
    folder = tmp_path / "ro"
    folder.mkdir()
    store = folder / "h.sqlite"
    assert audit(T11, T32, out=tmp_path / "o", store=str(store)) == 1
    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    mounted = False
    if os.geteuid() == 0:
        bind = subprocess.run(["mount", "--bind", str(folder), str(folder)], capture_output=True)
        mounted = bind.returncode == 0 and subprocess.run(
            ["mount", "-o", "remount,ro,bind", str(folder)], capture_output=True).returncode == 0
        if bind.returncode == 0 and not mounted:
            subprocess.run(["umount", str(folder)], capture_output=True)
        if not mounted:
            pytest.skip("root here, and a read-only bind mount cannot be made: chmod would "
                        "not stop root's writes")
    else:
        store.chmod(0o444)
        folder.chmod(0o555)
    try:
        capsys.readouterr()
        assert main(["runs", "--store", str(store)]) == 0
        assert main(["report", "1", "--store", str(store), "--out", str(tmp_path / "r")]) == 0
        assert main(["trends", "--store", str(store), "--out", str(tmp_path / "t"),
                     "--quiet"]) in (0, 1)
        assert main(["diff", "1", "1", "--store", str(store)]) == 0
        assert capsys.readouterr().err == ""
        for name in OUTPUTS:
            assert (tmp_path / "r" / name).read_bytes() == (tmp_path / "o" / name).read_bytes()
    finally:
        if mounted:
            subprocess.run(["umount", str(folder)], check=True)
        else:
            folder.chmod(0o755)
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == before


# ---- fuzz: no store location is an auditor bug ----

def test_no_store_location_gives_exit_3(tmp_path, monkeypatch):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    monkeypatch.chdir(tmp_path)
    schemes = st.sampled_from(["", "sqlite://", "sqlite:///", "postgresql://",
                               "postgresql+psycopg://", "postgres://", "mysql://", "x+y://",
                               "file:", "://"])
    parts = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"),
                    max_size=30)
    hosts = st.sampled_from(["u:pw@127.0.0.1:1/db", "u@127.0.0.1:1/", "@:/", ":::",
                             "127.0.0.1:99999/x", "h:port/x?connect_timeout=1"])

    @settings(max_examples=60, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(schemes, hosts, parts)
    def probe(scheme: str, host: str, tail: str) -> None:
        location = scheme + host + tail
        if not location or location.startswith("-"):
            return
        for command in (["runs"], ["trends", "--out", str(tmp_path / "t"), "--quiet"]):
            assert main([*command, "--store", location]) in (0, 1, 2), location

    probe()
    for location in ("postgres://u:pw@h/db", "sqlite:///" + str(tmp_path / "a" / "b.sqlite"),
                     "postgresql+psycopg://u:pw@127.0.0.1:1/db", str(tmp_path / "ok.sqlite")):
        assert audit(T32, out=tmp_path / "o", store=location) in (1, 2), location
