"""What `auditor trends` needs from each replayed round, counted in the worker.

Findings alone give no denominators: a rate per 1,000 rounds needs the rounds each dealer
dealt, a dealer–player pair needs the rounds the player played at that dealer's table, the
game math needs every up card and how the dealer's hand ended, and repeated shuffles need
the cards in the order they came out of the shoe. A `Tally` records these facts from the
read-only `RoundView` (and the shuffles and burns between rounds); like the replay, it
records and never judges. One tally per file, small and picklable, travels back to the
parent on `FileResult.tally` and is kept in the run store (auditor/store/tallies.py).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from auditor import blackjack
from auditor import events as ev

if TYPE_CHECKING:
    from auditor.findings import Finding
    from auditor.replay.view import RoundView

SHIFTS = (("day", 6, 14), ("swing", 14, 22))  # local hours; anything else is "grave"
CARD_EVENTS = (ev.Deal, ev.Hit, ev.Double, ev.Draw, ev.Trade, ev.Burn)
# The statistics of the game math (auditor/trends/game_math.py says what each tests).
DEALER_BUST, DEALER_NATURAL, PLAYER_NATURAL = "dealer bust", "dealer natural", "player natural"


def shift_of(time: str | None) -> str | None:
    """The shift of a local time stamp: day 06-14, swing 14-22, grave 22-06."""
    if not isinstance(time, str) or len(time) < 2 or not time[:2].isdigit():
        return None
    hour = int(time[:2])
    for name, start, end in SHIFTS:
        if start <= hour < end:
            return name
    return "grave"


def card_value(card: str) -> int:
    """1 for an ace, 10 for a ten-value card, else the pip value."""
    return blackjack.VALUE[card[0]]


@dataclass(slots=True)
class ShuffledCards:
    """The cards of one shuffle, in the order they came out of the shoe (burns included),
    with the line of each, and where each round's cards begin: a repeated sequence is
    reported at its first card's file, round and line."""

    shoe_id: str | None
    date: str | None = None
    cards: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    # (index of the first card dealt for the round, burns before it included; round ID)
    rounds: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class Tally:
    """The facts of one file, counted round by round (see the module's docstring)."""

    site: str | None = None  # the table's identity: its licence, else its casino …
    table_id: str | None = None  # … and its table ID
    decks: int | None = None
    hits_soft_17: bool = False
    rounds: Counter = field(default_factory=Counter)  # (dealer, date, shift) -> rounds
    pairs: Counter = field(default_factory=Counter)  # (dealer, player, date) -> rounds played
    # (finding line, seat, player): who sat at the seat a finding names, to join findings
    # (which carry no player) to dealer–player pairs
    seats: list[tuple[int, str, str]] = field(default_factory=list)
    game: Counter = field(default_factory=Counter)  # (dealer, date, statistic, up, "trials"|"hits")
    shuffles: list[ShuffledCards] = field(default_factory=list)
    _open: ShuffledCards | None = None  # the shuffle being dealt
    _pending: int = 0  # its first card not yet given to a round

    def add_event(self, event: ev.Event) -> None:
        """An event between rounds: a shuffle or a new shoe starts a new sequence, a burned
        card belongs to it."""
        if isinstance(event, (ev.Shuffle, ev.Shoe)):
            self._close()
        elif isinstance(event, ev.Burn):
            self._card(event.card, event.line, None)

    def add_round(self, view: RoundView, findings: list[Finding]) -> None:
        """One replayed round and the findings judged in it."""
        config = view.config
        if self.table_id is None:
            self.site = config.licence or config.casino
            self.table_id, self.decks = config.table_id, config.decks
            self.hits_soft_17 = config.hits_soft_17
        dealer, date = view.dealer_id, view.date
        self.rounds[dealer, date, shift_of(view.clock)] += 1
        players = players_of(view)
        for player in set(players.values()):
            self.pairs[dealer, player, date] += 1
        for finding in findings:
            player = players.get(finding.seat) if finding.seat else None
            if player is None and finding.seat:
                player = view.occupied_before.get(finding.seat)
            if player is not None and finding.line is not None:
                self.seats.append((finding.line, finding.seat, player))
        self._cards(view)
        if not view.unreadable:
            self._game(view, dealer, date)

    # ---- cards in shoe order ----
    def _close(self) -> None:
        if self._open is not None and len(self._open.cards) >= 2:
            self.shuffles.append(self._open)
        self._open = None

    def _card(self, card: str, line: int, view: RoundView | None) -> None:
        if self._open is None:
            self._open = ShuffledCards(view.shoe.shoe_id if view else None)
            self._pending = 0
        self._open.cards.append(card)
        self._open.lines.append(line)

    def _cards(self, view: RoundView) -> None:
        if view.unreadable:  # a card may be missing: the sequence breaks here
            self._close()
            return
        marked = False
        for event in view.events:
            if isinstance(event, ev.Shuffle):  # the shoe ran dry mid-round
                self._close()
                marked = False
            elif isinstance(event, CARD_EVENTS) and getattr(event, "card", None):
                self._card(event.card, event.line, view)
                if not marked:
                    shuffled = self._open
                    shuffled.rounds.append((self._pending, view.round_id))
                    shuffled.shoe_id = shuffled.shoe_id or view.shoe.shoe_id
                    shuffled.date = shuffled.date or view.date
                    marked = True
        if self._open is not None:
            self._pending = len(self._open.cards)

    def finish(self) -> None:
        """The file is read: the last shuffle's cards are complete."""
        self._close()

    # ---- game math ----
    def _game(self, view: RoundView, dealer: str | None, date: str | None) -> None:
        dealt: dict[str, list[str]] = {}
        for event in view.events:
            if isinstance(event, ev.Deal):
                dealt.setdefault(event.target, []).append(event.card)
        dealer_cards = dealt.pop("dealer", [])
        game = self.game
        for cards in dealt.values():
            if len(cards) >= 2:
                game[dealer, date, PLAYER_NATURAL, None, "trials"] += 1
                game[dealer, date, PLAYER_NATURAL, None, "hits"] += blackjack.is_two_card_21(
                    cards[:2])
        if len(dealer_cards) < 2:
            return
        up = card_value(dealer_cards[0])
        natural = blackjack.is_two_card_21(dealer_cards[:2])
        if up in (1, 10):
            game[dealer, date, DEALER_NATURAL, up, "trials"] += 1
            game[dealer, date, DEALER_NATURAL, up, "hits"] += natural
        hand = view.dealer
        traded = any(t.target == "dealer" for t in view.trades)
        if natural or traded or not view.dealer_had_to_play or (
                not hand.busted and blackjack.dealer_must_draw(hand.card_codes,
                                                               self.hits_soft_17)):
            return  # the dealer's hand did not end by the drawing rule: nothing to compare
        game[dealer, date, DEALER_BUST, up, "trials"] += 1
        game[dealer, date, DEALER_BUST, up, "hits"] += hand.busted


def players_of(view: RoundView) -> dict[str, str]:
    """Seat -> the player who placed the seat's main wager in this round: the player seated
    when the wager was placed (a player who sits down in the round counts from then)."""
    seated: dict[str, str | None] = dict(view.occupied_before)
    changes = sorted(view.seat_changes, key=lambda c: c.index)
    players: dict[str, str] = {}
    position = 0
    for wager in sorted(view.wagers, key=lambda w: w.index):
        while position < len(changes) and changes[position].index < wager.index:
            change = changes[position]
            seated[change.seat] = change.player if change.kind == "sit" else None
            position += 1
        if wager.kind == "main" and not wager.tip and wager.initial:
            player = seated.get(wager.seat)
            if player is not None:
                players.setdefault(wager.seat, player)
    return players
