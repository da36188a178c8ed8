"""A run's work as tasks for any pool of workers: a process pool on this machine, or a Dask
cluster (auditor/cluster.py).

A task is a whole file, or a piece of a large file (auditor/split.py). `AuditTasks` says
what to send, takes back what comes, and gives each file's result once it is whole: a
piece whose guessed state was wrong is sent again, a task whose worker died is sent once
more, and a file whose task kills a worker twice is given up, named, while every other
file is still audited. The pools only move tasks; the answer is the same for any pool and
any number of workers.
"""

from __future__ import annotations

import os
import signal
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, replace

from auditor.audit import audit_file, refused_file, why_unreadable
from auditor.results import AuditFailure, FileResult, InputSummary
from auditor.selection import Judging
from auditor.source import UnreadableFile
from auditor.split import (
    PIECE_BYTES,
    SPLIT_BYTES,
    Piece,
    PieceResult,
    SplitFile,
    audit_piece,
    plan_pieces,
)


@dataclass(frozen=True)
class Task:
    place: int  # the file's place among the run's inputs
    path: str
    piece: Piece | None = None  # None: the whole file
    data: bytes | None = None  # the whole file's bytes, for a worker that cannot read it
    judging: Judging | None = None  # what the run judges: it travels with the task
    refused: str | None = None  # why the file's bytes could not be read to be sent

    @property
    def key(self) -> tuple[int, int | None]:
        return self.place, None if self.piece is None else self.piece.number


IN_FLIGHT_PER_JOB = 4
"""Tasks submitted to a pool ahead of its workers, per worker: enough that none waits for
the parent, few enough that finding the finished ones stays cheap (see audit_in_pools)."""


def run_task(task: Task) -> FileResult | PieceResult:
    """What a worker does with a task."""
    if task.piece is not None:
        return audit_piece(task.piece, task.judging)
    if task.refused is not None:
        return refused_file(task.path, task.refused, task.judging)
    return audit_file(task.path, data=task.data, judging=task.judging)


def file_size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0  # audit_file reports it


class AuditTasks:
    """The tasks of a run and what becomes of them (see the module's docstring).

    `split`: large files go in pieces (worth it only with more than one worker);
    `ship`: which inputs travel as bytes (their workers cannot read them)."""

    def __init__(self, paths: list[str], split: bool = True,
                 ship: Callable[[str], bool] | None = None, split_bytes: int = SPLIT_BYTES,
                 piece_bytes: int = PIECE_BYTES, judging: Judging | None = None) -> None:
        self.paths = paths
        self.judging = judging
        self.split = split
        self.split_bytes, self.piece_bytes = split_bytes, piece_bytes
        self.ship = ship or (lambda path: False)
        self.tries: Counter = Counter()
        self.files: dict[int, SplitFile] = {}
        self.given_up: set[int] = set()

    def first(self) -> Iterator[Task]:
        """Every file's tasks, the largest files first (so that one large file left for
        last does not keep one worker busy while the others wait). A large file's pieces
        come as its reading finds them: the first are audited while it is still read."""
        for place in sorted(range(len(self.paths)), key=lambda i: -file_size(self.paths[i])):
            yield from self._file_tasks(place)

    def _file_tasks(self, place: int) -> Iterator[Task]:
        path = self.paths[place]
        if self.split and file_size(path) > self.split_bytes:
            try:
                plan, pieces = plan_pieces(path, self.piece_bytes)
            except (UnreadableFile, OSError):
                pass
            else:
                joined = self.files[place] = SplitFile(plan)
                for piece in pieces:
                    yield self._task(place, piece)
                joined.planned = True
                return
        yield self._whole(place)

    def _whole(self, place: int) -> Task:
        path = self.paths[place]
        if self.ship(path):
            return self._shipped(place, path)
        return Task(place, path, judging=self.judging)

    def with_bytes(self, task: Task) -> Task:
        """A whole file's task again, its bytes read here and sent with it."""
        return self._shipped(task.place, task.path)

    def _shipped(self, place: int, path: str) -> Task:
        """A whole file's task with its bytes; a file that cannot be read now (removed
        since the run began) is told as the audit of it would tell it."""
        try:
            with open(path, "rb") as handle:
                return Task(place, path, data=handle.read(), judging=self.judging)
        except OSError as error:
            return Task(place, path, judging=self.judging, refused=why_unreadable(path, error))

    def _task(self, place: int, piece: Piece) -> Task:
        return Task(place, piece.path, piece.with_bytes() if self.ship(piece.path) else piece,
                    judging=self.judging)

    def done(self, task: Task, outcome: FileResult | PieceResult
             ) -> tuple[list[Task], list[tuple[int, FileResult]]]:
        """A task's outcome: the tasks it calls for, and the files now whole."""
        if task.place in self.given_up:
            return [], []
        if task.piece is None:
            return [], [(task.place, outcome)]
        joined = self.files[task.place]
        again = joined.add(outcome)
        if again is not None:
            return [self._task(task.place, again)], []
        if not joined.complete():
            return [], []
        del self.files[task.place]
        if not joined.whole():  # a piece did not begin with `shoe`: the file goes whole
            return [self._whole(task.place)], []
        return [], [(task.place, joined.join())]

    def lost(self, task: Task) -> tuple[list[Task], list[tuple[int, FileResult]]]:
        """A task whose worker died (killed, out of memory): sent once more; a task that
        kills a second worker gives its file up (which task of a broken pool killed it
        cannot be known, so each is charged)."""
        if task.place in self.given_up:
            return [], []
        self.tries[task.key] += 1
        if self.tries[task.key] < 2:
            return [task], []
        return [], self.give_up(task)

    def give_up(self, task: Task) -> list[tuple[int, FileResult]]:
        """The task's file is not audited (its tasks kill workers): its result says so."""
        if task.place in self.given_up:
            return []
        self.given_up.add(task.place)
        self.files.pop(task.place, None)
        return [(task.place, given_up(task.path))]


def given_up(path: str) -> FileResult:
    return FileResult(InputSummary(path=path, error=(
        f"{path}: not audited: the worker process auditing it died twice (killed, or out "
        "of memory)")))


@contextmanager
def _cancelled_on_exit(pool: ProcessPoolExecutor) -> Iterator[ProcessPoolExecutor]:
    """The pool, whose queued tasks are dropped when its user stops early (the generator
    closed because the store failed): only the files being audited are waited for. One
    shutdown each way: a second one (a `with pool:` block's own, after a shutdown without
    waiting) clears the cancellation before the pool's manager thread reads it, and then
    every queued task still ran, waited for at the interpreter's exit."""
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _stop_now(pool: ProcessPoolExecutor) -> None:
    """End the pool's workers at once, the tasks they hold with them: an audit stopped
    before any result was asked for (its store could not be used) waits for none of the
    tasks already handed to the workers (Python 3.14 has `terminate_workers` for this)."""
    workers = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    # waited for, so that none outlives the run (a loaded machine may take a while to end
    # one); one that ignores the signal is killed
    if not _ended(workers, 5):
        for worker in workers:
            if worker.is_alive():
                worker.kill()
        _ended(workers, 30)  # a killed process always ends; a loaded machine reaps it late


def _ended(workers: list, seconds: float) -> bool:
    """Whether every worker has ended within `seconds`. Asked again and again rather than
    joined: the pool's own thread reaps its workers too, and a join that loses that race
    returns at once with the worker still told as running."""
    deadline = time.monotonic() + seconds
    while any(worker.is_alive() for worker in workers):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)
    return True


def _pool(jobs: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=jobs, initializer=_default_termination)


def _default_termination() -> None:
    """A worker ends on SIGTERM whatever handler the parent had (a caller of the library
    with its own, inherited by a forked worker): a Python handler runs only between
    bytecodes, so a worker waiting on the pool's queue would never run it, and a broken
    pool, which ends its workers with SIGTERM, would wait for that one for ever."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _submit(pool: ProcessPoolExecutor, todo: Iterator[Task], pending: dict,
            retry: list[Task], window: int) -> None:
    """Submit tasks of `todo` until `window` are in flight. At most a window: `wait` looks
    at every pending future each time one finishes, so submitting the 30,000 files of a
    folder at once made the run quadratic in the number of files. A task the broken pool
    refuses waits for the next pool (it never ran, so it is not charged)."""
    for task in todo:
        try:
            pending[pool.submit(run_task, task)] = task
        except BrokenProcessPool:
            retry.append(task)
            continue
        if len(pending) >= window:
            return


def audit_in_pools(paths: list[str], jobs: int,
                   meanwhile: Callable[[], None] | None = None,
                   tasks: AuditTasks | None = None, judging: Judging | None = None
                   ) -> PoolAudit:
    """The files in worker processes on this machine, begun now (`PoolAudit`); each result
    yielded as its file is whole."""
    return PoolAudit(paths, jobs, meanwhile, tasks, judging)


class PoolAudit(Iterator[tuple[int, FileResult]]):
    """The files being audited in worker processes on this machine from the moment it is
    made: the pool started and the first tasks sent, so that what the caller does next
    (open the store, say) overlaps the first tasks. Iterate it for (place, result) as each
    file is whole; `close` stops the work under way, whether iterated or not. A worker that
    dies breaks its pool: what was unfinished goes to a fresh pool."""

    def __init__(self, paths: list[str], jobs: int,
                 meanwhile: Callable[[], None] | None = None,
                 tasks: AuditTasks | None = None, judging: Judging | None = None) -> None:
        self.tasks = tasks or AuditTasks(paths, split=jobs > 1, judging=judging)
        self.jobs = jobs
        self.window = jobs * IN_FLIGHT_PER_JOB
        self.todo: Iterator[Task] = self.tasks.first()
        self.pool = _pool(jobs)
        self.pending: dict = {}
        self.retry: list[Task] = []
        self.iterated = False
        try:
            _submit(self.pool, self.todo, self.pending, self.retry, self.window)
            if meanwhile:
                meanwhile()
        except BaseException:  # (the plan, say): stopped before any result was asked for
            _stop_now(self.pool)
            raise
        self._results = self._collected()

    def __next__(self) -> tuple[int, FileResult]:
        self.iterated = True
        return next(self._results)

    def close(self) -> None:
        """Stop. The queued tasks are dropped; if no result was asked for yet (the store
        failed before the run began), the workers are ended at once, else the tasks being
        audited are waited for."""
        if not self.iterated:  # the collector never ran (the store failed): ended here
            self.iterated = True
            _stop_now(self.pool)
        self._results.close()

    def _collected(self) -> Iterator[tuple[int, FileResult]]:
        tasks, pool = self.tasks, self.pool
        pending, retry = self.pending, self.retry
        fresh = False  # the first pool's first tasks were sent when it was made
        while True:
            with _cancelled_on_exit(pool):
                if fresh:
                    _submit(pool, self.todo, pending, retry, self.window)
                while pending:
                    finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in finished:
                        # Forgotten once handed over: a finished future holds its whole result.
                        task = pending.pop(future)
                        try:
                            outcome = future.result()
                        except BrokenProcessPool:
                            more, whole = tasks.lost(task)
                            retry.extend(more)
                        except Exception as error:
                            raise AuditFailure(task.path) from error
                        else:
                            more, whole = tasks.done(task, outcome)
                            for extra in more:
                                try:
                                    pending[pool.submit(run_task, extra)] = extra
                                except BrokenProcessPool:
                                    retry.append(extra)
                        yield from whole
                    _submit(pool, self.todo, pending, retry, self.window)
            if not retry:
                return
            self.todo = iter([replace(task) for task in retry])
            pool, pending, retry = _pool(self.jobs), {}, []
            fresh = True
