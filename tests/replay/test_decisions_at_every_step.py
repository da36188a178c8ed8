"""Hostile review of the replay's second pass (issue 44, replay4): decisions kept as indices
and made when read. A round the evidence's replay reads the decisions of at every step
(as a check on the step view would), then at its end, and a plain replay of it: a split
repeated (refused), a hit on a hand never dealt, a switch at a standard table, a double
on the split hand, a surrender after a hit and one before any, a hit after a surrender.
The decisions at each step, the hands' surrender and split marks and the problems are
pinned as 52bdaf6, which appended each Decision as it went, gives them."""

from __future__ import annotations

from auditor.replay.engine import replay_round
from tests.helpers.replaying import HEADER, rounds_of

TEXT = HEADER + """round 1
sit s1 player=P-1
bet s1h1 main 10
bet s2h1 main 10
bet s3h1 main 10
deal s1h1 8s
deal s2h1 9h
deal s3h1 Th
deal dealer 7c
deal s1h1 8d
deal s2h1 2c
deal s3h1 6c
deal dealer Kd
split s1h1 s1h2 10
split s1h1 s1h2 10
deal s1h1 3c
hit s1h1 Ah
hit s9h1 2d
switch s1
double s1h2 10 Ah
stand s1h1
hit s2h1 4h
surrender s2h1
surrender s3h1
hit s3h1 2s
settle s1h1 main win 10
settle s1h2 main lose 20
settle s2h1 main lose 5
settle s3h1 main lose 5
end
"""

# (a statement's line, the lines of the decisions read after it)
DECISIONS_AT_EACH_STEP = [
    (7, []),
    (8, []),
    (9, []),
    (10, []),
    (11, []),
    (12, []),
    (13, []),
    (14, []),
    (15, []),
    (16, []),
    (17, []),
    (18, []),
    (19, [19]),
    (20, [19]),
    (21, [19]),
    (22, [19, 22]),
    (23, [19, 22]),
    (24, [19, 22]),
    (25, [19, 22, 25]),
    (26, [19, 22, 25, 26]),
    (27, [19, 22, 25, 26, 27]),
    (28, [19, 22, 25, 26, 27, 28]),
    (29, [19, 22, 25, 26, 27, 28, 29]),
    (30, [19, 22, 25, 26, 27, 28, 29, 30]),
    (31, [19, 22, 25, 26, 27, 28, 29, 30]),
    (32, [19, 22, 25, 26, 27, 28, 29, 30]),
    (33, [19, 22, 25, 26, 27, 28, 29, 30]),
    (34, [19, 22, 25, 26, 27, 28, 29, 30]),
]

DECISIONS = [
    ('split', 's1h1', 19, 12),
    ('hit', 's1h1', 22, 15),
    ('double', 's1h2', 25, 18),
    ('stand', 's1h1', 26, 19),
    ('hit', 's2h1', 27, 20),
    ('surrender', 's2h1', 28, 21),
    ('surrender', 's3h1', 29, 22),
    ('hit', 's3h1', 30, 23),
]


def test_decisions_read_at_every_step_then_at_the_end() -> None:
    ((state, record),) = list(rounds_of(TEXT))
    seen = []

    def step(event, view) -> None:
        seen.append((event.line, [d.line for d in view.decisions]))

    view = replay_round(state.clone(), record, "f.bjh", on_step=step)
    assert seen == DECISIONS_AT_EACH_STEP
    assert [(d.kind, d.target, d.line, d.index) for d in view.decisions] == DECISIONS
    assert {name: (hand.surrender_after_decision, hand.surrendered_line,
                   hand.played_before_parent_line) for name, hand in view.hands.items()} == \
        {'s1h1': (False, None, None), 's2h1': (True, 28, None), 's3h1': (False, 29, None),
         's1h2': (False, None, 25)}
    assert [(p.line, p.message) for p in view.problems] == [
        (20, '`split` of s1h1 into s1h2: the new hand must be a new hand of the same seat'),
        (23, '`hit` names hand s9h1, which was neither dealt nor wagered on in this round'),
        (24, '`switch` of s1, which does not hold two hands of two cards'),
]
    plain = replay_round(state.clone(), record, "f.bjh")
    assert [(d.kind, d.target, d.line, d.index) for d in plain.decisions] == DECISIONS
