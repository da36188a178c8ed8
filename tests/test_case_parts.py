"""The parts of `auditor case` one at a time, with exact values: the basis a finding rests
on, the replayed table's words, the money totals, the printed PDF's check, the scope's
dates. The whole case is made and read in tests/test_case*.py; these hold the branches a
whole case seldom reaches (issue 45: mutants of the case code that no test saw)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from markupsafe import Markup

from auditor.case.basis import Basis, basis_of
from auditor.case.model import MoneyTotal, _table_words
from auditor.case.render import _whole_pdf, money, visible
from auditor.findings import Finding
from auditor.rulebase import rule_entries


def finding(**fields) -> Finding:
    base = {"citation": "20:18:15:06", "rule": "standard.main_payout", "severity": "high",
            "file": "t.bjh", "line": 10, "round": "1", "message": "m"}
    return Finding(**{**base, **fields})


def test_the_rule_base_s_note_beyond_not_on_file_is_the_basis_note() -> None:
    entry = rule_entries()["20:18:15:23"]
    basis = basis_of("20:18:15:23", entry)
    assert (basis.title, basis.on_file, basis.record) == ("Insurance wagers", False, False)
    assert basis.note == ('20:18:19:01 requires the layout to show "Insurance pays 2 to 1".')
    assert basis.reading_alone is True
    # Words on file have no such note, even when they read alike.
    quoted = Basis("x", "x", basis.words, True, "", False)
    assert quoted.note == ""


def test_a_citation_the_rule_base_does_not_hold_has_a_basis_that_says_so() -> None:
    basis = basis_of("record:syntax", None)
    assert basis == Basis("record:syntax", "record:syntax", "(not in the rule base)", False,
                          basis.reading, True)
    assert (basis.note, basis.reading_alone) == ("", False)
    unknown = basis_of("20:18:15:99", None)
    assert (unknown.title, unknown.words, unknown.record, unknown.reading_alone) == (
        "20:18:15:99", "(not in the rule base)", False, True)


def test_money_totals_count_under_and_over_payments_apart() -> None:
    total = MoneyTotal("USD")
    for difference in (Decimal("-10.00"), Decimal("2.50"), None, Decimal("0"),
                       Decimal("-0.50")):
        total.add(finding(difference=difference))
    assert (total.findings, total.with_money, total.under_paid, total.over_paid) == (
        5, 4, Decimal("10.50"), Decimal("2.50"))


def test_the_replayed_table_in_words() -> None:
    step = {
        "dealer": {"cards": ["Th", "6c"], "total": 16, "revealed": True},
        "hands": [
            {"hand": "s1h1", "cards": ["Ah", "6d"], "total": 17, "soft": True,
             "status": "stood"},
            {"hand": "s2h1", "cards": ["5h", "6d", "9c"], "total": 20, "soft": False,
             "status": "doubled", "doubled": "20"},
            {"hand": "s3h1", "cards": ["9h", "9d"], "total": 18, "soft": False,
             "status": "", "doubled": None},
        ],
        "wagers": [
            {"target": "s1h1", "kind": "main", "amount": "10", "tip": False,
             "settled": "win 10"},
            {"target": "s2h1", "kind": "main", "amount": "5", "tip": True, "settled": None},
        ],
    }
    assert _table_words(step) == {
        "dealer": "Th 6c (16)",
        "hands": ["s1h1: Ah 6d (17 soft, stood)", "s2h1: 5h 6d 9c (20, doubled 20)",
                  "s3h1: 9h 9d (18)"],
        "wagers": ["s1h1 main 10 — settled win 10", "s2h1 main 5 (tip) — open"],
    }
    assert _table_words({"dealer": {"cards": None}}) == {
        "dealer": "no card, hole card not revealed", "hands": [], "wagers": []}


def test_money_and_visible_text_as_the_case_prints_them() -> None:
    assert money(None) == "—"
    assert money(Decimal("1234.5")) == "1,234.50"
    assert visible("pays \u202eevil") == "pays \\u202eevil"
    assert visible("tab\tline\n") == "tab\tline\n"
    assert visible(25) == 25
    marked = Markup("<b>\u202e</b>")
    assert visible(marked) is marked  # the page's own markup, not a record's text


def test_a_pdf_is_whole_when_it_begins_as_one_and_its_end_marker_is_in_its_last_kb(
        tmp_path: Path) -> None:
    pdf = tmp_path / "case.pdf"
    # the end marker at the very first byte of the last 1024
    pdf.write_bytes(b"%PDF-1.7\n" + b"x" * 3000 + b"%%EOF" + b"\n" * 1019)
    assert _whole_pdf(pdf) is True
    pdf.write_bytes(b"%PDF-1.7\n" + b"x" * 3000 + b"%%EOF" + b"\n" * 1020)  # one byte before
    assert _whole_pdf(pdf) is False
    pdf.write_bytes(b"%PDF-1.7\n%%EOF")
    assert _whole_pdf(pdf) is True
    pdf.write_bytes(b"%PDF")
    assert _whole_pdf(pdf) is False
    pdf.write_bytes(b"<html>%%EOF")
    assert _whole_pdf(pdf) is False
    assert _whole_pdf(tmp_path / "missing.pdf") is False
