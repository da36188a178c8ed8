"""The machine-readable outputs cell for cell: findings.csv's rows (identity, money, flags,
waiver columns, formula marks), its parts, and findings.json as the text `json.dumps` gives
of the whole document, with the summary it is handed or else the run's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from auditor.findings import Waiver
from auditor.output import json_report
from auditor.output.json_report import to_json
from auditor.output.tables import CSV_COLUMNS, to_csv
from auditor.report.frames import SUMMARY_DIMENSIONS, run_summary
from auditor.results import AuditResult
from auditor.run import audit_paths
from tests.helpers import SAMPLES

T11 = "sample_logs/standard-t11-2026-11-20.bjh"
HEADER = ",".join(CSV_COLUMNS)
SURRENDER = ("The main wager on s3h1 was collected 50.00; it should lose 25.00: a surrender "
             "is read to collect half the wager (late surrender).")


@pytest.fixture(scope="module")
def night() -> AuditResult:
    """T11's five findings and T12's five, the second waived (its justification a formula)."""
    result = audit_paths([str(SAMPLES / "standard-t11-2026-11-20.bjh"),
                          str(SAMPLES / "standard-t12-2026-11-21.bjh")], jobs=1)
    waiver = Waiver(index=1, justification="=2+2 known", approved_by="-pit boss",
                    expires="2026-12-01", matched_on={"citation": "20:18:15:30"})
    result.findings[1] = result.findings[1].model_copy(update={"waiver": waiver,
                                                               "baseline": "new"})
    return result


def relative(text: str) -> str:
    return text.replace(str(SAMPLES.parent) + "/", "")


def test_a_findings_rows_are_exact(night: AuditResult) -> None:
    lines = relative("".join(to_csv(night.findings, night.inputs))).split("\n")
    assert lines[0] == HEADER
    # a count stays a number, money its exact text, a flag True/False, a missing value empty
    assert lines[1] == (
        f",20:18:15:26,standard.dealer_draws_out,high,{T11},424,12,T11,,,\"The dealer stopped "
        "at 12 with live wagers on the table; read as dealer procedure (the text of "
        "20:18:15:26 is not on file), the dealer draws to 17 or more.\",,,,,standard,D-2207,"
        "2026-11-20,20:17:56,,swing,,,False,,,,Deadwood Example Casino,RL-0412,RL-0412/T11,USD")
    # the waived one: its waiver's text in columns, each formula-like text marked
    assert lines[2] == (
        f",20:18:15:30,standard.surrender,high,{T11},455,13,T11,s3,s3h1,{SURRENDER},-25.00,"
        "-50.00,-25.00,,standard,D-2207,2026-11-20,20:19:40,,swing,,new,True,'=2+2 known,"
        "'-pit boss,2026-12-01,Deadwood Example Casino,RL-0412,RL-0412/T11,USD")
    assert lines[-1] == ""
    assert len(lines) == len(night.findings) + 2


def test_a_finding_of_a_file_not_among_the_inputs_keeps_its_table_id(night: AuditResult
                                                                      ) -> None:
    lines = relative("".join(to_csv(night.findings[:1]))).split("\n")
    assert lines[1].endswith(",swing,,,False,,,,,,T11,")


def test_the_header_comes_once_with_the_first_part(night: AuditResult, monkeypatch) -> None:
    monkeypatch.setattr("auditor.output.tables.CSV_ROWS_AT_ONCE", 2)
    parts = [relative(part) for part in to_csv(night.findings, night.inputs)]
    assert [part.count("\n") for part in parts] == [3, 2, 2, 2, 2]
    assert parts[0].startswith(HEADER + "\n,20:18:15:26,")
    assert [part.split(",")[1] for part in parts[1:]] == ["20:18:15:06", "record:syntax",
                                                          "20:18:15:25", "20:18:15:24"]
    assert list(to_csv([])) == [HEADER + "\n"]


def whole_document(result: AuditResult, run: dict, summary) -> dict:
    """findings.json as one document, as its docstring says it is laid out."""
    keys = {i.path: i.table_key for i in result.inputs}
    return {
        "auditor": run,
        "inputs": [{**i.model_dump(mode="json"), "table_key": i.table_key}
                   for i in result.inputs],
        "findings": [{**f.as_dict(), "table_key": keys.get(f.file) or f.table}
                     for f in result.findings],
        "summary": {dimension: summary.by(dimension) for dimension in SUMMARY_DIMENSIONS},
        "coverage": {citation: count for citation, count in result.applied.items()},
        "waivers": [], "resolved": result.resolved, "patterns": result.patterns}


def test_findings_json_is_the_text_json_dumps_gives(night: AuditResult) -> None:
    run = {"version": "test", "é": ["ü", 1, True, None]}
    text = to_json(night, run)  # no summary handed: the run's is counted
    document = whole_document(night, run, run_summary(night.findings, night.inputs))
    expected = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    # the coverage in the rule base's order, which the plain dict above need not have
    assert json.loads(text) == json.loads(expected)
    assert list(json.loads(text)["coverage"]) == sorted(
        night.applied, key=json_report.citation_sort_key)
    expected = json.dumps({**document, "coverage": json.loads(text)["coverage"]}, indent=2,
                          ensure_ascii=False) + "\n"
    assert text == expected
    finding = json.loads(text)["findings"][1]
    assert (finding["table_key"], finding["line"], finding["difference"]) == (
        "RL-0412/T11", 455, "-25.00")


def test_findings_json_writes_the_summary_it_is_handed(night: AuditResult) -> None:
    """The summary findings.json shows is the one summary.csv and report.html are handed."""
    given = run_summary(night.findings[:1], night.inputs)
    summary = json.loads(to_json(night, {}, given))["summary"]
    assert summary["citation"] == [{"citation": "20:18:15:26", "currency": "USD",
                                    "findings": 1, "high": 1, "medium": 0, "low": 0,
                                    "under_paid": "0.00", "over_paid": "0.00"}]


def test_findings_json_without_findings(night: AuditResult) -> None:
    empty = AuditResult(inputs=night.inputs, findings=[], applied=night.applied, evidence={})
    text = to_json(empty, {"version": "test"})
    assert '\n  "findings": [],\n  "summary": {\n    "citation": [],\n' in text
    assert json.loads(text)["findings"] == []


@pytest.mark.parametrize("value", [{1: "é"}, {"k": {2: ["ü"]}}, [{None: "\u2028"}]],
                         ids=["int key", "nested int key", "null key"])
def test_a_key_that_is_not_text_is_written_as_json_dumps_writes_it(value) -> None:
    expected = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  ")
    assert json_report._indented(value, "  ") == expected


def test_findings_json_written_by_the_audit_is_parsed_back(tmp_path: Path) -> None:
    from auditor.cli import main

    out = tmp_path / "out"
    assert main(["audit", str(SAMPLES / "standard-t11-2026-11-20.bjh"), "--out", str(out),
                 "--quiet", "--store", str(tmp_path / "s.sqlite")]) == 1
    document = json.loads((out / "findings.json").read_text(encoding="utf-8"))
    assert [f["table_key"] for f in document["findings"]] == ["RL-0412/T11"] * 5
