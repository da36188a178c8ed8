"""An output written by a second process while this one writes the others: the end of a
run on two cores. The report, the largest of the four, is rendered in a child
forked once the run's findings are judged, and the parent writes findings.json and the
CSVs meanwhile.

The child is a fork of this process, so it has the run as the parent has it. It uses
none of its parent's store connections: the store gives every forked child a fresh pool
(`store.engine`), and reads in plain transactions that wait for no writer. It leaves by
`os._exit`, so none of the parent's buffers, handlers or connections is flushed or closed
twice. If it fails for any reason (killed, out of memory, an error), the parent writes the
output itself: the set of outputs is the same either way.

A fork is made only where it is safe: on a system that forks, and in a process with no
other thread (a thread holding a lock at the fork would leave the child stuck on it).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from auditor.output.files import write_atomic

Text = Callable[[], str | Iterable[str]]


def can_fork() -> bool:
    return hasattr(os, "fork") and threading.active_count() == 1


class Aside:
    """One file being written by a forked child; `finish` waits for it."""

    def __init__(self, path: Path, text: Text) -> None:
        self.path, self.text = path, text
        try:
            self.pid: int | None = os.fork()
        except OSError:  # no process to be had (out of memory, a process limit): written here
            self.pid = None
        if self.pid == 0:
            _write_and_leave(path, text)

    def finish(self) -> None:
        """Wait for the child; if it did not write the file, write it here."""
        if self._waited() != 0 or not self.path.is_file():
            write_atomic(self.path, self.text())

    def stop(self) -> None:
        """End a child not waited for (the parent is failing): nothing is left running."""
        if self.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            self._waited()

    def _waited(self) -> int:
        pid, self.pid = self.pid, None
        if pid is None:
            return -1
        _, status = os.waitpid(pid, 0)
        return os.waitstatus_to_exitcode(status)


def _write_and_leave(path: Path, text: Text) -> None:
    code = 1
    try:
        write_atomic(path, text())
        code = 0
    except BaseException:  # whatever it was, the parent writes the file instead
        pass
    finally:
        os._exit(code)
