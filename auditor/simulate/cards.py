"""Cards, hand totals and the shoe the simulator deals from.

The simulator keeps its own small model of the game rather than importing the auditor's
(auditor/blackjack.py, replay/outcomes.py): its records are the oracle the auditor is
tested against, so the two must not share a mistake.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

RANKS = "A23456789TJQK"
SUITS = "cdhs"
VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
         "T": 10, "J": 10, "Q": 10, "K": 10}
BONUS_CARD = "Tc"  # Ten sticks 21


def total(cards: Iterable[str]) -> tuple[int, bool]:
    """(best total, soft): one ace counts eleven when that keeps the hand at 21 or under."""
    count = 0
    ace = False
    for card in cards:
        rank = card[0]
        count += VALUE[rank]
        if rank == "A":
            ace = True
    if ace and count <= 11:
        return count + 10, True
    return count, False


def is_two_card_21(cards: list[str]) -> bool:
    return len(cards) == 2 and total(cards)[0] == 21


def dealer_must_draw(cards: Iterable[str], hits_soft_17: bool) -> bool:
    count, soft = total(cards)
    return count < 17 or (count == 17 and soft and hits_soft_17)


def ten_value(card: str) -> bool:
    return VALUE[card[0]] == 10


class Shoe:
    """An N-deck shoe, shuffled by a Fisher–Yates shuffle done lazily, one card at a time.

    `shuffle()` puts every card back; each `draw()` then swaps a uniformly chosen card of
    the undealt part to the front and deals it. The order dealt is exactly that of a full
    Fisher–Yates shuffle drawn from the top, so every sequence of cards off a freshly
    shuffled shoe is equally likely, but a shuffle costs nothing: the statistical tests
    can deal a million hands from a million fresh shoes. (`int(random() * n)` stands in
    for `randrange(n)`: its bias is below one part in 2**44 for n <= 416.)

    The cut card sits at `cut_position`: it comes out when the card at that position is
    about to be dealt.
    """

    def __init__(self, decks: int, rng: random.Random) -> None:
        self.decks = decks
        self.full = [rank + suit for _ in range(decks) for rank in RANKS for suit in SUITS]
        self.cards = list(self.full)
        self.size = len(self.cards)
        self.position = 0
        self.cut_position = self.size
        self.cut_out = False
        self.rng = rng

    @property
    def remaining(self) -> int:
        return self.size - self.position

    def shuffle(self) -> None:
        # Fisher–Yates gives a uniform order from any starting order of the same cards, so
        # the cards stay as they lie; only a shoe cut short by `shuffle_discards` is refilled.
        if self.size != len(self.full):
            self.cards = list(self.full)
            self.size = len(self.cards)
        self.position = 0
        self.cut_position = self.size
        self.cut_out = False

    def place_cut_card(self, penetration: float) -> None:
        self.cut_position = max(1, min(self.size - 1, int(self.size * penetration)))
        self.cut_out = False

    def draw(self) -> str:
        cards = self.cards
        index = self.position
        chosen = index + int(self.rng.random() * (self.size - index))
        cards[index], cards[chosen] = cards[chosen], cards[index]
        self.position = index + 1
        return cards[index]

    def cut_card_next(self) -> bool:
        """Whether the next card to deal is the one behind the cut card (still in)."""
        return not self.cut_out and self.position >= self.cut_position

    def cut_card_due(self) -> bool:
        """True once, when the next card to deal is the one behind the cut card."""
        if not self.cut_out and self.position >= self.cut_position:
            self.cut_out = True
            return True
        return False

    def shuffle_discards(self, in_play: list[str]) -> None:
        """The shoe ran out mid-round: every card not on the table is shuffled back in."""
        rest = Counter(self.full)
        rest.subtract(in_play)
        self.cards = list(in_play) + list(rest.elements())
        self.size = len(self.cards)
        self.position = len(in_play)
        self.cut_position = self.size  # no cut card in the reshuffled discards
        self.cut_out = True

    def snapshot(self) -> tuple:
        return (list(self.cards), self.size, self.position, self.cut_position, self.cut_out)

    def restore(self, state: tuple) -> None:
        cards, self.size, self.position, self.cut_position, self.cut_out = state
        self.cards = list(cards)
