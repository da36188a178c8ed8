"""Untrusted text (file names, record strings, waiver and settings fields) made safe to show.

- `neutral`: Unicode bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C) become a
  visible marker such as `⟦U+202E⟧`, so a casino name cannot display reordered (Trojan
  Source) in report.html, trends.html, the CSVs or a terminal. JSON keeps the text exact.
- `visible`: for a terminal or a log, `neutral` and every control character (C0, DEL, C1,
  the Unicode line and paragraph separators) written as an escape (`\\x1b`, `\\n`), so a
  file name can neither drive the terminal nor forge a line of the log.
- `terminal_json`: JSON printed for scripts stays exact, its controls escaped the JSON way.
- `TextConsole`: the Rich console every subcommand prints through: markup and emoji codes
  are never read (a name like `night[/b].bjh` is shown as it is), and every string printed
  goes through `visible` (so the auditor's own text of several lines is printed a line at
  a time), never wrapped.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_BIDI = re.compile(f"[{BIDI_CONTROLS}]")


@cache
def _control() -> re.Pattern[str]:
    """The characters `visible` escapes (compiled at first use: a charset of this range
    is costly to compile, and an audit with nothing to print never needs it)."""
    return re.compile(f"[\x00-\x1f\x7f-\x9f\u2028\u2029{BIDI_CONTROLS}]")


_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _marker(match: re.Match) -> str:
    return f"⟦U+{ord(match.group()):04X}⟧"


def _escape(match: re.Match) -> str:
    character = match.group()
    code = ord(character)
    if code > 0xFF:
        return _marker(match) if _BIDI.match(character) else f"\\u{code:04x}"
    return _NAMED.get(character, f"\\x{code:02x}")


def neutral(text: str) -> str:
    """`text` with its bidi controls shown as markers (for pages and CSV cells)."""
    return _BIDI.sub(_marker, text) if _BIDI.search(text) else text


@cache
def _json_unsafe() -> re.Pattern[str]:
    return re.compile(f"[\x7f-\x9f\u2028\u2029{BIDI_CONTROLS}]")


def terminal_json(text: str) -> str:
    """JSON text for a terminal: the characters JSON may hold raw but a terminal would obey
    (DEL, C1, line separators, bidi controls) as `\\uXXXX` escapes; parsed, the text is
    exact. (JSON escapes the C0 controls itself.)"""
    return _json_unsafe().sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def visible(text: str) -> str:
    """`text` with bidi controls marked and control characters escaped (for terminals)."""
    control = _control()
    return control.sub(_escape, text) if control.search(text) else text


@cache
def _text_console_class() -> type:
    """`TextConsole`, made at its first use: Rich is loaded then (about 0.08 s), so an
    audit with --quiet that has nothing to say never loads it."""
    from rich.console import Console

    class TextConsole(Console):
        """A Rich console for untrusted text: no markup, no emoji codes, controls escaped."""

        def __init__(self, **options: Any) -> None:
            options.setdefault("highlight", False)
            options.setdefault("soft_wrap", True)  # a line of a log is never cut in two
            super().__init__(markup=False, emoji=False, **options)

        def print(self, *objects: Any, **options: Any) -> None:
            options["markup"] = False
            options["emoji"] = False
            shown = [visible(item) if isinstance(item, str) else item for item in objects]
            super().print(*shown, **options)

    TextConsole.__module__ = __name__
    return TextConsole


def __getattr__(name: str) -> Any:
    if name == "TextConsole":
        return _text_console_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class LazyTextConsole:
    """A `TextConsole` made with `options` at its first use (any attribute): what an audit
    prints its error lines (and, with --quiet, nothing) through, so that an audit with
    nothing to say never loads Rich. Everything printed goes through the TextConsole."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._console: Any = None

    def __getattr__(self, name: str) -> Any:
        if self._console is None:
            self._console = _text_console_class()(**self._options)
        return getattr(self._console, name)
