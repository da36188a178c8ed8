"""Publishing a run's outputs as one set: a reader of the --out folder finds either the
previous complete set or the new complete set, never files of two runs, whenever the writer
is killed or the disk fills.

Each run's files are written into a fresh folder `<out>/.runs/<UTC time>-<random>/`; one
link, `<out>/current`, is then switched to it by an atomic rename; `<out>/findings.json` and
the other names are links into `current/`, made once, so the paths readers know keep
working. The last `KEEP` run folders stay; older ones are removed after the switch, but for
a folder another run into the same --out is still writing (it holds a lock on it).
"""

from __future__ import annotations

import fcntl
import os
import secrets
import shutil
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path

from auditor.output.aside import Aside, can_fork
from auditor.output.files import write_atomic

RUNS = ".runs"
CURRENT = "current"
KEEP = 3


def publish(out: Path, files: dict[str, Callable[[], str | Iterable[str]]],
            sealed: tuple[str, Callable[[Path], str]] | None = None,
            aside: Iterable[str] = ()) -> Path:
    """Write each named file (its text, or its parts, made by the callable, one file at a
    time, so only one is in memory) into a fresh run folder, then make it the current set;
    the folder. `sealed` (a name, and what makes its text from the folder) is written last,
    once the others are whole: the manifest that hashes them. The files named in `aside`
    are written by a second process meanwhile, where one can be forked (`aside.py`)."""
    runs = out / RUNS
    runs.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    folder = runs / f"{stamp}-{secrets.token_hex(4)}"
    folder.mkdir()
    held = _hold(folder)  # until published: another run's clean-up leaves it alone
    try:
        children = [Aside(folder / name, files[name]) for name in aside] if can_fork() \
            else []
        try:
            beside = {child.path.name for child in children}
            for name, text in files.items():
                if name not in beside:
                    write_atomic(folder / name, text())
            for child in children:
                child.finish()
        finally:
            for child in children:
                child.stop()
        names = list(files)
        if sealed is not None:
            write_atomic(folder / sealed[0], sealed[1](folder))
            names.append(sealed[0])
        _sync(folder)
        _point(out / CURRENT, f"{RUNS}/{folder.name}")  # the switch: one rename
        for name in names:  # the stable names, made once
            link = out / name
            if not (link.is_symlink() and os.readlink(link) == f"{CURRENT}/{name}"):
                _point(link, f"{CURRENT}/{name}")
        _sync(out)
    finally:
        os.close(held)
    _prune(runs, keep=folder.name)
    return folder


def _hold(folder: Path) -> int:
    """A shared lock on the run folder being written, held by its descriptor (a writer
    killed lets go of it with its life). Several runs may publish into one --out at once
    (overlapping nightly runs): each one's clean-up skips a folder another still writes."""
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    fcntl.flock(descriptor, fcntl.LOCK_SH)
    return descriptor


def _point(link: Path, target: str) -> None:
    """Make `link` point at `target` in one step, whatever stood there (a file of an older
    auditor, an older link): a new link is made beside it and renamed over it."""
    temporary = link.with_name(f".{link.name}.{secrets.token_hex(4)}.tmp")
    os.symlink(target, temporary)
    try:
        os.replace(temporary, link)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _sync(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _prune(runs: Path, keep: str) -> None:
    """Remove run folders but the newest KEEP (the current one always stays) and those
    another run is still writing (it holds its folder's lock: see `_hold`)."""
    folders = sorted(p.name for p in runs.iterdir() if p.is_dir())
    for name in folders[:-KEEP]:
        if name == keep:
            continue
        try:
            descriptor = os.open(runs / name, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:  # removed meanwhile by another run's clean-up
            continue
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # being written
            os.close(descriptor)
            continue
        try:
            shutil.rmtree(runs / name, ignore_errors=True)
        finally:
            os.close(descriptor)
