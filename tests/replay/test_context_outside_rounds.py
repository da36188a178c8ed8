"""A finding of the record between rounds carries what was in force at its line: the
shoe's date and ID, the dealer, the last time stamp; so it has a gaming day and shift, the
trends and incidents count it, and two undated nights' findings are told apart by shoe."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.audits import audit_identified, written

NIGHT = """\
bjh 1
casino "Test" licence=RL-9
table T4 game=standard decks=6 min=10 max=500
dealer D-1
shoe S{shoe}{date}
23:58:00 shuffle
23:58:05 cut
junk between the cut and the first round
round 1 time=23:59:00 dealer=D-2
23:59:01 sit s2 player=P-2
23:59:02 bet s2h1 main 20
23:59:03 deal s2h1 9c
23:59:04 deal dealer 6d
23:59:05 deal s2h1 7s
23:59:06 deal dealer Td
23:59:07 stand s2h1
23:59:08 reveal
23:59:09 draw 3h
23:59:14 settle s2h1 main lose 20
23:59:15 end
more junk after the round
"""


def audited(tmp_path: Path, name: str, text: str):
    # IDs, gaming days and shifts, as a run's are given
    return audit_identified([written(tmp_path, text, name)]).findings


def test_a_finding_between_rounds_has_its_shoe_date_dealer_and_time(tmp_path: Path) -> None:
    findings = audited(tmp_path, "t4.bjh", NIGHT.format(shoe=7, date=" date=2026-11-22"))
    assert [(f.citation, f.line, f.round, f.date, f.shoe, f.dealer, f.time, f.gaming_day,
             f.shift) for f in findings] == [
        ("record:syntax", 8, None, "2026-11-22", "S7", "D-1", "23:58:05", "2026-11-22",
         "grave"),
        # after the round: the table's dealer (the round named its own), the round's last
        # stamped time (a line's date is its shoe's, as bjh-format.md says of time stamps)
        ("record:syntax", 21, None, "2026-11-22", "S7", "D-1", "23:59:14", "2026-11-22",
         "grave")]


def test_two_undated_nights_give_two_ids(tmp_path: Path) -> None:
    first = audited(tmp_path, "night-1.bjh", NIGHT.format(shoe=1, date=""))
    second = audited(tmp_path, "night-2.bjh", NIGHT.format(shoe=2, date=""))
    assert [(f.line, f.shoe, f.date) for f in first] == [(8, "S1", None), (21, "S1", None)]
    assert [(f.line, f.shoe) for f in second] == [(8, "S2"), (21, "S2")]
    assert not {f.id for f in first} & {f.id for f in second}


def test_before_the_first_shoe_a_finding_is_the_records(tmp_path: Path) -> None:
    text = NIGHT.format(shoe=3, date=" date=2026-11-22").replace(
        "dealer D-1\n", "dealer D-1\njunk before any shoe\n")
    findings = audited(tmp_path, "t4.bjh", text)
    first = findings[0]
    assert (first.line, first.shoe, first.date, first.dealer, first.gaming_day) == (
        5, None, None, None, None)
