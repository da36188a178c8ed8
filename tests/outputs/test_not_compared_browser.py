"""Findings not compared with the baseline (a citation its run did not judge), in a real
browser: marked, and found by the Status filter."""

from __future__ import annotations

import json

from tests.helpers import SAMPLES
from tests.helpers.audits import audit
from tests.helpers.browser import Page, visible_findings


def test_not_compared_findings_are_marked_and_filterable(browser, tmp_path) -> None:
    record, store = SAMPLES / "standard-t11-2026-11-20.bjh", tmp_path / "store.sqlite"
    audit(record, out=tmp_path / "recheck", store=store, more=("--select", "20:18:15:06"))
    out = tmp_path / "full"
    audit(record, out=out, store=store, more=("--baseline", "last"))
    findings = json.loads((out / "findings.json").read_text(encoding="utf-8"))["findings"]
    opened = Page(browser, out / "report.html")
    page = opened.page
    left_out = [f"f-{i + 1}" for i, f in enumerate(findings) if f["baseline"] == "not compared"]
    assert len(left_out) == 3
    assert page.locator(f"#{left_out[0]} .badge.baseline-not-compared").inner_text() == \
        "not compared"
    page.select_option("#filters select[name=status]", "not compared")
    assert sorted(visible_findings(page)) == sorted(left_out)
    page.select_option("#filters select[name=status]", "new")
    assert visible_findings(page) == []
    assert "3 findings of this run are marked “not compared”" in \
        page.locator("#waivers").inner_text()
    opened.close()
