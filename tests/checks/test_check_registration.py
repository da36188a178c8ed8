"""A check's declaration is validated when it registers: the games and the house-rule
options it names are known ones, and the wording of a net owed (net_text) reads the right
way round (mutants of auditor/checks/ the rule cases let through)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from auditor.checks.base import Check, RegistrationError, register
from auditor.checks.judging import net_text


def _declared(games: object = None, options: object = frozenset()) -> type[Check]:
    class Declared(Check):
        """x. Regulation: x. Violating: x. Compliant: x. Reading: x."""

        citation = "20:18:15:98"
        name = "test.declared"
        severity = "low"

    if games is not None:
        Declared.games = games  # type: ignore[assignment]
    Declared.options = options  # type: ignore[assignment]
    return Declared


@pytest.mark.parametrize("games", [frozenset(), frozenset({"poker"}),
                                   frozenset({"standard", "poker"})])
def test_a_check_of_no_game_or_an_unknown_game_is_refused(games: frozenset) -> None:
    with pytest.raises(RegistrationError, match="games must be a subset of"):
        register(_declared(games=games))


@pytest.mark.parametrize("options", [None, {"decks"}, frozenset({"decks", "no-such-rule"})])
def test_a_check_naming_unknown_house_rules_or_not_a_frozenset_is_refused(options) -> None:
    with pytest.raises(RegistrationError, match="options must be a frozenset of house rules"):
        register(_declared(options=options))


def test_a_net_is_worded_as_owed_lost_or_pushed() -> None:
    assert [net_text(Decimal(text)) for text in ("0.50", "1", "15", "0", "-0.50", "-20")] == [
        "be paid 0.50", "be paid 1.00", "be paid 15.00", "be returned in full (push)",
        "lose 0.50", "lose 20.00"]
