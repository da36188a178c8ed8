"""The diagnosis: why a line is unreadable, as its `Unreadable` event says.

Two kinds of line are unreadable (record:syntax). One the grammar rejects: `diagnose`
names the field that is wrong and what it should be, matching the line's words against
the statement's shape (`STATEMENT_USAGE`) with the grammar's own field terminals (taken
from a second Lark parser of the same grammar, built or loaded at the first such line).
One the grammar reads but no record can mean (a date that is not a calendar date, a clock
past 23:59:59.999, an amount too large to judge exactly): `implausible` says why, and
`_unreal` gives the events such a line still yields. The readers call these only on the
lines that need them.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from functools import cache
from typing import TYPE_CHECKING

from auditor import events as ev
from auditor.config import MAX_AMOUNT
from auditor.parser.grammar import _PLACEHOLDERS, STATEMENT_USAGE, cached_lark, grammar_text

if TYPE_CHECKING:
    from lark import Lark
    from lark.exceptions import UnexpectedInput


# ---- values the grammar's shapes let through but no record can mean ----

TOO_LONG_NUMBER = "a number on this line is too long to be read"
_DATED = (ev.Shoe, ev.RoundStart)
_AMOUNTS = (ev.Bet, ev.Settle, ev.Double, ev.Split, ev.Prize)
_AMOUNT_TYPES = frozenset(_AMOUNTS)
# The statements (by their terminal) that build a _DATED or _AMOUNTS event: the only ones
# `implausible` can find something in besides the time stamp.
_CHECKED_KINDS = frozenset({"SHOE", "ROUND", "BET", "SETTLE", "DOUBLE", "SPLIT", "PRIZE"})


def implausible(event: ev.Event) -> str | None:
    """Why a statement that parses cannot be what it says (bjh-format.md §5, "Dates and
    times"): a date that is not a calendar date, a clock outside 00:00:00–23:59:59.999, an
    amount too large to judge exactly; None for every sound statement."""
    time = event.time
    if time is not None and not _real_clock(time):
        return f"the time stamp {time} is not a time of day (00:00:00 to 23:59:59.999)"
    kind = type(event)
    if kind in _DATED:
        if event.date is not None and not _real_date(event.date):
            return f"date={event.date} is not a calendar date"
        clock = getattr(event, "clock", None)
        if clock is not None and not _real_clock(clock):
            return f"time={clock} is not a time of day (00:00:00 to 23:59:59.999)"
    elif kind in _AMOUNTS and event.amount >= MAX_AMOUNT:
        return "an amount on this line is too large to be read (more than 15 digits)"
    return None


def _unreal(event: ev.Event, wrong: str, number: int, text: str) -> list[ev.Event]:
    """The events of a statement with a value no record can mean: the line is unreadable
    (record:syntax); but a `shoe` or `round` with an unreal date or time= still opens its
    shoe or round, without that value, so that what follows is read in its place (the
    round, holding an unreadable line, is replayed and not judged)."""
    unreadable = ev.Unreadable(number, None, 1, wrong, text)
    if type(event) in _DATED and (event.time is None or _real_clock(event.time)):
        kept = replace(event, date=None, clock=None) if isinstance(event, ev.RoundStart) \
            else replace(event, date=None)
        return [kept, unreadable]
    return [unreadable]


def _real_clock(clock: str) -> bool:
    return clock[:2] < "24" and clock[3:5] < "60" and clock[6:8] < "60"


def _real_date(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


# ---- error messages for a line that does not parse ----

_WORD = re.compile(r'"(?:[^"\\]|\\.)*"?|[^ \t"]+')
_CLOCK = re.compile(r"[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,3})?$")


@cache
def _field_lark() -> Lark:
    """The same grammar, with the field terminals reachable, so that their patterns are kept."""
    names = sorted({terminal for terminal, _ in _PLACEHOLDERS.values()} - {"OPTION_PAIR"})
    extra = "\ndiagnostic_fields: " + " | ".join([*names, "OPTION_KEY", "OPTION_VALUE"]) + "\n"
    return cached_lark("fields", grammar_text() + extra, parser="lalr", lexer="basic",
                       start=["start", "diagnostic_fields"])


@cache
def _field_pattern(terminal: str) -> re.Pattern[str]:
    def regexp(name: str) -> str:
        return _field_lark().get_terminal(name).pattern.to_regexp()

    if terminal == "OPTION_PAIR":
        return re.compile(f"(?:{regexp('OPTION_KEY')})=(?:{regexp('OPTION_VALUE')})")
    return re.compile(f"(?:{regexp(terminal)})")


def _strip_comment(text: str) -> str:
    quoted = False
    escaped = False
    for index, char in enumerate(text):
        if escaped:
            escaped = False
        elif char == "\\" and quoted:
            escaped = True
        elif char == '"':
            quoted = not quoted
        elif char == "#" and not quoted:
            return text[:index]
    return text


def diagnose(text: str, error: UnexpectedInput | None = None) -> tuple[int, str]:
    """(column, message) for a line the grammar rejected: which field is wrong and why."""
    words = [(m.start() + 1, m.group()) for m in _WORD.finditer(_strip_comment(text))]
    if words and _CLOCK.match(words[0][1]):
        words = words[1:]
    if not words:
        column = getattr(error, "column", 1) or 1
        return column, "a time stamp must be followed by a statement"
    column, keyword = words[0]
    usage = STATEMENT_USAGE.get(keyword)
    if usage is None:
        return column, (f"unknown statement {keyword[:40]!r}; expected one of: "
                        + ", ".join(STATEMENT_USAGE))
    found = _first_bad_field(usage, words[1:])
    if found is not None:
        bad_column, detail = found
        return bad_column, f"{detail}; expected `{usage}`"
    column = getattr(error, "column", column) or column
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    if isinstance(error, UnexpectedToken | UnexpectedCharacters):
        return column, f"the fields do not make a `{keyword}` statement; expected `{usage}`"
    return column, f"expected `{usage}`"  # pragma: no cover - every parse error is one of those


def _first_bad_field(usage: str, words: list[tuple[int, str]]) -> tuple[int, str] | None:
    """Match words against the usage: positional placeholders in order, key=value by key."""
    positional: list[tuple[str, bool]] = []  # (placeholder, optional)
    keyed: dict[str, tuple[str, bool]] = {}  # key -> (placeholder, optional)
    optional = False
    for slot in usage.replace("[", " [ ").replace("]", " ] ").split()[1:]:
        if slot in ("[", "]"):
            optional = slot == "["
        elif "=" in slot and slot != "KEY=VALUE":
            key, placeholder = slot.split("=", 1)
            keyed[key] = (placeholder, optional)
        else:
            positional.append((slot, optional))
    last_column = words[-1][0] + len(words[-1][1]) if words else 1
    seen: set[str] = set()
    position = 0
    for column, word in words:
        key = word.split("=", 1)[0] if "=" in word and not word.startswith('"') else None
        if key is not None and keyed:
            if key not in keyed:
                return column, f"unknown field {key[:40]!r}"
            if not _slot_matches(keyed[key][0], word[len(key) + 1:]):
                return column, f"{word[:40]!r}: {key}= takes {_describe(keyed[key][0])}"
            seen.add(key)
            continue
        while position < len(positional) and positional[position][1] and not _slot_matches(
                positional[position][0], word):
            position += 1  # an optional positional word that is absent
        if position >= len(positional):
            return column, f"unexpected {word[:40]!r} at the end of the statement"
        slot = positional[position][0]
        if not _slot_matches(slot, word):
            return column, f"{word[:40]!r} is not {_describe(slot)}"
        position += 1
    for slot, slot_optional in positional[position:]:
        if not slot_optional:
            return last_column, f"{_describe(slot)} is missing"
    for key, (placeholder, key_optional) in keyed.items():
        if not key_optional and key not in seen:
            return last_column, f"{key}= followed by {_describe(placeholder)} is missing"
    return None


def _slot_matches(slot: str, word: str) -> bool:
    terminal = _PLACEHOLDERS.get(slot)
    if terminal is None:  # a literal word such as `tip` or the version `1`
        return word == slot
    return _field_pattern(terminal[0]).fullmatch(word) is not None


def _describe(slot: str) -> str:
    known = _PLACEHOLDERS.get(slot)
    return known[1] if known else f"the word {slot!r}"
