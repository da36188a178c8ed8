"""`auditor rules`: every citation with what checks it, and one rule's documentation."""

from __future__ import annotations

from auditor.cli import main
from auditor.rule_coverage import coverage_rows
from auditor.rules_cli import markdown_table
from tests.helpers import ROOT


def test_rules_lists_every_citation_with_its_status(capsys) -> None:
    assert main(["rules", "--markdown"]) == 0
    printed = capsys.readouterr().out
    for row in coverage_rows():
        assert f"| {row['citation']} |" in printed
    row = "| 20:18:15:30.10(4) | DB21 wagers before the first card | `db21.past_posting` | high |"
    assert row in printed
    assert "| 20:18:15:30.10(1) | The DB21 table layout | not checkable: " in printed


def test_rules_show_prints_the_documentation(capsys) -> None:
    assert main(["rules", "show", "20:18:15:30.10(4)"]) == 0
    printed = capsys.readouterr().out
    assert "All DB21wagers shall be made prior to the first card" in printed
    assert "Checked by db21.past_posting" in printed
    for section in ("Regulation:", "Violating:", "Compliant:", "Reading:"):
        assert section in printed


def test_rules_show_of_a_subsection_no_record_can_show(capsys) -> None:
    assert main(["rules", "show", "20:18:15:30.10(3)"]) == 0
    assert "Not checkable from a hand record" in capsys.readouterr().out


def test_rules_show_of_an_unknown_citation_exits_2(capsys) -> None:
    assert main(["rules", "show", "20:18:15:99"]) == 2


def test_the_rule_base_page_shows_the_rule_base_as_generated() -> None:

    page = ROOT / "docs" / "rule-base.md"
    assert markdown_table() in page.read_text(encoding="utf-8"), "regenerate: make readme"


def test_rules_show_takes_the_short_forms_of_a_citation(capsys) -> None:
    for typed, citation in (("30.10(4)", "20:18:15:30.10(4)"),
                            ("30.02(11)", "20:18:15:30.02(¶11)"),
                            ("20:18:15:30.02(11)", "20:18:15:30.02(¶11)"),
                            ("06", "20:18:15:06")):
        assert main(["rules", "show", typed]) == 0
        assert capsys.readouterr().out.startswith(citation + "  ")


def test_rules_show_without_a_citation_prints_its_usage(capsys) -> None:
    assert main(["rules", "show"]) == 2
    printed = capsys.readouterr()
    assert printed.out == ""
    assert printed.err.startswith("usage: auditor rules show CITATION")
    assert "None" not in printed.err
    assert main(["rules", "show", "99.99"]) == 2
    assert "auditor: no rule 99.99;" in capsys.readouterr().err
