"""The live page in real Chromium (through playwright), served by uvicorn in a thread over a
LiveFloor that the test writes as the watcher would: a finding added appears within 2 s
(measured: from add_finding to the element visible), the table's row follows, hostile record
text shows as text and runs nothing, a finding opens its round's lines with the evidence
marked, a client too far behind loads the snapshot again, a new gaming day starts the
findings again, and with JavaScript off the page is the snapshot, saying it does not update.
Every page must raise no console error and ask nothing of another origin. Screenshots are
kept under test-artifacts/ (gitignored).

Chromium and the playwright package: as tests/outputs/test_report_browser.py (skipped with the
reason where missing, failing under CI=true).
"""

from __future__ import annotations

import json
import statistics
import time

import pytest

from auditor.live.floor import LiveFloor
from tests.helpers import ROOT
from tests.helpers.live_page import LINES, PWN, UPDATED, Served, finding, table

ARTIFACTS = ROOT / "test-artifacts"
LIMIT_SECONDS = 2.0  # issue 43: a finding on the page within 2 s of its round's end


class LivePage:
    """The live page open in a new browser context, with every console error, page error,
    dialog and request it made."""

    def __init__(self, browser, url: str, javascript: bool = True) -> None:
        self.origin = url
        self.context = browser.new_context(java_script_enabled=javascript,
                                           viewport={"width": 1280, "height": 900})
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.problems.append(
            f"console: {m.text}"))
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("dialog", lambda d: (self.problems.append(f"dialog: {d.message}"),
                                          d.dismiss()))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(url + "/")
        if javascript:
            self.page.wait_for_selector("#status[data-state=live]", timeout=10_000)

    def close(self) -> None:
        self.context.close()  # before the server stops: a stream cut is no page's fault
        assert self.problems == []
        assert [url for url in self.requests if not url.startswith(self.origin + "/")] == []

    def summaries(self) -> list[str]:
        return self.page.eval_on_selector_all(
            "#findings > li > details > summary", "items => items.map(i => i.textContent)")

    def row(self, key: str) -> list[str]:
        """The table row of `key` (found by its text, never by a selector made of it)."""
        return self.page.evaluate(
            """key => { for (const row of document.querySelectorAll('#tables tr')) {
                 const cells = Array.from(row.children).map(c => c.textContent);
                 if (cells[0] === key) return cells; } return null; }""", key)


@pytest.fixture
def served():
    floor = LiveFloor()
    floor.update_table(table())
    floor.add_finding(finding(), LINES)
    server = Served(floor)
    server.floor = floor
    yield server
    server.close()


def visible_within(page, text: str, limit: float) -> None:
    page.wait_for_function(
        """text => Array.from(document.querySelectorAll('#findings .message'))
             .some(m => m.textContent === text && m.offsetParent !== null)""",
        arg=text, timeout=limit * 1000, polling="raf")


def test_a_finding_appears_within_two_seconds_and_its_tables_row_follows(browser,
                                                                          served) -> None:
    live = LivePage(browser, served.url)
    page = live.page
    assert live.summaries() == ["high 20:18:15:09 T1 · round 3 · seat s2 paid 30, owed 20"]
    latencies = []
    for number in range(1, 6):
        began = time.monotonic()
        served.floor.add_finding(finding(f"live finding {number}", id=f"F-L{number}",
                                         round=str(3 + number)), LINES)
        visible_within(page, f"live finding {number}", LIMIT_SECONDS)
        latencies.append(time.monotonic() - began)
        served.floor.update_table(table(last_round=str(3 + number), open_round=str(4 + number),
                                        rounds=3 + number, findings=1 + number))
        page.wait_for_function("() => document.querySelector('#tables tr td:nth-child(4)')"
                               f".textContent === '{3 + number}'", timeout=2000)
    print(f"\nlive page latency, add_finding to visible: median "
          f"{statistics.median(latencies):.3f} s, max {max(latencies):.3f} s over "
          f"{len(latencies)}: {', '.join(f'{s:.3f}' for s in latencies)}")
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "live-page-latency.json").write_text(json.dumps(
        {"seconds": latencies, "median": statistics.median(latencies),
         "max": max(latencies)}) + "\n", encoding="utf-8")
    assert max(latencies) < LIMIT_SECONDS
    assert live.summaries()[:2] == [
        "high 20:18:15:09 T1 · round 8 · seat s2 live finding 5",
        "high 20:18:15:09 T1 · round 7 · seat s2 live finding 4"]
    assert live.row("RL-1/T1") == ["RL-1/T1", "standard", "D-7", "8", "9", "8", "6", UPDATED]
    assert page.text_content("#findings-count").startswith("6 this gaming day; newest first.")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "live-page.png"), full_page=True)
    live.close()


def test_a_finding_opens_its_rounds_lines_with_the_evidence_marked(browser, served) -> None:
    live = LivePage(browser, served.url)
    page = live.page
    served.floor.add_finding(finding("over-paid", id="F-2", line=12, evidence=[10]), LINES)
    visible_within(page, "over-paid", LIMIT_SECONDS)
    details = page.locator("#findings > li > details").first
    assert not details.locator(".lines").is_visible()
    details.locator("summary").click()
    assert details.locator(".lines").is_visible()
    assert details.locator(".lines li").all_text_contents() == [
        "10▶09:01:01 bet s2h1 main 20", "11" + "09:01:02 deal s2h1 9c",
        "12▶09:01:08 settle s2h1 main win 30"]
    assert details.locator(".lines li.evidence .number").all_text_contents() == ["10", "12"]
    assert details.locator(".meta").text_content() == (
        "rulepayoutfiletables/t1.bjh, line 12IDF-2")
    ARTIFACTS.mkdir(exist_ok=True)
    details.screenshot(path=str(ARTIFACTS / "live-page-finding-open.png"))
    live.close()


def test_a_long_line_pushed_is_shown_shortened_with_its_length(browser, served) -> None:
    live = LivePage(browser, served.url)
    page = live.page
    long_line = "09:01:02 deal s2h1 " + PWN * 3000  # 99,019 characters
    served.floor.add_finding(finding("long line", id="F-3"), {**LINES, 11: long_line})
    visible_within(page, "long line", LIMIT_SECONDS)
    details = page.locator("#findings > li > details").first
    details.locator("summary").click()
    assert details.locator(".lines li").all_text_contents() == [
        "10▶09:01:01 bet s2h1 main 20",
        "11" + long_line[:1000] + "… shortened for the page: the line has 99,019 characters",
        "12▶09:01:08 settle s2h1 main win 30"]
    assert page.evaluate("() => window.__pwned") is None
    live.close()


def test_hostile_record_text_shows_as_text_and_runs_nothing(browser, served) -> None:
    live = LivePage(browser, served.url)
    page = live.page
    attribute = '"><img src=x onerror="window.__pwned=1">'
    served.floor.update_table(table(key=PWN, dealer=attribute, game=PWN))
    served.floor.add_finding(finding(PWN, player=PWN, table=PWN, seat=attribute,
                                     file=attribute, id=PWN, line=1, evidence=[]),
                             {1: PWN, 2: attribute, 3: "D-\u202eevil"})
    served.floor.set_flags([{"question": "outlier", "kind": "dealer", "unit": PWN}])
    served.floor.notice(PWN, file=attribute)
    visible_within(page, PWN, LIMIT_SECONDS)
    page.wait_for_function("() => document.querySelectorAll('#notices li').length === 1")
    page.locator("#findings > li > details summary").first.click()
    assert page.evaluate("() => window.__pwned") is None
    assert page.evaluate("() => document.scripts.length") == 1  # live.js alone
    assert page.evaluate("() => document.querySelectorAll('img').length") == 0
    assert live.row(PWN) == [PWN, PWN, attribute, "3", "4", "3", "1", UPDATED]
    assert live.summaries()[0] == f"high 20:18:15:09 {PWN} · round 3 · seat {attribute} {PWN}"
    opened = page.locator("#findings > li > details").first
    assert opened.locator(".lines li").all_text_contents() == [
        f"1▶{PWN}", f"2{attribute}", "3D-⟦U+202E⟧evil"]
    assert page.text_content("#flags li") == f"question outlierkind dealerunit {PWN}"
    assert page.text_content("#notices li") == f"{attribute}: {PWN}"
    # the same text on the server's first paint, once the page is loaded again
    page.reload()
    page.wait_for_selector("#status[data-state=live]")
    assert page.evaluate("() => window.__pwned") is None
    assert live.row(PWN) == [PWN, PWN, attribute, "3", "4", "3", "1", UPDATED]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "live-page-hostile.png"), full_page=True)
    live.close()


def test_a_page_too_far_behind_loads_the_snapshot_again(browser) -> None:
    floor = LiveFloor(keep=3)
    floor.update_table(table())
    server = Served(floor)
    try:
        live = LivePage(browser, server.url)
        snapshots = [u for u in live.requests if u.endswith("/snapshot.json")]
        assert len(snapshots) == 1
        for number in range(1, 6):  # five changes between two polls: two are forgotten
            floor.add_finding(finding(f"burst {number}", id=f"F-B{number}"), LINES)
        visible_within(live.page, "burst 5", LIMIT_SECONDS)
        live.page.wait_for_selector("#status[data-state=live]")
        assert [u for u in live.requests if u.endswith("/snapshot.json")] == snapshots * 2
        assert [s.rsplit(" ", 2)[-2:] for s in live.summaries()] == [
            ["burst", "5"], ["burst", "4"], ["burst", "3"]]
        assert live.page.text_content("#findings-count").startswith(
            "5 this gaming day, the newest 3 shown;")
        live.close()
    finally:
        server.close()


def test_a_new_gaming_day_starts_the_findings_again(browser, served) -> None:
    live = LivePage(browser, served.url)
    served.floor.new_gaming_day("2026-11-28")
    live.page.wait_for_function(
        "() => document.getElementById('gaming-day').textContent === '2026-11-28'",
        timeout=2000)
    live.page.wait_for_selector("#status[data-state=live]")
    assert live.summaries() == []
    assert live.row("RL-1/T1") == ["RL-1/T1", "standard", "D-7", "3", "4", "0", "0", UPDATED]
    served.floor.add_finding(finding("first of the day"), LINES)
    visible_within(live.page, "first of the day", LIMIT_SECONDS)
    live.close()


def test_with_javascript_off_the_page_is_the_snapshot_and_says_so(browser, served) -> None:
    live = LivePage(browser, served.url, javascript=False)
    page = live.page
    note = page.locator("noscript p, p.static")
    assert note.first.text_content().startswith(
        "JavaScript is off: this is the floor as it was when the page was loaded (change 2), "
        "and it does not update.")
    assert live.summaries() == ["high 20:18:15:09 T1 · round 3 · seat s2 paid 30, owed 20"]
    page.locator("#findings summary").first.click()  # <details> opens without script
    assert page.locator("#findings .lines").first.is_visible()
    assert live.row("RL-1/T1") == ["RL-1/T1", "standard", "D-7", "3", "4", "3", "1", UPDATED]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "live-page-noscript.png"), full_page=True)
    live.close()
    assert [u.removeprefix(served.url) for u in live.requests] == [
        "/", "/live.css", "/favicon.svg"]


def test_a_page_open_across_a_restart_of_the_server_shows_the_new_floor(browser) -> None:
    """The watcher killed and started again: its new floor numbers its changes from 1 again.
    The page, reconnecting with the old numbers, loads the new floor's snapshot instead of
    taking the new changes as the ones after those it saw."""
    before = LiveFloor()
    for number in range(1, 5):
        before.add_finding(finding(f"before {number}"), LINES)
    first = Served(before)
    live = LivePage(browser, first.url)
    visible_within(live.page, "before 4", LIMIT_SECONDS)
    first.close()
    live.page.wait_for_selector("#status[data-state=lost]", timeout=5000)
    after = LiveFloor()
    after.update_table(table(key="RL-1/T2"))
    for number in range(1, 7):  # past the page's sequence (4): numbers it would take
        after.add_finding(finding(f"after {number}"), LINES)
    second = Served(after, port=first.port)
    try:
        visible_within(live.page, "after 6", 5)
        live.page.wait_for_selector("#status[data-state=live]")
        assert [s.rsplit(" ", 2)[-2:] for s in live.summaries()] == [
            ["after", str(n)] for n in range(6, 0, -1)]
        assert live.row("RL-1/T2") is not None
        # the page's own reconnection while the server was away is no fault of the page
        live.problems = [p for p in live.problems if "ERR_CONNECTION_REFUSED" not in p]
        live.close()
    finally:
        second.close()


def test_a_finding_of_no_one_round_is_pushed_placed_by_its_line(browser, served) -> None:
    """The header's findings and those between rounds come live too: pushed, each is
    placed by its line (or as the record's), never as a round it has not."""
    live = LivePage(browser, served.url)
    page = live.page
    served.floor.add_finding(finding("burned past the count", id="F-B", round=None, line=115,
                                     seat=None, evidence=[]), {115: "18:07:05 burn 6h"})
    visible_within(page, "burned past the count", LIMIT_SECONDS)
    served.floor.add_finding(finding("of the record", id="F-R", round=None, line=None,
                                     seat=None, evidence=[]), {})
    visible_within(page, "of the record", LIMIT_SECONDS)
    assert live.summaries()[:2] == [
        "high 20:18:15:09 T1 · the record of the record",
        "high 20:18:15:09 T1 · line 115 burned past the count"]
    live.close()
