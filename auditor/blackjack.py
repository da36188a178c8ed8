"""What blackjack is: card values, hand totals, the dealer's drawing rule and the pay tables."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

RANKS = "A23456789TJQK"
SUITS = "cdhs"
VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
         "T": 10, "J": 10, "Q": 10, "K": 10}
BONUS_CARD = "Tc"  # Ten sticks 21: the ten of clubs carries the bonus logo (30.02(2))


def value(card: str) -> int:
    """The count of a card, an ace as one."""
    return VALUE[card[0]]


def total(cards: Iterable[str]) -> tuple[int, bool]:
    """(best total, soft): an ace counts eleven when that does not take the hand over 21."""
    return best_total(*hard_total(cards))


def hard_total(cards: Iterable[str]) -> tuple[int, bool]:
    """(the count with every ace as one, whether there is an ace)."""
    count = 0
    aces = False
    for card in cards:
        count += VALUE[card[0]]
        aces = aces or card[0] == "A"
    return count, aces


def best_total(hard: int, has_ace: bool) -> tuple[int, bool]:
    """(best total, soft) from the hard count: one ace counts eleven if the hand stays 21
    or under."""
    if has_ace and hard <= 11:
        return hard + 10, True
    return hard, False


def is_two_card_21(cards: list[str]) -> bool:
    return len(cards) == 2 and total(cards)[0] == 21


def dealer_must_draw(cards: Iterable[str], hits_soft_17: bool) -> bool:
    """Under 17 the dealer draws; at a soft 17 only where the house rule says so (:26)."""
    count, soft = total(cards)
    return count < 17 or (count == 17 and soft and hits_soft_17)


# ---- pay tables ----

BLACKJACK_ODDS = {"3:2": Decimal("1.5"), "6:5": Decimal("1.2"), "1:1": Decimal(1)}


def owed_blackjack_odds(declared: str, decks: int) -> str:
    """The odds a blackjack is owed: the declared odds, but never under 3 to 2, or under
    6 to 5 in a single-deck game (20:18:15:06)."""
    floor = "6:5" if decks == 1 else "3:2"
    return declared if BLACKJACK_ODDS[declared] >= BLACKJACK_ODDS[floor] else floor

# 20:18:15:30.10(12): the DB21 win pays by the dealer's original up card.
DB21_PAY_TABLES: dict[int, dict[str, int]] = {
    1: {"A": 10, "T": 4, "789": 2, "23456": 1},
    2: {"A": 15, "T": 4, "789": 2, "23456": 1},
    3: {"A": 2, "T": 2, "789": 2, "23456": 2},
    4: {"A": 4, "T": 2, "789": 4, "23456": 1},
}


def db21_odds(pay_table: int, up_card: str) -> int:
    rank = up_card[0]
    if rank == "A":
        column = "A"
    elif VALUE[rank] == 10:
        column = "T"
    else:
        column = "789" if rank in "789" else "23456"
    return DB21_PAY_TABLES[pay_table][column]


# 20:18:15:30.09(18): super match by deck count.
SUPER_MATCH_SCHEDULE: dict[int, dict[str, int]] = {
    6: {"four of a kind": 40, "two pair": 8, "three of a kind": 5, "pair": 1},
    8: {"four of a kind": 50, "two pair": 7, "three of a kind": 5, "pair": 1},
}


def super_match(cards: list[str]) -> str | None:
    """The highest super match hand in four cards, matched by rank (30.09(1), (6)), or None."""
    ranks = [c[0] for c in cards]
    counts = sorted(map(ranks.count, set(ranks)), reverse=True)
    if counts[0] == 4:
        return "four of a kind"
    if counts[:2] == [2, 2]:
        return "two pair"
    if counts[0] == 3:
        return "three of a kind"
    if counts[0] == 2:
        return "pair"
    return None


# 20:18:15:30.04(4): Lucky Ladies, the first two cards of a seat totalling 20. Categories,
# highest first; only the highest a hand meets is paid.
LADIES_CATEGORIES = ("top", "queens", "matched", "suited", "any")
LADIES_PAY_TABLES: dict[str, dict[str, int]] = {
    "A": {"top": 1000, "queens": 125, "matched": 19, "suited": 9, "any": 4},
    "B": {"top": 1000, "queens": 200, "matched": 25, "suited": 10, "any": 4},
    "C": {"top": 250, "queens": 25, "matched": 9, "suited": 6, "any": 3},
}
_LADIES_NAMES = {
    "multi": {"top": "a queen of hearts pair with a dealer blackjack",
              "queens": "a queen of hearts pair", "matched": "a matched 20 (two identical cards)",
              "suited": "a suited 20", "any": "a 20"},
    "single": {"top": "a pair of queens with a dealer blackjack", "queens": "a pair of queens",
               "matched": "a paired 20 (two tens, two jacks or two kings)",
               "suited": "a suited 20", "any": "a 20"},
}


def ladies_pay_table(declared: str, decks: int) -> str | None:
    """The declared pay table where the deck count allows it (`A`, `B` with more than one
    deck, `C` with one), else None: the odds then cannot be known."""
    return declared if (declared == "C") == (decks == 1) else None


def ladies_twenty(cards: list[str]) -> bool:
    """Two cards totalling 20, an ace counting eleven (A 9 is a 20)."""
    return len(cards) == 2 and total(cards)[0] == 20


def ladies_category(cards: list[str], single_deck: bool, dealer_blackjack: bool) -> str | None:
    """The highest Lucky Ladies category two cards meet, or None (no 20).

    With more than one deck (tables A, B): two queens of hearts, then a matched 20 (same
    rank and suit); with one deck (table C): two queens of any suit, then a paired 20 (two
    cards of one rank: tens, jacks or kings). Then a suited 20, then any 20."""
    if not ladies_twenty(cards):
        return None
    first, second = cards
    if single_deck:
        queens = first[0] == second[0] == "Q"
        matched = first[0] == second[0]
    else:
        queens = first == second == "Qh"
        matched = first == second
    if queens:
        return "top" if dealer_blackjack else "queens"
    if matched:
        return "matched"
    return "suited" if first[1] == second[1] else "any"


def ladies_category_name(category: str, single_deck: bool) -> str:
    return _LADIES_NAMES["single" if single_deck else "multi"][category]


def cents_match(actual: Decimal, expected: Decimal) -> bool:
    """A payout is right if it is the exact amount or that amount rounded to the cent either way.

    Reading: a casino cannot pay fractions of a cent, so 3 to 2 on $5.05 (7.575) is right
    as 7.57 or 7.58.
    """
    if actual == expected:
        return True
    return abs(actual - expected) < Decimal("0.01") and actual == actual.quantize(Decimal("0.01"))
