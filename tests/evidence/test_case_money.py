"""The money a case prints equals the sum of its findings' differences, each currency on its
own: a night in four currencies and none, amounts of three decimals (a 3:2 blackjack on
25.05 owes 37.575), findings with no amount and a waived finding (still a finding of the
case, its money still counted). The expected sums are made here from the case's own
findings.json, not by the code that prints them."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

from auditor.cli import main
from tests.helpers.currencies import four_currency_night
from tests.helpers.gaming_day_records import record

WAIVERS = """\
[[waiver]]
citation = "20:18:15:06"
table = "T99"
justification = "accepted"
approved_by = "R. Roe"
expires = 2099-01-31
"""


def _rows(html: str, heading: str) -> list[list[str]]:
    """The body rows (cell texts) of the table that follows the heading `heading`."""
    start = html.index(f"<h2>{heading}")
    table = html[html.index("<table>", start):html.index("</table>", start)]
    return [[re.sub(r"<[^>]+>", " ", cell).split() for cell in
             re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)][1:]


def _amount(text: str) -> Decimal:
    return Decimal(text.replace(",", ""))


def test_every_total_is_the_sum_of_its_findings(tmp_path: Path) -> None:
    night = four_currency_night(tmp_path / "records")
    odd = record([("2026-11-20", "21:00"), ("2026-11-20", "22:00")])
    odd = (odd.replace("table T11 ", "table T99 ").replace("main 20\n", "main 25.05\n")
           .replace("main win 20\n", "main win 25.05\n"))
    (night / "odd-cents.bjh").write_text(odd, encoding="utf-8")
    (tmp_path / "waivers.toml").write_text(WAIVERS, encoding="utf-8")
    run, case = tmp_path / "run", tmp_path / "case"
    assert main(["audit", str(night), "--out", str(run), "--quiet", "--waivers",
                 str(tmp_path / "waivers.toml"), "--store", str(tmp_path / "h.sqlite")]) == 1
    assert main(["case", str(run), "--licensee", "RL-0412", "--out", str(case)]) == 0
    findings = json.loads((case / "findings.json").read_text(encoding="utf-8"))["findings"]
    # currency -> [findings, with money, under-paid, over-paid]; and by citation
    by_currency: dict[str, list] = defaultdict(lambda: [0, 0, Decimal(0), Decimal(0)])
    by_citation: dict[str, dict[str, list]] = defaultdict(
        lambda: defaultdict(lambda: [0, 0, Decimal(0), Decimal(0)]))
    for finding in findings:
        currency = finding["currency"] or "undeclared"
        for totals in (by_currency[currency], by_citation[finding["citation"]][currency]):
            totals[0] += 1
            if finding["difference"] is not None:
                difference = Decimal(finding["difference"])
                totals[1] += 1
                totals[2 if difference < 0 else 3] += abs(difference)
    # what the night must hold for this test to mean anything
    assert {"CAD", "EUR", "MXN", "USD", "undeclared"} <= set(by_currency)
    assert any(f["difference"] is None for f in findings)
    assert [f["difference"] for f in findings if f["table"] == "T99"] == ["-12.525"] * 2
    assert [bool(f["waiver"]) for f in findings if f["table"] == "T99"] == [True, True]
    html = (case / "case.html").read_text(encoding="utf-8")
    printed = {cells[0][0]: [int(cells[1][0]), int(cells[2][0]), _amount(cells[3][0]),
                             _amount(cells[4][0])]
               for cells in _rows(html, "Totals per currency")}
    assert printed == dict(by_currency)
    # the currencies in order, the findings of tables that declare none after them
    assert list(printed) == ["CAD", "EUR", "MXN", "USD", "undeclared"]
    for cells in _rows(html, "Totals per citation"):
        expected = by_citation[cells[0][0]]
        assert int(cells[-3][0]) == sum(t[0] for t in expected.values())
        with_money = {c: t for c, t in expected.items() if t[1]}
        # "U CUR" per currency with money, under-paid then over-paid
        assert dict(zip(cells[-2][1::2], map(_amount, cells[-2][0::2]), strict=True)) == {
            c: t[2] for c, t in with_money.items()}
        assert dict(zip(cells[-1][1::2], map(_amount, cells[-1][0::2]), strict=True)) == {
            c: t[3] for c, t in with_money.items()}
    assert {cells[0][0] for cells in _rows(html, "Totals per citation")} == set(by_citation)


def test_a_waived_finding_is_said_waived_on_page_one_and_in_the_index(tmp_path: Path) -> None:
    """Two findings waived: page 1 counts them and the index marks them, so whoever reads
    the totals knows some of that money was accepted under a waiver."""
    records = tmp_path / "records"
    records.mkdir()
    night = record([("2026-11-20", "21:00"), ("2026-11-20", "22:00")])
    (records / "night.bjh").write_text(night.replace("table T11 ", "table T99 "),
                                       encoding="utf-8")
    (tmp_path / "waivers.toml").write_text(WAIVERS, encoding="utf-8")
    run, case = tmp_path / "run", tmp_path / "case"
    assert main(["audit", str(records), "--out", str(run), "--quiet", "--waivers",
                 str(tmp_path / "waivers.toml"), "--store", str(tmp_path / "h.sqlite")]) == 0
    assert main(["case", str(run), "--licensee", "RL-0412", "--out", str(case)]) == 0
    html = (case / "case.html").read_text(encoding="utf-8")
    findings = re.search(r"<tr><th>Findings</th><td>(.*?)</td>", html, re.S).group(1)
    assert " ".join(re.sub(r"<[^>]+>", " ", findings).split()) == (
        "2 in scope: 2 of the regulation (20:18:15), 0 of the record's format (citations "
        "record: …); 2 waived (each exhibit names its waiver; the totals count them)")
    index = html[html.index('<table class="index">'):]
    index = index[:index.index("</table>")]
    assert [" ".join(re.sub(r"<[^>]+>", " ", cell).split())
            for cell in re.findall(r'<td class="severity-[^"]*">(.*?)</td>', index)] == [
        "high, waived", "high, waived"]
