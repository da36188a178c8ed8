"""The builders: a statement's text to its typed event (auditor/events.py).

One builder per statement terminal of the grammar (`_BUILDERS`), given the statement's
text as the grammar matched it, its line number and its time stamp. They trust the
grammar: the number and form of the fields are checked before a builder is called (by
Lark, or by the fast paths' patterns, which are the grammar's own terminals). Lark's one
transformer (`StatementBuilder`, made at its first use, so that a record the fast paths
read whole never loads Lark) calls the same builders on a parse tree's tokens. What a
built event may still hold that no record can mean is the diagnosis's (`implausible`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal
from functools import cache
from typing import TYPE_CHECKING, Any

from auditor import events as ev

if TYPE_CHECKING:
    from lark import Token


def __getattr__(name: str) -> Any:
    if name == "StatementBuilder":
        return _statement_builder_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _unquote(quoted: str) -> str:
    return re.sub(r'\\(["\\])', r"\1", quoted[1:-1])


def _pairs(words: list[str]) -> dict[str, str]:
    return dict(word.split("=", 1) for word in words)


_STRING_FIRST = re.compile(r'^\S+\s+("(?:[^"\\]|\\.)*")(.*)$')


def _string_and_rest(text: str) -> tuple[str, list[str]]:
    match = _STRING_FIRST.match(text)
    assert match is not None  # the grammar guarantees it
    return _unquote(match.group(1)), match.group(2).split()


def _decimal(text: str) -> Decimal:
    return Decimal(text)


def _casino(text: str, line: int, time: str | None) -> ev.Event:
    name, rest = _string_and_rest(text)
    return ev.Casino(line, time, name, _pairs(rest).get("licence"))


def _note(text: str, line: int, time: str | None) -> ev.Event:
    return ev.Note(line, time, _string_and_rest(text)[0])


def _table(text: str, line: int, time: str | None) -> ev.Event:
    words = text.split()
    return ev.Table(line, time, words[1], tuple(tuple(w.split("=", 1)) for w in words[2:]))


def _punchcard(words: list[str]) -> tuple[str | None, int | None]:
    pairs = _pairs(words)
    punches = pairs.get("punches")
    return pairs.get("punchcard"), int(punches) if punches is not None else None


def _round(text: str, line: int, time: str | None) -> ev.Event:
    words = text.split()
    pairs = _pairs(words[2:])
    return ev.RoundStart(line, time, words[1], pairs.get("date"), pairs.get("time"),
                         pairs.get("dealer"))


def _shoe(text: str, line: int, time: str | None) -> ev.Event:
    words = text.split()
    return ev.Shoe(line, time, words[1], _pairs(words[2:]).get("date"))


def _sit(text: str, line: int, time: str | None) -> ev.Event:
    words = text.split()
    return ev.Sit(line, time, words[1], words[2].split("=", 1)[1], *_punchcard(words[3:]))


def _leave(text: str, line: int, time: str | None) -> ev.Event:
    words = text.split()
    return ev.Leave(line, time, words[1], *_punchcard(words[2:]))


def _bet(text: str, line: int, time: str | None) -> ev.Event:
    w = text.split()
    return ev.Bet(line, time, w[1], w[2], Decimal(w[3]), len(w) > 4)


def _settle(text: str, line: int, time: str | None) -> ev.Event:
    w = text.split()
    return ev.Settle(line, time, w[1], w[2], w[3], Decimal(w[4]), len(w) > 5)


def _words(cls: Callable[..., ev.Event], *convert: Callable[[str], object]):
    """A builder for a statement whose fields are plain words after the keyword.

    The grammar has already checked the number and form of the fields; the common shapes
    (no field, one or two words) get builders without a loop, as they are most lines.
    """
    if not convert:
        return lambda text, line, time: cls(line, time)
    if convert == (str,):
        return lambda text, line, time: cls(line, time, text.split()[1])
    if convert == (str, str):
        def two(text: str, line: int, time: str | None) -> ev.Event:
            words = text.split()
            return cls(line, time, words[1], words[2])

        return two

    def build(text: str, line: int, time: str | None) -> ev.Event:
        fields = text.split()[1:]
        return cls(line, time, *(c(f) for c, f in zip(convert, fields, strict=True)))

    return build


_BUILDERS: dict[str, Callable[[str, int, str | None], ev.Event]] = {
    "VERSION": _words(ev.Version, int),
    "CASINO": _casino,
    "TABLE": _table,
    "OPTION": lambda text, line, time: ev.Option(line, time, *text.split(None, 1)[1].split("=", 1)),
    "SHOE": _shoe,
    "SHUFFLE": _words(ev.Shuffle),
    "CUTCARD": _words(ev.CutCard),
    "CUT": _words(ev.Cut),
    "BURN": _words(ev.Burn, str),
    "DEALER": _words(ev.DealerChange, str),
    "NOTE": _note,
    "CLOSE": _words(ev.Close),
    "ROUND": _round,
    "END": _words(ev.RoundEnd),
    "SIT": _sit,
    "LEAVE": _leave,
    "BET": _bet,
    "DEAL": _words(ev.Deal, str, str),
    "PEEK": _words(ev.Peek),
    "SWITCH": _words(ev.Switch, str),
    "HIT": _words(ev.Hit, str, str),
    "STAND": _words(ev.Stand, str),
    "DOUBLE": _words(ev.Double, str, _decimal, str),
    "SPLIT": _words(ev.Split, str, str, _decimal),
    "SURRENDER": _words(ev.Surrender, str),
    "TRADE": _words(ev.Trade, str, str),
    "LIGHT": _words(ev.Light, str, int),
    "PRIZE": _words(ev.Prize, str, _decimal),
    "REVEAL": _words(ev.Reveal),
    "DRAW": _words(ev.Draw, str),
    "SETTLE": _settle,
    "TUCK": _words(ev.Tuck, str),
    "DISCARD": _words(ev.Discard, str),
    "MISDEAL": _words(ev.Misdeal, str),
}


@cache
def _statement_builder_class() -> type:
    """The transformer's class, made at its first use: it is Lark's `Transformer`'s."""
    from lark import Transformer

    class StatementBuilder(Transformer):
        """The one transformer: a parse tree of statement tokens into typed events.

        `line_offset` is the number of lines before the parsed text in its file.
        """

        def __init__(self) -> None:
            super().__init__(visit_tokens=False)
            self.line_offset = 0

        def start(self, tokens: list[Token]) -> list[ev.Event]:
            built: list[ev.Event] = []
            offset = self.line_offset
            time = None
            for token in tokens:
                kind = token.type
                if kind == "TIME":
                    time = token.value
                    continue
                built.append(_BUILDERS[kind](token.value, token.line + offset, time))
                time = None
            return built

    StatementBuilder.__module__ = __name__
    return StatementBuilder
