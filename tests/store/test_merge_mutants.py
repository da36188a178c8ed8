"""The merge of a run (auditor/run.py, auditor/results.py) held to exact values: several
small records audited together give exactly the findings each gives alone, in the run's
order, whatever order the files finish in; the replays a run keeps per citation; the shapes
every layer above the single-file audit reads (a table's key, a declared rule, a round's key)."""

from __future__ import annotations

import os
import shutil
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest

from auditor.audit import audit_file
from auditor.results import FileResult, InputSummary, round_key, table_key
from auditor.run import (
    REPLAYS_PER_CITATION_IN_RUN,
    InMemory,
    ReplaySelection,
    RunMerger,
    audit_each,
    audit_paths,
    collect_paths,
    job_count,
    merge,
)
from tests.helpers import SAMPLES
from tests.helpers.punch_cards import FIRST_TABLE, SECOND_TABLE

# each file's findings alone, (citation, file, round, line), in record order; the Ten sticks
# punched-card findings are judged across the two tables' files and fall on the second
STANDARD = [("20:18:15:26", "12", 424), ("20:18:15:30", "13", 455),
            ("20:18:15:06", "15", 524), ("20:18:15:23", "16", 567),
            ("record:syntax", None, 720)]
SWITCH = [("20:18:15:30.09(6)", "1", 58), ("20:18:15:30.09(16)", "3", 173),
          ("20:18:15:30.09(15)", "9", 591), ("20:18:15:30.09(13)", "21", 1524),
          ("20:18:15:30.09(9)", "27", 1939), ("20:18:15:30.09(8)", "28", 2018)]
NAMES = ["a-standard.bjh", "b-switch.bjh", "c-cards-t31.bjh", "d-cards-t32.bjh",
         "e-standard-again.bjh"]


@pytest.fixture(scope="module")
def audited(tmp_path_factory) -> tuple[list[str], list[FileResult]]:
    """Five small records, each audited alone: the standard sample twice (its findings'
    citations in two files), the switch sample, and two tables judged across files."""
    folder = tmp_path_factory.mktemp("records")
    shutil.copy(SAMPLES / "standard-t11-2026-11-20.bjh", folder / NAMES[0])
    shutil.copy(SAMPLES / "switch-bjs2-evening.bjh", folder / NAMES[1])
    (folder / NAMES[2]).write_text(FIRST_TABLE, encoding="utf-8")
    (folder / NAMES[3]).write_text(SECOND_TABLE, encoding="utf-8")
    shutil.copy(SAMPLES / "standard-t11-2026-11-20.bjh", folder / NAMES[4])
    paths = collect_paths([str(folder)])
    assert [Path(path).name for path in paths] == NAMES
    return paths, [audit_file(path) for path in paths]


def run_of(paths: list[str], results: list[FileResult], order: list[int],
           limit: int = REPLAYS_PER_CITATION_IN_RUN):
    merged = InMemory(len(paths))
    merger = RunMerger(paths, merged)
    merger.replays = ReplaySelection(limit)
    for place in order:
        merger.add(place, results[place])
    merger.close()
    return merged.result


def rows(findings) -> list[tuple]:
    return [(f.citation, Path(f.file).name, f.round, f.line) for f in findings]


def alone(result: FileResult) -> list[tuple]:
    return rows(result.findings)


ORDERS = [[0, 1, 2, 3, 4], [4, 3, 2, 1, 0], [2, 4, 0, 3, 1], [3, 1, 4, 0, 2]]


def test_each_file_alone_gives_the_findings_it_is_held_to(audited) -> None:
    _, results = audited
    assert alone(results[0]) == [(c, NAMES[0], r, line) for c, r, line in STANDARD]
    assert alone(results[1]) == [(c, NAMES[1], r, line) for c, r, line in SWITCH]
    assert alone(results[2]) == alone(results[3]) == []
    assert alone(results[4]) == [(c, NAMES[4], r, line) for c, r, line in STANDARD]


@pytest.mark.parametrize("order", ORDERS)
def test_a_run_gives_each_files_findings_in_input_order_whatever_order_they_finish(
        audited, order: list[int]) -> None:
    paths, results = audited
    run = run_of(paths, results, order)
    assert rows(run.findings) == (
        [(c, NAMES[0], r, line) for c, r, line in STANDARD]
        + [(c, NAMES[1], r, line) for c, r, line in SWITCH]
        + [("20:18:15:30.02(¶11)", NAMES[3], "1", 10),
           ("20:18:15:30.02(¶11)", NAMES[3], "2", 28),
           ("20:18:15:30.02(¶11)", NAMES[3], "3", 40)]
        + [(c, NAMES[4], r, line) for c, r, line in STANDARD])
    # the same objects each file gave, not copies of another file's
    for place in (0, 1, 4):
        own = [f for f in run.findings if f.file == paths[place]]
        assert [f.as_dict() for f in own] == [f.as_dict() for f in results[place].findings]
    assert [summary.path for summary in run.inputs] == paths
    assert all(run.inputs[place] is results[place].summary for place in range(5))
    assert all(run.tallies[place] is results[place].tally for place in range(5))
    total: Counter = Counter()
    for result in results:
        total.update(result.applied)
    assert run.applied == total
    assert run.applied["20:18:15:26"] == 96  # every round of the five files
    # under the cap every replay made is kept, each with its own file's evidence
    made = {key: evidence for result in results for key, evidence in result.evidence.items()}
    assert sorted(run.evidence) == sorted(made)
    assert all(run.evidence[key] is made[key] for key in made)


def test_a_finding_judged_across_files_is_the_same_whichever_file_finishes_first(
        audited) -> None:
    paths, results = audited
    first = run_of(paths[2:4], results[2:4], [0, 1])
    backward = run_of(paths[2:4], results[2:4], [1, 0])
    expected = [("20:18:15:30.02(¶11)", NAMES[3], "1", 10),
                ("20:18:15:30.02(¶11)", NAMES[3], "2", 28),
                ("20:18:15:30.02(¶11)", NAMES[3], "3", 40)]
    assert rows(first.findings) == rows(backward.findings) == expected
    # the second table alone, without the first's punches, judges otherwise
    assert rows(run_of(paths[3:4], results[3:4], [0]).findings) != expected


@pytest.mark.parametrize("order", ORDERS)
def test_the_replays_kept_per_citation_are_the_first_in_input_then_record_order(
        audited, order: list[int]) -> None:
    paths, results = audited
    run = run_of(paths, results, order, limit=1)
    # one citation per round with a replay in these files: the first file's copy of the
    # standard record keeps its replays, its second copy's are left out (or pushed out)
    assert sorted(run.evidence) == sorted(
        [round_key(paths[0], "12", 391), round_key(paths[0], "13", 431),
         round_key(paths[0], "15", 505), round_key(paths[0], "16", 549)]
        + [round_key(paths[1], round_id, line) for round_id, line in (
            ("1", 22), ("3", 133), ("9", 523), ("21", 1475), ("27", 1902), ("28", 1974))])


def test_a_replay_is_held_by_each_citation_in_its_round_and_lines() -> None:
    """A round's replay is kept while one citation of a finding on its lines (its first and
    its last included) holds it; a finding of another round, past its last line or of no
    round holds nothing; a file earlier in the input, finishing later, pushes it out."""
    from auditor.findings import Finding
    from auditor.replay.trace import RoundEvidence

    def evidence(file: str, round_id: str, start: int, last: int) -> RoundEvidence:
        return RoundEvidence(file=file, round_id=round_id, start_line=start,
                             lines=[(start, "round"), (start + 1, "deal"), (last, "end")])

    def finding(file: str, citation: str, round_id: str | None, line: int | None) -> Finding:
        return Finding(citation=citation, rule="r", severity="high", file=file, line=line,
                       round=round_id, message="m")

    night, before = "night.bjh", "a.bjh"
    early, late, first = (round_key(night, "1", 10), round_key(night, "2", 30),
                          round_key(before, "7", 5))
    result = FileResult(
        summary=InputSummary(path=night),
        findings=[finding(night, "A", "1", 10), finding(night, "A", "2", 35),
                  finding(night, "B", "2", 30), finding(night, "E", "2", 40),
                  finding(night, "C", "2", 41), finding(night, "D", None, 12),
                  finding(night, "F", "1", None)],
        evidence={early: evidence(night, "1", 10, 20), late: evidence(night, "2", 30, 40)})
    selection = ReplaySelection(limit=1)
    assert selection.offer(0, result) == ([early, late], set())
    assert selection.held == {"A": [(0, 10, early)], "B": [(0, 30, late)],
                              "E": [(0, 30, late)]}
    assert selection.kept() == {early, late}
    earlier = FileResult(summary=InputSummary(path=before),
                         findings=[finding(before, "A", "7", 5)],
                         evidence={first: evidence(before, "7", 5, 9)})
    assert selection.offer(-1, earlier) == ([first], {early})
    assert selection.kept() == {first, late}
    merged = InMemory(2)
    merged.add_file(1, result, [], [early, late], set())
    merged.add_file(0, earlier, [], [first], {early})
    assert merged.evidence == {late: result.evidence[late], first: earlier.evidence[first]}


def test_a_table_s_key_is_its_licence_or_casino_and_its_id() -> None:
    assert table_key("RL-1", "T1") == "RL-1/T1"
    assert table_key(None, "T1") == "T1"
    assert table_key("", "T1") == "T1"
    assert table_key("RL-1", None) is None
    assert InputSummary(path="p", licence="RL-1", casino="Case", table="T1").table_key \
        == "RL-1/T1"
    assert InputSummary(path="p", casino="Case", table="T1").table_key == "Case/T1"
    assert InputSummary(path="p", table="T1").table_key == "T1"
    assert InputSummary(path="p", licence="RL-1").table_key is None


def test_a_rule_is_declared_assumed_or_not_recorded() -> None:
    summary = InputSummary(path="p", house_rules={"das": "yes", "rsa": "no"},
                           declared_rules=["das"])
    assert summary.rule_declared("das") is True
    assert summary.rule_declared("rsa") is False
    assert InputSummary(path="p", house_rules={"das": "yes"}).rule_declared("das") is None


def test_an_input_s_summary_says_nothing_it_did_not_read() -> None:
    dumped = InputSummary(path="p", minimum=Decimal("5.00")).model_dump(mode="json")
    assert (dumped["lines"], dumped["rounds"], dumped["rounds_audited"]) == (0, 0, 0)
    assert (dumped["minimum"], dumped["maximum"]) == ("5.00", None)
    assert dumped["dealers"] == [] and dumped["house_rules"] == {}


def test_a_round_s_key_names_its_file_line_and_round() -> None:
    assert round_key("a/b.bjh", "12", 391) == "a/b.bjh:391:12"
    assert round_key("a/b.bjh", None, 7) == "a/b.bjh:7:None"


def test_the_jobs_asked_for() -> None:
    assert job_count(3) == 3
    assert job_count(1) == 1
    assert job_count(None) == job_count(0) == max(1, os.cpu_count() or 1)
    assert job_count(-2) == 1


def test_audit_paths_is_merge_of_each_file_alone_in_input_order(audited) -> None:
    paths, results = audited
    seen: list[str] = []
    calls: list[int] = []
    run = audit_paths(paths[:3], jobs=1, progress=lambda r: seen.append(r.summary.path),
                      meanwhile=lambda: calls.append(1))
    assert seen == paths[:3] and calls == [1]
    assert rows(run.findings) == rows(merge(results[:3]).findings) == (
        [(c, NAMES[0], r, line) for c, r, line in STANDARD]
        + [(c, NAMES[1], r, line) for c, r, line in SWITCH])
    assert [summary.path for summary in run.inputs] == paths[:3]
    assert run.unreadable == []


def test_one_job_or_one_small_file_is_audited_here_and_more_in_a_pool(audited,
                                                                      tmp_path) -> None:
    """`--jobs 1`, or a single file too small to go in pieces, costs no worker process; two
    files and two jobs start a pool."""
    from auditor.split import SPLIT_BYTES
    from auditor.tasks import PoolAudit

    paths, _ = audited
    exactly = tmp_path / "exactly-the-split-size.bjh"
    with open(exactly, "wb") as handle:
        handle.truncate(SPLIT_BYTES)  # sparse: audited only if walked, and it is not
    for given, jobs in ((paths[:2], 1), (paths[:1], 2), (paths[:1], 1),
                        ([str(exactly)], 2)):
        here = audit_each(given, jobs)
        assert not isinstance(here, PoolAudit), (given, jobs)
        here.close()
    pool = audit_each(paths[:2], 2)
    try:
        assert isinstance(pool, PoolAudit)
    finally:
        pool.close()


def test_a_run_keeps_the_replays_of_the_first_twenty_rounds_of_a_citation() -> None:
    """docs/outputs.md: a run keeps (and the report shows) at most 20 rounds of each
    citation, its first in input and record order."""
    from auditor.findings import Finding
    from auditor.replay.trace import RoundEvidence

    def night(path: str, rounds: range) -> FileResult:
        return FileResult(
            summary=InputSummary(path=path),
            findings=[Finding(citation="A", rule="r", severity="high", file=path,
                              line=10 * number, round=str(number), message="m")
                      for number in rounds],
            evidence={round_key(path, str(number), 10 * number): RoundEvidence(
                file=path, round_id=str(number), start_line=10 * number,
                lines=[(10 * number, "round"), (10 * number + 5, "end")])
                for number in rounds})

    selection = ReplaySelection()
    later = night("b.bjh", range(1, 11))
    first = night("a.bjh", range(1, 12))
    assert selection.offer(1, later)[0] == list(later.evidence)
    kept, dropped = selection.offer(0, first)
    assert kept == list(first.evidence)
    assert dropped == {round_key("b.bjh", "10", 100)}
    assert selection.kept() == set(first.evidence) | {
        round_key("b.bjh", str(number), 10 * number) for number in range(1, 10)}
    assert len(selection.kept()) == 20


def test_inputs_that_lead_to_no_file_are_each_kept_once(tmp_path) -> None:
    """Two dangling links are two inputs (each listed with its error); one of them named
    twice, or by another spelling, is one."""
    folder = tmp_path / "records"
    folder.mkdir()
    os.symlink("nowhere.bjh", folder / "one.bjh")
    os.symlink("elsewhere.bjh", folder / "two.bjh")
    paths = collect_paths([str(folder / "one.bjh"), str(folder / "two.bjh"),
                           str(folder / "one.bjh"), str(folder / "." / "two.bjh"),
                           str(tmp_path / "absent.bjh")])
    assert paths == [str(folder / "one.bjh"), str(folder / "two.bjh"),
                     str(tmp_path / "absent.bjh")]


def test_audit_paths_needs_no_progress_nor_meanwhile(audited) -> None:
    paths, _ = audited
    run = audit_paths(paths[:1], jobs=1)
    assert rows(run.findings) == [(c, NAMES[0], r, line) for c, r, line in STANDARD]


def test_with_a_calendar_each_input_is_given_its_first_and_last_gaming_days(
        audited) -> None:
    """What `auditor case --from/--until` picks inputs by: set as each file is merged, from
    the hours its rounds were dealt in; a run with no calendar sets none."""
    from auditor.gaming_day import DEFAULT

    paths, _ = audited
    results = [audit_file(path) for path in paths[2:4]]
    merged = InMemory(2)
    merger = RunMerger(paths[2:4], merged, calendar=DEFAULT)
    for place in (1, 0):
        merger.add(place, results[place])
    merger.close()
    assert [(i.first_gaming_day, i.last_gaming_day) for i in merged.result.inputs] == [
        ("2026-11-20", "2026-11-20"), ("2026-11-21", "2026-11-21")]
    plain = merge([audit_file(path) for path in paths[2:4]])
    assert [(i.first_gaming_day, i.last_gaming_day) for i in plain.inputs] == [
        (None, None), (None, None)]


def test_a_machine_that_cannot_count_its_cores_runs_one_job(monkeypatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert job_count(None) == 1
    assert job_count(4) == 4


def test_a_folder_linked_to_itself_twice_is_walked_once(tmp_path) -> None:
    """Each folder is walked once, however many links lead back to it: two links to itself
    would otherwise make 2 ** 40 walks before the system refuses a path of so many links."""
    import signal

    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "night.bjh").write_text("bjh 1\n", encoding="utf-8")
    os.symlink(".", folder / "here")
    os.symlink(".", folder / "again")

    def hung(signum, frame):
        raise TimeoutError("collect_paths walked the loop of links")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, 10)
    try:
        paths = collect_paths([str(folder)])
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert paths == [str(folder / "night.bjh")]
