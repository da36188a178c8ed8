"""`auditor incidents` dates a round's end as every output dates a time read after another
(auditor/clock.py `past_midnight`): a round dealt across the hour repeated when daylight
saving time ends (01:59 MDT to 01:00 MST on 2026-11-01 in Denver) ends the same date, not
the next, whether or not the settings name the zone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from auditor.cli import main
from tests.helpers.gaming_day_records import record


def exported(tmp_path: Path, settings: str) -> list[tuple[str, str, str]]:
    """(round, occurred start, end) of each incident of a night whose second round begins
    at 01:59 and ends after the clock went back, audited under `settings`."""
    records = tmp_path / "records"
    records.mkdir()
    text = record([("2026-10-31", "23:50"), ("2026-11-01", "01:59")])
    text = text.replace("01:59:19 leave s3", "01:00:04 leave s3").replace(
        "01:59:20 end", "01:00:05 end")
    (records / "night.bjh").write_text(text, encoding="utf-8")
    (tmp_path / "settings.toml").write_text(settings, encoding="utf-8")
    store, config = str(tmp_path / "history.sqlite"), str(tmp_path / "settings.toml")
    assert main(["audit", str(records), "--out", str(tmp_path / "run"), "--quiet",
                 "--config", config, "--store", store, "--new-store", "--jobs", "1"]) == 1
    assert main(["incidents", "--store", store, "--out", str(tmp_path / "incidents"),
                 "--config", config, "--quiet"]) == 0
    document = json.loads((tmp_path / "incidents" / "incidents.json").read_text("utf-8"))
    return [(i["record"]["round"], i["occurred"]["start"], i["occurred"]["end"])
            for i in document["incidents"]]


@pytest.mark.parametrize(("settings", "second_ends"), [
    ('time-zone = "America/Denver"\n', "2026-11-01T01:00:04"),
    # no zone named: the clock set back under an hour is still the same date (the case's
    # exhibit says so too); this export said 2026-11-02, a day late
    ("", "2026-11-01T01:00:04"),
], ids=["denver", "no-zone"])
def test_a_round_across_the_repeated_hour_is_exported_ending_that_date(
        tmp_path: Path, settings: str, second_ends: str) -> None:
    assert exported(tmp_path, settings) == [
        ("1", "2026-10-31T23:50:00", "2026-10-31T23:50:19"),
        ("2", "2026-11-01T01:59:00", second_ends)]
