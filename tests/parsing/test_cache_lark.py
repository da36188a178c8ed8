"""The grammar's Lark parsers kept in the user's cache (parser.grammar.cached_lark): a
kept parser reads every line as a freshly built one does, and a file that is not our plain
data (damaged, foreign, or holding anything but lists, dicts, strings and numbers) is never
used."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest
from lark import Lark
from lark.exceptions import UnexpectedInput

from auditor.cache import key_of
from auditor.parser import grammar as bjh_grammar
from tests.helpers import ROOT

BAD_LINES = [
    "deal s1h1 Xx", "bet s3h1 main", "settle s3h1 main maybe 10", "18:00:00", "hit",
    "round", "table T1 game=standard decks=six", 'casino "unterminated', "dealt s1h1 Tc",
    "shoe S1 date=2026-13-45 extra", "10:00:00 10:00:01 end", "option =x", "bjh 2",
    "split s1h1 s1h2", "sit s1 player=P1 punchcard=C1", "light s1 many", "\x7f",
]


def _lines() -> list[str]:
    lines = []
    for path in sorted((ROOT / "sample_logs").glob("*.bjh")):
        lines.extend(path.read_text(encoding="utf-8").splitlines())
    return [line for line in dict.fromkeys(lines) if line.strip()] + BAD_LINES


def _read(lark: Lark, text: str) -> object:
    """What a parser makes of a line: its tree, or where and why it stops."""
    try:
        return lark.parse(text, start="start")
    except UnexpectedInput as error:
        return type(error).__name__, error.line, error.column, \
            sorted(getattr(error, "expected", None) or getattr(error, "allowed", None) or [])


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "bjh-auditor" / "grammar"


def _kept(folder: Path, name: str) -> Path:
    (found,) = folder.glob(f"lark-{name}-*.pickle")
    return found


@pytest.mark.parametrize(("name", "extra", "options"), [
    ("parser", "", {"parser": "lalr", "lexer": "contextual"}),
    ("fields", "\ndiagnostic_fields: ID | INT | CARD | AMOUNT\n",
     {"parser": "lalr", "lexer": "basic", "start": ["start", "diagnostic_fields"]}),
])
def test_a_kept_parser_reads_every_line_as_a_built_one(cache_home, name, extra, options):
    grammar = bjh_grammar.grammar_text() + extra
    built = bjh_grammar.cached_lark(name, grammar, **options)  # built, and kept
    path = _kept(cache_home, name)
    key = path.stem.removeprefix(f"lark-{name}-")
    plugins = {"_plugins": bjh_grammar._PLUGINS} if bjh_grammar._PLUGINS else {}
    loaded = bjh_grammar._load_lark(path, key, plugins)
    assert loaded is not None and type(loaded.parser.parser) is type(built.parser.parser)
    again = bjh_grammar.cached_lark(name, grammar, **options)
    assert path.stat().st_mtime_ns == _kept(cache_home, name).stat().st_mtime_ns  # not rewritten
    assert {t.name: t.pattern.to_regexp() for t in loaded.terminals} == \
        {t.name: t.pattern.to_regexp() for t in built.terminals}
    for text in _lines():
        expected = _read(built, text)
        assert _read(loaded, text) == expected, text
        assert _read(again, text) == expected, text
    # another key (another grammar, option or version) never reads this file
    assert bjh_grammar._load_lark(path, key_of("another grammar"), plugins) is None


class Trap:
    """Anything but plain data: loading it would make the folder `marker`."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (str(self.marker),))


@pytest.mark.parametrize("content", [
    b"", b"not a pickle at all", pickle.dumps({"key": "other", "lark": {}}),
    b"\x80\x05garbage", "trap", "truncated", "plain but not a parser",
])
def test_a_damaged_or_foreign_file_is_ignored_and_replaced(cache_home, tmp_path, content):
    grammar, options = bjh_grammar.grammar_text(), {"parser": "lalr", "lexer": "contextual"}
    reference = bjh_grammar.cached_lark("parser", grammar, **options)
    path = _kept(cache_home, "parser")
    good = path.read_bytes()
    key = path.stem.removeprefix("lark-parser-")
    if content == "trap":
        content = pickle.dumps({"key": key, "lark": Trap(tmp_path / "ran")})
    elif content == "truncated":
        content = good[:len(good) // 2]
    elif content == "plain but not a parser":
        content = pickle.dumps({"key": key, "lark": {"data": [1, 2], "memo": "x"}})
    path.write_bytes(content)
    rebuilt = bjh_grammar.cached_lark("parser", grammar, **options)
    assert not (tmp_path / "ran").exists()  # never unpickled as an object
    assert _read(rebuilt, "deal s1h1 Tc") == _read(reference, "deal s1h1 Tc")
    assert _read(rebuilt, "deal s1h1 Xx") == _read(reference, "deal s1h1 Xx")
    plugins = {"_plugins": bjh_grammar._PLUGINS} if bjh_grammar._PLUGINS else {}
    kept = bjh_grammar._load_lark(path, key, plugins)  # written again, whole
    assert kept is not None
    assert _read(kept, "bet s1h1 main 5") == _read(reference, "bet s1h1 main 5")
    assert not [p for p in cache_home.iterdir() if p.name.startswith(".")]  # no temporary left
