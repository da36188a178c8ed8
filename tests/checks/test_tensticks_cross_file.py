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
from tests.helpers.punch_cards import FIRST_TABLE, SECOND_TABLE

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
    from tests.helpers.sample_faults import announced

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
