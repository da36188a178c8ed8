"""The replay's written-out constructors (auditor/replay/view.py) give every field its
declared default: a field added to the dataclass but not to its `__init__` fails here, not
in the middle of an audit."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from pathlib import Path

import pytest

from auditor import events as ev
from auditor.config import TableConfig
from auditor.parser import parse_lines
from auditor.reader import Header, RoundRecord, read_structure
from auditor.replay.engine import replay_round
from auditor.replay.state import SeatState, TableState
from auditor.replay.view import (
    Card,
    DealerHand,
    Decision,
    Expected,
    Hand,
    RoundView,
    Settlement,
    ShoeStatus,
    Wager,
    make_hand,
)
from auditor.source import SourceFile
from tests.helpers import SAMPLE_FILES


def declared_default(field: dataclasses.Field):
    if field.default is not dataclasses.MISSING:
        return field.default
    if field.default_factory is not dataclasses.MISSING:
        return field.default_factory()
    return dataclasses.MISSING


def built():
    shoe = ShoeStatus("S1", False, False, False, None)
    return [
        (Hand("s3h1", "s3", "s3h1"), {"name": "s3h1", "seat": "s3", "root": "s3h1"}),
        (Hand("s3h2", "s3"), {"name": "s3h2", "seat": "s3", "root": ""}),
        (Wager("s3h1", "main", False, Decimal(25), 7, 2, False),
         {"target": "s3h1", "kind": "main", "tip": False, "amount": Decimal(25), "line": 7,
          "index": 2, "after_first_card": False, "initial": True, "seat": "s3"}),
        (Wager("s4", "db21", True, Decimal(5), 9, 3, True, initial=False),
         {"target": "s4", "kind": "db21", "tip": True, "amount": Decimal(5), "line": 9,
          "index": 3, "after_first_card": True, "initial": False, "seat": "s4"}),
        (DealerHand(), {}),
        (RoundView("f.bjh", TableConfig(), "12", 40, 60, 60, "2026-11-20", "18:00:00", "D-1",
                   [], shoe),
         {"file": "f.bjh", "config": TableConfig(), "round_id": "12", "start_line": 40,
          "end_line": 60, "last_line": 60, "date": "2026-11-20", "clock": "18:00:00",
          "dealer_id": "D-1", "events": [], "shoe": shoe}),
    ]


@pytest.mark.parametrize("made, given", built(), ids=lambda x: type(x).__name__)
def test_every_field_set_to_its_default(made, given) -> None:
    for field in dataclasses.fields(made):
        value = getattr(made, field.name)  # AttributeError: a slot left unset
        expected = given[field.name] if field.name in given else declared_default(field)
        assert expected is not dataclasses.MISSING, f"{field.name} has no default"
        assert value == expected and type(value) is type(expected), field.name


def test_mutable_defaults_are_not_shared() -> None:
    first, second = Hand("s1h1", "s1"), Hand("s1h1", "s1")
    assert first.cards is not second.cards
    assert first.late_cards == () and type(first.late_cards) is tuple  # immutable: shared
    one, other = (Wager("s1h1", "main", False, Decimal(10), 1, 0, False) for _ in range(2))
    assert one.settlements is not other.settlements
    assert one.late_additions == () and type(one.late_additions) is tuple
    shoe = ShoeStatus(None, False, False, False, None)
    views = [RoundView("f", TableConfig(), "1", 1, 2, 2, None, None, None, [], shoe)
             for _ in range(2)]
    assert views[0].hands is not views[1].hands and views[0].dealer is not views[1].dealer
    assert views[0].problems is not views[1].problems
    assert DealerHand().cards is not DealerHand().cards
    assert DealerHand().draws is not DealerHand().draws




def replayed(path: Path):
    state = None
    for item in read_structure(parse_lines(SourceFile(str(path)).lines())):
        if isinstance(item, Header):
            state = TableState(item.config)
        elif isinstance(item, RoundRecord):
            yield replay_round(state, item, str(path))


def made_in_place(view: RoundView):
    """The objects the replay makes in place (engine._new, outcomes._new), with their class."""
    for hand in [*view.hands.values(), view.dealer]:
        yield from hand.cards
    yield from view.decisions
    for wager in view.wagers:
        yield wager
        yield from wager.settlements


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.name)
def test_objects_made_in_place_are_whole(path: Path) -> None:
    """The replay makes cards, settlements, decisions, wagers and expected results without
    their constructors: each must hold every declared field, equal to what the
    constructor makes of them (a field added to the class but not to the replay fails)."""
    seen: set[type] = set()
    for view in replayed(path):
        for made in made_in_place(view):
            seen.add(type(made))
            values = {f.name: getattr(made, f.name) for f in dataclasses.fields(made)}
            if type(made) is Wager:
                again = Wager(*(values[n] for n in ("target", "kind", "tip", "amount", "line",
                                                    "index", "after_first_card", "initial")))
                assert again.seat == made.seat
                continue
            assert made == type(made)(**values)
        for wager in view.wagers:
            if wager.expected is not None:
                expected = wager.expected
                assert expected == Expected(expected.outcome, expected.net, expected.why)
                assert isinstance(expected.why, str) and expected.why
    assert {Card, Decision, Settlement, Wager} <= seen


def test_clone_holds_every_field() -> None:
    """TableState.clone is made in place: every declared field, each equal to the
    original's (the counts and seats copies, not the same objects)."""
    state = TableState(TableConfig(), shoe_id="S1", shoe_date="2026-11-20", shuffled=True,
                       cutcard_line=40, counts={"Ah": 2}, counted_since=12, dealer="D-1",
                       seats={"s1": SeatState("P-1")}, lights={"s1": 3}, closed=False)
    state.shoe_status()
    copy = state.clone()
    for field in dataclasses.fields(TableState):
        assert getattr(copy, field.name) == getattr(state, field.name), field.name
    assert copy.counts is not state.counts and copy.seats is not state.seats
    assert copy.lights is not state.lights
    other = TableConfig(decks=2)
    assert state.clone(config=other).config is other


def test_shoe_status_follows_the_shoe() -> None:
    """The kept ShoeStatus is made again after any table statement."""
    state = TableState(TableConfig(), shoe_id="S1")
    first = state.shoe_status()
    assert state.shoe_status() is first and not first.shuffled
    state.apply(ev.Shuffle(7, None))
    assert state.shoe_status().shuffled and state.shoe_status().counted_since == 7
    state.apply(ev.CutCard(9, None))
    assert state.shoe_status().cutcard_pending and state.shoe_status().cutcard_line == 9
    assert state.clone().shoe_status() == state.shoe_status()


@pytest.mark.parametrize("args", [("s3h1", "s3", "s3h1"), ("s3h2", "s3")])
def test_a_hand_made_in_place_is_the_constructed_one(args) -> None:
    made, built_ = make_hand(*args), Hand(*args)
    for field in dataclasses.fields(Hand):
        mine, theirs = getattr(made, field.name), getattr(built_, field.name)
        assert mine == theirs and type(mine) is type(theirs), field.name
    assert made.cards is not built_.cards and made.late_cards == ()
