"""Hostile review of the reading's second pass (issue 44, read4): `burn` and `dealer` lines
read by the fast patterns and a round's events placed a slice at a time. A simulated record
(the same bytes for the same seed) is given a tab, runs of spaces, a comment, upper case and
a bad card on its `burn` and `dealer` lines, inside and outside rounds, and a `dealer` that
breaks a round as the last line of the first batch (BATCH_LINES), a `burn` the first of the
next. The findings pinned, lines and all, are those 52bdaf6 gives, with one job and two."""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor.cli import main
from auditor.parser import BATCH_LINES
from tests.helpers.finding_rows import finding_rows


def odd_record(folder: Path) -> str:
    """The simulated record with its `burn` and `dealer` lines made odd."""
    assert main(["simulate", "--game", "standard", "--rounds", "40", "--seed", "review4",
                 "--out", str(folder / "sim"), "--quiet"]) == 0
    lines = (folder / "sim" / "standard-T01.bjh").read_text(encoding="utf-8").split("\n")
    assert lines[14] == "18:02:32 burn 2c" and lines[153] == "18:08:35 burn 8h"
    lines[14] = "18:02:32\tburn  2c\t# the first burn"  # between rounds
    lines[153] = "18:08:35 BURN 8h"  # inside round 6
    # lines 256 and 257, either side of the first batch's end: round 10 broken by `dealer`
    lines[255:255] = ["18:12:49 dealer\tD-77", "18:12:49  burn  9c"]
    # after round 17's last settlement, before its `end`
    lines[515:515] = ["18:22:00 dealer  D-5 # relief", "18:22:01 burn 1x", "18:22:02 burn 9S"]
    return "\n".join(lines)


ODD_FINDINGS = [
    ('record:syntax', '6', 154,
     "unknown statement 'BURN'; expected one of: bjh, casino, table, "
     'option, shoe, shuffle, cut, cutcard, burn, dealer, note, close, '
     'round, end, sit, leave, bet, deal, peek, switch, hit, stand, '
     'double, split, surrender, trade, light, prize, reveal, draw, '
     'settle, tuck, discard, misdeal'),
    ('record:reference', '10', 253,
     'round 10 is not closed by `end` (it ends at line 255)'),
    ('record:unsettled', '10', 255,
     'the main wager on s1h1 (line 255) reaches the end of the round '
     'without a settlement'),
    ('record:reference', None, 258,
     '`bet` statement outside a round'),
    ('record:reference', None, 259,
     '`bet` statement outside a round'),
    ('record:reference', None, 260,
     '`bet` statement outside a round'),
    ('record:reference', None, 261,
     '`bet` statement outside a round'),
    ('record:reference', None, 262,
     '`deal` statement outside a round'),
    ('record:reference', None, 263,
     '`deal` statement outside a round'),
    ('record:reference', None, 264,
     '`deal` statement outside a round'),
    ('record:reference', None, 265,
     '`deal` statement outside a round'),
    ('record:reference', None, 266,
     '`deal` statement outside a round'),
    ('record:reference', None, 267,
     '`deal` statement outside a round'),
    ('record:reference', None, 268,
     '`deal` statement outside a round'),
    ('record:reference', None, 269,
     '`deal` statement outside a round'),
    ('record:reference', None, 270,
     '`deal` statement outside a round'),
    ('record:reference', None, 271,
     '`deal` statement outside a round'),
    ('record:reference', None, 272,
     '`deal` statement outside a round'),
    ('record:reference', None, 273,
     '`deal` statement outside a round'),
    ('record:reference', None, 274,
     '`stand` statement outside a round'),
    ('record:reference', None, 275,
     '`hit` statement outside a round'),
    ('record:reference', None, 276,
     '`hit` statement outside a round'),
    ('record:reference', None, 277,
     '`stand` statement outside a round'),
    ('record:reference', None, 278,
     '`stand` statement outside a round'),
    ('record:reference', None, 279,
     '`double` statement outside a round'),
    ('record:reference', None, 280,
     '`hit` statement outside a round'),
    ('record:reference', None, 281,
     '`settle` statement outside a round'),
    ('record:reference', None, 282,
     '`discard` statement outside a round'),
    ('record:reference', None, 283,
     '`reveal` statement outside a round'),
    ('record:reference', None, 284,
     '`draw` statement outside a round'),
    ('record:reference', None, 285,
     '`settle` statement outside a round'),
    ('record:reference', None, 286,
     '`settle` statement outside a round'),
    ('record:reference', None, 287,
     '`settle` statement outside a round'),
    ('record:reference', None, 288,
     '`settle` statement outside a round'),
    ('record:reference', None, 289,
     '`end` statement outside a round'),
    ('record:reference', '17', 483,
     'round 17 is not closed by `end` (it ends at line 515)'),
    ('record:syntax', None, 517,
     "Lines 517–518 (2 lines in a row) cannot be read; the first: '1x' "
     'is not a card such as Tc (rank A 2-9 T J Q K, then suit c d h s); '
     'expected `burn CARD`'),
    ('record:reference', None, 519,
     '`end` statement outside a round'),
]


@pytest.mark.parametrize("jobs", [1, 2])
def test_odd_burn_and_dealer_lines_keep_their_findings_and_lines(tmp_path: Path,
                                                                  jobs: int) -> None:
    assert BATCH_LINES == 256  # the `dealer` above is the first batch's last line
    assert finding_rows(tmp_path, odd_record(tmp_path), jobs) == ODD_FINDINGS
