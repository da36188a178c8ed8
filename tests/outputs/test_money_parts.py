"""The parts of auditor/money.py with exact values: an amount's exact text (never rounded),
for people with thousands and its currency, currencies in order (undeclared last), and the
totals under- and over-paid kept apart per currency with their findings, in JSON and words."""

from __future__ import annotations

from decimal import Decimal

from auditor.money import (
    ZERO,
    MoneyTotals,
    currency_label,
    currency_order,
    exact_text,
    grouped_text,
    rows_text,
    signed_text,
    with_currency,
)


def test_an_amounts_exact_text() -> None:
    assert str(ZERO) == "0"
    assert [exact_text(Decimal(text)) for text in (
        "10", "10.5", "0", "-5", "37.575", "25.0500", "1234567.1", "0.001")] == [
        "10.00", "10.50", "0.00", "-5.00", "37.575", "25.05", "1234567.10", "0.001"]
    assert [grouped_text(Decimal(text)) for text in (
        "1234.5", "1234567.125", "999", "0", "-1000")] == [
        "1,234.50", "1,234,567.125", "999.00", "0.00", "-1,000.00"]


def test_an_amount_with_its_currency() -> None:
    assert with_currency(Decimal("50"), "USD") == "50.00 USD"
    assert with_currency(Decimal("1234.5"), None) == "1,234.50 (undeclared)"
    assert with_currency(Decimal("37.575"), "") == "37.575 (undeclared)"
    assert currency_label(None) == "undeclared"
    assert currency_label("CAD") == "CAD"
    assert currency_order(None) == (True, "")
    assert currency_order("USD") == (False, "USD")
    assert sorted(["USD", None, "CAD", "EUR"], key=currency_order) == [
        "CAD", "EUR", "USD", None]


def test_a_findings_difference_in_words() -> None:
    assert signed_text("-10", "USD") == "under-paid 10.00 USD"
    assert signed_text("-0.5", "USD") == "under-paid 0.50 USD"
    assert signed_text("5", None) == "over-paid 5.00 (undeclared)"
    assert signed_text("0.50", "CAD") == "over-paid 0.50 CAD"
    assert signed_text("1234.5", "EUR") == "over-paid 1,234.50 EUR"
    assert signed_text("0", "USD") == "over-paid 0.00 USD"


def totals() -> MoneyTotals:
    money = MoneyTotals()
    money.add("USD", Decimal("-10"))
    money.add("USD", Decimal("5.5"))
    money.add("USD", Decimal("0.50"))  # over-paid, however small
    money.add("USD", Decimal("-0.25"))
    money.add("USD", ZERO)  # no money: not counted
    money.add("USD", None)
    money.add(None, Decimal("-2.25"))
    money.add("CAD", Decimal("1"))
    return money


def test_totals_kept_apart_per_currency() -> None:
    money = totals()
    assert money.amounts == {"USD": [Decimal("10.25"), Decimal("6.00"), 4],
                             None: [Decimal("2.25"), ZERO, 1],
                             "CAD": [ZERO, Decimal("1"), 1]}
    assert bool(money) is True
    assert money.findings == 6
    assert money.currencies() == ["CAD", "USD", None]
    assert (money.under("USD"), money.over("USD")) == (Decimal("10.25"), Decimal("6.00"))
    assert (money.under(None), money.over(None)) == (Decimal("2.25"), ZERO)
    assert (money.under("CAD"), money.over("CAD")) == (ZERO, Decimal("1"))
    assert (money.under("EUR"), money.over("EUR")) == (ZERO, ZERO)
    assert str(money.under("EUR")) == "0" and str(money.over("EUR")) == "0"
    assert money.rows() == [
        {"currency": "CAD", "money_findings": 1, "under_paid": "0.00", "over_paid": "1.00"},
        {"currency": "USD", "money_findings": 4, "under_paid": "10.25", "over_paid": "6.00"},
        {"currency": None, "money_findings": 1, "under_paid": "2.25", "over_paid": "0.00"}]
    assert money.text("under") == "10.25 USD, 2.25 (undeclared)"
    assert money.text("over") == "1.00 CAD, 6.00 USD"
    assert money.text("over", "-") == "1.00 CAD, 6.00 USD"


def test_no_money_is_no_totals() -> None:
    money = MoneyTotals()
    money.add("USD", ZERO)
    money.add("USD", None)
    money.add_totals("USD", ZERO, ZERO, 3)
    assert money.amounts == {}
    assert bool(money) is False
    assert money.findings == 0
    assert money.currencies() == []
    assert money.rows() == []
    assert money.text("under") == "none"
    assert money.text("over", "nothing") == "nothing"


def test_totals_already_counted_are_added() -> None:
    money = totals()
    money.add_totals("USD", Decimal("3"), ZERO, 2)
    money.add_totals("EUR", ZERO, Decimal("4.10"))
    money.add_totals(None, Decimal("1"), Decimal("2"), 3)
    money.add_totals("JPY", Decimal("7"), ZERO, 0)
    assert money.amounts == {"USD": [Decimal("13.25"), Decimal("6.00"), 6],
                             None: [Decimal("3.25"), Decimal("2"), 4],
                             "CAD": [ZERO, Decimal("1"), 1],
                             "EUR": [ZERO, Decimal("4.10"), 0],
                             "JPY": [Decimal("7"), ZERO, 0]}
    assert money.findings == 11
    assert money.text("under") == "7.00 JPY, 13.25 USD, 3.25 (undeclared)"
    assert money.text("over") == "1.00 CAD, 4.10 EUR, 6.00 USD, 2.00 (undeclared)"


def test_per_currency_rows_in_words() -> None:
    rows = [{"currency": "USD", "under_paid": "10.10", "over_paid": "0.00"},
            {"currency": "CAD", "under_paid": "5.00", "over_paid": None},
            {"currency": None, "under_paid": "1234.5"},
            {"currency": "EUR", "under_paid": "0", "over_paid": "0.001"}]
    assert rows_text(rows, "under_paid") == "10.10 USD, 5.00 CAD, 1,234.50 (undeclared)"
    assert rows_text(rows, "over_paid") == "0.001 EUR"
    assert rows_text(rows[:3], "over_paid") == "none"
    assert rows_text(rows[:3], "over_paid", "-") == "-"
    assert rows_text([], "under_paid") == "none"
