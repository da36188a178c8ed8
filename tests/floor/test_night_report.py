"""From a flag to its evidence (issue 26), in real Chromium: three simulated nights into one
store, a careless dealer planted on nights 2 and 3, each night audited with its own --out;
`auditor trends` flags the dealer, and the flag's link for each night opens that night's
report filtered to exactly that dealer's findings of that night, the filters in the page's
address. The report's filters by gaming day and shift, and its address kept up to date."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from auditor.cli import main
from tests.helpers.browser import Page, expect, visible_findings
from tests.helpers.midnight_records import NIGHT

CARELESS = "D-1003"
NIGHTS = ("2026-11-20", "2026-11-21", "2026-11-22")


@pytest.fixture(scope="module")
def floor(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("floor")
    store = str(folder / "history.sqlite")
    reports = []
    for number, day in enumerate(NIGHTS, start=1):
        records = folder / "records" / f"night{number}"
        arguments = ["simulate", "--game", "standard", "--tables", "3", "--rounds", "60",
                     "--faults", "0.01", "--seed", f"night-report-{number}", "--date", day,
                     "--out", str(records), "--quiet", "--roster"]
        if number > 1:  # every round of the dealer's gets a planted fault
            arguments += ["--careless", f"{CARELESS}:100"]
        assert main(arguments) == 0
        out = folder / "reports" / f"night{number}"
        assert main(["audit", str(records), "--out", str(out), "--store", store, "--quiet",
                     "--jobs", "1"]) == 1
        reports.append(out)
    trends = folder / "trends"
    assert main(["trends", "--store", store, "--out", str(trends), "--min-rounds", "20",
                 "--min-pair-rounds", "10", "--quiet"]) == 1
    return {"folder": folder, "store": store, "reports": reports, "trends": trends,
            "document": json.loads((trends / "trends.json").read_text(encoding="utf-8"))}


def findings_of(out: Path) -> list[dict]:
    return json.loads((out / "findings.json").read_text(encoding="utf-8"))["findings"]


def shown_ids(page) -> list[str]:
    """The stable IDs of every finding the filters let through (each group's pages shown)."""
    buttons = page.locator("details.group .pager button", has_text="Show all")
    for index in range(buttons.count()):
        if buttons.nth(index).is_visible():
            buttons.nth(index).click()
    return page.eval_on_selector_all(
        "li.finding", "items => items.filter(i => i.offsetParent !== null)"
                      ".map(i => i.querySelector('.f-id').textContent)")


def careless_flag(document: dict) -> dict:
    return next(e for e in document["outliers"]
                if e["unit"] == {"kind": "dealer", "key": CARELESS})


def test_the_flag_links_each_night_to_that_dealers_findings_there(floor, browser) -> None:
    flag = careless_flag(floor["document"])
    assert flag["status"] == "flagged"
    assert flag["nights"] == [
        {"gaming_day": day, "run": number,
         "report": str(floor["reports"][number - 1] / "report.html"),
         "link": f"../reports/night{number}/report.html#dealer={CARELESS}&day={day}",
         "unlinked": None}
        for number, day in enumerate(NIGHTS, start=1)]
    opened = Page(browser, floor["trends"] / "trends.html")
    page = opened.page
    item = page.locator("li.flag", has_text=f"dealer {CARELESS}")
    assert item.locator("p.nights a").all_inner_texts() == list(NIGHTS)
    for number, day in enumerate(NIGHTS, start=1):
        out = floor["reports"][number - 1]
        wanted = [f["id"] for f in findings_of(out)
                  if f["dealer"] == CARELESS and f["gaming_day"] == day]
        if number > 1:
            assert len(wanted) >= 5, "the planted dealer made too few findings"
        item.locator("p.nights a", has_text=day).click()
        page.wait_for_url(f"{(out / 'report.html').as_uri()}#*")
        expect(page.locator("#filter-status")).to_contain_text(
            "filtered" if wanted else "Showing 0 findings")
        assert sorted(shown_ids(page)) == sorted(wanted)
        # The filter state is in the address and in the form.
        assert page.url == f"{(out / 'report.html').as_uri()}#dealer={CARELESS}&day={day}"
        assert page.input_value("#filters input[name=dealer]") == CARELESS
        assert page.input_value("#filters select[name=day]") == day
        page.go_back()
        page.wait_for_url(f"{(floor['trends'] / 'trends.html').as_uri()}*")
    # Every pair listed links its nights: the dealer and the player, that gaming day.
    pair = floor["document"]["pairs"][0]
    night = pair["nights"][0]
    assert night["link"] == (f"../reports/night{night['run']}/report.html#dealer="
                             f"{pair['unit']['dealer']}&player={pair['unit']['player']}"
                             f"&day={night['gaming_day']}")
    assert page.locator(f"#pairs a[href='{night['link']}']").count() == 1
    opened.close()
    # A flagged table (where the dealer dealt) links by its key: licence / table ID.
    for entry in floor["document"]["outliers"]:
        if entry["status"] == "flagged" and entry["unit"]["kind"] == "table":
            site, table = entry["unit"]["key"].split(" ")
            assert [n["link"] for n in entry["nights"]] == [
                f"../reports/night{number}/report.html#table={site}%2F{table}&day={day}"
                for number, day in enumerate(NIGHTS, start=1)]


def test_a_night_whose_report_is_gone_is_named_without_a_link(floor, tmp_path) -> None:
    """Reports elsewhere than beside trends' folder are linked by file:// address; a
    report that is gone leaves its night named, with no link."""
    first = floor["reports"][0] / "report.html"
    kept = tmp_path / "report.html"
    shutil.move(first, kept)
    try:
        out = tmp_path / "elsewhere" / "trends"
        assert main(["trends", "--store", floor["store"], "--out", str(out),
                     "--min-rounds", "20", "--min-pair-rounds", "10", "--quiet"]) == 1
    finally:
        shutil.move(kept, first)
    document = json.loads((out / "trends.json").read_text(encoding="utf-8"))
    nights = careless_flag(document)["nights"]
    assert [(n["gaming_day"], n["report"], n["link"]) for n in nights] == [
        (day, str(floor["reports"][number - 1] / "report.html"),
         None if number == 1 else
         f"{(floor['reports'][number - 1] / 'report.html').as_uri()}#dealer={CARELESS}"
         f"&day={day}")
        for number, day in enumerate(NIGHTS, start=1)]
    assert [n["unlinked"] for n in nights] == ["report gone", None, None]
    html = (out / "trends.html").read_text(encoding="utf-8")
    assert f"{NIGHTS[0]} <span class=\"muted\">(run 1: report gone)</span>" in html


def test_a_table_with_no_id_to_filter_by_is_named_without_a_link(tmp_path) -> None:
    """A link with an empty table would open the night's every finding."""
    from auditor.trends.links import Reports

    report = tmp_path / "night" / "report.html"
    report.parent.mkdir()
    report.write_text("<!doctype html>", encoding="utf-8")
    reports = Reports(None, tmp_path / "trends")
    reports.known[4] = report  # run 4's report, as the store would name it
    assert reports.nights([(("2026-11-21", 4), {"table": ""}),
                           (("2026-11-22", 4), {"table": "RL-0412/T11"})]) == [
        {"gaming_day": "2026-11-21", "run": 4, "report": str(report), "link": None,
         "unlinked": "no table ID to filter by"},
        {"gaming_day": "2026-11-22", "run": 4, "report": str(report),
         "link": "../night/report.html#table=RL-0412%2FT11&day=2026-11-22",
         "unlinked": None}]


def test_the_filters_are_kept_in_the_address(floor, browser) -> None:
    out = floor["reports"][1]
    report = out / "report.html"
    findings = findings_of(out)
    opened = Page(browser, report)
    page = opened.page
    mine = [f for f in findings if f["dealer"] == CARELESS]
    citation = Counter(f["citation"] for f in mine).most_common(1)[0][0]
    page.fill("#filters input[name=dealer]", CARELESS)
    page.select_option("#filters select[name=day]", NIGHTS[1])
    page.select_option("#filters select[name=citation]", page.get_attribute(
        f"#filters select[name=citation] option[data-citation='{citation}']", "value"))
    page.fill("#filters input[name=q]", CARELESS)  # the search keeps its words as typed
    page.wait_for_function("() => location.hash.indexOf('q=') > 0")
    encoded = citation.replace(":", "%3A").replace("(", "%28").replace(")", "%29")
    assert page.url == (f"{report.as_uri()}#dealer={CARELESS}&citation={encoded}"
                        f"&day={NIGHTS[1]}&q={CARELESS}")
    wanted = [f["id"] for f in mine if f["citation"] == citation]
    assert wanted and shown_ids(page) == wanted
    # The same address opened afresh shows the same view; clearing the filters clears it.
    again = Page(browser, Path(report))
    again.page.goto(page.url)
    again.page.wait_for_load_state("load")
    assert sorted(shown_ids(again.page)) == sorted(wanted)
    again.close()
    page.click("#filters button[type=reset]")
    expect(page.locator("#filter-status")).to_contain_text("Showing all")
    page.wait_for_function("() => location.hash === ''")
    assert page.url == report.as_uri()
    # finding=ID shows just that finding, among other pairs or alone (#finding=ID).
    target = findings[-1]
    page.evaluate(f"location.hash = 'finding={target['id']}'")
    expect(page.locator("#filter-status")).to_contain_text("Showing 1 finding of")
    assert shown_ids(page) == [target["id"]]
    assert page.input_value("#filters input[name=finding]") == target["id"]
    # A value the report holds no finding of shows none, and says so, never every one.
    page.evaluate(f"location.hash = 'dealer={CARELESS}&day=2026-12-01'")
    expect(page.locator("#filter-status")).to_contain_text("Showing 0 findings")
    assert "2026-12-01 (no finding here)" in page.eval_on_selector(
        "#filters select[name=day]", "s => s.selectedOptions[0].textContent")
    # A player the address names is that one, even with no finding here (a pair's night
    # without one): part of another player's ID shows none of his findings. Typed by hand
    # into the form, part of a name is still every player holding it.
    players = sorted({f["player"] for f in findings if f["player"]})
    part = next(p[:-1] for p in players if p[:-1] not in players)
    holding = [f["id"] for f in findings if part in (f["player"] or "")]
    page.evaluate(f"location.hash = 'dealer=&player={part}'")
    expect(page.locator("#filter-status")).to_contain_text("Showing 0 findings")
    page.click("#filters button[type=reset]")
    page.fill("#filters input[name=player]", part)
    page.wait_for_function("() => location.hash.indexOf('player=') > 0")
    assert holding and sorted(shown_ids(page)) == sorted(holding)
    # #finding-ID still opens one finding, the filters cleared to show it.
    page.evaluate(f"location.hash = 'finding-{target['id']}'")
    number = findings.index(target) + 1
    page.wait_for_function(f"() => document.getElementById('f-{number}') !== null")
    assert f"f-{number}" in visible_findings(page)
    opened.close()


def test_a_night_crossing_midnight_is_one_gaming_day_in_the_filter(tmp_path, browser) -> None:
    record = tmp_path / "night.bjh"
    record.write_text(NIGHT, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["audit", str(record), "--out", str(out), "--store",
                 str(tmp_path / "history.sqlite"), "--quiet", "--jobs", "1"]) == 1
    findings = findings_of(out)
    assert [(f["line"], f["date"], f["gaming_day"]) for f in findings] == [
        (18, "2026-11-22", "2026-11-22"), (29, "2026-11-23", "2026-11-22"),
        (40, "2026-11-23", "2026-11-23")]
    report = out / "report.html"
    opened = Page(browser, report)
    page = opened.page
    assert page.eval_on_selector_all("#filters select[name=day] option",
                                     "o => o.map(x => x.value)") == ["", "2026-11-22",
                                                                     "2026-11-23"]
    assert page.eval_on_selector_all("#filters select[name=shift] option",
                                     "o => o.map(x => x.value)") == ["", "day", "grave"]
    page.select_option("#filters select[name=day]", "2026-11-22")
    assert visible_findings(page) == ["f-1", "f-2"]  # 23:50 and 00:30: one gaming day
    assert page.url == f"{report.as_uri()}#day=2026-11-22"
    page.select_option("#filters select[name=shift]", "day")
    assert visible_findings(page) == []
    page.select_option("#filters select[name=day]", "")
    assert visible_findings(page) == ["f-3"]
    assert page.url == f"{report.as_uri()}#shift=day"
    assert page.locator("#print-filter").inner_text() == (
        "Printed with filters (shift day): 1 of 3 findings.")
    opened.close()
    opened = Page(browser, report)
    opened.page.goto(f"{report.as_uri()}#day=2026-11-23&shift=day")
    opened.page.wait_for_load_state("load")
    assert visible_findings(opened.page) == ["f-3"]
    opened.close()
