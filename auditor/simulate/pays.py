"""What each wager pays and how the dealer draws: functions of the cards and the house's
pay tables alone (the round in game.py, the statistical fast path in sampling.py and the
faults all pay by them). Amounts are whole cents."""

from __future__ import annotations

from collections.abc import Callable

from auditor.simulate.cards import VALUE, dealer_must_draw, total

BLACKJACK_ODDS = {"3:2": (3, 2), "6:5": (6, 5), "1:1": (1, 1)}
DB21_PAY_TABLES = {1: (10, 4, 2, 1), 2: (15, 4, 2, 1), 3: (2, 2, 2, 2), 4: (4, 2, 4, 1)}
SUPER_MATCH = {6: {"four": 40, "two pair": 8, "three": 5, "pair": 1},
               8: {"four": 50, "two pair": 7, "three": 5, "pair": 1}}
# 20:18:15:30.04(4): Lucky Ladies odds by pay table, highest category first
LADIES = {"A": {"top": 1000, "queens": 125, "matched": 19, "suited": 9, "any": 4},
          "B": {"top": 1000, "queens": 200, "matched": 25, "suited": 10, "any": 4},
          "C": {"top": 250, "queens": 25, "matched": 9, "suited": 6, "any": 3}}


def money(cents: int) -> str:
    """Cents as a BJH amount: `25`, `37.50`."""
    if cents % 100 == 0:
        return str(cents // 100)
    return f"{cents // 100}.{cents % 100:02d}"


def db21_odds(pay_table: int, up_card: str) -> int:
    ace, ten, high, low = DB21_PAY_TABLES[pay_table]
    rank = up_card[0]
    if rank == "A":
        return ace
    if VALUE[rank] == 10:
        return ten
    return high if rank in "789" else low


def super_match_kind(cards: list[str]) -> str | None:
    """The best super match hand in four cards, matched by rank, or None (30.09(1), (6))."""
    ranks = [card[0] for card in cards]
    distinct = len(set(ranks))
    if distinct == 4:
        return None
    if distinct == 3:
        return "pair"
    if distinct == 1:
        return "four"
    return "three" if ranks.count(ranks[0]) in (1, 3) else "two pair"


def ladies_kind(cards: list[str], one_deck: bool, dealer_blackjack: bool) -> str | None:
    """The highest Lucky Ladies category of a seat's first two cards, or None (no 20).
    One deck: a pair of queens, a paired 20 (one rank); more: two queens of hearts, a
    matched 20 (one rank and suit); then suited, then any 20 (an ace counts eleven)."""
    if len(cards) != 2 or total(cards)[0] != 20:
        return None
    first, second = cards
    if one_deck:
        queens, matched = first[0] == second[0] == "Q", first[0] == second[0]
    else:
        queens, matched = first == second == "Qh", first == second
    if queens:
        return "top" if dealer_blackjack else "queens"
    if matched:
        return "matched"
    return "suited" if first[1] == second[1] else "any"


def play_dealer(cards: list[str], draw: Callable[[], str], hits_soft_17: bool,
                stop: Callable[[], bool] | None = None) -> list[str]:
    """The dealer's drawing rule: draw below 17, and at soft 17 where the house hits it.

    `draw` deals the next card; `stop` (a planted fault) may end the drawing early. The
    game and the statistical fast path (sampling.py) both deal the dealer's hand here.
    """
    while dealer_must_draw(cards, hits_soft_17):
        if stop is not None and stop():
            break
        cards.append(draw())
    return cards
