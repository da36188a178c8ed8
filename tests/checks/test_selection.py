"""Choosing what is judged (issue 30): --select/--ignore, the approved house rules, and
rules with their effective dates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from auditor.cli import EXIT_ERROR, main
from tests.helpers import SAMPLES
from tests.helpers.audits import audit, findings_of

DB21 = SAMPLES / "db21-t07-2026-11-20.bjh"
LADIES = SAMPLES / "ladies-t21-2026-11-20.bjh"


def judged(out: Path, *arguments: str, inputs: list[Path] | None = None) -> dict:
    """findings.json of an audit of `inputs` (the sample logs) with `arguments`, the
    command's own job count."""
    assert audit(*(inputs or [SAMPLES]), out=out, jobs=None, more=arguments) == 1
    return findings_of(out)


def found(document: dict) -> set[tuple[str, str, str, int | None]]:
    return {(f["id"], f["citation"], Path(f["file"]).name, f["line"])
            for f in document["findings"]}


@pytest.fixture(scope="module")
def full(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return judged(tmp_path_factory.mktemp("full"))


def test_select_db21_gives_its_findings_and_the_record_ones_with_the_same_ids(
        full: dict, tmp_path: Path) -> None:
    selected = judged(tmp_path, "--select", "20:18:15:30.10")
    expected = {f for f in found(full) if f[1].startswith(("20:18:15:30.10(", "record:"))}
    assert found(selected) == expected
    assert {f[1] for f in expected} >= {"20:18:15:30.10(12)", "20:18:15:30.10(4)"}
    judging = selected["auditor"]["judging"]
    assert judging["select"] == ["20:18:15:30.10"]
    assert "20:18:15:30.10(4)" in judging["judged"]
    assert "20:18:15:06" in judging["not_judged"]
    assert "record:syntax" not in judging["not_judged"]


def test_select_in_workers_as_in_one_process(full: dict, tmp_path: Path) -> None:
    """The selection travels with each task to the worker processes."""
    one = judged(tmp_path / "one", "--select", "db21.past_posting", "--select", "30.10(12)",
                 "--jobs", "1")
    two = judged(tmp_path / "two", "--select", "db21.past_posting", "--select", "30.10(12)",
                 "--jobs", "2")
    assert found(one) == found(two) == {
        f for f in found(full)
        if f[1] in ("20:18:15:30.10(4)", "20:18:15:30.10(12)") or f[1].startswith("record:")}


def test_ignore_switch_leaves_no_switch_finding_and_says_so(full: dict, tmp_path: Path,
                                                            floor_history: Path) -> None:
    assert any(f[1].startswith("20:18:15:30.09") for f in found(full))
    ignored = judged(tmp_path, "--ignore", "switch")
    assert not any(f[1].startswith("20:18:15:30.09") for f in found(ignored))
    # every other finding of the full audit is still there, with its ID
    assert {f for f in found(full) if not f[1].startswith("20:18:15:30.09")} <= found(ignored)
    judging = ignored["auditor"]["judging"]
    assert judging["ignore"] == ["switch"]
    assert "20:18:15:30.09(11)" in judging["not_judged"]
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    masthead = html.split('<header class="masthead">')[1].split("</header>")[0]
    assert "Judged in part: ignored switch;" in masthead
    assert "20:18:15:30.09(11)" in masthead
    coverage = html.split('id="coverage"')[1]
    row = coverage.split('data-citation="20:18:15:30.09(11)"')[1].split("</tr>")[0]
    assert "not selected" in row
    store_settings = _run_settings(floor_history / "bjh-auditor" / "floor.sqlite")
    assert store_settings["ignore"] == ["switch"]


def _run_settings(path: Path) -> dict:
    import sqlite3

    with sqlite3.connect(path) as connection:
        (settings,) = connection.execute("select settings from runs").fetchone()
    return json.loads(settings)


def test_selection_from_the_settings_file(full: dict, tmp_path: Path) -> None:
    config = tmp_path / "bjh-auditor.toml"
    config.write_text('select = ["ladies"]\n', encoding="utf-8")
    selected = judged(tmp_path / "out", "--config", str(config))
    assert found(selected) == {f for f in found(full)
                               if f[1].startswith(("20:18:15:30.04(", "record:"))}


@pytest.mark.parametrize(("flag", "term", "nearest"), [
    ("--select", "30.11", "30.10"), ("--ignore", "swich", "switch"),
    ("--select", "db21.past_postin", "db21.past_posting")])
def test_an_unknown_selection_is_exit_2_naming_the_nearest(
        tmp_path: Path, capsys, flag: str, term: str, nearest: str) -> None:
    out = tmp_path / "out"
    assert main(["audit", str(DB21), "--out", str(out), "--quiet", flag, term]) == EXIT_ERROR
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and f"'{term}' names no" in error
    assert f"the nearest is {nearest}" in error
    assert not out.exists()


STANDARD = SAMPLES / "standard-t12-2026-11-21.bjh"


@pytest.mark.parametrize(("flags", "why"), [
    (["--ignore", "20:18:15"], "--ignore 20:18:15 takes out every rule of the regulation"),
    (["--select", "20:18:15:30.04(1)"], "--select 20:18:15:30.04(1) names only subsections "
     "that no record can show (not checkable, see `auditor rules`)"),
    (["--select", "ladies", "--ignore", "ladies"],
     "--ignore ladies takes out every rule that --select ladies chooses")])
def test_a_selection_that_judges_nothing_of_the_regulation_is_exit_2(
        tmp_path: Path, capsys, flags: list[str], why: str) -> None:
    """Only the record checks would run: a clean result would pass for a compliant night
    (probe S01). Refused in one line, even under --quiet, and nothing is written."""
    out = tmp_path / "out"
    assert main(["audit", str(STANDARD), "--out", str(out), "--quiet", *flags]) == EXIT_ERROR
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (f"auditor: --select/--ignore: {why}: no subsection of the "
                            "regulation would be judged (to judge the record alone, --select "
                            "record)\n")
    assert not out.exists()


def test_a_selection_of_no_audited_game_says_so_and_audits_no_round(
        tmp_path: Path, capsys) -> None:
    """`--select ladies` over a standard table judges its record alone: the run says so on
    standard error even under --quiet, counts no round audited, and its report's banner
    is never "No findings."."""
    out = tmp_path / "out"
    assert main(["audit", str(STANDARD), "--out", str(out), "--quiet", "--select",
                 "ladies"]) == 0
    assert capsys.readouterr().err == (
        "auditor: --select ladies judged no round by a rule of the regulation: no rule it "
        "selects applies to the games audited (standard); only the record was judged\n")
    document = json.loads((out / "findings.json").read_text(encoding="utf-8"))
    assert [(i["rounds"], i["rounds_audited"]) for i in document["inputs"]] == [(34, 0)]
    html = (out / "report.html").read_text(encoding="utf-8")
    verdict = html.split('id="summary"')[1].split("</div>")[0]
    assert "No findings." not in verdict and "Nothing was audited." in verdict
    # no line was unreadable: the reason given is not that one
    assert "34 rounds read but not judged (a line unreadable, its game unknown, or no rule " \
           "judged of its game)" in verdict
    assert "could not all be read" not in html


def test_the_record_alone_is_judged_when_asked_for(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    assert main(["audit", str(STANDARD), "--out", str(out), "--quiet", "--select",
                 "record"]) == 0
    assert capsys.readouterr().err == (
        "auditor: --select record judged no round by a rule of the regulation: the record "
        "alone was asked for; only the record was judged\n")
    judging = json.loads((out / "findings.json").read_text(encoding="utf-8"))["auditor"][
        "judging"]
    assert judging["judged"] == ["record:approval", "record:card-count", "record:header",
                                 "record:reference", "record:syntax", "record:unsettled"]


APPROVAL = """\
[[approval]]
licence = "RL-0412"
table = "T07"
reference = "SDCGC-2026-114"
date = 2026-09-01
game = "db21"
decks = 6
min = 10
max = 300
soft17 = "hit"
db21.paytable = 2
sidebet.min = 5
sidebet.max = 100
"""


def test_an_unapproved_paytable_and_maximum_are_one_finding_each(tmp_path: Path) -> None:
    plain = judged(tmp_path / "plain", inputs=[DB21])
    approved = tmp_path / "approved.toml"
    approved.write_text(APPROVAL, encoding="utf-8")
    held = judged(tmp_path / "held", "--approved", str(approved), inputs=[DB21])
    new = found(held) - found(plain)
    assert found(plain) <= found(held)
    assert {(f[1], f[3]) for f in new} == {("record:approval", 10), ("record:approval", 12)}
    messages = sorted(f["message"] for f in held["findings"]
                      if f["citation"] == "record:approval")
    assert messages == [
        "The header declares db21.paytable=1 where approval SDCGC-2026-114 of 2026-09-01 "
        "(RL-0412/T07) approved db21.paytable=2.",
        "The header declares max=500 where approval SDCGC-2026-114 of 2026-09-01 "
        "(RL-0412/T07) approved max=300."]
    assert held["auditor"]["judging"]["approved"] == str(approved)


def test_an_unreadable_line_leaves_the_approval_findings_on_their_statements(
        tmp_path: Path) -> None:
    """A line that cannot be read (over the line limit: no text) after the header, among
    the statements the approval check reads: the approval findings still stand on the
    `table` and `option` statements, and the unreadable line breaks nothing."""
    record = tmp_path / DB21.name
    long_line = b"note " + b"x" * 70_000
    record.write_bytes(DB21.read_bytes().replace(
        b"\nshoe 118 ", b"\n" + long_line + b"\nshoe 118 ", 1))
    approved = tmp_path / "approved.toml"
    approved.write_text(APPROVAL, encoding="utf-8")
    held = judged(tmp_path / "held", "--approved", str(approved), inputs=[record])
    assert sorted((f["line"], f["message"]) for f in held["findings"]
                  if f["citation"] == "record:approval") == [
        (10, "The header declares max=500 where approval SDCGC-2026-114 of 2026-09-01 "
             "(RL-0412/T07) approved max=300."),
        (12, "The header declares db21.paytable=1 where approval SDCGC-2026-114 of "
             "2026-09-01 (RL-0412/T07) approved db21.paytable=2.")]


def test_an_approved_option_of_no_rule_of_the_header_is_declared_as_nothing(
        tmp_path: Path) -> None:
    """An approval of the header's game naming another game's option (the header has no
    such rule): the header declares nothing of it, on the `table` statement; not "does not
    declare it (judged under the default nothing)", which no default is."""
    approved = tmp_path / "approved.toml"
    approved.write_text('[[approval]]\nlicence = "RL-0412"\ntable = "T07"\n'
                        'reference = "SDCGC-2026-114"\ndate = 2026-09-01\ngame = "db21"\n'
                        "tensticks.prize = 500\n", encoding="utf-8")
    held = judged(tmp_path / "held", "--approved", str(approved), inputs=[DB21])
    assert [(f["line"], f["message"]) for f in held["findings"]
            if f["citation"] == "record:approval"] == [
        (10, "The header declares nothing where approval SDCGC-2026-114 of 2026-09-01 "
             "(RL-0412/T07) approved tensticks.prize=500.")]


def test_a_table_with_no_approval_is_reported_once(tmp_path: Path) -> None:
    approved = tmp_path / "approved.toml"
    approved.write_text(APPROVAL.replace('"T07"', '"T99"'), encoding="utf-8")
    held = judged(tmp_path / "held", "--approved", str(approved), inputs=[DB21])
    approvals = [f for f in held["findings"] if f["citation"] == "record:approval"]
    assert [(f["line"], f["severity"]) for f in approvals] == [(10, "low")]
    assert "licence RL-0412, table T07" in approvals[0]["message"]


@pytest.mark.parametrize(("text", "message"), [
    (APPROVAL.replace("max = 300", "max = -3"), "line 9: `max`: must be an amount"),
    (APPROVAL.replace("db21.paytable = 2", "db21.paytable = 7"), "line 11: `db21.paytable`"),
    (APPROVAL.replace("decks = 6", "deck = 6"), "line 7: `deck`: is not a game, limit or"),
    (APPROVAL.replace('reference = "SDCGC-2026-114"\n', ""), "`reference`: is required"),
])
def test_an_invalid_approval_file_is_exit_2_naming_field_and_line(
        tmp_path: Path, capsys, text: str, message: str) -> None:
    approved = tmp_path / "approved.toml"
    approved.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["audit", str(DB21), "--out", str(out), "--quiet", "--approved",
                 str(approved)]) == EXIT_ERROR
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert error.startswith(f"auditor: approved house rules: {approved}: ")
    assert message in error


def _approvals(count: int, last: str = "") -> str:
    """`count` approvals, one per table of as many licences (probe S02's file), and a
    licence-wide approval last, with `last` added to it."""
    parts = [f'[[approval]]\nlicence = "RL-{n}"\ntable = "T{n}"\nreference = "R{n}"\n'
             f'date = 2026-09-01\nsoft17 = "hit"\n\n' for n in range(count)]
    parts.append(f'[[approval]]\nlicence = "RL-0412"\nreference = "WIDE"\ndate = 2026-09-01\n'
                 f'db21.paytable = 2\n{last}')
    return "".join(parts)


def test_sixty_thousand_approvals_are_read_whole(tmp_path: Path) -> None:
    """Probe S02: the file is read in linear time (each approval's lines found once), and
    a table's approval found by a lookup, not a walk of every approval per file."""
    from auditor.approvals import load_approvals

    approved = tmp_path / "approved.toml"
    approved.write_text(_approvals(60_000), encoding="utf-8")
    approvals = load_approvals(approved)
    assert len(approvals.entries) == 60_001
    last = approvals.for_table("RL-59999", "T59999")
    assert (last.reference, last.line, last.rules) == ("R59999", 419_994, (("soft17", "hit"),))
    wide = approvals.for_table("RL-0412", "T07")  # no approval of its own: its licence's
    assert (wide.reference, wide.line, wide.table) == ("WIDE", 420_001, None)
    assert approvals.for_table("RL-7", "T8") is None
    assert approvals.for_table(None, "T7") is None


def test_a_fault_in_the_last_of_many_approvals_names_its_line(tmp_path: Path) -> None:
    from auditor.approvals import ApprovalFileError, load_approvals

    approved = tmp_path / "approved.toml"
    approved.write_text(_approvals(5_000, 'max = -3\n'), encoding="utf-8")
    with pytest.raises(ApprovalFileError) as raised:
        load_approvals(approved)
    assert str(raised.value) == (f"{approved}: line 35006: `max`: must be an amount (a "
                                 "number, 0 or more)")


def _dated(tmp_path: Path, round_date: str) -> Path:
    """The Lucky Ladies sample with round 9 (a 30.04(4) fault at line 280) dated."""
    lines = LADIES.read_text(encoding="utf-8").splitlines(keepends=True)
    (place,) = [i for i, line in enumerate(lines) if line.startswith("round 9 ")]
    lines[place] = lines[place].replace("round 9 ", f"round 9 date={round_date} ")
    path = tmp_path / f"ladies-{round_date}.bjh"
    path.write_text("".join(lines), encoding="utf-8")
    return path


def test_a_round_before_a_rules_effective_date_is_not_judged_by_it(tmp_path: Path) -> None:
    before = judged(tmp_path / "before", inputs=[_dated(tmp_path, "2003-05-05")])
    on_the_day = judged(tmp_path / "on", inputs=[_dated(tmp_path, "2003-05-06")])
    where = {(f[1], f[3]) for f in found(before)}
    assert ("20:18:15:30.04(4)", 280) not in where
    assert ("20:18:15:30.04(4)", 572) in where  # the other rounds keep their date
    assert {(f[1], f[3]) for f in found(on_the_day)} == where | {("20:18:15:30.04(4)", 280)}


def test_rules_not_yet_in_force_are_listed_so(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "250")  # the table's cells on one line each
    lines = LADIES.read_text(encoding="utf-8").replace("date=2026-11-20", "date=2001-01-02")
    old = tmp_path / "ladies-2001.bjh"
    old.write_text(lines, encoding="utf-8")
    document = judged(tmp_path / "out", inputs=[old])
    assert not any(f["citation"].startswith("20:18:15:30.04") for f in document["findings"])
    coverage = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    row = coverage.split('data-citation="20:18:15:30.04(4)"')[1].split("</tr>")[0]
    assert "not yet in force (in force from 2003-05-06)" in row
    assert main(["rules", "--as-of", "2001-01-02"]) == 0
    listed = capsys.readouterr().out
    assert "not yet in force (from 2003-05-06)" in listed
    assert "in force (from 1997-07-01)" in listed


def _samples() -> list[str]:
    return [str(p) for p in sorted(SAMPLES.glob("*.bjh"))]


def _expected_db21() -> list:
    from auditor.audit import audit_file
    from auditor.run import merge

    full = merge([audit_file(path) for path in _samples()])
    return [f for f in full.findings if f.citation.startswith(("20:18:15:30.10(", "record:"))]


def test_the_selection_travels_with_pieces_of_a_split_file() -> None:
    """Worker processes auditing files in pieces judge what the parent selected."""
    from auditor.run import merge
    from auditor.selection import judging_for
    from auditor.tasks import AuditTasks, audit_in_pools

    paths = _samples()
    judging = judging_for(["db21"], [])
    tasks = AuditTasks(paths, split=True, split_bytes=4_000, piece_bytes=2_000,
                       judging=judging)
    done = dict(audit_in_pools(paths, 2, tasks=tasks))
    result = merge([done[i] for i in range(len(paths))])
    assert result.findings == _expected_db21()
    assert set(result.applied) == set(judging.citations) & set(result.applied)
    assert "20:18:15:06" not in result.applied


def test_the_selection_travels_to_a_dask_cluster() -> None:
    pytest.importorskip("distributed", reason="dask[distributed] is not installed")
    from distributed import Client, LocalCluster

    from auditor.cluster import audit_on_cluster
    from auditor.run import merge
    from auditor.selection import judging_for

    paths = _samples()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        done = dict(audit_on_cluster(paths, client, split_bytes=4_000, piece_bytes=2_000,
                                     judging=judging_for(["20:18:15:30.10"], [])))
    result = merge([done[i] for i in range(len(paths))])
    assert result.findings == _expected_db21()


def test_the_approval_file_from_the_settings_file(tmp_path: Path) -> None:
    """`approved` in the settings file, relative to it."""
    folder = tmp_path / "job"
    folder.mkdir()
    (folder / "approved.toml").write_text(APPROVAL.replace("max = 300", "max = 500"),
                                          encoding="utf-8")
    (folder / "bjh-auditor.toml").write_text('approved = "approved.toml"\n', encoding="utf-8")
    held = judged(tmp_path / "out", "--config", str(folder / "bjh-auditor.toml"),
                  inputs=[DB21])
    assert [(f["line"], f["message"].split(" where ")[0]) for f in held["findings"]
            if f["citation"] == "record:approval"] == [
        (12, "The header declares db21.paytable=1")]
    assert held["auditor"]["judging"] == {"approved": str(folder / "approved.toml")}


def test_a_header_as_approved_has_no_approval_finding(tmp_path: Path) -> None:
    approved = tmp_path / "approved.toml"
    approved.write_text(APPROVAL.replace("max = 300", "max = 500.00").replace(
        "db21.paytable = 2", "db21.paytable = 1"), encoding="utf-8")
    plain = judged(tmp_path / "plain", inputs=[DB21])
    held = judged(tmp_path / "held", "--approved", str(approved), inputs=[DB21])
    assert found(held) == found(plain)
