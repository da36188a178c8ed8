"""Reading a TOML file a person wrote (waivers, settings): every fault one plain sentence
naming the file, the line and, where the line shows it, the key."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from typing import Any


def read_toml(text: str, name: str, fault: type[Exception],
              date_keys: Iterable[str] = ()) -> dict[str, Any]:
    """The TOML document, or `fault` naming the file, the line and, where the line gives
    one, the key whose value is wrong (`expires = 2030-13-01` is a bad date, not a bare
    syntax error)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        # tomllib says "… (at line L, column C)": lead with the line, as the other errors do.
        found = re.search(r"\(at line (\d+), column (\d+)\)", str(error))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(error))
        if not found:
            raise fault(f"{name}: not valid TOML: {message}") from error
        number = int(found.group(1))
        problem = _value_problem(text, number, message, tuple(date_keys))
        raise fault(f"{name}: line {number}: {problem}") from error
    except RecursionError as error:  # tomllib recurses once per level of nesting
        raise fault(f"{name}: nested too deeply to read (arrays or tables inside each "
                    "other hundreds of levels down)") from error


_ASSIGNMENT = re.compile(r"[ \t]*([A-Za-z0-9_-]+)[ \t]*=[ \t]*(.*?)[ \t]*(?:#.*)?$")


def _value_problem(text: str, number: int, message: str, date_keys: tuple[str, ...]) -> str:
    """What is wrong on a line tomllib would not read: tomllib's words, with the key and
    its value when the line assigns one, and what a date must look like when the value
    was meant as one."""
    lines = text.splitlines()
    found = _ASSIGNMENT.fullmatch(lines[number - 1]) if number <= len(lines) else None
    if found is None:
        return f"not valid TOML: {message}"
    key, value = found.groups()
    shown = value if len(value) <= 40 else value[:40] + "…"
    if key in date_keys or re.match(r"\d{4}-\d", value):
        return (f"`{key}`: {shown!r} is not a date; write YYYY-MM-DD, such as 2026-12-31 "
                "(a calendar date, no time)")
    hint = "; text goes in quotes" if message == "Invalid value" and value else ""
    return f"`{key}`: not valid TOML: {message} (the value {shown!r}{hint})"
