"""Comparison with an earlier run, the --fail-on policy and the settings file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from auditor.baseline import compare
from auditor.cli import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, main
from auditor.identity import apply_identity
from auditor.run import audit_paths
from tests.helpers import SAMPLES
from tests.helpers.audits import audit, findings_of

DB21 = SAMPLES / "db21-t07-2026-11-20.bjh"  # 30.10(12) high r6, 30.10(8) and (9) medium r14
STANDARD = SAMPLES / "standard-t11-2026-11-20.bjh"  # four high (dealer D-2207), one low
PAID_TWENTY = "settle s5 db21 win 20"  # the 30.10(12) fault, line 239


def audited(tmp_path: Path, name: str, *arguments: str) -> tuple[int, dict]:
    """The exit status and findings.json of an audit into tmp_path / name."""
    out = tmp_path / name
    return audit(*arguments, out=out), findings_of(out)


def test_new_persisting_and_resolved_with_multiplicity(tmp_path) -> None:
    night1 = tmp_path / "night1"
    night1.mkdir()
    shutil.copy(DB21, night1 / "t07.bjh")
    shutil.copy(DB21, night1 / "t07-copy.bjh")  # exported twice: each finding twice
    code, first = audited(tmp_path, "out1", str(night1))
    assert code == EXIT_FINDINGS and first["resolved"] is None
    # The copy's findings are the same findings: the same three IDs, each twice.
    assert len(first["findings"]) == 6 and len({f["id"] for f in first["findings"]}) == 3
    # Night 2: the record once, its DB21 payout corrected; and a new table.
    night2 = tmp_path / "night2"
    night2.mkdir()
    text = DB21.read_text(encoding="utf-8")
    assert text.count(PAID_TWENTY) == 1
    (night2 / "t07.bjh").write_text(text.replace(PAID_TWENTY, "settle s5 db21 win 10"),
                                    encoding="utf-8")
    shutil.copy(STANDARD, night2 / "t11.bjh")
    code, second = audited(tmp_path, "out2", str(night2), "--baseline",
                           str(tmp_path / "out1" / "findings.json"))
    assert code == EXIT_FINDINGS
    marks = [(Path(f["file"]).name, f["citation"], f["baseline"]) for f in second["findings"]]
    assert marks == [
        ("t07.bjh", "20:18:15:30.10(8)", "persisting"),
        ("t07.bjh", "20:18:15:30.10(9)", "persisting"),
        ("t11.bjh", "20:18:15:26", "new"), ("t11.bjh", "20:18:15:30", "new"),
        ("t11.bjh", "20:18:15:06", "new"), ("t11.bjh", "20:18:15:23", "new"),
        ("t11.bjh", "record:syntax", "new")]
    earlier = {f["id"]: f for f in first["findings"]}
    resolved = [(Path(r["file"]).name, r["citation"], r["line"]) for r in second["resolved"]]
    # The payout fixed (both of its occurrences), and one occurrence of each of the other
    # two, the first left over in night 1's order (it read t07-copy.bjh first).
    assert resolved == [("t07-copy.bjh", "20:18:15:30.10(12)", 239),
                        ("t07-copy.bjh", "20:18:15:30.10(8)", 555),
                        ("t07-copy.bjh", "20:18:15:30.10(9)", 559),
                        ("t07.bjh", "20:18:15:30.10(12)", 239)]
    assert all(r["id"] in earlier for r in second["resolved"])
    # --fail-on-new: the persisting ones do not fail the run, the new ones do.
    code, _ = audited(tmp_path, "out3", str(night2 / "t07.bjh"), "--baseline",
                      str(tmp_path / "out1" / "findings.json"), "--fail-on-new")
    assert code == EXIT_CLEAN


def test_two_equal_findings_against_one_earlier_are_one_persisting_one_new() -> None:
    result = audit_paths([str(DB21)], jobs=1)
    apply_identity(result)
    twice = result.findings[0]
    result.findings = [twice, twice]
    compare(result, [{"id": twice.id, "citation": twice.citation}])
    assert [f.baseline for f in result.findings] == ["persisting", "new"]
    assert result.resolved == []


@pytest.mark.parametrize("content", ["not json", '{"findings": [{"citation": "x"}]}',
                                     '{"inputs": []}'])
def test_an_unusable_baseline_is_an_error(tmp_path, capsys, content) -> None:
    baseline = tmp_path / "old.json"
    baseline.write_text(content, encoding="utf-8")
    assert main(["audit", str(DB21), "--baseline", str(baseline), "--out",
                 str(tmp_path / "out"), "--quiet"]) == EXIT_ERROR
    assert "auditor: baseline:" in capsys.readouterr().err


def test_fail_on_new_needs_a_baseline(tmp_path, capsys) -> None:
    assert main(["audit", str(DB21), "--fail-on-new", "--out", str(tmp_path), "--quiet"]) \
        == EXIT_ERROR
    assert "--fail-on-new needs --baseline" in capsys.readouterr().err


WAIVE_THE_HIGH_ONES = """[[waiver]]
dealer = "D-2207"
justification = "the dealer's shift is under review"
approved_by = "Floor"
expires = 2099-01-01
"""


@pytest.mark.parametrize(("waived", "fail_on", "code"), [
    # Unwaived: four high, one low.
    (False, "low", EXIT_FINDINGS), (False, "medium", EXIT_FINDINGS),
    (False, "high", EXIT_FINDINGS), (False, "never", EXIT_CLEAN),
    # The four high ones waived: one low remains.
    (True, "low", EXIT_FINDINGS), (True, "medium", EXIT_CLEAN),
    (True, "high", EXIT_CLEAN), (True, "never", EXIT_CLEAN),
])
def test_each_fail_on_level(tmp_path, waived: bool, fail_on: str, code: int) -> None:
    arguments = [str(STANDARD), "--fail-on", fail_on]
    if waived:
        waivers = tmp_path / "w.toml"
        waivers.write_text(WAIVE_THE_HIGH_ONES, encoding="utf-8")
        arguments += ["--waivers", str(waivers)]
    result, document = audited(tmp_path, "out", *arguments)
    assert result == code
    assert [(f["severity"], f["waiver"] is not None) for f in document["findings"]] == \
        [("high", waived)] * 4 + [("low", False)]
    assert document["auditor"]["fail_on"] == fail_on


@pytest.mark.parametrize(("fail_on", "code"), [("medium", EXIT_FINDINGS),
                                               ("high", EXIT_CLEAN)])
def test_medium_findings_fail_at_medium_only(tmp_path, fail_on: str, code: int) -> None:
    """The DB21 sample with its one high finding waived by ID: two medium ones remain."""
    result = audit_paths([str(DB21)], jobs=1)
    apply_identity(result)
    high = next(f for f in result.findings if f.severity == "high")
    waivers = tmp_path / "w.toml"
    waivers.write_text(f'[[waiver]]\nid = "{high.id}"\njustification = "j"\n'
                       'approved_by = "a"\nexpires = 2099-01-01\n', encoding="utf-8")
    assert audited(tmp_path, "out", str(DB21), "--waivers", str(waivers),
                   "--fail-on", fail_on)[0] == code


def test_settings_file_precedence(tmp_path, monkeypatch) -> None:
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    (work / "waivers").mkdir()
    (work / "waivers" / "all.toml").write_text(
        '[[waiver]]\ncitation = "20:18:15:30.10(12)"\njustification = "j"\n'
        'approved_by = "a"\nexpires = 2099-01-01\n', encoding="utf-8")
    # bjh-auditor.toml alone: fail on high only, its waivers (relative to the file), its out.
    (work / "bjh-auditor.toml").write_text(
        'fail-on = "high"\nwaivers = "waivers/all.toml"\nout = "nightly"\n', encoding="utf-8")
    assert main(["audit", str(DB21), "--quiet", "--jobs", "1"]) == EXIT_CLEAN
    document = json.loads((work / "nightly" / "findings.json").read_text(encoding="utf-8"))
    assert [w["status"] for w in document["waivers"]] == ["applied"]
    # A flag wins over the file.
    assert main(["audit", str(DB21), "--quiet", "--fail-on", "medium"]) == EXIT_FINDINGS
    assert main(["audit", str(DB21), "--quiet", "--ignore-waivers"]) == EXIT_FINDINGS
    # [tool.bjh-auditor] in pyproject.toml is read before bjh-auditor.toml.
    (work / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.bjh-auditor]\n'
                                         'fail-on = "never"\n', encoding="utf-8")
    assert main(["audit", str(DB21), "--quiet", "--out", "o2"]) == EXIT_CLEAN
    assert json.loads((work / "o2" / "findings.json").read_text())["waivers"] == []
    # --config names the file to use, over both.
    config = tmp_path / "job.toml"
    config.write_text('fail-on = "low"\n', encoding="utf-8")
    assert main(["audit", str(DB21), "--quiet", "--config", str(config)]) == EXIT_FINDINGS


@pytest.mark.parametrize(("content", "message"), [
    ('fail-on = "sometimes"\n', "fail-on"),
    ('colour = "blue"\n', "colour"),
    ('fail-on = \n', "line 1"),
])
def test_a_bad_settings_file_is_an_error(tmp_path, capsys, content, message) -> None:
    config = tmp_path / "job.toml"
    config.write_text(content, encoding="utf-8")
    assert main(["audit", str(DB21), "--config", str(config), "--quiet"]) == EXIT_ERROR
    error = capsys.readouterr().err
    assert "auditor: settings:" in error and message in error


def test_help_documents_the_flags_the_id_recipe_and_the_exit_codes(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["audit", "--help"])
    text = capsys.readouterr().out
    for expected in ("--waivers FILE", "--ignore-waivers", "--baseline PATH",
                     "--fail-on {low,medium,high,never}", "--fail-on-new", "--config FILE",
                     "finding IDs:", "occurrence", "END of its expires day, UTC",
                     "exit codes:", "  2  an input", "  3  the auditor itself failed"):
        assert expected in text, expected


GOOD = {"id": "BJH-0000000000000001", "citation": "20:18:15:24", "severity": "high",
        "file": "t.bjh", "line": 12, "round": "3", "table": "T1", "seat": "s1",
        "hand": "s1h1", "date": "2026-11-20", "message": "paid 20, owed 30"}


@pytest.mark.parametrize(("edit", "message"), [
    # Probe P17: each was copied as it was into findings.json's `resolved`.
    ({"severity": 5}, "`severity`: Input should be 'high', 'medium' or 'low', not 5"),
    ({"severity": "catastrophic"}, "`severity`: Input should be 'high', 'medium' or 'low', "
                                   "not 'catastrophic'"),
    ({"citation": ["a"]}, "`citation`: Input should be a valid string, not ['a']"),
    ({"line": "abc"}, "`line`: Input should be a valid integer, not 'abc'"),
    ({"line": -5}, "`line`: Input should be greater than or equal to 1, not -5"),
    ({"line": True}, "`line`: Input should be a valid integer, not True"),
    ({"round": {"r": 1}}, "`round`: Input should be a valid string, not {'r': 1}"),
    ({"message": {"html": "<img src=x onerror=alert(1)>" * 3}},  # shown cut to 40
     "`message`: Input should be a valid string, not {'html': '<img src=x onerror=alert(1)><i…"),
    ({"id": "BJH-1"}, "`id`: String should match pattern '^BJH-[0-9A-F]{16}$', not 'BJH-1'"),
    ({"file": None}, "`file`: Input should be a valid string, not None"),
])
def test_a_hand_edited_baseline_with_wrong_types_is_refused(tmp_path, capsys, edit,
                                                             message) -> None:
    baseline = tmp_path / "edited.json"
    baseline.write_text(json.dumps({"findings": [GOOD, {**GOOD, **edit}]}), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["audit", str(DB21), "--baseline", str(baseline), "--out", str(out),
                 "--quiet"]) == EXIT_ERROR
    identity = repr(edit.get("id", GOOD["id"]))
    assert capsys.readouterr().err == (
        f"auditor: baseline: {baseline}: finding 2 ({identity}): {message}; not a "
        "findings.json the auditor wrote (edited by hand?)\n")
    assert not out.exists()


def test_a_missing_field_of_a_baseline_finding_is_named(tmp_path) -> None:
    from auditor.baseline import BaselineError, load_baseline

    baseline = tmp_path / "b.json"
    baseline.write_text(json.dumps({"findings": [{"id": GOOD["id"], "citation": "x",
                                                  "file": "f", "message": "m"}]}),
                        encoding="utf-8")
    with pytest.raises(BaselineError, match=r"finding 1 \('BJH-0000000000000001'\): "
                                            "`severity`: missing;"):
        load_baseline(baseline)
    # Optional fields may be left out or null, as an earlier run wrote them.
    baseline.write_text(json.dumps({"findings": [{**GOOD, "round": None, "line": None}]}),
                        encoding="utf-8")
    assert load_baseline(baseline) == [{**GOOD, "round": None, "line": None}]


def test_a_deeply_nested_baseline_is_refused_naming_it(tmp_path, capsys) -> None:
    """Probe P12: RecursionError, exit 3."""
    baseline = tmp_path / "deep.json"
    baseline.write_text('{"findings": ' + "[" * 100_000 + "]" * 100_000 + "}",
                        encoding="utf-8")
    assert main(["audit", str(DB21), "--baseline", str(baseline), "--out",
                 str(tmp_path / "out"), "--quiet"]) == EXIT_ERROR
    assert capsys.readouterr().err == (
        f"auditor: baseline: {baseline}: nested too deeply to be an auditor findings.json "
        "(arrays or objects inside each other hundreds of levels down)\n")


def test_a_baseline_the_auditor_wrote_is_read(tmp_path) -> None:
    code, _ = audited(tmp_path, "out1", str(STANDARD))
    assert code == EXIT_FINDINGS
    code, second = audited(tmp_path, "out2", str(STANDARD), "--baseline",
                           str(tmp_path / "out1" / "findings.json"))
    assert [f["baseline"] for f in second["findings"]] == ["persisting"] * 5
    assert second["resolved"] == []


def test_a_baseline_string_that_is_no_text_is_refused(tmp_path, capsys) -> None:
    """JSON's "\\ud800" decodes to no character: republished in `resolved`, the outputs
    could not be written (UnicodeEncodeError, exit 3)."""
    baseline = tmp_path / "b.json"
    baseline.write_text(json.dumps({"findings": [GOOD]}).replace('"t.bjh"', '"t\\ud800"'),
                        encoding="utf-8")
    assert main(["audit", str(DB21), "--baseline", str(baseline), "--out",
                 str(tmp_path / "out"), "--quiet"]) == EXIT_ERROR
    assert capsys.readouterr().err == (
        f"auditor: baseline: {baseline}: finding 1 ('BJH-0000000000000001'): `file`: holds "
        "an escape that is no character (a lone surrogate), not 't\\ud800'; not a "
        "findings.json the auditor wrote (edited by hand?)\n")
