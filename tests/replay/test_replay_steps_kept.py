"""A stored replay keeps the steps (the whole table after a statement) that a case file
reads, not every step (issue 27, pass seven); a row as older code wrote it, with every step,
reads back as it did."""

from __future__ import annotations

import zlib
from pathlib import Path
from types import SimpleNamespace

from sqlalchemy import insert

from auditor import api
from auditor.case.model import _exhibit, _rounds_by_id
from auditor.run import RunRecorder
from auditor.store import begin_run, load_result, schema
from auditor.store.runs import _compressed, _evidence_document, _lines_asked, _steps_asked
from tests.helpers import SAMPLES
from tests.helpers.plain_changes import changes_made_plainly
from tests.helpers.replaying import table_made_afresh

RUN = {"version": "test", "rule_base": "test", "command": "audit sample_logs",
       "started": "2026-11-26T00:00:00+00:00"}


def _tables_at_faults(findings, evidence) -> list:
    """What a case file shows of each finding's replay: its lines and the table at it."""
    rounds = _rounds_by_id(evidence)
    shown = []
    for number, finding in enumerate(findings, start=1):
        exhibit = _exhibit(number, finding, None, {}, {}, rounds, [])
        shown.append((finding.line, exhibit.replay, exhibit.table_at_fault))
    return shown


def test_a_stored_replay_keeps_the_step_of_each_line_a_finding_is_on(tmp_path: Path) -> None:
    paths = sorted(str(path) for path in SAMPLES.glob("*.bjh"))
    store = api.open_store(str(tmp_path / "runs.db"), new_store=True)
    run_id = begin_run(store, RUN, {})
    recorder = RunRecorder(store, run_id, paths)
    audited = {}
    for place, path in enumerate(paths):
        audited[path] = api.audit_input(path)
        recorder.add(place, audited[path])
    recorder.close()
    result, _ = load_result(store, run_id)
    findings = list(result.findings)
    in_memory = {key: evidence for found in audited.values()
                 for key, evidence in found.evidence.items() if key in result.evidence}
    tables = 0
    for key, stored in result.evidence.items():
        whole, kept = stored.whole(), in_memory[key]
        facts = [getattr(fact, "line", None) for items in audited[kept.file].facts.values()
                 for fact in items]  # what the findings across files are made from
        lines = [line for line in [*(f.line for f in findings if f.file == kept.file), *facts]
                 if line is not None and kept.start_line <= line <= kept.last_line]
        asked = {max(step for step in kept.steps if step <= line) for line in lines
                 if any(step <= line for step in kept.steps)}
        assert set(whole.steps) == asked  # only those, each the table as replayed
        assert len(asked) < len(kept.steps)
        assert all(whole.steps[line] == kept.steps[line] for line in asked)
        assert whole.lines == kept.lines
        assert stored.shown().changes() == kept.changes()  # the report's, from every step
        tables += len(asked)
    assert tables >= 10
    # the case file shows what it shows from every step
    with_tables = _tables_at_faults(findings, result.evidence)
    assert with_tables == _tables_at_faults(findings, in_memory)
    assert sum(1 for *_, table in with_tables if table) >= 10
    store.dispose()


def test_a_row_written_with_every_step_reads_back_as_before(tmp_path: Path) -> None:
    """A row as older code wrote it (`_evidence_document` with every step, as it made it):
    the case file and the report read it as they did."""
    path = str(SAMPLES / "switch-bjs2-evening.bjh")
    audited = api.audit_input(path)
    store = api.open_store(str(tmp_path / "runs.db"), new_store=True)
    run_id = begin_run(store, RUN, {})
    with store.begin() as connection:
        connection.execute(insert(schema.replays), [
            {"run_id": run_id, "round_key": key, "input_position": 0,
             "start_line": evidence.start_line,
             "document": _compressed(_evidence_document(evidence))}
            for key, evidence in audited.evidence.items()])
    result, _ = load_result(store, run_id)
    assert set(result.evidence) == set(audited.evidence)
    for key, stored in result.evidence.items():
        evidence = audited.evidence[key]
        whole = stored.whole()
        assert whole.steps == evidence.steps  # every step, as it was stored
        assert stored.shown().changes() == evidence.changes()
    findings = audited.findings
    assert _tables_at_faults(findings, result.evidence) == _tables_at_faults(
        findings, audited.evidence)
    store.dispose()


def test_the_steps_asked_are_the_last_up_to_each_line() -> None:
    steps = {10: "a", 12: "b", 13: "c", 17: "d"}
    assert _steps_asked(steps, None, 9, 18) is steps
    assert _steps_asked(steps, [12], 9, 18) == {12: "b"}
    assert _steps_asked(steps, [16], 9, 18) == {13: "c"}  # 14 to 16 changed nothing
    assert _steps_asked(steps, [9, 30, 5], 9, 18) == {}  # none before, none outside
    assert _steps_asked(steps, [11, 17, 18], 9, None) == {10: "a", 17: "d"}
    assert _steps_asked(steps, [], 9, 18) == {}


def test_a_facts_line_is_asked_too() -> None:
    """The findings across files (tensticks' punch cards) are made from facts once every
    replay is stored: a fact's line is asked as a finding's is."""
    findings = [SimpleNamespace(line=4), SimpleNamespace(line=None)]
    facts = {"20:18:15:x": [SimpleNamespace(line=40), SimpleNamespace(line=None)],
             "other": [object()]}
    assert _lines_asked(findings, facts) == {4, 40}


def test_a_stored_replay_is_smaller(tmp_path: Path) -> None:
    audited = api.audit_input(str(SAMPLES / "switch-bjs2-evening.bjh"))
    asked = _lines_asked(audited.findings, audited.facts)
    for evidence in audited.evidence.values():
        whole = zlib.decompress(_compressed(_evidence_document(evidence)))
        kept = zlib.decompress(_compressed(_evidence_document(evidence, asked=asked)))
        assert len(kept) < len(whole) / 2


def test_the_changes_are_those_of_every_entity_compared() -> None:
    compared = 0
    for path in sorted(SAMPLES.glob("*.bjh")):
        for evidence in api.audit_input(str(path)).evidence.values():
            assert evidence.changes() == changes_made_plainly(evidence)
            compared += 1
    assert compared >= 20


def test_each_step_is_the_table_made_afresh(monkeypatch) -> None:
    """`Snapshots` takes the step before's entries where what they are made of is the same:
    each step is still the table as the view holds it after the statement."""
    import auditor.replay.trace as trace

    compared = []
    real = trace.replay_round

    def replay_round(state, record, file, on_step):
        def both(event, view):
            on_step(event, view)
            compared.append((event.line, table_made_afresh(view)))
        return real(state, record, file, on_step=both)

    monkeypatch.setattr(trace, "replay_round", replay_round)
    steps = 0
    for path in sorted(SAMPLES.glob("*.bjh")):
        evidence_of_file = list(api.audit_input(str(path)).evidence.values())
        for evidence in evidence_of_file:
            assert evidence.steps is not None  # traced when first read (`PendingTrace`)
        afresh = dict(compared)  # the last statement of a line is its step
        compared.clear()
        for evidence in evidence_of_file:
            assert evidence.steps == {line: afresh[line] for line in evidence.steps}
            steps += len(evidence.steps)
    assert steps >= 500


def test_a_row_escapes_its_statement_as_markupsafe_does() -> None:
    from markupsafe import escape

    from auditor.output.replay_view import _HTML_ESCAPES, ReplayRow, replay_row
    from auditor.shown import neutral

    hostile = "hit s1h1 <b>\"x\" & 'y'</b> \u202e\u2066 &amp; \x00 ⟦"
    assert neutral(hostile).translate(_HTML_ESCAPES) == str(escape(neutral(hostile)))
    row = str(replay_row(ReplayRow(7, "12:00:01", hostile, [], [], [], None)))
    assert f"<td>{escape(neutral(hostile))}</td>" in row
    assert "&lt;b&gt;&#34;x&#34; &amp; &#39;y&#39;&lt;/b&gt;" in row
    assert "\u202e" not in row  # a bidi control shown as its marker
