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
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest

from auditor.audit import audit_file
from auditor.results import FileResult
from auditor.run import merge
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
        # the join makes each replay's changes as it traces it; the whole file's are made
        # when they are first asked for: the same, and then the same replay
        assert split.evidence[key].recorded_changes is not None
        assert split.evidence[key].recorded_changes == evidence.changes()
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


def test_each_pieces_replays_are_traced_as_it_is_joined(records: dict[str, Path]) -> None:
    """Joined in order, a piece's picks are final: its replays are traced, with their
    changes, at its join, while the pieces after it are still to come (not all at the end,
    in the parent's serial part), and they are the whole file's replays of its lines."""
    path = str(records["standard"])
    whole = audit_file(path)
    plan, pieces = plan_pieces(path, PIECE_BYTES)
    joined = SplitFile(plan)
    found = list(pieces)
    traced_at_joins = []
    for number, piece in enumerate(found):
        assert joined.add(audit_piece(piece)) is None
        ends = found[number + 1].first_line if number + 1 < len(found) else None
        expected = [key for key, evidence in whole.evidence.items()
                    if ends is None or evidence.start_line < ends]
        evidence = joined.joined.result.evidence
        assert list(evidence) == expected, f"after piece {number}"
        assert all(e.recorded_changes is not None for e in evidence.values())
        traced_at_joins.append(len(evidence))
    assert 0 < traced_at_joins[0] < traced_at_joins[-1]  # some traced before the last join
    joined.planned = True
    assert_same(whole, joined.join())


def test_the_last_pieces_of_a_file_are_smaller(records: dict[str, Path],
                                               tmp_path: Path) -> None:
    """A piece ends at the first `shoe` past its size: the piece size, and over the file's
    last pieces a quarter of what is left, down to a quarter of the piece size, so that at
    the end neither worker waits long for the other's last piece. (A record of 400 shoes of
    one round each: a `shoe` every kilobyte.)"""
    text = records["standard"].read_text()
    first_shoe = re.search(r"^[0-9:.]+ +shoe .*\n", text, re.M)
    round_block = re.search(r"^round .*?^end\n", text, re.M | re.S).group(0)
    path = tmp_path / "many-shoes.bjh"
    path.write_text(text[:first_shoe.start()] + "".join(
        f"shoe S{number} date=2026-11-20\n{round_block}" for number in range(400)))
    size = path.stat().st_size
    _, pieces = plan_pieces(str(path), PIECE_BYTES)
    found = list(pieces)
    lengths = [(piece.end or size) - piece.start for piece in found]
    assert len(found) >= 8 and lengths[0] >= PIECE_BYTES
    spacing = len(round_block) + 40
    for piece, length in zip(found[:-1], lengths, strict=False):
        wanted = max(PIECE_BYTES // 4, min(PIECE_BYTES, (size - piece.start) // 4))
        assert wanted <= length <= wanted + spacing
    assert min(lengths[:-1]) < PIECE_BYTES // 2


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


def test_a_wrong_guess_is_audited_again_from_the_state_before_it(
        records: dict[str, Path]) -> None:
    """The join trusts no guess: a piece handed a state that is not the one the piece before
    it ended in (here a player who never sat) is audited again from that state, and the
    pieces after it are checked against what it then ends in."""
    path = str(records["tensticks"])
    plan, pieces = plan_pieces(path, PIECE_BYTES)
    joined = SplitFile(plan)
    asked = []
    for piece in pieces:
        if piece.number == 2:
            wrong = piece.state.clone()
            wrong.seat_player("s7", "P-NEVER-SAT", 3)
            piece = replace(piece, state=wrong)
        again = joined.add(audit_piece(piece))
        if again is not None:
            asked.append(again)
    joined.planned = True
    # asked for once piece 1 is joined; the pieces after it wait for it
    assert [piece.number for piece in asked] == [2]
    assert joined.count == 2 and not joined.complete()
    again = asked[0]
    while again is not None:
        again = joined.add(audit_piece(again))
    assert joined.redone == 1 and joined.complete()
    assert_same(audit_file(path), joined.join())


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


DAMAGE = ["bet s3h1 main ten", "bet s4 db21 5", "sit s6 player=P-77", "leave s2", "round",
          "round 9999", "end", "end now", "close", "light s5 2", "prize s1 100",
          "dealer D-99", "shoe", "shoe 77", "\x00sit s5 player=P-1", "bet dealer main 5",
          "12:00:00 sit s7 player=P-8 punchcard=C-1 punches=4", "  end  # closed"]


@pytest.mark.parametrize("seed", range(6))
def test_a_damaged_record_in_pieces_still_gives_the_whole_files_result(
        records: dict[str, Path], tmp_path: Path, seed: int) -> None:
    """Lines that the plan's short reading may read otherwise than the audit (unreadable
    wagers, rounds never closed, seats taken outside rounds, stray `end`s, a `close`) put
    anywhere: whatever the guesses, the pieces join into the whole file's result."""
    rng = random.Random(seed)
    lines = Path(records["tensticks"]).read_text().split("\n")
    for _ in range(40):
        lines.insert(rng.randrange(12, len(lines)), rng.choice(DAMAGE))
    path = tmp_path / "damaged.bjh"
    path.write_text("\n".join(lines))
    assert_same(audit_file(str(path)), audit_split(str(path), PIECE_BYTES))


def test_a_file_with_unknown_house_rules_in_pieces_gives_the_whole_files_result(
        records: dict[str, Path], tmp_path: Path) -> None:
    """Each piece judges the unknown house rules as the whole file does, and the header's
    finding of a check not judged (past its combinations) is told once, not per piece."""
    text = records["standard"].read_text()
    doubled = ("option soft17=hit\noption soft17=stand\noption surrender=sometimes\n"
               "option double=9-11\noption double=10-11\noption sidebet.min=1\n"
               "option sidebet.min=2\noption sidebet.max=50\noption sidebet.max=60\n"
               "option blackjack=often\n")
    text = re.sub(r"^(table .*) decks=\d+", r"\1 decks=0", text, count=1, flags=re.M)
    text = re.sub(r"^(table .*\n)", lambda m: m.group(1) + doubled, text, count=1, flags=re.M)
    path = tmp_path / "unknown.bjh"
    path.write_text(text)
    whole = audit_file(str(path))
    assert [f.message for f in whole.findings if "is not judged" in f.message] == [
        "20:18:15:03 (standard.wager_timing_and_limits) is not judged in this file: it "
        "depends on the house rules decks, soft17, sidebet.min, sidebet.max and blackjack, "
        "which the header leaves unknown, and their values make 96 combinations, more than "
        "the 64 judged"]
    assert any(f.message.startswith("With the house rule") for f in whole.findings)
    assert_same(whole, audit_split(str(path), PIECE_BYTES))
