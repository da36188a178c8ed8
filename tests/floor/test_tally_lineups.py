"""The tally counts dealer–player pairs a line-up at a time (`Tally._lineups`, made `pairs` by
`finish`): the same pairs, counts and order as counting each round's players round by round,
the order in which the store numbers the pairs."""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor import events as ev
from auditor.audit import audit_file
from auditor.parser import parse_lines
from auditor.reader import Header, RoundRecord, read_structure
from auditor.replay.engine import replay_round
from auditor.replay.state import TableState
from auditor.simulate import simulate, table_spec
from auditor.source import SourceFile
from auditor.tally import Tally, _stamp_and_hour, players_of


def pairs_round_by_round(path: Path) -> list[tuple[tuple, int]]:
    """The pairs as counted before line-ups: each round's players, each once, in the order
    of their wagers."""
    source = SourceFile(str(path))
    source.open_check()
    pairs: dict[tuple, int] = {}
    state = None
    for item in read_structure(parse_lines(source.lines())):
        if isinstance(item, Header):
            state = TableState(item.config)
        elif isinstance(item, RoundRecord):
            view = replay_round(state, item, str(path))
            date = _stamp_and_hour(view.date, view.clock)[0]
            for player in dict.fromkeys(players_of(view).values()):
                key = (view.dealer_id, player, date)
                pairs[key] = pairs.get(key, 0) + 1
        elif isinstance(item, ev.Event) and state is not None:
            state.apply(item)
    return list(pairs.items())


@pytest.mark.parametrize("game", ["standard", "switch", "db21"])
def test_pairs_by_line_up_are_the_pairs_round_by_round(tmp_path: Path, game: str) -> None:
    simulate(tmp_path, table_spec(game, table_id="T1"), rounds=300, seed=f"lineups-{game}",
             faults=0.1)
    (path,) = sorted(tmp_path.glob("*.bjh"))
    tally = audit_file(str(path), keep_evidence=False).tally
    expected = pairs_round_by_round(path)
    # players come and go: many line-ups, and pairs first seen after the first round
    assert len({player for (_, player, _), _ in expected}) > 3
    assert list(tally.pairs.items()) == expected
    assert tally._lineups == {}


def test_a_line_up_counts_each_player_once_in_the_order_first_seated() -> None:
    tally = Tally()
    tally._lineups = {("D1", "2026-11-20 18", ("P2", "P1", "P2")): 3,
                      ("D1", "2026-11-20 18", ("P1", "P3")): 2,
                      ("D2", "2026-11-20 18", ("P1",)): 1}
    tally.finish()
    assert list(tally.pairs.items()) == [(("D1", "P2", "2026-11-20 18"), 3),
                                         (("D1", "P1", "2026-11-20 18"), 5),
                                         (("D1", "P3", "2026-11-20 18"), 2),
                                         (("D2", "P1", "2026-11-20 18"), 1)]
    tally.finish()  # counted once: a second finish adds nothing
    assert tally.pairs[("D1", "P1", "2026-11-20 18")] == 5


def test_absorb_counts_both_pieces_line_ups() -> None:
    first, second = Tally(), Tally()
    first._lineups = {("D1", "2026-11-20 18", ("P1",)): 2}
    second._lineups = {("D1", "2026-11-20 18", ("P1", "P2")): 1}
    first.absorb(second)
    assert list(first.pairs.items()) == [(("D1", "P1", "2026-11-20 18"), 3),
                                         (("D1", "P2", "2026-11-20 18"), 1)]
