"""The replay's handlers (auditor/replay/engine.py, table_events.py, round_end.py): one per
statement type, each the only code for its statement. What the round's view records of the
deal, the cards counted and the statements that cannot be replayed, as each step sees it."""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor import events as ev
from auditor.replay.engine import replay_round
from tests.helpers import SAMPLE_FILES
from tests.helpers.replaying import HEADER, replayed, rounds_of


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.name)
def test_each_step_sees_the_first_and_last_deal_so_far(path: Path) -> None:
    rounds = 0
    for state, record in rounds_of(path.read_text(encoding="utf-8")):
        deals: list[int] = []
        seen: list[tuple] = []

        def step(event, view, deals=deals, seen=seen):
            index = len(seen)
            if type(event) is ev.Deal:
                deals.append(index)
            seen.append((view.first_card_index, view.deal_end_index))
            assert seen[-1] == ((deals[0], deals[-1]) if deals else (None, None))

        view = replay_round(state, record, str(path), on_step=step)
        indices = [i for i, e in enumerate(view.events) if type(e) is ev.Deal]
        assert (view.first_card_index, view.deal_end_index) == (
            (indices[0], indices[-1]) if indices else (None, None))
        rounds += 1
    assert rounds


def test_a_deal_to_a_seat_is_counted_but_makes_no_hand() -> None:
    (view,) = replayed(HEADER + """round 1
sit s1 player=P-1
bet s1h1 main 10
deal s1 9s
deal s1h1 Th
deal dealer 7c
end
""")
    assert view.card_codes == ["9s", "Th", "7c"] and view.card_seen == [1, 1, 1]
    assert view.card_lines == [9, 10, 11]
    assert [c.card for c in view.hands["s1h1"].cards] == ["Th"] and "s1" not in view.hands
    assert [(p.kind, p.line, p.message) for p in view.problems] == [
        ("reference", 9, "`deal` to s1: cards are dealt to a hand")]
    assert view.first_card_index == 2 and view.deal_end_index == 4


def test_a_deal_beyond_the_table_is_told_once_and_still_replayed() -> None:
    (view,) = replayed(HEADER.replace("seats=7", "seats=5") + """round 1
bet s8h1 main 10
deal s8h1 9s
deal s8h2 Th
deal dealer 7c
end
""")
    assert [(p.line, p.message) for p in view.problems] == [
        (7, "s8h1 names seat s8, but the table has 5 seats")]  # the bet: once
    assert [c.card for c in view.hands["s8h1"].cards] == ["9s"]
    assert [c.card for c in view.hands["s8h2"].cards] == ["Th"]


def test_hits_stands_and_settles_of_hands_and_wagers_that_are_not_there() -> None:
    (view,) = replayed(HEADER + """round 1
sit s1 player=P-1
bet s1h1 main 10
deal s1h1 9s
deal dealer 7c
deal s1h1 2h
deal dealer Kd
hit s2h1 5c
stand s2h1
settle s2h1 main win 10
hit s1h1 Td
settle s1h1 main win 10
end
""")
    assert [(p.line, p.message) for p in view.problems] == [
        (13, "`hit` names hand s2h1, which was neither dealt nor wagered on in this round"),
        (14, "`stand` names hand s2h1, which was neither dealt nor wagered on in this round"),
        (15, "`settle` of a main wager on s2h1 that was not placed")]
    assert view.card_codes == ["9s", "7c", "2h", "Kd", "5c", "Td"]  # the stray hit counted
    hand = view.hands["s1h1"]
    assert [c.card for c in hand.cards] == ["9s", "2h", "Td"] and hand.total == 21
    assert [(d.kind, d.target, d.line) for d in view.decisions] == [("hit", "s1h1", 16)]
    assert [(s.line, s.outcome) for s in hand.main.settlements] == [(17, "win")]
    assert ev.Hit in view.kinds and ev.Settle not in view.kinds and ev.Deal not in view.kinds


def test_a_card_after_a_stand_is_a_late_card_and_a_bust_completes() -> None:
    (view,) = replayed(HEADER + """round 1
sit s1 player=P-1
sit s2 player=P-2
bet s1h1 main 10
bet s2h1 main 10
deal s1h1 9s
deal s2h1 Ts
deal dealer 7c
deal s1h1 8h
deal s2h1 6h
deal dealer Kd
stand s1h1
hit s1h1 2c
hit s2h1 9d
end
""")
    stood, bust = view.hands["s1h1"], view.hands["s2h1"]
    assert [(late.card.card, late.reason) for late in stood.late_cards] == [("2c", "stood")]
    assert stood.complete_reason == "stood" and stood.stood_line == 17
    assert bust.bust_line == 19 and bust.complete_reason == "over 21" and bust.total == 25
    assert bust.late_cards == ()
