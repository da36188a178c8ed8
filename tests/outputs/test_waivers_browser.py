"""Waived and new findings in report.html, in a real browser: shown, marked, filterable."""

from __future__ import annotations

import json
import shutil

import pytest

from auditor.cli import main
from tests.helpers import ROOT
from tests.helpers.browser import Page, visible_findings

WAIVERS = """[[waiver]]
citation = "20:18:15:30.10(12)"
table = "T07"
justification = "Pay table reprinted"
approved_by = "J. Doe"
expires = 2099-12-31

[[waiver]]
citation = "20:18:15:24"
justification = "Old"
approved_by = "J. Doe"
expires = 2020-01-01
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> dict:
    night1 = tmp_path_factory.mktemp("night1")
    shutil.copy(ROOT / "sample_logs" / "db21-t07-2026-11-20.bjh", night1)
    out1 = tmp_path_factory.mktemp("out1")
    main(["audit", str(night1), "--out", str(out1), "--quiet", "--jobs", "1"])
    night2 = tmp_path_factory.mktemp("night2")
    for name in ("db21-t07-2026-11-20.bjh", "standard-t12-2026-11-21.bjh"):
        shutil.copy(ROOT / "sample_logs" / name, night2)
    waivers = night2 / "waivers.toml"
    waivers.write_text(WAIVERS, encoding="utf-8")
    out = tmp_path_factory.mktemp("out2")
    main(["audit", str(night2), "--out", str(out), "--quiet", "--jobs", "1",
          "--waivers", str(waivers), "--baseline", str(out1 / "findings.json")])
    findings = json.loads((out / "findings.json").read_text(encoding="utf-8"))["findings"]
    return {"path": out / "report.html", "findings": findings}


def test_waived_and_new_findings_are_shown_marked_and_filterable(browser, report) -> None:
    opened = Page(browser, report["path"])
    page = opened.page
    findings = report["findings"]
    every = [f"f-{i + 1}" for i in range(len(findings))]
    assert sorted(visible_findings(page)) == sorted(every)
    waived = [f"f-{i + 1}" for i, f in enumerate(findings) if f["waiver"]]
    assert len(waived) == 1
    badge = page.locator(f"#{waived[0]} .badge.waived")
    assert badge.inner_text() == "waived"
    assert "Pay table reprinted" in page.locator(f"#{waived[0]} .waiver-note").inner_text()
    assert page.locator(f"#{waived[0]} code.f-id").inner_text() == findings[0]["id"]
    page.select_option("#filters select[name=status]", "waived")
    assert visible_findings(page) == waived
    page.select_option("#filters select[name=status]", "open")
    assert sorted(visible_findings(page)) == sorted(set(every) - set(waived))
    page.select_option("#filters select[name=status]", "new")
    new = [f"f-{i + 1}" for i, f in enumerate(findings) if f["baseline"] == "new"]
    assert len(new) == len(findings) - 3 and sorted(visible_findings(page)) == sorted(new)
    # The waivers section: the expired one said loudly, and no resolved finding.
    assert "1 waiver expired" in page.locator("#waivers .waiver-alert").inner_text()
    assert page.locator("#waivers tr.waiver-expired td").first.inner_text().startswith("2")
    assert "Every finding of the earlier run is found again" in \
        page.locator("#waivers").inner_text()
    opened.close()
