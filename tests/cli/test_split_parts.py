"""The split's parts one at a time, on one short Ten sticks record (60 rounds, a `shoe` every
8 rounds): where the plan cuts, the state it guesses for each piece, the join, what
`AuditTasks` hands out and takes back, and the local pool (its window of tasks, a worker
killed, a stop mid-run). Fast, with exact values, so that a wrong cut, guess, join or task
shows at once (tests/cli/test_split.py holds the long records of every game).

The record carries seats taken and left, a wager on a seat nobody sat at (an unnamed
player, replaced later by a `sit`), lights, a prize, a new dealer and a `close`, each
carried across a `shoe` to the next piece.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
import signal
from dataclasses import dataclass
from pathlib import Path

import pytest

from auditor import split
from auditor.audit import audit_file
from auditor.results import FileResult
from auditor.simulate import simulate, table_spec
from auditor.source import MAX_LINE_BYTES
from auditor.split import Piece, SplitFile, audit_piece, audit_split, plan_pieces
from auditor.tasks import AuditTasks, PoolAudit, Task, file_size, run_task

# The whole record's findings: (citation, round, line), each once, in order.
FINDINGS = [
    ("20:18:15:06", "1", 43),
    ("record:unsettled", "5", 153),
    ("20:18:15:30", "15", 460),
    ("20:18:15:03", "18", 542),
    ("record:reference", "26", 816),
    ("20:18:15:26", "55", 1812),
    ("record:reference", "56", 1841),
    ("record:syntax", "59", 1908),
]
SHOE_LINES = [14, 211, 473, 755, 1051, 1309, 1579, 1817]  # line 14: the simulator's own
LINES = 1932
UNNAMED = ("s2", None, 0, False, False, False)  # the wager of round 5 on the empty s2


@dataclass(frozen=True)
class Record:
    path: Path
    text: str

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")

    def offset_of_line(self, number: int) -> int:
        return len("".join(line + "\n" for line in self.lines[:number - 1]).encode())


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Record:
    base = tmp_path_factory.mktemp("split-parts")
    spec = table_spec("tensticks", decks=6, options={"tensticks.lights": "3"})
    made = simulate(base / "sim", spec, rounds=60, seed="parts", faults=0.1).files[0]
    out: list[str] = []
    rounds = 0
    for line in made.read_text().split("\n"):
        if line.startswith("round "):
            rounds += 1
            if rounds % 8 == 0:
                out += [f"shoe T01-S{rounds} date=2026-11-20", "shuffle", "cut"]
        out.append(line)
        if line.startswith("round 5 "):
            out.append("bet s2h1 main 20")  # nobody sits at s2: an unnamed player
    path = base / "cut.bjh"
    text = "\n".join(out)
    path.write_text(text)
    return Record(path, text)


def facts(result: FileResult) -> list[tuple[str, str | None, int, str]]:
    return [(f.citation, f.round, f.line, f.message) for f in result.findings]


@pytest.fixture(scope="module")
def whole(record: Record) -> FileResult:
    return audit_file(str(record.path))


def test_the_whole_record_is_what_the_tests_below_expect(record: Record,
                                                         whole: FileResult) -> None:
    assert [(c, r, line) for c, r, line, _ in facts(whole)] == FINDINGS
    assert [number + 1 for number, line in enumerate(record.lines)
            if re.match(r"([0-9:.]+ +)?shoe ", line)] == SHOE_LINES
    assert (whole.summary.lines, whole.summary.rounds, whole.summary.rounds_audited) == (
        LINES, 60, 59)
    assert record.text.endswith("\n")


def test_a_tiny_piece_size_cuts_at_every_shoe(record: Record) -> None:
    """Past the first piece (which reads the header), every piece begins at a `shoe`: its
    first line, its first byte, and where the piece before it ends."""
    plan, pieces = plan_pieces(str(record.path), 4)
    found = list(pieces)
    assert [piece.number for piece in found] == list(range(9))
    assert [piece.first_line for piece in found] == [1, *SHOE_LINES]
    starts = [0, *(record.offset_of_line(line) for line in SHOE_LINES)]
    assert [piece.start for piece in found] == starts
    # the last ends where the plan's reading ended: the file's size then
    assert [piece.end for piece in found] == [*starts[1:], len(record.text.encode())]
    assert [piece.last for piece in found] == [False] * 8 + [True]
    data = record.path.read_bytes()
    assert [piece.sha256 for piece in found] == [
        hashlib.sha256(data[piece.start:piece.end]).hexdigest() for piece in found]
    assert found[0].config is None and found[0].state is None
    assert all(piece.config is not None and piece.state is not None for piece in found[1:])
    assert (plan.count, plan.lines) == (9, LINES)
    assert [plan.piece(number) for number in range(9)] == found
    assert plan.sha256 == hashlib.sha256(record.path.read_bytes()).hexdigest()


def test_a_piece_ends_at_the_first_shoe_past_its_size(record: Record) -> None:
    """The cuts, said again plainly: a piece of `size` bytes (a quarter of what is left
    over the last pieces, down to a quarter of `size`) ends at the first `shoe` past it."""
    size = len(record.text.encode())
    shoes = [record.offset_of_line(line) for line in SHOE_LINES]
    for piece_bytes in (6_000, 12_000, 20_000, 40_000):
        expected, next_cut = [0], max(piece_bytes // 4, min(piece_bytes, size // 4))
        for at in shoes:
            if at >= next_cut:
                expected.append(at)
                next_cut = at + max(piece_bytes // 4, min(piece_bytes, (size - at) // 4))
        _, pieces = plan_pieces(str(record.path), piece_bytes)
        assert [piece.start for piece in pieces] == expected, piece_bytes
    _, pieces = plan_pieces(str(record.path), 12_000)
    assert [piece.first_line for piece in pieces] == [1, 473, 1051, 1309, 1579, 1817]


@pytest.mark.parametrize("block", [61, 1000, 4096])
def test_the_plan_is_the_same_whatever_the_blocks_it_reads(
        record: Record, monkeypatch: pytest.MonkeyPatch, block: int) -> None:
    """The plan reads the file a block at a time: a line, a `round` or a `shoe` cut by a
    block's end changes no cut, no line number, no guess."""
    def planned() -> tuple:
        plan, pieces = plan_pieces(str(record.path), 4)
        found = [(p.number, p.start, p.end, p.first_line,
                  None if p.state is None else p.state.handoff()) for p in pieces]
        return found, plan.sha256, plan.lines

    expected = planned()
    monkeypatch.setattr(split, "_BLOCK", block)
    assert planned() == expected
    assert [first_line for _, _, _, first_line, _ in expected[0]] == [1, *SHOE_LINES]


@pytest.mark.parametrize("piece_bytes", [4, 12_000, 10 ** 9])
def test_the_record_in_pieces_gives_the_whole_records_findings_rounds_and_lines(
        record: Record, whole: FileResult, piece_bytes: int) -> None:
    split = audit_split(str(record.path), piece_bytes)
    assert facts(split) == facts(whole)
    assert [(c, r, line) for c, r, line, _ in facts(split)] == FINDINGS
    assert split.summary == whole.summary
    assert (split.summary.lines, split.summary.rounds) == (LINES, 60)
    assert list(split.applied.items()) == list(whole.applied.items())
    assert list(split.evidence) == list(whole.evidence)


@pytest.mark.parametrize("ending", ["", "\n\n", "\nround 61\n"])
def test_a_record_ending_otherwise_keeps_its_line_count_in_pieces(
        record: Record, tmp_path: Path, ending: str) -> None:
    """The last line counted whether or not a newline ends it."""
    path = tmp_path / "ending.bjh"
    path.write_text(record.text.rstrip("\n") + ending)
    lines = {"": LINES, "\n\n": LINES + 1, "\nround 61\n": LINES + 1}[ending]
    alone, split = audit_file(str(path)), audit_split(str(path), 4)
    assert alone.summary.lines == split.summary.lines == lines
    assert facts(split) == facts(alone)


def test_each_piece_is_handed_the_state_the_piece_before_it_ends_in(record: Record) -> None:
    """The plan's short reading follows seats (the unnamed player of the wager on an empty
    seat too), players, lights, prizes, dealers and the `close`."""
    _, pieces = plan_pieces(str(record.path), 4)
    results = [audit_piece(piece) for piece in pieces]
    assert results[0].guessed is None
    for before, after in itertools.pairwise(results):
        assert after.guessed == before.audit.state.handoff()
    assert [result.began_with_shoe for result in results] == [True] * 9
    dealer, seats, lights, closed, order = results[2].guessed
    assert (dealer, seats[1], lights, closed, order) == (
        "D-2406", UNNAMED, (), False, ("s1", "s3", "s4", "s5", "s2"))
    assert results[5].guessed[2] == (("s1", 1), ("s3", 2), ("s5", 1), ("s7", 3))
    assert results[6].guessed[0] == "D-4677"
    assert results[8].audit.state.handoff() == ("D-4677", (), results[8].guessed[2], True, ())


def test_a_piece_says_whether_it_began_at_a_shoe(record: Record, tmp_path: Path) -> None:
    """Only a piece whose first line reads as a `shoe` began at one (else the join sends the
    file whole): not one that begins at a `round`, an empty one, nor one whose first line
    cannot be read."""
    _, pieces = plan_pieces(str(record.path), 4)
    second = list(pieces)[2]
    assert (second.first_line, record.lines[second.first_line + 2]) == (
        SHOE_LINES[1], "round 8 time=18:10:42 dealer=D-2406")

    def began(path: Path, start: int, end: int, first_line: int) -> bool:
        return audit_piece(Piece(str(path), 2, start, end, first_line, second.config,
                                 second.state)).began_with_shoe

    assert began(record.path, second.start, second.end, second.first_line)
    at_round = record.offset_of_line(second.first_line + 3)
    assert not began(record.path, at_round, second.end, second.first_line + 3)
    assert not began(record.path, second.start, second.start, second.first_line)
    damaged = tmp_path / "damaged.bjh"
    data = record.path.read_bytes()
    damaged.write_bytes(data[:second.start] + b"\xff" + data[second.start:])
    assert not began(damaged, second.start, second.end + 1, second.first_line)


BEFORE = ("s1", "s3", "s4", "s5", "s2")  # the seats taken where the second piece ends
# A line put in the last round before the second piece's end (inside) or after it
# (outside), and the seats, dealer, lights and `close` the audit ends that piece in: the
# plan's short reading must guess the same for the third piece.
GUESSES = [
    ("inside", "bet s6h1 main 20", (*BEFORE, "s6"), "D-2406", (), False),
    ("inside", "12:00:00 bet s6h1 main 20", (*BEFORE, "s6"), "D-2406", (), False),
    ("inside", "  bet s6h1 main 20  # late", (*BEFORE, "s6"), "D-2406", (), False),
    ("inside", "bet s6h1 insurance 10", (*BEFORE, "s6"), "D-2406", (), False),
    ("inside", "bet s6 main 20", BEFORE, "D-2406", (), False),
    ("inside", "bet s6h1 side 5", BEFORE, "D-2406", (), False),
    ("inside", "bet s6h2 tensticks 5", BEFORE, "D-2406", (), False),
    ("inside", "bet s6 tensticks 5", BEFORE, "D-2406", (), False),
    ("inside", "bet dealer main 5", BEFORE, "D-2406", (), False),
    ("inside", "bet s6h1 main ten", BEFORE, "D-2406", (), False),
    ("inside", "bet s1h1 main 20", BEFORE, "D-2406", (), False),
    ("inside", "sit s6 player=P-1", (*BEFORE, "s6"), "D-2406", (), False),
    ("inside", "leave s1", ("s3", "s4", "s5", "s2", "s1"), "D-2406", (), False),
    ("inside", "light s1 1", BEFORE, "D-2406", (("s1", 1),), False),
    ("inside", "prize s1 100", BEFORE, "D-2406", (), False),
    ("outside", "bet s6h1 main 20", BEFORE, "D-2406", (), False),
    ("outside", "sit s6 player=P-1", BEFORE, "D-2406", (), False),
    ("outside", "leave s1", BEFORE, "D-2406", (), False),
    ("outside", "light s1 1", BEFORE, "D-2406", (), False),
    ("outside", "prize s1 100", BEFORE, "D-2406", (), False),
    ("outside", "bet dealer main 5", BEFORE, "D-2406", (), False),
    ("outside", "dealer D-9", BEFORE, "D-9", (), False),
    ("outside", "close", (), "D-2406", (), True),
    # the last round left without its `end`: a `dealer` or a `close` ends it
    ("unended", "dealer D-9|sit s6 player=P-1|light s1 1", BEFORE, "D-9", (), False),
    ("unended", "close|sit s6 player=P-1", (), "D-2406", (), True),
    ("unended", "sit s6 player=P-1", (*BEFORE, "s6"), "D-2406", (), False),
    # before the first `shoe` and any round: a round's statement is no change there
    ("first", "sit s6 player=P-1", BEFORE, "D-2406", (), False),
    ("first", "light s1 1", BEFORE, "D-2406", (), False),
]


@pytest.mark.parametrize(("where", "line", "seats", "dealer", "lights", "closed"), GUESSES)
def test_the_plan_guesses_what_each_statement_leaves_for_the_next_piece(
        record: Record, tmp_path: Path, where: str, line: str, seats: tuple,
        dealer: str, lights: tuple, closed: bool) -> None:
    """Wagers on seats nobody sat at seat an unnamed player inside a round (a main or
    insurance wager on a hand), not outside one; a round's statements outside a round
    change nothing; `dealer` and `close` change the table anywhere, and end a round."""
    ended, guessed = guess_after(record, tmp_path, where, line)
    assert (ended[4], ended[0], ended[2], ended[3]) == (seats, dealer, lights, closed)
    assert guessed == ended


def guess_after(record: Record, tmp_path: Path, where: str, line: str) -> tuple[tuple, tuple]:
    """The state the audit ends the second piece in, with `line` put `where`, and the
    plan's guess of it for the third."""
    lines = record.lines
    shoe = SHOE_LINES[1] - 1  # the `shoe` line's place in `lines`
    last_round = max(i for i in range(shoe) if lines[i].startswith("round "))
    if where == "unended":
        assert lines[shoe - 1] == "end"
        lines[shoe - 1:shoe] = line.split("|")
    else:
        lines.insert({"inside": last_round + 1, "outside": shoe,
                      "first": SHOE_LINES[0] - 1}[where], line)
    path = tmp_path / "guessed.bjh"
    path.write_text("\n".join(lines))
    _, pieces = plan_pieces(str(path), 4)
    first, second, third = itertools.islice(pieces, 3)
    audit_piece(first)
    return audit_piece(second).audit.state.handoff(), third.state.handoff()


@pytest.mark.parametrize("block", [512, 4096])
def test_a_seat_left_and_wagered_on_within_one_block_is_guessed(
        record: Record, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: int) -> None:
    """The plan's search leaves out the wagers on seats taken: once a seat is left, a
    wager on it (an unnamed player) is searched for again within the same block."""
    monkeypatch.setattr(split, "_BLOCK", block)
    ended, guessed = guess_after(record, tmp_path, "inside", "leave s1")
    assert ended[4] == ("s3", "s4", "s5", "s2", "s1") and guessed == ended


def test_a_statement_of_exactly_the_longest_line_is_followed(record: Record,
                                                             tmp_path: Path) -> None:
    """A line of MAX_LINE_BYTES bytes is read (one byte more is not): so is it by the plan."""
    sit = "sit s6 player=P-1 #"
    line = sit + "x" * (MAX_LINE_BYTES - len(sit))
    ended, guessed = guess_after(record, tmp_path, "inside", line)
    assert ended[4] == (*BEFORE, "s6") and guessed == ended
    ended, guessed = guess_after(record, tmp_path, "inside", line + "x")
    assert ended[4] == BEFORE and guessed == ended


def test_a_blank_line_at_a_blocks_start_is_counted(record: Record, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A block that begins with an empty line: the line numbers of the pieces found in it
    count that line."""
    lines = record.lines
    lines.insert(SHOE_LINES[1] - 1, "")
    path = tmp_path / "blank.bjh"
    path.write_text("\n".join(lines))
    blank = record.offset_of_line(SHOE_LINES[1])  # the empty line's first byte
    expected = [1, SHOE_LINES[0], *(line + 1 for line in SHOE_LINES[1:])]
    for block in (blank, blank - 1, blank + 1):
        monkeypatch.setattr(split, "_BLOCK", block)
        _, pieces = plan_pieces(str(path), 4)
        assert [piece.first_line for piece in pieces] == expected, block


def test_the_join_takes_pieces_as_they_come_and_redoes_none_of_a_right_guess(
        record: Record, whole: FileResult) -> None:
    """Pieces come back out of order: each is joined once those before it are; no guess
    is wrong, none is audited again, and the file is whole only once planned."""
    plan, pieces = plan_pieces(str(record.path), 4)
    results = [audit_piece(piece) for piece in pieces]
    joined = SplitFile(plan)
    assert not joined.complete() and joined.whole()
    counts = []
    for number in (3, 1, 2, 0, 8, 4, 5, 7, 6):
        assert joined.add(results[number]) is None
        counts.append(joined.count)
    assert counts == [0, 0, 0, 4, 4, 5, 6, 6, 9]
    assert joined.redone == 0 and not joined.complete()
    joined.planned = True
    assert joined.complete() and joined.whole()
    assert facts(joined.join()) == facts(whole)


def test_a_wrong_guess_is_audited_again_from_the_joined_state(record: Record,
                                                              whole: FileResult) -> None:
    plan, pieces = plan_pieces(str(record.path), 4)
    found = list(pieces)
    joined = SplitFile(plan)
    for piece in found[:3]:
        assert joined.add(audit_piece(piece)) is None
    wrong = found[3].state.clone()
    wrong.unseat("s2")
    again = joined.add(audit_piece(Piece(*[getattr(found[3], name) for name in (
        "path", "number", "start", "end", "first_line", "config")], state=wrong)))
    assert again is not None and joined.redone == 1 and joined.count == 3
    assert (again.number, again.start, again.end, again.first_line) == (
        3, found[3].start, found[3].end, SHOE_LINES[2])
    assert again.state.handoff() == found[3].state.handoff() == \
        joined.joined.state.handoff()
    assert joined.add(audit_piece(again)) is None
    for piece in found[4:]:
        assert joined.add(audit_piece(piece)) is None
    joined.planned = True
    assert joined.complete() and joined.redone == 1
    assert facts(joined.join()) == facts(whole)


# --- the tasks ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def inputs(record: Record, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """A small record, the large one, a file that is not there."""
    base = tmp_path_factory.mktemp("split-tasks")
    small = base / "small.bjh"
    small.write_text(record.text[:record.offset_of_line(SHOE_LINES[1])])
    return [str(small), str(record.path), str(base / "missing.bjh")]


def test_a_missing_file_has_size_zero(inputs: list[str]) -> None:
    assert file_size(inputs[2]) == 0
    assert file_size(inputs[0]) == len(Path(inputs[0]).read_bytes())


def test_the_tasks_are_the_large_files_pieces_first_then_the_others_whole(
        inputs: list[str]) -> None:
    tasks = AuditTasks(inputs, split=True, split_bytes=10_000, piece_bytes=4)
    assert [task.key for task in tasks.first()] == [(1, n) for n in range(9)] + [
        (0, None), (2, None)]
    # a file of exactly the split size, or any file when the run does not split, goes whole
    for splits, split_bytes in ((False, 10_000), (True, Path(inputs[1]).stat().st_size)):
        tasks = AuditTasks(inputs, split=splits, split_bytes=split_bytes, piece_bytes=4)
        assert [(task.key, task.piece, task.data) for task in tasks.first()] == [
            ((1, None), None, None), ((0, None), None, None), ((2, None), None, None)]
    assert [task.key for task in AuditTasks(
        inputs, split=True, split_bytes=Path(inputs[1]).stat().st_size - 1,
        piece_bytes=4).first()][:2] == [(1, 0), (1, 1)]


def test_inputs_shipped_travel_with_their_bytes(inputs: list[str]) -> None:
    data = Path(inputs[1]).read_bytes()
    tasks = AuditTasks(inputs, split=True, split_bytes=10_000, piece_bytes=4,
                       ship=lambda path: path == inputs[1])
    sent = list(tasks.first())
    for task in sent[:9]:
        piece = task.piece
        assert piece.data == data[piece.start:piece.end] and task.data is None
    assert (sent[9].data, sent[9].piece) == (None, None)  # the small file is not shipped
    assert tasks.with_bytes(sent[9]).data == Path(inputs[0]).read_bytes()
    outcomes = [run_task(task) for task in sent[:9]]
    for task, outcome in zip(sent[:8], outcomes, strict=False):
        assert tasks.done(task, outcome) == ([], [])
    (place, result), = tasks.done(sent[8], outcomes[8])[1]
    assert place == 1 and facts(result) == facts(audit_file(inputs[1]))
    # not split, the whole file travels
    tasks = AuditTasks(inputs, split=False, ship=lambda path: path == inputs[1])
    assert [(task.key, task.data) for task in tasks.first()] == [
        ((1, None), data), ((0, None), None), ((2, None), None)]


def test_each_file_is_given_once_whole_from_its_tasks(inputs: list[str],
                                                      whole: FileResult) -> None:
    tasks = AuditTasks(inputs, split=True, split_bytes=10_000, piece_bytes=4)
    sent = list(tasks.first())
    given = []
    for task in reversed(sent):  # the pieces back last to first
        more, files = tasks.done(task, run_task(task))
        assert more == []
        given += [(place, facts(result), result.summary.error) for place, result in files]
    missing_error = audit_file(inputs[2]).summary.error
    assert missing_error
    assert given == [(2, [], missing_error), (0, facts(audit_file(inputs[0])), None),
                     (1, facts(whole), None)]
    assert tasks.files == {}


def test_a_wrong_guess_sends_the_piece_again_and_a_piece_not_at_a_shoe_the_file_whole(
        inputs: list[str], whole: FileResult) -> None:
    tasks = AuditTasks(inputs, split=True, split_bytes=10_000, piece_bytes=4)
    sent = [task for task in tasks.first() if task.place == 1]
    outcomes = [run_task(task) for task in sent]
    for task, outcome in zip(sent[:4], outcomes, strict=False):
        assert tasks.done(task, outcome) == ([], [])
    wrong = sent[4].piece.state.clone()
    wrong.unseat("s1")
    bad = Task(1, inputs[1], Piece(inputs[1], 4, sent[4].piece.start, sent[4].piece.end,
                                   sent[4].piece.first_line, sent[4].piece.config, wrong))
    (again,), files = tasks.done(bad, run_task(bad))
    assert files == [] and again.key == (1, 4)
    assert again.piece.state.handoff() == sent[4].piece.state.handoff()
    outcomes[5].began_with_shoe = False  # as if piece 5 began elsewhere
    assert tasks.done(again, run_task(again)) == ([], [])
    for task, outcome in zip(sent[5:8], outcomes[5:8], strict=False):
        assert tasks.done(task, outcome) == ([], [])
    (whole_task,), files = tasks.done(sent[8], outcomes[8])
    assert files == [] and (whole_task.key, whole_task.piece) == ((1, None), None)
    assert tasks.files == {}
    assert tasks.done(whole_task, run_task(whole_task))[1][0][1].findings == whole.findings


def test_a_task_whose_worker_dies_is_sent_once_more_then_its_file_given_up(
        inputs: list[str]) -> None:
    tasks = AuditTasks(inputs, split=True, split_bytes=10_000, piece_bytes=4)
    sent = list(tasks.first())
    piece, other = sent[2], sent[3]
    assert tasks.lost(piece) == ([piece], [])
    assert tasks.lost(other) == ([other], [])  # each task has its own tries
    (place, result), = tasks.lost(piece)[1]
    assert place == 1 and result.findings == []
    assert result.summary.path == inputs[1]
    assert result.summary.error == (
        f"{inputs[1]}: not audited: the worker process auditing it died twice (killed, or "
        "out of memory)")
    assert 1 not in tasks.files
    # the file's other tasks, lost or done later, add nothing
    assert tasks.lost(other) == ([], [])
    assert tasks.done(sent[0], run_task(sent[0])) == ([], [])
    assert tasks.give_up(other) == []
    # a whole file's task: the same
    small = sent[9]
    assert tasks.lost(small) == ([small], [])
    assert [p for p, _ in tasks.lost(small)[1]] == [0]
    assert tasks.given_up == {0, 1}
    (place, result), = tasks.done(sent[10], run_task(sent[10]))[1]
    assert place == 2 and result.summary.error


def test_a_pool_closed_after_a_result_waits_for_its_workers_and_before_ends_them(
        inputs: list[str]) -> None:
    """Closed once results were asked for (the store failed mid-run), the pool waits for
    its workers to end the files they audit and leave (exit status 0); closed before any
    (the store could not be opened), it ends them at once: none is left running. (A worker
    that had already finished its task may take the pool's own farewell before the SIGTERM
    reaches it and leave with status 0, so the status is not asked there.)"""
    audit = PoolAudit([inputs[0]] * 6, 2)
    place, result = next(audit)
    assert 0 <= place < 6 and result.summary.error is None
    workers = list(audit.pool._processes.values())
    audit.close()  # waits for them
    assert workers and [worker.exitcode for worker in workers] == [0] * len(workers)
    audit = PoolAudit([inputs[0]] * 6, 2)
    workers = list(audit.pool._processes.values())
    audit.close()
    assert workers and not any(worker.is_alive() for worker in workers)
    assert {worker.exitcode for worker in workers} <= {0, -15}


def _deaf_to_sigterm(ready: str) -> None:
    """A pool task that ignores SIGTERM, says it is running, and waits."""
    import time

    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    Path(ready).write_text("running", encoding="utf-8")
    time.sleep(120)


def test_a_pool_stopped_at_once_kills_a_worker_that_ignores_sigterm(tmp_path: Path) -> None:
    """Stopping a pool at once sends its workers SIGTERM and, to one that ignores it (a task
    that installed its own handler), SIGKILL after a few seconds: none outlives the stop,
    and the stop does not wait for the task's two minutes."""
    import time

    from auditor.tasks import _pool, _stop_now

    pool = _pool(1)
    ready = tmp_path / "ready"
    pool.submit(_deaf_to_sigterm, str(ready))
    deadline = time.monotonic() + 60
    while not ready.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert ready.exists()
    workers = list(pool._processes.values())
    began = time.monotonic()
    _stop_now(pool)
    assert time.monotonic() - began < 60
    assert [worker.exitcode for worker in workers] == [-signal.SIGKILL]


def test_a_pool_sends_its_window_of_tasks_at_once(inputs: list[str]) -> None:
    """Made, a pool has as many tasks in flight as its workers times IN_FLIGHT_PER_JOB
    (fewer would leave workers waiting for the parent), and splits large files only with
    more than one worker."""
    paths = [inputs[0]] * 12
    for jobs, window in ((1, 4), (2, 8), (3, 12)):
        audit = PoolAudit(paths, jobs)
        try:
            assert (len(audit.pending), audit.window) == (window, window)
            assert audit.tasks.split == (jobs > 1)
        finally:
            audit.close()


def test_a_pool_closed_mid_run_drops_the_tasks_not_begun(record: Record) -> None:
    """The tasks already handed to the workers end, waited for; those still queued are
    dropped. (A second shutdown of the pool used to clear the cancellation before the
    pool read it: every queued task still ran, and the interpreter waited for them.)"""
    audit = PoolAudit([str(record.path)] * 12, 2)
    next(audit)
    audit.close()
    states = [(future.done(), future.cancelled()) for future in audit.pending]
    assert (True, True) in states and (False, False) not in states


def test_a_worker_killed_mid_run_costs_a_retry_not_a_file(record: Record,
                                                          whole: FileResult) -> None:
    """A worker that dies breaks its pool: every task it held unfinished goes once more to
    a fresh pool, and every file is audited as alone."""
    audit = PoolAudit([str(record.path)] * 4, 2)
    victim = next(iter(audit.pool._processes.values()))
    os.kill(victim.pid, signal.SIGKILL)
    results = dict(audit)
    assert sorted(results) == [0, 1, 2, 3]
    assert [facts(results[place]) for place in range(4)] == [facts(whole)] * 4
    assert sorted(audit.tasks.tries.values()) and max(audit.tasks.tries.values()) == 1


def test_a_pool_run_to_its_end_leaves_no_worker_running(inputs: list[str]) -> None:
    audit = PoolAudit([inputs[0]] * 3, 2)
    workers = list(audit.pool._processes.values())
    assert sorted(place for place, _ in audit) == [0, 1, 2]
    assert workers and [worker.exitcode for worker in workers] == [0] * len(workers)


def test_a_worker_ends_on_sigterm_whatever_handler_its_parent_has() -> None:
    """A pool's worker forked from a program with a Python SIGTERM handler of its own (a
    caller of the library) still ends on SIGTERM: a broken pool ends its workers so, and
    one that ran the inherited handler instead, waiting on the pool's queue, would be
    waited for for ever."""
    from auditor.tasks import _pool

    def callers(*_) -> None:
        pass

    before = signal.signal(signal.SIGTERM, callers)
    try:
        pool = _pool(1)
        assert pool.submit(os.getpid).result(timeout=60) > 0  # the worker is up, and idle
        worker, = pool._processes.values()
        os.kill(worker.pid, signal.SIGTERM)
        worker.join(30)
        assert worker.exitcode == -signal.SIGTERM
    finally:
        signal.signal(signal.SIGTERM, before)
        pool.shutdown(wait=False, cancel_futures=True)
        for process in list((pool._processes or {}).values()):
            process.kill()
