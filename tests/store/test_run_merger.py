"""The one merger of a run's results (auditor/run.py `RunMerger`, issue 44): what it hands the
run store (`RunRecorder`, files taken as they finish) and what it holds in memory
(`run.merge`) are the same run, whatever order the files finish in: the same findings in
the same order (those judged across files too), inputs, coverage and replays kept."""

from __future__ import annotations

import shutil

import pytest

from auditor.audit import audit_file
from auditor.run import (
    InMemory,
    ReplaySelection,
    RunMerger,
    RunRecorder,
    RunTotals,
    collect_paths,
    merge,
)
from auditor.store import begin_run, load_result, open_store
from tests.helpers import SAMPLES
from tests.helpers.punch_cards import FIRST_TABLE, SECOND_TABLE

RUN = {"version": "test", "rule_base": "test", "command": "auditor audit sample_logs",
       "started": "2026-11-25T00:00:00+00:00"}
KEPT = 1  # replays kept per citation: few, so that files finishing late push earlier out


@pytest.fixture(scope="module")
def audited(tmp_path_factory) -> tuple[list[str], list]:
    """The sample logs, and two tables whose player's cards are judged across files."""
    folder = tmp_path_factory.mktemp("records")
    shutil.copytree(SAMPLES, folder / "samples")
    (folder / "cards-t31.bjh").write_text(FIRST_TABLE, encoding="utf-8")
    (folder / "cards-t32.bjh").write_text(SECOND_TABLE, encoding="utf-8")
    paths = collect_paths([str(folder)])
    return paths, [audit_file(path) for path in paths]


def across_files(paths: list[str], results: list) -> list:
    totals = RunTotals(paths)
    for place, result in enumerate(results):
        totals.add(place, result)
    return totals.cross_file_findings()


def in_memory(paths: list[str], results: list, order: list[int]):
    merged = InMemory(len(paths))
    merger = RunMerger(paths, merged)
    merger.replays = ReplaySelection(KEPT)
    for place in order:
        merger.add(place, results[place])
    merger.close()
    return merged.result


def test_merge_is_the_merger_in_input_order(audited) -> None:
    paths, results = audited
    merged = merge(results)
    across = across_files(paths, results)
    assert across  # judged across the two tables' files, at the merger's close
    assert sum(len(r.findings) for r in results) + len(across) == len(merged.findings)
    assert all(f.as_dict() in [g.as_dict() for g in merged.findings] for f in across)
    places = {path: place for place, path in enumerate(paths)}
    assert [places[f.file] for f in merged.findings] == sorted(
        places[f.file] for f in merged.findings)
    for place in range(len(paths)):
        own = [f.sort_key() for f in merged.findings if places[f.file] == place]
        assert own == sorted(own)
    assert [i.path for i in merged.inputs] == paths
    assert merged.tallies == [r.tally for r in results]


def test_memory_holds_the_same_run_whatever_order_the_files_finish(audited) -> None:
    paths, results = audited
    forward = in_memory(paths, results, list(range(len(paths))))
    backward = in_memory(paths, results, list(reversed(range(len(paths)))))
    assert [f.as_dict() for f in backward.findings] == [f.as_dict() for f in forward.findings]
    assert backward.applied == forward.applied
    assert sorted(backward.evidence) == sorted(forward.evidence)
    assert [i.path for i in backward.inputs] == paths
    # fewer replays than rounds with findings: the selection decided something
    assert 0 < len(forward.evidence) < len(merge(results).evidence)


def test_the_store_holds_what_memory_holds_with_files_finishing_backwards(
        audited, store_url) -> None:
    paths, results = audited
    expected = in_memory(paths, results, list(range(len(paths))))
    engine = open_store(store_url)
    try:
        run_id = begin_run(engine, RUN, {})
        recorder = RunRecorder(engine, run_id, paths)
        recorder.replays = ReplaySelection(KEPT)
        for place in reversed(range(len(paths))):  # replays kept, then pushed out
            recorder.add(place, results[place])
        recorder.close()
        stored, _ = load_result(engine, run_id)
        across = {(f.citation, f.file, f.line) for f in across_files(paths, results)}
        assert across <= {(f.citation, f.file, f.line) for f in stored.findings}
        assert [f.as_dict() for f in stored.findings] == [
            f.as_dict() for f in expected.findings]
        assert [i.path for i in stored.inputs] == paths
        assert stored.applied == expected.applied
        assert sorted(stored.evidence) == sorted(expected.evidence)
    finally:
        engine.dispose()
