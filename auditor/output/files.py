"""Writing output files atomically: a crash never leaves a half-written report."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path


def _umask() -> int:
    """The process's umask (read by setting it, so set back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def out_folder_problem(out: Path) -> str | None:
    """Why the outputs could not be written to `out`, found before any audit time is spent:
    a file or a dangling link in its place, or a folder that cannot be made or written."""
    if out.is_symlink() and not out.exists():
        return f"--out {out} is a link to nothing"
    if out.exists() and not out.is_dir():
        return f"--out {out} exists and is not a folder"
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return f"--out {out} cannot be made ({error.strerror})"
    try:
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as error:
        return f"--out {out} cannot be written ({error.strerror})"
    return None


def write_atomic(path: Path, text: str | Iterable[str]) -> None:
    """Write `text` (or its parts, one at a time) to `path` in one step: a reader finds the
    old file or the whole new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        # mkstemp makes the file private (0600); an output is as shareable as any file the
        # user writes: the umask decides.
        os.chmod(temporary, 0o666 & ~_umask())
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            if isinstance(text, str):
                stream.write(text)
            else:
                for part in text:
                    stream.write(part)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
