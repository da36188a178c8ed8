"""One large file in pieces (auditor/split.py): the result is the whole file's, for every game.

Each game's record is simulated with faults and several shoes, then audited whole and in
pieces cut at its `shoe` statements; findings (with their lines and statements), the input's
summary, the rounds judged per citation, the cross-file facts, the replays kept and the
trends' tally must all be equal. Ten sticks carries lights and punched cards across shoes,
which a piece can only know from the state handed to it.
"""

from __future__ import annotations

import itertools
import pickle
import re
from pathlib import Path

import pytest

from auditor.audit import FileResult, audit_file, merge
from auditor.simulate import simulate, table_spec
from auditor.split import SplitFile, audit_piece, audit_split, plan_pieces
from auditor.tasks import AuditTasks, audit_in_pools

OPTIONS = {"standard": {"surrender": "late"}, "switch": {}, "db21": {"db21.paytable": "2"},
           "tensticks": {"tensticks.lights": "3"}}
PIECE_BYTES = 40_000  # about 50 rounds: every record below goes in many pieces
TALLY_FIELDS = ("site", "table_id", "decks", "hits_soft_17", "rounds", "pairs", "seats",
                "game", "shuffles")


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("split")
    made = {}
    for game, options in OPTIONS.items():
        spec = table_spec(game, decks=1 if game == "standard" else 6, options=options)
        result = simulate(base / game, spec, rounds=700, seed=f"split-{game}", faults=0.08)
        made[game] = result.files[0]
    return made


def assert_same(whole: FileResult, split: FileResult) -> None:
    assert split.findings == whole.findings
    assert [f.statement for f in split.findings] == [f.statement for f in whole.findings]
    assert split.summary == whole.summary
    assert list(split.applied.items()) == list(whole.applied.items())
    assert split.facts == whole.facts
    assert list(split.evidence) == list(whole.evidence)
    for key, evidence in whole.evidence.items():
        assert pickle.dumps(split.evidence[key]) == pickle.dumps(evidence)
    for name in TALLY_FIELDS:
        assert getattr(split.tally, name) == getattr(whole.tally, name), name


@pytest.mark.parametrize("game", list(OPTIONS))
def test_a_file_in_pieces_gives_the_whole_files_result(records: dict[str, Path],
                                                       game: str) -> None:
    path = str(records[game])
    _, pieces = plan_pieces(path, PIECE_BYTES)
    found = list(pieces)
    assert len(found) >= 4, "the record must go in several pieces for the test to mean much"
    lines = Path(path).read_text().split("\n")
    for piece in found[1:]:  # each begins at a `shoe` statement, after a time stamp or not
        assert re.match(r"([0-9:.]+ +)?shoe ", lines[piece.first_line - 1])
    whole = audit_file(path)
    assert whole.findings, "the record carries faults"
    assert_same(whole, audit_split(path, PIECE_BYTES))


def test_the_guess_handed_to_each_piece_is_the_state_the_piece_before_ended_in(
        records: dict[str, Path]) -> None:
    """On a simulated record the plan's short reading guesses every piece's state right
    (Ten sticks: seats, players, lights and prizes carried across shoes)."""
    path = str(records["tensticks"])
    _, pieces = plan_pieces(path, PIECE_BYTES)
    results = [audit_piece(piece) for piece in pieces]
    for before, after in itertools.pairwise(results):
        assert after.guessed == before.audit.state.handoff()
    assert any(seats for _, seats, *_ in (r.guessed for r in results[1:]))


HEADER = """bjh 1
casino "Test" licence=L-1
table T1 game=standard decks=6 min=10 max=500
dealer D-1
"""
ROUND = """round {n} date=2026-11-20 time=20:{n:02d}:00
{bets}deal s1h1 9c
deal dealer 7d
deal s1h1 8c
deal dealer Td
stand s1h1
reveal
settle s1h1 main win 10
end
"""


def test_a_wrong_guess_is_audited_again_from_the_state_before_it(tmp_path: Path) -> None:
    """An unreadable wager looks like a wager on an empty seat to the plan's short reading
    (which seats an unnamed player at s3), but the audit reads it as no wager at all: the
    piece's guess is wrong, it is audited again, and the result is the whole file's."""
    rounds = ["shoe 1 date=2026-11-20\nshuffle\ncut\n",
              ROUND.format(n=1, bets="sit s1 player=P-1\nbet s1h1 main 10\n"
                                     "bet s3h1 main ten\n")]
    for shoe in range(2, 5):
        rounds.append(f"shoe {shoe}\nshuffle\ncut\n")
        rounds.append(ROUND.format(n=shoe, bets="bet s1h1 main 10\n"))
    path = tmp_path / "guess.bjh"
    path.write_text(HEADER + "".join(rounds))
    plan, pieces = plan_pieces(str(path), 1)
    joined = SplitFile(plan)
    for piece in pieces:
        joined.add(audit_piece(piece))
    joined.planned = True
    again = joined.redo()
    assert again is not None and again.number == 2  # (piece 1 is shoe 1: the header alone before)
    while again is not None:
        again = joined.add(audit_piece(again))
    assert joined.redone == 1
    whole = audit_file(str(path))
    assert ("record:syntax", "1") in {(f.citation, f.round) for f in whole.findings}
    assert_same(whole, joined.join())


def test_several_processes_split_large_files_and_give_the_same_result(
        records: dict[str, Path]) -> None:
    """The local pool with large files in pieces, against one process file by file."""
    paths = [str(records[game]) for game in OPTIONS]
    tasks = AuditTasks(paths, split=True, split_bytes=100_000, piece_bytes=PIECE_BYTES)
    done = dict(audit_in_pools(paths, 2, tasks=tasks))
    split = merge([done[i] for i in range(len(paths))])
    whole = merge([audit_file(path) for path in paths])
    assert split.findings == whole.findings
    assert split.inputs == whole.inputs
    assert split.applied == whole.applied
    assert list(split.evidence) == list(whole.evidence)
