"""Audits on a Dask cluster: `auditor audit … --scheduler ADDRESS`.

The run's tasks (auditor/tasks.py: whole files, and large files in pieces) go to the
cluster's workers instead of this machine's processes; results come back as each task
ends and are recorded in the run store by this process, exactly as in a local run, so
the findings, their IDs and the outputs are the same whatever the number of workers.

- Workers must run the same auditor (version and rule base): a cluster that does not is
  refused before anything is audited, since its findings would not be this auditor's.
- An input that a worker cannot read at the path given (another machine, another working
  folder), or whose copy there is not the same file (its SHA-256 differs from the input's:
  a stale copy of the same name, even of the same size), is sent to the cluster as bytes:
  the parent reads it and the scheduler hands it to a worker, once per task. It costs the
  file's size in memory and on the network. The check reads every input once here and,
  on each worker, every input of the right size there.
- A worker lost mid-run costs a retry: the scheduler gives its tasks to the others. A task
  that kills workers again and again (Dask's `allowed-failures`) gives up its file, named,
  and every other file is still audited.
- Dask's statistical profiler (`distributed.worker.profile`, a stack sample of the task's
  thread every 10 ms, taken on the worker's event loop) is paused on the run's workers
  while the run lasts and started again after it: it costs a worker about 3 % of its CPU
  on these pure-Python tasks and tells nothing the auditor needs. A worker whose profiler
  is off stays off; a worker that joins mid-run keeps its own.
- Tasks go largest first, as in a local pool, with Dask priorities (a piece audited again
  before anything else, since its file waits for it), so one large file left for last does
  not keep one worker busy while the others wait.

`dask[distributed]` is an optional extra (`pip install '.[cluster]'`).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import stat
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError
from typing import TYPE_CHECKING

from auditor.audit import audit_file
from auditor.results import AuditFailure, FileResult

if TYPE_CHECKING:
    from auditor.tasks import Task

# The tasks (auditor/tasks.py, with its process pools) are loaded when a run goes to a
# cluster: an audit on this machine imports this module for ClusterError alone.

CONNECT_TIMEOUT = "10s"
CLOSE_SECONDS = 5
NETWORK_SCHEMES = ("tcp", "tls", "ws", "wss")  # the schedulers a floor can reach


class ClusterError(Exception):
    """The cluster cannot be used: the message says why."""


PROFILER_CALLBACKS = ("profile", "profile-cycle")  # Worker.periodic_callbacks


def file_sha256(path: str) -> str | None:
    """The SHA-256 of the regular file at `path` (hex), or None if it is none or cannot be
    read (a FIFO or a device is never opened: it could block)."""
    digest = hashlib.sha256()
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as handle:
            while block := handle.read(HASH_BLOCK):
                digest.update(block)
    except OSError:
        return None
    return digest.hexdigest()


HASH_BLOCK = 1 << 20


def _worker_facts(checks: list[tuple[str, int, str | None]], pause_profiler: bool = False,
                  dask_worker=None) -> dict:
    """On a worker: its auditor's versions, and which inputs it cannot read as given (no
    file there, or not the same bytes: another size or another SHA-256); with
    `pause_profiler`, Dask's profiler paused there (`profiler_paused`: it was running)."""
    from auditor import __version__
    from auditor.rulebase import rule_base_version

    unreadable = []
    for path, size, sha256 in checks:
        try:
            same = os.path.getsize(path) == size and file_sha256(path) == sha256
        except OSError:
            same = False
        if not same:
            unreadable.append(path)
    paused = False
    if pause_profiler and dask_worker is not None:
        paused = _profiler(dask_worker, run=False)
    from auditor.build import build_fingerprint

    return {"version": __version__, "rule_base": rule_base_version(),
            "build": build_fingerprint(), "unreadable": unreadable,
            "profiler_paused": paused}


def _profiler(dask_worker, run: bool) -> bool:
    """Stop (or start again) a worker's profiler; whether it was running (or stopped).
    Called by `client.run`, on the worker's event loop, where its periodic callbacks run."""
    changed = False
    for name in PROFILER_CALLBACKS:
        callback = getattr(dask_worker, "periodic_callbacks", {}).get(name)
        if callback is not None and callback.is_running() != run:
            callback.start() if run else callback.stop()
            changed = True
    return changed


def _resume_profiler(dask_worker=None) -> bool:
    return dask_worker is not None and _profiler(dask_worker, run=True)


def connect(address: str):
    """A client of the scheduler at `address`, checked to run this auditor."""
    try:
        from distributed import Client
    except ImportError as error:
        raise ClusterError("--scheduler needs Dask: pip install 'bjh-auditor[cluster]' "
                           "(dask[distributed])") from error
    try:
        _check_address(address)  # before a client exists: a half-made one waits 20 s to close
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except Exception as error:  # a bad address (ValueError), refused, timed out, not Dask
        cause = str(error).split("\n")[0] or type(error).__name__
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {cause}") from error


def _check_address(address: str) -> None:
    """A ValueError for an address Dask cannot use: no port, a port out of range, no host."""
    from distributed.comm.addressing import parse_address, parse_host_port

    scheme, location = parse_address(address)
    if scheme not in NETWORK_SCHEMES:
        raise ValueError(f"{scheme}:// is not a network address (tcp://HOST:PORT)")
    host, port = parse_host_port(location)
    if not host or not 0 < int(port) < 65536:
        raise ValueError(f"{location!r} is not HOST:PORT with a port from 1 to 65535")


def quiet_logs() -> None:
    """Dask's own log lines (a failed reconnect, a closed comm) kept off this process's
    stderr: the auditor tells a cluster's failure itself, in one line. Dask sets its
    loggers' levels when it is imported: they are set here after that."""
    with contextlib.suppress(ImportError):
        import distributed  # noqa: F401
    for name in ["distributed", *logging.root.manager.loggerDict]:
        if name == "distributed" or name.startswith("distributed."):
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def disconnect(client) -> None:
    """The client closed, in bounded time even when its scheduler is gone."""
    with contextlib.suppress(Exception):
        client.close(timeout=CLOSE_SECONDS)


def lost(address: str, audited: int, inputs: int) -> ClusterError:
    """The error of a cluster lost mid-run (its scheduler stopped or unreachable)."""
    return ClusterError(
        f"the Dask cluster was lost mid-run (the scheduler at {address} stopped answering) "
        f"after {audited} of {inputs} input(s); the run is recorded as unfinished: audit "
        "again")


def fingerprints(paths: list[str]) -> dict[str, tuple[int, str | None]]:
    """Each input's size and SHA-256 here (None: not a file this process can read)."""
    from auditor.tasks import file_size

    return {path: (file_size(path), file_sha256(path)) for path in paths}


def shipped_inputs(client, paths: list[str], paused: list[str] | None = None,
                   prints: dict[str, tuple[int, str | None]] | None = None) -> set[str]:
    """The inputs some worker cannot read as given, or holds another file at (by SHA-256):
    they are sent as bytes. Refuses a cluster whose
    workers run another auditor or have none. With `paused` (a list), the workers' profilers
    are paused in the same round trip and the workers paused are added to it."""
    from auditor import __version__
    from auditor.build import build_fingerprint
    from auditor.rulebase import rule_base_version

    prints = prints if prints is not None else fingerprints(paths)
    # An input this process cannot read is not asked about: it is audited here (its error).
    checks = [(path, *prints[path]) for path in paths if prints[path][1] is not None]
    facts = client.run(_worker_facts, checks, pause_profiler=paused is not None)
    if paused is not None:
        paused.extend(worker for worker, fact in facts.items() if fact.get("profiler_paused"))
    if not facts:
        raise ClusterError("the Dask cluster has no workers")
    unreadable: set[str] = set()
    for worker, fact in sorted(facts.items()):
        # The build (every file's SHA-256) is what the auditor is: two installs of the same
        # files may name their version apart (a dirty tree's date), never their verdicts.
        if (fact["rule_base"], fact.get("build")) != (rule_base_version(),
                                                      build_fingerprint()):
            raise ClusterError(
                f"worker {worker} runs auditor {fact['version']} (rule base "
                f"{fact['rule_base']}, build {str(fact.get('build'))[:16]}), not "
                f"{__version__} ({rule_base_version()}, build {build_fingerprint()[:16]}): "
                "install the same auditor on every worker")
        unreadable.update(fact["unreadable"])
    return unreadable


def resume_profilers(client, workers: list[str]) -> None:
    """The profilers paused for the run started again (workers gone since are skipped)."""
    if not workers:
        return
    with contextlib.suppress(Exception):  # a worker's diagnostics never fail an audit
        client.run(_resume_profiler, workers=workers, on_error="ignore")


def audit_on_cluster(paths: list[str], client,
                     meanwhile: Callable[[], None] | None = None,
                     split_bytes: int | None = None, piece_bytes: int | None = None,
                     judging=None) -> Iterator[tuple[int, FileResult]]:
    """Every file audited on the cluster; (place, result) as each file is whole. A file
    over `split_bytes` goes in pieces of about `piece_bytes` (by default auditor/split.py's
    SPLIT_BYTES and PIECE_BYTES)."""
    from auditor.split import PIECE_BYTES, SPLIT_BYTES

    split_bytes = SPLIT_BYTES if split_bytes is None else split_bytes
    piece_bytes = PIECE_BYTES if piece_bytes is None else piece_bytes
    paused: list[str] = []
    audited = 0
    try:
        prints = fingerprints(paths)
        shipped = shipped_inputs(client, paths, paused, prints)
        for whole in _audit(paths, client, shipped, prints, meanwhile, split_bytes,
                            piece_bytes, judging):
            audited += 1
            yield whole
    except ClusterError:
        raise
    except Exception as error:
        if is_lost(client, error):  # told as what it is: not a file's fault, not a bug
            raise lost(client.scheduler.address, audited, len(paths)) from error
        raise
    finally:
        if client.status == "running":
            resume_profilers(client, paused)


def is_lost(client, error: BaseException) -> bool:
    """Whether `error` comes of the scheduler gone: the client no longer connected, its
    futures cancelled, or its connection closed."""
    from distributed.comm.core import CommClosedError

    return client.status != "running" or isinstance(error, (CancelledError, CommClosedError))


def _audit(paths: list[str], client, shipped: set[str],
           prints: dict[str, tuple[int, str | None]], meanwhile: Callable[[], None] | None,
           split_bytes: int, piece_bytes: int, judging=None
           ) -> Iterator[tuple[int, FileResult]]:
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    from auditor.tasks import AuditTasks, run_task

    tasks = AuditTasks(paths, split=True, ship=shipped.__contains__, split_bytes=split_bytes,
                       piece_bytes=piece_bytes, judging=judging)
    here = {place for place, path in enumerate(paths) if prints[path][1] is None}
    for place in sorted(here):  # not a file this process can read: its error, as a worker says it
        yield place, audit_file(paths[place], judging=judging)
    running = as_completed(loop=client.loop)
    sent: dict[str, Task] = {}
    order = 0

    def send(task: Task, priority: int) -> None:
        argument = task
        if task.data is not None or (task.piece is not None and task.piece.data is not None):
            argument = client.scatter(task, hash=False)  # bytes straight to a worker
        future = client.submit(run_task, argument, pure=False, priority=priority)
        sent[future.key] = task
        running.add(future)

    for task in tasks.first():  # the largest files first: the first sent, the first run
        if task.place in here:
            continue
        order -= 1
        send(task, order)
    if meanwhile:
        meanwhile()
    for future in running:
        task = sent.pop(future.key)
        try:
            outcome = future.result()
        except KilledWorker:
            more, whole = [], tasks.give_up(task)
        except Exception as error:
            if is_lost(client, error):
                raise  # audit_on_cluster says so
            raise AuditFailure(task.path) from error
        else:
            if _changed(task, outcome, prints):  # the worker's copy changed since the check
                more, whole = [tasks.with_bytes(task)], []
            else:
                more, whole = tasks.done(task, outcome)
        future.release()
        for extra in more:  # a piece audited again: its file waits for it
            send(extra, 1)
        yield from whole



def _changed(task: Task, outcome, prints: dict[str, tuple[int, str | None]]) -> bool:
    """A whole file audited from a worker's own copy whose SHA-256 is not the input's."""
    return (task.piece is None and task.data is None
            and outcome.summary.sha256 != prints[task.path][1])
