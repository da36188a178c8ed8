"""A replayed round seen under another table the header could describe.

Where the header leaves a house rule unknown (auditor/unknown_rules.py), a check is judged
under each value the rule could hold. The round is replayed once, under the table as
configured: what the record shows (cards, hands, decisions, wagers and their settlements)
does not depend on the house rules. What does is worked out again for each other table:
what each wager should have paid and the dealer's hand without a card drawn on a standing
total (outcomes.py), and the games' derived facts (the Lucky Ladies facts read the deck
count and `peek`). tests/checks/test_check_options.py holds `view_under` to a full replay under
the other table, for every check, over every test case and sample log.
"""

from __future__ import annotations

import copy

from auditor.config import TableConfig
from auditor.replay.outcomes import expect_all
from auditor.replay.view import RoundView, Wager

VIEW_OPTIONS = frozenset({"soft17", "blackjack", "decks", "db21_paytable", "ladies_paytable",
                          "peek"})
"""The house rules (HouseRules fields, and `decks`) the replay itself reads: the expected
results (`Wager.expected`, `expected_burned`), `RoundView.burned_dealer` and the derived
facts of a game (`RoundView.derived`). Under a table that differs only in others, the
round's view is the same but for its `config`."""


def option_value(config: TableConfig, field: str) -> object:
    """A house rule's value in a table: a HouseRules field, or `decks`."""
    return config.decks if field == "decks" else getattr(config.rules, field)


def same_view(one: TableConfig, other: TableConfig) -> bool:
    """Whether a round replays to the same facts under both tables (VIEW_OPTIONS alike)."""
    return all(option_value(one, name) == option_value(other, name) for name in VIEW_OPTIONS)


def view_under(view: RoundView, config: TableConfig) -> RoundView:
    """The round as a replay under `config` records it, from its replay under another table
    of the same game and seats. The recorded facts are shared (checks never change a view);
    the expected results are worked out again where a house rule they read differs."""
    other = copy.copy(view)
    other.config = config
    if same_view(view.config, config):
        return other
    other.wagers = [_unjudged(wager) for wager in view.wagers]
    other.burned_dealer = None
    other.derived = {}  # derived again on first use (switch.of, ladies.of, tensticks.of)
    expect_all(other)
    return other


def _unjudged(wager: Wager) -> Wager:
    """A copy of the wager, its recorded facts shared, its expected results not yet known."""
    fresh = copy.copy(wager)
    fresh.expected = fresh.expected_burned = None
    return fresh
