"""Waivers and the baseline, part by part with exact values: which finding a waiver covers,
each waiver's status and count, the line a fault of a waiver file is named on, and each
finding's baseline mark. Fast (no audit): the mutation area `waivers` runs these first."""

from __future__ import annotations

import json
import re
from datetime import date, datetime
from pathlib import Path

import pytest

from auditor.baseline import BaselineError, Comparison, load_baseline, resolved_fields
from auditor.findings import Finding
from auditor.results import InputSummary
from auditor.waivers import (
    LoadedWaiver,
    WaiverFileError,
    WaiverRule,
    Waiving,
    load_waivers,
    matches,
    nearest_citation,
    parse_waivers,
)

SHA = "ab" * 32
SUMMARY = InputSummary(path="night/t07.bjh", sha256=SHA, table="T07", casino="Ruby Lode",
                       licence="RL-0412")
TODAY = date(2026, 11, 24)


def finding(**fields: object) -> Finding:
    """A finding of night/t07.bjh (table T07, dealer D-1, 2026-11-20), changed by `fields`."""
    given: dict[str, object] = {
        "id": "BJH-00000000000000A1", "citation": "20:18:15:24", "rule": "r",
        "severity": "high", "file": "night/t07.bjh", "line": 12, "table": "T07",
        "dealer": "D-1", "date": "2026-11-20", "message": "paid 20, owed 30"}
    return Finding(**{**given, **fields})


def rule(**fields: object) -> WaiverRule:
    return WaiverRule.model_validate({"justification": "j", "approved_by": "a",
                                      "expires": date(2030, 1, 1), **fields})


def loaded(*rules: WaiverRule) -> list[LoadedWaiver]:
    return [LoadedWaiver(index=number, line=number * 10, rule=one)
            for number, one in enumerate(rules, start=1)]


# ---- what a waiver covers ---------------------------------------------------------------

@pytest.mark.parametrize(("named", "covered"), [
    ({"id": "BJH-00000000000000A1"}, True), ({"id": "BJH-00000000000000A2"}, False),
    ({"citation": "20:18:15:24"}, True), ({"citation": "20:18:15:06"}, False),
    ({"dealer": "D-1"}, True), ({"dealer": "D-2"}, False),
    ({"table": "T07"}, True), ({"table": "T08"}, False),
    ({"table": "RL-0412/T07"}, True), ({"table": "Ruby Lode/T07"}, True),
    ({"table": "RL-0412/T08"}, False), ({"table": "Ruby Lode/T08"}, False),
    ({"file": "night/t07.bjh"}, True), ({"file": "t07.bjh"}, True),
    ({"file": "T07.bjh"}, False), ({"file": "other/t07.bjh"}, False),
    ({"file": SHA}, True), ({"file": SHA.upper()}, True), ({"file": "cd" * 32}, False),
    ({"from": date(2026, 11, 20)}, True), ({"from": date(2026, 11, 21)}, False),
    ({"from": date(2026, 11, 19)}, True),
    ({"until": date(2026, 11, 20)}, True), ({"until": date(2026, 11, 19)}, False),
    ({"until": date(2026, 11, 21)}, True),
    ({"from": date(2026, 11, 20), "until": date(2026, 11, 20)}, True),
    ({"citation": "20:18:15:24", "dealer": "D-2"}, False),
    ({"citation": "20:18:15:06", "dealer": "D-1"}, False),
    ({"id": "BJH-00000000000000A1", "table": "T07", "dealer": "D-1", "file": "t07.bjh"}, True),
])
def test_a_waiver_covers_a_finding_that_is_all_it_names(named, covered) -> None:
    assert matches(rule(**named), finding(), SUMMARY) is covered


@pytest.mark.parametrize(("named", "covered"), [
    # Without the file's summary only the finding's own table and file name are known.
    ({"table": "T07"}, True), ({"table": "RL-0412/T07"}, False),
    ({"file": "t07.bjh"}, True), ({"file": SHA}, False), ({"dealer": "D-1"}, True),
])
def test_a_finding_without_its_file_summary(named, covered) -> None:
    assert matches(rule(**named), finding(), None) is covered


def test_a_file_summary_without_a_digest_matches_no_digest() -> None:
    summary = SUMMARY.model_copy(update={"sha256": None})
    assert matches(rule(file=SHA), finding(), summary) is False
    assert matches(rule(file="t07.bjh"), finding(), summary) is True


@pytest.mark.parametrize("day", [None, "", "20 Nov 2026"])
def test_a_finding_without_a_readable_date_is_outside_any_dates(day) -> None:
    assert matches(rule(**{"from": date(2000, 1, 1)}), finding(date=day), SUMMARY) is False
    assert matches(rule(until=date(2099, 1, 1)), finding(date=day), SUMMARY) is False
    assert matches(rule(citation="20:18:15:24"), finding(date=day), SUMMARY) is True


# ---- which waiver is shown, each waiver's status and count -------------------------------

def test_the_first_unexpired_waiver_covering_a_finding_is_shown_and_each_counts_it() -> None:
    waivers = loaded(
        rule(name="expired", citation="20:18:15:24", expires=date(2026, 11, 23)),
        rule(name="today", dealer="D-1", expires=TODAY),
        rule(name="later", table="T07", expires=date(2030, 1, 1)),
        rule(name="another dealer", dealer="D-9"))
    waive = Waiving(waivers, [SUMMARY], TODAY)
    first = waive(finding())
    second = waive(finding(id="BJH-00000000000000A2", dealer="D-2", citation="20:18:15:06"))
    assert first.waiver is not None and first.waiver.model_dump() == {
        "index": 2, "name": "today", "justification": "j", "approved_by": "a",
        "expires": "2026-11-24", "matched_on": {"dealer": "D-1"}}
    assert second.waiver is not None and (second.waiver.index, second.waiver.name) == \
        (3, "later")
    assert [(s.index, s.line, s.name, s.status, s.matches, s.expires) for s in
            waive.statuses()] == [
        (1, 10, "expired", "expired", 1, "2026-11-23"),
        (2, 20, "today", "applied", 1, "2026-11-24"),
        (3, 30, "later", "applied", 2, "2030-01-01"),
        (4, 40, "another dealer", "unused", 0, "2030-01-01")]


def test_a_finding_no_waiver_covers_is_returned_unmarked() -> None:
    waive = Waiving(loaded(rule(dealer="D-9")), [SUMMARY], TODAY)
    plain = finding()
    assert waive(plain) is plain and plain.waiver is None
    assert [(s.status, s.matches) for s in waive.statuses()] == [("unused", 0)]


def test_only_expired_waivers_leave_the_finding_unwaived_and_are_all_counted() -> None:
    waivers = loaded(rule(citation="20:18:15:24", expires=date(2026, 11, 23)),
                     rule(dealer="D-1", expires=date(2020, 1, 1)))
    waive = Waiving(waivers, [SUMMARY], TODAY)
    assert waive(finding()).waiver is None
    assert waive(finding(id="BJH-00000000000000A3")).waiver is None
    assert [(s.status, s.matches) for s in waive.statuses()] == [("expired", 2),
                                                                  ("expired", 2)]


def test_the_summary_of_the_findings_file_is_the_one_matched() -> None:
    other = InputSummary(path="night/t08.bjh", sha256="cd" * 32, table="T08",
                         licence="RL-0412")
    waive = Waiving(loaded(rule(table="RL-0412/T07")), [other, SUMMARY], TODAY)
    assert waive(finding()).waiver is not None
    assert waive(finding(file="night/t08.bjh", table="T08")).waiver is None
    assert [(s.status, s.matches) for s in waive.statuses()] == [("applied", 1)]


# ---- reading a waiver file --------------------------------------------------------------

def test_each_waiver_is_read_with_its_index_header_line_and_criteria() -> None:
    text = ('# ours\n\n[[waiver]]\nname = "one"\ncitation = "24"\n'
            'justification = "j"\napproved_by = "a"\nexpires = 2030-01-01\n'
            '[[waiver]]\nfile = "' + SHA.upper() + '"\nfrom = 2026-11-20\n'
            'until = "2026-11-21"\njustification = "j"\napproved_by = "a"\n'
            'expires = "2030-01-02"\n')
    waivers = parse_waivers(text, "w.toml")
    assert [(w.index, w.line, w.rule.name, w.rule.expires, w.rule.criteria())
            for w in waivers] == [
        (1, 3, "one", date(2030, 1, 1), {"citation": "20:18:15:24"}),
        (2, 9, None, date(2030, 1, 2), {"file": SHA, "from": "2026-11-20",
                                        "until": "2026-11-21"})]


def test_from_may_be_written_by_the_fields_own_name() -> None:
    """`from` is a Python word: the field is from_date, and a file may name it so."""
    text = '[[waiver]]\nfrom_date = 2026-11-20\n' + WAIVER_BODY
    assert [w.rule.criteria() for w in parse_waivers(text)] == [{"from": "2026-11-20"}]


def test_a_file_name_in_capitals_is_kept_as_written() -> None:
    assert rule(file="NIGHT.bjh").file == "NIGHT.bjh"
    assert rule(file="AB" * 31).file == "AB" * 31  # not 64 digits: a name, not a digest


WAIVER_BODY = 'justification = "j"\napproved_by = "a"\nexpires = 2030-01-01\n'


@pytest.mark.parametrize(("text", "message"), [
    # a fault in the first, second and last waiver: the line of the field at fault
    ('[[waiver]]\ncitation = "24"\njustification = " "\napproved_by = "a"\n'
     'expires = 2030-01-01\n',
     "w.toml: line 3: waiver 1: `justification` must not be blank"),
    ('[[waiver]]\ncitation = "24"\n' + WAIVER_BODY + '# two\n[[waiver]]\ncitation = "24"\n'
     'justification = "j"\napproved_by = "a"\nexpires = 2030-13-01\n[[waiver]]\n'
     'dealer = "D"\n' + WAIVER_BODY,
     "w.toml: line 11: `expires`: '2030-13-01' is not a date"),
    ('[[waiver]]\ncitation = "24"\n' + WAIVER_BODY + '[[waiver]]\ncitation = "24"\n'
     'approved_by = "a"\njustification = "j"\nexpires = 20300101\n',
     "w.toml: line 10: waiver 2: `expires` must be a date such as 2026-12-31"),
    # the last field of a waiver followed by another, and a citation of the first of two
    ('[[waiver]]\ncitation = "24"\n' + WAIVER_BODY + '[[waiver]]\ncitation = "24"\n'
     'approved_by = "a"\nexpires = 2030-01-01\njustification = " "\n[[waiver]]\n'
     'dealer = "D"\n' + WAIVER_BODY,
     "w.toml: line 10: waiver 2: `justification` must not be blank"),
    ('[[waiver]]\njustification = "j"\napproved_by = "a"\ncitation = "30.10(13)"\n'
     'expires = 2030-01-01\n[[waiver]]\ndealer = "D"\n' + WAIVER_BODY,
     "w.toml: line 4: waiver 1: `citation` '30.10(13)' is not in the rule base"),
    # a field missing: the line of its waiver's header, not a field of the next waiver
    ('[[waiver]]\ncitation = "24"\n' + WAIVER_BODY + '[[waiver]]\ncitation = "24"\n'
     'justification = "j"\nexpires = 2030-01-01\n[[waiver]]\napproved_by = "a"\n'
     'citation = "24"\njustification = "j"\nexpires = 2030-01-01\n',
     "w.toml: line 6: waiver 2: `approved_by` is required"),
    ('[[waiver]]\nexpires = 2030-01-01\n[[waiver]]\napproved_by = "a"\n'
     'justification = "j"\ncitation = "24"\n',
     "w.toml: line 1: waiver 1: `justification` is required; `approved_by` is required"),
    # an unknown citation: the line of its `citation`
    ('[[waiver]]\ncitation = "24"\n' + WAIVER_BODY + '\n[[waiver]]\njustification = "j"\n'
     'approved_by = "a"\n"citation" = "30.10(13)"\nexpires = 2030-01-01\n',
     "w.toml: line 10: waiver 2: `citation` '30.10(13)' is not in the rule base; the "
     "nearest is 20:18:15:30.10(12)"),
    ('[[waiver]]\n' + WAIVER_BODY + '[[waiver]]\ncitation = "24"\n' + WAIVER_BODY,
     "w.toml: line 1: waiver 1 names nothing to match: give at least one of id, citation, "
     "table, dealer, file, from, until"),
    ('[[waiver]]\ncitation = "24"\n' + WAIVER_BODY + '[[waiver]]\ndealer = "D"\n'
     'from = 2026-11-21\nuntil = 2026-11-20\n' + WAIVER_BODY,
     "w.toml: line 6: waiver 2: `from` is after `until`"),
    ('[[waiver]]\ncitation = "24"\ncolour = 1\n' + WAIVER_BODY,
     "w.toml: line 3: waiver 1: `colour` is not a waiver field (fields: name, id, citation, "
     "table, dealer, file, from, until, justification, approved_by, expires)"),
    ('[[waiver]]\ncitation = "24"\njustification = 7\napproved_by = "a"\n'
     'expires = 2030-01-01\n',
     "w.toml: line 3: waiver 1: `justification`: Input should be a valid string"),
    ('# ours\n\nextra = 1\n[[waiver]]\ncitation = "24"\n' + WAIVER_BODY,
     "w.toml: line 3: unknown table or key 'extra'; a waiver file holds [[waiver]] tables "
     "only"),
    ('# ours\n\n[other]\nkey = 1\n',
     "w.toml: line 3: unknown table or key 'other'"),
    ('# ours\nwaiver = "none"\n', "w.toml: line 2: `waiver` must be [[waiver]] tables"),
    # a key or table in quotes is found on its line too (it was named on line 1), and a key
    # whose name only begins like it is not taken for it
    ('# ours\n\n"extra" = 1\n[[waiver]]\ncitation = "24"\n' + WAIVER_BODY,
     "w.toml: line 3: unknown table or key 'extra'"),
    ("# ours\n\n[ 'other' ]\nkey = 1\n", "w.toml: line 3: unknown table or key 'other'"),
    ('# ours\nextra-more = 2\nextra = 1\n', "w.toml: line 3: unknown table or key 'extra'"),
    # not found as written (spelled with an escape): the first line
    ('# ours\n"e\\u0078tra" = 1\n', "w.toml: line 1: unknown table or key 'extra'"),
    ('waiver = [{citation = "24", justification = "j", approved_by = "a", '
     'expires = 2030-01-01}, 3]\n', "w.toml: line 1: waiver 2 is not a table of fields"),
])
def test_a_fault_of_a_waiver_file_is_named_on_its_line(text, message) -> None:
    with pytest.raises(WaiverFileError) as raised:
        parse_waivers(text, "w.toml")
    assert str(raised.value).startswith(message), str(raised.value)


def test_from_on_its_until_day_is_one_day() -> None:
    text = '[[waiver]]\nfrom = 2026-11-20\nuntil = 2026-11-20\n' + WAIVER_BODY
    assert [w.rule.criteria() for w in parse_waivers(text)] == [
        {"from": "2026-11-20", "until": "2026-11-20"}]


def test_a_date_field_takes_a_date_or_its_text_only() -> None:
    assert rule(expires="2030-01-01").expires == date(2030, 1, 1)
    for value in (datetime(2030, 1, 1), 20300101, "2030-1-1"):
        with pytest.raises(ValueError, match="must be a date such as 2026-12-31"):
            rule(expires=value)


def test_a_waiver_file_that_cannot_be_read_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "none.toml"
    with pytest.raises(WaiverFileError, match=f"^{re.escape(str(missing))}: cannot be read"):
        load_waivers(missing)
    written = tmp_path / "w.toml"
    written.write_text('[[waiver]]\ncitation = "06"\n' + WAIVER_BODY, encoding="utf-8")
    assert [w.rule.citation for w in load_waivers(written)] == ["20:18:15:06"]


CITATIONS = ["20:18:15:06", "20:18:15:24", "20:18:15:30.10(4)", "20:18:15:30.10(12)",
             "20:18:15:30.02(¶11)", "record:syntax"]


@pytest.mark.parametrize(("written", "nearest"), [
    ("20:18:15:6", "20:18:15:06"), ("20:18:15:30.10(11)", "20:18:15:30.10(12)"),
    ("30.10(5)", "20:18:15:30.10(4)"), ("30.10(9)", "20:18:15:30.10(12)"),
    ("30.02(13)", "20:18:15:30.02(¶11)"), ("record:sintax", "record:syntax"),
    ("20:18:15:25", "20:18:15:24"), ("*", None), ("", None),
    # half alike (one character of four in common) is alike enough
    ("x6", "20:18:15:06")])
def test_the_nearest_known_citation(written, nearest) -> None:
    assert nearest_citation(written, CITATIONS) == nearest


# ---- the baseline -----------------------------------------------------------------------

EARLIER = {"id": "BJH-0000000000000001", "citation": "20:18:15:24", "severity": "high",
           "file": "t.bjh", "line": 12, "round": "3", "table": "T1", "seat": "s1",
           "hand": "s1h1", "date": "2026-11-20", "message": "paid 20, owed 30"}


def earlier(identity: str, line: int) -> dict[str, object]:
    return {**EARLIER, "id": identity, "line": line}


def test_findings_are_new_or_persisting_as_many_times_as_their_id_was_found() -> None:
    comparison = Comparison([earlier("BJH-0000000000000001", 1),
                             earlier("BJH-0000000000000002", 2),
                             earlier("BJH-0000000000000001", 3),
                             earlier("BJH-0000000000000003", 4),
                             earlier("BJH-0000000000000002", 5),
                             earlier("BJH-0000000000000003", 6)])
    marks = [(identity, comparison(finding(id=identity)).baseline) for identity in (
        "BJH-0000000000000001", "BJH-0000000000000004", "BJH-0000000000000001",
        "BJH-0000000000000001", "BJH-0000000000000003")]
    assert marks == [("BJH-0000000000000001", "persisting"), ("BJH-0000000000000004", "new"),
                     ("BJH-0000000000000001", "persisting"), ("BJH-0000000000000001", "new"),
                     ("BJH-0000000000000003", "persisting")]
    # What is left over of each earlier ID (the first of them), in the earlier order.
    assert [(r["id"], r["line"]) for r in comparison.resolved()] == [
        ("BJH-0000000000000002", 2), ("BJH-0000000000000003", 4),
        ("BJH-0000000000000002", 5)]


def test_a_resolved_finding_keeps_what_recognises_it_only() -> None:
    assert resolved_fields([{**EARLIER, "rule": "x", "expected": "30.00"},
                            {"id": "BJH-0000000000000009"}]) == [
        EARLIER, {**dict.fromkeys(EARLIER), "id": "BJH-0000000000000009"}]


def written(tmp_path: Path, document: object) -> Path:
    path = tmp_path / "findings.json"
    path.write_text(document if isinstance(document, str) else json.dumps(document),
                    encoding="utf-8")
    return path


@pytest.mark.parametrize(("document", "message"), [
    ({"findings": [EARLIER, {"citation": "x"}, {"id": 5}]},
     "2 finding(s) without an `id`: it was written by an auditor older than stable finding "
     "IDs"),
    ({"findings": [{"citation": "x"}]}, "1 finding(s) without an `id`"),
    ({"findings": [EARLIER, 5]}, "not an auditor findings.json (no `findings` list)"),
    ({"findings": {"id": "x"}}, "not an auditor findings.json (no `findings` list)"),
    ([EARLIER], "not an auditor findings.json (no `findings` list)"),
    ('{\n"findings": [\n}', "line 3: not JSON (Expecting value)"),
    # the value is shown whole up to 40 characters, cut after
    ({"findings": [{**EARLIER, "severity": "x" * 38}]},
     "finding 1 ('BJH-0000000000000001'): `severity`: Input should be 'high', 'medium' or "
     f"'low', not '{'x' * 38}'; not a findings.json"),
    ({"findings": [{**EARLIER, "severity": "x" * 39}]},
     f"`severity`: Input should be 'high', 'medium' or 'low', not '{'x' * 39}…; not a"),
    ({"findings": [EARLIER, {"id": "BJH-0000000000000002", "citation": "x", "severity": "low",
                             "file": "f"}]},
     "finding 2 ('BJH-0000000000000002'): `message`: missing; not a findings.json"),
    # strict: a line given as text or as true is not a line
    ({"findings": [{**EARLIER, "line": "12"}]},
     "`line`: Input should be a valid integer, not '12'"),
    ({"findings": [{**EARLIER, "line": True}]},
     "`line`: Input should be a valid integer, not True"),
    ({"findings": [{**EARLIER, "line": 0}]},
     "`line`: Input should be greater than or equal to 1, not 0"),
    # JSON's "\\ud800" decodes to no character: it could not be written out again
    ('{"findings": [{"id": "BJH-0000000000000001", "citation": "20:18:15:24", '
     '"severity": "high", "file": "t.bjh", "message": "m\\ud800"}]}',
     "finding 1 ('BJH-0000000000000001'): `message`: holds an escape that is no character "
     "(a lone surrogate), not 'm\\ud800'; not a findings.json"),
])
def test_an_unusable_baseline_is_refused_saying_why(tmp_path, document, message) -> None:
    path = written(tmp_path, document)
    with pytest.raises(BaselineError) as raised:
        load_baseline(path)
    assert str(raised.value).startswith(f"{path}: ") and message in str(raised.value), \
        str(raised.value)


def test_a_baseline_that_cannot_be_read_is_named(tmp_path) -> None:
    with pytest.raises(BaselineError, match=r"none\.json: cannot be read"):
        load_baseline(tmp_path / "none.json")
    assert load_baseline(written(tmp_path, {"findings": [EARLIER, {**EARLIER, "x": 1}]})) \
        == [EARLIER, EARLIER]
    # a finding on the record's first line
    assert load_baseline(written(tmp_path, {"findings": [{**EARLIER, "line": 1}]})) == \
        [{**EARLIER, "line": 1}]
