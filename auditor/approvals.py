"""A licensee's approved house rules: the file the commission keeps (`--approved FILE`).

One `[[approval]]` table per approval: `licence`, and `table` (leave it out for every table
of the licence), `reference` and `date` of the approval, then what was approved: `game`,
`decks`, `min`, `max` and any option of the format as the header writes it
(`soft17 = "hit"`, `db21.paytable = 2`, `sidebet.min = 5`). What is not given is not
compared. A table's own approval wins over its licence's.

A file that cannot be used is one sentence naming the file, the field and its line: exit 2.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from auditor.config import HouseRules, TableConfig, option_key
from auditor.fieldwise import Fieldwise
from auditor.tomlfile import read_toml

IDENTITY = ("licence", "table", "reference", "date")
TABLE_KEYS = ("game", "decks", "min", "max")
AMOUNTS = frozenset({"min", "max", "sidebet.min", "sidebet.max", "tensticks.prize"})
GAMES = ("standard", "switch", "db21", "tensticks", "ladies")


@cache
def option_keys() -> dict[str, str]:
    """Each option as the header writes it (`db21.paytable`) -> its HouseRules field."""
    keys = {}
    for name in HouseRules.model_fields:
        keys[option_key(name)] = name
    return keys


class ApprovalFileError(Exception):
    """An approval file that cannot be used; the message names the file, field and line."""


@dataclass(frozen=True, repr=False)
class Approval(Fieldwise):
    """One `[[approval]]` of the file: a licence's (or a table's) approved house rules."""

    licence: str
    table: str | None
    reference: str
    day: str  # ISO date
    line: int  # of its [[approval]] in the file
    rules: tuple[tuple[str, str], ...]  # (key, value as compared), in the file's order

    def describe(self) -> str:
        where = f"{self.licence}/{self.table}" if self.table else f"{self.licence}, every table"
        return f"approval {self.reference} of {self.day} ({where})"


@dataclass(frozen=True, repr=False)
class Approvals(Fieldwise):
    """An approval file read: its approvals in the file's order."""

    path: str
    entries: tuple[Approval, ...]
    # The SHA-256 of the bytes read (None for approvals a run's record kept), so a run names
    # the file it was held to, not whatever lies at that path later.
    sha256: str | None = field(default=None, compare=False)
    # (licence, table or None) -> its approval: one lookup a file, whatever the file holds
    # (a licence and table have one approval at most: load_approvals refuses a second)
    by_table: dict[tuple[str, str | None], Approval] = field(
        default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.by_table:
            for entry in self.entries:
                self.by_table.setdefault((entry.licence, entry.table), entry)

    def for_table(self, licence: str | None, table: str | None) -> Approval | None:
        """The table's own approval, else its licence's; None if none is on file."""
        if licence is None:
            return None
        return self.by_table.get((licence, table)) or self.by_table.get((licence, None))


def compared(key: str, value: Any) -> str:
    """A value as approvals and headers are compared: amounts exactly, text by case."""
    if key in AMOUNTS:
        try:
            return format(Decimal(str(value)).normalize(), "f")
        except InvalidOperation:
            return str(value)
    return str(value).lower()


def declared(config: TableConfig, rules: dict[str, str]) -> dict[str, str | None]:
    """What a header declares, by approval key (`rules`: audit.house_rules(config))."""
    values: dict[str, str | None] = {
        "game": config.game, "decks": str(config.decks),
        "min": None if config.minimum is None else str(config.minimum),
        "max": None if config.maximum is None else str(config.maximum)}
    values.update(rules)
    return values


def load_approvals(path: str | Path) -> Approvals:
    path = Path(path)
    try:
        data = path.read_bytes()
        # Newlines read as text mode reads them, so line numbers are those of an editor.
        text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except (OSError, UnicodeDecodeError) as error:
        raise ApprovalFileError(f"{path}: cannot be read ({error})") from error
    document = read_toml(text, str(path), ApprovalFileError, date_keys=("date",))
    lines = _Lines(text)
    unknown = [key for key in document if key != "approval"]
    if unknown:
        raise ApprovalFileError(f"{path}: line {lines.find(0, unknown[0]) or '?'}: "
                                f"`{unknown[0]}` is not part of an approval file (one "
                                "[[approval]] table per approval)")
    tables = document.get("approval", [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise ApprovalFileError(f"{path}: `approval` must be [[approval]] tables")
    entries, seen = [], {}
    for index, table in enumerate(tables):
        entry = _approval(path, lines, index, table)
        key = (entry.licence, entry.table)
        if key in seen:
            raise ApprovalFileError(f"{path}: line {entry.line}: a second approval for "
                                    f"{entry.licence}/{entry.table or 'every table'} (the "
                                    f"first is at line {seen[key]})")
        seen[key] = entry.line
        entries.append(entry)
    return Approvals(str(path), tuple(entries), hashlib.sha256(data).hexdigest())


def _flat(table: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """`db21.paytable = 2` is a nested table in TOML: the dotted key again."""
    flat: dict[str, Any] = {}
    for key, value in table.items():
        if isinstance(value, dict):
            flat.update(_flat(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def _approval(path: Path, lines: _Lines, index: int, table: dict[str, Any]) -> Approval:
    flat = _flat(table)
    options = option_keys()

    def fault(key: str, problem: str) -> ApprovalFileError:
        line = lines.find(index + 1, key)
        return ApprovalFileError(f"{path}: line {line or lines.find(index + 1, None) or '?'}: "
                                 f"`{key}`: {problem}")

    for key in ("licence", "reference", "date"):
        if key not in flat:
            raise fault(key, "is required")
    for key in ("licence", "table", "reference"):
        if key in flat and (not isinstance(flat[key], str) or not flat[key].strip()):
            raise fault(key, "must be text, not empty")
    if not isinstance(flat["date"], date):
        raise fault("date", "must be a date, YYYY-MM-DD")
    rules: list[tuple[str, str]] = []
    for key, value in flat.items():
        if key in IDENTITY:
            continue
        if key not in TABLE_KEYS and key not in options:
            raise fault(key, f"is not a game, limit or option of the format (known: "
                             f"{', '.join([*TABLE_KEYS, *options])})")
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise fault(key, "must be text or a number")
        if key == "game" and value not in GAMES:
            raise fault(key, f"must be one of {', '.join(GAMES)}")
        if key == "decks" and (not isinstance(value, int) or value < 1):
            raise fault(key, "must be a whole number of decks, 1 or more")
        if key in ("min", "max") and (not isinstance(value, (int, float, str))
                                      or _amount(value) is None):
            raise fault(key, "must be an amount (a number, 0 or more)")
        if key in options:
            try:
                HouseRules.model_validate({options[key]: value})
            except ValidationError as error:
                raise fault(key, error.errors()[0]["msg"]) from error
        rules.append((key, compared(key, value)))
    return Approval(flat["licence"], flat.get("table"), flat["reference"],
                    flat["date"].isoformat(), lines.find(index + 1, None) or 0, tuple(rules))


def _amount(value: Any) -> Decimal | None:
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        return None
    return amount if amount.is_finite() and amount >= 0 else None


_APPROVAL = re.compile(r"^[ \t]*\[\[[ \t]*approval[ \t]*\]\]")
# A dotted key, its parts maybe quoted and spaced (`"db21" . paytable`); the key a line
# assigns; a table of an approval (`[approval.sidebet]`), whose keys its name prefixes.
_KEY = r"((?:[\w\"'-]+[ \t]*\.[ \t]*)*[\w\"'-]+)"
_ASSIGNED = re.compile(rf"^[ \t]*{_KEY}[ \t]*=")
_TABLE = re.compile(rf"^[ \t]*\[[ \t]*approval[ \t]*\.[ \t]*{_KEY}[ \t]*\]")


def _parts(key: str) -> list[str]:
    return [part.strip().strip("\"'") for part in key.split(".")]


class _Lines:
    """The file's lines, and where each [[approval]] begins: found once, so that naming the
    line of an approval or of a key within it reads that approval's lines only (a file of
    60,000 approvals is read in linear time, probe S02)."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.starts = [number for number, line in enumerate(self.lines, start=1)
                       if _APPROVAL.match(line)]

    def find(self, number: int, key: str | None) -> int | None:
        """The line of the `number`th [[approval]] (0: before any), or of `key` within it:
        the line that assigns that dotted key (`sidebet.min`, or `min` under
        `[approval.sidebet]`; never another key's `min`), else that of the inline table
        holding it (`sidebet = {min = 5}`)."""
        if key is None:
            return self.starts[number - 1] if 0 < number <= len(self.starts) else None
        if number > len(self.starts):
            return None
        first = self.starts[number - 1] + 1 if number else 1
        end = self.starts[number] if number < len(self.starts) else len(self.lines) + 1
        parts, table, holder = key.split("."), [], None
        for line_number in range(first, end):
            line = self.lines[line_number - 1]
            if found := _TABLE.match(line):
                table = _parts(found.group(1))
            elif found := _ASSIGNED.match(line):
                named = table + _parts(found.group(1))
                if named == parts:
                    return line_number
                if holder is None and parts[:len(named)] == named:
                    holder = line_number
        return holder
