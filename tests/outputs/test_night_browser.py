"""In real Chromium: the report finds a finding by its player, and an incident's evidence
link (report.html#finding-ID) opens at that finding."""

from __future__ import annotations

import json

from auditor.cli import main
from tests.helpers.browser import Page, expect, visible_findings
from tests.helpers.midnight_records import NEXT, RECORD


def test_a_player_is_found_and_an_evidence_link_opens_its_finding(tmp_path, browser) -> None:
    records = tmp_path / "records"
    records.mkdir()
    (records / "t4-1122.bjh").write_text(RECORD, encoding="utf-8")
    (records / "t4-1123.bjh").write_text(NEXT, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["audit", str(records), "--out", str(out), "--store",
                 str(tmp_path / "history.sqlite"), "--quiet", "--jobs", "1"]) == 1
    findings = json.loads((out / "findings.json").read_text(encoding="utf-8"))["findings"]
    assert [f["player"] for f in findings] == ["P-1", "P-1", "P-1", "P-2"]
    opened = Page(browser, out / "report.html")
    page = opened.page
    page.fill("#filters input[name=q]", "p-2")
    expect(page.locator("#filter-status")).to_contain_text("filtered")
    assert visible_findings(page) == ["f-4"]
    assert "player P-2" in page.locator("#f-4").inner_text()
    opened.close()
    target = findings[1]["id"]
    opened = Page(browser, out / "report.html")
    page = opened.page
    page.evaluate(f"location.hash = 'finding-{target}'")
    page.wait_for_function("document.getElementById('f-2') !== null")
    assert page.evaluate("document.getElementById('f-2').getBoundingClientRect().top") < 900
    assert "player P-1" in page.locator("#f-2").inner_text()
    opened.close()
