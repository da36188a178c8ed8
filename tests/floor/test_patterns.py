"""Patterns across nights (auditor/patterns.py) in `auditor diff` and in `auditor audit
--baseline last|RUN`: three simulated nights into one store, each audited with `--baseline
last`, a careless dealer planted on nights 2 and 3; each pattern's counts are those of the
nights' findings.csv, and the dealer's patterns are new on night 2 and recurring on night
3."""

from __future__ import annotations

import csv
import json
import shutil
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
                     "--jobs", "1", "--baseline", "last"]) == 1
        outs.append(out)
    return {"store": store, "outs": outs, "folder": folder}


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
    assert f"  recurring   dealer {CARELESS} × " in printed


def test_a_pattern_is_printed_without_control_characters() -> None:
    from auditor.patterns import describe

    pattern = {"kind": "player", "key": {"player": "P-\x1b[2J\n1", "citation": "20:18:15:06"}}
    assert describe(pattern) == "player P-\\u001b[2J\\u000a1 × 20:18:15:06"


def findings_json(out: Path) -> dict:
    return json.loads((out / "findings.json").read_text(encoding="utf-8"))


def keyed(patterns: list[dict]) -> dict:
    return {(p["kind"], p["key"][p["kind"]], p["key"]["citation"]): (p["counts"], p["status"])
            for p in patterns}


def test_baseline_last_compares_patterns_with_last_night(nights, capsys):
    """Each night audited with `--baseline last`: no earlier run holds its records, so
    finding by finding everything is new and nothing resolved; its patterns are compared
    with last night's run (the latest over the same tables), as `diff` compares them."""
    outs = nights["outs"]
    counts = [counted(out) for out in outs]
    first = findings_json(outs[0])
    assert first["patterns"] is None and "patterns_run" not in first["auditor"]
    for night in (2, 3):
        document = findings_json(outs[night - 1])
        assert document["auditor"]["patterns_run"] == night - 1
        assert "baseline_run" not in document["auditor"]  # no run over the same records
        assert document["resolved"] == []
        assert {f["baseline"] for f in document["findings"]} == {"new"}
        assert keyed(document["patterns"]) == expected_patterns(
            counts[night - 2], counts[night - 1], night - 1, night)
        assert document["patterns"] == diff(nights["store"], night - 1, night, capsys)[
            "patterns"]
    second, third = (keyed(findings_json(outs[n])["patterns"]) for n in (1, 2))
    planted = {c for (kind, unit, c) in counts[1] if kind == "dealer" and unit == CARELESS}
    assert planted and all(second["dealer", CARELESS, c][1] == "new" for c in planted)
    again = planted & {c for (kind, unit, c) in counts[2] if kind == "dealer" and unit == CARELESS}
    assert again and all(third["dealer", CARELESS, c][1] == "recurring" for c in again)
    gone = set(counts[0]) - set(counts[1])  # patterns of night 1 that night 2 lacks
    assert gone, "night 1 has no pattern night 2 lacks"
    assert {key: second[key] for key in gone} == {
        key: ({"1": counts[0][key], "2": 0}, "gone") for key in gone}


def test_baseline_run_names_the_run_and_prints_the_patterns(nights, tmp_path, capsys):
    """`--baseline 1` on night 3's records: the patterns against run 1, in the terminal
    summary (counts, then each status) and in findings.json. Run 1 audited other records
    (another night's), so no finding is compared one by one: every one is new, none of
    night 1's is "resolved", and one line says so."""
    store = copy_store(nights["store"], tmp_path)
    records, out = nights["folder"] / "night3", tmp_path / "out"
    capsys.readouterr()
    assert main(["audit", str(records), "--out", str(out), "--store", store, "--jobs", "1",
                 "--baseline", "1"]) == 1
    captured = capsys.readouterr()
    printed = captured.out.splitlines()
    assert ("auditor: --baseline 1: run 1 audited none of these records (by content), so no "
            "finding is compared one by one") in " ".join(captured.err.split())
    document = findings_json(out)
    assert document["auditor"]["patterns_run"] == 1
    assert "baseline_run" not in document["auditor"]
    assert document["resolved"] == []
    assert {f["baseline"] for f in document["findings"]} == {"new"}
    expected = expected_patterns(counted(nights["outs"][0]), counted(out), 1, 4)
    assert keyed(document["patterns"]) == expected
    statuses = Counter(status for _, status in expected.values())
    heading = (f"Patterns (table, dealer, player × citation) against run 1: {statuses['new']} "
               f"new, {statuses['recurring']} recurring, {statuses['gone']} gone, "
               "0 not audited.")
    assert heading in printed
    listed = printed[printed.index(heading) + 1:]
    dealer = max((key for key in expected if key[:2] == ("dealer", CARELESS)),
                 key=lambda key: expected[key][0]["4"])  # the most findings: listed first
    assert f"  new         dealer {CARELESS} × {dealer[2]}  run 1: 0, run 4: " \
           f"{expected[dealer][0]['4']}" in listed


def test_baseline_run_over_the_same_records_compares_finding_by_finding(nights, tmp_path):
    """`--baseline 3` on night 3's own records: run 3 audited them, so the findings are
    compared one by one (all persisting, none resolved) as well as by patterns."""
    store = copy_store(nights["store"], tmp_path)
    out = tmp_path / "out"
    assert main(["audit", str(nights["folder"] / "night3"), "--out", str(out), "--store",
                 store, "--jobs", "1", "--quiet", "--baseline", "3"]) == 1
    document = findings_json(out)
    assert document["auditor"]["baseline_run"] == document["auditor"]["patterns_run"] == 3
    assert document["resolved"] == []
    assert {f["baseline"] for f in document["findings"]} == {"persisting"}
    assert {status for _, status in keyed(document["patterns"]).values()} == {"recurring"}


def test_a_recheck_of_one_table_is_compared_with_last_night_not_tonight(nights, tmp_path):
    """Night 3's record with the most findings alone, edited (other contents) and audited again with
    `--baseline last`: tonight's run 3 is not "last night" (it began on the same day);
    the patterns are compared with run 2, and those of night 2's other tables, which this
    re-check did not audit, are "not audited", never "gone"."""
    from auditor.patterns import table_keys

    store = copy_store(nights["store"], tmp_path)
    night3 = findings_json(nights["outs"][2])["findings"]
    first = Path(Counter(f["file"] for f in night3).most_common(1)[0][0])
    records = tmp_path / "recheck"
    records.mkdir()
    text = first.read_text(encoding="utf-8")
    (records / first.name).write_text(text + "# re-checked\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["audit", str(records), "--out", str(out), "--store", store, "--jobs", "1",
                 "--quiet", "--baseline", "last"]) == 1
    document = findings_json(out)
    assert document["auditor"]["patterns_run"] == 2
    audited = set(table_keys(document["inputs"]).values())
    night2 = findings_json(nights["outs"][1])
    tables2 = table_keys(night2["inputs"])
    before, after = counted(nights["outs"][1]), counted(out)
    where: dict = {}
    for finding in night2["findings"]:
        table = tables2.get(finding["file"])
        for kind in ("table", "dealer", "player"):
            if finding.get(kind if kind != "table" else "file") and table:
                unit = table if kind == "table" else finding[kind]
                where.setdefault((kind, unit, finding["citation"]), set()).add(table)
    got = keyed(document["patterns"])
    missing = set(before) - set(after)
    assert {status for key in missing for status in [got[key][1]]} == {"gone", "not audited"}
    for key in missing:
        assert got[key] == ({"2": before[key], "4": 0},
                            "gone" if where[key] & audited else "not audited"), key


def test_baseline_run_that_cannot_be_used_is_refused_before_the_audit(nights, tmp_path,
                                                                      capsys):
    from auditor.store import begin_run, list_runs, open_store

    store = copy_store(nights["store"], tmp_path)
    engine = open_store(store)
    unfinished = begin_run(engine, {"version": "0", "rule_base": "x", "command": "auditor",
                                    "started": "2026-11-23T06:30:00+00:00"}, {})
    records = nights["folder"] / "night3"
    for run, reason in ((99, "the store has no run 99"),
                        (unfinished, f"run {unfinished} never finished")):
        capsys.readouterr()
        assert main(["audit", str(records), "--out", str(tmp_path / "out"), "--store", store,
                     "--jobs", "1", "--quiet", "--baseline", str(run)]) == 2
        error = capsys.readouterr().err
        assert error.startswith(f"auditor: --baseline {run}: {reason}"), error
        assert len(error.splitlines()) == 1
    assert [row.id for row in list_runs(engine)] == [1, 2, 3, unfinished]  # none recorded
    assert not (tmp_path / "out" / "findings.json").exists()
    engine.dispose()


def copy_store(store: str, folder: Path) -> str:
    """The shared store copied, so a test's audits never renumber the others' runs."""
    copy = folder / "copy.sqlite"
    shutil.copy(store, copy)
    return str(copy)


def test_a_run_with_patterns_is_reported_again_with_them(nights, tmp_path):
    again = tmp_path / "again"
    assert main(["report", "2", "--store", nights["store"], "--out", str(again)]) == 0
    assert (again / "findings.json").read_bytes() == \
        (nights["outs"][1] / "findings.json").read_bytes()
    assert findings_json(again)["patterns"]
