"""A process's children, read from Linux's /proc (the workers and the report's child of a
run seen while it runs)."""

from __future__ import annotations

import contextlib
from pathlib import Path


def children(pid: int) -> set[int]:
    """The process IDs of the children of each thread of `pid` (none once it ended)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):  # the thread ended meanwhile
            found.update(int(child) for child in (task / "children").read_text().split())
    return found
