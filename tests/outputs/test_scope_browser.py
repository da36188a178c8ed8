"""A filtered report.html counts the rounds of its filters, in real Chromium (issue 40).

Two tables of one licensee, two dealers, two gaming days, three unreadable rounds. Printed
for one dealer and one gaming day, every count of rounds on the page (read, audited, not
audited, judged by a rule, replayed) must be of that dealer's rounds that day, on screen and
in print; an older run, whose inputs keep no rounds by dealer and hour, says that it counts
whole files rather than printing a whole file's numbers as the dealer's.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from auditor.cli import main
from tests.helpers.browser import ARTIFACTS, Page, expect, pdf_pages, set_filter

HEADER = ('bjh 1\ncasino "Scope Casino" licence=RL-0707\n'
          "table {table} game=standard decks=6 seats=7 min=10 max=500 currency=USD\n"
          "option soft17=stand\n")


def clean(number: int, time: str, dealer: str) -> str:
    return f"""round {number} time={time}:00 dealer={dealer}
{time}:01 bet s1h1 main 20
{time}:02 deal s1h1 Tc
{time}:03 deal dealer Th
{time}:04 deal s1h1 9d
{time}:05 deal dealer 8s
{time}:06 stand s1h1
{time}:07 reveal
{time}:08 settle s1h1 main win 20
end
"""


def stops_at_16(number: int, time: str, dealer: str) -> str:
    return clean(number, time, dealer).replace("deal dealer 8s", "deal dealer 6s")


def unreadable(number: int, time: str, dealer: str) -> str:
    return clean(number, time, dealer).replace(f"{time}:01 bet",
                                               f"{time}:00 frobnicate s1h1\n{time}:01 bet")


def over_the_maximum(number: int, time: str, dealer: str) -> str:
    return clean(number, time, dealer).replace(" 20\n", " 600\n")


def shoe(shoe_id: str, date: str, time: str, dealer: str) -> str:
    return f"shoe {shoe_id} date={date}\ndealer {dealer}\n{time}:00 shuffle\n{time}:05 cut\n"


# T01: D-1 deals rounds 1 (a finding) and 2 (unreadable) on gaming day 2026-11-20, D-2
# rounds 3 (a finding) and 4; the next day D-1 deals 5, 6 (a finding) and 7 (unreadable).
# T02: D-1 deals 1, 2 and 3 (unreadable) on 2026-11-20. The whole run: 10 rounds read, 7
# audited; D-1 on 2026-11-20: 5 read (2 + 3), 3 audited, 2 not.
T01 = (HEADER.format(table="T01") + shoe("A1", "2026-11-20", "20:55", "D-1")
       + stops_at_16(1, "21:00", "D-1") + unreadable(2, "21:05", "D-1")
       + over_the_maximum(3, "21:10", "D-2") + clean(4, "21:15", "D-2")
       + shoe("A2", "2026-11-21", "19:55", "D-1")
       + clean(5, "20:00", "D-1") + stops_at_16(6, "20:05", "D-1")
       + unreadable(7, "20:10", "D-1"))
T02 = (HEADER.format(table="T02") + shoe("B1", "2026-11-20", "21:55", "D-1")
       + clean(1, "22:00", "D-1") + clean(2, "22:05", "D-1") + unreadable(3, "22:10", "D-1"))


@pytest.fixture(scope="module")
def night(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("scope")
    (folder / "in").mkdir()
    (folder / "in" / "a-t01.bjh").write_text(T01, encoding="utf-8")
    (folder / "in" / "b-t02.bjh").write_text(T02, encoding="utf-8")
    assert main(["audit", str(folder / "in"), "--out", str(folder / "out"), "--quiet",
                 "--jobs", "1", "--store", str(folder / "floor.sqlite")]) == 1
    inputs = json.loads((folder / "out" / "findings.json").read_text("utf-8"))["inputs"]
    assert [(i["rounds"], i["rounds_audited"]) for i in inputs] == [(7, 5), (3, 2)]
    return folder


def words(page, selector: str) -> str:
    return " ".join(page.locator(selector).inner_text().split())


def shown_texts(page, selector: str) -> list[str]:
    return page.eval_on_selector_all(selector, "ns => ns.filter(n => n.offsetParent !== null)"
                                     ".map(n => n.innerText.split(/\\s+/).join(' ').trim())")


def test_a_view_of_one_dealer_and_day_counts_only_its_rounds(browser, night: Path) -> None:
    opened = Page(browser, night / "out" / "report.html")
    page = opened.page
    # The whole run first.
    assert "Not everything was audited: 3 rounds read but not judged" in words(
        page, "#summary .verdict")
    assert words(page, "#provenance .gaps-rest") == (
        "Everything else was audited: 7 rounds in 2 files.")
    set_filter(page, "dealer", "D-1")
    set_filter(page, "day", "2026-11-20")
    expect(page.locator("#filter-status")).to_contain_text("Showing 3 findings of 6")
    verdict = words(page, "#summary .verdict")
    assert ("Not everything was audited: 2 rounds read but not judged (its lines could not "
            "all be read).") in verdict
    assert "3 rounds read" not in verdict
    assert ("count only the rounds of dealer D-1, gaming day 2026-11-20 in the 2 files in "
            "this view.") in words(page, "#scope-note")
    assert words(page, "dd[data-scope=rounds]") == "5"
    assert words(page, "dd[data-scope=audited]") == "3 2 not"
    assert words(page, "dd[data-scope=files]") == "2"
    assert words(page, "dd[data-scope=dates]") == "2026-11-20"
    assert shown_texts(page, "#summary .idlist span") == ["D-1"]  # D-2 dealt other rounds
    # What was not audited: this view's rounds only.
    assert shown_texts(page, "#provenance li.partial") == [
        f"{night / 'in' / 'a-t01.bjh'}: 1 round of 2 not audited",
        f"{night / 'in' / 'b-t02.bjh'}: 1 round of 3 not audited"]
    assert shown_texts(page, "#provenance tr[data-dealer]") == [
        f"{night / 'in' / 'a-t01.bjh'} 2 20", f"{night / 'in' / 'b-t02.bjh'} 3 30"]
    assert words(page, "#provenance .gaps-rest") == (
        "Everything else was audited: 3 rounds in 2 files.")
    # The rounds a rule was applied to: the view's audited rounds.
    assert words(page, "#coverage tr[data-citation='20:18:15:26'] .cv-rounds") == "3"
    # Rounds replayed: those of the findings shown, said so.
    printed = page.eval_on_selector_all("#replays details.replay:not(.not-printed)",
                                        "ns => ns.length")
    assert printed == 3
    assert words(page, "#replays .replay-filtered") == (
        "Filtered (dealer D-1, gaming day 2026-11-20): 3 rounds replayed here hold the "
        "findings shown, of 6 in the report; printed, only they are printed.")
    assert not page.locator("#replays .replay-count").is_visible()
    # The print says the same, and none of the whole run's counts.
    ARTIFACTS.mkdir(exist_ok=True)
    text = " ".join(" ".join(pdf_pages(page, ARTIFACTS / "scope-one-dealer.pdf")).split())
    assert "Not everything was audited: 2 rounds read but not judged" in text
    assert "Everything else was audited: 3 rounds in 2 files." in text
    assert "3 rounds read but not judged" not in text and "7 rounds" not in text
    assert "6 rounds replayed here" not in text
    # Cleared, the whole run again.
    page.emulate_media(media="screen")
    page.click("#filters button[type=reset]")
    expect(page.locator("#filter-status")).to_contain_text("Showing all 6 findings")
    assert "Not everything was audited: 3 rounds read but not judged" in words(
        page, "#summary .verdict")
    assert not page.locator("#scope-note").is_visible()
    assert words(page, "#provenance .gaps-rest") == (
        "Everything else was audited: 7 rounds in 2 files.")
    assert page.locator("#replays .replay-count").is_visible()
    opened.close()


def test_a_view_with_nothing_left_out_says_so(browser, night: Path) -> None:
    opened = Page(browser, night / "out" / "report.html")
    page = opened.page
    set_filter(page, "dealer", "D-2")
    expect(page.locator("#filter-status")).to_contain_text("Showing 1 finding of 6")
    verdict = words(page, "#summary .verdict")
    assert "Every round in this view was read and audited (2 rounds)." in verdict
    assert "Not everything was audited" not in verdict
    assert words(page, "#provenance .view-complete") == (
        "Nothing of this view was left out: every one of its 2 rounds was audited.")
    assert not page.locator("#provenance .gaps-partial").is_visible()
    assert words(page, "dd[data-scope=files]") == "1"
    opened.close()


def test_an_older_run_says_it_counts_whole_files(browser, night: Path, tmp_path: Path
                                                  ) -> None:
    """A run stored before inputs kept their rounds by dealer and hour: the view of a dealer
    counts the whole files its findings are in, and says so."""
    store = tmp_path / "old.sqlite"
    store.write_bytes((night / "floor.sqlite").read_bytes())
    with sqlite3.connect(store) as connection:
        for rowid, document in connection.execute(
                "SELECT rowid, document FROM run_inputs").fetchall():
            old = json.loads(document)
            del old["round_counts"]
            connection.execute("UPDATE run_inputs SET document = ? WHERE rowid = ?",
                               (json.dumps(old), rowid))
    assert main(["report", "1", "--store", str(store), "--out", str(tmp_path / "r")]) == 0
    opened = Page(browser, tmp_path / "r" / "report.html")
    page = opened.page
    set_filter(page, "dealer", "D-1")
    set_filter(page, "day", "2026-11-20")
    expect(page.locator("#filter-status")).to_contain_text("Showing 3 findings of 6")
    assert words(page, "dd[data-scope=rounds]") == "10"
    assert ("2 files of this view were audited before rounds were kept by dealer and hour: "
            "their rounds are counted whole.") in words(page, "#scope-note")
    opened.close()


def test_a_record_of_a_new_dealer_every_round_keeps_no_round_counts(tmp_path: Path) -> None:
    """Rounds are kept by dealer and hour up to ROUND_COUNTS_AT_MOST pairs: past it the file
    keeps none (a filtered report then counts it whole and says so), never a list as long
    as the file."""
    from auditor.audit import ROUND_COUNTS_AT_MOST, audit_file

    head = ('bjh 1\ncasino "C" licence=RL-1\ntable T1 game=standard decks=6 min=10 max=500\n'
            "shoe 1 date=2026-11-20\n")
    for rounds, kept in ((ROUND_COUNTS_AT_MOST, True), (ROUND_COUNTS_AT_MOST + 1, False)):
        path = tmp_path / f"{rounds}.bjh"
        path.write_text(head + "".join(f"round {n} time=21:00:00 dealer=D-{n}\nend\n"
                                       for n in range(1, rounds + 1)), encoding="utf-8")
        summary = audit_file(str(path), keep_evidence=False).summary
        assert summary.rounds == rounds
        if kept:
            assert len(summary.round_counts) == rounds
            assert summary.round_counts[-1] == [f"D-{rounds}", "2026-11-20 21", 1, 1]
        else:
            assert summary.round_counts is None
