"""Money and dates in `trends`, exactly: each currency summed apart (a declared USD, a
declared EUR, an undeclared one), a fraction of a cent kept, a waived finding and a
finding compared with a baseline counted as the runs' findings.json give them; gaming days
that cross midnight on a leap day and at the year's end. The figures are the sums of the
runs' own findings."""

from __future__ import annotations

import json
from collections import defaultdict
from decimal import Decimal

from auditor.cli import main
from tests.helpers.audits import audit


def _header(table: str, currency: str | None, day: str) -> str:
    declared = f" currency={currency}" if currency else ""
    return (f'bjh 1\ncasino "Test" licence=RL-9\ntable {table} game=standard decks=6 '
            f"min=5 max=500{declared}\nshoe A date={day}\nshuffle\ncut\n")


def _round(number: int, time: str, paid: str, *, dealer: str = "D1", date: str = "",
           wager: str = "10", first: str = "9h") -> str:
    """A round the player wins (19, or a natural with `first` an ace, against the dealer's
    17), paid `paid`."""
    dated = f" date={date}" if date else ""
    return f"""round {number}{dated} time={time} dealer={dealer}
sit s1 player=P{number}
bet s1h1 main {wager}
deal s1h1 {first}
deal dealer 7c
deal s1h1 Kd
deal dealer Ts
stand s1h1
reveal
settle s1h1 main win {paid}
leave s1
end
"""


LEAP_DAY, NEW_YEARS_EVE = "2028-02-29", "2028-12-31"
NIGHTS = {
    LEAP_DAY: {
        "T1": _header("T1", "USD", LEAP_DAY) + _round(1, "22:00:00", "10")
        + _round(2, "23:00:00", "15")  # 5.00 over
        + _round(3, "23:30:00", "15", wager="10.01", first="Ah")  # 15.015 owed: 0.015 under
        + _round(4, "00:30:00", "9.99", date="2028-03-01") + "close\n",  # after midnight
        "T2": _header("T2", "EUR", LEAP_DAY) + _round(1, "22:00:00", "20", dealer="D2")
        + _round(2, "22:10:00", "10", dealer="D2") + "close\n",
        "T3": _header("T3", None, LEAP_DAY) + _round(1, "21:00:00", "12.50")
        + _round(2, "21:10:00", "10") + "close\n",
    },
    NEW_YEARS_EVE: {
        "T1": _header("T1", "USD", NEW_YEARS_EVE) + _round(1, "23:50:00", "15")
        + _round(2, "01:00:00", "5", date="2029-01-01") + "close\n",  # the next year
        "T2": _header("T2", "EUR", NEW_YEARS_EVE) + _round(1, "22:00:00", "20", dealer="D2")
        + "close\n",
    },
}
WAIVER = """[[waiver]]
table = "T2"
citation = "20:18:15:06"
justification = "a test: T2's over-payments accepted"
approved_by = "the tests"
expires = 2099-12-31
"""


def _sums(findings: list[dict]) -> dict:
    """Under- and over-paid by currency, and the findings with money, from findings.json."""
    sums: dict = defaultdict(lambda: [0, Decimal(0), Decimal(0)])
    for finding in findings:
        difference = Decimal(finding["difference"]) if finding.get("difference") else None
        if difference:
            row = sums[finding.get("currency")]
            row[0] += 1
            row[1 if difference < 0 else 2] += abs(difference)
    return {currency: (count, _text(under), _text(over))
            for currency, (count, under, over) in sums.items()}


def _text(amount: Decimal) -> str:
    """At least to the cent, and to the fraction of a cent where there is one."""
    cents = amount.quantize(Decimal("0.01"))
    return str(cents if cents == amount else amount)


def _money(rows: list[dict]) -> dict:
    return {row["currency"]: (row["money_findings"], row["under_paid"], row["over_paid"])
            for row in rows}


def test_money_by_currency_and_nights_across_a_leap_day_and_a_year_end(tmp_path,
                                                                       store_url) -> None:
    (tmp_path / "waivers.toml").write_text(WAIVER, encoding="utf-8")
    found = []
    for night, tables in NIGHTS.items():
        folder = tmp_path / night
        folder.mkdir()
        for table, text in tables.items():
            (folder / f"{table}.bjh").write_text(text, encoding="utf-8")
        more = ["--waivers", str(tmp_path / "waivers.toml"), "--baseline", "last"]
        assert audit(folder, out=tmp_path / f"out-{night}", store=store_url, more=more) == 1
        document = json.loads((tmp_path / f"out-{night}" / "findings.json").read_text())
        found += document["findings"]
    assert sorted((f["table"], f["gaming_day"], f.get("difference"),
                   (f.get("waiver") or {}).get("index"), f.get("baseline"))
                  for f in found) == [
        ("T1", LEAP_DAY, "-0.01", None, "new"), ("T1", LEAP_DAY, "-0.015", None, "new"),
        ("T1", LEAP_DAY, "5.00", None, "new"),
        ("T1", NEW_YEARS_EVE, "-5.00", None, "new"), ("T1", NEW_YEARS_EVE, "5.00", None, "new"),
        ("T2", LEAP_DAY, "10.00", 1, "new"), ("T2", NEW_YEARS_EVE, "10.00", 1, "new"),
        ("T3", LEAP_DAY, "2.50", None, "new")]
    out = tmp_path / "trends"
    assert main(["trends", "--store", store_url, "--out", str(out), "--quiet"]) == 0
    trends = json.loads((out / "trends.json").read_text(encoding="utf-8"))
    rates = trends["rates"]
    assert _money(rates["floor"]["money"]) == _sums(found) == {
        "USD": (5, "5.025", "10.00"), "EUR": (2, "0.00", "20.00"), None: (1, "0.00", "2.50")}
    assert (trends["trends"]["rounds"], trends["trends"]["findings"]) == (11, 8)
    assert [(row["key"], row["rounds"], row["findings"]) for row in rates["day"]] == [
        (LEAP_DAY, 8, 5), (NEW_YEARS_EVE, 3, 3)]
    assert {row["key"]: _money(row["money"]) for row in rates["dealer"]} == {
        "D1": {"USD": (5, "5.025", "10.00"), None: (1, "0.00", "2.50")},
        "D2": {"EUR": (2, "0.00", "20.00")}}
    # a window of one night: that night's findings alone
    assert main(["trends", "--store", store_url, "--since", NEW_YEARS_EVE, "--out",
                 str(tmp_path / "eve"), "--quiet"]) == 0
    eve = json.loads((tmp_path / "eve" / "trends.json").read_text(encoding="utf-8"))
    assert _money(eve["rates"]["floor"]["money"]) == _sums(
        [f for f in found if f["gaming_day"] == NEW_YEARS_EVE]) == {
        "USD": (2, "5.00", "5.00"), "EUR": (1, "0.00", "10.00")}
