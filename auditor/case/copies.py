"""Whether a case folder holds its own files: each input's copy (and each output) a plain
file inside the folder, reached without a link. A copy swapped for a link to a file
elsewhere hashes the same while that file is there, but it is not the case's: moved,
archived or handed over, the folder loses it, and whoever changes the file elsewhere
changes the case. `verify` calls `copy_problems` and counts each line as a difference.

Looking never opens a file (`lstat` only): a named pipe put in a copy's place cannot make
the check wait."""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath
from typing import Any

from auditor.manifest import MANIFEST
from auditor.shown import visible


def copy_problems(folder: Path, manifest: dict[str, Any]) -> list[str]:
    """One line for each file of the manifest that is not the folder's own: an input's copy
    (or an output) that is a link, lies under a link, lies outside the folder or is not a
    plain file; and, in a case's manifest, an input with no copy at all, and a manifest.json
    that is not the folder's own (a link to the signed bytes elsewhere; verify names a
    linked signature). A file that is simply missing is left to the hash check, which names
    it. Empty when all hold."""
    problems = []
    is_case = manifest.get("kind") == "case"
    for entry in manifest.get("inputs") or []:
        if not isinstance(entry, dict):
            continue
        copy = entry.get("copy")
        if isinstance(copy, str) and copy:
            problem = _not_own(folder, copy)
            if problem:
                problems.append(f"input {visible(copy)}: {problem}")
        elif is_case:
            name = entry.get("name") or entry.get("path") or "(unnamed)"
            problems.append(f"input {visible(str(name))}: the case holds no copy of it (a "
                            "case's inputs are its own copies, under inputs/)")
    outputs = manifest.get("outputs")
    for name in outputs if isinstance(outputs, dict) else ():
        problem = _not_own(folder, str(name))
        if problem:
            problems.append(f"output {visible(str(name))}: {problem}")
    problem = _not_own(folder, MANIFEST) if is_case else None  # a run's is a link by design
    if problem:
        problems.append(f"{MANIFEST}: {problem}")
    return problems


def _not_own(folder: Path, name: str) -> str | None:
    """Why the file `name` (a path in the folder, with /) is not the folder's own; None
    when it is, or when it is missing."""
    relative = PurePosixPath(name)
    if relative.is_absolute() or ".." in relative.parts or not relative.parts:
        return "lies outside the folder"
    place, last = folder, len(relative.parts) - 1
    for number, part in enumerate(relative.parts):
        place = place / part
        try:
            status = os.lstat(place)
        except FileNotFoundError:
            return None
        except OSError as error:
            return f"cannot be looked at ({error.strerror})"
        if stat.S_ISLNK(status.st_mode):
            try:
                target = os.readlink(place)
            except OSError:
                target = "?"
            where = "" if number == last else f" (its folder {visible(part)})"
            return (f"a link{where} to {visible(target)}, not the folder's own file: it "
                    "would not go with the folder, and a change where it points changes it")
    if not stat.S_ISREG(status.st_mode):
        return "not a plain file (a folder's files are plain files)"
    return None
