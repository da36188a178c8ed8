"""Reading a block of lines at a time gives what reading line by line gives.

`SourceFile.batches` hands the parser each block's lines as one list, `parse_batches` reads
them so, and the audit's `_LineTexts` keeps each batch's list as read: the events, the
problems and the kept texts must be those of the line-by-line reading.
"""

from __future__ import annotations

from pathlib import Path

from auditor import events as ev
from auditor.audit import _LineTexts
from auditor.parser import parse_batches, parse_lines
from auditor.source import SourceFile
from tests.helpers import ROOT


def test_batches_give_each_block_with_its_problems(tmp_path: Path) -> None:
    path = tmp_path / "mixed.bjh"
    path.write_bytes(b"bjh 1\nshuffle\r\nx\x00y\n\xffbad\nend")
    source = SourceFile(str(path))
    assert list(source.batches()) == [
        (1, ["bjh 1", "shuffle", None, None], {
            3: "line holds binary data (NUL bytes)",
            4: "line is not UTF-8 text (byte 1 of the line)"}),
        (5, ["end"], None),
    ]
    assert source.line_count == 5 and len(source.sha256) == 64
    assert list(SourceFile(str(path)).lines()) == [
        (1, "bjh 1", None), (2, "shuffle", None),
        (3, None, "line holds binary data (NUL bytes)"),
        (4, None, "line is not UTF-8 text (byte 1 of the line)"), (5, "end", None)]


def test_parse_batches_reads_as_parse_lines() -> None:
    for path in sorted((ROOT / "sample_logs").glob("*.bjh")):
        texts: dict[int, str | None] = {}
        by_line = list(parse_lines(SourceFile(str(path)).lines(), texts, {}))
        kept = _LineTexts()
        by_batch = list(parse_batches(SourceFile(str(path)).batches(), kept.keep, {}))
        assert by_batch == by_line, path.name
        assert kept.texts == texts, path.name


def test_unreadable_lines_in_a_batch_keep_their_place_and_reason() -> None:
    problems: dict[int, str] = {}
    events = list(parse_batches(
        [(7, ["shuffle", None, "burn Kh"], {8: "line holds binary data (NUL bytes)"})],
        None, problems))
    assert events == [ev.Shuffle(7, None),
                      ev.Unreadable(8, None, 1, "line holds binary data (NUL bytes)", ""),
                      ev.Burn(9, None, "Kh")]
    assert problems == {8: "line holds binary data (NUL bytes)"}


def test_line_texts_keep_what_findings_may_stand_on() -> None:
    texts = _LineTexts()
    texts.keep(1, ["bjh 1", "", "shoe S1", "# a comment", "round 1"])
    texts.keep(6, ["deal s1 Ah", "end", "   ", None, "shuffle", "round 2", "end", "# tail"])
    texts.problems[9] = "line holds binary data (NUL bytes)"
    assert texts.shown(5, 7) == {5: "round 1", 6: "deal s1 Ah", 7: "end"}
    texts.forget(5, 7)  # round 1 judged: its lines dropped, the blank and comment before it
    assert texts.texts == {1: "bjh 1", 3: "shoe S1", 8: "   ", 9: None, 10: "shuffle",
                           11: "round 2", 12: "end", 13: "# tail"}
    texts.forget(11, 12)  # round 2: the blank line before it dropped, the unreadable kept
    assert texts.texts == {1: "bjh 1", 3: "shoe S1", 9: None, 10: "shuffle", 13: "# tail"}
    assert texts.batches == [texts.batches[-1]] and texts.firsts == [6]
    assert texts.shown(9, 13) == {9: "<line holds binary data (NUL bytes)>", 10: "shuffle",
                                  13: "# tail"}
    assert texts.get(6, "gone") == "gone" and texts.get(13) == "# tail"
    later = _LineTexts(14)
    later.keep(14, ["shoe S2", "round 3"])
    texts.absorb(later)
    assert texts.texts == {1: "bjh 1", 3: "shoe S1", 9: None, 10: "shuffle", 13: "# tail",
                           14: "shoe S2", 15: "round 3"}
    assert texts.get(15) == "round 3" and texts.get(12, "gone") == "gone"


# A record's body with each way a round can end or be broken: closed by `end`, broken by
# a `round`, a `shoe` and a `dealer`, a header statement inside a round (a problem, the
# round still open), an unreadable line, a round statement outside a round, and a round
# left open at the end of the lines.
BROKEN_BODY = """\
round 1
deal s1 Ah
shoe S1
round 2
deal s1 Kh
end
round 3
option peek=yes
deal s1 2c
end
stand s1h1
round 4
round 5
deal s1 3d
dealer D2
x y z
round 6
deal s1 4s
end
round 7
deal s1 5h"""


STATEMENTS = ("bjh, casino, table, option, shoe, shuffle, cut, cutcard, burn, dealer, note, "
              "close, round, end, sit, leave, bet, deal, peek, switch, hit, stand, double, "
              "split, surrender, trade, light, prize, reveal, draw, settle, tuck, discard, "
              "misdeal")


def _items(events: object) -> list[object]:
    from auditor.config import TableConfig
    from auditor.reader import read_body

    return list(read_body(events, TableConfig()))


def test_rounds_read_from_lists_are_those_read_event_by_event() -> None:
    """The reader places a round's events a slice of a list at a time: wherever the lists
    are cut (a round across two batches, a cut just before or after its `end`), the
    items are those of the events read one by one, and they are exactly these."""
    from auditor.parser import EventBatches
    from auditor.reader import Problem, RoundRecord

    numbered = [(n, t, None) for n, t in enumerate(BROKEN_BODY.splitlines(), 1)]
    events = list(parse_lines(numbered))
    whole = _items(events)
    shown = [(type(item).__name__, item.start.round_id, [e.line for e in item.events],
              item.end_line, item.last_line, item.at_end, [p.message for p in item.problems])
             if isinstance(item, RoundRecord) else
             (item.kind, item.line, item.message) if isinstance(item, Problem) else
             (type(item).__name__, item.line) for item in whole]
    assert shown == [
        ("RoundRecord", "1", [2], None, 2, False,
         ["round 1 comes before any `shoe`",
          "round 1 is not closed by `end` (it ends at line 2)"]),
        ("Shoe", 3),
        ("RoundRecord", "2", [5], 6, 6, False, []),
        ("header", 8, "`option` statement after the header"),
        ("RoundRecord", "3", [9], 10, 10, False, []),
        ("reference", 11, "`stand` statement outside a round"),
        ("RoundRecord", "4", [], None, 12, False,
         ["round 4 is not closed by `end` (it ends at line 12)"]),
        ("RoundRecord", "5", [14], None, 14, False,
         ["round 5 is not closed by `end` (it ends at line 14)"]),
        ("DealerChange", 15),
        ("syntax", 16, "unknown statement 'x'; expected one of: " + STATEMENTS),
        ("RoundRecord", "6", [18], 19, 19, False, []),
        ("RoundRecord", "7", [21], None, 21, True,
         ["round 7 is not closed by `end` (it ends at line 21)"]),
    ]
    one_by_one = _items(iter(events))  # any iterable of events: cut into lists
    assert one_by_one == whole
    for cut in range(len(events) + 1):
        lists = iter([events[:cut], events[cut:]])
        assert _items(EventBatches(lists)) == whole, cut
    assert _items(EventBatches(iter([[event] for event in events]))) == whole
