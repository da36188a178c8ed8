"""Where the header leaves house rules unknown, each check is judged under every combination
of the unknown rules it declares (`Check.options`), on the round as the other table sees it
(replay/under.py). Both shortcuts hold only if the declarations are complete and the derived
round is the replayed one: over every test case and sample log, each round is judged under
each other value of each house rule, and

- under a rule a check does not declare, the check finds exactly what it finds under the
  table as configured;
- on the round derived for the other table, every check finds exactly what it finds on a
  full replay under that table.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

import pytest

from auditor import checks as _checks  # noqa: F401  (registers every check)
from auditor import events as ev
from auditor.checks.base import HOUSE_RULES, Check, RegistrationError, register, registry
from auditor.config import TableConfig
from auditor.parser import parse_lines
from auditor.reader import NO_MOST, Header, RoundRecord, read_structure
from auditor.replay.engine import replay_round
from auditor.replay.state import TableState
from auditor.replay.under import VIEW_OPTIONS, view_under
from auditor.source import SourceFile
from tests.helpers import SAMPLES
from tests.helpers.casefiles import load_cases

VALUES: dict[str, tuple] = {
    "soft17": ("hit", "stand"),
    "peek": ("yes", "no"),
    "blackjack": (None, "3:2", "6:5", "1:1"),
    "double": ("any", "9-11", "10-11"),
    "das": ("yes", "no"),
    "splits": (1, 2, 3),
    "surrender": ("no", "late"),
    "db21_paytable": (None, 1, 2, 3, 4),
    "ladies_paytable": (None, "A", "B", "C"),
    "sidebet_min": (None, Decimal(0), Decimal(5), Decimal(1000)),
    "sidebet_max": (None, Decimal(0), Decimal(5), Decimal(1000)),
    "tensticks_trade": ("yes", "no"),
    "tensticks_lights": (1, 3, 10, NO_MOST),
    "tensticks_prize": (None, Decimal(100)),
    "decks": (1, 2, 6, 8, NO_MOST),
}
"""Each house rule's values: those it can take, and for a count or an amount the edges."""


def _under(config: TableConfig, field: str, value: object) -> TableConfig:
    if field == "decks":
        return config.model_copy(update={"decks": value})
    return config.model_copy(update={"rules": config.rules.model_copy(update={field: value})})


def _rounds(lines) -> Iterator[tuple[TableState, RoundRecord, object]]:
    """Each round with the table's state before it, and its replay."""
    state = None
    for item in read_structure(parse_lines(lines)):
        if isinstance(item, Header):
            state = TableState(item.config)
        elif isinstance(item, RoundRecord) and state is not None:
            before = state.clone()
            yield before, item, replay_round(state, item, "options.bjh")
        elif isinstance(item, ev.Event) and state is not None:
            state.apply(item)


def _every_round() -> Iterator[tuple[TableState, RoundRecord, object]]:
    for case in load_cases():
        yield from _rounds((n, t, None) for n, t in enumerate(case.text.split("\n"), 1))
    for path in sorted(SAMPLES.glob("*.bjh")):
        source = SourceFile(str(path))
        source.open_check()
        yield from _rounds(source.lines())


def _found(check: Check, view) -> list[tuple]:
    return [(f.citation, f.line, f.seat, f.hand, f.subject, f.message, f.expected, f.actual,
             f.evidence) for f in check.round(view)]


ROUNDS = [r for r in _every_round() if r[2].game is not None and not r[2].unreadable]


def test_every_house_rule_has_values_here() -> None:
    assert set(VALUES) == HOUSE_RULES
    assert VIEW_OPTIONS <= HOUSE_RULES


@pytest.mark.parametrize("field", sorted(VALUES))
def test_a_check_finds_the_same_under_a_rule_it_does_not_declare(field: str) -> None:
    """A declaration left out would make a finding stand that a value of the rule removes
    (or drop one every value gives)."""
    checks = [c for c in registry().values() if field not in c.options]
    differing = []
    for _, _, view in ROUNDS:
        applicable = [c for c in checks if c.applies_to(view.game)]
        configured = {c.name: _found(c, view) for c in applicable}
        for value in VALUES[field]:
            other = view_under(view, _under(view.config, field, value))
            for check in applicable:
                if _found(check, other) != configured[check.name]:
                    differing.append((check.name, view.round_id, value))
    assert differing == []


@pytest.mark.parametrize("field", sorted(VALUES))
def test_the_round_derived_for_another_table_is_its_replay(field: str) -> None:
    checks = list(registry().values())
    differing = []
    for before, record, view in ROUNDS:
        applicable = [c for c in checks if c.applies_to(view.game)]
        for value in VALUES[field]:
            table = _under(view.config, field, value)
            replayed = replay_round(before.clone(config=table), record, "options.bjh")
            derived = view_under(view, table)
            for check in applicable:
                if _found(check, derived) != _found(check, replayed):
                    differing.append((check.name, view.round_id, value))
    assert differing == []


def test_the_cases_reach_each_rule_the_view_reads() -> None:
    """The cases hold rounds whose findings change with each house rule the replay reads
    (else the test above would not test that rule)."""
    changed = set()
    for _, _, view in ROUNDS:
        for field in VIEW_OPTIONS - changed:
            for value in VALUES[field]:
                other = view_under(view, _under(view.config, field, value))
                if any(_found(c, other) != _found(c, view) for c in registry().values()
                       if c.applies_to(view.game)):
                    changed.add(field)
                    break
    assert changed == VIEW_OPTIONS


def test_a_check_that_declares_no_options_is_refused() -> None:
    class Undeclared(Check):
        """A check.

        Regulation: none. Violating: none. Compliant: none. Reading: none.
        """

        citation = "record:undeclared"
        name = "record.undeclared"
        severity = "low"

    with pytest.raises(RegistrationError, match="options must be a frozenset"):
        register(Undeclared)
    Undeclared.options = frozenset({"soft_17"})
    with pytest.raises(RegistrationError, match="options must be a frozenset"):
        register(Undeclared)
