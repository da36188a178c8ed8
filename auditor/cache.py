"""The auditor's private cache: work derived from its own package files, kept between runs
so that a process does not redo it at every start (about half a second).

`$XDG_CACHE_HOME/bjh-auditor/` (`~/.cache/bjh-auditor/` when XDG_CACHE_HOME is unset, empty
or not an absolute path, as the XDG base directory specification says). It holds:

- `templates-…/`: the report's Jinja templates compiled to Python bytecode (Jinja's
  `FileSystemBytecodeCache`), one folder per Jinja and Python version and template
  settings; Jinja checks each file against its template's source before using it;
- `grammar/terminals-…json`: the grammar's terminals as regular expressions, named by a
  hash of the grammar and the Lark version;
- `grammar/lark-…pickle`: the grammar's two Lark parsers as Lark serializes a built one
  (plain data: lists, dicts, strings and numbers, read back by an unpickler that refuses
  anything else), named by a hash of the grammar, the parser's options and the versions
  of Lark, lark-cython and Python.

Everything there is derived and safe to delete at any time (the next run makes it again).
The folder is the user's own: made with mode 0700, and not used at all when it is
anyone else's or others may write it, since compiled templates are code the auditor loads.
A cache that cannot be made, read or written is simply not used: never an error, never a
different output.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any

FOLDER = "bjh-auditor"


def cache_root() -> Path | None:
    """`$XDG_CACHE_HOME/bjh-auditor`, else under `~/.cache`; None without a home."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not base or not os.path.isabs(base):
        try:
            base = str(Path.home() / ".cache")
        except RuntimeError:  # no HOME and no password entry to find one in
            return None
    return Path(base) / FOLDER


def private_folder(name: str) -> Path | None:
    """The cache's folder `name`, made if missing (mode 0700); None where it cannot be
    made or is not private (another user's, or writable by others)."""
    root = cache_root()
    if root is None:
        return None
    folder = root / name
    try:
        root.mkdir(mode=0o700, parents=True, exist_ok=True)  # its parents as the system makes them
        if not _private(root):
            return None
        folder.mkdir(mode=0o700, exist_ok=True)
        if not _private(folder):
            return None
    except OSError:
        return None
    return folder


def _private(folder: Path) -> bool:
    """A folder (not a link to one) of this user's that no one else may write."""
    found = folder.lstat()
    return stat.S_ISDIR(found.st_mode) and found.st_uid == os.getuid() \
        and not found.st_mode & 0o022


def key_of(*parts: str) -> str:
    """A short hash of what a cached thing was derived from."""
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:20]


def python_tag() -> str:
    return sys.implementation.cache_tag or f"py{sys.version_info[0]}{sys.version_info[1]}"


def read_json(path: Path) -> Any | None:
    """The JSON document at `path`, or None where there is none or it cannot be read."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write_json(path: Path, document: Any) -> None:
    """Write `document` whole or not at all (a temporary file renamed); silently nothing
    where the folder cannot be written."""
    write_bytes(path, json.dumps(document).encode("utf-8"))


def write_bytes(path: Path, data: bytes) -> None:
    """Write `data` whole or not at all (a temporary file renamed, so a reader never meets
    half a file); silently nothing where the folder cannot be written."""
    try:
        descriptor, name = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
        os.replace(name, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(name)
