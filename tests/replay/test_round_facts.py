"""Facts the replay records so that the checks' runner, the checks and the tally need no pass
over a round's statements (issue 27, pass seven): each held, on every test case, sample log
and simulated rounds with faults, to what the statements themselves say."""

from __future__ import annotations

import copy
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest

from auditor import blackjack
from auditor import events as ev
from auditor.checks.runner import round_holds
from auditor.replay import switch as switch_facts
from auditor.replay.engine import UNRECORDED_KINDS
from auditor.replay.outcomes import Expected, _expected, _first_four, seat_first_four
from auditor.source import SourceFile
from auditor.tally import Tally
from tests.helpers.views import every_view, views_of


def _simulated_views(tmp_path: Path, game: str, options: dict | None = None):
    from auditor.simulate import simulate, table_spec

    simulate(tmp_path, table_spec(game, table_id="T1", options=options or {}), rounds=300,
             seed=f"round-facts-{game}", faults=0.25)
    for path in sorted(tmp_path.glob("*.bjh")):
        source = SourceFile(str(path))
        source.open_check()
        yield from views_of(source.lines())


@pytest.fixture(scope="module")
def views(tmp_path_factory: pytest.TempPathFactory) -> list:
    found = list(every_view())
    for game, options in (("standard", {"surrender": "late"}), ("switch", {}),
                          ("db21", {"db21.paytable": "1"}), ("ladies", {}), ("tensticks", {})):
        found.extend(_simulated_views(tmp_path_factory.mktemp(game), game, options))
    return found


def _dealt(view) -> dict[str, list[str]]:
    """Every target's cards by its `deal` statements, in order."""
    dealt: dict[str, list[str]] = {}
    for event in view.events:
        if type(event) is ev.Deal:
            dealt.setdefault(event.target, []).append(event.card)
    return dealt


def test_kinds_are_the_round_statement_types_but_the_four_of_the_loop(views) -> None:
    """The runner picks checks by `RoundView.kinds`: it must be every statement type of the
    round but deal, bet, stand and settle, so that the pick is round_holds' own."""
    assert len(views) > 2000
    for view in views:
        assert view.kinds == set(map(type, view.events)) - UNRECORDED_KINDS, view.round_id
        marks = view.wager_marks | ({"problem"} if view.problems else set())
        assert (view.kinds | marks) == round_holds(view) - UNRECORDED_KINDS
    assert any(ev.Hit in view.kinds for view in views)
    assert any(ev.Split in view.kinds for view in views)


def test_first_two_dealt_are_the_first_two_deal_statements(views) -> None:
    """A hand's and the dealer's `first_dealt` and `second_dealt` (the tally's game math and
    the super match read them) are the first two cards of their `deal` statements, whatever
    splits, switches and trades did to `cards` since."""
    hands = changed = 0
    for view in views:
        dealt = _dealt(view)
        for name, hand in view.hands.items():
            cards = dealt.get(name, [])
            assert [hand.first_dealt, hand.second_dealt] == [*cards, None, None][:2]
            assert hand.dealt == len(cards)
            hands += 1
            changed += len(cards) >= 2 and [c.card for c in hand.cards[:2]] != cards[:2]
        cards = dealt.get("dealer", [])
        assert [view.dealer.first_dealt, view.dealer.second_dealt] == [*cards, None, None][:2]
    assert hands > 4000 and changed > 50  # some hands' cards changed after the deal


def test_the_dealer_total_kept_is_the_total_of_the_cards(views) -> None:
    """The tally reads the dealer's drawing rule from the total and softness the replay
    keeps, not from the cards: they must agree, trades and burned cards included."""
    for view in views:
        dealer = view.dealer
        assert (dealer.total, dealer.soft) == blackjack.total(dealer.card_codes)


def test_the_super_match_reads_the_four_cards_dealt(views) -> None:
    """The super match's result reads each hand's first two dealt; a finding's words list
    them in deal order, from the statements: the same four cards."""
    seats = 0
    for view in views:
        for wager in view.wagers:
            if wager.kind == "supermatch":
                dealt = _dealt(view)
                ordered = seat_first_four(view, wager.seat)
                assert Counter(_first_four(view, wager.seat)) == Counter(ordered)
                h1, h2 = dealt.get(wager.seat + "h1", []), dealt.get(wager.seat + "h2", [])
                assert Counter(ordered) == Counter(h1[:2] + h2[:2])
                seats += 1
    assert seats > 300


def test_shuffled_in_round_and_the_switch_shoe_facts(views) -> None:
    """`shuffled_in_round` says a round holds a shuffle; the Switch facts' shuffle and cut,
    told without a pass where the round can change neither, are the pass's."""
    inside = 0
    for view in views:
        assert view.shuffled_in_round == (ev.Shuffle in map(type, view.events))
        inside += view.shuffled_in_round
        walked = copy.copy(view)
        walked.shuffled_in_round = True  # the pass over the round's first statements
        assert switch_facts._shuffled_and_cut(view) == switch_facts._shuffled_and_cut(walked)
    assert inside


def test_an_expected_result_made_in_place_is_the_constructed_one() -> None:
    for args in (("win", Decimal("7.5"), "pays"), ("lose", Decimal(-5), ("{} to {}", 1, 2))):
        made, built = _expected(*args), Expected(*args)
        assert type(made) is Expected
        assert made == built and repr(made) == repr(built)


def test_a_tally_absorbed_adds_the_round_and_pair_counts() -> None:
    first, second = Tally(), Tally()
    first.rounds = {("D1", "2026-11-20 18", "swing"): 3}
    second.rounds = {("D1", "2026-11-20 18", "swing"): 2, ("D2", "2026-11-20 19", "swing"): 1}
    first.pairs = {("D1", "P1", "2026-11-20 18"): 1}
    second.pairs = {("D1", "P1", "2026-11-20 18"): 4}
    first.absorb(second)
    assert first.rounds == {("D1", "2026-11-20 18", "swing"): 5,
                            ("D2", "2026-11-20 19", "swing"): 1}
    assert first.pairs == {("D1", "P1", "2026-11-20 18"): 5}
