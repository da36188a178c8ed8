"""A case is made whole or not at all: it is built in a new folder beside `--out` (on the
same file system) and renamed to `--out` in one step at the end. A failure (a PDF that
cannot be printed, a full disk, an interrupt) removes the folder being built; a process
killed outright leaves it beside `--out` as `.NAME.making-…` (never a half case at
`--out`), so the same command can simply be run again."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from auditor.case.source import CaseError

MAKING = ".making-"  # in the name of a folder being built: `.CASEDIR.making-XXXXXXXX`


def out_problem(folder: Path) -> str | None:
    """Why a case cannot be made at `folder`, found before any work: it must be new, or an
    empty folder that is not the working folder (renaming onto that one would leave the
    shell in a folder that no longer is)."""
    if folder.is_symlink():
        return f"--out {folder} is a link: give the folder itself"
    if not folder.exists():
        return None
    if not folder.is_dir() or any(folder.iterdir()):
        return (f"--out {folder} exists and is not an empty folder: a case is never "
                "written over another")
    if folder.resolve() == Path.cwd().resolve():
        return f"--out {folder} is the working folder: give a new folder for the case"
    return None


@contextmanager
def building(folder: Path) -> Iterator[Path]:
    """A new, empty folder to build the case in; renamed to `folder` when the block ends
    without an error, removed when it raises."""
    problem = out_problem(folder)
    if problem:
        raise CaseError(problem)
    target = folder.resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    made = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}{MAKING}"))
    try:
        yield made
        _publish(made, target, folder)
    except BaseException:
        shutil.rmtree(made, ignore_errors=True)
        raise


def _publish(made: Path, target: Path, shown: Path) -> None:
    """Rename the built folder to `target` in one step: onto nothing, or onto an empty
    folder (which it replaces, keeping its mode); never onto a folder holding anything."""
    try:
        mode = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o777 & ~_umask()  # as a folder the user makes: mkdtemp's is private
    os.chmod(made, mode)
    try:
        os.rename(made, target)
    except OSError as error:
        if error.errno in (errno.ENOTEMPTY, errno.EEXIST, errno.ENOTDIR, errno.EISDIR):
            raise CaseError(f"--out {shown} was made meanwhile and is not an empty folder: "
                            "a case is never written over another") from None
        raise
    _sync(target.parent)


def _sync(folder: Path) -> None:
    """The rename made durable (a folder's entries are flushed by syncing the folder)."""
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
