"""The parts of `auditor case` one at a time, with exact values: the basis a finding rests
on, the replayed table's words, the money totals, the printed PDF's check, the scope's
dates. The whole case is made and read in tests/evidence/test_case*.py; these hold the branches a
whole case seldom reaches (issue 45: mutants of the case code that no test saw)."""

from __future__ import annotations

import os
import shutil
from decimal import Decimal
from pathlib import Path

import pytest
from markupsafe import Markup

from auditor.case.basis import Basis, HouseRule, basis_of, rules_applied
from auditor.case.building import building
from auditor.case.copies import copy_problems
from auditor.case.model import Exhibit, MoneyTotal, _exhibit, _rounds_by_id, _table_words
from auditor.case.render import _whole_pdf, money, visible
from auditor.case.scope import Scope
from auditor.case.source import CaseError
from auditor.cli import main
from auditor.findings import Finding
from auditor.replay.trace import RoundEvidence
from auditor.results import InputSummary
from auditor.rulebase import rule_entries
from tests.helpers import ROOT, SAMPLES


def finding(**fields) -> Finding:
    base = {"citation": "20:18:15:06", "rule": "standard.main_payout", "severity": "high",
            "file": "t.bjh", "line": 10, "round": "1", "message": "m"}
    return Finding(**{**base, **fields})


def test_the_rule_base_s_note_beyond_not_on_file_is_the_basis_note() -> None:
    entry = rule_entries()["20:18:15:23"]
    basis = basis_of("20:18:15:23", entry)
    assert (basis.title, basis.on_file, basis.record) == ("Insurance wagers", False, False)
    assert basis.note == ('20:18:19:01 requires the layout to show "Insurance pays 2 to 1".')
    assert basis.reading_alone is True
    # Words on file have no such note, even when they read alike.
    quoted = Basis("x", "x", basis.words, True, "", False)
    assert quoted.note == ""


def test_a_citation_the_rule_base_does_not_hold_has_a_basis_that_says_so() -> None:
    basis = basis_of("record:syntax", None)
    assert basis == Basis("record:syntax", "record:syntax", "(not in the rule base)", False,
                          basis.reading, True)
    assert (basis.note, basis.reading_alone) == ("", False)
    unknown = basis_of("20:18:15:99", None)
    assert (unknown.title, unknown.words, unknown.record, unknown.reading_alone) == (
        "20:18:15:99", "(not in the rule base)", False, True)


def test_money_totals_count_under_and_over_payments_apart() -> None:
    total = MoneyTotal("USD")
    for difference in (Decimal("-10.00"), Decimal("2.50"), None, Decimal("0"),
                       Decimal("-0.50")):
        total.add(finding(difference=difference))
    assert (total.findings, total.with_money, total.under_paid, total.over_paid) == (
        5, 4, Decimal("10.50"), Decimal("2.50"))


def test_the_replayed_table_in_words() -> None:
    step = {
        "dealer": {"cards": ["Th", "6c"], "total": 16, "revealed": True},
        "hands": [
            {"hand": "s1h1", "cards": ["Ah", "6d"], "total": 17, "soft": True,
             "status": "stood"},
            {"hand": "s2h1", "cards": ["5h", "6d", "9c"], "total": 20, "soft": False,
             "status": "doubled", "doubled": "20"},
            {"hand": "s3h1", "cards": ["9h", "9d"], "total": 18, "soft": False,
             "status": "", "doubled": None},
        ],
        "wagers": [
            {"target": "s1h1", "kind": "main", "amount": "10", "tip": False,
             "settled": "win 10"},
            {"target": "s2h1", "kind": "main", "amount": "5", "tip": True, "settled": None},
        ],
    }
    assert _table_words(step) == {
        "dealer": "Th 6c (16)",
        "hands": ["s1h1: Ah 6d (17 soft, stood)", "s2h1: 5h 6d 9c (20, doubled 20)",
                  "s3h1: 9h 9d (18)"],
        "wagers": ["s1h1 main 10 — settled win 10", "s2h1 main 5 (tip) — open"],
    }
    assert _table_words({"dealer": {"cards": None}}) == {
        "dealer": "no card, hole card not revealed", "hands": [], "wagers": []}


def test_money_and_visible_text_as_the_case_prints_them() -> None:
    assert money(None) == "—"
    assert money(Decimal("1234.5")) == "1,234.50"
    assert visible("pays \u202eevil") == "pays \\u202eevil"
    assert visible("tab\tline\n") == "tab\tline\n"
    assert visible(25) == 25
    marked = Markup("<b>\u202e</b>")
    assert visible(marked) is marked  # the page's own markup, not a record's text


def test_a_pdf_is_whole_when_it_begins_as_one_and_its_end_marker_is_in_its_last_kb(
        tmp_path: Path) -> None:
    pdf = tmp_path / "case.pdf"
    # the end marker at the very first byte of the last 1024
    pdf.write_bytes(b"%PDF-1.7\n" + b"x" * 3000 + b"%%EOF" + b"\n" * 1019)
    assert _whole_pdf(pdf) is True
    pdf.write_bytes(b"%PDF-1.7\n" + b"x" * 3000 + b"%%EOF" + b"\n" * 1020)  # one byte before
    assert _whole_pdf(pdf) is False
    pdf.write_bytes(b"%PDF-1.7\n%%EOF")
    assert _whole_pdf(pdf) is True
    pdf.write_bytes(b"%PDF")
    assert _whole_pdf(pdf) is False
    pdf.write_bytes(b"<html>%%EOF")
    assert _whole_pdf(pdf) is False
    assert _whole_pdf(tmp_path / "missing.pdf") is False


def test_rules_applied_leave_out_another_game_s_options() -> None:
    db21 = InputSummary(path="t.bjh", table="T07", game="db21", decks=6,
                        house_rules={"db21.paytable": "A", "soft17": "stand"},
                        declared_rules=["db21.paytable"])
    assert rules_applied("20:18:15:30.10(12)", db21) == [
        HouseRule("db21.paytable", "A", True), HouseRule("soft17", "stand", False)]
    ladies = InputSummary(path="l.bjh", table="T22", game="standard", decks=None,
                          house_rules={"peek": "yes"}, declared_rules=None)
    # a standard table: the ladies pay table is nothing of it; its decks are unknown
    assert rules_applied("20:18:15:30.04(3)", ladies) == [
        HouseRule("decks", None, True), HouseRule("peek", "yes", None)]
    assert rules_applied("20:18:15:30.10(12)", None) is None
    assert rules_applied("record:syntax", db21) == []  # depends on no house rule
    assert rules_applied("20:18:15:99", db21) is None  # no such check: every rule


def test_a_build_stopped_after_its_folder_went_keeps_its_own_error(tmp_path: Path) -> None:
    """The folder being built removed meanwhile (by hand, by a cleaner): the error that
    stopped the build is the one raised, not the cleanup's."""
    out = tmp_path / "case"
    with pytest.raises(CaseError, match=r"^the disk is full$"), building(out) as made:
        shutil.rmtree(made)
        raise CaseError("the disk is full")
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_cannot_be_made_is_said_in_plain_text(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """An OSError (here --out under a file) is one line naming the file, then why, with no
    colour codes: the command line's guard prints plain text (auditor/commands/guard.py)."""
    run = tmp_path / "run"
    shutil.copytree(ROOT / "tests" / "fixtures" / "run-manifest-1", run)
    monkeypatch.chdir(run)
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    assert main(["case", ".", "--licensee", "RL-0412",
                 "--out", str(tmp_path / "a-file" / "case")]) == 2
    assert capsys.readouterr().err == f"auditor: {tmp_path / 'a-file'}: File exists\n"


@pytest.fixture(scope="module")
def audited(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One sample log of RL-0412 copied and audited from inside its folder (its input
    named relative to it), with a store of its own: the folder."""
    folder = tmp_path_factory.mktemp("audited")
    shutil.copy2(SAMPLES / "standard-t11-2026-11-20.bjh", folder / "t11.bjh")
    here = Path.cwd()
    os.chdir(folder)
    try:
        assert main(["audit", "t11.bjh", "--out", "out", "--quiet", "--store",
                     "history.sqlite"]) == 1
    finally:
        os.chdir(here)
    return folder


def copied_run(audited: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "audited"
    shutil.copytree(audited, folder)
    monkeypatch.chdir(folder)
    return folder


def test_a_case_without_pdf_needs_no_chromium(audited: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    copied_run(audited, tmp_path, monkeypatch)
    monkeypatch.setenv("BJH_CHROMIUM", str(tmp_path / "no-chromium"))
    assert main(["case", "out", "--licensee", "RL-0412", "--out", str(tmp_path / "case")]) == 0
    assert sorted(path.name for path in (tmp_path / "case").iterdir()) == [
        "case.html", "findings.json", "inputs", "manifest.json"]


def test_an_input_changed_since_the_run_is_refused_by_case(
        audited: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture) -> None:
    folder = copied_run(audited, tmp_path, monkeypatch)
    record = folder / "t11.bjh"
    record.write_bytes(record.read_bytes() + b"\n")
    capsys.readouterr()
    status = main(["case", "out", "--licensee", "RL-0412", "--out", str(tmp_path / "case")])
    assert (status, capsys.readouterr().err.strip()) == (
        2, "auditor: input t11.bjh has changed since the run (28,470 bytes, the run "
           "audited 28,469): audit it again")
    assert not (tmp_path / "case").exists()


def exhibit_of(found: Finding, replays: list[RoundEvidence] = ()) -> Exhibit:
    source = ["bjh 1", "round 1 time=20:00:00 dealer=D-1", "20:00:01 bet s1h1 main 10",
              "20:00:02 deal s1h1 Ah", "20:00:03 settle s1h1 main win 10"]
    basis = basis_of(found.citation, rule_entries().get(found.citation))
    return _exhibit(3, found, None, {"t.bjh": "inputs/t.bjh"}, basis,
                    _rounds_by_id({str(n): r for n, r in enumerate(replays)}), source)


def test_an_exhibit_shows_the_record_lines_it_stands_on() -> None:
    exhibit = exhibit_of(finding(line=5, evidence=(3, 4)))
    assert exhibit.record_lines == [(3, "20:00:01 bet s1h1 main 10", False),
                                    (4, "20:00:02 deal s1h1 Ah", False),
                                    (5, "20:00:03 settle s1h1 main win 10", True)]
    assert (exhibit.number, exhibit.input_copy, exhibit.currency) == (
        3, "inputs/t.bjh", "undeclared")
    # A line the record does not have (a findings.json edited by hand) shows no text.
    assert exhibit_of(finding(line=0, evidence=(9,))).record_lines == [
        (0, "", True), (9, "", False)]


def test_an_exhibit_says_why_it_has_no_replay() -> None:
    kept = ("The audit keeps the replays of the first rounds of each citation in each "
            "record; this round is not among them. Its lines are in the copied input.")
    about_the_record = "This finding is about the record, not a round's play: no replay."
    assert exhibit_of(finding(line=5, round="1")).replay_missing == kept
    assert exhibit_of(finding(line=None, round="1")).replay_missing == about_the_record
    # a round's replay kept, but the finding stands on no line of it: none is shown
    lines = [(2, "round 1 time=20:00:00 dealer=D-1"), (3, "20:00:01 bet s1h1 main 10")]
    replay = RoundEvidence("t.bjh", "1", 2, lines, {})
    assert exhibit_of(finding(line=None, round="1"), [replay]).replay_missing == \
        about_the_record
    assert exhibit_of(finding(line=9, round="1"), [replay]).replay_missing == kept
    # a finding on the round's first line or on its last is within its replay
    for line in (2, 3):
        assert exhibit_of(finding(line=line, round="1"), [replay]).replay_missing is None
    assert exhibit_of(finding(line=5, round=None)).replay_missing == about_the_record


def test_an_exhibit_replays_its_round_up_to_the_fault() -> None:
    lines = [(2, "round 1 time=20:00:00 dealer=D-1"), (3, "20:00:01 bet s1h1 main 10"),
             (4, "20:00:02 deal s1h1 Ah"), (5, "20:00:03 settle s1h1 main win 10")]
    step = {"dealer": {"cards": ["9c"], "total": 9, "revealed": True}, "hands": [],
            "wagers": []}
    replay = RoundEvidence("t.bjh", "1", 2, lines, {3: step, 5: step})
    exhibit = exhibit_of(finding(line=4, evidence=(3,)), [replay])
    assert exhibit.replay == [(2, "round 1 time=20:00:00 dealer=D-1", False),
                              (3, "20:00:01 bet s1h1 main 10", True),
                              (4, "20:00:02 deal s1h1 Ah", True)]
    assert exhibit.table_at_fault == {"line": 3, "dealer": "9c (9)", "hands": [],
                                      "wagers": []}
    assert exhibit.replay_missing is None
    # No step of the round up to the fault: no table shown (not a crash).
    early = RoundEvidence("t.bjh", "1", 2, lines, {5: step})
    shown = exhibit_of(finding(line=4), [early])
    assert (shown.table_at_fault, [line for line, _, _ in shown.replay]) == (None, [2, 3, 4])


def summary_of(**fields) -> InputSummary:
    base = {"path": "t.bjh", "table": "T11", "licence": "RL-0412", "casino": "Deadwood",
            "first_date": "2026-11-20", "last_date": "2026-11-21",
            "first_gaming_day": "2026-11-20", "last_gaming_day": "2026-11-20"}
    return InputSummary(**{**base, **fields})


def test_the_inputs_a_scope_takes() -> None:
    every = Scope(licensee="RL-0412")
    assert every.takes_input(summary_of()) is True
    assert Scope(licensee="Deadwood").takes_input(summary_of()) is True
    assert Scope(licensee="RL-0417").takes_input(summary_of()) is False
    assert every.takes_input(summary_of(error="unreadable")) is False
    assert every.takes_input(summary_of(table=None)) is False
    assert Scope(licensee="RL-0412", tables=("T07",)).takes_input(summary_of()) is False
    assert Scope(licensee="RL-0412", tables=("T11",)).takes_input(summary_of()) is True
    # gaming dates: both ends included
    assert Scope(date_from="2026-11-20", date_until="2026-11-20").takes_input(
        summary_of()) is True
    assert Scope(date_from="2026-11-21").takes_input(summary_of()) is False
    assert Scope(date_until="2026-11-19").takes_input(summary_of()) is False
    # a run recorded before gaming days: calendar dates, the first a day earlier
    older = summary_of(first_gaming_day=None, last_gaming_day=None)
    assert Scope(date_until="2026-11-19").takes_input(older) is True
    assert Scope(date_until="2026-11-18").takes_input(older) is False
    assert Scope(date_from="2026-11-21").takes_input(older) is True
    assert Scope(date_from="2026-11-22").takes_input(older) is False
    assert Scope(date_from="2026-11-20").takes_input(
        summary_of(first_gaming_day=None, last_gaming_day=None, first_date=None)) is False


def test_the_findings_a_scope_holds() -> None:
    late = finding(date="2026-11-21", time="02:00:00", citation="20:18:15:30.10(12)")
    assert Scope().gaming_day(late) == "2026-11-20"  # before 06:00: the night before
    assert Scope(gaming_day_starts="00:00").gaming_day(late) == "2026-11-21"
    assert Scope().gaming_day(finding(gaming_day="2026-11-19", date="2026-11-21")) == \
        "2026-11-19"
    assert Scope(date_until="2026-11-20").holds(late) is True
    assert Scope(date_from="2026-11-20", date_until="2026-11-20").holds(late) is True
    assert Scope(date_from="2026-11-21").holds(late) is False
    assert Scope(date_until="2026-11-19").holds(late) is False
    assert Scope(date_until="2026-11-19").holds(finding(date=None)) is True  # the record's
    assert Scope(citations=("20:18:15:30.10",)).holds(late) is True
    assert Scope(citations=("20:18:15:30.10(12)",)).holds(late) is True
    assert Scope(citations=("20:18:15:30.1",)).holds(late) is False
    assert Scope(citations=("20:18:15:30.10(1)",)).holds(late) is False


def test_a_scope_s_narrowing_in_words() -> None:
    assert Scope(licensee="RL-0412").narrowing() == []
    assert Scope(tables=("T07", "T11"), date_from="2026-11-20",
                 citations=("20:18:15:06",)).narrowing() == [
        "table T07, T11", "gaming dates 2026-11-20 to any", "citation 20:18:15:06"]
    assert Scope(date_until="2026-11-21").narrowing() == ["gaming dates any to 2026-11-21"]


def test_the_files_of_a_manifest_that_are_not_the_folder_s_own(tmp_path: Path) -> None:
    folder = tmp_path / "case"
    (folder / "inputs").mkdir(parents=True)
    (folder / "inputs" / "t.bjh").write_text("bjh 1\n", encoding="utf-8")
    (folder / "inputs" / "sub").mkdir()
    (tmp_path / "elsewhere.bjh").write_text("bjh 1\n", encoding="utf-8")
    (folder / "inputs" / "link.bjh").symlink_to(tmp_path / "elsewhere.bjh")
    manifest = {"kind": "case", "inputs": [
        {"copy": "inputs/t.bjh"}, {"copy": "inputs/missing.bjh"}, {"copy": "../x.bjh"},
        {"copy": "/etc/passwd"}, {"copy": "inputs/sub"}, {"copy": "inputs/link.bjh"},
        {"name": "t07.bjh"}, "not an entry"],
        "outputs": {"case.html": "…", "inputs/../../x": "…"}}
    assert copy_problems(folder, manifest) == [
        "input ../x.bjh: lies outside the folder",
        "input /etc/passwd: lies outside the folder",
        "input inputs/sub: not a plain file (a folder's files are plain files)",
        f"input inputs/link.bjh: a link to {tmp_path / 'elsewhere.bjh'}, not the folder's "
        "own file: it would not go with the folder, and a change where it points changes it",
        "input t07.bjh: the case holds no copy of it (a case's inputs are its own copies, "
        "under inputs/)",
        "output inputs/../../x: lies outside the folder"]
    # A run folder's inputs are named where they lay: no copy is asked of them.
    assert copy_problems(folder, {"kind": "run", "inputs": [{"path": "t07.bjh"}]}) == []


def test_a_time_stamp_is_printed_in_utc_as_a_person_reads_it() -> None:
    from auditor.case.render import utc

    assert utc("2026-11-20T06:00:05+00:00") == "2026-11-20 06:00:05 UTC"
    assert utc(None) == "not recorded" and utc("") == "not recorded"


def test_a_path_through_a_file_cannot_be_looked_at(tmp_path: Path) -> None:
    from auditor.case.copies import _not_own

    (tmp_path / "inputs").write_text("a file where a folder should be\n", encoding="utf-8")
    assert _not_own(tmp_path, "inputs/t11.bjh") == "cannot be looked at (Not a directory)"
    assert _not_own(tmp_path, "missing/t11.bjh") is None  # missing: said elsewhere


@pytest.mark.parametrize(("document", "why"), [
    ('{"inputs": [], "auditor": {"finished": true}, "findings": {"id": 1}}', "TypeError"),
    ('{"inputs": [], "auditor": ["finished"], "findings": []}', "TypeError"),
    ('{"inputs": [], "findings": []}', "KeyError"),
    ('{"inputs": [], "auditor": {"finished": true}', "JSONDecodeError"),
])
def test_a_findings_json_of_the_wrong_shape_is_refused_in_one_line(tmp_path: Path,
                                                                 document: str,
                                                                 why: str) -> None:
    """A run's findings.json whose findings are not a list (or whose auditor is not an
    object) is no audit a case can stand on: refused, naming the file, never read on."""
    from auditor.case.source import open_run

    (tmp_path / "findings.json").write_text(document, encoding="utf-8")
    with pytest.raises(CaseError) as refused:
        open_run(str(tmp_path), None)
    assert str(refused.value) == (f"{tmp_path / 'findings.json'} cannot be read as an "
                                  f"audit's findings.json ({why})")


def test_a_house_rule_in_words() -> None:
    """What page 1 says of each house rule: its value and whether the header declared it,
    and of a rule with no one value why (a why given with a value is the value's)."""
    assert [rule.words() for rule in (
        HouseRule("soft17", "h17", True), HouseRule("soft17", "h17", False),
        HouseRule("soft17", "h17", None), HouseRule("soft17", "h17", True, why="twice"),
        HouseRule("decks", None, None, why="set twice"), HouseRule("decks", None, None),
    )] == [
        "soft17=h17 (declared)",
        "soft17: not declared, judged under the default soft17=h17",
        "soft17=h17 (declared or default: the run did not record which)",
        "soft17=h17 (declared)",
        "decks: unknown (set twice), judged under each value it could hold",
        "decks: the header declares no one value for it"]


def test_a_time_in_a_zone_this_machine_does_not_know_is_printed_as_written() -> None:
    from auditor.case.render import zoned_time

    assert zoned_time("21:00:00", "Nowhere/Atlantis", "2026-11-20") == "21:00:00"
    assert zoned_time("21:00:00", "America/Denver", "2026-11-20") == "21:00:00 MST"


def test_names_in_square_brackets_are_printed_as_written(
        audited: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture) -> None:
    """A key's or a case's name is the user's text, never the console's markup: `[red]`
    in a path is printed, not taken as a colour (and a name with `[/]` crashed the print)."""
    copied_run(audited, tmp_path, monkeypatch)
    key = tmp_path / "[red]key"
    capsys.readouterr()
    assert main(["keygen", str(key)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"Private key: {key} (keep it secret)",
        f"Public key: {key}.pub (give it to whoever verifies)"]
    case = tmp_path / "[bold]case"
    assert main(["case", "out", "--licensee", "RL-0412", "--out", str(case), "--max-exhibits",
                 "0"]) == 0
    capsys.readouterr()
    assert main(["verify", str(case)]) == 4
    assert f"{case}: every input and output" in capsys.readouterr().out
    assert main(["case", "out", "--licensee", "RL-0412", "--out", str(tmp_path / "c2"),
                 "--max-exhibits", "-1"]) == 2


def test_a_finding_moved_to_another_input_of_the_run_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture) -> None:
    """findings.json edited to put a finding of T11 under T12 (the same line, round and
    citation): the inputs audited again find it in T11, so the case is refused, never made
    of the edited run (each finding is known by its input's content, not by its place)."""
    import json

    monkeypatch.chdir(tmp_path)
    for name in ("standard-t11-2026-11-20.bjh", "standard-t12-2026-11-21.bjh"):
        shutil.copy2(SAMPLES / name, tmp_path / name)
    assert main(["audit", "standard-t11-2026-11-20.bjh", "standard-t12-2026-11-21.bjh",
                 "--out", "run", "--quiet", "--store", "history.sqlite"]) == 1
    path = tmp_path / "run" / "findings.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    moved = next(f for f in document["findings"] if f["citation"] == "20:18:15:06")
    assert moved["file"] == "standard-t11-2026-11-20.bjh"
    moved["file"] = "standard-t12-2026-11-21.bjh"
    path.write_text(json.dumps(document), encoding="utf-8")
    capsys.readouterr()
    assert main(["case", "run", "--licensee", "RL-0412", "--out", "case"]) == 2
    assert capsys.readouterr().err.strip() == (
        "auditor: the inputs in scope audited again give 10 finding(s), the run 10, 1 of "
        "which not found again: widen the case (a finding may depend on another record of "
        "the run) or audit again")
    assert not (tmp_path / "case").exists()


def test_a_case_fingerprint_is_16_hex_digits_of_what_the_case_is() -> None:
    """Printed on every page and recomputed by verify: the SHA-256 of the auditor, the rule
    base, the scope, the inputs' contents and the findings' IDs, its first 16 digits."""
    import hashlib
    import json

    from auditor.case.model import case_fingerprint

    scope = Scope(licensee="RL-0412")
    inputs = [summary_of(sha256="b" * 64), summary_of(sha256="a" * 64)]
    printed = case_fingerprint(scope, "r" * 64, "1.2", inputs, ["BJH-1", None])
    canonical = json.dumps({"auditor": "1.2", "rule_base": "r" * 64,
                            "scope": scope.as_document(), "inputs": ["a" * 64, "b" * 64],
                            "findings": ["BJH-1", ""]}, sort_keys=True)
    assert printed == hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16].upper()
    assert printed != case_fingerprint(scope, "r" * 64, "1.2", inputs, ["BJH-2", None])


def test_a_case_by_the_casino_s_name_is_the_case_by_its_licence(
        audited: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--licensee` takes the casino's name as the header writes it, when one licence holds
    it: the same findings as the case by the licence ID."""
    import json

    copied_run(audited, tmp_path, monkeypatch)
    for licensee, folder in (("RL-0412", "by-licence"), ("Deadwood Example Casino", "by-name")):
        assert main(["case", "out", "--licensee", licensee, "--out",
                     str(tmp_path / folder)]) == 0
    by_licence, by_name = (
        [f["id"] for f in json.loads((tmp_path / folder / "findings.json").read_text(
            encoding="utf-8"))["findings"]] for folder in ("by-licence", "by-name"))
    assert by_licence == by_name and len(by_name) == 5
