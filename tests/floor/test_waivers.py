"""Waivers: applied, expired, unused and malformed, through the command line and its outputs."""

from __future__ import annotations

import csv
import re
from datetime import date
from pathlib import Path

import pytest

from auditor.cli import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, main
from auditor.identity import apply_identity
from auditor.run import audit_paths
from auditor.waivers import WaiverFileError, apply_waivers, parse_waivers
from tests.helpers import SAMPLES
from tests.helpers.audits import audit, findings_of

DB21 = str(SAMPLES / "db21-t07-2026-11-20.bjh")  # T07, licence RL-0412, dealer D-1188
STANDARD = str(SAMPLES / "standard-t11-2026-11-20.bjh")

WAIVERS = """\
# Waivers of the compliance office
[[waiver]]
name = "DB21 pay table"
citation = "20:18:15:30.10(12)"
table = "RL-0412/T07"
justification = "Layout misprint; pay table reprinted"
approved_by = "J. Doe"
expires = 2099-12-31

[[waiver]]
citation = "20:18:15:30.10(8)"
table = "T07"
justification = "Dealer retrained"
approved_by = "J. Doe"
expires = 2020-01-31

[[waiver]]
citation = "20:18:15:24"
table = "T07"
justification = "Nothing like it happened"
approved_by = "J. Doe"
expires = "2099-12-31"
"""


def run(tmp_path: Path, *arguments: str) -> tuple[int, dict, list[dict]]:
    out = tmp_path / "out"
    code = audit(*arguments, out=out)
    document = findings_of(out)
    with (out / "findings.csv").open(encoding="utf-8") as stream:
        rows = list(csv.DictReader(stream))
    return code, document, rows


def test_applied_expired_and_unused_waivers(tmp_path, capsys) -> None:
    waivers = tmp_path / "waivers.toml"
    waivers.write_text(WAIVERS, encoding="utf-8")
    code, document, rows = run(tmp_path, DB21, "--waivers", str(waivers))
    by_citation = {f["citation"]: f for f in document["findings"]}
    assert sorted(by_citation) == ["20:18:15:30.10(12)", "20:18:15:30.10(8)",
                                   "20:18:15:30.10(9)"]
    # Applied: the finding is still there, marked with its waiver.
    assert by_citation["20:18:15:30.10(12)"]["waiver"] == {
        "index": 1, "name": "DB21 pay table",
        "justification": "Layout misprint; pay table reprinted", "approved_by": "J. Doe",
        "expires": "2099-12-31",
        "matched_on": {"citation": "20:18:15:30.10(12)", "table": "RL-0412/T07"}}
    # Expired: not applied.
    assert by_citation["20:18:15:30.10(8)"]["waiver"] is None
    assert by_citation["20:18:15:30.10(9)"]["waiver"] is None
    assert [(w["index"], w["line"], w["status"], w["matches"]) for w in document["waivers"]] \
        == [(1, 2, "applied", 1), (2, 10, "expired", 1), (3, 17, "unused", 0)]
    # Two unwaived findings (medium) remain: the run fails.
    assert code == EXIT_FINDINGS
    assert "auditor: waiver 2" in capsys.readouterr().err
    waived = {row["citation"]: (row["waived"], row["waiver_justification"],
                                row["waiver_approved_by"], row["waiver_expires"])
              for row in rows}
    assert waived == {
        "20:18:15:30.10(12)": ("True", "Layout misprint; pay table reprinted", "J. Doe",
                               "2099-12-31"),
        "20:18:15:30.10(8)": ("False", "", "", ""),
        "20:18:15:30.10(9)": ("False", "", "", "")}
    assert all(row["id"] == by_citation[row["citation"]]["id"] for row in rows)
    html = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "Waived by waiver 1" in html and "expired" in html


def test_ignore_waivers_audits_as_if_there_were_none(tmp_path) -> None:
    waivers = tmp_path / "waivers.toml"
    waivers.write_text(WAIVERS, encoding="utf-8")
    code, document, _ = run(tmp_path, DB21, "--waivers", str(waivers), "--ignore-waivers")
    assert code == EXIT_FINDINGS
    assert document["waivers"] == []
    assert [f["waiver"] for f in document["findings"]] == [None, None, None]


def test_a_waiver_by_id_dealer_file_and_dates(tmp_path) -> None:
    result = audit_paths([DB21, STANDARD], jobs=1)
    apply_identity(result)
    target = next(f for f in result.findings if f.citation == "20:18:15:26")
    text = f"""
[[waiver]]
id = "{target.id}"
justification = "one finding"
approved_by = "A"
expires = 2030-01-01
[[waiver]]
dealer = "D-1188"
file = "db21-t07-2026-11-20.bjh"
from = 2026-11-20
until = 2026-11-20
justification = "that night at T07"
approved_by = "B"
expires = 2030-01-01
[[waiver]]
dealer = "D-1188"
from = 2026-11-21
justification = "the next night: nothing"
approved_by = "C"
expires = 2030-01-01
"""
    apply_waivers(result, parse_waivers(text), today=date(2026, 11, 24))
    waived = [(f.citation, f.waiver.index) for f in result.findings if f.waiver]
    assert waived == [("20:18:15:30.10(12)", 2), ("20:18:15:30.10(8)", 2),
                      ("20:18:15:30.10(9)", 2), ("20:18:15:26", 1)]
    assert [(w.status, w.matches) for w in result.waivers] == \
        [("applied", 1), ("applied", 3), ("unused", 0)]


def test_a_waiver_holds_to_the_end_of_its_day(tmp_path) -> None:
    text = """[[waiver]]
citation = "20:18:15:30.10(12)"
justification = "x"
approved_by = "y"
expires = 2026-11-24
"""
    for today, status in ((date(2026, 11, 24), "applied"), (date(2026, 11, 25), "expired")):
        result = audit_paths([DB21], jobs=1)
        apply_identity(result)
        apply_waivers(result, parse_waivers(text), today=today)
        assert [w.status for w in result.waivers] == [status]
        assert sum(1 for f in result.findings if f.waiver) == (status == "applied")


@pytest.mark.parametrize(("text", "message"), [
    # a schema error in the second waiver: its header's line
    ("[[waiver]]\ncitation = \"20:18:15:06\"\njustification = \"x\"\napproved_by = \"y\"\n"
     "expires = 2030-01-01\n\n# second\n[[waiver]]\ncitation = \"20:18:15:06\"\n"
     "justification = \"x\"\nexpires = 2030-01-01\n",
     "line 8: waiver 2: `approved_by` is required"),
    # not TOML at all
    ("[[waiver]]\ncitation = 20:18:15:06\n", "line 2: `citation`: not valid TOML"),
    ("[[waiver]]\ncitation = \"x\"\njustification = \"x\"\napproved_by = \"y\"\n"
     "expires = \"next year\"\n", "line 5: waiver 1: `expires` must be a date such as "
     "2026-12-31"),
    ("[[waiver]]\njustification = \"x\"\napproved_by = \"y\"\nexpires = 2030-01-01\n",
     "line 1: waiver 1 names nothing to match"),
    ("[[waiver]]\ncitation = \"x\"\nseat = \"s1\"\njustification = \"x\"\n"
     "approved_by = \"y\"\nexpires = 2030-01-01\n", "`seat` is not a waiver field"),
])
def test_a_malformed_waiver_file_is_an_error_naming_the_line(tmp_path, capsys, text,
                                                               message) -> None:
    with pytest.raises(WaiverFileError, match=message.replace("(", r"\(")):
        parse_waivers(text, "w.toml")
    waivers = tmp_path / "w.toml"
    waivers.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["audit", DB21, "--waivers", str(waivers), "--out", str(out), "--quiet"]) \
        == EXIT_ERROR
    assert message in capsys.readouterr().err
    assert not out.exists()  # refused before any audit


def test_waiving_every_finding_makes_a_clean_exit(tmp_path) -> None:
    waivers = tmp_path / "w.toml"
    waivers.write_text('[[waiver]]\nfile = "db21-t07-2026-11-20.bjh"\n'
                       'justification = "under review"\napproved_by = "Q"\n'
                       'expires = 2099-01-01\n', encoding="utf-8")
    code, document, _ = run(tmp_path, DB21, "--waivers", str(waivers))
    assert code == EXIT_CLEAN
    assert [f["waiver"]["index"] for f in document["findings"]] == [1, 1, 1]


def waiver_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "w.toml"
    path.write_text("[[waiver]]\n" + body + 'justification = "under review"\n'
                    'approved_by = "Q"\n', encoding="utf-8")
    return path


def test_a_waiver_file_name_matches_exactly_never_in_another_case(tmp_path) -> None:
    """Probe P03: `file = "NIGHT.bjh"` waived night.bjh too, another table's record."""
    folder = tmp_path / "in"
    folder.mkdir()
    night, upper = folder / "night.bjh", folder / "NIGHT.bjh"
    night.write_bytes(Path(STANDARD).read_bytes())  # T11: five findings
    upper.write_bytes(Path(DB21).read_bytes())  # T07: three findings
    waivers = waiver_file(tmp_path, 'file = "NIGHT.bjh"\nexpires = 2099-01-01\n')
    code, document, _ = run(tmp_path, str(night), str(upper), "--waivers", str(waivers))
    assert code == EXIT_FINDINGS
    assert [(Path(f["file"]).name, f["waiver"] is not None) for f in document["findings"]] \
        == [("night.bjh", False)] * 5 + [("NIGHT.bjh", True)] * 3
    assert [(w["status"], w["matches"]) for w in document["waivers"]] == [("applied", 3)]


def test_a_waiver_by_sha256_matches_in_either_case(tmp_path) -> None:
    import hashlib

    digest = hashlib.sha256(Path(DB21).read_bytes()).hexdigest().upper()
    waivers = waiver_file(tmp_path, f'file = "{digest}"\nexpires = 2099-01-01\n')
    code, document, _ = run(tmp_path, DB21, STANDARD, "--waivers", str(waivers))
    assert code == EXIT_FINDINGS
    assert [Path(f["file"]).name for f in document["findings"] if f["waiver"]] == \
        ["db21-t07-2026-11-20.bjh"] * 3
    assert document["waivers"][0]["matched_on"] == {"file": digest.lower()}


@pytest.mark.parametrize(("expires", "message"), [
    # Probe P18: the offset was dropped and the date kept, 14 hours from the instant written.
    ("2030-01-01T00:00:00+14:00", "line 3: waiver 1: `expires` must be a date such as "
     "2026-12-31, not the date-time 2030-01-01T00:00:00+14:00: a waiver holds through that "
     "day, UTC"),
    ("2030-01-01T18:00:00+14:00", "line 3: waiver 1: `expires` must be a date such as "
     "2026-12-31, not the date-time 2030-01-01T18:00:00+14:00"),
    ("2030-01-01T00:00:00", "not the date-time 2030-01-01T00:00:00:"),
    ('"2030-01-01T00:00:00Z"', "line 3: waiver 1: `expires` must be a date such as "
     "2026-12-31"),
    ("20300101", "line 3: waiver 1: `expires` must be a date such as 2026-12-31"),
    # A bad date: the field and its line, not a bare TOML syntax error.
    ("2030-13-01", "w.toml: line 3: `expires`: '2030-13-01' is not a date; write YYYY-MM-DD, "
     "such as 2026-12-31 (a calendar date, no time)"),
    ("2030-02-30", "w.toml: line 3: `expires`: '2030-02-30' is not a date"),
    ("2030-1-1", "w.toml: line 3: `expires`: '2030-1-1' is not a date"),
])
def test_expires_must_be_a_date_and_a_bad_one_is_named_with_its_line(tmp_path, capsys,
                                                                       expires, message):
    waivers = waiver_file(tmp_path, f'citation = "20:18:15:06"\nexpires = {expires}\n')
    with pytest.raises(WaiverFileError) as raised:
        parse_waivers(waivers.read_text(encoding="utf-8"), "w.toml")
    assert message in str(raised.value)
    out = tmp_path / "out"
    assert main(["audit", STANDARD, "--waivers", str(waivers), "--out", str(out),
                 "--quiet"]) == EXIT_ERROR
    error = capsys.readouterr().err
    assert error.startswith("auditor: waivers: ") and "expires" in error
    assert not out.exists()


def test_from_and_until_are_dates_too(tmp_path) -> None:
    text = ('[[waiver]]\ncitation = "06"\nfrom = 2026-11-20T00:00:00-12:00\n'
            'justification = "x"\napproved_by = "y"\nexpires = 2030-01-01\n')
    with pytest.raises(WaiverFileError, match="line 3: waiver 1: `from` must be a date such as "
                                              "2026-12-31, not the date-time"):
        parse_waivers(text, "w.toml")


@pytest.mark.parametrize(("citation", "known"), [
    ("06", "20:18:15:06"), ("20:18:15:06", "20:18:15:06"), ("30.10(4)", "20:18:15:30.10(4)"),
    ("30.02(11)", "20:18:15:30.02(¶11)"), ("20:18:15:30.02(¶11)", "20:18:15:30.02(¶11)"),
    ("record:syntax", "record:syntax")])
def test_a_citation_in_a_short_form_is_read_as_rules_show_reads_it(citation, known) -> None:
    text = (f'[[waiver]]\ncitation = "{citation}"\njustification = "x"\napproved_by = "y"\n'
            "expires = 2030-01-01\n")
    assert [w.rule.citation for w in parse_waivers(text)] == [known]


def test_a_short_citation_waives_its_findings(tmp_path) -> None:
    waivers = waiver_file(tmp_path, 'citation = "06"\nexpires = 2099-01-01\n')
    code, document, _ = run(tmp_path, STANDARD, "--waivers", str(waivers))
    assert code == EXIT_FINDINGS
    assert [f["citation"] for f in document["findings"] if f["waiver"]] == ["20:18:15:06"]
    assert document["waivers"][0]["matched_on"] == {"citation": "20:18:15:06"}


@pytest.mark.parametrize(("citation", "nearest"), [
    ("20:18:15:6", "20:18:15:06"), ("20:18:15:030.10(04)", "20:18:15:30.10(4)"),
    ("30.1(4)", "20:18:15:30.10(4)"), ("record:sintax", "record:syntax"),
    ("20:18:15:30.10(13)", "20:18:15:30.10(12)")])
def test_a_citation_the_rule_base_does_not_know_is_refused_naming_the_nearest(
        tmp_path, capsys, citation, nearest) -> None:
    waivers = tmp_path / "w.toml"
    waivers.write_text(f'# ours\n[[waiver]]\njustification = "x"\ncitation = "{citation}"\n'
                       'approved_by = "y"\nexpires = 2030-01-01\n', encoding="utf-8")
    out = tmp_path / "out"
    assert main(["audit", STANDARD, "--waivers", str(waivers), "--out", str(out),
                 "--quiet"]) == EXIT_ERROR
    assert capsys.readouterr().err == (
        f"auditor: waivers: {waivers}: line 4: waiver 1: `citation` {citation!r} is not in "
        f"the rule base; the nearest is {nearest} (`auditor rules` lists them)\n")
    assert not out.exists()


def test_a_deeply_nested_waiver_file_is_refused_naming_it(tmp_path, capsys) -> None:
    """Probe P12: RecursionError, exit 3."""
    waivers = tmp_path / "deep.toml"
    waivers.write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    assert main(["audit", STANDARD, "--waivers", str(waivers), "--out",
                 str(tmp_path / "out"), "--quiet"]) == EXIT_ERROR
    assert capsys.readouterr().err == (
        f"auditor: waivers: {waivers}: nested too deeply to read (arrays or tables inside "
        "each other hundreds of levels down)\n")


@pytest.mark.parametrize(("text", "message"), [
    ("waiver = [1, 2]\n", "line 1: waiver 1 is not a table of fields"),
    ("[[waiver]]\ncitation = [\"06\"]\njustification = \"x\"\napproved_by = \"y\"\n"
     "expires = 2030-01-01\n", "line 2: waiver 1: `citation`: Input should be a valid string"),
])
def test_waivers_of_the_wrong_shape_are_refused(text, message) -> None:
    with pytest.raises(WaiverFileError, match=re.escape(message)):
        parse_waivers(text, "w.toml")


def test_a_citation_like_none_names_no_nearest(tmp_path) -> None:
    """`*` (no globbing): refused, without a guess that would mislead."""
    text = ('[[waiver]]\ncitation = "*"\njustification = "x"\napproved_by = "y"\n'
            "expires = 9999-12-31\n")
    with pytest.raises(WaiverFileError) as raised:
        parse_waivers(text, "w.toml")
    assert str(raised.value) == ("w.toml: line 2: waiver 1: `citation` '*' is not in the rule "
                                 "base (`auditor rules` lists them)")
