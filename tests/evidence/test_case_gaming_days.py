"""`auditor case --from/--until` picks inputs and findings by gaming day, not calendar date.

Each record here is a night of rounds that each pay a blackjack even money (one finding of
20:18:15:06 a round), so the rounds a case holds are the findings it holds. A night that
crosses midnight, and the night of the fall-back change (2026-11-01, 02:00 CDT -> 01:00 CST:
a round at 01:10 after one at 01:30, records without a time zone), must each be filed under
one gaming day: every finding in exactly one of the cases of its dates.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from auditor.case.scope import Scope
from auditor.cli import main
from auditor.findings import Finding
from auditor.manifest import ManifestError
from auditor.results import InputSummary
from tests.helpers.gaming_day_records import FALL_BACK, audited, record

# Two nights across midnight: gaming day 2026-03-01 is rounds 1-4, 2026-03-02 rounds 5-7.
TWO_NIGHTS = [("2026-03-01", "22:30"), ("2026-03-01", "23:50"), ("2026-03-02", "00:30"),
              ("2026-03-02", "05:00"), ("2026-03-02", "06:00"), ("2026-03-02", "22:10"),
              ("2026-03-03", "01:00")]


def case_rounds(run: Path, folder: Path, *dates: str) -> list[str]:
    """The rounds of the findings in the case of RL-0412 narrowed by `dates` (flags)."""
    assert main(["case", str(run), "--licensee", "RL-0412", "--out", str(folder),
                 *dates]) == 0
    document = json.loads((folder / "findings.json").read_text(encoding="utf-8"))
    assert {f["citation"] for f in document["findings"]} == {"20:18:15:06"}
    return [f["round"] for f in document["findings"]]


def one_day(day: str) -> tuple[str, ...]:
    return ("--from", day, "--until", day)


def test_a_night_across_midnight_is_one_gaming_date(tmp_path: Path) -> None:
    run = audited(tmp_path, TWO_NIGHTS)
    first = case_rounds(run, tmp_path / "c1", *one_day("2026-03-01"))
    second = case_rounds(run, tmp_path / "c2", *one_day("2026-03-02"))
    assert first == ["1", "2", "3", "4"]
    assert second == ["5", "6", "7"]
    assert case_rounds(run, tmp_path / "c3", "--until", "2026-03-01") == first
    assert case_rounds(run, tmp_path / "c4", "--from", "2026-03-02") == second
    # the calendar date 2026-03-03 holds a round, but no gaming day of that date does
    assert main(["case", str(run), "--licensee", "RL-0412", "--out", str(tmp_path / "c5"),
                 *one_day("2026-03-03")]) == 2
    assert not (tmp_path / "c5").exists()
    for folder in ("c1", "c2"):  # verify picks the same findings by the same gaming days
        assert main(["verify", str(tmp_path / folder)]) == 4  # holds; unsigned


def test_the_fall_back_night_is_one_gaming_date(tmp_path: Path) -> None:
    run = audited(tmp_path, FALL_BACK)
    inputs = json.loads((run / "findings.json").read_text(encoding="utf-8"))["inputs"]
    assert (inputs[0]["first_date"], inputs[0]["last_date"]) == ("2026-10-31", "2026-11-01")
    assert (inputs[0]["first_gaming_day"], inputs[0]["last_gaming_day"]) == (
        "2026-10-31", "2026-11-01")
    assert case_rounds(run, tmp_path / "c1", *one_day("2026-10-31")) == [
        "1", "2", "3", "4", "5", "6"]
    assert case_rounds(run, tmp_path / "c2", *one_day("2026-11-01")) == ["7"]
    assert main(["verify", str(tmp_path / "c1")]) == 4  # holds; unsigned
    # the same run read from the floor history (the store keeps the inputs' gaming days)
    assert case_rounds(Path("1"), tmp_path / "c3", *one_day("2026-11-01")) == ["7"]


def test_a_night_after_midnight_only_is_of_the_date_before(tmp_path: Path) -> None:
    """Every round on calendar date 2026-11-01 before 06:00: the input is of gaming day
    2026-10-31 alone, so a case of 2026-11-01 has no input at all."""
    run = audited(tmp_path, FALL_BACK[2:6])
    assert main(["case", str(run), "--licensee", "RL-0412", "--out", str(tmp_path / "c1"),
                 *one_day("2026-11-01")]) == 2
    assert case_rounds(run, tmp_path / "c2", *one_day("2026-10-31")) == ["1", "2", "3", "4"]


def test_the_runs_own_gaming_day_start_is_kept(tmp_path: Path) -> None:
    """A run whose gaming day begins at 04:00: round 6 (05:30) is of gaming day
    2026-11-01; the case says so, keeps the hour in its scope, and verify agrees."""
    settings = tmp_path / "bjh-auditor.toml"
    settings.write_text('gaming_day_starts = "04:00"\n', encoding="utf-8")
    run = audited(tmp_path, FALL_BACK, "--config", str(settings))
    assert case_rounds(run, tmp_path / "c1", *one_day("2026-10-31")) == [
        "1", "2", "3", "4", "5"]
    assert case_rounds(run, tmp_path / "c2", *one_day("2026-11-01")) == ["6", "7"]
    manifest = json.loads((tmp_path / "c2" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["scope"]["gaming_day_starts"] == "04:00"
    assert main(["verify", str(tmp_path / "c2")]) == 4  # holds; unsigned


def test_a_run_from_before_gaming_days_were_kept(tmp_path: Path) -> None:
    """findings.json of an older auditor: inputs without gaming days, findings without a
    gaming day. The findings are still filed by the gaming day of their round's start."""
    run = audited(tmp_path, FALL_BACK)
    path = run / "findings.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    for summary in document["inputs"]:
        del summary["first_gaming_day"], summary["last_gaming_day"]
    for finding in document["findings"]:
        finding["gaming_day"] = finding["shift"] = None
    path.write_text(json.dumps(document), encoding="utf-8")
    assert case_rounds(run, tmp_path / "c1", *one_day("2026-10-31")) == [
        "1", "2", "3", "4", "5", "6"]
    assert case_rounds(run, tmp_path / "c2", *one_day("2026-11-01")) == ["7"]


def test_scope_of_a_manifest_checks_its_hour() -> None:
    assert Scope.of_document({"from": "2026-11-01"}).gaming_day_starts == "06:00"
    assert Scope.of_document({"gaming_day_starts": "04:00"}).gaming_day_starts == "04:00"
    for bad in ("4:00", "04:30", 4, None):
        with pytest.raises(ManifestError, match="the scope's gaming_day_starts"):
            Scope.of_document({"gaming_day_starts": bad})


def test_scope_without_dates_takes_undated_inputs_and_findings() -> None:
    """No --from/--until: an input with no dated round and a finding with no date (about
    the whole record) are in scope; with dates, the undated input is not, the finding
    stays with its record."""
    summary = InputSummary(path="x.bjh", table="T11", licence="RL-0412")
    finding = Finding(citation="20:18:15:06", rule="r", severity="high", file="x.bjh",
                      line=None, message="m")
    assert Scope(licensee="RL-0412").takes_input(summary)
    assert not Scope(licensee="RL-0412", date_from="2026-11-01").takes_input(summary)
    assert Scope(licensee="RL-0412", date_from="2026-11-01").holds(finding)


def _cells(html: str, heading: str) -> list[list[str]]:
    """The rows (cell texts) of the case's table whose first heading cell is `heading`."""
    start = html.index(f"<tr><th>{heading}</th>")
    table = html[start:html.index("</table>", start)]
    return [[re.sub(r"<[^>]+>", "", cell).strip() for cell in
             re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)]


def test_the_case_names_gaming_dates_not_calendar_dates(tmp_path: Path) -> None:
    """Page 1's gaming dates, the count per gaming date of an over-long case and each
    input's dates in the provenance are gaming days, within the dates asked for: the case
    of gaming day 2026-10-31 is not said to run to 2026-11-01 because its night did."""
    run = audited(tmp_path, FALL_BACK)
    folder = tmp_path / "c1"
    assert main(["case", str(run), "--licensee", "RL-0412", "--out", str(folder),
                 *one_day("2026-10-31"), "--max-exhibits", "1"]) == 0
    html = (folder / "case.html").read_text(encoding="utf-8")
    assert re.findall(r"<tr><th>Gaming dates</th><td>(.*?)</td>", html) == ["2026-10-31"]
    assert _cells(html, "Gaming date") == [["Gaming date", "Findings"], ["2026-10-31", "6"]]
    # the input's own span: its rounds' gaming days, 2026-10-31 and (round 7) 2026-11-01
    assert [row[2] for row in _cells(html, "Input (copy)")][1:] == [
        "2026-10-31 to 2026-11-01"]


def test_a_night_after_midnight_is_dated_by_its_gaming_day(tmp_path: Path) -> None:
    """Rounds on calendar date 2026-11-01 before 06:00 only: the case and its input are of
    gaming day 2026-10-31, never said to be of 2026-11-01."""
    run = audited(tmp_path, FALL_BACK[2:6])
    folder = tmp_path / "c1"
    assert main(["case", str(run), "--licensee", "RL-0412", "--out", str(folder)]) == 0
    html = (folder / "case.html").read_text(encoding="utf-8")
    assert re.findall(r"<tr><th>Gaming dates</th><td>(.*?)</td>", html) == ["2026-10-31"]
    assert [row[2] for row in _cells(html, "Input (copy)")][1:] == ["2026-10-31"]
    assert "2026-11-01 (gaming day 2026-10-31)" in html  # each exhibit: its round's date too


def test_a_fault_after_midnight_in_a_round_begun_before_is_dated_as_it_happened(
        tmp_path: Path) -> None:
    """Round 2 begins at 23:59 on 2026-11-20 (its date) and its faulty settlement is written
    at 00:00:16: the exhibit gives the round's date and gaming day, and the time on the date
    it was (surveillance looks for 2026-11-21 00:00:16, not a day earlier)."""
    night = record([("2026-11-20", "21:00"), ("2026-11-20", "23:59")])
    assert _exhibits_where(tmp_path, night.replace("23:59:16 settle", "00:00:16 settle")) == [
        "table T11, 2026-11-20, round 1, 21:00:16, dealer D-2207, seat s3, hand s3h1; "
        "record inputs/night.bjh , line 17",
        "table T11, 2026-11-20, round 2, 00:00:16 on 2026-11-21, dealer D-2207, seat s3, "
        "hand s3h1; record inputs/night.bjh , line 30"]


def test_a_clock_set_back_inside_a_round_is_not_a_day_later(tmp_path: Path) -> None:
    """The fall-back change inside a round: begun at 01:55, settled at 01:05 on the clock
    set back an hour. The same date, never 'on the next day' (a round does not last 12
    hours; only a time in the morning after a start in the evening is past midnight)."""
    night = record([("2026-11-01", "01:55")])
    assert _exhibits_where(tmp_path, night.replace("01:55:16 settle", "01:05:16 settle")) == [
        "table T11, 2026-11-01 (gaming day 2026-10-31), round 1, 01:05:16, dealer D-2207, "
        "seat s3, hand s3h1; record inputs/night.bjh , line 17"]


def _exhibits_where(tmp_path: Path, night: str) -> list[str]:
    """Each exhibit's "Where" row, in words, of the case of one record audited alone."""
    records = tmp_path / "records"
    records.mkdir()
    (records / "night.bjh").write_text(night, encoding="utf-8")
    run, folder = tmp_path / "run", tmp_path / "case"
    assert main(["audit", str(records), "--out", str(run), "--quiet", "--store",
                 str(tmp_path / "h.sqlite")]) == 1
    assert main(["case", str(run), "--licensee", "RL-0412", "--out", str(folder)]) == 0
    html = (folder / "case.html").read_text(encoding="utf-8")
    return [" ".join(re.sub(r"<[^>]+>", " ", w).split())
            for w in re.findall(r"<tr><th>Where</th><td>(.*?)</td>", html, re.S)]
