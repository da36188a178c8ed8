"""A baseline compares only the citations both runs judged: a `--select`/`--ignore` run
never makes the other citations' findings "new" or "resolved" (nor their patterns new or
gone); `--baseline last` prefers a run that judged at least what this one judges."""

from __future__ import annotations

import json
from pathlib import Path

from auditor.cli import EXIT_CLEAN, EXIT_FINDINGS, main
from tests.helpers import SAMPLES
from tests.helpers.audits import audit, findings_of

# Its findings: 26, 30, 06 and 23 (dealer D-2207), and record:syntax (dealer D-3140).
STANDARD = SAMPLES / "standard-t11-2026-11-20.bjh"
OTHERS = {"20:18:15:26", "20:18:15:30", "20:18:15:23"}  # what --select 06 leaves out


def run(tmp_path: Path, name: str, *more: str) -> tuple[int, dict]:
    """STANDARD audited into tmp_path / name with the test's store: exit code, findings.json."""
    out = tmp_path / name
    code = audit(STANDARD, out=out, store=tmp_path / "store.sqlite", more=more)
    return code, findings_of(out)


def marks(document: dict) -> dict[str, str]:
    return {f["citation"]: f["baseline"] for f in document["findings"]}


def pattern_statuses(document: dict) -> dict[tuple[str, str, str], str]:
    return {(p["kind"], p["key"][p["kind"]], p["key"]["citation"]): p["status"]
            for p in document["patterns"]}


def test_last_prefers_the_full_audit_to_a_later_recheck_of_one_citation(tmp_path) -> None:
    """Run 1 full, run 2 `--select 20:18:15:06` of the same record, run 3 full with
    `--baseline last --fail-on-new`: nothing changed, so it is compared with run 1 (which
    judged all run 3 judges), every finding persists and the run passes."""
    assert run(tmp_path, "full")[0] == EXIT_FINDINGS
    assert run(tmp_path, "recheck", "--select", "20:18:15:06")[0] == EXIT_FINDINGS
    code, document = run(tmp_path, "again", "--baseline", "last", "--fail-on-new")
    assert code == EXIT_CLEAN
    assert document["auditor"]["baseline_run"] == document["auditor"]["patterns_run"] == 1
    assert set(marks(document).values()) == {"persisting"} and len(marks(document)) == 5
    assert document["resolved"] == []
    assert set(pattern_statuses(document).values()) == {"recurring"}
    assert "not_compared" not in document["auditor"]


def test_a_recheck_of_one_citation_resolves_nothing_it_did_not_judge(tmp_path,
                                                                      capsys) -> None:
    """Run 1 full, run 2 `--select 20:18:15:06 --baseline last`: the findings of 26, 30 and
    23 were not judged, so they are neither resolved nor "gone" as patterns: not compared,
    and the report, findings.json and the terminal say so."""
    run(tmp_path, "full")
    capsys.readouterr()
    out = tmp_path / "recheck"
    code = audit(STANDARD, out=out, store=tmp_path / "store.sqlite", quiet=False,
                 more=("--select", "20:18:15:06", "--baseline", "last"))
    assert code == EXIT_FINDINGS
    document = findings_of(out)
    assert document["auditor"]["baseline_run"] == 1
    assert marks(document) == {"20:18:15:06": "persisting", "record:syntax": "persisting"}
    assert document["resolved"] == []
    statuses = pattern_statuses(document)
    assert {key: status for key, status in statuses.items() if key[2] in OTHERS} == {
        ("table", "RL-0412/T11", "20:18:15:26"): "not compared",
        ("table", "RL-0412/T11", "20:18:15:30"): "not compared",
        ("table", "RL-0412/T11", "20:18:15:23"): "not compared",
        ("dealer", "D-2207", "20:18:15:26"): "not compared",
        ("dealer", "D-2207", "20:18:15:30"): "not compared",
        ("dealer", "D-2207", "20:18:15:23"): "not compared",
        ("player", "P-3107", "20:18:15:30"): "not compared",
        ("player", "P-3137", "20:18:15:23"): "not compared"}
    assert {status for key, status in statuses.items() if key[2] not in OTHERS} == {
        "recurring"}
    block = document["auditor"]["not_compared"]
    assert block["run"] == 1 and block["findings"] == 0 and block["earlier_findings"] == 3
    assert block["not_judged_by_baseline"] == []
    assert set(OTHERS) <= set(block["not_judged_by_this_run"])
    assert "20:18:15:06" not in block["not_judged_by_this_run"]
    printed = " ".join(capsys.readouterr().out.split())
    assert "Against the baseline: 0 new, 2 persisting, 0 resolved, 0 not compared." in printed
    assert ("3 finding(s) of run 1 under citations this run did not judge (20:18:15:23, "
            "20:18:15:26, 20:18:15:30) are not compared: neither resolved nor persisting."
            ) in printed
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "Every finding of the earlier run is found again" not in page
    assert "3 findings of run 1 are not compared" in page


def test_a_full_audit_after_only_a_recheck_marks_the_rest_not_compared(tmp_path,
                                                                        capsys) -> None:
    """Run 1 `--select 20:18:15:06` alone, then run 2 full with `--baseline last`: 06 and
    the record's finding persist; 26, 30 and 23 were never judged before: "not compared",
    never "new", and their patterns "not compared". `--fail-on-new` still fails on them:
    they are not known to be old."""
    run(tmp_path, "recheck", "--select", "20:18:15:06")
    capsys.readouterr()
    out = tmp_path / "full"
    code = audit(STANDARD, out=out, store=tmp_path / "store.sqlite", quiet=False,
                 more=("--baseline", "last", "--fail-on-new"))
    assert code == EXIT_FINDINGS
    document = findings_of(out)
    assert marks(document) == {"20:18:15:26": "not compared", "20:18:15:30": "not compared",
                               "20:18:15:06": "persisting", "20:18:15:23": "not compared",
                               "record:syntax": "persisting"}
    assert document["resolved"] == []
    assert {status for key, status in pattern_statuses(document).items()
            if key[2] in OTHERS} == {"not compared"}
    block = document["auditor"]["not_compared"]
    assert (block["findings"], block["earlier_findings"]) == (3, 0)
    captured = capsys.readouterr()
    assert ("auditor: --baseline last: no earlier run over these records judged every "
            "citation this run judges; compared with run 1, the latest: the findings of the "
            "citations run 1 did not judge are not compared") in " ".join(captured.err.split())
    printed = " ".join(captured.out.split())
    assert "Against the baseline: 0 new, 2 persisting, 0 resolved, 3 not compared." in printed
    csv = (out / "findings.csv").read_text(encoding="utf-8")
    assert csv.count(",not compared,") == 3
    page = (out / "report.html").read_text(encoding="utf-8")
    assert page.count('<span class="badge baseline-not-compared">not compared</span>') == 3
    assert '<option value="not compared">' in page


def test_ignore_against_a_named_run_and_diff(tmp_path, capsys) -> None:
    """Run 1 full, run 2 `--ignore 20:18:15:26 --baseline 1`: 26's finding is not resolved;
    `auditor diff 1 2` says the same, listing it as not compared."""
    run(tmp_path, "full")
    code, document = run(tmp_path, "ignored", "--ignore", "20:18:15:26", "--baseline", "1",
                         "--fail-on-new")
    assert code == EXIT_CLEAN
    assert set(marks(document).values()) == {"persisting"} and len(marks(document)) == 4
    assert document["resolved"] == []
    assert pattern_statuses(document)["dealer", "D-2207", "20:18:15:26"] == "not compared"
    capsys.readouterr()
    assert main(["diff", "1", "2", "--store", str(tmp_path / "store.sqlite"), "--json"]) == 0
    difference = json.loads(capsys.readouterr().out)
    assert (difference["new"], difference["resolved"]) == ([], [])
    assert len(difference["persisting"]) == 4
    assert [f["citation"] for f in difference["not_compared"]["earlier"]] == ["20:18:15:26"]
    assert difference["not_compared"]["later"] == []
    assert difference["not_compared"]["not_judged_by_later"] == ["20:18:15:26"]
    assert {p["status"] for p in difference["patterns"]
            if p["key"]["citation"] == "20:18:15:26"} == {"not compared"}
    assert main(["diff", "1", "2", "--store", str(tmp_path / "store.sqlite")]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    assert ("Run 2 against run 1: 0 new, 4 persisting, 0 resolved; 1 not compared "
            "(20:18:15:26: run 2 did not judge it).") in printed


def test_a_findings_json_of_a_recheck_as_the_baseline(tmp_path) -> None:
    """`--baseline PATH` names the findings.json of a `--select 20:18:15:06` run: the full
    audit's findings of the other citations are not compared, never new; and a re-check
    against a full run's findings.json resolves none of what it did not judge."""
    run(tmp_path, "recheck", "--select", "20:18:15:06")
    _, document = run(tmp_path, "full", "--baseline",
                         str(tmp_path / "recheck" / "findings.json"))
    assert marks(document) == {"20:18:15:26": "not compared", "20:18:15:30": "not compared",
                               "20:18:15:06": "persisting", "20:18:15:23": "not compared",
                               "record:syntax": "persisting"}
    block = document["auditor"]["not_compared"]
    assert block["run"] == str(tmp_path / "recheck" / "findings.json")
    assert (block["findings"], block["earlier_findings"]) == (3, 0)
    _, again = run(tmp_path, "again", "--select", "20:18:15:06", "--baseline",
                   str(tmp_path / "full" / "findings.json"))
    assert again["resolved"] == []
    assert again["auditor"]["not_compared"]["earlier_citations"] == sorted(OTHERS)


def test_patterns_of_last_night_prefer_its_full_audit_to_its_recheck(tmp_path) -> None:
    """Night 1 audited whole (run 1), then re-checked for 20:18:15:06 alone (run 2); night
    2's record of the same table audited whole with `--baseline last`: its patterns are
    compared with run 1, so none of 26, 30 or 23 is "new"."""
    night2 = tmp_path / "t11-2026-11-21.bjh"
    night2.write_text(STANDARD.read_text(encoding="utf-8").replace("2026-11-20", "2026-11-21"),
                      encoding="utf-8")
    store = tmp_path / "store.sqlite"
    run(tmp_path, "full")
    run(tmp_path, "recheck", "--select", "20:18:15:06")
    out = tmp_path / "night2"
    assert audit(night2, out=out, store=store, more=("--baseline", "last")) == EXIT_FINDINGS
    document = findings_of(out)
    assert document["auditor"]["patterns_run"] == 1
    assert "baseline_run" not in document["auditor"]  # other records: every finding is new
    assert set(pattern_statuses(document).values()) == {"recurring"}


def test_a_run_compared_in_part_is_reported_again_the_same(tmp_path) -> None:
    """`auditor report RUN` of a run compared in part writes the same findings.json and
    says on the page what was not compared."""
    run(tmp_path, "full")
    run(tmp_path, "recheck", "--select", "20:18:15:06", "--baseline", "last")
    again = tmp_path / "again"
    assert main(["report", "2", "--store", str(tmp_path / "store.sqlite"), "--out",
                 str(again)]) == 0
    assert (again / "findings.json").read_bytes() == \
        (tmp_path / "recheck" / "findings.json").read_bytes()
    assert "3 findings of run 1 are not compared" in (again / "report.html").read_text(
        encoding="utf-8")
