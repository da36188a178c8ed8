"""Audits on a Dask cluster: `auditor audit … --scheduler ADDRESS`.

The run's tasks (auditor/tasks.py: whole files, and large files in pieces) go to the
cluster's workers instead of this machine's processes; results come back as each task
ends and are recorded in the run store by this process, exactly as in a local run, so
the findings, their IDs and the outputs are the same whatever the number of workers.

- Workers must run the same auditor (version and rule base): a cluster that does not is
  refused before anything is audited, since its findings would not be this auditor's.
- An input that a worker cannot read at the path given (another machine, another working
  folder) is sent to the cluster as bytes: the parent reads it and the scheduler hands it
  to a worker, once per task. It costs the file's size in memory and on the network.
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
import os
from collections.abc import Callable, Iterator

from auditor.audit import AuditFailure, FileResult
from auditor.split import PIECE_BYTES, SPLIT_BYTES
from auditor.tasks import AuditTasks, Task, run_task

CONNECT_TIMEOUT = "10s"


class ClusterError(Exception):
    """The cluster cannot be used: the message says why."""


PROFILER_CALLBACKS = ("profile", "profile-cycle")  # Worker.periodic_callbacks


def _worker_facts(checks: list[tuple[str, int]], pause_profiler: bool = False,
                  dask_worker=None) -> dict:
    """On a worker: its auditor's versions, and which inputs it cannot read as given; with
    `pause_profiler`, Dask's profiler paused there (`profiler_paused`: it was running)."""
    from auditor import __version__
    from auditor.rulebase import rule_base_version

    unreadable = []
    for path, size in checks:
        try:
            if os.path.getsize(path) != size or not os.access(path, os.R_OK):
                unreadable.append(path)
        except OSError:
            unreadable.append(path)
    paused = False
    if pause_profiler and dask_worker is not None:
        paused = _profiler(dask_worker, run=False)
    return {"version": __version__, "rule_base": rule_base_version(),
            "unreadable": unreadable, "profiler_paused": paused}


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
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError) as error:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {error}") from error


def shipped_inputs(client, paths: list[str], paused: list[str] | None = None) -> set[str]:
    """The inputs some worker cannot read as given (sent as bytes); refuses a cluster whose
    workers run another auditor or have none. With `paused` (a list), the workers' profilers
    are paused in the same round trip and the workers paused are added to it."""
    from auditor import __version__
    from auditor.rulebase import rule_base_version
    from auditor.tasks import file_size

    checks = [(path, file_size(path)) for path in paths]
    facts = client.run(_worker_facts, checks, pause_profiler=paused is not None)
    if paused is not None:
        paused.extend(worker for worker, fact in facts.items() if fact.get("profiler_paused"))
    if not facts:
        raise ClusterError("the Dask cluster has no workers")
    unreadable: set[str] = set()
    for worker, fact in sorted(facts.items()):
        if (fact["version"], fact["rule_base"]) != (__version__, rule_base_version()):
            raise ClusterError(
                f"worker {worker} runs auditor {fact['version']} (rule base "
                f"{fact['rule_base']}), not {__version__} ({rule_base_version()}): install "
                "the same auditor on every worker")
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
                     split_bytes: int = SPLIT_BYTES, piece_bytes: int = PIECE_BYTES,
                     judging=None) -> Iterator[tuple[int, FileResult]]:
    """Every file audited on the cluster; (place, result) as each file is whole."""
    paused: list[str] = []
    try:
        shipped = shipped_inputs(client, paths, paused)
        yield from _audit(paths, client, shipped, meanwhile, split_bytes, piece_bytes,
                          judging)
    finally:
        resume_profilers(client, paused)


def _audit(paths: list[str], client, shipped: set[str], meanwhile: Callable[[], None] | None,
           split_bytes: int, piece_bytes: int, judging=None
           ) -> Iterator[tuple[int, FileResult]]:
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    tasks = AuditTasks(paths, split=True, ship=shipped.__contains__, split_bytes=split_bytes,
                       piece_bytes=piece_bytes, judging=judging)
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
            raise AuditFailure(task.path) from error
        else:
            more, whole = tasks.done(task, outcome)
        future.release()
        for extra in more:  # a piece audited again: its file waits for it
            send(extra, 1)
        yield from whole

