"""A filtered report.html shows only its scope, in real Chromium: every count and sum on
screen and in print is of the findings shown, each amount in its currency, and a filtered
print names no other licensee, table, dealer or input (read back from the PDF's text)."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from decimal import Decimal
from pathlib import Path

import pytest

from auditor.cli import main
from tests.helpers.browser import ARTIFACTS, Page, expect, pdf_pages, set_filter
from tests.helpers.currencies import four_currency_night

SHOWN_TABLE = "RL-0417/BJS-5"  # Black Hills Grand's switch table, in CAD


def money_text(findings: list[dict], kind: str) -> str:
    """What the page should say: each currency apart, declared codes first."""
    totals: dict[str | None, Decimal] = defaultdict(Decimal)
    for f in findings:
        difference = Decimal(f["difference"]) if f["difference"] else Decimal(0)
        if (kind == "under" and difference < 0) or (kind == "over" and difference > 0):
            totals[f["currency"]] += abs(difference)
    order = sorted(totals, key=lambda c: (c is None, c or ""))
    return ", ".join(f"{totals[c]:,.2f} {c or '(undeclared)'}" for c in order) or "none"


@pytest.fixture(scope="module")
def night_report(tmp_path_factory) -> dict:
    folder = four_currency_night(tmp_path_factory.mktemp("night") / "in")
    out = tmp_path_factory.mktemp("report")
    assert main(["audit", str(folder), "--out", str(out), "--quiet", "--jobs", "1"]) == 1
    document = json.loads((out / "findings.json").read_text(encoding="utf-8"))
    return {"path": out / "report.html", "findings": document["findings"],
            "inputs": document["inputs"]}


def words(page, selector: str) -> str:
    return " ".join(page.locator(selector).inner_text().split())


def test_every_number_of_a_filtered_view_is_of_the_findings_shown(browser, night_report
                                                                  ) -> None:
    opened = Page(browser, night_report["path"])
    page = opened.page
    findings = night_report["findings"]
    set_filter(page, "table", SHOWN_TABLE)
    expect(page.locator("#filter-status")).to_contain_text("filtered")
    shown = [f for f in findings if f["table_key"] == SHOWN_TABLE]
    assert len(shown) == 7
    # Each citation's header: its findings shown, of its whole, and their money only. The
    # issue's case: 20:18:15:30.09(13) holds 5.00 USD at BJS-2 and 50.00 CAD here.
    by_citation = defaultdict(list)
    for f in shown:
        by_citation[f["citation"]].append(f)
    everywhere = Counter(f["citation"] for f in findings)
    headers = page.eval_on_selector_all(
        "details.group:not([hidden]) > summary", "ss => ss.map(s => [s.querySelector('.g-cite')"
        ".textContent, s.querySelector('.g-count').textContent, "
        "s.querySelector('.g-money').textContent])")
    assert {cite for cite, _, _ in headers} == set(by_citation)
    for citation, count, money in headers:
        mine = by_citation[citation]
        total = everywhere[citation]
        assert count == f"{len(mine)} of {total} finding{'s' if total > 1 else ''}"
        under, over = money_text(mine, "under"), money_text(mine, "over")
        expected = " · ".join(part for part in (
            f"under-paid {under}" if under != "none" else "",
            f"over-paid {over}" if over != "none" else "") if part)
        assert money == expected, citation
    assert ["20:18:15:30.09(13)", "1 of 2 findings", "over-paid 50.00 CAD"] in headers
    # The summary's figures.
    severities = Counter(f["severity"] for f in shown)
    rounds = {(f["file"], f["round"]) for f in shown if f["round"]}
    verdict = words(page, "#summary .verdict")
    assert f"{len(shown)} findings in {len(rounds)} rounds." in verdict
    assert (f"{severities['high']} high, {severities['medium']} medium, "
            f"{severities['low']} low severity.") in verdict
    settled = sum(1 for f in shown if f["difference"] and Decimal(f["difference"]))
    assert (f"Players were under-paid {money_text(shown, 'under')} and over-paid "
            f"{money_text(shown, 'over')} in {settled} wrong settlements.") in verdict
    assert "under-paid 5.00 CAD and over-paid 55.00 CAD" in verdict
    assert words(page, "[data-figure=under].money-under") == "5.00 CAD"
    assert words(page, "[data-figure=over].money-over") == "55.00 CAD"
    assert words(page, "dd[data-figure=count]") == "7"
    # The summary tables count the findings shown, each currency apart.
    rows = page.eval_on_selector_all(
        "table.summary[data-dimension=citation] tbody tr", "rs => rs.map(r => "
        "Array.from(r.querySelectorAll('th, td.num')).map(c => c.textContent))")
    assert {row[0]: row[1:] for row in rows} == {
        citation: [str(len(mine)), *(str(sum(f["severity"] == s for f in mine) or "")
                                     for s in ("high", "medium", "low")),
                   money_text(mine, "under").replace("none", ""),
                   money_text(mine, "over").replace("none", "")]
        for citation, mine in by_citation.items()}
    # The scope: one licensee, one table, its dealers and its input.
    bjs5 = next(i for i in night_report["inputs"] if i["table_key"] == SHOWN_TABLE)
    assert words(page, "header.masthead .licensee") == (
        "Black Hills Grand, licence RL-0417 (1 table)")
    assert words(page, "header.masthead [data-scope=subtitle]") == (
        f"1 file · table {SHOWN_TABLE} · {bjs5['first_date']}")
    identity = page.locator("table.identity tbody tr:visible").all_inner_texts()
    assert len(identity) == 1 and identity[0].startswith("BJS-5") and "CAD" in identity[0]
    dealers = page.eval_on_selector_all(".dealers .idlist span:not([hidden])",
                                        "ss => ss.map(s => s.textContent)")
    assert sorted(dealers) == sorted(bjs5["dealers"])
    assert words(page, "dd[data-scope=rounds]") == f"{bjs5['rounds']:,}"
    assert words(page, "dd[data-scope=currencies]") == "CAD"
    inputs = page.locator("table.inputs tbody tr:visible").all_inner_texts()
    assert len(inputs) == 1 and "switch-bjs5-late.bjh" in inputs[0]
    # Coverage: the rounds of this input each check judged; its findings shown.
    coverage = dict(page.eval_on_selector_all(
        "#coverage tr[data-games]", "rs => rs.map(r => [r.dataset.citation, "
        "[r.dataset.games, r.querySelector('.cv-rounds').textContent, "
        "r.querySelector('.cv-findings').textContent]])"))
    for citation, (games, judged, found) in coverage.items():
        applies = "switch" in games.split()
        assert judged == (f"{bjs5['rounds_audited']:,}" if applies else "0"), citation
        assert found == (str(len(by_citation[citation])) if citation in by_citation else "")
    assert page.title() == f"Blackjack compliance audit — {SHOWN_TABLE} (filtered)"
    # Cleared: the whole audit again.
    page.click("#filters button[type=reset]")
    expect(page.locator("#filter-status")).to_have_text(f"Showing all {len(findings)} findings")
    assert "Deadwood Example Casino" in words(page, "header.masthead .licensee")
    assert page.locator("table.inputs tbody tr:visible").count() == 8
    assert ["20:18:15:30.09(13)", "2 findings", "over-paid 50.00 CAD, 5.00 USD"] in \
        page.eval_on_selector_all("details.group > summary", "ss => ss.map(s => ["
                                  "s.querySelector('.g-cite').textContent, s.querySelector("
                                  "'.g-count').textContent, s.querySelector('.g-money')"
                                  ".textContent])")
    opened.close()


def test_a_filtered_print_names_no_other_licensee_table_dealer_or_input(browser, night_report
                                                                       ) -> None:
    opened = Page(browser, night_report["path"], width=720)
    page = opened.page
    set_filter(page, "table", SHOWN_TABLE)
    expect(page.locator("#filter-status")).to_contain_text("filtered")
    ARTIFACTS.mkdir(exist_ok=True)
    text = "\n".join(pdf_pages(page, ARTIFACTS / "report-one-table.pdf"))
    flat = " ".join(text.split())
    inputs = night_report["inputs"]
    bjs5 = next(i for i in inputs if i["table_key"] == SHOWN_TABLE)
    assert "Black Hills Grand" in flat and "switch-bjs5-late.bjh" in flat
    assert "Deadwood Example Casino" not in flat and "RL-0412" not in flat
    for other in inputs:
        if other is bjs5:
            continue
        assert Path(other["path"]).name not in flat
        assert not re.search(rf"\b{re.escape(other['table'])}\b", flat), other["table"]
        for dealer in set(other["dealers"]) - set(bjs5["dealers"]):
            assert dealer not in flat, dealer
    for currency in ("USD", "EUR", "MXN", "(undeclared)"):
        assert currency not in flat, currency
    assert "over-paid 55.00 CAD" in flat
    opened.close()
