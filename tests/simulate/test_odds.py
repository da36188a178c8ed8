"""The simulator's game against exact odds: dealer results by up card and super match hands.

Samples come from the simulator's fast path (auditor/simulate/sampling.py): dealer hands
and first-four cards dealt by the game's own code from a freshly shuffled shoe each time,
the model that auditor/trends/odds.py computes exactly. Every frequency must lie within three
standard errors of its exact probability.

Runtime on the project's machine: the default run deals one million dealer hands (six
decks, S17, about 4 s) and one million super match hands (six decks, about 6 s). The other
shoes and rules, a million samples each (about 1 to 1.5 minutes in all), run with
`BJH_SLOW_TESTS=1`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

import pytest

from auditor.simulate.sampling import dealer_finals, super_match_counts
from auditor.trends.odds import (
    FINALS,
    dealer_final_distribution,
    shoe_counts,
    super_match_probabilities,
    up_card_probability,
)

SAMPLES = 1_000_000
SLOW = pytest.mark.slow  # a million samples per configuration


def within_three_standard_errors(hits: int, trials: int, exact: Fraction) -> tuple[bool, float]:
    p = float(exact)
    error = math.sqrt(p * (1 - p) / trials)
    z = (hits / trials - p) / error if error else float(hits != trials * p)
    return abs(z) <= 3, z


# ---- the exact helpers, checked independently ----

@pytest.mark.parametrize("decks", [None, 1, 2, 6, 8])
@pytest.mark.parametrize("hits_soft_17", [False, True])
def test_dealer_distributions_sum_to_one(decks: int | None, hits_soft_17: bool) -> None:
    for up in range(1, 11):
        found = dealer_final_distribution(up, decks, hits_soft_17)
        assert set(found) == set(FINALS)
        assert sum(found.values()) == 1
        assert all(p >= 0 for p in found.values())


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_dealer_blackjack_is_the_hole_card_chance(decks: int) -> None:
    """A blackjack is a ten under an ace or an ace under a ten: counted from the shoe."""
    cards = 52 * decks - 1  # the up card is out
    tens, aces = shoe_counts(decks)[9], shoe_counts(decks)[0]
    assert dealer_final_distribution(1, decks, False)["blackjack"] == Fraction(tens, cards)
    assert dealer_final_distribution(10, decks, True)["blackjack"] == Fraction(aces, cards)
    assert dealer_final_distribution(6, decks, False)["blackjack"] == 0


def test_soft_17_rule_matters_only_where_a_soft_17_can_arise() -> None:
    for up in (7, 8, 9, 10):  # a soft 17 is an ace and cards worth 6: never above a 6 up
        stand = dealer_final_distribution(up, 6, False)
        hit = dealer_final_distribution(up, 6, True)
        assert stand == hit
    assert dealer_final_distribution(6, 6, True)["bust"] > dealer_final_distribution(
        6, 6, False)["bust"]


def test_a_large_shoe_tends_to_the_infinite_shoe() -> None:
    for up in range(1, 11):
        big = dealer_final_distribution(up, 400, False)
        infinite = dealer_final_distribution(up, None, False)
        for final in FINALS:
            assert abs(float(big[final] - infinite[final])) < 5e-4


@pytest.mark.parametrize("decks", [6, 8])
def test_super_match_odds_match_an_enumeration(decks: int) -> None:
    """Every ordered draw of four ranks, weighted without replacement, classified afresh."""
    per_rank, total = 4 * decks, 52 * decks
    found: dict[str | None, Fraction] = {}
    for ranks in product(range(13), repeat=4):
        weight = Fraction(1)
        drawn: dict[int, int] = {}
        for position, rank in enumerate(ranks):
            weight *= Fraction(per_rank - drawn.get(rank, 0), total - position)
            drawn[rank] = drawn.get(rank, 0) + 1
        shape = sorted(drawn.values(), reverse=True)
        hand = {(4,): "four", (3, 1): "three", (2, 2): "two pair", (2, 1, 1): "pair"}.get(
            tuple(shape))
        found[hand] = found.get(hand, Fraction(0)) + weight
    assert found == super_match_probabilities(decks)


# ---- the simulator against them ----

def check_dealer(decks: int, hits_soft_17: bool) -> None:
    finals = dealer_finals(decks, hits_soft_17, SAMPLES, seed=f"{decks}-{hits_soft_17}")
    dealt = sum(sum(c.values()) for c in finals.values())
    assert dealt == SAMPLES
    failures = []
    for up in range(1, 11):
        counts = finals[up]
        trials = sum(counts.values())
        ok, z = within_three_standard_errors(trials, SAMPLES, up_card_probability(up))
        if not ok:
            failures.append(f"up {up}: {trials} up cards, z = {z:.2f}")
        exact = dealer_final_distribution(up, decks, hits_soft_17)["bust"]
        ok, z = within_three_standard_errors(counts["bust"], trials, exact)
        if not ok:
            failures.append(f"up {up}: bust {counts['bust'] / trials:.5f} against "
                            f"{float(exact):.5f}, z = {z:.2f}")
    assert not failures, "; ".join(failures)


def check_super_match(decks: int) -> None:
    counts = super_match_counts(decks, SAMPLES, seed=decks)
    failures = []
    for hand, exact in super_match_probabilities(decks).items():
        ok, z = within_three_standard_errors(counts[hand], SAMPLES, exact)
        if not ok:
            failures.append(f"{hand}: {counts[hand] / SAMPLES:.6f} against {float(exact):.6f}, "
                            f"z = {z:.2f}")
    assert not failures, "; ".join(failures)


def test_dealer_bust_by_up_card_six_decks_s17() -> None:
    check_dealer(6, False)


def test_super_match_six_decks() -> None:
    check_super_match(6)


@SLOW
@pytest.mark.parametrize(("decks", "hits_soft_17"),
                         [(1, False), (1, True), (2, False), (2, True), (6, True), (8, False),
                          (8, True)])
def test_dealer_bust_by_up_card_other_shoes(decks: int, hits_soft_17: bool) -> None:
    check_dealer(decks, hits_soft_17)


@SLOW
def test_super_match_eight_decks() -> None:
    check_super_match(8)


# ---- Lucky Ladies (20:18:15:30.04): the first two cards of a seat ----

def _ladies_by_enumeration(decks: int) -> dict[str | None, Fraction]:
    """Every ordered pair of the shoe's cards (by rank and suit, weighted by its copies),
    classified by the auditor's own rule (auditor/blackjack.py), the dealer's blackjack
    counted from the cards left: an independent count of what the closed form computes."""
    from auditor.blackjack import RANKS, SUITS, VALUE, ladies_category

    cards = [rank + suit for rank in RANKS for suit in SUITS]
    total = 52 * decks
    found: dict[str | None, Fraction] = {}
    for first in cards:
        for second in cards:
            weight = decks * (decks - 1 if first == second else decks)
            if not weight:
                continue
            chance = Fraction(weight, total * (total - 1))
            aces = 4 * decks - [first[0], second[0]].count("A")
            tens = 16 * decks - sum(VALUE[c[0]] == 10 for c in (first, second))
            blackjack = Fraction(2 * aces * tens, (total - 2) * (total - 3))
            for dealer, share in ((True, blackjack), (False, 1 - blackjack)):
                category = ladies_category([first, second], decks == 1, dealer)
                found[category] = found.get(category, Fraction(0)) + chance * share
    return found


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_ladies_categories_match_an_enumeration_of_the_shoe(decks: int) -> None:
    from auditor.trends.odds import ladies_probabilities, ladies_win

    exact = ladies_probabilities(decks)
    assert exact == _ladies_by_enumeration(decks)
    assert sum(exact.values()) == 1 and all(p > 0 for p in exact.values())
    # a 20: two ten-values or an ace and a nine, of 52·decks cards
    cards, tens = 52 * decks, 16 * decks
    pairs = Fraction(tens * (tens - 1) // 2 + 16 * decks * decks, cards * (cards - 1) // 2)
    assert ladies_win(decks) == pairs


def test_ladies_odds_known_values() -> None:
    """Worked by hand: one deck, any two queens 6 of 1,326 pairs; eight decks, two queens
    of hearts C(8,2) = 28 of C(416,2) = 86,320."""
    from auditor.trends.odds import ladies_probabilities

    one, eight = ladies_probabilities(1), ladies_probabilities(8)
    assert one["top"] + one["queens"] == Fraction(6, 1326)
    assert eight["top"] + eight["queens"] == Fraction(28, 86320)
    # the dealer's blackjack with both queens out of one deck: 4 aces × 14 tens of C(50,2)
    assert one["top"] == Fraction(6, 1326) * Fraction(4 * 14, 1225)
