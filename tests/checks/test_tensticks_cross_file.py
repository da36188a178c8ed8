"""Punched player's cards (20:18:15:30.02(¶11)) followed across the files of one audit.

Table T31 (2026-11-20) punches PC-7 with 3 and PC-9 with 1. Table T32, the next day, takes
PC-7 in rightly, then takes it in a second time, punches it again with 4 and takes it in with
5; PC-9 is handed in with 4. The findings do not depend on the number of jobs or on the order
in which the files are given: cards are judged in time order.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor.run import audit_paths
from tests.helpers import ROOT

HEADER = """bjh 1
casino "Case Casino" licence=RL-0001
table {table} game=tensticks decks=6 min=5 max=500
option tensticks.prize=500
shoe {shoe} date={date}
{hour}:00:00 shuffle
{hour}:00:30 cut
"""

FIRST_TABLE = HEADER.format(table="T31", shoe="401", date="2026-11-20", hour="22") + """\
round 1 time=22:01:00 dealer=D-3101
22:01:00 sit s2 player=P-7 punchcard=PC-7 punches=2
22:01:00 sit s5 player=P-9
22:01:01 bet s2h1 main 25
22:01:01 bet s5h1 main 25
22:01:05 deal s2h1 9h
22:01:05 deal s5h1 8h
22:01:06 deal dealer 7s
22:01:07 deal s2h1 Tc
22:01:07 deal s5h1 Tc
22:01:08 deal dealer Kd
22:01:10 trade s2h1 Qd
22:01:11 light s2 3
22:01:12 stand s2h1
22:01:13 trade s5h1 Jd
22:01:14 light s5 1
22:01:15 stand s5h1
22:01:20 reveal
22:01:25 settle s5h1 main win 25
22:01:25 settle s2h1 main win 25
22:01:30 leave s2 punchcard=PC-7 punches=3
22:01:31 leave s5 punchcard=PC-9 punches=1
end
close
"""

SECOND_TABLE = HEADER.format(table="T32", shoe="502", date="2026-11-21", hour="14") + """\
round 1 time=14:01:00 dealer=D-3202
14:01:00 sit s4 player=P-7 punchcard=PC-7 punches=3
14:01:00 sit s6 player=P-9 punchcard=PC-9 punches=4
14:01:01 bet s4h1 main 25
14:01:01 bet s6h1 main 25
14:01:05 deal s4h1 9h
14:01:05 deal s6h1 9d
14:01:06 deal dealer 7s
14:01:07 deal s4h1 Tc
14:01:07 deal s6h1 8d
14:01:08 deal dealer Kd
14:01:10 trade s4h1 Qd
14:01:11 light s4 4
14:01:12 stand s4h1
14:01:13 stand s6h1
14:01:20 reveal
14:01:25 settle s6h1 main push 25
14:01:25 settle s4h1 main win 25
end
round 2 time=14:03:00 dealer=D-3202
14:03:00 sit s1 player=P-8 punchcard=PC-7 punches=3
14:03:01 bet s1h1 main 25
14:03:05 deal s1h1 9c
14:03:06 deal dealer 7h
14:03:07 deal s1h1 Ks
14:03:08 deal dealer Kh
14:03:12 stand s1h1
14:03:20 reveal
14:03:25 settle s1h1 main win 25
14:03:30 leave s4 punchcard=PC-7 punches=4
end
round 3 time=14:05:00 dealer=D-3202
14:05:00 sit s4 player=P-7 punchcard=PC-7 punches=5
14:05:01 bet s4h1 main 25
14:05:05 deal s4h1 9s
14:05:06 deal dealer 7d
14:05:07 deal s4h1 Kc
14:05:08 deal dealer Qh
14:05:12 stand s4h1
14:05:20 reveal
14:05:25 settle s4h1 main win 25
end
"""

CARD = "20:18:15:30.02(¶11)"


def _line(text: str, statement: str) -> int:
    [number] = [n for n, line in enumerate(text.splitlines(), start=1) if statement in line]
    return number


@pytest.fixture
def tables(tmp_path: Path) -> tuple[str, str]:
    first, second = tmp_path / "t31-2026-11-20.bjh", tmp_path / "t32-2026-11-21.bjh"
    first.write_text(FIRST_TABLE, encoding="utf-8")
    second.write_text(SECOND_TABLE, encoding="utf-8")
    return str(first), str(second)


def _found(findings) -> list[tuple]:
    return [(f.citation, f.file, f.table, f.round, f.line, f.seat) for f in findings]


def test_a_card_punched_at_one_table_is_judged_at_another(tables) -> None:
    first, second = tables
    result = audit_paths([first, second], jobs=1)
    assert _found(result.findings) == [
        (CARD, second, "T32", "1", _line(SECOND_TABLE, "sit s6 player=P-9"), "s6"),
        (CARD, second, "T32", "2", _line(SECOND_TABLE, "sit s1 player=P-8"), "s1"),
        (CARD, second, "T32", "3", _line(SECOND_TABLE, "sit s4 player=P-7 punchcard=PC-7 "
                                                       "punches=5"), "s4"),
    ]
    wrong_count, twice, repunched = result.findings
    assert "punched 1 at table T31" in wrong_count.message
    assert "handed in at s6 with 4 punches" in wrong_count.message
    assert "already been surrendered at table T32" in twice.message
    assert "punched 4 at table T32" in repunched.message
    assert (wrong_count.date, wrong_count.time, wrong_count.dealer) == (
        "2026-11-21", "14:01:00", "D-3202")


def test_parallel_jobs_and_input_order_give_the_same_findings(tables) -> None:
    first, second = tables
    serial = [f.as_dict() for f in audit_paths([first, second], jobs=1).findings]
    parallel = [f.as_dict() for f in audit_paths([first, second], jobs=2).findings]
    assert serial == parallel
    assert len(serial) == 3
    # the later table given first: the cards are still judged in time order
    reversed_order = [f.as_dict() for f in audit_paths([second, first], jobs=2).findings]
    assert sorted(map(str, reversed_order)) == sorted(map(str, serial))


def test_a_card_punched_outside_the_audited_records_is_not_a_finding(tables) -> None:
    _, second = tables
    result = audit_paths([second], jobs=1)
    # PC-7's and PC-9's first hand-ins were punched at T31, which is not audited here
    assert [(f.citation, f.round, f.line) for f in result.findings] == [
        (CARD, "2", _line(SECOND_TABLE, "sit s1 player=P-8")),
        (CARD, "3", _line(SECOND_TABLE, "sit s4 player=P-7 punchcard=PC-7 punches=5")),
    ]


def test_the_two_sample_shifts_together_show_only_their_announced_faults() -> None:
    """PC-7 crosses from T31 to T32 rightly. T32's second shoe has no date, so its rounds
    take the date before them: PC-7's punch there is still the next day, not before T31."""
    from tests.checks.test_sample_logs import announced

    samples = ROOT / "sample_logs"
    paths = [str(samples / "tensticks-t31-2026-11-20.bjh"),
             str(samples / "tensticks-t32-2026-11-21.bjh")]
    expected = {(Path(p).name, *fault) for p in paths for fault in announced(Path(p))}
    for order in (paths, paths[::-1]):
        for jobs in (1, 2):
            found = {(Path(f.file).name, f.citation, f.round, f.line)
                     for f in audit_paths(order, jobs=jobs).findings}
            assert found == expected, (order, jobs)


def test_an_undated_fact_takes_the_date_of_its_file() -> None:
    """A punch in an undated shoe before the file's dated one is not earlier than every
    dated fact: it takes the file's first date (2026-11-22), after the hand-in at T41."""
    from auditor.checks.base import registry
    from auditor.checks.tensticks.punch_card import PunchCardFact

    def fact(kind: str, punches: int, date: str | None, time: str, file: str,
             line: int) -> PunchCardFact:
        return PunchCardFact(kind, "PC-1", punches, "P-1", "s1", date, time, file, line, "1",
                             file.upper(), None)

    check = registry()[CARD]
    facts = [fact("punch", 5, None, "10:00:00", "t40", 20),
             fact("hand-in", 5, "2026-11-22", "11:00:00", "t40", 40),
             fact("hand-in", 4, "2026-11-21", "20:00:00", "t41", 30)]
    assert list(check.audit(facts)) == []  # T41's card was punched outside these records
    facts[0] = fact("punch", 5, "2026-11-20", "10:00:00", "t40", 20)
    # now the punch comes first: T41 hands the card in with 4 punches, not 5, and T40's
    # later hand-in is a second one
    wrong, twice = check.audit(facts)
    assert (wrong.file, wrong.line, twice.file, twice.line) == ("t41", 30, "t40", 40)
    assert "punched 5" in wrong.message and "already been surrendered" in twice.message


def test_a_card_punched_in_a_round_with_an_unreadable_line_is_still_followed(
        tmp_path: Path) -> None:
    """Round 1 of T31 has a line that cannot be read, so its rules are not judged; its
    punches are still recorded statements, and T32's hand-ins are judged against them."""
    damaged = FIRST_TABLE.replace("22:01:15 stand s5h1\n", "22:01:15 stand s5h1\n"
                                  "22:01:16 hit s5h1 ZZ\n")
    first, second = tmp_path / "t31-2026-11-20.bjh", tmp_path / "t32-2026-11-21.bjh"
    first.write_text(damaged, encoding="utf-8")
    second.write_text(SECOND_TABLE, encoding="utf-8")
    result = audit_paths([str(first), str(second)], jobs=1)
    assert _found(result.findings) == [
        ("record:syntax", str(first), "T31", "1", _line(damaged, "hit s5h1 ZZ"), None),
        (CARD, str(second), "T32", "1", _line(SECOND_TABLE, "sit s6 player=P-9"), "s6"),
        (CARD, str(second), "T32", "2", _line(SECOND_TABLE, "sit s1 player=P-8"), "s1"),
        (CARD, str(second), "T32", "3", _line(SECOND_TABLE, "sit s4 player=P-7 punchcard=PC-7 "
                                                            "punches=5"), "s4"),
    ]
    assert "punched 1 at table T31" in result.findings[1].message
