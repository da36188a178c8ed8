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
