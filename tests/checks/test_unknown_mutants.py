"""Unknown house rules where a small wrong change to auditor/unknown_rules.py or to what the
reader says an unknown rule could hold (reader._decks_values, reader._option_values) would
change a verdict or its words: the values each kind of rule could hold, a count past its
most never judged, and the bound on the tables one check is judged under, at its edge."""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor.parser import parse_lines
from auditor.reader import NO_MOST, Header, read_structure
from tests.helpers.audits import audit_record


def _header(*lines: str) -> Header:
    numbered = [(number, text, None) for number, text in enumerate(lines, 1)]
    header = next(read_structure(parse_lines(numbered)))
    assert isinstance(header, Header)
    return header


def _found(result) -> list[tuple[str, str | None, int | None, str]]:
    return [(f.citation, f.round, f.line, f.message) for f in result.findings]


# ---- what an unknown rule could hold

@pytest.mark.parametrize(("lines", "unknown"), [
    # a count with a most: every count from its least to its most, none past it
    (("table T1 game=standard decks=6", "option splits=9"), [("splits", (1, 2, 3))]),
    (("table T1 game=db21 decks=6", "option db21.paytable=9"),
     [("db21.paytable", (1, 2, 3, 4))]),
    # decks: one, six, eight and the most the game is dealt from (Blackjack Switch: eight)
    (("table T1 game=switch decks=0",), [("decks", (1, 6, 8))]),
    (("table T1 game=standard decks=0",), [("decks", (1, 6, 8, NO_MOST))]),
    # usable values given two ways: those values, in the order given
    (("table T1 game=standard decks=8 decks=2",), [("decks", (2, 8))]),
    (("table T1 game=standard decks=6", "option soft17=stand", "option soft17=hit"),
     [("soft17", ("stand", "hit"))]),
])
def test_the_values_an_unknown_rule_could_hold(lines: tuple[str, ...],
                                               unknown: list[tuple[str, tuple]]) -> None:
    header = _header("bjh 1", *lines)
    assert [(u.key, u.values) for u in header.config.unknown] == unknown


SPLIT_FOUR_TIMES = """bjh 1
table T01 game=standard decks=6 min=10 max=500
option splits=9
shoe S1
shuffle
cut
round 1
bet s1h1 main 20
deal s1h1 8c
deal dealer Th
deal s1h1 8d
deal dealer 7s
split s1h1 s1h2 20
deal s1h1 8h
split s1h1 s1h3 20
deal s1h1 8s
split s1h1 s1h4 20
deal s1h1 8c
split s1h1 s1h5 20
deal s1h1 9s
stand s1h1
deal s1h5 Tc
stand s1h5
deal s1h4 Tc
stand s1h4
deal s1h3 Tc
stand s1h3
deal s1h2 Td
stand s1h2
reveal
settle s1h1 main push 20
settle s1h2 main win 20
settle s1h3 main win 20
settle s1h4 main win 20
settle s1h5 main win 20
end
"""


def test_a_fourth_split_is_a_finding_under_every_splits_a_header_could_mean(
        tmp_path: Path) -> None:
    """splits set to a value it cannot take could hold 1, 2 or 3 and no more (the
    regulation's most): a hand split four times is past every one of them. Were a count
    past the most among the values, the table allowing it would clear the hand."""
    result = audit_record(tmp_path, SPLIT_FOUR_TIMES, "t.bjh")
    assert _found(result) == [
        ("20:18:15:25", "1", 19, "With the house rule splits (set to 9 at line 3, a value it "
         "cannot take) unknown, every value it could hold gives this finding; under "
         "splits=3: s1h1 was split 4 times; the header declares no splits, and the "
         "regulation allows 3."),
        ("record:header", None, 3, "option splits=9: input should be less than or equal to 3"),
    ]


# ---- the bound on the tables one check is judged under

def _side_bet_limits(mins: int, maxes: int) -> str:
    """A standard table whose side bet's least and most are each given several usable
    values: the side bet's check (20:18:15:03) is judged under mins * maxes tables."""
    lines = ["bjh 1", "table T01 game=standard decks=6 min=10 max=500"]
    lines += [f"option sidebet.min={value}" for value in range(1, mins + 1)]
    lines += [f"option sidebet.max={value}" for value in range(100, 100 + maxes)]
    lines += ["shoe S1", "shuffle", "cut", "round 1", "bet s1h1 main 20", "deal s1h1 Tc",
              "deal dealer 9h", "deal s1h1 9d", "deal dealer 8c", "stand s1h1", "reveal",
              "settle s1h1 main win 20", "end"]
    return "\n".join(lines) + "\n"


def test_sixty_five_tables_of_two_rules_are_past_the_bound(tmp_path: Path) -> None:
    """5 values of sidebet.min and 13 of sidebet.max: 65 tables, one past the 64 judged;
    the finding names both rules, joined by `and`, at the last line giving one."""
    result = audit_record(tmp_path, _side_bet_limits(5, 13), "t.bjh")
    assert [f for f in _found(result) if "is not judged" in f[3]] == [
        ("record:header", None, 20, "20:18:15:03 (standard.wager_timing_and_limits) is not "
         "judged in this file: it depends on the house rules sidebet.min and sidebet.max, "
         "which the header leaves unknown, and their values make 65 combinations, more than "
         "the 64 judged")]
    assert "20:18:15:03" not in result.applied
    assert result.applied["20:18:15:06"] == 1


def test_sixty_four_tables_are_judged(tmp_path: Path) -> None:
    """8 values of each: 64 tables, the most judged: the check judges the round."""
    result = audit_record(tmp_path, _side_bet_limits(8, 8), "t.bjh")
    assert [f for f in _found(result) if "is not judged" in f[3]] == []
    assert result.applied["20:18:15:03"] == 1
