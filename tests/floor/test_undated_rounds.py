"""A record that gives its date once (on the shoe) and its rounds only a time: a round at
00:30 after one at 23:50 is of the next calendar date and of the gaming day begun the
evening before, in findings.json and .csv, the case, the incidents and the floor history
(trends), as the same night with each round's `date=` is. The date moves on by the rule
every output dates a time by (auditor/clock.py `date_after`): the clock back more than an
hour passed midnight; back an hour or less (the fall-back hour) it did not."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from auditor.cli import main
from auditor.store import open_store
from auditor.trends.analysis import Settings, trends_document
from tests.helpers.gaming_day_records import FALL_BACK, audited, record

# The fall-back night (rounds 1-7 from 22:30 on 10-31 to 06:30 on 11-01, round 5 at 01:10
# after round 4 at 01:30): each round's date, start, gaming day and shift.
DATED = [("1", "2026-10-31", "22:30:00", "2026-10-31", "grave"),
         ("2", "2026-10-31", "23:50:00", "2026-10-31", "grave"),
         ("3", "2026-11-01", "00:30:00", "2026-10-31", "grave"),
         ("4", "2026-11-01", "01:30:00", "2026-10-31", "grave"),
         ("5", "2026-11-01", "01:10:00", "2026-10-31", "grave"),
         ("6", "2026-11-01", "05:30:00", "2026-10-31", "grave"),
         ("7", "2026-11-01", "06:30:00", "2026-11-01", "day")]


def night(tmp_path: Path, dated: bool) -> Path:
    """The fall-back night audited into tmp_path/run with its own store."""
    tmp_path.mkdir(exist_ok=True)
    return audited(tmp_path, FALL_BACK, "--store", str(tmp_path / "h.sqlite"),
                   "--new-store", dated=dated)


def test_rounds_without_a_date_are_dated_past_midnight(tmp_path: Path) -> None:
    assert "date=2026-11-01" not in record(FALL_BACK, dated=False)
    run = night(tmp_path / "undated", dated=False)
    document = json.loads((run / "findings.json").read_text(encoding="utf-8"))
    assert [(f["round"], f["date"], f["round_started"], f["gaming_day"], f["shift"])
            for f in document["findings"]] == DATED
    summary = document["inputs"][0]
    assert (summary["first_date"], summary["last_date"], summary["first_gaming_day"],
            summary["last_gaming_day"]) == ("2026-10-31", "2026-11-01", "2026-10-31",
                                            "2026-11-01")
    with (run / "findings.csv").open(encoding="utf-8", newline="") as handle:
        assert [(row["round"], row["date"], row["gaming_day"])
                for row in csv.DictReader(handle)] == [row[:2] + row[3:4] for row in DATED]
    # the same night with each round's date=: the same findings, IDs and all (but the
    # folder they were read in)
    dated = json.loads((night(tmp_path / "dated", dated=True) / "findings.json").read_text(
        encoding="utf-8"))
    assert [{**f, "file": None} for f in document["findings"]] == [
        {**f, "file": None} for f in dated["findings"]]


@pytest.mark.parametrize("rounds, gaming_days", [
    # a year's end: 00:20 is of 2027-01-01, the night of 2026-12-31
    ([("2026-12-31", "23:40"), ("2027-01-01", "00:20"), ("2027-01-01", "06:10")],
     ["2026-12-31", "2026-12-31", "2027-01-01"]),
    # a month's end in a leap year; the first round begun at 23:59:00 and dealt from
    # 00:00:00 on
    ([("2028-02-28", "23:59"), ("2028-02-29", "00:01"), ("2028-02-29", "07:00")],
     ["2028-02-28", "2028-02-28", "2028-02-29"]),
], ids=["year-end", "leap-day"])
def test_undated_rounds_across_a_months_and_a_years_end(tmp_path: Path, rounds,
                                                        gaming_days) -> None:
    text = record(rounds, dated=False).replace("23:59:1", "00:00:0")
    records = tmp_path / "records"
    records.mkdir()
    (records / "night.bjh").write_text(text, encoding="utf-8")
    assert main(["audit", str(records), "--out", str(tmp_path / "run"), "--quiet",
                 "--store", str(tmp_path / "h.sqlite"), "--new-store"]) == 1
    findings = json.loads((tmp_path / "run" / "findings.json").read_text("utf-8"))["findings"]
    assert [(f["date"], f["round_started"][:5], f["gaming_day"]) for f in findings] == [
        (day, clock, gaming_day) for (day, clock), gaming_day in zip(rounds, gaming_days,
                                                                     strict=True)]
    if rounds[0][1] == "23:59":  # settled past midnight, in the round of the 28th
        assert (findings[0]["time"], findings[0]["round_ended"]) == ("00:00:06", "00:00:09")


def test_the_case_incidents_and_trends_of_undated_rounds(tmp_path: Path) -> None:
    run = night(tmp_path, dated=False)
    assert main(["case", str(run), "--licensee", "RL-0412", "--out", str(tmp_path / "c"),
                 "--from", "2026-10-31", "--until", "2026-10-31"]) == 0
    case = json.loads((tmp_path / "c" / "findings.json").read_text(encoding="utf-8"))
    assert [f["round"] for f in case["findings"]] == ["1", "2", "3", "4", "5", "6"]
    store = str(tmp_path / "h.sqlite")
    assert main(["incidents", "--store", store, "--out", str(tmp_path / "i"), "--quiet"]) == 0
    incidents = json.loads((tmp_path / "i" / "incidents.json").read_text(encoding="utf-8"))
    assert [(i["record"]["round"], i["occurred"]["start"], i["occurred"]["end"],
             i["gaming_day"]) for i in incidents["incidents"]] == [
        (number, f"{day}T{start}", f"{day}T{start[:6]}19", gaming_day)
        for number, day, start, gaming_day, _ in DATED]
    engine = open_store(store)
    trends = trends_document(engine, Settings(min_rounds=1), store)
    engine.dispose()
    assert [(r["key"], r["rounds"], r["findings"]) for r in trends["rates"]["day"]] == [
        ("2026-10-31", 6, 6), ("2026-11-01", 1, 1)]


def test_a_waivers_dates_are_gaming_days(tmp_path: Path) -> None:
    """A waiver `from`/`until` 2026-10-31 covers that night's findings, those after
    midnight (calendar date 2026-11-01) included, and not round 7 of the next gaming day;
    it covered rounds 1 and 2 only (their calendar date)."""
    waivers = tmp_path / "waivers.toml"
    waivers.write_text('[[waiver]]\ncitation = "06"\nfrom = 2026-10-31\nuntil = 2026-10-31\n'
                       'justification = "layout misprinted that night"\n'
                       'approved_by = "J. Doe"\nexpires = 2099-12-31\n', encoding="utf-8")
    for dated in (True, False):
        folder = tmp_path / ("dated" if dated else "undated")
        folder.mkdir()
        run = audited(folder, FALL_BACK, "--waivers", str(waivers), dated=dated)
        findings = json.loads((run / "findings.json").read_text(encoding="utf-8"))["findings"]
        assert [f["round"] for f in findings if f["waiver"]] == ["1", "2", "3", "4", "5", "6"]
        assert [f["round"] for f in findings if not f["waiver"]] == ["7"]


# Ten sticks 21 at two tables after midnight: T32 (dated 2026-11-21) punches P-7's card at
# 00:10; T31, whose shoe is dated 2026-11-20 and whose round 2 gives only its time, takes
# it in at 00:30; T32 takes the same card in again at 01:00, never punched since.
TAKEN_IN_AFTER_MIDNIGHT = """\
bjh 1
casino "Case Casino" licence=RL-0001
table T31 game=tensticks decks=6 min=5 max=500
option tensticks.prize=500
shoe 401 date=2026-11-20
23:40:00 shuffle
23:40:30 cut
round 1 time=23:50:00 dealer=D-3101
23:50:00 sit s5 player=P-9
23:50:01 bet s5h1 main 25
23:50:05 deal s5h1 8h
23:50:06 deal dealer 7s
23:50:07 deal s5h1 Tc
23:50:08 deal dealer Kd
23:50:15 stand s5h1
23:50:20 reveal
23:50:25 settle s5h1 main push 25
end
round 2 time=00:30:00 dealer=D-3101
00:30:00 sit s2 player=P-7 punchcard=PC-7 punches=3
00:30:01 bet s2h1 main 25
00:30:05 deal s2h1 9h
00:30:06 deal dealer 7d
00:30:07 deal s2h1 Kc
00:30:08 deal dealer Qh
00:30:12 stand s2h1
00:30:20 reveal
00:30:25 settle s2h1 main push 25
end
close
"""
PUNCHED_AFTER_MIDNIGHT = """\
bjh 1
casino "Case Casino" licence=RL-0001
table T32 game=tensticks decks=6 min=5 max=500
option tensticks.prize=500
shoe 502 date=2026-11-21
00:00:00 shuffle
00:00:30 cut
round 1 time=00:10:00 dealer=D-3202
00:10:00 sit s4 player=P-7
00:10:01 bet s4h1 main 25
00:10:05 deal s4h1 9h
00:10:06 deal dealer 7s
00:10:07 deal s4h1 Tc
00:10:08 deal dealer Kd
00:10:10 trade s4h1 Qd
00:10:11 light s4 3
00:10:12 stand s4h1
00:10:20 reveal
00:10:25 settle s4h1 main win 25
00:10:30 leave s4 punchcard=PC-7 punches=3
end
round 2 time=01:00:00 dealer=D-3202
01:00:00 sit s4 player=P-7 punchcard=PC-7 punches=3
01:00:01 bet s4h1 main 25
01:00:05 deal s4h1 9s
01:00:06 deal dealer 7c
01:00:07 deal s4h1 Kd
01:00:08 deal dealer Qd
01:00:12 stand s4h1
01:00:20 reveal
01:00:25 settle s4h1 main push 25
end
close
"""


def test_punched_cards_across_tables_are_followed_in_time_past_midnight(
        tmp_path: Path) -> None:
    """The card handed in twice is found: T31's round at 00:30 was dated 2026-11-20 and so
    put before the punch at 00:10, and the second hand-in went unreported."""
    records = tmp_path / "records"
    records.mkdir()
    (records / "t31.bjh").write_text(TAKEN_IN_AFTER_MIDNIGHT, encoding="utf-8")
    (records / "t32.bjh").write_text(PUNCHED_AFTER_MIDNIGHT, encoding="utf-8")
    out = tmp_path / "run"
    assert main(["audit", str(records), "--out", str(out), "--quiet", "--store",
                 str(tmp_path / "h.sqlite"), "--new-store"]) == 1
    findings = json.loads((out / "findings.json").read_text("utf-8"))["findings"]
    assert [(Path(f["file"]).name, f["round"], f["line"], f["date"], f["message"])
            for f in findings if f["citation"] == "20:18:15:30.02(\u00b611)"] == [
        ("t32.bjh", "2", 23, "2026-11-21", "Card PC-7 was handed in at s4, but it had "
         "already been surrendered at table T31 (t31.bjh line 20) and not punched since.")]


def test_a_rounds_own_date_is_its_own(tmp_path: Path) -> None:
    """Round 2 gives its own date (2026-11-21, 00:10): its alone (bjh-format.md §1). Round 3
    (00:20) is still dated by its shoe's date moved past midnight, and round 4, which gives
    another day of its own, leaves round 5 on the shoe's date moved on as before."""
    rounds = [("2026-11-20", "23:50"), ("2026-11-21", "00:10"), ("2026-11-21", "00:20"),
              ("2026-12-25", "00:30"), ("2026-11-21", "00:40")]
    text = record(rounds, dated=False).replace(
        "round 2 time", "round 2 date=2026-11-21 time").replace(
        "round 4 time", "round 4 date=2026-12-25 time")
    records = tmp_path / "records"
    records.mkdir()
    (records / "night.bjh").write_text(text, encoding="utf-8")
    assert main(["audit", str(records), "--out", str(tmp_path / "run"), "--quiet",
                 "--store", str(tmp_path / "h.sqlite"), "--new-store"]) == 1
    findings = json.loads((tmp_path / "run" / "findings.json").read_text("utf-8"))["findings"]
    assert [(f["round"], f["date"]) for f in findings] == [
        (str(number), day) for number, (day, _) in enumerate(rounds, start=1)]
