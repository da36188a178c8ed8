"""Lucky Ladies facts derived from a replayed round (20:18:15:30.04).

They say what the record shows: each seat's first two cards and the highest category they
meet (a queen of hearts pair, a pair of queens, a matched or paired 20, a suited 20, any
20), where the first card beyond any player's first two came, which takes and pays of a
Lucky Ladies wager came after it, and which seats' top award waited on a dealer
blackjack not yet known. Whether that is a violation is for `auditor/checks/ladies.py`
to say. `of(view)` derives them on first use and keeps them in `view.derived["ladies"]`
(the game's entry in auditor/checks/games.py names it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from auditor import blackjack
from auditor.fieldwise import Fieldwise
from auditor.replay.outcomes import first_two_cards
from auditor.replay.view import RoundView, Settlement, Wager

KEY = "ladies"


@dataclass(slots=True, repr=False, eq=False)
class SeatCards(Fieldwise):
    """A seat's first two cards (its hand h1 as dealt) and what they make."""

    seat: str
    cards: list[str]
    lines: list[int]
    category: str | None  # blackjack.LADIES_CATEGORIES, or None: not a 20

    single_deck: bool = False

    @property
    def twenty(self) -> bool:
        return self.category is not None

    @property
    def name(self) -> str:
        """The category as the regulation names it for the table's deck count."""
        if self.category is None:
            return "no 20"
        return blackjack.ladies_category_name(self.category, self.single_deck)


@dataclass(slots=True, repr=False, eq=False)
class LadiesFacts(Fieldwise):
    """What the Lucky Ladies checks need of a round, recorded by the replay."""

    seats: dict[str, SeatCards]  # every seat holding a Lucky Ladies wager
    first_extra_index: int | None  # the first card beyond a player's first two (hit, double)
    first_extra_line: int | None
    # seats holding the top award's cards while the dealer's blackjack cannot yet be known
    # (peek=no, an ace or ten-value up): their wager waits for the reveal
    top_pending: set[str] = field(default_factory=set)
    # each take or pay (`win`, `lose`) of a Lucky Ladies wager made after that card
    late_settlements: list[tuple[Wager, Settlement]] = field(default_factory=list)


def derive(view: RoundView) -> None:
    """The round's facts, derived once (`of`)."""
    single = view.config.decks == 1
    natural = view.dealer.natural
    seats: dict[str, SeatCards] = {}
    for wager in view.wagers_of("ladies", tip=None):
        if wager.seat in seats:
            continue
        dealt = first_two_cards(view, wager.seat)
        cards = [card for card, _ in dealt]
        category = blackjack.ladies_category(cards, single, natural) if len(cards) == 2 \
            else None
        seats[wager.seat] = SeatCards(wager.seat, cards, [line for _, line in dealt], category,
                                      single)
    first = next((d for d in view.decisions if d.kind in ("hit", "double")), None)
    facts = LadiesFacts(seats, first.index if first else None, first.line if first else None)
    up = view.dealer.up
    if (view.config.rules.peek == "no" and up is not None
            and (up.card[0] == "A" or blackjack.VALUE[up.card[0]] == 10)):
        facts.top_pending = {s.seat for s in seats.values()
                             if s.category in ("top", "queens")}
    if facts.first_extra_index is not None:
        for wager in view.wagers_of("ladies", tip=None):
            for settlement in wager.settlements:
                if (settlement.outcome in ("win", "lose")
                        and settlement.index > facts.first_extra_index):
                    facts.late_settlements.append((wager, settlement))
    view.derived[KEY] = facts


def of(view: RoundView) -> LadiesFacts:
    """The round's Lucky Ladies facts, derived on first use."""
    if KEY not in view.derived:
        derive(view)
    return view.derived[KEY]
