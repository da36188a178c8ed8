"""A licensee's approved house rules: the file the commission keeps (`--approved FILE`).

One `[[approval]]` table per approval: `licence`, and `table` (leave it out for every table
of the licence), `reference` and `date` of the approval, then what was approved: `game`,
`decks`, `min`, `max` and any option of the format as the header writes it
(`soft17 = "hit"`, `db21.paytable = 2`, `sidebet.min = 5`). What is not given is not
compared. A table's own approval wins over its licence's.

A file that cannot be used is one sentence naming the file, the field and its line: exit 2.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from auditor.config import HouseRules, TableConfig
from auditor.fieldwise import Fieldwise
from auditor.tomlfile import read_toml

IDENTITY = ("licence", "table", "reference", "date")
TABLE_KEYS = ("game", "decks", "min", "max")
AMOUNTS = frozenset({"min", "max", "sidebet.min", "sidebet.max", "tensticks.prize"})
GAMES = ("standard", "switch", "db21", "tensticks", "ladies")


def option_keys() -> dict[str, str]:
    """Each option as the header writes it (`db21.paytable`) -> its HouseRules field."""
    keys = {}
    for name in HouseRules.model_fields:
        keys[name.replace("_", ".", 1) if name.startswith(
            ("db21", "sidebet", "tensticks", "ladies")) else name] = name
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

    def for_table(self, licence: str | None, table: str | None) -> Approval | None:
        """The table's own approval, else its licence's; None if none is on file."""
        if licence is None:
            return None
        own = [a for a in self.entries if a.licence == licence and a.table == table]
        whole = [a for a in self.entries if a.licence == licence and a.table is None]
        return (own or whole or [None])[0]


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
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ApprovalFileError(f"{path}: cannot be read ({error})") from error
    document = read_toml(text, str(path), ApprovalFileError, date_keys=("date",))
    unknown = [key for key in document if key != "approval"]
    if unknown:
        raise ApprovalFileError(f"{path}: line {_line(text, 0, unknown[0]) or '?'}: "
                                f"`{unknown[0]}` is not part of an approval file (one "
                                "[[approval]] table per approval)")
    tables = document.get("approval", [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise ApprovalFileError(f"{path}: `approval` must be [[approval]] tables")
    entries, seen = [], {}
    for index, table in enumerate(tables):
        entry = _approval(path, text, index, table)
        key = (entry.licence, entry.table)
        if key in seen:
            raise ApprovalFileError(f"{path}: line {entry.line}: a second approval for "
                                    f"{entry.licence}/{entry.table or 'every table'} (the "
                                    f"first is at line {seen[key]})")
        seen[key] = entry.line
        entries.append(entry)
    return Approvals(str(path), tuple(entries))


def _flat(table: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """`db21.paytable = 2` is a nested table in TOML: the dotted key again."""
    flat: dict[str, Any] = {}
    for key, value in table.items():
        if isinstance(value, dict):
            flat.update(_flat(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def _approval(path: Path, text: str, index: int, table: dict[str, Any]) -> Approval:
    flat = _flat(table)
    options = option_keys()

    def fault(key: str, problem: str) -> ApprovalFileError:
        line = _line(text, index + 1, key.split(".")[-1])
        return ApprovalFileError(f"{path}: line {line or _line(text, index + 1, None) or '?'}: "
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
                    flat["date"].isoformat(), _line(text, index + 1, None) or 0, tuple(rules))


def _amount(value: Any) -> Decimal | None:
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        return None
    return amount if amount.is_finite() and amount >= 0 else None


_APPROVAL = re.compile(r"^[ \t]*\[\[[ \t]*approval[ \t]*\]\]")


def _line(text: str, number: int, key: str | None) -> int | None:
    """The line of the `number`th [[approval]] (0: before any), or of `key` within it."""
    seen = 0
    for line_number, line in enumerate(text.splitlines(), start=1):
        if _APPROVAL.match(line):
            seen += 1
            if seen == number and key is None:
                return line_number
            continue
        if seen > number:
            return None
        if seen == number and key is not None and re.match(
                rf"^[ \t]*(?:[\w.\"'-]+\.)?[\"']?{re.escape(key)}[\"']?[ \t]*=", line):
            return line_number
    return None
