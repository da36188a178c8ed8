"""A round's decisions are kept as the indices of their statements and made into
`Decision`s when first read (auditor/replay/view.py `RoundView.decisions`): the list read
is the one the replay would have made as it went, at every step, and reading it changes
nothing a check could see."""

from __future__ import annotations

import copy

from auditor import events as ev
from auditor.replay.engine import replay_round
from auditor.replay.view import Decision
from tests.helpers import SAMPLE_FILES
from tests.helpers.replaying import HEADER, replayed, rounds_of

PLAYED = HEADER + """round 1
sit s1 player=P-1
bet s1h1 main 10
bet s2h1 main 10
deal s1h1 8s
deal s2h1 9h
deal dealer 7c
deal s1h1 8d
deal s2h1 2c
deal dealer Kd
hit s3h1 5c
split s1h1 s1h2 10
deal s1h1 3c
double s1h1 10 Ah
stand s3h1
hit s1h2 9c
stand s1h2
surrender s2h1
settle s1h1 main win 20
settle s1h2 main lose 10
settle s2h1 main lose 5
end
"""

DECISION_KINDS = (ev.Hit, ev.Stand, ev.Double, ev.Split, ev.Surrender, ev.Switch)


def test_the_decisions_are_the_statements_on_hands_of_the_round() -> None:
    (view,) = replayed(PLAYED)
    # the hit and stand of s3h1, a hand of no deal nor wager, are no decision
    assert [(d.kind, d.target, d.line, d.index) for d in view.decisions] == [
        ("split", "s1h1", 17, 10), ("double", "s1h1", 19, 12), ("hit", "s1h2", 21, 14),
        ("stand", "s1h2", 22, 15), ("surrender", "s2h1", 23, 16)]
    assert all(type(d) is Decision for d in view.decisions)
    assert view.first_decision_index == 10 and view.decision_indices == [10, 12, 14, 15, 16]
    assert view.decisions is view.decisions  # made once


def test_each_step_reads_the_decisions_so_far() -> None:
    ((state, record),) = list(rounds_of(PLAYED))
    seen: list[list[tuple]] = []

    def step(event, view) -> None:
        seen.append([(d.kind, d.line) for d in view.decisions])

    replay_round(state, record, "f.bjh", on_step=step)
    assert seen[9] == [] and seen[10] == [("split", 17)]  # made again as decisions follow
    assert seen[15] == [("split", 17), ("double", 19), ("hit", 21), ("stand", 22)]
    assert seen[-1][-1] == ("surrender", 23)


def test_reading_the_decisions_leaves_the_view_equal() -> None:
    """The checks are held to leave the view as they found it (tests/checks/
    test_read_only_view.py): the Decisions made on reading are no compared field."""
    (view,) = replayed(PLAYED)
    before = copy.deepcopy(view)
    assert len(view.decisions) == 5
    assert view == before


def test_on_the_samples_every_decision_stands_at_its_statement() -> None:
    rounds = 0
    for path in SAMPLE_FILES:
        for view in replayed(path.read_text(encoding="utf-8")):
            rounds += 1
            indices = [d.index for d in view.decisions]
            assert indices == sorted(set(indices))
            for decision in view.decisions:
                event = view.events[decision.index]
                assert isinstance(event, DECISION_KINDS) and decision.line == event.line
                assert decision.target == (event.seat if type(event) is ev.Switch
                                           else event.hand)
                assert decision.kind == type(event).__name__.lower()
    assert rounds > 10
