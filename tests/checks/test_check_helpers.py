"""Helpers of the checks that the rule cases reach only in part."""

from __future__ import annotations

from pathlib import Path

from auditor.audit import audit_file
from auditor.checks.base import citation_sort_key
from auditor.checks.record import UnsettledCheck


def test_citations_sort_as_the_regulation_numbers_them() -> None:
    citations = ["record:syntax", "20:18:15:30.10(12)", "20:18:15:30.02(¶11)",
                 "20:18:15:30.10(2)", "20:18:15:06", "20:18:15:30.02(6)", "20:18:15:30",
                 "record:approval", "20:18:15:24", "20:18:15:30.02(¶10)"]
    assert sorted(citations, key=citation_sort_key) == [
        "20:18:15:06", "20:18:15:24", "20:18:15:30", "20:18:15:30.02(6)",
        "20:18:15:30.02(¶10)", "20:18:15:30.02(¶11)", "20:18:15:30.10(2)",
        "20:18:15:30.10(12)", "record:approval", "record:syntax"]


def test_a_citation_of_no_known_shape_sorts_after_the_regulation_and_its_records() -> None:
    """A citation named by hand (a waiver's, a selection's) never breaks the order."""
    assert citation_sort_key("20:18:15") == (2, "20:18:15")
    assert citation_sort_key("ladies") == (2, "ladies")
    assert sorted(["ladies", "record:syntax", "20:18:15:06"], key=citation_sort_key) == [
        "20:18:15:06", "record:syntax", "ladies"]


def test_a_checks_reading_is_its_docstrings_reading_section_as_one_paragraph() -> None:
    """The report prints a check's reading beside its findings: the `Reading:` section of
    the docstring, not another section, its line breaks made spaces."""
    assert UnsettledCheck.doc_section("Violating") == (
        "`bet s2h1 main 25` and no `settle s2h1 main …` before `end`.")
    assert UnsettledCheck.reading() == (
        "Every wager, tips and side wagers included, is settled exactly once. A round that "
        "was not closed by `end` is judged at its last statement.")


def test_a_round_with_no_stamped_line_ends_at_its_start_time(tmp_path: Path) -> None:
    """A finding's `round_ended` (the incident's time span) falls back on the round's
    `time=` when none of its lines is stamped."""
    path = tmp_path / "round.bjh"
    path.write_text("bjh 1\ncasino \"Case Casino\" licence=RL-0001\n"
                    "table T01 game=standard decks=6 min=10 max=500\n"
                    "shoe S1 date=2026-11-20\nshuffle\ncut\nround 1 time=20:01:00\n"
                    "bet s1h1 main 20\ndeal s1h1 9h\ndeal dealer Tc\ndeal s1h1 8d\n"
                    "deal dealer 7s\npeek\nstand s1h1\nreveal\nsettle s1h1 main win 20\n"
                    "end\n", encoding="utf-8")
    assert [(f.citation, f.line, f.hand, f.round_ended)
            for f in audit_file(str(path)).findings] == [
        ("20:18:15:06", 16, "s1h1", "20:01:00")]
