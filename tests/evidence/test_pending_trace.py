"""A round's replay is made when its steps are first read (`trace.PendingTrace`): a round
the run does not keep is never replayed again, and a replay sent to another process goes
traced, as a plain `RoundEvidence` equal to the one traced in place."""

from __future__ import annotations

import pickle

import auditor.replay.trace as trace
from auditor.audit import audit_file
from auditor.replay.trace import PendingTrace, RoundEvidence
from tests.helpers import ROOT

SAMPLE = ROOT / "sample_logs" / "switch-bjs5-late.bjh"  # seven rounds replayed


def _counting_replays(monkeypatch) -> list[str]:
    replayed: list[str] = []
    real = trace.replay_round

    def replay_round(state, record, file, on_step):
        replayed.append(record.round_id)
        return real(state, record, file, on_step=on_step)

    monkeypatch.setattr(trace, "replay_round", replay_round)
    return replayed


def test_a_round_is_replayed_once_and_only_when_its_steps_are_read(monkeypatch) -> None:
    replayed = _counting_replays(monkeypatch)
    evidence = list(audit_file(str(SAMPLE)).evidence.values())
    assert len(evidence) >= 3 and all(type(e) is PendingTrace for e in evidence)
    assert replayed == []  # audited, nothing traced yet
    first = evidence[0]
    steps = first.steps
    assert replayed == [first.round_id] and steps
    assert first.pending is None  # the table and the statements let go
    assert first.steps is steps and first.changes() == first.changes()
    assert replayed == [first.round_id]  # never twice
    assert [e.start_line for e in evidence[1:]] and replayed == [first.round_id]


def test_a_pickled_replay_goes_traced_and_equal(monkeypatch) -> None:
    replayed = _counting_replays(monkeypatch)
    evidence = list(audit_file(str(SAMPLE)).evidence.values())
    sent = pickle.loads(pickle.dumps(evidence))  # as a pool's worker hands its result over
    assert all(type(e) is RoundEvidence for e in sent)
    assert sorted(replayed) == sorted(e.round_id for e in evidence)
    assert sent == evidence and evidence == sent
    for there, here in zip(sent, evidence, strict=True):
        assert there.steps == here.steps and there.lines == here.lines
        assert there.changes() == here.changes()
    # a round traced afresh in another audit is the same (nothing of it depends on when)
    again = list(audit_file(str(SAMPLE)).evidence.values())
    assert [e.changes() for e in reversed(again)][::-1] == [e.changes() for e in sent]


def test_evidence_of_other_rounds_is_not_equal() -> None:
    evidence = list(audit_file(str(SAMPLE)).evidence.values())
    plain = RoundEvidence(evidence[0].file, evidence[0].round_id, evidence[0].start_line,
                          evidence[0].lines, dict(evidence[0].steps))
    assert plain == evidence[0]
    assert evidence[0] != evidence[1]
    assert plain != RoundEvidence(plain.file, plain.round_id, plain.start_line, plain.lines)
    assert (plain == "round") is False
