"""Audits on a real Dask cluster (auditor/cluster.py): the same results as one process.

A `LocalCluster` of two worker processes, and a scheduler and two workers started by the
test with Dask's own command lines (`dask scheduler`, `dask worker`), exactly as a floor
would start them. Outputs are compared with `--jobs 1`, apart from the run's command and
times; a worker killed mid-run costs a retry, never a file; inputs the workers cannot read
at the path given travel as bytes.
"""

from __future__ import annotations

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
from auditor.audit import audit_file, merge
from auditor.simulate import simulate, table_spec

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


def test_a_scheduler_that_cannot_be_reached_is_refused_before_the_run(tmp_path: Path) -> None:
    (tmp_path / "a.bjh").write_text("bjh 1\n")
    process = audit_command([str(tmp_path / "a.bjh"), "--scheduler",
                             f"tcp://127.0.0.1:{free_port()}", "--out", str(tmp_path / "out")],
                            tmp_path)
    assert process.returncode == 2
    assert "cannot reach the Dask scheduler" in process.stderr
    assert not (tmp_path / "out" / "findings.json").exists()
