"""Ten sticks 21 facts derived from a replayed round (20:18:15:30.02).

`of(view)` derives them on first use and keeps them in `view.derived["tensticks"]` as a
`TenSticksRound` (the game's entry in auditor/checks/games.py names it). They say what the
record shows: where each bonus card (the ten of clubs) arrived and what it did to its hand,
which draws the dealer made while holding one, and what each light's count should have
been given what came before it. Whether any of it is a violation is for
`auditor/checks/tensticks.py` to say.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from auditor import blackjack
from auditor import events as ev
from auditor.fieldwise import Fieldwise
from auditor.replay.view import LightEvent, RoundView, seat_of

BONUS = blackjack.BONUS_CARD


@dataclass(slots=True, repr=False, eq=False)
class BonusCard(Fieldwise):
    """A bonus card as it arrived in a hand, counted as ten (30.02(2))."""

    target: str  # a player hand, or `dealer`
    line: int
    index: int
    how: str  # deal, hit, double, trade (received by a trade), draw
    total: int  # the hand's total right after it arrived
    traded_line: int | None = None  # the `trade` that gave it up, if one did

    @property
    def seat(self) -> str | None:
        return None if self.target == "dealer" else seat_of(self.target)

    @property
    def over_21(self) -> bool:
        """It made the point count exceed 21 (30.02(3)); otherwise it was playable ((4))."""
        return self.total > 21


@dataclass(slots=True, repr=False, eq=False)
class BonusDraw(Fieldwise):
    """A dealer `draw` made while the dealer held a bonus card."""

    line: int
    index: int
    card: str
    total_before: int  # the bonus card counted as ten
    soft_before: bool
    bonus_line: int  # where the dealer's bonus card arrived


@dataclass(slots=True, repr=False, eq=False)
class ExpectedLight(Fieldwise):
    """What a `light` should have shown, from what came before it at the seat."""

    light: LightEvent
    expected: int
    # why: `prize` (a prize at this seat since its last light: the count starts again),
    # `new-player` (the player's first light: they start with their punches, or zero),
    # `carried` (the seat's last recorded count)
    basis: str
    other_prize: bool  # a prize was paid at another seat since this seat's last light

    @property
    def right(self) -> bool:
        return self.light.count == self.expected


@dataclass(slots=True, repr=False, eq=False)
class TenSticksRound(Fieldwise):
    """What the ten-sticks checks need of a round: bonus cards, dealer's bonus draws,
    lights."""

    bonus_cards: list[BonusCard] = field(default_factory=list)
    dealer_bonus_draws: list[BonusDraw] = field(default_factory=list)
    lights: list[ExpectedLight] = field(default_factory=list)

    def player_bonus_cards(self) -> list[BonusCard]:
        return [b for b in self.bonus_cards if b.target != "dealer"]


def of(view: RoundView) -> TenSticksRound:
    """The round's Ten sticks 21 facts, derived on first use."""
    found = view.derived.get("tensticks")
    if found is None:
        found = derive(view)
        view.derived["tensticks"] = found
    return found


def expected_light(light: LightEvent) -> ExpectedLight:
    """The count a light should show: one more than what the seat's player held before it.

    A prize at the seat restarts the count at zero (30.02(7)); a player's first light since
    sitting counts from what the player started with: the punches handed in, else zero
    (30.02(8), (¶11)); otherwise the seat's last recorded count is carried, even a faulty one
    (bjh-format.md §5), also past a prize at another seat ((7)).
    """
    other = light.other_prize_since_last
    if light.prize_since_last:
        return ExpectedLight(light, 1, "prize", other)
    if light.new_player:
        return ExpectedLight(light, (light.player_start or 0) + 1, "new-player", other)
    return ExpectedLight(light, light.carried + 1, "carried", other)


def derive(view: RoundView) -> TenSticksRound:
    """Walk the round's cards as the engine does, keeping track of every bonus card."""
    result = TenSticksRound(lights=[expected_light(light) for light in view.lights])
    # each hand's cards in order, with the bonus card record of each ten of clubs
    hands: dict[str, list[tuple[str, BonusCard | None]]] = {}
    dealer: list[tuple[str, BonusCard | None]] = []

    def receive(target: str, cards: list[tuple[str, BonusCard | None]], card: str,
                event: ev.Event, index: int, how: str) -> None:
        bonus = None
        if card == BONUS:
            codes = [c for c, _ in cards] + [card]
            bonus = BonusCard(target, event.line, index, how, blackjack.total(codes)[0])
            result.bonus_cards.append(bonus)
        cards.append((card, bonus))

    for index, event in enumerate(view.events):
        if isinstance(event, ev.Deal):
            if event.target == "dealer":
                receive("dealer", dealer, event.card, event, index, "deal")
            elif event.target in view.hands:
                receive(event.target, hands.setdefault(event.target, []), event.card, event,
                        index, "deal")
        elif isinstance(event, ev.Hit | ev.Double):
            if event.hand in view.hands:
                receive(event.hand, hands.setdefault(event.hand, []), event.card, event, index,
                        "hit" if isinstance(event, ev.Hit) else "double")
        elif isinstance(event, ev.Split):
            cards = hands.get(event.hand)
            if cards is not None and event.new_hand in view.hands \
                    and event.new_hand not in hands:
                hands[event.new_hand] = [cards.pop(1)] if len(cards) >= 2 else []
        elif isinstance(event, ev.Trade):
            cards = dealer if event.target == "dealer" else hands.get(event.target)
            if not cards:
                continue
            codes = [c for c, _ in cards]
            # the bonus card is given up (the last one, if the hand holds two), else the last
            # card, as the engine reads it; the received card stands in its place
            position = (len(codes) - 1 - codes[::-1].index(BONUS) if BONUS in codes
                        else len(codes) - 1)
            given = cards[position][1]
            if given is not None:
                given.traded_line = event.line
            bonus = None
            if event.card == BONUS:
                codes[position] = BONUS
                bonus = BonusCard(event.target, event.line, index, "trade",
                                  blackjack.total(codes)[0])
                result.bonus_cards.append(bonus)
            cards[position] = (event.card, bonus)
        elif isinstance(event, ev.Draw):
            held = [b for _, b in dealer if b is not None]
            if held:
                total, soft = blackjack.total(c for c, _ in dealer)
                result.dealer_bonus_draws.append(BonusDraw(event.line, index, event.card, total,
                                                           soft, held[0].line))
            receive("dealer", dealer, event.card, event, index, "draw")
    return result
