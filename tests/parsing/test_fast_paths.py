"""The fast paths of reading and parsing give exactly what the reference paths give.

`parse_lines` matches lines against the grammar's own terminals and falls back to Lark;
`parse_lines_lark` is Lark alone. `SourceFile.lines` decodes whole blocks; `reference_lines`
below is the line-by-line reading it replaced. Both pairs must agree on every input:
real records, every test case, simulated records, and mutated lines and bytes.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from auditor import parser, source
from auditor.config import MAX_AMOUNT
from auditor.parser import batches, builders, diagnosis, parse_lines, parse_lines_lark
from auditor.parser import grammar as bjh_grammar
from auditor.simulate import simulate, table_spec
from auditor.source import SourceFile, _decode
from tests.helpers import ROOT
from tests.helpers.casefiles import load_cases


def both(lines: list[tuple[int, str | None, str | None]]) -> tuple[list, list]:
    return list(parse_lines(lines)), list(parse_lines_lark(lines))


def test_sample_logs_and_cases_parse_alike(tmp_path: Path) -> None:
    texts = [p.read_bytes() for p in sorted((ROOT / "sample_logs").glob("*.bjh"))]
    texts += [case.text.encode("utf-8") for case in load_cases()]
    assert texts
    path = tmp_path / "record.bjh"
    for text in texts:  # as the auditor reads them (a CRLF line loses its CR)
        path.write_bytes(text)
        fast, lark = both(list(SourceFile(str(path)).lines()))
        assert fast == lark


def test_simulated_records_parse_alike(tmp_path: Path) -> None:
    for game in ("standard", "switch", "db21", "tensticks", "ladies"):
        path = simulate(tmp_path, table_spec(game), rounds=150, seed=7, faults=0.2).files[0]
        lines = list(SourceFile(str(path)).lines())
        fast, lark = both(lines)
        assert fast == lark
        assert any(type(e).__name__ == "Unreadable" for e in fast)  # the planted bad line


TRICKY = [
    "12:00:01 deal s1h1 Kh", "12:00:01deal s1h1 Kh", "  \t12:00:01.5\tdeal s1h1 Kh  # c",
    "cut", "cutcard", "cut#x", "cutcard card", "cuts", "deal s1h1 Kh deal s2h1 Kd",
    "12:00:01", "12:00:01 # only a time", "# comment", "", "   ", "\t", "deal s1h1 10h",
    'note "a \\"quoted\\" word" # and a comment', 'note "unterminated', 'note "x"y',
    "option db21.paytable=2", "option soft17=hit=x", "option soft17= hit",
    "table T1 game=switch decks=6 decks=8 seats=7", "settle s1h1 main win 12.505",
    "bet s1h1 main 5 tip", "bet s1h1 main 5 tips", "sit s3 player=P-1 punchcard=C punches=2",
    "DEAL s1h1 Kh", "deal s1h1 Kh\r", "deal s0h1 Kh", "split s1h1 s1h2 25", "round 7",
    "12:00:01.1234 deal s1h1 Kh", "1:00:01 deal s1h1 Kh", "deal\u00a0s1h1 Kh", "end end",
    "23:59:59.999 settle s1h1 main win 999999999999999.99 tip", "24:00:00 deal s1h1 Kh",
    "19:60:00 stand s1h1", "19:00:60 hit s1h1 Kh", "bet s1h1 main 0000000000000000010",
    "bet s1h1 main 1000000000000000", "double s1h1 10.5 Kh#x", "split s1h1 s1h2 0.00 ",
    "settle dealer main lose 5tip", "settle s1h1 main win 5\ttip", "endx", "end#", "peek s1",
    "switch s9", "switch s10", "trade dealer 2c", "misdeal dealer", "surrender s1h10",
    "round 7 time=12:00:00 dealer=D-1", "round 7 dealer=D-1 time=12:00:00",
    "round 7 time=24:00:00", "round 7 time=12:00:00 time=13:00:00", "round 7 time=12:00",
    "round 7 date=2026-02-30 time=12:00:00",
    "12:00:00 round R.7-a dealer=D-1#c", "round 7dealer=D-1", "round 7 dealer=", "round -7",
]


def test_tricky_lines_parse_alike() -> None:
    for line in TRICKY:
        fast, lark = both([(1, line, None)])
        assert fast == lark, line


_ALPHABET = st.sampled_from(list(" \t#\"=.:-_0123456789abcdehsTKQJAcdhsmtlpirwvuy\\\u00e9\r"))
_STATEMENTS = st.sampled_from([
    "12:00:01 deal s1h1 Kh", "bet s2h1 main 25", "settle s3h1 main win 37.50 tip",
    "hit s1h2 9c", "stand s4h1", "double s1h1 10 5c", "split s1h1 s1h3 10", "draw 7d",
    "round 12 date=2026-11-20 time=21:03:11 dealer=D-1", "end", "peek", "reveal",
    'note "a note"', "option tensticks.trade=no", "light s3 4", "prize s3 500",
    "trade dealer Tc", "misdeal s2", "tuck s1h1", "sit s1 player=P-9", "leave s2",
    "table T9 game=db21 decks=8 min=5 max=1000 currency=USD", "shoe S-1 date=2026-11-20",
])


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(_STATEMENTS, st.integers(0, 60), st.integers(0, 3), st.text(_ALPHABET, max_size=4))
def test_mutated_lines_parse_alike(line: str, at: int, how: int, piece: str) -> None:
    at = min(at, len(line))
    if how == 0:
        line = line[:at] + piece + line[at:]
    elif how == 1:
        line = line[:at] + line[at + len(piece) + 1:]
    elif how == 2:
        line = line[:at] + piece + line[at + len(piece):]
    fast, lark = both([(3, line, None)])
    assert fast == lark, repr(line)


# ---- reading ----

def reference_lines(path: Path) -> list[tuple[int, str | None, str | None]]:
    """The line-by-line reading of a file, as SourceFile.lines did it before block decoding."""
    found = []
    number = 0
    pending = b""
    overlong = False
    with path.open("rb") as handle:
        while True:
            block = handle.read(source._BLOCK)
            if not block:
                break
            pieces = (pending + block).split(b"\n")
            pending = pieces.pop()
            for raw in pieces:
                if overlong:
                    overlong = False
                    continue
                number += 1
                found.append((number, *_decode(raw)))
            if len(pending) > source.MAX_LINE_BYTES and not overlong:
                number += 1
                overlong = True
                pending = b""
                found.append((number, None, f"line longer than {source.MAX_LINE_BYTES} bytes"))
            elif overlong:
                pending = b""
    if pending and not overlong:
        number += 1
        found.append((number, *_decode(pending)))
    return found


_PIECES = st.sampled_from([b"deal s1h1 Kh", b"\n", b"\r\n", b"\x00", b"\xff", b"\xc3\xa9",
                           b"\xe2\x82", b"x" * 40, b"note \"\xc3\xa9\"", b"\r", b" "])


@pytest.mark.parametrize("block", [3, 7, 64, 1 << 20])
@settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture],
          deadline=None)
@given(st.lists(_PIECES, max_size=40), st.integers(10, 90))
def test_block_reading_matches_line_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            block: int, pieces: list[bytes],
                                            limit: int) -> None:
    monkeypatch.setattr(source, "_BLOCK", block)
    monkeypatch.setattr(source, "MAX_LINE_BYTES", limit)
    path = tmp_path / "record.bjh"
    path.write_bytes(b"".join(pieces))
    reading = SourceFile(str(path))
    assert list(reading.lines()) == reference_lines(path)
    assert reading.line_count == len(reference_lines(path))


@pytest.mark.parametrize(("line", "message"), [
    ("18:03:03 bet s4h1 main 1000000000000000",
     "an amount on this line is too large to be read (more than 15 digits)"),
    ("18:03:03 settle s4h1 main win 1000000000000000.50",
     "an amount on this line is too large to be read (more than 15 digits)"),
    ("24:03:03 bet s4h1 main 10", "the time stamp 24:03:03 is not a time of day"),
    ("18:60:03 deal s4h1 Th", "the time stamp 18:60:03 is not a time of day"),
])
def test_unreal_values_are_unreadable_on_the_fast_path(line: str, message: str) -> None:
    """The fast path's shortcut past `implausible` (a sound clock, an amount under 10^15)
    lets no unreal value through: the line is unreadable with the reason, as in Lark's."""
    fast, lark = both([(7, line, None)])
    assert fast == lark
    assert [(type(e).__name__, e.line) for e in fast] == [("Unreadable", 7)]
    assert fast[0].message.startswith(message)


def test_sound_amounts_and_clocks_pass_the_fast_path() -> None:
    lines = [(1, "23:59:59 bet s4h1 main 999999999999999.99", None),
             (2, "00:00:00 deal s4h1 Th", None)]
    fast, lark = both(lines)
    assert fast == lark
    assert [type(e).__name__ for e in fast] == ["Bet", "Deal"]


# ---- the round's statements, read in one step (parser.ROUND_STATEMENTS) ----

def test_round_statements_are_the_grammars() -> None:
    """Each statement read in one step has the grammar's keyword and fields, in order (as
    STATEMENT_USAGE gives them), and each field pattern reads exactly the grammar's words."""
    for keyword, fields, tip in parser.ROUND_STATEMENTS.values():
        usage = parser.STATEMENT_USAGE[keyword].split()
        assert usage[0] == keyword
        slots = [word for word in usage[1:] if word != "[tip]"]
        assert tuple(bjh_grammar._PLACEHOLDERS[slot][0] for slot in slots) == fields, keyword
        assert tip == ("[tip]" in usage), keyword
    assert set(parser.ROUND_STATEMENTS) <= set(builders._BUILDERS)


_FIELD_WORDS = st.text(st.sampled_from(list("sdhealr0123456789mainpusvoutwK.TcQJA2-_")),
                       max_size=12)


@settings(max_examples=600, deadline=None)
@given(_FIELD_WORDS)
def test_round_field_patterns_read_the_grammars_words(word: str) -> None:
    for name, pattern in parser.ROUND_FIELDS.items():
        grammar = diagnosis._field_pattern(name).fullmatch(word) is not None
        assert (re.fullmatch(pattern, word) is not None) == grammar, (name, word)
    sound = re.fullmatch(parser.SOUND_AMOUNT, word) is not None
    if sound:  # narrowed: an amount the grammar reads, under MAX_AMOUNT
        assert diagnosis._field_pattern("AMOUNT").fullmatch(word)
        assert Decimal(word) < MAX_AMOUNT


@settings(max_examples=400, deadline=None)
@given(st.from_regex(r"[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,4})?", fullmatch=True))
def test_sound_clock_is_a_real_time_the_grammar_reads(clock: str) -> None:
    sound = re.fullmatch(parser.SOUND_CLOCK, clock) is not None
    grammar = diagnosis._field_pattern("CLOCK").fullmatch(clock) is not None
    assert sound == (grammar and diagnosis._real_clock(clock)), clock


def test_round_statements_take_the_one_step_path(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A simulated record's round statements with sound values are built from the one
    pattern's match: the general path's builders are never called for them."""
    path = simulate(tmp_path, table_spec("switch"), rounds=40, seed=3, faults=0).files[0]
    lines = list(SourceFile(str(path)).lines())
    expected = list(parse_lines(lines))
    general: list[str] = []
    general_builders = dict(builders._BUILDERS)
    for name, build in general_builders.items():
        def spy(text, line, time, name=name, build=build):
            general.append(name)
            return build(text, line, time)
        monkeypatch.setitem(builders._BUILDERS, name, spy)
    assert list(parse_lines(lines)) == expected
    assert general and not set(general) & {*parser.ROUND_STATEMENTS, "ROUND"}


@pytest.mark.parametrize("bad_at", [None, 0, 255, 256, 300, 511])
def test_batches_read_as_lines_one_by_one(tmp_path: Path, bad_at: int | None) -> None:
    """Lines read in batches (runs of round statements built by map) give the events, kept
    texts and problems of the same lines read one at a time, whatever line of a batch is
    unreadable or off the round pattern."""
    path = simulate(tmp_path, table_spec("standard"), rounds=40, seed=5, faults=0.1).files[0]
    lines = list(SourceFile(str(path)).lines())
    assert len(lines) > 2 * parser.BATCH_LINES
    if bad_at is not None:
        lines[bad_at] = (lines[bad_at][0], None, "line holds binary data (NUL bytes)")
    off = (bad_at or 0) + 1  # a statement the round pattern does not read, next to it
    lines[off] = (lines[off][0], "12:00:00 dealer D-2 # off the pattern", None)
    texts: dict = {}
    problems: dict = {}
    batched = list(parse_lines(lines, texts, problems))
    one_texts: dict = {}
    one_problems: dict = {}
    one_by_one = [event for line in lines
                  for event in parse_lines([line], one_texts, one_problems)]
    assert batched == one_by_one
    assert (texts, problems) == (one_texts, one_problems)
    assert texts == {number: text for number, text, _ in lines}


# ---- runs of lines read by one match each (parser.fast._run_patterns) ----

_RUN_LINES = [
    "18:00:01 deal s1h1 Kh", "18:00:02 deal dealer 9c", "round 12 time=18:00:03 dealer=D-1",
    "18:00:04 bet s1h1 main 25 tip", "18:00:05\tsettle s1h1 main win 37.50", "end",
    "reveal", "  peek", "18:00:06 double s1h1 10 5c", "18:00:07 split s1h1 s1h2 10",
    "18:00:08 stand s1h2", "18:00:09 hit s1h2 9c  ", "18:00:10  draw 7d",
    "18:00:11deal s2h1 Kh", "18:00:12 deal s2h1 Kh # a comment", "cut", "cutcard",
    "18:00:13 shuffle", "18:00:14 discard s1h1", "18:00:15 tuck s1h1", "surrender s1h2",
    "18:00:16 switch s3", "18:00:17 trade dealer 2c", "misdeal s2", "round deal",
    "18:00:18 round 13", "round 14 dealer=D-2", "round 15 date=2026-11-20",
    "18:00:19 sit s1 player=P-1", "24:00:00 deal s1h1 Kh", "18:00:20 bet s1h1 main 5 tip",
    "bet s1h1 main 5", "bet s1h1 main 5 tip", "settle s1h1 main win 5 tip", "", "# c",
    "18:00:21 end", "12:00:01.25 hit s1h1 Ac", "deal s1h1 Kh\r", "end end",
    "18:00:22 settle s1h1 main lose 10", "18:00:23 draw 5h", "18:00:24 reveal", "18:00:25 peek",
    "18:00:26 cut", "18:00:27 cutcard", "18:00:28 surrender s1h10", "18:00:29 misdeal dealer",
    "18:00:30 trade s1h1 Ac", "18:00:31 switch s2", "18:00:32 settle s1h1 main win 5 tip",
    "18:00:33 split s1h1 s1h2 10", "18:00:34 round 16 time=18:00:34 dealer=D-3",
    "18:00:35.5 bet s1h1 main 5", "18:00:36 stand s1h12", "18:00:37 hit s2h1 2c",
    "18:00:38 double s1h1 10.50 Qd", "18:00:39 burn Kd", "burn 2c", "18:00:40 dealer D.8_x",
    "dealer dealer", "18:00:41 dealer D-9 # a comment", "18:00:42 burn Kd Kh",
]


@pytest.mark.parametrize("order", range(4))
def test_runs_read_as_lark_reads_each_line(order: int) -> None:
    """A batch of round statements with and without time stamps, among lines off the run
    patterns (blanks, tabs, comments, other statements, unreal values), gives Lark's
    events wherever each line stands in it; a text holding a newline (only an API caller
    can give one) is read one line at a time."""
    lines = [_RUN_LINES[(i * (order + 1) + order) % len(_RUN_LINES)] for i in range(300)]
    numbered = [(n, text, None) for n, text in enumerate(lines, 1)]
    fast, lark = both(numbered)
    assert fast == lark
    numbered[7] = (8, "18:00:01 deal s1h1 Kh\n18:00:02 deal s2h1 Kd", None)
    assert list(parse_lines(numbered))[:7] == lark[:7]
    alone = [numbered[7]]
    assert list(parse_lines(alone)) == list(parse_lines_lark(alone))


def _lines_read_one_by_one(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The numbers of the lines the parser reads one by one (`_line_reader`), as it reads."""
    one_by_one: list[int] = []
    reader = batches._line_reader

    def spy(problems):
        read_line = reader(problems)

        def read(number, text, problem):
            one_by_one.append(number)
            return read_line(number, text, problem)

        return read

    monkeypatch.setattr(batches, "_line_reader", spy)
    return one_by_one


def test_sound_round_statements_are_read_by_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the lines off the run patterns (words parted by one space, no comment, sound
    values) are read one by one (`_line_reader`)."""
    one_by_one = _lines_read_one_by_one(monkeypatch)
    numbered = [(n, text, None) for n, text in enumerate(_RUN_LINES, 1)]
    assert list(parse_lines(numbered)) == list(parse_lines_lark(numbered))
    off = {"18:00:05\tsettle s1h1 main win 37.50", "  peek", "18:00:09 hit s1h2 9c  ",
           "18:00:10  draw 7d", "18:00:11deal s2h1 Kh", "18:00:12 deal s2h1 Kh # a comment",
           "round 15 date=2026-11-20", "18:00:19 sit s1 player=P-1", "24:00:00 deal s1h1 Kh",
           "", "# c", "deal s1h1 Kh\r", "end end", "18:00:41 dealer D-9 # a comment",
           "18:00:42 burn Kd Kh"}
    assert [_RUN_LINES[n - 1] for n in one_by_one] == [t for t in _RUN_LINES if t in off]


def test_a_batch_the_runs_do_not_read_goes_back_to_the_round_pattern(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Past `_RUNS_GIVEN_UP` lines of a batch read one by one (a record written with tabs),
    the rest of the batch is matched line by line by the round pattern, which reads them
    in one step: the same events as Lark's, and no more lines read one by one."""
    one_by_one = _lines_read_one_by_one(monkeypatch)
    lines = [f"18:00:{n % 60:02}\tdeal\ts{n % 9 + 1}h1\tKh" for n in range(60)]
    lines[40] = "18:00:40 sit s1 player=P-1"  # off the round pattern too: one by one
    numbered = [(n, text, None) for n, text in enumerate(lines, 1)]
    assert list(parse_lines(numbered)) == list(parse_lines_lark(numbered))
    assert one_by_one == [*range(1, batches._RUNS_GIVEN_UP + 2), 41]
