"""What this auditor is made of: its version (from the project's history) and the SHA-256
of every file that decides a verdict or how it is shown (the code, the templates, the
rule base, the grammar), so a manifest pins the very build that made a folder and
`auditor verify` names the file that differs in another.

Files are named as in the repository (`auditor/checks/standard/wagers.py`, `rules/….toml`,
`grammars/….lark`), whether the package runs from a checkout or an installed wheel (whose
rule base and grammar lie under `auditor/_data/`).
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from auditor import __version__
from auditor.resources import data_dir

_PACKAGE = Path(__file__).resolve().parent
_SKIPPED = {"__pycache__", "_data"}
# The version file is written from the project's history whenever the package is built or
# installed: it names the build (its version is recorded beside the fingerprint) but is not
# what it is made of, so two builds of the same files are the same build.
_NOT_CONTENT = {"auditor/_version.py"}


def _package_files() -> list[tuple[str, Path]]:
    files = []
    for path in _PACKAGE.rglob("*"):
        relative = path.relative_to(_PACKAGE)
        name = f"auditor/{relative.as_posix()}"
        if (path.is_file() and not _SKIPPED.intersection(relative.parts)
                and path.suffix not in (".pyc", ".pyo") and name not in _NOT_CONTENT):
            files.append((name, path))
    for folder in ("rules", "grammars"):
        files.extend((f"{folder}/{path.name}", path)
                     for path in data_dir(folder).iterdir() if path.is_file())
    return sorted(files)


@cache
def build_files() -> dict[str, str]:
    """Each file of the build by its repository name -> its SHA-256."""
    return {name: hashlib.sha256(path.read_bytes()).hexdigest()
            for name, path in _package_files()}


@cache
def build_fingerprint() -> str:
    """The SHA-256 of the build: every file's name and SHA-256, in name order."""
    digest = hashlib.sha256()
    for name, sha256 in build_files().items():
        digest.update(f"{name}\0{sha256}\n".encode())
    return digest.hexdigest()


def build_document() -> dict[str, object]:
    """The build as a manifest records it."""
    return {"version": __version__, "sha256": build_fingerprint(), "files": build_files()}


def build_differences(recorded: dict[str, str]) -> list[str]:
    """The files of this build that differ from `recorded` (a manifest's `build.files`):
    one phrase each, changed first, then those only one build has."""
    mine = build_files()
    changed = [f"{name} differs" for name in sorted(set(mine) & set(recorded))
               if mine[name] != recorded[name]]
    gone = [f"{name} is not in this build" for name in sorted(set(recorded) - set(mine))]
    added = [f"{name} is only in this build" for name in sorted(set(mine) - set(recorded))]
    return changed + gone + added
