"""Patterns across nights (auditor/patterns.py) in `auditor diff`: three simulated nights
into one store, a careless dealer planted on nights 2 and 3; each pattern's counts are
those of the nights' findings.csv, and the dealer's patterns are new on night 2 and
recurring on night 3."""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import pytest

from auditor.cli import main

CARELESS = "D-1003"
NIGHTS = ("2026-11-20", "2026-11-21", "2026-11-22")


@pytest.fixture(scope="module")
def nights(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("nights")
    store = str(folder / "history.sqlite")
    outs = []
    for number, day in enumerate(NIGHTS, start=1):
        records = folder / f"night{number}"
        arguments = ["simulate", "--game", "standard", "--tables", "3", "--rounds", "60",
                     "--faults", "0.01", "--seed", f"patterns-{number}", "--date", day,
                     "--out", str(records), "--quiet", "--roster"]
        if number > 1:  # every round of the dealer's gets a planted fault
            arguments += ["--careless", f"{CARELESS}:100"]
        assert main(arguments) == 0
        out = folder / f"out{number}"
        assert main(["audit", str(records), "--out", str(out), "--store", store, "--quiet",
                     "--jobs", "1"]) == 1
        outs.append(out)
    return {"store": store, "outs": outs}


def counted(out: Path) -> Counter:
    """Each pattern's findings, counted here from findings.csv."""
    counts: Counter = Counter()
    with (out / "findings.csv").open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            for kind, unit in (("table", row["table_key"]), ("dealer", row["dealer"]),
                               ("player", row["player"])):
                if unit:
                    counts[kind, unit, row["citation"]] += 1
    return counts


def diff(store: str, earlier: int, later: int, capsys) -> dict:
    capsys.readouterr()
    assert main(["diff", str(earlier), str(later), "--store", store, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def expected_patterns(before: Counter, after: Counter, earlier: int, later: int) -> dict:
    return {(kind, unit, citation): (
        {str(earlier): before[kind, unit, citation], str(later): after[kind, unit, citation]},
        "new" if not before[kind, unit, citation] else
        "gone" if not after[kind, unit, citation] else "recurring")
        for kind, unit, citation in set(before) | set(after)}


def test_the_careless_dealer_is_new_on_night_2_and_recurring_on_night_3(nights, capsys):
    store, outs = nights["store"], nights["outs"]
    counts = [counted(out) for out in outs]
    second, third = diff(store, 1, 2, capsys), diff(store, 2, 3, capsys)
    for document, (earlier, later) in ((second, (1, 2)), (third, (2, 3))):
        got = {(p["kind"], p["key"][p["kind"]], p["key"]["citation"]): (p["counts"], p["status"])
               for p in document["patterns"]}
        assert got == expected_patterns(counts[earlier - 1], counts[later - 1], earlier, later)
        # the per-finding comparison stays beside the patterns
        assert {"new", "persisting", "resolved", "money"} <= set(document)
    dealer = [{c for (kind, unit, c) in night if kind == "dealer" and unit == CARELESS}
              for night in counts]
    followed = (dealer[1] & dealer[2]) - dealer[0]
    assert followed, "the planted dealer repeats no citation on nights 2 and 3"
    statuses = {(p["key"].get("dealer"), p["key"]["citation"]): p["status"]
                for p in second["patterns"]}
    assert {statuses[CARELESS, c] for c in dealer[1] - dealer[0]} == {"new"}
    statuses = {(p["key"].get("dealer"), p["key"]["citation"]): p["status"]
                for p in third["patterns"]}
    assert {statuses[CARELESS, c] for c in followed} == {"recurring"}


def test_diff_prints_the_patterns(nights, capsys) -> None:
    capsys.readouterr()
    assert main(["diff", "2", "3", "--store", nights["store"]]) == 0
    printed = capsys.readouterr().out
    assert "Patterns (table, dealer, player × citation): " in printed
    assert f"  recurring dealer {CARELESS} × " in printed


def test_a_pattern_is_printed_without_control_characters() -> None:
    from auditor.patterns import describe

    pattern = {"kind": "player", "key": {"player": "P-\x1b[2J\n1", "citation": "20:18:15:06"}}
    assert describe(pattern) == "player P-\\u001b[2J\\u000a1 × 20:18:15:06"
