"""The audit's settings file, so a nightly job keeps its settings in one place.

Looked for in this order, the first found is used: `--config FILE`; a `[tool.bjh-auditor]`
table in `pyproject.toml` in the working folder; `bjh-auditor.toml` in the working folder.
Keys: `waivers`, `baseline`, `fail-on`, `fail-on-new`, `jobs`, `out`, `store`,
`scheduler`. Paths in the file are relative to the file's folder (`baseline = "last"` and a
database URL are kept as they are). A flag given on the command line wins over the file.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

FailOn = Literal["low", "medium", "high", "never"]
TOOL_TABLE = "bjh-auditor"
SETTINGS_FILE = "bjh-auditor.toml"


class SettingsError(Exception):
    """A settings file that cannot be used; the message names it."""


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    waivers: str | None = None
    baseline: str | None = None
    fail_on: FailOn | None = Field(default=None, alias="fail-on")
    fail_on_new: bool | None = Field(default=None, alias="fail-on-new")
    jobs: int | None = Field(default=None, ge=1)
    out: str | None = None
    store: str | None = None  # the run store: a SQLite path or a database URL
    scheduler: str | None = None  # a Dask scheduler's address: audit on that cluster
    source: str | None = Field(default=None, exclude=True)  # the file they came from


def find_settings(config: str | None, folder: Path | None = None) -> Settings:
    """The settings in force: from `config` if given, else the working folder's files."""
    folder = folder or Path.cwd()
    if config is not None:
        path = Path(config)
        document = _read(path)
        table = document.get("tool", {}).get(TOOL_TABLE) if "tool" in document else document
        return _settings(table or {}, path)
    pyproject = folder / "pyproject.toml"
    if pyproject.is_file():
        table = _read(pyproject).get("tool", {}).get(TOOL_TABLE)
        if table is not None:
            return _settings(table, pyproject)
    own = folder / SETTINGS_FILE
    if own.is_file():
        return _settings(_read(own), own)
    return Settings()


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise SettingsError(f"{path}: cannot be read ({error})") from error
    except tomllib.TOMLDecodeError as error:
        found = re.search(r"\(at line (\d+), column \d+\)", str(error))
        where = f"line {found.group(1)}: " if found else ""
        raise SettingsError(f"{path}: {where}not valid TOML: {error}") from error


def _settings(table: dict[str, Any], path: Path) -> Settings:
    if not isinstance(table, dict):
        raise SettingsError(f"{path}: [tool.{TOOL_TABLE}] must be a table")
    try:
        settings = Settings.model_validate({key.replace("_", "-"): value
                                            for key, value in table.items()})
    except ValidationError as error:
        problems = "; ".join(f"`{'.'.join(map(str, e['loc']))}`: {e['msg']}"
                             for e in error.errors())
        raise SettingsError(f"{path}: {problems}") from error
    # Paths are the file's, wherever the job runs from.
    base = path.parent
    update = {key: str(base / value) for key in ("waivers", "baseline", "out", "store")
              if (value := getattr(settings, key)) is not None and not Path(value).is_absolute()
              and value != "last" and "://" not in value}
    return settings.model_copy(update={**update, "source": str(path)})
