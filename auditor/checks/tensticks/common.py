"""What the Ten sticks 21 checks share: the game, its bonus card, trades and their pairing
with lights.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from auditor import blackjack
from auditor.fieldwise import Fieldwise
from auditor.replay import tensticks
from auditor.replay.view import LightEvent, RoundView, Trade, seat_number

TENSTICKS = frozenset({"tensticks"})
BONUS = blackjack.BONUS_CARD


def trading_allowed(view: RoundView) -> bool:
    return view.config.rules.tensticks_trade == "yes"


def lights_required(view: RoundView) -> int:
    return view.config.rules.tensticks_lights


def player_trades(view: RoundView) -> list[Trade]:
    return [t for t in view.trades if t.target != "dealer"]


def traded_bonus_lines(view: RoundView, trade: Trade) -> list[int]:
    """The line where the traded bonus card arrived, as evidence."""
    return [b.line for b in tensticks.of(view).bonus_cards if b.traded_line == trade.card.line]


def in_seat_order(items: Iterable[str]) -> list[str]:
    return sorted(set(items), key=seat_number)


@dataclass(slots=True, repr=False, eq=False)
class _Pairing(Fieldwise):
    """Trades (or bonus cards) of one seat paired with the lights they earned."""

    unlit: list  # what earned a light and got none
    early: list[tuple[object, LightEvent]]  # earned, but the light came before it
    unearned: list[LightEvent]  # lights with nothing to earn them


def pair_with_lights(earners: list[tuple[int, object]], lights: list[LightEvent]) -> _Pairing:
    """Each earner (event index, item) takes the first light after it; what is left over of
    the lights before is paired with what is left of the earners, in order."""
    timeline = sorted([(index, 0, item) for index, item in earners]
                      + [(light.index, 1, light) for light in lights],
                      key=lambda entry: (entry[0], entry[1]))
    pending: list = []
    loose: list[LightEvent] = []
    for _, kind, item in timeline:
        if kind == 0:
            pending.append(item)
        elif pending:
            pending.pop(0)
        else:
            loose.append(item)
    early = list(zip(pending, loose, strict=False))
    return _Pairing(pending[len(early):], early, loose[len(early):])
