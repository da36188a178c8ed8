"""Hostile review of the reader filling rounds a slice at a time (issue 44, read4): a header
that crosses the first batch (300 `option` lines), unreadable lines before the header
crossing it, and a round broken by `shoe` where a batch ends, with a last round never
closed. The findings pinned, lines and all, are those 52bdaf6 gives."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.finding_rows import finding_rows
from tests.helpers.review_record import RECORD

LINES = RECORD.split("\n")


def test_a_header_longer_than_a_batch(tmp_path: Path) -> None:
    text = "\n".join(LINES[:4] + [f"option house.rule{i}=x" for i in range(300)] + LINES[4:])
    found = finding_rows(tmp_path, text)
    assert found[:2] == [
    ('record:header', None, 5,
     "unknown option 'house.rule0'"),
    ('record:header', None, 6,
     "unknown option 'house.rule1'"),
]
    assert found[299:] == [
    ('record:header', None, 304,
     "unknown option 'house.rule299'"),
    ('20:18:15:06', '1', 332,
     'The main wager on s2h1 was paid 30.00; it should be returned in '
     "full (push): 18 against the dealer's 18 pushes."),
    ('20:18:15:06', '1', 333,
     'The main wager on s3h1 was paid 25.00; it should lose 30.00: 17 '
     "loses to the dealer's 18."),
    ('20:18:15:26', '2', 349,
     'The dealer stopped at 16 with live wagers on the table; read as '
     'dealer procedure (the text of 20:18:15:26 is not on file), the '
     'dealer draws to 17 or more.'),
    ('20:18:15:06', '2', 351,
     'The main wager on s1h1 was paid 10.00; it should be paid 20.00: 21'
     " beats the dealer's 16."),
]
    assert [row[2] for row in found[:300]] == list(range(5, 305))


def test_unreadable_lines_before_the_header_cross_a_batch(tmp_path: Path) -> None:
    text = "\n".join([f"@@ garbage {i}" for i in range(260)] + LINES)
    assert finding_rows(tmp_path, text) == [
    ('record:header', None, 1,
     'the file does not begin with `bjh 1`'),
    ('record:header', None, 1,
     'the header has no `table` statement'),
    ('record:syntax', None, 1,
     'Lines 1–260 (260 lines in a row) cannot be read; the first: '
     "unknown statement '@@'; expected one of: bjh, casino, table, "
     'option, shoe, shuffle, cut, cutcard, burn, dealer, note, close, '
     'round, end, sit, leave, bet, deal, peek, switch, hit, stand, '
     'double, split, surrender, trade, light, prize, reveal, draw, '
     'settle, tuck, discard, misdeal'),
    ('record:header', None, 261,
     '`bjh` statement after the header'),
    ('record:header', None, 262,
     '`casino` statement after the header'),
    ('record:header', None, 263,
     '`table` statement after the header'),
    ('record:header', None, 264,
     '`option` statement after the header'),
    ('record:header', None, 265,
     '`option` statement after the header'),
]


def test_a_round_broken_by_shoe_at_a_batch_end(tmp_path: Path) -> None:
    text = "\n".join(LINES[:10] + ["18:00:05 note x"] * 245 + LINES[10:40]
                     + ["18:05:00 shoe R4-01-2 date=2026-11-20"] + LINES[40:-2])
    assert finding_rows(tmp_path, text) == [
    ('record:syntax', None, 11,
     "Lines 11–255 (245 lines in a row) cannot be read; the first: 'x' "
     'is not a quoted string "..."; expected `note "TEXT"`'),
    ('20:18:15:06', '1', 277,
     'The main wager on s2h1 was paid 30.00; it should be returned in '
     "full (push): 18 against the dealer's 18 pushes."),
    ('20:18:15:06', '1', 278,
     'The main wager on s3h1 was paid 25.00; it should lose 30.00: 17 '
     "loses to the dealer's 18."),
    ('record:reference', '2', 280,
     'round 2 is not closed by `end` (it ends at line 285)'),
    ('record:unsettled', '2', 285,
     'the main wager on s1h1 (line 281) reaches the end of the round '
     'without a settlement'),
    ('record:unsettled', '2', 285,
     'the main wager on s2h1 (line 282) reaches the end of the round '
     'without a settlement'),
    ('record:reference', None, 287,
     '`deal` statement outside a round'),
    ('record:reference', None, 288,
     '`deal` statement outside a round'),
    ('record:reference', None, 289,
     '`deal` statement outside a round'),
    ('record:reference', None, 290,
     '`peek` statement outside a round'),
    ('record:reference', None, 291,
     '`double` statement outside a round'),
    ('record:reference', None, 292,
     '`hit` statement outside a round'),
    ('record:reference', None, 293,
     '`hit` statement outside a round'),
    ('record:reference', None, 294,
     '`tuck` statement outside a round'),
    ('record:reference', None, 295,
     '`reveal` statement outside a round'),
    ('record:reference', None, 296,
     '`settle` statement outside a round'),
    ('record:reference', None, 297,
     '`settle` statement outside a round'),
    ('record:reference', None, 298,
     '`end` statement outside a round'),
    ('record:reference', '3', 299,
     'round 3 is not closed by `end` (it ends at line 320)'),
]
