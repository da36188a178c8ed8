"""Dealer Bust 21's facts (auditor/checks/db21.py): the DB21 wagers the rules judge, found once
a round and shared by the game's checks, and the bust of a hand found among its cards."""

from __future__ import annotations

from auditor.checks import db21, games
from auditor.parser import parse_lines
from auditor.reader import Header, RoundRecord, read_structure
from auditor.replay.engine import replay_round
from auditor.replay.state import TableState
from tests.helpers.casefiles import load_cases


def db21_views():
    for case in load_cases():
        state = None
        lines = case.text.split("\n")
        for item in read_structure(parse_lines((n, t, None) for n, t in enumerate(lines, 1))):
            if isinstance(item, Header):
                state = TableState(item.config)
            elif isinstance(item, RoundRecord) and state.config.game == "db21":
                yield replay_round(state, item, "case.bjh")


def test_the_game_derives_the_judged_wagers_once() -> None:
    assert games.game("db21").facts is db21.judged_db21
    views = list(db21_views())
    assert any(db21.judged_db21(view) for view in views)
    for view in views:
        judged = db21.judged_db21(view)
        assert db21.judged_db21(view) is judged  # kept, not found again
        assert [id(w) for w in judged] == [id(w) for w in db21._judged_db21(view)]
        assert all(w.kind == "db21" and not w.after_first_card for w in judged)


def test_a_hands_bust_is_the_statement_of_one_of_its_cards() -> None:
    """TuckBustedHand takes the statement that took a hand over 21 from the hand's cards,
    and walks the round's statements only where none has its line: in Dealer Bust 21 one
    always has, at the statement's own index."""
    busted = 0
    for view in db21_views():
        for hand in view.hands.values():
            if hand.bust_line is None:
                continue
            busted += 1
            walked = next(i for i, e in enumerate(view.events) if e.line == hand.bust_line)
            (card,) = [c for c in hand.cards if c.line == hand.bust_line]
            assert card.index == walked
    assert busted > 10
