"""The report's model (auditor/report), tested without HTML: what the report says of a real
sample record (standard-t12: five findings in four rounds), exactly, as raw values."""

from __future__ import annotations

import zlib
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import select, update

from auditor import api
from auditor.audit import audit_file
from auditor.report.build import build_report
from auditor.report.model import FaultRef, NoReplay, TableEntity
from auditor.run import audit_paths
from auditor.store import load_result, open_store, schema
from auditor.store.runs import _evidence_document, _evidence_json
from tests.helpers import ROOT

SAMPLE = ROOT / "sample_logs" / "standard-t12-2026-11-21.bjh"
RUN = {"version": "test", "rule_base": "test", "command": "auditor audit",
       "started": "2026-11-25T10:00:00+00:00", "finished": "2026-11-25T10:01:05+00:00"}


@pytest.fixture(scope="module")
def result():
    return audit_paths([str(SAMPLE)], jobs=1)


@pytest.fixture(scope="module")
def report(result):
    return build_report(result, RUN)


def test_the_masthead_names_the_licensee_and_the_table_with_its_house_rules(report) -> None:
    (licensee,) = report.masthead.licensees
    assert (licensee.casino, licensee.licence, licensee.tables, licensee.inputs) == \
        ("Deadwood Example Casino", "RL-0412", 1, [0])
    (table,) = report.masthead.tables
    assert (table.key, table.table, table.game, table.decks, table.seats) == \
        ("RL-0412/T12", "T12", "standard", 8, 7)
    assert (table.minimum, table.maximum, table.currency) == (Decimal(25), Decimal(1000), "USD")
    # T12's header declares soft17, double and splits; the others are the defaults assumed
    assert table.rules[:4] == [("soft17", "stand", True), ("peek", "yes", False),
                               ("blackjack", "3:2", False), ("double", "any", True)]
    assert (table.files, table.rounds, table.varies) == (1, 34, False)
    assert (report.masthead.currencies, report.masthead.undeclared_currency) == (["USD"], False)


def test_the_scope_counts_rounds_findings_and_money_per_currency(report) -> None:
    scope = report.scope
    assert (scope.files, scope.rounds, scope.audited, scope.not_audited) == (1, 34, 34, 0)
    assert (scope.first_gaming_day, scope.last_gaming_day) == ("2026-11-21", "2026-11-21")
    assert scope.dealers == ["D-1188", "D-4021"]
    assert (scope.findings, scope.rounds_with_findings) == (5, 4)
    assert scope.severities == {"high": 2, "medium": 3, "low": 0}
    assert scope.money.currencies() == ["USD"]
    assert (scope.money.under("USD"), scope.money.over("USD")) == (Decimal(25), Decimal(0))


def test_a_citation_groups_its_findings_with_their_count_money_round_and_lines(report) -> None:
    assert [g.citation for g in report.groups] == [
        "20:18:15:03", "20:18:15:10", "20:18:15:24", "20:18:15:25", "20:18:15:28"]
    late = report.groups[0]
    assert (late.count, late.severity, late.rule) == (1, "high", "standard.wager_timing_and_limits")
    assert (late.money.under("USD"), late.money.over("USD")) == (Decimal(25), Decimal(0))
    assert late.title and late.words  # the regulation's own title and words
    (item,) = late.findings
    assert (item.number, item.finding.round, item.finding.line, item.finding.evidence) == \
        (1, "8", 231, (230, 252))
    assert (item.table_key, item.finding.difference) == ("RL-0412/T12", Decimal(-25))
    assert item.replay is report.replays.shown[0] and item.no_replay is None
    numbers = {g.citation: [(i.number, i.finding.round, i.finding.line) for i in g.findings]
               for g in report.groups}
    assert numbers["20:18:15:25"] == [(2, "8", 242)]
    assert numbers["20:18:15:28"] == [(3, "20", 619)]
    assert numbers["20:18:15:10"] == [(5, "24", 716)]


def test_a_replay_holds_the_rounds_lines_what_each_changed_and_the_faults(report) -> None:
    replay = report.replays.shown[0]
    assert (replay.number, replay.round, replay.first_line, replay.last_line) == (1, "8", 225, 259)
    assert (replay.table, replay.date, replay.dealer) == ("T12", "2026-11-21", "D-1188")
    assert [(f.number, f.citation, f.line) for f in replay.findings] == [
        (1, "20:18:15:03", 231), (2, "20:18:15:25", 242)]
    first = replay.lines[0]
    assert (first.line, first.time, first.text) == (225, "", "round 8 time=13:14:27 dealer=D-1188")
    assert [c.key for c in first.changes] == ["seat:s1", "seat:s2", "seat:s5", "seat:s7"]
    assert first.changes[0].state == ("P-5264",)
    bet = replay.line(226)
    assert (bet.time, bet.text) == ("13:14:29", "bet s1h1 main 75")
    wager = ("main", False, "75", "")
    assert bet.changes == [TableEntity("hand:s1h1", ((), 0, False, "", (wager,), ""))]
    fault = replay.line(231)
    assert [f.number for f in fault.faults] == [1] and isinstance(fault.faults[0], FaultRef)
    assert fault.state is not None and "hand:s7h1" in [e.key for e in fault.state]
    assert [(row.line, row.supports) for row in replay.lines if row.supports] == \
        [(230, [1]), (252, [1])]
    assert all(row.state is None for row in replay.lines if not row.faults)
    assert [r.round for r in report.replays.shown] == ["8", "20", "22", "24"]
    assert report.replays.recorded == 4 and not report.replays.cut


def test_a_finding_past_the_reports_cap_says_why_it_has_no_replay(result) -> None:
    capped = build_report(result, RUN, replays_in_report=1)
    assert [r.round for r in capped.replays.shown] == ["8"]
    reasons = {i.number: i.no_replay for g in capped.groups for i in g.findings}
    assert reasons == {1: None, 2: None, 3: NoReplay("cut", 4), 4: NoReplay("cut", 4),
                       5: NoReplay("cut", 4)}


def test_summaries_coverage_and_provenance_are_raw_values(report) -> None:
    dealers = {row.key: (row.findings, row.high, row.medium, row.money.under("USD"))
               for row in report.summaries["dealer"]}
    assert dealers == {"D-1188": (2, 1, 1, Decimal("25.00")), "D-4021": (3, 1, 2, Decimal(0))}
    rows = {row.citation: row for section in report.coverage for row in section.rows}
    late = rows["20:18:15:03"]
    assert (late.checked, late.applied, late.findings, late.note) == (True, 34, 1, "")
    provenance = report.provenance
    assert (provenance.started, provenance.finished) == (RUN["started"], RUN["finished"])
    assert (provenance.unreadable, provenance.partial, provenance.rounds_not_audited) == \
        ([], [], [])
    assert len(report.fingerprint) == 16 and not report.lazy
    assert (report.waived, report.resolved, report.waivers) == (0, None, [])


def test_a_stored_replay_is_read_without_its_steps_and_gives_the_same_model(
        tmp_path: Path, result) -> None:
    store = open_store(str(tmp_path / "history.sqlite"))
    run_id = api.record_run(store, RUN, {}, [str(SAMPLE)], enumerate([audit_file(str(SAMPLE))]))
    stored, _ = load_result(store, run_id)
    shown = next(iter(stored.evidence.values())).shown()
    assert shown.steps == {} and shown.recorded_changes is not None
    in_memory = build_report(result, RUN)
    again = build_report(stored, RUN)
    assert [_plain(r) for r in again.replays.shown] == \
        [_plain(r) for r in in_memory.replays.shown]
    # A replay stored before its changes were (every step, no changes) is read whole, with
    # the same model.
    replays = schema.replays
    evidence = audit_file(str(SAMPLE)).evidence
    with store.begin() as connection:
        for key in connection.execute(select(replays.c.round_key)).scalars().all():
            text = _evidence_json(_evidence_document(evidence[key])).encode("utf-8")
            older = text[:text.rindex(b',"changes":')] + b"}"
            connection.execute(update(replays).where(replays.c.round_key == key)
                               .values(document=zlib.compress(older)))
    older, _ = load_result(store, run_id)
    assert next(iter(older.evidence.values())).shown().steps  # read whole
    assert [_plain(r) for r in build_report(older, RUN).replays.shown] == \
        [_plain(r) for r in in_memory.replays.shown]
    store.dispose()


def _plain(value):
    """A model's value with JSON's lists as tuples: a stored replay's states are read back
    as lists."""
    if isinstance(value, (list, tuple)) and not isinstance(value, TableEntity):
        return tuple(_plain(v) for v in value)
    if isinstance(value, TableEntity):
        return (value.key, _plain(value.state), value.left)
    if hasattr(value, "__dataclass_fields__"):
        return tuple(_plain(getattr(value, name)) for name in value.__dataclass_fields__)
    return value
