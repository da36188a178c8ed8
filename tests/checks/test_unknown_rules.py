"""Unknown house rules, the card of 20:18:15:28 and the card-count message: what the case
files (tests/cases/house_rules.toml) cannot say, the words of the findings and the table."""

from __future__ import annotations

from decimal import Decimal

from auditor.audit import FileAudit
from auditor.checks.base import registry
from auditor.parser import parse_lines
from auditor.reader import read_structure
from auditor.source import SourceFile
from auditor.unknown_rules import UnknownRules
from tests.helpers.audits import audit_record

HEADER = """bjh 1
table T01 game=standard decks=6 min=10 max=500
{options}
shoe S1
shuffle
cut
"""

SURRENDER_AFTER_A_HIT = """round 1
bet s1h1 main 20
deal s1h1 Tc
deal dealer 9h
deal s1h1 2d
deal dealer Ts
hit s1h1 3c
surrender s1h1
reveal
settle s1h1 main lose 10
end
"""


def _found(result) -> list[tuple[str, str | None, int | None, str]]:
    return [(f.citation, f.round, f.line, f.message) for f in result.findings]


def test_a_rule_judged_under_each_value_says_which_house_rule_was_unknown(tmp_path) -> None:
    text = HEADER.format(options="option surrender=late\noption surrender=no")
    result = audit_record(tmp_path, text + SURRENDER_AFTER_A_HIT, "t.bjh")
    assert _found(result) == [
        ("20:18:15:30", "1", 15, "With the house rule surrender (set to late at line 3 and to "
         "no at line 4) unknown, every value it could hold gives this finding: s1h1 "
         "surrendered after its first decision; surrender is read as late surrender, the "
         "first decision on the first two cards (the text of 20:18:15:30 is not on file)."),
        ("record:header", None, 4, "option surrender is set to late at line 3 and to no here"),
    ]
    # what is not known is not shown as the table's rule
    assert "surrender" not in result.summary.house_rules
    assert result.summary.house_rules["das"] == "yes"
    assert result.summary.rounds_audited == 1


def test_a_finding_worded_by_the_unknown_rule_says_under_which_value(tmp_path) -> None:
    text = HEADER.format(options="option splits=1\noption splits=2") + """round 1
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
deal s1h1 9s
stand s1h1
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
end
"""
    result = audit_record(tmp_path, text, "t.bjh")
    assert _found(result)[0] == (
        "20:18:15:25", "1", 18, "With the house rule splits (set to 1 at line 3 and to 2 at "
        "line 4) unknown, every value it could hold gives this finding; under splits=2: s1h1 "
        "was split 3 times; the house allows 2.")


def test_a_finding_not_worded_by_the_unknown_rule_names_no_value(tmp_path) -> None:
    """A dealer's stop below 17 is a finding under either soft17, in the same words."""
    text = HEADER.format(options="option soft17=hit\noption soft17=stand") + """round 1
bet s1h1 main 20
deal s1h1 Tc
deal dealer Th
deal s1h1 9d
deal dealer 6s
stand s1h1
reveal
settle s1h1 main win 20
end
"""
    result = audit_record(tmp_path, text, "t.bjh")
    assert _found(result)[0] == (
        "20:18:15:26", "1", 15, "With the house rule soft17 (set to hit at line 3 and to "
        "stand at line 4) unknown, every value it could hold gives this finding: The dealer "
        "stopped at 16 with live wagers on the table; read as dealer procedure (the text of "
        "20:18:15:26 is not on file), the dealer draws to 17 or more.")


def test_a_rule_that_does_not_depend_on_the_unknown_rule_is_worded_as_ever(tmp_path) -> None:
    text = HEADER.format(options="option das=yes\noption das=no") + SURRENDER_AFTER_A_HIT
    result = audit_record(tmp_path, text, "t.bjh")
    assert [f.message for f in result.findings if f.citation == "20:18:15:30"] == [
        "s1h1 surrendered; the header does not declare surrender, so it is judged under "
        "the default surrender=no (not offered); and s1h1 surrendered after its first "
        "decision; surrender is read as late surrender, the first decision on the first two "
        "cards (the text of 20:18:15:30 is not on file)."]


def test_decks_unknown_is_no_table_size_and_no_count(tmp_path) -> None:
    text = HEADER.replace("decks=6", "decks=0").format(options="")
    result = audit_record(tmp_path, text + SURRENDER_AFTER_A_HIT.replace("2d", "Tc"), "t.bjh")
    assert result.summary.decks is None
    assert result.summary.game == "standard"
    assert [f.citation for f in result.findings] == ["20:18:15:30", "record:header"]


def test_a_fully_known_header_is_judged_once(tmp_path) -> None:
    record = tmp_path / "t.bjh"
    record.write_text(HEADER.format(options="option das=no") + SURRENDER_AFTER_A_HIT,
                      encoding="utf-8")
    audit = FileAudit(str(record), keep_evidence=False)
    source = SourceFile(str(record))
    source.open_check()
    audit.read(source.lines())
    assert audit.runner.unknown is None


def test_a_settlement_wrong_both_ways_names_both_results(tmp_path) -> None:
    text = HEADER.format(options="") + """round 1
bet s2h1 main 20
deal s2h1 Tc
deal dealer Th
deal s2h1 7d
deal dealer 8s
stand s2h1
reveal
draw 5c
settle s2h1 main push 20
end
"""
    result = audit_record(tmp_path, text, "t.bjh")
    assert _found(result) == [
        ("20:18:15:06", "1", 16, "The main wager on s2h1 was pushed (20.00 returned); it "
         "should be paid 20.00: the dealer went over 21 (23), or, without the card the dealer "
         "drew on a standing total (which must be burned, 20:18:15:28), lose 20.00: 17 loses "
         "to the dealer's 18."),
        ("20:18:15:28", "1", 15, "The dealer drew 5c holding 18, a total on which the dealer "
         "must stand; the card should have been burned."),
    ]


def test_the_card_count_names_the_shuffle_it_started_from(tmp_path) -> None:
    text = HEADER.replace("decks=6", "decks=1").format(options="") + """round 1
bet s1h1 main 20
deal s1h1 Kh
deal dealer 9h
deal s1h1 Qh
deal dealer 8s
stand s1h1
reveal
settle s1h1 main win 20
end
shuffle
cut
burn Kh
burn Kh
round 2
bet s1h1 main 20
deal s1h1 Kh
deal dealer 9h
deal s1h1 Qh
deal dealer 8s
stand s1h1
reveal
shuffle
cut
settle s1h1 main win 20
draw 2c
draw 2c
end
"""
    result = audit_record(tmp_path, text, "t.bjh")
    counts = [(f.round, f.line, f.message) for f in result.findings
              if f.citation == "record:card-count"]
    assert counts == [
        ("2", 23, "Kh is seen for the 3rd time since the shuffle at line 17, but the 1-deck "
         "shoe holds it once"),
        ("2", 33, "2c is seen for the 2nd time since the shuffle at line 29, but the 1-deck "
         "shoe holds it once"),
        (None, 20, "burned Kh is seen 2 times since the shuffle at line 17, more than the "
         "1-deck shoe holds"),
    ]


def test_the_card_count_from_the_shoe_says_so(tmp_path) -> None:
    text = HEADER.replace("decks=6", "decks=1").format(options="") + """round 1
bet s1h1 main 20
deal s1h1 Kh
deal dealer 9h
deal s1h1 Kh
deal dealer 8s
stand s1h1
reveal
settle s1h1 main win 20
end
"""
    text = text.replace("shuffle\ncut\n", "", 1)
    result = audit_record(tmp_path, text, "t.bjh")
    assert [(f.line, f.message) for f in result.findings
            if f.citation == "record:card-count"] == [
        (9, "Kh is seen for the 2nd time since the shoe came into play, but the 1-deck shoe "
            "holds it once")]


# ---- every combination of several unknown rules (issue 41)

ISSUE_EXAMPLE = """bjh 1
table T01 game=standard decks=6 min=10 max=500
option soft17=hit
option soft17=stand
option surrender=sometimes
shoe S1
shuffle
cut
round 1
bet s1h1 main 20
deal s1h1 Tc
20:00:08 deal dealer 9h
deal s1h1 9d
20:00:10 deal dealer 7c
stand s1h1
20:00:12 reveal
settle s1h1 main win 20
end
"""


def test_a_fault_every_value_of_two_unknown_rules_gives_is_found(tmp_path) -> None:
    """soft17 given two ways and surrender a value it cannot take: the dealer's stand on a
    hard 16 is wrong under all four tables; the dealer's drawing does not depend on
    surrender, so its finding names soft17 alone."""
    result = audit_record(tmp_path, ISSUE_EXAMPLE, "t.bjh")
    assert _found(result) == [
        # every table words it alike (a stop at 16 is wrong whatever soft17 says)
        ("20:18:15:26", "1", 16, "With the house rule soft17 (set to hit at line 3 and to "
         "stand at line 4) unknown, every value it could hold gives this finding: The dealer "
         "stopped at 16 with live wagers on the table; read as dealer procedure (the text "
         "of 20:18:15:26 is not on file), the dealer draws to 17 or more."),
        ("record:header", None, 4, "option soft17 is set to hit at line 3 and to stand here"),
        ("record:header", None, 5, "option surrender=sometimes: input should be 'no' or "
         "'late'"),
    ]


def test_a_finding_worded_by_two_unknown_rules_names_the_values_it_holds_under(
        tmp_path) -> None:
    """blackjack and decks both unknown: even money on a blackjack is short under every
    table, and the finding owes the least of them (6 to 5 at one deck)."""
    text = """bjh 1
table T01 game=standard decks=1 decks=6 min=10 max=500
option blackjack=6:5
option blackjack=3:2
shoe S1
shuffle
cut
round 1
bet s1h1 main 20
deal s1h1 Ah
deal dealer 9c
deal s1h1 Kd
deal dealer 8s
reveal
settle s1h1 main win 20
end
"""
    result = audit_record(tmp_path, text, "t.bjh")
    payouts = [(f.citation, f.line, f.message, f.expected, f.actual)
               for f in result.findings if f.citation == "20:18:15:06"]
    assert payouts == [(
        "20:18:15:06", 15, "With the house rules decks (set to 1 at line 2 and to 6 at line 2) "
        "and blackjack (set to 6:5 at line 3 and to 3:2 at line 4) unknown, every value "
        "they could hold gives this finding; under decks=1, blackjack=6:5: The main wager on "
        "s1h1 was paid 20.00; it should be paid 24.00: blackjack pays 6:5.",
        Decimal("24.00"), Decimal("20"))]


def test_a_check_past_the_bound_is_named_not_judged_and_counts_no_round(tmp_path) -> None:
    """Five unknown rules that 20:18:15:03 reads make 96 tables: the check is not judged
    in the file, and the header says so; the other checks still are."""
    text = """bjh 1
table T07 game=db21 decks=0 min=5 max=1000
option db21.paytable=1
option sidebet.min=1
option sidebet.min=2
option sidebet.max=50
option sidebet.max=100
option blackjack=often
option soft17=hit
option soft17=stand
shoe S1
shuffle
cut
round 1
bet s1h1 main 10
deal s1h1 Th
deal dealer 9c
bet s2h1 main 10
deal s1h1 8d
deal dealer Ts
stand s1h1
reveal
settle s1h1 main lose 10
settle s2h1 main lose 10
end
"""
    result = audit_record(tmp_path, text, "t.bjh")
    assert ("record:header", None, 10,
            "20:18:15:03 (standard.wager_timing_and_limits) is not judged in this file: it "
            "depends on the house rules decks, sidebet.min, sidebet.max, blackjack and "
            "soft17, which the header leaves unknown, and their values make 96 "
            "combinations, more than the 64 judged") in _found(result)
    assert [f.citation for f in result.findings if not f.citation.startswith("record:")] == []
    assert "20:18:15:03" not in result.applied
    assert result.applied["20:18:15:06"] == 1


def test_eleven_unknown_rules_judge_each_check_under_its_own_few_tables(tmp_path) -> None:
    """Every option of a Ten sticks table given twice and `decks` two ways: no check is
    judged under more than the product of the rules it reads (at most 8 here), never
    the 2 ** 11 tables of the header."""

    options = {"soft17": "hit stand", "peek": "yes no", "blackjack": "3:2 6:5",
               "double": "any 9-11", "das": "yes no", "splits": "1 3",
               "surrender": "no late", "tensticks.trade": "yes no",
               "tensticks.lights": "1 3", "tensticks.prize": "100 250"}
    lines = ["bjh 1", "table T31 game=tensticks decks=6 decks=2 min=5 max=500"]
    lines += [f"option {key}={value}" for key, values in options.items()
              for value in values.split()]
    header = next(read_structure(parse_lines((n, t, None) for n, t in enumerate(lines, 1))))
    config = header.config
    assert len(config.unknown) == 11
    unknown = UnknownRules(config)
    products = {c.name: unknown.combinations(c.options) for c in registry().values()
                if c.applies_to("tensticks")}
    assert max(products.values()) == 8
    assert products["standard.main_payout"] == 8  # blackjack, decks, soft17
    assert products["standard.double_down"] == 4
    assert products["tensticks.busting_bonus_card"] == 1
    assert unknown.not_judged(registry().values()) == []


def test_an_unknown_blackjack_odds_is_not_said_to_be_declared(tmp_path) -> None:
    """`blackjack` given a value it cannot take: the finding owes 3:2 under every value;
    the value it names (1:1, the least) is one it could hold, not one the header declared."""
    text = HEADER.format(options="option blackjack=7:5") + """round 1
bet s1h1 main 20
deal s1h1 As
deal dealer 9h
deal s1h1 Kd
deal dealer 7s
reveal
settle s1h1 main win 20
end
"""
    result = audit_record(tmp_path, text, "t.bjh")
    assert _found(result) == [
        ("20:18:15:06", "1", 14, "With the house rule blackjack (set to 7:5 at line 3, a "
         "value it cannot take) unknown, every value it could hold gives this finding; "
         "under blackjack=1:1: The main wager on s1h1 was paid 20.00; it should be paid "
         "30.00: blackjack pays 3:2 (the value 1:1 is under the least 20:18:15:06 allows)."),
        ("record:header", None, 3, "option blackjack=7:5: input should be '3:2', '6:5' or "
         "'1:1'"),
    ]
