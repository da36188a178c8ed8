"""The audit's settings file, so a nightly job keeps its settings in one place.

Looked for in this order, the first found is used: `--config FILE`; a `[tool.bjh-auditor]`
table in `pyproject.toml` in the working folder; `bjh-auditor.toml` in the working folder.
Keys: `waivers`, `baseline`, `fail-on`, `fail-on-new`, `jobs`, `out`, `store`,
`scheduler`, `select`, `ignore` (lists of citations, games or rules), `approved`,
`gaming_day_starts` ("HH:00", default "06:00"), `time-zone` (the tables' clocks', an IANA
name such as "America/Denver"), `[shifts]` (name = "HH:00-HH:00"; default day
06-14, swing 14-22, grave 22-06); for `auditor incidents`: `[cameras]` ("LICENCE/TABLE" or
"TABLE" = "CAMERA"), `[pits]` (the same keys = "PIT"), `evidence-url` (the address at which
the reports are served, an http(s) URL with no user name or password) and `evidence-root`
(the folder served there; default the settings file's folder). Paths in the file are
relative to the file's folder (`baseline = "last"`, a baseline run's number and a database
URL are kept as they are). A flag given on the command line wins over the file.

A file that cannot be used is one sentence naming it (and, for a key that is not a setting
or a value of the wrong kind, the key and its line): exit 2, never a crash.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from auditor.gaming_day import Calendar, hour_of_clock, shift_hours
from auditor.tomlfile import read_toml

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
    # Strict: `jobs = true` is not one job, `fail-on-new = 1` not a yes.
    fail_on_new: bool | None = Field(default=None, alias="fail-on-new", strict=True)
    jobs: int | None = Field(default=None, ge=1, strict=True)
    out: str | None = None
    store: str | None = None  # the run store: a SQLite path or a database URL
    scheduler: str | None = None  # a Dask scheduler's address: audit on that cluster
    select: list[str] | None = None  # what is judged (auditor/selection.py)
    ignore: list[str] | None = None
    approved: str | None = None  # the commission's approved house rules (auditor/approvals.py)
    # The casino's calendar (auditor/gaming_day.py) and its cameras (auditor/incidents.py).
    gaming_day_starts: str | None = Field(default=None, alias="gaming-day-starts")
    shifts: dict[str, str] | None = None
    time_zone: str | None = Field(default=None, alias="time-zone")  # the tables' clocks'
    cameras: dict[str, str] | None = None
    pits: dict[str, str] | None = None  # a table's pit, for incidents: keys as `cameras`
    # Incidents' evidence links: the address the reports are served at, and the folder
    # served there (auditor/incidents.py)
    evidence_url: str | None = Field(default=None, alias="evidence-url")
    evidence_root: str | None = Field(default=None, alias="evidence-root")
    source: str | None = Field(default=None, exclude=True)  # the file they came from

    @field_validator("gaming_day_starts")
    @classmethod
    def _on_the_hour(cls, text: str | None) -> str | None:
        if text is not None:
            hour_of_clock(text)
        return text

    @field_validator("time_zone")
    @classmethod
    def _a_known_zone(cls, name: str | None) -> str | None:
        if name is not None:
            from auditor.clock import zone

            zone(name)  # ZoneError, a ValueError: the file's line is named
        return name

    @field_validator("shifts")
    @classmethod
    def _spans_of_hours(cls, shifts: dict[str, str] | None) -> dict[str, str] | None:
        """Each shift a span of whole hours; no hour in two shifts."""
        if shifts is None:
            return None
        if not shifts:
            raise ValueError("must name at least one shift")
        taken: dict[int, str] = {}
        for name, span in shifts.items():
            start, end = shift_hours(span)
            hours = range(start, end) if start < end else [*range(start, 24), *range(end)]
            for hour in hours:
                if hour in taken:
                    raise ValueError(f"{name!r} and {taken[hour]!r} both hold {hour:02d}:00")
                taken[hour] = name
        return shifts

    @field_validator("evidence_url")
    @classmethod
    def _a_plain_address(cls, text: str | None) -> str | None:
        """An http(s) address with a host and nothing after its path. Never a user name or
        password: the links are written into files others read (and the message never
        repeats the value, which may hold one)."""
        if text is None:
            return None
        from urllib.parse import urlsplit

        try:
            parts = urlsplit(text)
            parts.port  # noqa: B018  (a port that is not a number raises here)
        except ValueError:
            raise ValueError("is not a URL") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("must be an http:// or https:// address with a host")
        if "@" in parts.netloc:
            raise ValueError("must not hold a user name or password (the links are "
                             "written into the incident files): give the address alone")
        if parts.query or parts.fragment or "?" in text or "#" in text:
            raise ValueError("must end with its path: no ?query or #fragment")
        if any(ord(c) < 33 or ord(c) == 127 for c in text):
            raise ValueError("must not hold spaces or control characters")
        return text

    def calendar(self) -> Calendar:
        """The gaming day and shifts in force (the defaults for what is not set)."""
        return Calendar.of(self.gaming_day_starts, self.shifts, self.time_zone)

    @field_validator("waivers", "baseline", "out", "store", "scheduler", "approved",
                     "evidence_root")
    @classmethod
    def _a_usable_text(cls, text: str | None) -> str | None:
        """A path, a URL or an address: never empty (`out = ""` would be the settings
        file's own folder), never with a NUL (no file system or socket takes one)."""
        if text is not None and not text.strip():
            raise ValueError("must not be empty")
        if text is not None and "\x00" in text:
            raise ValueError("must not hold a NUL character")
        return text


def find_settings(config: str | None, folder: Path | None = None) -> Settings:
    """The settings in force: from `config` if given, else the working folder's files."""
    folder = folder or Path.cwd()
    if config is not None:
        path = Path(config)
        text, document = _read(path)
        if "tool" in document:  # a pyproject.toml, or a file written like one
            return _settings(_tool_table(document, path), path, text, in_tool=True)
        return _settings(document, path, text)
    pyproject = folder / "pyproject.toml"
    if pyproject.is_file():
        text, document = _read(pyproject)
        table = _tool_table(document, pyproject)
        if table is not None:
            return _settings(table, pyproject, text, in_tool=True)
    own = folder / SETTINGS_FILE
    if own.is_file():
        text, document = _read(own)
        return _settings(document, own, text)
    return Settings()


def _tool_table(document: dict[str, Any], path: Path) -> dict[str, Any] | None:
    """The `[tool.bjh-auditor]` table, None if there is none; SettingsError if `tool` or it
    is not a table (`tool = []`, `tool = "x"`)."""
    tool = document.get("tool", {})
    if not isinstance(tool, dict):
        raise SettingsError(f"{path}: `tool` must be a table (the settings go in its "
                            f"`{TOOL_TABLE}` table), not {_kind(tool)}")
    table = tool.get(TOOL_TABLE)
    if table is not None and not isinstance(table, dict):
        raise SettingsError(f"{path}: `tool.{TOOL_TABLE}` must be a table of settings, not "
                            f"{_kind(table)}")
    return table


def _kind(value: Any) -> str:
    kinds = {list: "an array", str: "a string", bool: "true or false", int: "a number",
             float: "a number"}
    return kinds.get(type(value), "a value")


def _read(path: Path) -> tuple[str, dict[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise SettingsError(f"{path}: cannot be read ({error})") from error
    return text, read_toml(text, str(path), SettingsError)


def _settings(table: dict[str, Any], path: Path, text: str = "",
              in_tool: bool = False) -> Settings:
    if not isinstance(table, dict):
        raise SettingsError(f"{path}: the settings must be a table, not {_kind(table)}")
    known = {field.alias or name for name, field in Settings.model_fields.items()
             if name != "source"}
    for key in table:
        if key.replace("_", "-") not in known:
            line = _key_line(text, key, in_tool)
            where = f"line {line}: " if line else ""
            raise SettingsError(f"{path}: {where}`{key}` is not a setting (settings: "
                                f"{', '.join(sorted(known))})")
    spelled: dict[str, str] = {}
    for key in table:
        if (first := spelled.setdefault(key.replace("_", "-"), key)) != key:
            # both spellings of one setting: whichever came last would win, unseen
            lines = [_key_line(text, name, in_tool) for name in (first, key)]
            where = " and ".join(f"line {line}" for line in lines if line)
            raise SettingsError(f"{path}: {where + ': ' if where else ''}`{first}` and "
                                f"`{key}` are one setting, given twice")
    try:
        settings = Settings.model_validate({key.replace("_", "-"): value
                                            for key, value in table.items()})
    except ValidationError as error:
        first = error.errors()[0]
        key = str(first["loc"][0]) if first["loc"] else ""
        original = next((k for k in table if k.replace("_", "-") == key), key)
        line = _key_line(text, original, in_tool)
        where = f"line {line}: " if line else ""
        problems = "; ".join(f"`{'.'.join(map(str, e['loc']))}`: "
                             f"{e['msg'].removeprefix('Value error, ')}" for e in error.errors())
        raise SettingsError(f"{path}: {where}{problems}") from error
    # Paths are the file's, wherever the job runs from.
    base = path.parent
    update = {key: str(base / value) for key in ("waivers", "baseline", "out", "store",
                                                 "approved", "evidence_root")
              if (value := getattr(settings, key)) is not None and not Path(value).is_absolute()
              and value != "last" and "://" not in value
              and not (value.isascii() and value.isdigit())}  # a baseline run's number
    return settings.model_copy(update={**update, "source": str(path)})


_TABLE = re.compile(r"^[ \t]*\[[ \t]*([^\[\]]*?)[ \t]*\][ \t]*(?:#.*)?$")


def _key_line(text: str, key: str, in_tool: bool) -> int | None:
    """The line that sets `key`: in `[tool.bjh-auditor]` (or as `tool.bjh-auditor.KEY`)
    for a pyproject.toml, else before any table. None if it cannot be told."""
    name = rf"[\"']?{re.escape(key)}[\"']?[ \t]*="
    plain = re.compile(rf"^[ \t]*{name}")
    dotted = re.compile(rf"^[ \t]*tool[ \t]*\.[ \t]*[\"']?{re.escape(TOOL_TABLE)}[\"']?"
                        rf"[ \t]*\.[ \t]*{name}")
    table = None
    for number, line in enumerate(text.splitlines(), start=1):
        header = _TABLE.match(line)
        if header:
            table = re.sub(r"[ \t\"']", "", header.group(1))
            continue
        if not in_tool and table is None and plain.match(line):
            return number
        if in_tool and ((table == f"tool.{TOOL_TABLE}" and plain.match(line))
                        or (table is None and dotted.match(line))):
            return number
    return None
