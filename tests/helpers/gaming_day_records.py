"""Records of one table's nights whose every round pays a blackjack even money (one finding
of 20:18:15:06 a round), dealt at the dates and times given, and their audit: the nights
across midnight and the fall-back change of the gaming-day and time-zone tests."""

from __future__ import annotations

from pathlib import Path

from auditor.cli import main

HEADER = """bjh 1
casino "Deadwood Example Casino" licence=RL-0412
table T11 game=standard decks=6 seats=7 min=10 max=500 currency=USD
option soft17=hit
option surrender=late
dealer D-2207
shoe 611 date={date}
{time} shuffle
"""

ROUND = """
round {number}{date} time={hh}:{mm}:00 dealer=D-2207
{hh}:{mm}:10 sit s3 player=P-{number}
{hh}:{mm}:11 bet s3h1 main 20
{hh}:{mm}:12 deal s3h1 A{suit}
{hh}:{mm}:13 deal dealer 5{suit}
{hh}:{mm}:14 deal s3h1 {ten}{suit}
{hh}:{mm}:15 deal dealer 3{suit}
{hh}:{mm}:16 settle s3h1 main win 20
{hh}:{mm}:17 reveal
{hh}:{mm}:18 draw T{suit}
{hh}:{mm}:19 leave s3
{hh}:{mm}:20 end
"""

# The fall-back night of the probe G01 (inputs/dst-night.bjh): round 5 at 01:10 comes after
# round 4 at 01:30, in the repeated hour.
FALL_BACK = [("2026-10-31", "22:30"), ("2026-10-31", "23:50"), ("2026-11-01", "00:30"),
             ("2026-11-01", "01:30"), ("2026-11-01", "01:10"), ("2026-11-01", "05:30"),
             ("2026-11-01", "06:30")]


def record(rounds: list[tuple[str, str]], dated: bool = True) -> str:
    """A record of one round at each (date, HH:MM) of `rounds`, in that order; `dated`
    False: the rounds give no `date=`, only the shoe its first date."""
    first_date, first_time = rounds[0]
    text = HEADER.format(date=first_date, time=f"{first_time}:00")
    for number, (day, clock) in enumerate(rounds, start=1):
        hh, mm = clock.split(":")
        given = f" date={day}" if dated else ""
        text += ROUND.format(number=number, date=given, hh=hh, mm=mm,  # no card 3 times
                             suit="hsdc"[number % 4], ten="JQK"[number % 3])
    return text


def audited(tmp_path: Path, rounds: list[tuple[str, str]], *more: str,
            dated: bool = True) -> Path:
    """The record of `rounds` (`dated`: see `record`) audited (flags `more`) into
    `tmp_path`/run: that folder."""
    records = tmp_path / "records"
    records.mkdir()
    (records / "night.bjh").write_text(record(rounds, dated), encoding="utf-8")
    out = tmp_path / "run"
    assert main(["audit", str(records), "--out", str(out), "--quiet", *more]) == 1
    return out
