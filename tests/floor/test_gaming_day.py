"""Gaming days and shifts (auditor/gaming_day.py): a night that crosses midnight is one
gaming day in findings.json, findings.csv and `auditor trends`; the settings file chooses when
the day begins and the shifts; the player at the seat is on every finding."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from auditor.cli import main
from auditor.gaming_day import Calendar
from auditor.store import open_store
from auditor.trends.analysis import Settings, trends_document
from tests.helpers.audits import audit, written
from tests.helpers.midnight_records import NIGHT


def night_audited(tmp_path: Path, store: str, *extra: str) -> Path:
    """NIGHT audited into tmp_path / "out" (its findings: exit 1)."""
    out = tmp_path / "out"
    assert audit(written(tmp_path, NIGHT, "night.bjh"), out=out, store=store, more=extra) == 1
    return out


def test_a_night_crossing_midnight_is_one_gaming_day_everywhere(tmp_path, store_url) -> None:
    out = night_audited(tmp_path, store_url)
    findings = json.loads((out / "findings.json").read_text(encoding="utf-8"))["findings"]
    assert [(f["citation"], f["line"], f["date"], f["round_started"], f["gaming_day"],
             f["shift"], f["player"]) for f in findings] == [
        ("20:18:15:06", 18, "2026-11-22", "23:50:00", "2026-11-22", "grave", "P-1"),
        ("20:18:15:06", 29, "2026-11-23", "00:30:00", "2026-11-22", "grave", "P-1"),
        ("20:18:15:06", 40, "2026-11-23", "06:10:00", "2026-11-23", "day", "P-1")]
    with (out / "findings.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["line"], r["date"], r["gaming_day"], r["shift"], r["player"]) for r in rows] == [
        ("18", "2026-11-22", "2026-11-22", "grave", "P-1"),
        ("29", "2026-11-23", "2026-11-22", "grave", "P-1"),
        ("40", "2026-11-23", "2026-11-23", "day", "P-1")]
    engine = open_store(store_url)
    whole = trends_document(engine, Settings(min_rounds=1), store_url)
    night = trends_document(engine, Settings(since="2026-11-22", until="2026-11-22"),
                            store_url)
    engine.dispose()
    assert [(r["key"], r["rounds"], r["findings"]) for r in whole["rates"]["day"]] == [
        ("2026-11-22", 2, 2), ("2026-11-23", 1, 1)]
    assert [(r["key"], r["rounds"], r["findings"]) for r in whole["rates"]["shift"]] == [
        ("day", 1, 1), ("grave", 2, 2)]
    assert [(r["key"], r["rounds"], r["findings"]) for r in night["rates"]["day"]] == [
        ("2026-11-22", 2, 2)]


def test_the_settings_file_chooses_the_gaming_day_and_the_shifts(tmp_path) -> None:
    config = tmp_path / "bjh-auditor.toml"
    config.write_text('gaming_day_starts = "00:00"\n[shifts]\nnight = "20:00-08:00"\n'
                      'daylight = "08:00-20:00"\n', encoding="utf-8")
    out = night_audited(tmp_path, str(tmp_path / "history.sqlite"), "--config", str(config))
    findings = json.loads((out / "findings.json").read_text(encoding="utf-8"))["findings"]
    assert [(f["line"], f["gaming_day"], f["shift"]) for f in findings] == [
        (18, "2026-11-22", "night"), (29, "2026-11-23", "night"), (40, "2026-11-23", "night")]


@pytest.mark.parametrize(("content", "message"), [
    ('gaming_day_starts = "06:30"\n',
     "line 1: `gaming-day-starts`: '06:30' is not a time on the hour (HH:00, 00:00 to 23:00)"),
    ('[shifts]\nday = "06:00-14:00"\nlate = "12:00-06:00"\n',
     "`shifts`: 'late' and 'day' both hold 12:00"),
    ('[shifts]\nday = "6-14"\n',
     "`shifts`: '6' is not a time on the hour (HH:00, 00:00 to 23:00)"),
])
def test_a_calendar_that_cannot_be_used_is_refused(tmp_path, capsys, content, message) -> None:
    config = tmp_path / "job.toml"
    config.write_text(content, encoding="utf-8")
    record = tmp_path / "night.bjh"
    record.write_text(NIGHT, encoding="utf-8")
    assert main(["audit", str(record), "--config", str(config), "--out",
                 str(tmp_path / "out"), "--quiet"]) == 2
    error = capsys.readouterr().err
    assert error == f"auditor: settings: {config}: {message}\n"


def test_the_calendar_by_hand() -> None:
    calendar = Calendar.of("06:00", None)
    assert calendar.gaming_day("2026-03-02", "01:30:00") == "2026-03-01"
    assert calendar.gaming_day("2026-03-02", "06:00:00") == "2026-03-02"
    assert calendar.gaming_day("2026-03-01", "05:59:59") == "2026-02-28"
    assert calendar.gaming_day("2026-03-02", None) == "2026-03-02"
    assert [calendar.shift(t) for t in ("05:59", "06:00", "13:59", "14:00", "22:00", None)] == [
        "grave", "day", "day", "swing", "grave", None]
    assert calendar.of_stamp("2026-03-02 01") == ("2026-03-01", "grave")
    assert calendar.of_stamp("2026-03-02") == ("2026-03-02", None)


def test_an_hour_no_shift_covers_is_shown_under_none_not_a_default_shift(tmp_path) -> None:
    """Settings with a day shift only: the rounds at 23:50 and 00:30 are in no shift. Every
    output says so ("" in findings.csv, "(none)" in the summary and the report's shift
    filter), never the built-in "grave" shift."""
    config = tmp_path / "bjh-auditor.toml"
    config.write_text('[shifts]\nday = "06:00-14:00"\n', encoding="utf-8")
    out = night_audited(tmp_path, str(tmp_path / "history.sqlite"), "--config", str(config))
    findings = json.loads((out / "findings.json").read_text(encoding="utf-8"))["findings"]
    assert [(f["line"], f["shift"]) for f in findings] == [(18, None), (29, None), (40, "day")]
    with (out / "findings.csv").open(encoding="utf-8", newline="") as handle:
        assert [(r["line"], r["shift"]) for r in csv.DictReader(handle)] == [
            ("18", ""), ("29", ""), ("40", "day")]
    summary = (out / "summary.csv").read_text(encoding="utf-8")
    assert "shift,(none),,2,2," in summary and "grave" not in summary
    page = (out / "report.html").read_text(encoding="utf-8")
    assert ('<option value="">All shifts</option>\n<option value="day">day</option>'
            '<option value="(none)">No shift</option></select>') in page
    assert page.count('"h":"day"') == 1 and '"h":"grave"' not in page
    assert "as this run's settings define them: day 06:00–14:00; " in page
    assert "grave 22:00" not in page


def test_a_finding_judged_before_shifts_takes_the_default_shift_at_its_round_start() -> None:
    from auditor.findings import Finding
    from auditor.gaming_day import shift_shown

    base = {"citation": "20:18:15:06", "rule": "r", "severity": "high", "file": "f",
            "line": 1, "message": "m", "date": "2026-11-22", "time": "13:59:59"}
    assert shift_shown(Finding(**base, round_started="14:00:00")) == "swing"  # old run
    assert shift_shown(Finding(**base)) == "day"
    stamped = Finding(**base, round_started="23:50:00", gaming_day="2026-11-22")
    assert shift_shown(stamped) is None  # judged: no shift of its calendar covers it
    assert shift_shown(Finding(**{**base, "date": None})) is None
