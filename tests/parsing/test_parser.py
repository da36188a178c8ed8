"""Every statement of BJH 1 and every lexical rule, through the grammar and the transformer."""

from __future__ import annotations

from decimal import Decimal

import pytest

from auditor import events as ev
from auditor.parser import STATEMENT_USAGE, line_events, parse_lines


def parse(text: str) -> list[ev.Event]:
    lines = text.split("\n")
    return list(parse_lines((number, line, None) for number, line in enumerate(lines, 1)))


def one(text: str) -> ev.Event:
    events = parse(text)
    assert len(events) == 1, events
    return events[0]


STATEMENTS = [
    ("bjh 1", ev.Version(1, None, 1)),
    ('casino "Deadwood Gulch" licence=RL-0001', ev.Casino(1, None, "Deadwood Gulch", "RL-0001")),
    ('casino "Plain"', ev.Casino(1, None, "Plain", None)),
    ("table T07 game=db21 decks=6 min=5 max=1000",
     ev.Table(1, None, "T07", (("game", "db21"), ("decks", "6"), ("min", "5"), ("max", "1000")))),
    ("table BJ-2 decks=8 game=switch seats=5 currency=USD",
     ev.Table(1, None, "BJ-2", (("decks", "8"), ("game", "switch"), ("seats", "5"),
                                ("currency", "USD")))),
    ("option soft17=hit", ev.Option(1, None, "soft17", "hit")),
    ("option db21.paytable=3", ev.Option(1, None, "db21.paytable", "3")),
    ("option ladies.paytable=B", ev.Option(1, None, "ladies.paytable", "B")),
    ("option blackjack=3:2", ev.Option(1, None, "blackjack", "3:2")),
    ("shoe 118 date=2026-11-20", ev.Shoe(1, None, "118", "2026-11-20")),
    ("shoe S-9", ev.Shoe(1, None, "S-9", None)),
    ("shuffle", ev.Shuffle(1, None)),
    ("cut", ev.Cut(1, None)),
    ("cutcard", ev.CutCard(1, None)),
    ("burn 7d", ev.Burn(1, None, "7d")),
    ("dealer D-1188", ev.DealerChange(1, None, "D-1188")),
    ('note "floor called: chip count"', ev.Note(1, None, "floor called: chip count")),
    ("close", ev.Close(1, None)),
    ("round 1 time=21:03:11 dealer=D-1188",
     ev.RoundStart(1, None, "1", None, "21:03:11", "D-1188")),
    ("round 2026-11-20.7 date=2026-11-20", ev.RoundStart(1, None, "2026-11-20.7", "2026-11-20",
                                                         None, None)),
    ("end", ev.RoundEnd(1, None)),
    ("sit s3 player=P-5521", ev.Sit(1, None, "s3", "P-5521", None, None)),
    ("sit s3 player=P-5521 punchcard=PC-77 punches=4", ev.Sit(1, None, "s3", "P-5521", "PC-77", 4)),
    ("leave s3", ev.Leave(1, None, "s3", None, None)),
    ("leave s3 punchcard=PC-77 punches=6", ev.Leave(1, None, "s3", "PC-77", 6)),
    ("bet s3h1 main 25", ev.Bet(1, None, "s3h1", "main", Decimal("25"), False)),
    ("bet s3h1 main 12.50 tip", ev.Bet(1, None, "s3h1", "main", Decimal("12.50"), True)),
    ("bet s3h1 insurance 12.5", ev.Bet(1, None, "s3h1", "insurance", Decimal("12.5"), False)),
    ("bet s3 db21 10", ev.Bet(1, None, "s3", "db21", Decimal("10"), False)),
    ("bet s3 ladies 5", ev.Bet(1, None, "s3", "ladies", Decimal("5"), False)),
    ("bet s3 ladies 1 tip", ev.Bet(1, None, "s3", "ladies", Decimal("1"), True)),
    ("bet s3 supermatch 5", ev.Bet(1, None, "s3", "supermatch", Decimal("5"), False)),
    ("deal s3h1 Kh", ev.Deal(1, None, "s3h1", "Kh")),
    ("deal dealer Tc", ev.Deal(1, None, "dealer", "Tc")),
    ("peek", ev.Peek(1, None)),
    ("switch s2", ev.Switch(1, None, "s2")),
    ("hit s3h1 9c", ev.Hit(1, None, "s3h1", "9c")),
    ("stand s3h12", ev.Stand(1, None, "s3h12")),
    ("double s3h1 25 4s", ev.Double(1, None, "s3h1", Decimal("25"), "4s")),
    ("split s3h1 s3h3 25", ev.Split(1, None, "s3h1", "s3h3", Decimal("25"))),
    ("surrender s3h1", ev.Surrender(1, None, "s3h1")),
    ("trade s3h1 5d", ev.Trade(1, None, "s3h1", "5d")),
    ("trade dealer 5d", ev.Trade(1, None, "dealer", "5d")),
    ("light s3 4", ev.Light(1, None, "s3", 4)),
    ("prize s3 500", ev.Prize(1, None, "s3", Decimal("500"))),
    ("reveal", ev.Reveal(1, None)),
    ("draw 8h", ev.Draw(1, None, "8h")),
    ("settle s3h1 main lose 25", ev.Settle(1, None, "s3h1", "main", "lose", Decimal("25"), False)),
    ("settle s3 db21 win 40 tip", ev.Settle(1, None, "s3", "db21", "win", Decimal("40"), True)),
    ("settle s3 ladies win 20", ev.Settle(1, None, "s3", "ladies", "win", Decimal("20"), False)),
    ("settle s3h1 insurance push 0", ev.Settle(1, None, "s3h1", "insurance", "push",
                                               Decimal("0"), False)),
    ("settle s3 supermatch void 5", ev.Settle(1, None, "s3", "supermatch", "void", Decimal("5"),
                                              False)),
    ("tuck s3h1", ev.Tuck(1, None, "s3h1")),
    ("discard s3h1", ev.Discard(1, None, "s3h1")),
    ("misdeal s3", ev.Misdeal(1, None, "s3")),
    ("misdeal dealer", ev.Misdeal(1, None, "dealer")),
]


@pytest.mark.parametrize(("text", "expected"), STATEMENTS, ids=[t for t, _ in STATEMENTS])
def test_statement(text: str, expected: ev.Event) -> None:
    assert one(text) == expected


LONE_LINES = [text for text, _ in STATEMENTS] + [
    "18:03:07 sit s3 player=P-850001", "18:00:50.250\tdealer D-2", "  leave s4  # gone",
    "bet s9h1 main 10", "18:00:00 bet s1 main 1e9999", "sit", "what is this", "", "# note",
    "25:61:00 shoe S1 date=2026-13-40"]


@pytest.mark.parametrize("text", LONE_LINES)
def test_a_line_read_alone_reads_as_in_a_record(text: str) -> None:
    """The split plan reads the few lines it picks out one at a time (`line_events`): each
    must give the events, problems included, that reading it in a record gives."""
    assert line_events(7, text) == list(parse_lines([(7, text, None)]))


def test_every_statement_of_the_format_is_tested() -> None:
    keywords = {text.split()[0] for text, _ in STATEMENTS}
    assert keywords == set(STATEMENT_USAGE)


# ---- lexical rules (bjh-format.md §1) ----

def test_time_stamps_with_and_without_fractions() -> None:
    assert one("21:03:11 shuffle") == ev.Shuffle(1, "21:03:11")
    assert one("21:03:11.250 hit s1h1 5c") == ev.Hit(1, "21:03:11.250", "s1h1", "5c")


def test_comments_run_to_the_end_of_the_line() -> None:
    assert one("hit s1h1 5c   # the player asked twice") == ev.Hit(1, None, "s1h1", "5c")
    assert parse("# only a comment\n\n   # indented comment") == []


def test_a_hash_inside_a_quoted_string_is_not_a_comment() -> None:
    assert one('note "table #7 opened" # real comment') == ev.Note(1, None, "table #7 opened")


def test_crlf_line_endings(tmp_path) -> None:
    from auditor.source import SourceFile

    path = tmp_path / "crlf.bjh"
    path.write_bytes(b"bjh 1\r\ntable T1 game=standard decks=6\r\n\r\nshuffle\r\n")
    source = SourceFile(str(path))
    events = list(parse_lines(source.lines()))
    assert [type(e) for e in events] == [ev.Version, ev.Table, ev.Shuffle]
    assert [e.line for e in events] == [1, 2, 4]
    assert source.line_count == 4


def test_tabs_and_runs_of_blanks_separate_tokens() -> None:
    assert one("\tbet\ts3h1  main\t \t25") == ev.Bet(1, None, "s3h1", "main", Decimal(25), False)


def test_quoted_strings_with_escapes() -> None:
    assert one(r'note "he said \"hit\" at C:\\x"') == ev.Note(1, None, 'he said "hit" at C:\\x')


def test_blank_lines_are_ignored_and_lines_are_numbered() -> None:
    events = parse("bjh 1\n\n\nshuffle\n   \ncut")
    assert [(type(e), e.line) for e in events] == [(ev.Version, 1), (ev.Shuffle, 4), (ev.Cut, 6)]


def test_cut_is_not_read_inside_cutcard() -> None:
    assert parse("cutcard\ncut") == [ev.CutCard(1, None), ev.Cut(2, None)]


@pytest.mark.parametrize(("text", "column", "words"), [
    ("deal s3h1 10h", 11, "'10h' is not a card"),
    ("bet s3h1 main 25.505", 15, "not an amount"),
    ("bet s3h1 wager 25", 10, "not a wager kind"),
    ("hit s10h1 5c", 5, "not a hand"),
    ("sit s3", 7, "player= followed by"),
    ("fold s3h1", 1, "unknown statement 'fold'"),
    ("HIT s3h1 5c", 1, "unknown statement 'HIT'"),
    ("settle s3h1 main lose", 22, "an amount such as 25 or 12.50 is missing"),
    ("stand s3h1 now", 12, "unexpected 'now'"),
    ('note "open', 6, "not a quoted string"),
    ("table T1 game=* decks=6", 10, "game= takes a game"),  # an unknown name: reader.py
    ("12:00:00", 1, "a time stamp must be followed by a statement"),
    ("round 7 colour=red", 9, "unknown field 'colour'"),
])
def test_a_bad_line_names_its_column_and_what_was_expected(text: str, column: int,
                                                           words: str) -> None:
    event = one(text)
    assert isinstance(event, ev.Unreadable)
    assert event.column == column
    assert words in event.message


def test_parsing_resumes_after_a_bad_line() -> None:
    events = parse("shuffle\nbet s1h1 main x\ncut\n\x07\ncutcard")
    assert [(type(e).__name__, e.line) for e in events] == [
        ("Shuffle", 1), ("Unreadable", 2), ("Cut", 3), ("Unreadable", 4), ("CutCard", 5)]


def test_chunks_and_lines_agree_across_chunk_boundaries() -> None:
    from auditor import parser

    text = "\n".join(["shuffle", "bad line"] * (parser.CHUNK_LINES // 2 + 7))
    events = parse(text)
    assert [e.line for e in events] == list(range(1, parser.CHUNK_LINES + 15))
    assert sum(isinstance(e, ev.Unreadable) for e in events) == parser.CHUNK_LINES // 2 + 7
