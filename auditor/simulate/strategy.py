"""The players' basic strategy (multi-deck), bent to the house options of the table.

Decisions are `hit`, `stand`, `double`, `split` and `surrender`; a decision the table or
the hand does not allow falls back to the one basic strategy gives next (double → hit,
except soft 18 which stands; split → the pair's total played as a hard or soft hand).
"""

from __future__ import annotations

from auditor.simulate.cards import VALUE, total


def up_value(card: str) -> int:
    """The dealer's up card as basic strategy charts read it: ace 11, tens 10."""
    return 11 if card[0] == "A" else VALUE[card[0]]


def _pair_action(rank_value: int, up: int, das: bool) -> bool:
    """Whether basic strategy splits a pair of this value."""
    if rank_value in (1, 8):
        return True
    if rank_value in (2, 3):
        return 2 <= up <= 7 if das else 4 <= up <= 7
    if rank_value == 4:
        return das and up in (5, 6)
    if rank_value == 6:
        return 2 <= up <= 6 if das else 3 <= up <= 6
    if rank_value == 7:
        return 2 <= up <= 7
    if rank_value == 9:
        return up in (2, 3, 4, 5, 6, 8, 9)
    return False  # 5s and tens


def _surrender(count: int, soft: bool, up: int, hits_soft_17: bool) -> bool:
    if soft:
        return False
    if count == 16:
        return up >= 9
    if count == 15:
        return up == 10 or (up == 11 and hits_soft_17)
    return False


def _soft(count: int, up: int) -> str:
    if count >= 19:
        return "stand"
    if count == 18:
        if 3 <= up <= 6:
            return "double"
        return "stand" if up in (2, 7, 8) else "hit"
    if count == 17:
        return "double" if 3 <= up <= 6 else "hit"
    if count in (15, 16):
        return "double" if 4 <= up <= 6 else "hit"
    return "double" if 5 <= up <= 6 else "hit"  # soft 13, 14


def _hard(count: int, up: int, hits_soft_17: bool) -> str:
    if count >= 17:
        return "stand"
    if count >= 13:
        return "stand" if up <= 6 else "hit"
    if count == 12:
        return "stand" if 4 <= up <= 6 else "hit"
    if count == 11:
        return "double" if up <= 10 or hits_soft_17 else "hit"
    if count == 10:
        return "double" if up <= 9 else "hit"
    if count == 9:
        return "double" if 3 <= up <= 6 else "hit"
    return "hit"


def decide(cards: list[str], up_card: str, *, can_double: bool, can_split: bool,
           can_surrender: bool, das: bool, hits_soft_17: bool) -> str:
    """Basic strategy for a hand of at least two cards that is not yet complete."""
    up = up_value(up_card)
    count, soft = total(cards)
    if count >= 21:
        return "stand"
    if can_surrender and _surrender(count, soft, up, hits_soft_17):
        return "surrender"
    pair = len(cards) == 2 and VALUE[cards[0][0]] == VALUE[cards[1][0]]
    if can_split and pair and _pair_action(VALUE[cards[0][0]], up, das):
        return "split"
    action = _soft(count, up) if soft else _hard(count, up, hits_soft_17)
    if action == "double" and not can_double:
        return "stand" if soft and count == 18 else "hit"
    return action


def switch_value(cards: list[str], switched: bool) -> float:
    """A rough worth of a two-card Blackjack Switch hand, to choose whether to switch.

    Not an optimal switch strategy: players keep naturals, go for 20s, 19s, 11s, 10s and
    aces, and avoid stiff totals, which is how most players switch.
    """
    count, soft = total(cards)
    if count == 21:
        return 7.0 if switched else 9.0
    if cards[0][0] == "A" and cards[1][0] == "A":
        return 5.0
    worth = {20: 6.0, 19: 4.5, 11: 4.0, 10: 3.5, 18: 3.0, 9: 2.0, 17: 1.0}.get(count)
    if worth is not None:
        return worth
    if soft:
        return 2.5
    if count <= 8:
        return 1.5
    return 0.0  # 12 to 16


def should_switch(first: list[str], second: list[str]) -> bool:
    keep = switch_value(first, False) + switch_value(second, False)
    swapped = ([first[0], second[1]], [second[0], first[1]])
    switch = switch_value(swapped[0], True) + switch_value(swapped[1], True)
    return switch > keep + 0.5
