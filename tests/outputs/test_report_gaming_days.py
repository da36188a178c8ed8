"""The report's "Findings by gaming day" counts each finding under its round's gaming day,
as its gaming-day filter and the case file do, not under the calendar date: a round at
00:30 on 2026-03-02 is of the night of 2026-03-01. Each round of these records pays a
blackjack even money: one finding a round (tests/helpers/gaming_day_records.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from auditor.cli import main
from tests.helpers.browser import Page
from tests.helpers.gaming_day_records import FALL_BACK, audited, record

# Gaming day 2026-03-01 is rounds 1-4 (two after midnight), 2026-03-02 rounds 5-7.
TWO_NIGHTS = [("2026-03-01", "22:30"), ("2026-03-01", "23:50"), ("2026-03-02", "00:30"),
              ("2026-03-02", "05:00"), ("2026-03-02", "06:00"), ("2026-03-02", "22:10"),
              ("2026-03-03", "01:00")]
ROW = re.compile(r'<tr[^>]*><th scope="row">([^<]*)</th>\s*<td class="barcell">.*?</td>\s*'
                 r'<td class="num strong">(\d+)</td>', re.S)


def by_day(page: str) -> list[tuple[str, int]]:
    """The rows of the page's summary by date, as written (label, findings)."""
    table = page.split('data-dimension="date"', 1)[1].split("</table>", 1)[0]
    return [(label, int(count)) for label, count in ROW.findall(table)]


@pytest.mark.parametrize(("rounds", "expected"), [
    (TWO_NIGHTS, [("2026-03-01", 4), ("2026-03-02", 3)]),
    # the fall-back night (01:30 then 01:10, the repeated hour) and 06:30 after it
    (FALL_BACK, [("2026-10-31", 6), ("2026-11-01", 1)]),
])
def test_the_summary_counts_findings_by_gaming_day(tmp_path: Path, rounds, expected) -> None:
    page = (audited(tmp_path, rounds) / "report.html").read_text(encoding="utf-8")
    assert "<h3>Findings by gaming day</h3>" in page
    assert "<h3>Findings by date</h3>" not in page
    assert "<h3>Findings by gaming day, as a chart</h3>" in page
    assert by_day(page) == expected


def test_a_gaming_day_filtered_summary_counts_that_nights_findings(browser,
                                                                    tmp_path: Path) -> None:
    path = audited(tmp_path, TWO_NIGHTS) / "report.html"
    for day, expected in (("2026-03-01", [["2026-03-01", "4"]]),
                          ("2026-03-02", [["2026-03-02", "3"]])):
        opened = Page(browser, Path(f"{path}"))
        page = opened.page
        page.goto(f"{path.as_uri()}#day={day}")
        page.reload()  # the filters are read from the address when the page loads
        rows = page.eval_on_selector_all(
            "table.summary[data-dimension=date] tbody tr",
            "rows => rows.map(r => [r.querySelector('th').textContent.trim(),"
            " r.querySelector('td.strong').textContent.trim()])")
        assert rows == expected
        opened.close()


def _by_day_shown(page) -> list[list[str]]:
    """The rows of the summary by gaming day the view shows (label, findings)."""
    return page.eval_on_selector_all(
        "table.summary[data-dimension=date] tbody tr",
        "rows => rows.map(r => [r.querySelector('th').textContent.trim(),"
        " r.querySelector('td.strong').textContent.trim()])")


def test_the_from_and_to_filters_pick_gaming_days(browser, tmp_path: Path) -> None:
    """A user who picks 2026-03-01 to 2026-03-01 sees that gaming day's four findings, the
    two after midnight (calendar date 2026-03-02) included, as its summary counts them;
    the filters picked by calendar date and showed two."""
    path = audited(tmp_path, TWO_NIGHTS) / "report.html"
    for dates, expected in (("from=2026-03-01&to=2026-03-01", [["2026-03-01", "4"]]),
                            ("from=2026-03-02", [["2026-03-02", "3"]]),
                            ("to=2026-03-02", [["2026-03-01", "4"], ["2026-03-02", "3"]])):
        opened = Page(browser, Path(f"{path}"))
        page = opened.page
        page.goto(f"{path.as_uri()}#{dates}")
        page.reload()
        assert _by_day_shown(page) == expected, dates
        total = sum(int(count) for _, count in expected)
        assert page.text_content("#filter-status") == (
            f"Showing {total} findings of 7 (filtered)"), dates
        # the view's rounds and gaming days: those the filters pick, as the findings
        assert page.text_content("dd[data-scope=rounds]") == str(total), dates
        days = [day for day, _ in expected]
        assert " ".join(page.text_content("dd[data-scope=dates]").split()) == (
            days[0] if len(days) == 1 else f"{days[0]} to {days[-1]}"), dates
        assert opened.problems == []
        opened.close()


# Round 2 begins at 23:59 on 2026-11-20 and its faulty settlement is written at 00:00:16.
PAST_MIDNIGHT = record([("2026-11-20", "21:00"), ("2026-11-20", "23:59")]).replace(
    "23:59:16 settle", "00:00:16 settle")
FACTS = re.compile(r'<p class="facts">(.*?)</p>', re.S)


def _past_midnight_report(tmp_path: Path) -> Path:
    records = tmp_path / "records"
    records.mkdir()
    (records / "night.bjh").write_text(PAST_MIDNIGHT, encoding="utf-8")
    out = tmp_path / "run"
    assert main(["audit", str(records), "--out", str(out), "--quiet", "--store",
                 str(tmp_path / "h.sqlite"), "--new-store"]) == 1
    return out / "report.html"


def test_a_time_past_midnight_is_shown_on_its_date(tmp_path: Path) -> None:
    """The finding's date and time say when it happened, as the case's exhibit says it:
    00:00:16 on 2026-11-21 in a round of 2026-11-20; the page said 2026-11-20 00:00:16, a
    day before the event (a surveillance room looks for the wrong night's video)."""
    page = _past_midnight_report(tmp_path).read_text(encoding="utf-8")
    facts = [re.sub(r"<[^>]+>", "", text) for text in FACTS.findall(page)]
    assert [text for text in facts if "round" in text] == [
        "Table RL-0412/T11 · round 1 · s3h1 · 2026-11-20 21:00:16 · dealer D-2207 · "
        "player P-1 · standard",
        "Table RL-0412/T11 · round 2 · s3h1 · 2026-11-20 00:00:16 on 2026-11-21 · "
        "dealer D-2207 · player P-2 · standard"]


def test_a_time_past_midnight_is_shown_on_its_date_in_a_large_report(
        browser, tmp_path: Path, monkeypatch) -> None:
    """A large report draws its findings in the page's script: the same words."""
    import auditor.output.html_report

    monkeypatch.setattr(auditor.output.html_report, "LAZY_OVER", 0)
    path = _past_midnight_report(tmp_path)
    opened = Page(browser, path)
    facts = opened.page.eval_on_selector_all(
        "[data-finding] p.facts, .finding p.facts", "ps => ps.map(p => p.textContent)")
    assert "round 2 · s3h1 · 2026-11-20 00:00:16 on 2026-11-21 · dealer D-2207" in " ".join(
        facts)
    assert opened.problems == []
    opened.close()
