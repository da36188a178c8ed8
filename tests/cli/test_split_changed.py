"""A large file changed while it is audited in pieces (a table's record still written, a
record corrected in place, a file removed): each result is of one reading of the file, its
SHA-256, lines, rounds and findings together, and never an exception.

The plan reads the file once and hashes each piece's bytes as it finds the piece; the
workers read the pieces again later. A piece whose bytes are not those planned makes the
file audited whole again, in one reading; bytes written after the plan's end are left to
the next audit, as for a file audited whole while it grows."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from auditor.audit import audit_file
from auditor.results import FileResult
from auditor.simulate import simulate, table_spec
from auditor.split import audit_piece, plan_pieces
from auditor.tasks import AuditTasks, Task, run_task

PIECE_BYTES = 20_000
CUT_ROUND = 300  # rounds written when the plan reads the file; 400 by the time it is audited


def facts(result: FileResult) -> list[tuple[str, str | None, int, str]]:
    return [(f.citation, f.round, f.line, f.message) for f in result.findings]


def summary(result: FileResult) -> tuple:
    s = result.summary
    return s.sha256, s.lines, s.rounds, s.rounds_audited, s.error


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A night of 400 rounds with faults, and its first 300 rounds (ending at a round)."""
    base = tmp_path_factory.mktemp("split-changed")
    made = simulate(base / "sim", table_spec("standard", decks=6), rounds=400, seed="grow",
                    faults=0.1).files[0]
    text = made.read_text(encoding="utf-8")
    lines = text.split("\n")
    cut = [number for number, line in enumerate(lines) if line.startswith("round ")][CUT_ROUND]
    return "\n".join(lines[:cut]) + "\n", text


def _audited(tasks: AuditTasks, sent: list[Task]) -> list[tuple[int, FileResult]]:
    """Every task run and handed back in order, with the tasks each calls for."""
    given, waiting = [], list(sent)
    while waiting:
        task = waiting.pop(0)
        more, whole = tasks.done(task, run_task(task))
        waiting += more
        given += whole
    return given


def _alone(path: Path, text: str) -> FileResult:
    alone = path.with_name("alone-" + path.name)
    alone.write_text(text, encoding="utf-8")
    result = audit_file(str(alone))
    alone.unlink()
    return result


def test_the_night_is_cut_in_pieces_and_holds_findings_after_the_first_part(night, tmp_path):
    first, whole = night
    path = tmp_path / "night.bjh"
    path.write_text(first, encoding="utf-8")
    _, pieces = plan_pieces(str(path), PIECE_BYTES)
    assert len(list(pieces)) >= 2
    assert len(facts(_alone(path, whole))) > len(facts(_alone(path, first)))


@pytest.mark.parametrize("shipped", [False, True])
def test_a_record_written_on_after_the_plan_is_judged_as_the_plan_read_it(night, tmp_path,
                                                                          shipped):
    """The table goes on writing its record after the plan read it: the last piece ended
    where the plan ended, so the result is the first 300 rounds', with their SHA-256 (the
    last piece read to the file's new end judged 400 rounds under the hash of 300)."""
    first, whole = night
    path = tmp_path / "night.bjh"
    path.write_text(first, encoding="utf-8")
    tasks = AuditTasks([str(path)], split=True, split_bytes=10_000, piece_bytes=PIECE_BYTES,
                       ship=lambda name: shipped)
    sent = list(tasks.first())
    assert all(task.piece is not None for task in sent)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(whole[len(first):])
    (place, result), = _audited(tasks, sent)
    expected = _alone(path, first)
    assert place == 0 and summary(result) == summary(expected)
    assert result.summary.sha256 == hashlib.sha256(first.encode()).hexdigest()
    assert facts(result) == facts(expected)


def test_a_record_corrected_in_place_after_the_plan_is_audited_whole_again(night, tmp_path):
    """A payout in the first piece rewritten after the plan read it (same size): the pieces
    read now are not those hashed, so the file is audited whole again, in one reading."""
    first, _ = night
    path = tmp_path / "night.bjh"
    path.write_text(first, encoding="utf-8")
    tasks = AuditTasks([str(path)], split=True, split_bytes=10_000, piece_bytes=PIECE_BYTES)
    sent = list(tasks.first())
    at = first.index(" main win ") + len(" main win ")
    assert first[at].isdigit() and first[at] != "9"
    corrected = first[:at] + "9" + first[at + 1:]
    path.write_text(corrected, encoding="utf-8")
    (_, result), = _audited(tasks, sent)
    expected = _alone(path, corrected)
    assert summary(result) == summary(expected)
    assert result.summary.sha256 == hashlib.sha256(corrected.encode()).hexdigest()
    assert facts(result) == facts(expected) != facts(_alone(path, first))


@pytest.mark.parametrize("shipped", [False, True])
def test_a_record_removed_after_the_plan_is_said_not_there(night, tmp_path, shipped):
    """Removed once planned (its pieces read by the workers, or read here to be sent), the
    file's result says it is not there, as an audit of a file not there says: no piece of
    it fails the run."""
    first, _ = night
    path = tmp_path / "night.bjh"
    path.write_text(first, encoding="utf-8")
    tasks = AuditTasks([str(path)], split=True, split_bytes=10_000, piece_bytes=PIECE_BYTES,
                       ship=lambda name: shipped)
    sent, found = [], tasks.first()
    sent.append(next(found))  # the first piece: the file is read now, then removed
    path.unlink()
    sent += list(found)
    (place, result), = _audited(tasks, sent)
    assert place == 0 and summary(result) == summary(audit_file(str(path)))
    assert result.summary.error == f"{path}: no such file" and result.findings == []


def test_a_piece_of_a_removed_file_is_no_exception(night, tmp_path):
    first, _ = night
    path = tmp_path / "night.bjh"
    path.write_text(first, encoding="utf-8")
    _, pieces = plan_pieces(str(path), PIECE_BYTES)
    found = list(pieces)
    path.unlink()
    result = audit_piece(found[1])
    assert result.number == 1 and result.sha256 is None


def test_a_shipped_file_removed_before_it_is_sent_is_said_not_there(night, tmp_path):
    """A small file the workers cannot see travels as bytes read when its task is made:
    removed before then, its task says so, as the audit of a file not there does."""
    path = tmp_path / "small.bjh"
    path.write_text(night[0][:5_000], encoding="utf-8")
    tasks = AuditTasks([str(path)], split=True, ship=lambda name: True)
    path.unlink()
    task, = tasks.first()
    assert summary(run_task(task)) == summary(audit_file(str(path)))
    assert run_task(task).summary.error == f"{path}: no such file"
    assert run_task(tasks.with_bytes(task)).summary.error == f"{path}: no such file"


def test_a_task_whose_bytes_could_not_be_sent_is_never_read_from_the_workers_disk(night,
                                                                                  tmp_path):
    """A worker on another machine may hold another file under the same name: a task
    whose bytes could not be read here says why, and audits nothing of that file."""
    path = tmp_path / "small.bjh"
    path.write_text(night[0][:5_000], encoding="utf-8")  # the worker's own file of that name
    result = run_task(Task(0, str(path), refused=f"{path}: no such file"))
    assert summary(result) == (None, 0, 0, 0, f"{path}: no such file")
    assert result.findings == []
