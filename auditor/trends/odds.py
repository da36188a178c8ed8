"""Exact probabilities of the game: what the simulator is tested against
(tests/simulate/test_odds.py) and what `auditor trends` compares each dealer's cards with
(auditor/trends/game_math.py).

The model, stated once: the dealer's up card, hole card and every card the dealer draws
are the first cards off a freshly shuffled shoe of `decks` complete decks (dealt without
replacement), or off an infinite shoe (`decks=None`: every card independent, a ten-value
card 4/13, any other rank 1/13). The dealer draws below 17, and at a soft 17 under H17;
an ace counts eleven where that keeps the hand at 21 or under. The distribution is of the
dealer's final hand given the up card, with no peek and no conditioning on the hole card:
a two-card 21 is `blackjack`, a total over 21 is `bust`. A seat's super match hand is its
first four cards off a fresh shoe: any four distinct positions of a uniformly shuffled
shoe hold a uniformly random 4-card subset, so the odds are counts of subsets. A seat's
Lucky Ladies category is read the same way from its first two cards (counts of pairs).

This is the model of the simulator's fast path (auditor/simulate/sampling.py), which deals
every sample from a fresh shoe through the game's own dealing code. In a record the cards
come from part-dealt shoes; since a uniformly shuffled shoe's cards are exchangeable, the
chance of a given card at a given place is the same, which is why `trends` can hold a
dealer's cards to these values. Everything here is exact rational arithmetic (`Fraction`).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb

FINALS = ("17", "18", "19", "20", "21", "blackjack", "bust")
VALUES = tuple(range(1, 11))  # 1 = ace, 10 = ten, jack, queen, king


def shoe_counts(decks: int) -> tuple[int, ...]:
    """Cards of each value 1..10 in a shoe: four of each rank per deck, 16 ten-values."""
    return tuple(16 * decks if value == 10 else 4 * decks for value in VALUES)


def _final(hard: int, ace: bool, cards: int) -> str | None:
    """The dealer's final hand if the dealer stands here, else None (the dealer draws)."""
    best = hard + 10 if ace and hard + 10 <= 21 else hard
    if best > 21:
        return "bust"
    if cards == 2 and best == 21:
        return "blackjack"
    return None if best < 17 else str(best)


def _must_draw(hard: int, ace: bool, hits_soft_17: bool) -> bool:
    soft = ace and hard + 10 <= 21
    best = hard + 10 if soft else hard
    return best < 17 or (best == 17 and soft and hits_soft_17)


@cache
def _finite(hard: int, ace: bool, cards: int, counts: tuple[int, ...],
            hits_soft_17: bool) -> tuple[tuple[str, Fraction], ...]:
    if cards >= 2 and not _must_draw(hard, ace, hits_soft_17):
        return ((_final(hard, ace, cards), Fraction(1)),)
    remaining = sum(counts)
    result: dict[str, Fraction] = {}
    for index, value in enumerate(VALUES):
        if counts[index] == 0:
            continue
        weight = Fraction(counts[index], remaining)
        rest = (*counts[:index], counts[index] - 1, *counts[index + 1:])
        for final, chance in _finite(hard + value, ace or value == 1, cards + 1, rest,
                                     hits_soft_17):
            result[final] = result.get(final, Fraction(0)) + weight * chance
    return tuple(sorted(result.items()))


@cache
def _infinite(hard: int, ace: bool, cards: int,
              hits_soft_17: bool) -> tuple[tuple[str, Fraction], ...]:
    if cards >= 2 and not _must_draw(hard, ace, hits_soft_17):
        return ((_final(hard, ace, cards), Fraction(1)),)
    result: dict[str, Fraction] = {}
    for value in VALUES:
        weight = Fraction(4 if value == 10 else 1, 13)
        for final, chance in _infinite(hard + value, ace or value == 1, cards + 1,
                                       hits_soft_17):
            result[final] = result.get(final, Fraction(0)) + weight * chance
    return tuple(sorted(result.items()))


def dealer_final_distribution(up: int, decks: int | None,
                              hits_soft_17: bool) -> dict[str, Fraction]:
    """P(final hand | up card value) for the model above; the values sum to exactly 1."""
    if decks is None:
        found = dict(_infinite(up, up == 1, 1, hits_soft_17))
    else:
        counts = list(shoe_counts(decks))
        counts[up - 1] -= 1
        found = dict(_finite(up, up == 1, 1, tuple(counts), hits_soft_17))
    return {final: found.get(final, Fraction(0)) for final in FINALS}


def up_card_probability(up: int) -> Fraction:
    """P(up card value) off a fresh shoe (the same for every number of decks)."""
    return Fraction(4 if up == 10 else 1, 13)


def super_match_probabilities(decks: int) -> dict[str | None, Fraction]:
    """P(hand) for four cards off a fresh shoe of 13 ranks with 4 × decks cards each.

    Keys as the simulator names them: `four`, `two pair`, `three`, `pair`, None (no pair).
    """
    per_rank = 4 * decks
    subsets = comb(13 * per_rank, 4)
    ways = {
        "four": 13 * comb(per_rank, 4),
        "three": 13 * comb(per_rank, 3) * 12 * per_rank,
        "two pair": comb(13, 2) * comb(per_rank, 2) ** 2,
        "pair": 13 * comb(per_rank, 2) * comb(12, 2) * per_rank ** 2,
        None: comb(13, 4) * per_rank ** 4,
    }
    return {hand: Fraction(count, subsets) for hand, count in ways.items()}


def dealer_bust_without_natural(up: int, decks: int, hits_soft_17: bool) -> Fraction:
    """P(the dealer goes over 21 | up card, no two-card 21): the hands a dealer plays out."""
    found = dealer_final_distribution(up, decks, hits_soft_17)
    return found["bust"] / (1 - found["blackjack"])


def dealer_natural(up: int, decks: int) -> Fraction:
    """P(a two-card 21 | up card): the hole card completes it."""
    return dealer_final_distribution(up, decks, False)["blackjack"]


def player_natural(decks: int) -> Fraction:
    """P(a hand's first two cards are an ace and a ten-value card)."""
    counts = shoe_counts(decks)
    cards = 52 * decks
    return 2 * Fraction(counts[0], cards) * Fraction(counts[9], cards - 1)


def ladies_probabilities(decks: int) -> dict[str | None, Fraction]:
    """P(category) of a seat's first two cards off a fresh shoe, for the Lucky Ladies pay
    table of the deck count (20:18:15:30.04(4)); keys as auditor/blackjack.py names them:
    `top`, `queens`, `matched`, `suited`, `any`, None (no 20).

    With more than one deck (tables A, B) `queens` is two queens of hearts and `matched`
    two identical cards (rank and suit); with one deck (table C) `queens` is any two queens
    and `matched` a paired 20 (two tens, jacks or kings). `top` is the queens with the
    dealer's first two cards a blackjack, dealt from the shoe without the seat's two: an
    ace and a ten-value among the 52·decks − 2 cards left, of which 16·decks − 2 ten-values
    (both queens are out). Only the highest category is counted. Every unordered pair of
    the shoe's cards is equally likely: the odds are counts of pairs.
    """
    per_card = decks  # copies of each card (rank and suit)
    cards = 52 * decks
    tens = 16 * decks  # T, J, Q, K of four suits
    aces = nines = 4 * decks
    pairs = comb(cards, 2)
    if decks == 1:
        queens = comb(4 * per_card, 2)  # any two queens
        matched = 3 * comb(4 * per_card, 2)  # two tens, two jacks or two kings
        # same suit, different ranks: four suits, two of the four ten-value ranks each
        suited_tens = 4 * comb(4, 2) * per_card ** 2
    else:
        queens = comb(per_card, 2)  # two queens of hearts
        matched = 15 * comb(per_card, 2)  # the other fifteen ten-value cards, in pairs
        # same suit, not the same card: per suit, pairs of its 4·decks ten-values
        suited_tens = 4 * (comb(4 * per_card, 2) - 4 * comb(per_card, 2))
    suited_ace_nine = 4 * per_card * per_card
    twenty = comb(tens, 2) + aces * nines
    suited = suited_tens + suited_ace_nine
    rest = cards - 2
    dealer_blackjack = Fraction(aces * (tens - 2), comb(rest, 2))
    found: dict[str | None, Fraction] = {
        "top": Fraction(queens, pairs) * dealer_blackjack,
        "queens": Fraction(queens, pairs) * (1 - dealer_blackjack),
        "matched": Fraction(matched, pairs),
        "suited": Fraction(suited, pairs),
        "any": Fraction(twenty - queens - matched - suited, pairs),
    }
    found[None] = 1 - sum(found.values())
    return found


def ladies_win(decks: int) -> Fraction:
    """P(a Lucky Ladies wager wins): the seat's first two cards total 20 (A 9 included)."""
    return 1 - ladies_probabilities(decks)[None]
