"""The replay's written-out constructors (auditor/replay/view.py) give every field its
declared default: a field added to the dataclass but not to its `__init__` fails here, not
in the middle of an audit."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from auditor.config import TableConfig
from auditor.replay.view import Hand, RoundView, ShoeStatus, Wager


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
    assert first.cards is not second.cards and first.late_cards is not second.late_cards
    one, other = (Wager("s1h1", "main", False, Decimal(10), 1, 0, False) for _ in range(2))
    assert one.settlements is not other.settlements
    assert one.late_additions is not other.late_additions
    shoe = ShoeStatus(None, False, False, False, None)
    views = [RoundView("f", TableConfig(), "1", 1, 2, 2, None, None, None, [], shoe)
             for _ in range(2)]
    assert views[0].hands is not views[1].hands and views[0].dealer is not views[1].dealer
    assert views[0].problems is not views[1].problems
