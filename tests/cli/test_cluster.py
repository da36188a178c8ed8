"""Audits on a real Dask cluster (auditor/cluster.py): the same results as one process.

A `LocalCluster` of two worker processes, and a scheduler and two workers started by the
test with Dask's own command lines (`dask scheduler`, `dask worker`), exactly as a floor
would start them. Outputs are compared with `--jobs 1`, apart from the run's command and
times; a worker killed mid-run costs a retry, never a file; inputs the workers cannot read
at the path given travel as bytes.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from auditor import api
from auditor.audit import audit_file
from auditor.run import merge
from auditor.simulate import simulate, table_spec
from tests.helpers import ROOT

distributed = pytest.importorskip(
    "distributed", reason="dask[distributed] is not installed: pip install '.[cluster]'")

BIN = Path(sys.executable).parent
GAMES = {"standard": {"surrender": "late"}, "switch": {}, "db21": {"db21.paytable": "3"},
         "tensticks": {"tensticks.lights": "4"}}
RUN_FIELDS = ("command", "started", "finished")  # what differs between two runs


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Twelve records of every game with faults; the first is long enough to be split."""
    base = tmp_path_factory.mktemp("cluster")
    paths: list[str] = []
    for game, options in GAMES.items():
        spec = table_spec(game, options=options)
        result = simulate(base / game, spec, tables=3, rounds=500 if paths else 1500,
                          seed=f"cluster-{game}", faults=0.05)
        paths.extend(str(path) for path in result.files)
    return paths


def by_one_process(paths: list[str]):
    return merge([audit_file(path) for path in paths])


def assert_same_audit(result, expected) -> None:
    assert result.findings == expected.findings
    assert [f.statement for f in result.findings] == [f.statement for f in expected.findings]
    assert result.inputs == expected.inputs
    assert result.applied == expected.applied
    assert list(result.evidence) == list(expected.evidence)


def gathered(results, count: int):
    done = dict(results)
    assert sorted(done) == list(range(count)), "every file comes back exactly once"
    return merge([done[i] for i in range(count)])


def test_a_local_cluster_gives_what_one_process_gives(records: list[str]) -> None:
    """Two worker processes of a LocalCluster, the first file split in pieces."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        from auditor.cluster import audit_on_cluster

        assert set(client.run(profiling).values()) == {True}
        results = audit_on_cluster(records, client, split_bytes=200_000, piece_bytes=60_000)
        first = [next(results)]
        # Dask's profiler (a stack sample every 10 ms) is paused while the run lasts ...
        assert set(client.run(profiling).values()) == {False}
        result = gathered(first + list(results), len(records))
        # ... and started again after it
        assert set(client.run(profiling).values()) == {True}
    assert_same_audit(result, by_one_process(records))


def profiling(dask_worker) -> bool:
    return dask_worker.periodic_callbacks["profile"].is_running()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """`dask scheduler` and `dask worker` processes, as a floor starts them."""

    def __init__(self, workers: int, cwd: Path) -> None:
        self.address = f"tcp://127.0.0.1:{free_port()}"
        self.processes: list[subprocess.Popen] = []
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": cwd}
        self.processes.append(subprocess.Popen(
            [BIN / "dask", "scheduler", "--host", "127.0.0.1", "--port",
             self.address.rsplit(":", 1)[1], "--no-dashboard"], **quiet))
        for _ in range(workers):  # no nanny: a worker killed stays dead
            self.processes.append(subprocess.Popen(
                [BIN / "dask", "worker", self.address, "--nthreads", "1", "--no-nanny",
                 "--no-dashboard"], **quiet))
        self.client = self._wait_for(workers)

    def _wait_for(self, workers: int):
        from distributed import Client

        deadline = time.monotonic() + 60
        while True:
            try:
                client = Client(self.address, timeout="5s", set_as_default=False)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        client.wait_for_workers(workers, timeout=60)
        return client

    def worker_pids(self) -> list[int]:
        return sorted(self.client.run(os.getpid).values())

    def stop(self) -> None:
        self.client.close()
        for process in self.processes:
            process.kill()
            process.wait()


@pytest.fixture
def floor_cluster(tmp_path: Path):
    cluster = Cluster(2, cwd=tmp_path)
    yield cluster
    cluster.stop()


def outputs(folder: Path) -> dict[str, str]:
    """The run's outputs, but for the run's command line and times."""
    texts = {}
    for name in ("findings.json", "findings.csv", "summary.csv"):
        text = (folder / name).read_text()
        if name == "findings.json":
            document = json.loads(text)
            for key in RUN_FIELDS:
                document["auditor"].pop(key, None)
            text = json.dumps(document, sort_keys=True)
        texts[name] = text
    return texts


def audit_command(arguments: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([BIN / "auditor", "audit", *arguments, "--quiet"], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def test_the_command_line_on_a_scheduler_and_two_workers_writes_what_jobs_1_writes(
        records: list[str], floor_cluster: Cluster, tmp_path: Path) -> None:
    local = audit_command([*records, "--jobs", "1", "--out", str(tmp_path / "local")],
                          tmp_path)
    remote = audit_command([*records, "--scheduler", floor_cluster.address, "--out",
                            str(tmp_path / "remote")], tmp_path)
    assert (local.returncode, remote.returncode) == (1, 1), remote.stderr
    assert outputs(tmp_path / "remote") == outputs(tmp_path / "local")


def test_a_worker_killed_mid_run_costs_a_retry_not_a_file(
        records: list[str], floor_cluster: Cluster) -> None:
    results = api.audit_inputs(records, cluster=floor_cluster.client)
    first = next(results)  # the cluster is at work: one worker dies now
    victim = floor_cluster.worker_pids()[0]
    os.kill(victim, signal.SIGKILL)
    result = gathered([first, *results], len(records))
    assert victim not in floor_cluster.worker_pids()
    assert not result.unreadable
    assert_same_audit(result, by_one_process(records))


def test_inputs_the_workers_cannot_read_are_sent_as_bytes(
        records: list[str], floor_cluster: Cluster, tmp_path: Path) -> None:
    """Relative paths from a folder the workers are not in: every input travels as bytes,
    and the outputs name the files as given."""
    from auditor.cluster import shipped_inputs

    here = Path(records[0]).parent.parent
    relative = [os.path.relpath(path, here) for path in records]
    before = os.getcwd()
    os.chdir(here)  # (the workers run in the test's own temporary folder)
    try:
        assert shipped_inputs(floor_cluster.client, relative) == set(relative)
    finally:
        os.chdir(before)
    local = audit_command([*relative, "--jobs", "1", "--out", str(tmp_path / "local")], here)
    remote = audit_command([*relative, "--scheduler", floor_cluster.address, "--out",
                            str(tmp_path / "remote")], here)
    assert (local.returncode, remote.returncode) == (1, 1), remote.stderr
    assert outputs(tmp_path / "remote") == outputs(tmp_path / "local")
    assert '"file": "standard/' in (tmp_path / "remote" / "findings.json").read_text()


@pytest.mark.parametrize("address", ["closed", "nowhere", "tcp://127.0.0.1:99999"])
def test_a_scheduler_that_cannot_be_reached_is_refused_before_the_run(
        tmp_path: Path, address: str) -> None:
    """A closed port on this machine, an address with no port, a port out of range: one
    line, exit 2, no Dask traceback, in bounded time (only loopback is ever contacted)."""
    (tmp_path / "a.bjh").write_text("bjh 1\n")
    if address == "closed":
        address = f"tcp://127.0.0.1:{free_port()}"
    started = time.monotonic()
    process = audit_command([str(tmp_path / "a.bjh"), "--scheduler", address, "--out",
                             str(tmp_path / "out")], tmp_path)
    assert time.monotonic() - started < 90
    assert process.returncode == 2
    lines = process.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"auditor: cannot reach the Dask scheduler at {address}: "), process.stderr
    assert not (tmp_path / "out" / "findings.json").exists()


SAME_SIZE_FAULT = ("settle s3h1 main win 20", "settle s3h1 main win 30")  # even money, or 3:2


def test_a_workers_own_copy_of_another_content_is_never_audited(tmp_path: Path) -> None:
    """The worker runs in a folder holding a stale night.bjh of the same size as the one
    given (the even-money payout not yet corrected): the input's bytes are sent instead,
    and the cluster writes what one process writes."""
    standard = ROOT / "sample_logs" / "standard-t11-2026-11-20.bjh"
    stale = standard.read_text(encoding="utf-8")
    given = stale.replace(*SAME_SIZE_FAULT, 1)  # line 524 only
    assert given != stale and len(given) == len(stale)
    (tmp_path / "worker").mkdir()
    (tmp_path / "here").mkdir()
    (tmp_path / "worker" / "night.bjh").write_text(stale, encoding="utf-8")
    (tmp_path / "here" / "night.bjh").write_text(given, encoding="utf-8")
    cluster = Cluster(1, cwd=tmp_path / "worker")
    try:
        from auditor.cluster import shipped_inputs

        before = os.getcwd()
        os.chdir(tmp_path / "here")
        try:
            assert shipped_inputs(cluster.client, ["night.bjh"]) == {"night.bjh"}
        finally:
            os.chdir(before)
        here = tmp_path / "here"
        local = audit_command(["night.bjh", "--jobs", "1", "--out", "local"], here)
        remote = audit_command(["night.bjh", "--scheduler", cluster.address, "--out",
                                "remote"], here)
    finally:
        cluster.stop()
    assert (local.returncode, remote.returncode) == (1, 1), remote.stderr
    assert outputs(here / "remote") == outputs(here / "local")
    document = json.loads((here / "remote" / "findings.json").read_text())
    assert [(f["citation"], f["line"]) for f in document["findings"]] == [
        ("20:18:15:26", 424), ("20:18:15:30", 455), ("20:18:15:23", 567),
        ("record:syntax", 720)]  # no even-money payout on line 524: the stale file's


def test_the_scheduler_killed_mid_run_is_one_line_exit_2_and_an_unfinished_run(
        tmp_path: Path) -> None:
    """The scheduler dies while the run's files are audited: told as a lost cluster (not a
    file's fault, not a bug of the auditor), exit 2, the run left unfinished in the store."""
    inputs = simulate(tmp_path / "in", table_spec("standard", options={}), tables=24,
                      rounds=400, seed="scheduler-dies", faults=0.02).files
    assert len(inputs) == 24
    cluster = Cluster(1, cwd=tmp_path)
    store = tmp_path / "history.sqlite"
    process = subprocess.Popen(
        [BIN / "auditor", "audit", str(tmp_path / "in"), "--scheduler", cluster.address,
         "--out", str(tmp_path / "out"), "--store", str(store), "--quiet"], cwd=tmp_path,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while stored_inputs(store) < 1:  # the run is under way: a file is recorded
            assert process.poll() is None and time.monotonic() < deadline, \
                process.stderr.read() if process.poll() is not None else "no file stored"
            time.sleep(0.05)
        cluster.processes[0].kill()  # the scheduler
        killed = time.monotonic()
        _, stderr = process.communicate(timeout=120)
        assert time.monotonic() - killed < 60
    finally:
        if process.poll() is None:
            process.kill()
        for worker in cluster.processes:
            worker.kill()
            worker.wait()
        with contextlib.suppress(Exception):
            cluster.client.close(timeout=5)
    assert process.returncode == 2, stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith(f"auditor: the Dask cluster was lost mid-run (the scheduler at "
                               f"{cluster.address} stopped answering) after "), stderr
    assert lines[0].endswith(" of 24 input(s); the run is recorded as unfinished: audit again")
    listed = subprocess.run([BIN / "auditor", "runs", "--store", str(store)],
                            capture_output=True, text=True, timeout=120)
    assert listed.stdout.splitlines()[1].split()[2] == "unfinished"


def stored_inputs(store: Path) -> int:
    import sqlite3

    if not store.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as connection:
            return connection.execute("select count(*) from run_inputs").fetchone()[0]
    except sqlite3.Error:  # not made yet
        return 0
