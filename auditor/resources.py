"""Where the grammar, the rule base and the templates are found.

In a checkout they are the top-level `grammars/` and `rules/` folders; an installed wheel
carries them as `auditor/_data/` (see pyproject.toml).
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The folder `name` (`grammars` or `rules`), installed or in the checkout."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"the auditor's {name}/ folder is missing from this installation")


def templates_dir() -> Path:
    return _PACKAGE / "templates"
