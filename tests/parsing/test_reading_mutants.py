"""Exact values where the reading's own tests compared two paths but pinned nothing (the
mutation area `reading`, scripts/mutation.py): what a bad line's diagnosis says when it
holds a comment or a quoted `#`, and the grammar's terminals kept in the user's cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor import events as ev
from auditor.parser import fast, parse_lines, parse_lines_lark

_CARD = "a card such as Tc (rank A 2-9 T J Q K, then suit c d h s)"


def _both(text: str, number: int = 4) -> list[ev.Event]:
    """The events of one line, which the fast path and Lark's must give alike."""
    fast_events = list(parse_lines([(number, text, None)]))
    assert fast_events == list(parse_lines_lark([(number, text, None)]))
    return fast_events


@pytest.mark.parametrize(("text", "column", "message"), [
    # the comment is no field: the card is missing after the hand's last character
    ("18:00:00 deal s1h1  # the card is missing", 19,
     f"{_CARD} is missing; expected `deal TARGET CARD`"),
    ("deal s1h1 Xx # bad card", 11,
     f"'Xx' is not {_CARD}; expected `deal TARGET CARD`"),
    # a `#` inside a quoted string is text, not a comment: the word after it is read
    ('note "a # b" extra', 14,
     "unexpected 'extra' at the end of the statement; expected `note \"TEXT\"`"),
    # an escaped quote does not close the string, so its `#` is text too
    ('note "say \\"hi\\" # x" more # c', 23,
     "unexpected 'more' at the end of the statement; expected `note \"TEXT\"`"),
    ('casino "A # B" licence=R-1 x=2 # c', 28,
     "unknown field 'x'; expected `casino \"NAME\" [licence=ID]`"),
])
def test_a_diagnosis_reads_past_quoted_hashes_and_stops_at_a_comment(
        text: str, column: int, message: str) -> None:
    assert _both(text) == [ev.Unreadable(4, None, column, message, text)]


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "bjh-auditor" / "grammar"


def _lark_terminals() -> dict[str, str]:
    return {t.name: t.pattern.to_regexp() for t in fast.lark_parser().terminals}


def test_the_grammar_terminals_are_kept_and_read_back(cache_home: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Derived from Lark once, written to the cache, then read from it with no parser."""
    terminals = fast.grammar_terminals()
    assert terminals == _lark_terminals()
    (kept,) = cache_home.glob("terminals-*.json")

    def no_parser() -> None:
        raise AssertionError("the parser was asked for though the terminals are kept")

    monkeypatch.setattr(fast, "lark_parser", no_parser)
    assert fast.grammar_terminals() == terminals
    assert list(cache_home.glob("terminals-*.json")) == [kept]


def test_the_grammar_terminals_with_no_usable_cache(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache folder that cannot be made (a file in its way): derived from Lark, nothing
    written, no error."""
    blocked = tmp_path / "a file"
    blocked.write_text("in the way")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked / "cache"))
    assert fast.grammar_terminals() == _lark_terminals()
    assert blocked.read_text() == "in the way"
