"""What the Blackjack Switch checks share: the game, its deck counts and a settlement's subject.
"""

from __future__ import annotations

from decimal import Decimal

from auditor.replay.view import Wager

SWITCH = frozenset({"switch"})
ZERO = Decimal(0)
DECKS = (6, 8)


def settle_subject(wager: Wager) -> str:
    return f"settle:{wager.target}:{wager.kind}"
