"""What the replay of one round records: hands, wagers, the dealer's hand and the order of it all.

Checks receive a `RoundView` and must not change it. Every fact keeps the line of the
record that shows it and its index in the round's event list (the order of events).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from auditor import blackjack
from auditor.fieldwise import Fieldwise

if TYPE_CHECKING:
    from auditor.config import TableConfig
    from auditor.events import Event
    from auditor.reader import Problem


_VALUE = blackjack.VALUE
ZERO = Decimal(0)

WAGER_NAMES = {"supermatch": "super match", "db21": "DB21", "ladies": "Lucky Ladies"}


def seat_of(target: str) -> str:
    """`s3h1` and `s3` -> `s3`."""
    return target[:2]


def seat_number(target: str) -> int:
    return int(target[1])


@dataclass(slots=True, repr=False, eq=False)
class Card(Fieldwise):
    """A card dealt to a hand, with its line and place in the round."""

    card: str
    line: int
    index: int


@dataclass(slots=True, repr=False, eq=False)
class Settlement(Fieldwise):
    """A wager's settlement: outcome and amount, with its line and place in the round."""

    line: int
    index: int
    outcome: str  # win, lose, push, void
    amount: Decimal
    time: str | None

    @property
    def net(self) -> Decimal:
        """The player's net result: + paid, − collected, 0 returned."""
        if self.outcome == "win":
            return self.amount
        if self.outcome == "lose":
            return -self.amount
        return Decimal(0)


class Expected:
    """What the rules say a wager's result should be, and why.

    `why` may be given as a tuple, a `str.format` template and its values: every wager of
    every round gets an Expected and its words are read only for a finding, so they are
    put together then."""

    __slots__ = ("_why", "net", "outcome")
    outcome: str
    net: Decimal

    def __init__(self, outcome: str, net: Decimal, why: str | tuple) -> None:
        self.outcome, self.net, self._why = outcome, net, why

    @property
    def why(self) -> str:
        why = self._why
        return why if type(why) is str else why[0].format(*why[1:])

    def __eq__(self, other: object) -> bool:
        if type(other) is not Expected:
            return NotImplemented
        return (self.outcome, self.net, self.why) == (other.outcome, other.net, other.why)

    __hash__ = None  # type: ignore[assignment]  # as a dataclass with eq: never hashed

    def __repr__(self) -> str:
        return f"Expected(outcome={self.outcome!r}, net={self.net!r}, why={self.why!r})"


@dataclass(slots=True, init=False, repr=False, eq=False)
class Wager(Fieldwise):
    """A wager on a hand (main, insurance) or a seat (side wagers), and what became of it."""

    target: str  # a hand for main and insurance, a seat for side wagers
    kind: str
    tip: bool
    amount: Decimal
    line: int
    index: int
    after_first_card: bool
    initial: bool = True  # placed by `bet`; False for the new wager of a split
    settlements: list[Settlement] = field(default_factory=list)
    expected: Expected | None = None
    # Where the dealer drew on a standing total (20:18:15:28), the result against the
    # dealer's hand without that card, which "must be burned": right as well.
    expected_burned: Expected | None = None
    # (amount, line) of chips added after the first card: an empty tuple, shared, until the
    # first (nearly every wager has none: no list made and freed for each)
    late_additions: Sequence[tuple[Decimal, int]] = ()
    seat: str = field(init=False)  # `s3` of `s3h1`: read by most checks, so kept

    # Written out rather than generated: built once per `bet`, and the generated one (with
    # its factories and __post_init__) took twice as long.
    def __init__(self, target: str, kind: str, tip: bool, amount: Decimal, line: int,
                 index: int, after_first_card: bool, initial: bool = True) -> None:
        self.target, self.kind, self.tip, self.amount = target, kind, tip, amount
        self.line, self.index, self.after_first_card = line, index, after_first_card
        self.initial = initial
        self.settlements = []
        self.expected = self.expected_burned = None
        self.late_additions = ()
        self.seat = target[:2]  # seat_of

    @property
    def hand(self) -> str | None:
        return self.target if len(self.target) > 2 and self.target != "dealer" else None

    @property
    def settlement(self) -> Settlement | None:
        return self.settlements[0] if self.settlements else None

    @property
    def label(self) -> str:
        """How an inspector names the wager: `tip DB21 wager on s3`."""
        kind = WAGER_NAMES.get(self.kind, self.kind)
        return f"{'tip ' if self.tip else ''}{kind} wager on {self.target}"


@dataclass(slots=True, repr=False, eq=False)
class Decision(Fieldwise):
    """A player's decision on a hand (or, for switch, a seat), with its line and place."""

    kind: str  # switch, hit, stand, double, split, surrender
    target: str  # a hand, or a seat for switch
    line: int
    index: int


def decision_at(event: Event, index: int) -> Decision:
    """The decision a statement records (hit, stand, double, split, surrender: on its hand;
    switch: on its seat), at its index in the round."""
    kind = type(event).__name__.lower()
    target = event.seat if kind == "switch" else event.hand  # type: ignore[attr-defined]
    return Decision(kind, target, event.line, index)


@dataclass(slots=True, repr=False, eq=False)
class LateCard(Fieldwise):
    """A card a hand received after it was complete (stood, doubled, surrendered, over 21)."""

    card: Card
    reason: str  # stood, doubled, surrendered, over 21, split ace


class CountedCards:
    """The total of a hand's cards, kept as cards are added (a player's or the dealer's)."""

    if not TYPE_CHECKING:  # no slot of its own (its subclasses have the fields): mypy would
        # read an empty __slots__ as fields that cannot be set
        __slots__ = ()
    cards: list[Card]
    total: int
    soft: bool
    hard: int
    has_ace: bool
    changes: int

    @property
    def card_codes(self) -> list[str]:
        return [c.card for c in self.cards]

    def add(self, card: Card) -> None:
        """Append a card and update the total without counting the hand again."""
        self.changes += 1
        self.cards.append(card)
        rank = card.card[0]
        hard = self.hard = self.hard + _VALUE[rank]
        if rank == "A":
            self.has_ace = True
        if self.has_ace and hard <= 11:  # blackjack.best_total, written out
            self.total, self.soft = hard + 10, True
        else:
            self.total, self.soft = hard, False

    def recount(self) -> None:
        """Count the hand again after a card was taken out or replaced."""
        self.changes += 1
        self.hard, self.has_ace = blackjack.hard_total([c.card for c in self.cards])
        self.total, self.soft = blackjack.best_total(self.hard, self.has_ace)


@dataclass(slots=True, init=False, repr=False, eq=False)
class Hand(CountedCards, Fieldwise):
    """A player's hand: its cards, its wagers and its decisions."""

    name: str
    seat: str
    cards: list[Card] = field(default_factory=list)
    dealt: int = 0  # cards from `deal` statements
    # The first two of them as dealt (the tally's game math reads them; a split, switch or
    # trade may have changed `cards` since)
    first_dealt: str | None = None
    second_dealt: str | None = None
    main: Wager | None = None
    parent: str | None = None  # the hand this one was split from
    root: str = ""  # the original hand of a line of splits
    split_line: int | None = None
    split_aces: bool = False
    was_split: bool = False  # this hand was split (it and its new hand are no naturals)
    splits_of_root: int = 0  # on the root hand: how many splits its line has had
    doubled: Decimal = Decimal(0)  # every double's amount (a second double's too: money)
    # The hand's (first) double: its line, the cards held then, its amount. A second
    # double of the hand is a card after doubling (a late card), never the double judged.
    double_line: int | None = None
    double_cards_before: int = 0
    double_amount: Decimal = Decimal(0)
    stood_line: int | None = None
    surrendered_line: int | None = None
    surrender_after_decision: bool = False
    bust_line: int | None = None
    complete_index: int | None = None
    complete_reason: str | None = None  # stood, doubled, surrendered, over 21, split ace
    split_from_cards: tuple[str, ...] = ()  # on a new hand: the cards of the hand it split
    late_cards: Sequence[LateCard] = ()  # an empty tuple, shared, until the first (rare)
    played_before_parent_line: int | None = None  # :25, first action while parent incomplete
    misdealt: bool = False
    switched: bool = False  # its seat switched (Blackjack Switch)
    # The best total and whether it is soft: kept by `add` and `recount` after every change
    # to `cards` (they are read dozens of times a round). `hard` counts aces as one;
    # `changes` counts the changes to `cards`, so that a reader can tell they are the same.
    total: int = 0
    soft: bool = False
    hard: int = 0
    has_ace: bool = False
    changes: int = 0

    # Written out rather than generated (every field at its default but the three given):
    # cheaper than the generated one, for a hand of every seat in every round.
    def __init__(self, name: str, seat: str, root: str = "") -> None:
        self.name, self.seat, self.root = name, seat, root
        self.cards, self.late_cards = [], ()
        self.dealt = self.splits_of_root = self.double_cards_before = 0
        self.main = self.parent = self.split_line = self.double_line = None
        self.first_dealt = self.second_dealt = None
        self.stood_line = self.surrendered_line = self.bust_line = None
        self.complete_index = self.complete_reason = self.played_before_parent_line = None
        self.split_aces = self.was_split = self.surrender_after_decision = False
        self.misdealt = self.switched = False
        self.doubled = self.double_amount = ZERO
        self.split_from_cards = ()
        self.total = self.hard = self.changes = 0
        self.soft = self.has_ace = False

    @property
    def busted(self) -> bool:
        return self.total > 21

    @property
    def two_card_21(self) -> bool:
        return len(self.cards) == 2 and self.total == 21

    @property
    def natural(self) -> bool:
        """A blackjack: 21 in the first two cards of an original hand, not switched (30.09(10))."""
        return (self.parent is None and not self.was_split and not self.switched
                and self.dealt >= 2 and self.two_card_21)

    @property
    def stake(self) -> Decimal:
        return (self.main.amount if self.main else Decimal(0)) + self.doubled


def make_hand(name: str, seat: str, root: str = "") -> Hand:
    """`Hand(name, seat, root)`, made in place: a plain call, where calling the class
    enters its `__init__` through C as a second frame (a hand of every seat in every
    round). tests/replay/test_replay_inits.py holds the two to the same fields and values."""
    hand = _new(Hand)
    hand.name, hand.seat, hand.root = name, seat, root
    hand.cards, hand.late_cards = [], ()
    hand.dealt = hand.splits_of_root = hand.double_cards_before = 0
    hand.main = hand.parent = hand.split_line = hand.double_line = None
    hand.first_dealt = hand.second_dealt = None
    hand.stood_line = hand.surrendered_line = hand.bust_line = None
    hand.complete_index = hand.complete_reason = hand.played_before_parent_line = None
    hand.split_aces = hand.was_split = hand.surrender_after_decision = False
    hand.misdealt = hand.switched = False
    hand.doubled = hand.double_amount = ZERO
    hand.split_from_cards = ()
    hand.total = hand.hard = hand.changes = 0
    hand.soft = hand.has_ace = False
    return hand


_new = object.__new__


@dataclass(slots=True, repr=False, eq=False)
class DealerDraw(Fieldwise):
    """A card the dealer drew, with the dealer's total before it."""

    card: Card
    total_before: int
    soft_before: bool
    incomplete_hands: tuple[str, ...]  # player hands with a wager not complete at the draw


@dataclass(slots=True, init=False, repr=False, eq=False)
class DealerHand(CountedCards, Fieldwise):
    """The dealer's hand: its cards, its draws, the reveal and the peek."""

    cards: list[Card] = field(default_factory=list)
    dealt: int = 0
    first_dealt: str | None = None  # the up card as dealt (as for a player's hand)
    second_dealt: str | None = None  # the hole card as dealt
    draws: list[DealerDraw] = field(default_factory=list)
    reveal_line: int | None = None
    reveal_index: int | None = None
    peek_line: int | None = None
    peek_index: int | None = None
    # Where the dealer's turn began: the reveal or first draw, whichever came first; in a
    # record with neither, the turn follows the last player decision (or the peek, or the
    # initial deal, where no decision was taken), and this is that statement's index.
    turn_index: int | None = None
    total: int = 0  # kept by `add` and `recount`, as for a player's hand
    soft: bool = False
    hard: int = 0
    has_ace: bool = False
    changes: int = 0

    # Written out rather than generated, as for Hand (one a round; the generated one builds
    # its lists through factories)
    def __init__(self, cards: list[Card] | None = None, dealt: int = 0,
                 draws: list[DealerDraw] | None = None, reveal_line: int | None = None,
                 reveal_index: int | None = None, peek_line: int | None = None,
                 peek_index: int | None = None, turn_index: int | None = None,
                 total: int = 0, soft: bool = False, hard: int = 0, has_ace: bool = False,
                 changes: int = 0) -> None:
        self.cards = [] if cards is None else cards
        self.draws = [] if draws is None else draws
        self.dealt, self.reveal_line, self.reveal_index = dealt, reveal_line, reveal_index
        self.peek_line, self.peek_index, self.turn_index = peek_line, peek_index, turn_index
        self.total, self.soft, self.hard, self.has_ace = total, soft, hard, has_ace
        self.changes = changes
        self.first_dealt = self.second_dealt = None

    @property
    def up(self) -> Card | None:
        return self.cards[0] if self.cards else None

    @property
    def hole(self) -> Card | None:
        return self.cards[1] if len(self.cards) > 1 else None

    @property
    def natural(self) -> bool:
        if self.dealt < 2 or self.draws:
            return False
        # blackjack.is_two_card_21 of the first two cards, written out (read for every wager):
        # two cards make 21 only as an ace and a ten-value card
        first, second = self.cards[0].card[0], self.cards[1].card[0]
        return (first == "A" or second == "A") and _VALUE[first] + _VALUE[second] == 11

    @property
    def busted(self) -> bool:
        return self.total > 21

    @property
    def done_index(self) -> int | None:
        """The index at which the dealer's hand was complete: its last draw, or the reveal
        (or, with neither, where the dealer's turn began)."""
        if self.draws:
            return self.draws[-1].card.index
        return self.reveal_index if self.reveal_index is not None else self.turn_index


@dataclass(slots=True, repr=False, eq=False)
class Trade(Fieldwise):
    """A ten-sticks trade: the card received and the card given up."""

    target: str
    card: Card  # the card received
    gave_up: str | None  # the card given up (the bonus card, or what was there instead)
    held_bonus: bool
    bonus_over_21: bool  # the hand was over 21 with the bonus card in it


@dataclass(slots=True, repr=False, eq=False)
class LightEvent(Fieldwise):
    """A ten-sticks `light` statement at a seat, and its count."""

    seat: str
    count: int
    line: int
    index: int
    player: str | None
    carried: int  # the seat's recorded count before this light (carried even across players)
    player_start: int | None  # what this player started with, if first light since sitting
    new_player: bool  # first light of the player since sitting
    prize_since_last: bool  # this seat was paid a prize since its last light
    other_prize_since_last: bool  # another seat was paid a prize since this seat's last light


@dataclass(slots=True, repr=False, eq=False)
class SeatChange(Fieldwise):
    """A player sitting down or leaving (`sit`, `leave`), with any punch card."""

    kind: str  # sit or leave
    seat: str
    player: str | None
    line: int
    index: int
    punchcard: str | None
    punches: int | None
    lights_held: int | None  # at leave: the lights the player held


@dataclass(slots=True, repr=False, eq=False)
class Marker(Fieldwise):
    """A statement that matters only by where it stands: tuck, discard, misdeal, prize."""

    kind: str
    target: str
    line: int
    index: int
    amount: Decimal | None = None
    held: int | None = None  # prize: the lights the seat's player held when it was paid


@dataclass(slots=True, repr=False, eq=False)
class ShoeStatus(Fieldwise):
    """The shoe as the round began: shuffled, cut, the cutting card out."""

    shoe_id: str | None
    shuffled: bool  # a shuffle since the shoe came into play
    cut_after_shuffle: bool
    cutcard_pending: bool  # the cutting card came out before this round, no shuffle since
    cutcard_line: int | None
    counted_since: int | None = None  # the `shuffle` the card counts started at (None: shoe)


def counted_since_text(shuffle_line: int | None) -> str:
    """Since when a card is counted (record:card-count): the shoe, or the shuffle at a line."""
    if shuffle_line is None:
        return "since the shoe came into play"
    return f"since the shuffle at line {shuffle_line}"


@dataclass(slots=True, init=False, repr=False, eq=False)
class RoundView(Fieldwise):
    """One round as the replay recorded it: what every check reads (read-only)."""

    file: str
    config: TableConfig
    round_id: str
    start_line: int
    end_line: int | None
    last_line: int
    date: str | None
    clock: str | None
    dealer_id: str | None
    events: list[Event]
    shoe: ShoeStatus
    hands: dict[str, Hand] = field(default_factory=dict)
    wagers: list[Wager] = field(default_factory=list)
    dealer: DealerHand = field(default_factory=DealerHand)
    # The indices in `events` of the round's decisions, in order: `decisions` makes their
    # objects when first read (most rounds' checks read none of them)
    decision_indices: list[int] = field(default_factory=list)
    made_decisions: list[Decision] | None = field(default=None, compare=False)
    first_card_index: int | None = None
    deal_end_index: int | None = None  # the last `deal` of the initial deal
    switched_seats: dict[str, int] = field(default_factory=dict)  # seat -> line
    trades: list[Trade] = field(default_factory=list)
    lights: list[LightEvent] = field(default_factory=list)
    seat_changes: list[SeatChange] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)
    # The round's cards in the order they came out of the shoe (every deal, hit, double,
    # trade, draw and burn): each card, the times it had then been seen (`TableState.counts`:
    # since the shoe, or the last shuffle) and its line. Three lists, not a tuple a card:
    # their readers (the card-count check, the tally) take each whole, in C.
    card_codes: list[str] = field(default_factory=list)
    card_seen: list[int] = field(default_factory=list)
    card_lines: list[int] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    occupied_before: dict[str, str | None] = field(default_factory=dict)  # seat -> player
    dealer_had_to_play: bool = False
    # The dealer's hand as it stood before a draw on a standing total (20:18:15:28): the
    # card "must be burned", so settlements against this hand are right too. None: no such draw.
    burned_dealer: DealerHand | None = None
    unreadable: bool = False  # a line of the round could not be read: rules are not judged
    shuffled_in_round: bool = False  # a `shuffle` inside it (the cards ran out, bjh-format.md §5)
    # a game's facts, derived on first use (auditor/checks/games.py names each game's)
    derived: dict[str, Any] = field(default_factory=dict)
    # The kinds of the round's side wagers (insurance, supermatch, db21, ladies) and `tip`
    # if any wager is a tip: the checks that look at such wagers are skipped without them.
    wager_marks: set[str] = field(default_factory=set)
    # The types of the round's statements but deal, bet, stand and settle (engine's
    # UNRECORDED_KINDS): what the checks' runner picks checks by, without a pass over them
    kinds: set[type] = field(default_factory=set)

    # Written out rather than generated, as for Hand: one a round, of thirty fields.
    def __init__(self, file: str, config: TableConfig, round_id: str, start_line: int,
                 end_line: int | None, last_line: int, date: str | None, clock: str | None,
                 dealer_id: str | None, events: list[Event], shoe: ShoeStatus,
                 problems: list[Problem] | None = None,
                 occupied_before: dict[str, str | None] | None = None) -> None:
        self.file, self.config, self.round_id = file, config, round_id
        self.start_line, self.end_line, self.last_line = start_line, end_line, last_line
        self.date, self.clock, self.dealer_id = date, clock, dealer_id
        self.events, self.shoe = events, shoe
        self.problems = [] if problems is None else problems
        self.occupied_before = {} if occupied_before is None else occupied_before
        self.hands, self.switched_seats, self.derived = {}, {}, {}
        self.wager_marks, self.kinds = set(), set()
        self.wagers, self.decision_indices, self.trades, self.lights = [], [], [], []
        self.made_decisions = None
        self.seat_changes, self.markers = [], []
        self.card_codes, self.card_seen, self.card_lines = [], [], []
        # DealerHand(), made in place (one a round: see make_hand)
        dealer = self.dealer = _new(DealerHand)
        dealer.cards, dealer.draws = [], []
        dealer.dealt = dealer.total = dealer.hard = dealer.changes = 0
        dealer.first_dealt = dealer.second_dealt = dealer.reveal_line = None
        dealer.reveal_index = dealer.peek_line = dealer.peek_index = dealer.turn_index = None
        dealer.soft = dealer.has_ace = False
        self.first_card_index = self.deal_end_index = self.burned_dealer = None
        self.dealer_had_to_play = self.unreadable = self.shuffled_in_round = False

    @property
    def game(self) -> str | None:
        return self.config.game

    @property
    def decisions(self) -> list[Decision]:
        """The player decisions of the round in order, made from their statements on first
        read (and again if the replay has recorded more since)."""
        made, indices = self.made_decisions, self.decision_indices
        if made is None or len(made) != len(indices):
            events = self.events
            made = self.made_decisions = [decision_at(events[index], index)
                                          for index in indices]
        return made

    @property
    def first_decision_index(self) -> int | None:
        return self.decision_indices[0] if self.decision_indices else None

    def wagers_of(self, kind: str, tip: bool | None = False) -> list[Wager]:
        return [w for w in self.wagers if w.kind == kind and (tip is None or w.tip == tip)]

    def hands_of(self, seat: str) -> list[Hand]:
        return [h for h in self.hands.values() if h.seat == seat]

    def markers_of(self, kind: str) -> list[Marker]:
        return [m for m in self.markers if m.kind == kind]

    def line_time(self, line: int) -> str | None:
        """The time of a line: its own stamp, else the last one before it, else the round's."""
        latest = self.clock
        for event in self.events:
            if event.line > line:
                break
            latest = event.time or latest
        return latest
