"""Helpers of the checks that the rule cases reach only in part."""

from __future__ import annotations

from auditor.checks.base import citation_sort_key


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
