"""The statistical fast path: dealer hands and first-four cards, dealt by the game's own code.

Writing and auditing a million rounds takes minutes; these samplers deal only what a
statistic needs, through the same `Shoe.draw` and `play_dealer` (and `super_match_kind`)
that the round builder uses, from a freshly shuffled shoe for every sample. The model is
therefore exactly "the first cards off a freshly shuffled N-deck shoe": the up card, the
hole card and the dealer's draws, or a seat's four cards (auditor/trends/odds.py computes the
same quantities exactly). In a full game the shoe is dealt down to the cut card, so later
rounds see a depleted shoe; averaged over a shoe that changes the odds only by the tiny
cut-card effect, which the fast path deliberately leaves out.
"""

from __future__ import annotations

import random
from collections import Counter

from auditor.simulate.cards import VALUE, Shoe, is_two_card_21, total
from auditor.simulate.pays import play_dealer, super_match_kind


def dealer_finals(decks: int, hits_soft_17: bool, samples: int,
                  seed: str | int = 1) -> dict[int, Counter]:
    """Per up card value (1 = ace, 10 = tens), how the dealer's hand ended: `17`…`21`,
    `blackjack` or `bust`."""
    shoe = Shoe(decks, random.Random(f"dealer:{seed}"))
    finals: dict[int, Counter] = {value: Counter() for value in range(1, 11)}
    draw = shoe.draw
    for _ in range(samples):
        shoe.shuffle()
        cards = play_dealer([draw(), draw()], draw, hits_soft_17)
        if is_two_card_21(cards):
            final = "blackjack"
        else:
            count = total(cards)[0]
            final = "bust" if count > 21 else str(count)
        finals[VALUE[cards[0][0]]][final] += 1
    return finals


def super_match_counts(decks: int, samples: int, seed: str | int = 1) -> Counter:
    """How often a seat's first four cards (h1 and h2, dealt as the game deals them, the
    dealer's up card between the passes) hold each super match hand (`None`: no pair)."""
    shoe = Shoe(decks, random.Random(f"supermatch:{seed}"))
    counts: Counter = Counter()
    draw = shoe.draw
    for _ in range(samples):
        shoe.shuffle()
        first, second = draw(), draw()
        draw()  # the dealer's up card
        counts[super_match_kind([first, second, draw(), draw()])] += 1
    return counts
