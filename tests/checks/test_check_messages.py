"""A finding's message is what the inspector reads: these pin the words of findings whose
citation, line and money alone would not tell a wrong message (mutants of the checks that
the rule cases, which compare no words, let through)."""

from __future__ import annotations

from pathlib import Path

from auditor.audit import audit_file
from tests.helpers import ROOT

HEADER = """bjh 1
casino "Case Casino" licence=RL-0001
table T01 game=standard decks=6 min=10 max=500
option soft17=hit
option double=10-11
shoe S1 date=2026-11-20
shuffle
cut
round 1
bet s1h1 main 20
deal s1h1 9h
deal dealer Tc
deal s1h1 {second}
deal dealer 7s
peek
"""


def findings_of(tmp_path: Path, text: str) -> list[tuple]:
    path = tmp_path / "round.bjh"
    path.write_text(text, encoding="utf-8")
    return [(f.citation, f.line, f.hand, f.message) for f in audit_file(str(path)).findings]


def test_a_second_double_names_its_card_alone(tmp_path) -> None:
    """A double on 11, then a second double: its card is the fault, and nothing else (not
    'more than its wager' nor 'three cards' for the second double's stake and cards)."""
    text = HEADER.format(second="2d") + \
        "double s1h1 20 2c\ndouble s1h1 20 3c\nreveal\nsettle s1h1 main lose 60\nend\n"
    assert findings_of(tmp_path, text) == [
        ("20:18:15:24", 17, "s1h1", "s1h1 received 3c after doubling, which allows one card "
                                    "only.")]


def test_a_double_after_standing_is_judged_by_the_house_totals_not_as_a_late_card(
        tmp_path) -> None:
    text = HEADER.format(second="6d") + \
        "stand s1h1\ndouble s1h1 20 5c\nreveal\nsettle s1h1 main win 40\nend\n"
    assert findings_of(tmp_path, text) == [
        ("20:18:15:24", 17, "s1h1", "s1h1 doubled on 15; the house allows doubling on 10-11 "
                                    "only.")]


SWITCH = (ROOT / "sample_logs" / "switch-bjs5-late.bjh").read_text(encoding="utf-8")
VOIDED = "22:33:12 settle s7 supermatch lose 5\n"


def _misdeal_finding(tmp_path: Path, text: str) -> tuple:
    path = tmp_path / "switch.bjh"
    path.write_text(text, encoding="utf-8")
    [finding] = [f for f in audit_file(str(path)).findings if f.line == 550]
    return (finding.citation, finding.seat, finding.expected, finding.actual, finding.message)


def test_a_misdealt_wager_collected_is_said_collected(tmp_path) -> None:
    assert _misdeal_finding(tmp_path, SWITCH) == (
        "20:18:15:30.09(4)", "s7", 0, -5, "The super match wager on s7 was collected 5.00, "
        "but the misdeal to s7 (line 548) returns it in full as void.")


def test_a_misdealt_wager_voided_short_is_said_void_for_part_of_it(tmp_path) -> None:
    assert VOIDED in SWITCH
    text = SWITCH.replace(VOIDED, "22:33:12 settle s7 supermatch void 2\n")
    assert _misdeal_finding(tmp_path, text) == (
        "20:18:15:30.09(4)", "s7", 0, -3, "The super match wager on s7 was returned as void "
        "for 2.00 of its 5.00, but the misdeal to s7 (line 548) returns it in full as void.")


def test_a_void_super_match_is_no_settlement_the_mains_must_follow(tmp_path) -> None:
    """s1's super match voided (wrongly: the misdeal was s7's) after its main was settled:
    void settlements are not collected or paid, so the order of 30.09(5) is not judged on
    it; the wrong void is 30.09(4)'s finding."""
    collected = "22:33:20 settle s1 supermatch lose 5\n"
    main = "22:33:25 settle s1h1 main lose 20\n"
    assert collected in SWITCH and main in SWITCH
    text = SWITCH.replace(collected, "").replace(
        main, main + "22:33:26 settle s1 supermatch void 5\n")
    path = tmp_path / "switch.bjh"
    path.write_text(text, encoding="utf-8")
    found = sorted((f.citation, f.line, f.seat, f.message)
                   for f in audit_file(str(path)).findings if f.line in (550, 554, 555))
    assert found == [
        ("20:18:15:30.09(4)", 550, "s7", "The super match wager on s7 was collected 5.00, but "
         "the misdeal to s7 (line 548) returns it in full as void."),
        ("20:18:15:30.09(4)", 555, "s1", "The super match wager on s1 was returned as void "
         "because of the misdeal to s7, which concerns that seat only; it should lose 5.00: "
         "the first four cards hold no pair.")]


SWITCH_BOTH_BUST = """bjh 1
casino "Case Casino" licence=RL-0009
table T09 game=switch decks=6 min=5 max=500
shoe 301 date=2026-11-21
shuffle
cut
round 1 time=22:01:00 dealer=D-2001
bet s2h1 main 10
bet s2h2 main 10
deal s2h1 9h
deal s2h2 Kc
deal dealer 6d
deal s2h1 6d
deal s2h2 5d
deal dealer 6c
hit s2h1 Qc
settle s2h1 main lose 10
hit s2h2 Qd
settle s2h2 main {outcome} 10
reveal
draw Th
end
"""


def test_a_switch_hand_over_21_pushed_is_said_to_be_returned_not_collected(tmp_path) -> None:
    """Both hands over 21 (no hand under 22 in the round), the second pushed at once: the
    fault is that it was returned, not a wrong amount or a late collection."""
    assert findings_of(tmp_path, SWITCH_BOTH_BUST.format(outcome="push")) == [
        ("20:18:15:30.09(15)", 19, "s2h2",
         "s2h2 went over 21 (25) and its main wager on s2h2 was pushed (10.00 returned) "
         "instead of being collected; a hand over 21 is collected at once.")]
    assert findings_of(tmp_path, SWITCH_BOTH_BUST.format(outcome="lose")) == []


def test_unreadable_lines_in_a_row_between_rounds_are_one_finding_naming_the_range(
        tmp_path) -> None:
    """Two unreadable lines one after the other (over the line limit) outside rounds: one
    finding on the first, naming both, not one finding each."""
    long_line = "note " + "x" * 70_000
    text = ("bjh 1\ncasino \"Case Casino\" licence=RL-0001\n"
            "table T01 game=standard decks=6 min=10 max=500\nshoe S1 date=2026-11-20\n"
            f"shuffle\ncut\n{long_line}\n{long_line}\nround 1\nbet s1h1 main 20\n"
            "deal s1h1 9h\ndeal dealer Tc\ndeal s1h1 8d\ndeal dealer 7s\npeek\nstand s1h1\n"
            "reveal\nsettle s1h1 main push 20\nend\n")
    assert findings_of(tmp_path, text) == [
        ("record:syntax", 7, None, "Lines 7–8 (2 lines in a row) cannot be read; the first: "
                                   "line longer than 65536 bytes")]


def test_switch_hands_over_21_collected_at_once_with_no_reveal_are_no_finding(
        tmp_path) -> None:
    """Both hands over 21 and collected at once, the dealer's hand never revealed (nothing
    left to play against): no finding, the next action being the other hand's alone."""
    text = SWITCH_BOTH_BUST.format(outcome="lose").replace("reveal\ndraw Th\n", "")
    assert findings_of(tmp_path, text) == []
