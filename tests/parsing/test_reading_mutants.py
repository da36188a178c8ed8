"""Exact values where the reading's own tests compared two paths or pinned nothing (the
mutation area `reading`, scripts/mutation.py): what a bad line's diagnosis says when it
holds a comment or a quoted `#`, the grammar's terminals kept in the user's cache, a piece
of a file read alone, `decks=` of thousands of digits, and the count an unknown house rule
with no most is judged at."""

from __future__ import annotations

import hashlib
import tracemalloc
from decimal import Decimal
from pathlib import Path

import pytest

from auditor import events as ev
from auditor import source
from auditor.parser import STATEMENT_USAGE, fast, parse_lines, parse_lines_lark
from auditor.reader import NO_MOST, Header, read_structure
from auditor.source import SourceFile
from tests.helpers.finding_rows import finding_rows

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
    # a keyed field with a value its key does not take: named, at its own column
    ("table T1 game=standard decks=six", 24,
     "'decks=six': decks= takes a whole number; expected `" + STATEMENT_USAGE["table"] + "`"),
    ("round 7 time=12:00 dealer=D-1", 9,
     "'time=12:00': time= takes a time HH:MM:SS; expected `" + STATEMENT_USAGE["round"] + "`"),
    # past an escaped quote the comment is still cut: each field fits, Lark's column
    ('casino "A \\"B\\"" licence=R-1 licence=R-2 # c', 30,
     "the fields do not make a `casino` statement; expected `casino \"NAME\" [licence=ID]`"),
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


# ---- a piece of a file (auditor/split.py), read from its first byte to its last ----

_PIECE_LINES = [b"bjh 1", b"shoe S1", b"round 1", b"deal s1h1 Kh", b"end", b"round 2", b"end"]


@pytest.mark.parametrize("block", [3, 1 << 18])
def test_a_piece_reads_its_own_lines_and_no_more(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 block: int) -> None:
    """Lines 3 to 5 of a record, read as a worker reads its piece (blocks shorter than a
    line, or one block holding it all): their numbers, texts and bytes' digest, nothing of
    the lines around them."""
    monkeypatch.setattr(source, "_BLOCK", block)
    path = tmp_path / "record.bjh"
    path.write_bytes(b"\n".join(_PIECE_LINES) + b"\n")
    start = len(b"\n".join(_PIECE_LINES[:2])) + 1
    end = start + len(b"\n".join(_PIECE_LINES[2:5])) + 1
    piece = SourceFile(str(path), start=start, end=end, first_line=3)
    assert list(piece.lines()) == [(3, "round 1", None), (4, "deal s1h1 Kh", None),
                                   (5, "end", None)]
    assert piece.sha256 == hashlib.sha256(b"round 1\ndeal s1h1 Kh\nend\n").hexdigest()
    assert (piece.line_count, piece.unterminated) == (3, None)
    rest = SourceFile(str(path), start=end, first_line=6)  # the last piece: to the file's end
    assert list(rest.lines()) == [(6, "round 2", None), (7, "end", None)]


@pytest.mark.parametrize("block", [1, 2, 4, 5])
def test_a_block_that_begins_with_a_newline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            block: int) -> None:
    """Blocks cut just before a newline (at 4: "end\\n", then "\\nend"): the empty line
    between is a line of its own, and the last, with no newline, the record's last."""
    monkeypatch.setattr(source, "_BLOCK", block)
    path = tmp_path / "record.bjh"
    path.write_bytes(b"end\n\nend")
    reading = SourceFile(str(path))
    assert list(reading.lines()) == [(1, "end", None), (2, "", None), (3, "end", None)]
    assert (reading.line_count, reading.unterminated) == (3, 3)


# ---- `decks=` with more digits than Python reads as a number ----

def _header(*lines: str) -> Header:
    numbered = [(number, text, None) for number, text in enumerate(lines, 1)]
    header = next(read_structure(parse_lines(numbered)))
    assert isinstance(header, Header)
    return header


def test_decks_of_thousands_of_digits_is_a_value_it_cannot_take() -> None:
    """`int` refuses a text of more than 4300 digits: the reader crashed on such a
    `decks=` (the auditor's own failure, exit 3); it is a header finding, `decks` unknown,
    as `seats=` of as many digits is."""
    digits = "9" * 5000
    header = _header("bjh 1", f"table T1 game=standard decks={digits} seats={digits}")
    assert [(p.kind, p.line, p.message) for p in header.problems] == [
        ("header", 2, "table decks: Unable to parse input string as an integer, "
                      "exceeded maximum size"),
        ("header", 2, "table seats: Unable to parse input string as an integer, "
                      "exceeded maximum size")]
    (decks,) = header.config.unknown
    assert (decks.key, decks.values, decks.line) == ("decks", (1, 6, 8, NO_MOST), 2)
    assert decks.why == f"set to {digits} at line 2, a value it cannot take"
    assert header.config.decks == NO_MOST


def test_decks_of_thousands_of_digits_is_audited_not_a_crash(tmp_path: Path) -> None:
    digits = "9" * 5000
    rows = finding_rows(tmp_path, f"bjh 1\ntable T1 game=standard decks={digits}\n"
                                  "shoe S1\nround 1\nend\n")
    assert [row[:3] for row in rows] == [("record:header", None, 2)]
    assert rows[0][3] == ("table decks: Unable to parse input string as an integer, "
                          "exceeded maximum size")


# ---- a house rule with no most, unknown: judged at the least and at NO_MOST ----

def test_an_unknown_count_with_no_most_is_judged_at_one_and_at_a_million() -> None:
    """`tensticks.lights` (no most) and `decks` at a standard table (no most in its rules)
    set to values they cannot take: each is judged at its least and at NO_MOST, one
    million, which the bonus prize's message names as the lights the prize needs, and the
    table is configured at NO_MOST."""
    assert NO_MOST == 10 ** 6
    header = _header("bjh 1", "table T1 game=tensticks decks=0", "option tensticks.lights=0")
    assert [(u.key, u.values, u.line) for u in header.config.unknown] == [
        ("decks", (1, 6, 8, 1_000_000), 2), ("tensticks.lights", (1, 1_000_000), 3)]
    assert (header.config.decks, header.config.rules.tensticks_lights) == \
        (1_000_000, 1_000_000)


# ---- values the grammar reads but no record can mean (diagnosis.implausible) ----

_NOT_A_TIME = "is not a time of day (00:00:00 to 23:59:59.999)"


@pytest.mark.parametrize(("text", "events"), [
    ("shoe S1 date=2026-02-30",
     [ev.Shoe(4, None, "S1", None), "date=2026-02-30 is not a calendar date"]),
    ("18:00:00 round 7 date=2026-13-01 time=12:00:00 dealer=D-1",
     [ev.RoundStart(4, "18:00:00", "7", None, None, "D-1"),
      "date=2026-13-01 is not a calendar date"]),
    ("round 7 time=24:00:00",
     [ev.RoundStart(4, None, "7", None, None, None), f"time=24:00:00 {_NOT_A_TIME}"]),
    # a time stamp no clock shows: the line opens nothing
    ("24:00:00 shoe S2 date=2026-02-30", [f"the time stamp 24:00:00 {_NOT_A_TIME}"]),
    ("round 8 date=2024-02-29", [ev.RoundStart(4, None, "8", "2024-02-29", None, None)]),
])
def test_an_unreal_date_or_clock_is_unreadable_and_the_shoe_or_round_still_opens(
        text: str, events: list) -> None:
    expected = [ev.Unreadable(4, None, 1, e, text) if isinstance(e, str) else e
                for e in events]
    assert _both(text) == expected


@pytest.mark.parametrize(("text", "event"), [
    ("18:00:24\treveal", ev.Reveal(4, "18:00:24")),
    ("18:00:25 end # c", ev.RoundEnd(4, "18:00:25")),
    ("18:00:26\tcutcard", ev.CutCard(4, "18:00:26")),
    ("18:00:27 peek  ", ev.Peek(4, "18:00:27")),
    ("18:00:14\tdiscard s1h1", ev.Discard(4, "18:00:14", "s1h1")),
    ("18:00:15 surrender s1h2 # c", ev.Surrender(4, "18:00:15", "s1h2")),
    ("18:00:16\ttuck  s1h3", ev.Tuck(4, "18:00:16", "s1h3")),
    ("18:00:17\tbet s1h1 main 31.75 tip", ev.Bet(4, "18:00:17", "s1h1", "main",
                                                Decimal("31.75"), True)),
    ("18:00:18  settle s1h1 main win 63.25 # c", ev.Settle(4, "18:00:18", "s1h1", "main",
                                                            "win", Decimal("63.25"), False)),
])
def test_statements_off_the_runs_keep_their_time_stamp_and_fields(
        text: str, event: ev.Event) -> None:
    """Written with a tab, two spaces or a comment, a round's statement is read alone by
    the round pattern, whose statements sharing one alternative (end, reveal, peek,
    cutcard...; discard, tuck, surrender) are built from the captured keyword: the time
    stamp (group 1) and the hand are the line's."""
    assert _both(text) == [event]


def test_the_rest_of_an_overlong_line_is_not_held(tmp_path: Path) -> None:
    """A line past MAX_LINE_BYTES is one unreadable line, and the bytes up to its newline
    are skipped as they come, never gathered: reading a 16 MiB line holds a few blocks."""
    path = tmp_path / "record.bjh"
    with path.open("wb") as file:
        file.write(b"bjh 1\n")
        file.write(b"x" * (16 << 20))
        file.write(b"\nend\n")
    tracemalloc.start()
    try:
        lines = list(SourceFile(str(path)).lines())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert lines == [(1, "bjh 1", None),
                     (2, None, f"line longer than {source.MAX_LINE_BYTES} bytes"),
                     (3, "end", None)]
    assert peak < 8 * source._BLOCK, peak


def test_an_option_given_two_values_it_cannot_take_names_both_apart() -> None:
    """Each value it cannot take is said after its line; the second is set off by a comma
    so the two do not run together ("…cannot take and to zz…")."""
    header = _header("bjh 1", "table T1 game=standard decks=6", "option splits=9",
                     "option splits=zz")
    (splits,) = header.config.unknown
    assert splits.why == ("set to 9 at line 3, a value it cannot take, and to zz at line 4, "
                          "a value it cannot take")
    (known_twice,) = _header("bjh 1", "table T1 game=standard decks=6", "option soft17=hit",
                             "option soft17=stand").config.unknown
    assert known_twice.why == "set to hit at line 3 and to stand at line 4"
