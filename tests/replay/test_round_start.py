"""The table as a round began (`TableState.round_start`), made after the round's replay only
for a round whose evidence is kept, in place of a copy of the table before every round: it
is the table the round began with, whatever the round changed (cards counted, seats taken
by wagers, players sitting and leaving, lights, prizes, a shuffle or a cut inside it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor import events as ev
from auditor.parser import parse_lines
from auditor.reader import Header, RoundRecord, read_structure
from auditor.replay.engine import replay_round
from auditor.replay.state import TableState
from tests.helpers import ROOT
from tests.helpers.casefiles import load_cases
from tests.replay.test_replay_handlers import HEADER

SAMPLES = sorted(ROOT.glob("sample_logs/*.bjh"))
CASES = load_cases()


def _starts(text: str):
    """(the table copied before the round, the table the replay says the round began with)
    of each round of `text`."""
    lines = [(number, line, None) for number, line in enumerate(text.splitlines(), 1)]
    state = None
    for item in read_structure(parse_lines(lines)):
        if isinstance(item, Header):
            state = TableState(item.config)
        elif isinstance(item, RoundRecord) and state is not None:
            copied = state.clone()
            view = replay_round(state, item, "f.bjh")
            yield copied, state.round_start(view.card_codes, view.occupied_before), view
        elif isinstance(item, ev.Event) and state is not None:
            state.apply(item)


def _same_table(copied: TableState, start: TableState) -> None:
    assert start == copied
    assert list(start.seats) == list(copied.seats)  # in the same order
    assert start.shoe_status() == copied.shoe_status()


SHUFFLED = HEADER + """round 1
bet s1h1 main 10
bet s2h1 main 10
deal s1h1 9s
deal s2h1 9s
deal dealer 7c
settle s1h1 main lose 10
settle s2h1 main lose 10
end
round 2
bet s1h1 main 10
bet s4h1 main 10
deal s1h1 9s
deal s4h1 Ah
deal dealer 7c
sit s3 player=P-3
cutcard
shuffle
cut
deal s1h1 9s
leave s2
settle s1h1 main lose 10
end
"""


def test_a_round_that_changes_the_table_begins_where_the_last_ended() -> None:
    (copied, first, _), (copied_again, start, view) = list(_starts(SHUFFLED))
    _same_table(copied, first)
    assert first.counts == {} and first.seats == {}  # its wagers seated s1 and s2
    _same_table(copied_again, start)
    # the second took s4 by a wager, counted three cards, then seated s3 and shuffled
    assert start.counts == {"9s": 2, "7c": 1} and list(start.seats) == ["s1", "s2"]
    assert not start.shuffled and start.cutcard_line is None
    assert view.shuffled_in_round and list(view.occupied_before) == ["s1", "s2"]


def test_the_start_is_a_copy_the_evidence_can_change() -> None:
    (_, start, _), (_, _, _) = list(_starts(SHUFFLED))
    counts = dict(start.counts)
    start.count_card("9s")
    ((_, again, _), _) = list(_starts(SHUFFLED))
    assert again.counts == counts


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_every_sample_round_begins_as_copied(path: Path) -> None:
    rounds = 0
    for copied, start, _ in _starts(path.read_text(encoding="utf-8")):
        _same_table(copied, start)
        rounds += 1
    assert rounds


def test_every_rule_case_round_begins_as_copied() -> None:
    rounds = 0
    for case in CASES:
        for copied, start, _ in _starts(case.text):
            _same_table(copied, start)
            rounds += 1
    assert rounds > 100
