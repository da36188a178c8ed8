"""Unknown house rules, the card of 20:18:15:28 and the card-count message: what the case
files (tests/cases/house_rules.toml) cannot say, the words of the findings and the table."""

from __future__ import annotations

from auditor.audit import FileAudit, audit_file
from auditor.source import SourceFile

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


def _audit(tmp_path, text: str):
    record = tmp_path / "t.bjh"
    record.write_text(text, encoding="utf-8")
    return audit_file(str(record), keep_evidence=False)


def _found(result) -> list[tuple[str, str | None, int | None, str]]:
    return [(f.citation, f.round, f.line, f.message) for f in result.findings]


def test_a_rule_judged_under_each_value_says_which_house_rule_was_unknown(tmp_path) -> None:
    text = HEADER.format(options="option surrender=late\noption surrender=no")
    result = _audit(tmp_path, text + SURRENDER_AFTER_A_HIT)
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
    result = _audit(tmp_path, text)
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
    result = _audit(tmp_path, text)
    assert _found(result)[0] == (
        "20:18:15:26", "1", 15, "With the house rule soft17 (set to hit at line 3 and to "
        "stand at line 4) unknown, every value it could hold gives this finding: The dealer "
        "stopped at 16 with live wagers on the table; read as dealer procedure (the text of "
        "20:18:15:26 is not on file), the dealer draws to 17 or more.")


def test_a_rule_that_does_not_depend_on_the_unknown_rule_is_worded_as_ever(tmp_path) -> None:
    text = HEADER.format(options="option das=yes\noption das=no") + SURRENDER_AFTER_A_HIT
    result = _audit(tmp_path, text)
    assert [f.message for f in result.findings if f.citation == "20:18:15:30"] == [
        "s1h1 surrendered; the header does not declare surrender, so it is judged under "
        "the default surrender=no (not offered); and s1h1 surrendered after its first "
        "decision; surrender is read as late surrender, the first decision on the first two "
        "cards (the text of 20:18:15:30 is not on file)."]


def test_decks_unknown_is_no_table_size_and_no_count(tmp_path) -> None:
    text = HEADER.replace("decks=6", "decks=0").format(options="")
    result = _audit(tmp_path, text + SURRENDER_AFTER_A_HIT.replace("2d", "Tc"))
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
    assert audit.candidates is None
    assert audit.judge.candidates is None


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
    result = _audit(tmp_path, text)
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
    result = _audit(tmp_path, text)
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
    result = _audit(tmp_path, text)
    assert [(f.line, f.message) for f in result.findings
            if f.citation == "record:card-count"] == [
        (9, "Kh is seen for the 2nd time since the shoe came into play, but the 1-deck shoe "
            "holds it once")]
