"""Unknown house rules where a small wrong change to auditor/unknown_rules.py or to what the
reader says an unknown rule could hold (reader._decks_values, reader._option_values) would
change a verdict or its words: the values each kind of rule could hold, a count past its
most never judged, and the bound on the tables one check is judged under, at its edge."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from auditor.config import TableConfig, UnknownRule
from auditor.findings import Finding
from auditor.parser import parse_lines
from auditor.reader import NO_MOST, Header, read_structure
from auditor.unknown_rules import agreed
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
    # a choice that may also be none: each choice (a Lucky Ladies pay table: each one
    # dealt with the known decks, A and B with more than one, C with one; each with decks
    # unknown too)
    (("table T1 game=ladies decks=6", "option ladies.paytable=Z"),
     [("ladies.paytable", ("A", "B"))]),
    (("table T1 game=ladies decks=1", "option ladies.paytable=Z"),
     [("ladies.paytable", ("C",))]),
    (("table T1 game=ladies decks=0", "option ladies.paytable=Z"),
     [("decks", (1, 6, 8, NO_MOST)), ("ladies.paytable", ("A", "B", "C"))]),
    # decks: one, six, eight and the most the game is dealt from (Blackjack Switch: eight)
    (("table T1 game=switch decks=0",), [("decks", (1, 6, 8))]),
    (("table T1 game=standard decks=0",), [("decks", (1, 6, 8, NO_MOST))]),
    # usable values given two ways: those values, in the order given
    (("table T1 game=standard decks=8 decks=2",), [("decks", (2, 8))]),
    (("table T1 game=standard decks=6", "option soft17=stand", "option soft17=hit"),
     [("soft17", ("stand", "hit"))]),
    # two spellings of one amount are one value, one table
    (("table T1 game=standard decks=6", "option sidebet.min=5", "option sidebet.min=5.00"),
     [("sidebet.min", (Decimal(5),))]),
    # an amount it cannot take: none (the loosest), the one value that judges alike
    (("table T1 game=standard decks=6", "option sidebet.min=-5"), [("sidebet.min", (None,))]),
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
         "splits=3: s1h1 was split 4 times; the house allows 3."),
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


# ---- of each table's findings, those every table gives (agreed)

def _splits_tables() -> tuple[list[TableConfig], tuple[UnknownRule, ...]]:
    """The three tables of `splits` set to a value it cannot take (1, 2 and 3), in order."""
    config = _header("bjh 1", "table T1 game=standard decks=6", "option splits=9").config
    tables = [config.model_copy(update={"rules": config.rules.model_copy(
        update={"splits": value})}) for value in (1, 2, 3)]
    return tables, config.unknown


def _finding(message: str, line: int = 19, evidence: tuple[int, ...] = (),
             expected: str | None = None, actual: str | None = None) -> Finding:
    return Finding(citation="20:18:15:25", rule="standard.splits", severity="medium",
                   file="t.bjh", line=line, round="1", seat="s1", hand="s1h1",
                   message=message, evidence=evidence,
                   expected=None if expected is None else Decimal(expected),
                   actual=None if actual is None else Decimal(actual),
                   difference=None if expected is None or actual is None
                   else Decimal(expected) - Decimal(actual))


LEAD = ("With the house rule splits (set to 9 at line 3, a value it cannot take) unknown, "
        "every value it could hold gives this finding")


def _kept(found: list[Finding]) -> list[tuple]:
    return [(f.line, f.message, f.evidence, f.expected, f.actual) for f in found]


def test_a_finding_given_alike_twice_under_every_table_is_kept_twice_as_it_is() -> None:
    tables, rules = _splits_tables()
    twice = [_finding("split too often"), _finding("split too often")]
    assert _kept(agreed([list(twice), list(twice), list(twice)], tables, rules)) == [
        (19, f"{LEAD}: split too often", (), None, None)] * 2


def test_a_finding_one_table_gives_twice_and_the_others_once_is_kept_once() -> None:
    """Only as many copies as every table gives stand: the first table's second copy is
    not found under the other two."""
    tables, rules = _splits_tables()
    once, twice = [_finding("split too often")], [_finding("split too often")] * 2
    assert _kept(agreed([twice, list(once), list(once)], tables, rules)) == [
        (19, f"{LEAD}: split too often", (), None, None)]


def test_a_finding_alike_under_every_table_is_kept_as_the_first_table_gives_it() -> None:
    """Alike in what it says (citation, line, hand, words, amounts), it is kept once, with
    the lines of evidence the first table gave."""
    tables, rules = _splits_tables()
    versions = [[_finding("split too often", evidence=(12,))],
                [_finding("split too often", evidence=(13,))],
                [_finding("split too often", evidence=(14,))]]
    assert _kept(agreed(versions, tables, rules)) == [
        (19, f"{LEAD}: split too often", (12,), None, None)]


def test_a_finding_every_table_words_apart_is_kept_as_the_least_claimed() -> None:
    """The owed amount differs by table: the one that claims least is kept, saying under
    which value; one the last table alone gives does not stand."""
    tables, rules = _splits_tables()
    versions = [[_finding("owed 30", expected="30", actual="20")],
                [_finding("owed 25", expected="25", actual="20"), _finding("only here", 20)],
                [_finding("owed 40", expected="40", actual="20")]]
    assert _kept(agreed(versions, tables, rules)) == [
        (19, f"{LEAD}; under splits=2: owed 25", (), Decimal(25), Decimal(20))]


def test_a_finding_worded_apart_with_no_amount_under_one_table_claims_least() -> None:
    """A finding with no amount claims less than one of any amount, however small."""
    tables, rules = _splits_tables()
    versions = [[_finding("owed 20.50", expected="20.50", actual="20")],
                [_finding("split too often")],
                [_finding("owed 20.25", expected="20.25", actual="20")]]
    assert _kept(agreed(versions, tables, rules)) == [
        (19, f"{LEAD}; under splits=2: split too often", (), None, None)]


def test_a_finding_the_middle_table_does_not_give_does_not_stand() -> None:
    tables, rules = _splits_tables()
    versions = [[_finding("split too often")], [_finding("other fault", 20)],
                [_finding("split too often")]]
    assert agreed(versions, tables, rules) == []


def test_the_first_tables_fewer_copies_bound_the_alike_and_the_rest_is_worded_apart() -> None:
    """The first table gives a fault once in these words and once in others, the second
    twice in the first words: one copy is alike under both, the other is the same fault
    worded apart, kept as the table that claims least gives it (of equals, the last)."""
    tables, rules = _splits_tables()
    versions = [[_finding("split too often"), _finding("split once too often")],
                [_finding("split too often"), _finding("split too often")]]
    assert _kept(agreed(versions, tables[:2], rules)) == [
        (19, f"{LEAD}: split too often", (), None, None),
        (19, f"{LEAD}; under splits=2: split too often", (), None, None)]


UNDER_THE_MINIMUM = """bjh 1
table T01 game=standard decks=6 min=10 max=500
option sidebet.min=-5
shoe S1
shuffle
cut
round 1
bet s1h1 main 5
deal s1h1 Tc
deal dealer 9h
deal s1h1 9d
deal dealer 8c
stand s1h1
reveal
settle s1h1 main win 5
end
"""


def test_an_unknown_rule_of_one_value_judges_under_one_table_and_names_it(
        tmp_path: Path) -> None:
    """An amount it cannot take could hold one value (none): the check of limits is judged
    under that one table, and its finding still says the rule was unknown."""
    result = audit_record(tmp_path, UNDER_THE_MINIMUM, "t.bjh")
    assert _found(result) == [
        ("20:18:15:03", "1", 8, "With the house rule sidebet.min (set to -5 at line 3, a "
         "value it cannot take) unknown, every value it could hold gives this finding: The "
         "main wager on s1h1 of 5.00 is under the posted minimum of 10.00."),
        ("record:header", None, 3, "option sidebet.min=-5: input should be greater than or "
         "equal to 0"),
    ]


# ---- a pay table it cannot take at a Lucky Ladies table (a crash, fixed)

LADIES_PAY_TABLE_UNREADABLE = """bjh 1
table T01 game=ladies decks={decks} min=10 max=500
option ladies.paytable=Z
shoe S1
shuffle
cut
round 1
bet s1h1 main 20
deal s1h1 Tc
deal dealer 9h
deal s1h1 9d
deal dealer 8c
stand s1h1
reveal
settle s1h1 main win 20
end
"""


@pytest.mark.parametrize("decks", ["6", "0"])
def test_a_ladies_pay_table_it_cannot_take_is_a_header_finding_not_a_crash(
        tmp_path: Path, decks: str) -> None:
    """The table is configured at the last pay table it could hold (C), which six decks
    (or the most, for `decks` unknown) do not deal: the reader named the header's line of
    that pay table, which it never kept for a value it cannot take (KeyError, the
    auditor's own failure). It is no contradiction of the header's: the header wrote Z."""
    result = audit_record(tmp_path, LADIES_PAY_TABLE_UNREADABLE.format(decks=decks), "t.bjh")
    header = [("record:header", None, 3, "option ladies.paytable=Z: input should be 'a', "
               "'b' or 'c'")]
    if decks == "0":
        header.append(("record:header", None, 2, "table decks: Input should be greater than "
                       "or equal to 1"))
    assert _found(result) == header
    assert result.applied["20:18:15:06"] == 1


def test_one_rule_of_sixty_five_values_is_past_the_bound_and_named_alone(
        tmp_path: Path) -> None:
    result = audit_record(tmp_path, _side_bet_limits(65, 1), "t.bjh")
    assert [f for f in _found(result) if "is not judged" in f[3]] == [
        ("record:header", None, 67, "20:18:15:03 (standard.wager_timing_and_limits) is not "
         "judged in this file: it depends on the house rules sidebet.min, which the header "
         "leaves unknown, and their values make 65 combinations, more than the 64 judged")]


def test_the_values_a_finding_worded_apart_holds_under_are_shown_as_written() -> None:
    """No amount is `none`, a count with no most `any number`, a value as it reads."""
    config = _header("bjh 1", "table T1 game=standard decks=0", "option sidebet.min=-5",
                     "option soft17=hit", "option soft17=stand").config
    rules = config.unknown
    assert [rule.key for rule in rules] == ["decks", "sidebet.min", "soft17"]
    tables = [config.model_copy(update={"rules": config.rules.model_copy(
        update={"soft17": "hit"})}), config]
    versions = [[_finding("stopped at 16", expected="30", actual="20")],
                [_finding("stopped at sixteen", expected="30", actual="20")]]
    lead = ("With the house rules decks (set to 0 at line 2, a value it cannot take) and "
            "sidebet.min (set to -5 at line 3, "
            "a value it cannot take) and soft17 (set to hit at line 4 and to stand at line "
            "5) unknown, every value they could hold gives this finding")
    assert _kept(agreed(versions, tables, rules)) == [
        (19, f"{lead}; under decks=any number, sidebet.min=none, soft17=stand: stopped at "
             "sixteen", (), Decimal(30), Decimal(20))]


LADIES_PAID_SHORT = """bjh 1
table T41 game=ladies decks={decks} min=5 max=1000
option ladies.paytable=Z
shoe 41 date=2026-11-20
shuffle
cut
round 1 dealer=D-41
bet s2h1 main 10
bet s2 ladies 5
deal s2h1 Kh
deal dealer 9c
deal s2h1 Th
deal dealer 8d
settle s2 ladies win 15
stand s2h1
reveal
settle s2h1 main win 10
end
"""


@pytest.mark.parametrize(("decks", "under", "owed"), [
    ("6", "; under ladies.paytable=A", "pay table A pays 9 to 1: 45.00"),
    ("1", "", "pay table C pays 6 to 1: 30.00"),
])
def test_a_ladies_wager_paid_short_under_every_pay_table_of_the_decks_is_flagged(
        tmp_path: Path, decks: str, under: str, owed: str) -> None:
    """A suited 20 paid 3 to 1 is short under A (9 to 1) and B (10 to 1), the pay tables
    six decks are dealt with, and under C (6 to 1), one deck's. C at six decks, a pairing
    the format calls contradictory, judges no odds: counted among what the pay table could
    hold, it hid the finding."""
    result = audit_record(tmp_path, LADIES_PAID_SHORT.format(decks=decks), "t.bjh")
    assert [(f.citation, f.line, f.seat, f.message, f.expected, f.actual)
            for f in result.findings] == [
        ("20:18:15:30.04(4)", 14, "s2", "With the house rule ladies.paytable (set to Z at "
         f"line 3, a value it cannot take) unknown, every value it could hold gives this "
         f"finding{under}: The Lucky Ladies wager on s2 was paid 15.00 (3 to 1); Kh Th is a "
         f"suited 20, which {owed}.", Decimal(owed[-5:]), Decimal(15)),
        ("record:header", 3, None, "option ladies.paytable=Z: input should be 'a', 'b' or "
         "'c'", None, None),
    ]
