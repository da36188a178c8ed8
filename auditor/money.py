"""Money in its currency: amounts as exact text, and totals kept apart per currency.

Every amount of a record is in its table's currency (`table … currency=CODE`); a table that
declares none is "undeclared", kept apart like a currency of its own. Two currencies are
never added: a total is a list of amounts, one per currency. Code None stands for
undeclared everywhere (null in JSON, an empty cell in CSV, "undeclared" in words).
"""

from __future__ import annotations

from decimal import Decimal

CENT = Decimal("0.01")
ZERO = Decimal(0)
UNDECLARED = "undeclared"


def exact_text(amount: Decimal) -> str:
    """Exact decimal text: two decimals, as amounts are written, unless a computed amount
    (a blackjack at 3 to 2 on 25.05) has more; never rounded."""
    cents = amount.quantize(CENT)
    return str(cents if cents == amount else amount)


def grouped_text(amount: Decimal) -> str:
    """`exact_text` with thousands separators, for people ("1,234.50")."""
    cents = amount.quantize(CENT)
    return f"{cents if cents == amount else amount:,f}"


def currency_label(currency: str | None) -> str:
    return currency or UNDECLARED


def with_currency(amount: Decimal, currency: str | None) -> str:
    """An amount for people, with its currency: "50.00 USD", "50.00 (undeclared)"."""
    return f"{grouped_text(amount)} {currency if currency else '(' + UNDECLARED + ')'}"


def currency_order(currency: str | None) -> tuple[bool, str]:
    """Declared codes alphabetically, undeclared last."""
    return (currency is None, currency or "")


class MoneyTotals:
    """What players were under-paid and over-paid, per currency, and in how many findings."""

    __slots__ = ("amounts",)

    def __init__(self) -> None:
        self.amounts: dict[str | None, list] = {}  # currency -> [under, over, findings]

    def add(self, currency: str | None, difference: Decimal | None) -> None:
        if not difference:
            return
        entry = self.amounts.get(currency)
        if entry is None:
            entry = self.amounts[currency] = [ZERO, ZERO, 0]
        if difference < 0:
            entry[0] -= difference
        else:
            entry[1] += difference
        entry[2] += 1

    def add_totals(self, currency: str | None, under: Decimal, over: Decimal,
                   findings: int = 0) -> None:
        """Totals already counted (a summary row of one currency); none of money: nothing."""
        if not under and not over:
            return
        entry = self.amounts.get(currency)
        if entry is None:
            entry = self.amounts[currency] = [ZERO, ZERO, 0]
        entry[0] += under
        entry[1] += over
        entry[2] += findings

    def __bool__(self) -> bool:
        return bool(self.amounts)

    @property
    def findings(self) -> int:
        """The findings with money, in every currency (a count may be added up)."""
        return sum(entry[2] for entry in self.amounts.values())

    def currencies(self) -> list[str | None]:
        return sorted(self.amounts, key=currency_order)

    def under(self, currency: str | None) -> Decimal:
        return self.amounts.get(currency, (ZERO,))[0]

    def over(self, currency: str | None) -> Decimal:
        entry = self.amounts.get(currency)
        return entry[1] if entry else ZERO

    def rows(self) -> list[dict]:
        """The JSON form: one object per currency, exact text, with the findings that
        involve money (`money_findings`)."""
        return [{"currency": c, "money_findings": self.amounts[c][2],
                 "under_paid": exact_text(self.amounts[c][0]),
                 "over_paid": exact_text(self.amounts[c][1])} for c in self.currencies()]

    def text(self, kind: str, empty: str = "none") -> str:
        """Under- or over-paid (`kind` "under" or "over") in words, each currency apart:
        "50.00 USD, 12.50 CAD"; `empty` when nothing."""
        place = 0 if kind == "under" else 1
        parts = [with_currency(self.amounts[c][place], c) for c in self.currencies()
                 if self.amounts[c][place]]
        return ", ".join(parts) or empty


def rows_text(rows: list[dict], kind: str, empty: str = "none") -> str:
    """Money of per-currency rows (`MoneyTotals.rows`, trends.json) in words, each
    currency apart: "10.10 USD, 5.00 CAD"; `empty` when none."""
    parts = [with_currency(Decimal(row[kind]), row["currency"]) for row in rows
             if row.get(kind) is not None and Decimal(row[kind])]
    return ", ".join(parts) or empty


def signed_text(difference: str, currency: str | None) -> str:
    """A finding's difference in words: "under-paid 10.00 USD", "over-paid 5.00 CAD"."""
    amount = Decimal(difference)
    kind = "under-paid" if amount < 0 else "over-paid"
    return f"{kind} {with_currency(abs(amount), currency)}"
