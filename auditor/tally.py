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

import json
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from operator import sub
from struct import Struct
from typing import TYPE_CHECKING

from auditor import blackjack
from auditor import events as ev
from auditor.fieldwise import Fieldwise
from auditor.gaming_day import hour_stamp, local_hour

if TYPE_CHECKING:
    from auditor.findings import Finding
    from auditor.replay.view import RoundView

CARD_EVENTS = frozenset({ev.Deal, ev.Hit, ev.Double, ev.Draw, ev.Trade, ev.Burn})
_SHUFFLE = frozenset({ev.Shuffle})
_TALLIED = CARD_EVENTS | _SHUFFLE  # what a round's pass over its events looks at
_PACKERS: dict[int, Struct] = {}  # by count: that many lines as ShuffledCards.lines holds them


def _packer(count: int) -> Struct:
    packer = _PACKERS[count] = Struct(f"{count}{_LINES_TYPE}")  # native, as the array
    return packer


_LINES_TYPE = "i"  # ShuffledCards.lines' type code (array and struct codes agree on it)
# The statistics of the game math (auditor/trends/analysis.py says what each tests). Each
# (dealer, date) keeps a list of counts, trials then hits: player naturals; dealer
# naturals with an ace up, with a ten up; dealer busts with each up card, ace to ten;
# Lucky Ladies wagers won (at game=ladies tables).
DEALER_BUST, DEALER_NATURAL, PLAYER_NATURAL = "dealer bust", "dealer natural", "player natural"
LADIES_WIN = "ladies win"
GAME_SLOT_NAMES = {0: (PLAYER_NATURAL, None), 2: (DEALER_NATURAL, 1), 4: (DEALER_NATURAL, 10),
                   **{6 + 2 * (up - 1): (DEALER_BUST, up) for up in range(1, 11)},
                   26: (LADIES_WIN, None)}
GAME_SLOTS = 28


# A round's (hour stamp, local hour) by its date and its clock's hour, once its minutes are
# valid (all that either reads): a night has a few dozen, its rounds tens of thousands.
# Keyed by the minute, every other round missed.
_STAMPS: dict[tuple[str | None, str], tuple[str | None, int | None]] = {}
_MINUTES = frozenset(f":{minute:02d}" for minute in range(60))


def _stamp_and_hour(date: str | None, clock: str | None) -> tuple[str | None, int | None]:
    if type(clock) is not str or clock[2:5] not in _MINUTES:
        return hour_stamp(date, clock), local_hour(clock)
    key = (date, clock[:2])
    found = _STAMPS.get(key)
    if found is None:
        if len(_STAMPS) >= 100_000:
            _STAMPS.clear()
        found = _STAMPS[key] = (hour_stamp(date, clock[:5]), local_hour(clock[:5]))
    return found


@dataclass(slots=True, repr=False, eq=False)
class ShuffledCards(Fieldwise):
    """The cards of one shuffle, in the order they came out of the shoe (burns included),
    with the line of each, and where each round's cards begin: a repeated sequence is
    reported at its first card's file, round and line."""

    shoe_id: str | None
    date: str | None = None
    # Two ASCII characters a card, and a machine integer a line: no Python object per card,
    # so that a file's thousands of cards add nothing for the garbage collector to walk.
    cards: bytearray = field(default_factory=bytearray)
    lines: array = field(default_factory=lambda: array(_LINES_TYPE))
    # (index of the first card dealt for the round, burns before it included; round ID)
    rounds: list[tuple[int, str]] = field(default_factory=list)

    def closed(self) -> ClosedShuffle:
        """The shuffle as the run store keeps it, made as it closes (in the worker: the
        parent storing a file's thousands of shuffles only writes them)."""
        return ClosedShuffle(self.shoe_id, self.date, self.cards.decode("ascii"),
                             line_steps(self.lines),
                             json.dumps(self.rounds, separators=(",", ":")))


@dataclass(slots=True, repr=False, eq=False)
class ClosedShuffle(Fieldwise):
    """A shuffle dealt out, in the run store's `tally_shuffles` columns: the cards as ASCII
    text, two characters a card; their lines as a JSON list of steps (`line_steps`); and
    where each round's cards begin, as JSON [[first card's index, round ID], ...]."""

    shoe_id: str | None
    date: str | None
    cards: str
    lines: str
    rounds: str


def line_steps(lines: array) -> str:
    """Line numbers as a JSON list of steps from the previous one: short, and exact
    (`store.tallies.lines_of` reads it)."""
    steps = map(sub, lines, [0, *lines[:-1]])  # (a list's map: no Python loop per card)
    return "[" + ",".join(map(str, steps)) + "]"  # json.dumps of integers, at C speed


@dataclass(repr=False, eq=False)
class Tally(Fieldwise):
    """The facts of one file, counted round by round (see the module's docstring)."""

    site: str | None = None  # the table's identity: its licence, else its casino …
    table_id: str | None = None  # … and its table ID
    decks: int | None = None
    hits_soft_17: bool = False
    # Dates here are `gaming_day.hour_stamp`s ("2026-03-02 01"): the parent makes them gaming
    # days when the tally is stored (auditor/store/tallies.py).
    # Plain dicts, counted by `get`: a Counter (a dict subclass with a Python-level
    # `__delitem__`) stores each item through a slow slot, a few times a round.
    # (dealer, date, local hour 0-23 or None) -> rounds: the hour gives a round with no date
    # its shift by the run's calendar (store/tallies.py), as its findings get theirs
    rounds: dict[tuple, int] = field(default_factory=dict)
    # (dealer, player, date) -> rounds; complete once `finish` has counted the line-ups
    pairs: dict[tuple, int] = field(default_factory=dict)
    # (finding line, seat, player): who sat at the seat a finding names, to join findings
    # (which carry no player) to dealer–player pairs
    seats: list[tuple[int, str, str]] = field(default_factory=list)
    # (dealer, date) -> trials and hits of each statistic, in GAME_SLOTS places (see there)
    game: dict[tuple, list[int]] = field(default_factory=dict)
    shuffles: list[ClosedShuffle] = field(default_factory=list)
    # date -> [line, round ID, clock] of the first round of each hour stamp, then of its
    # last: where each night of the table begins in this record, which tells a later
    # recording of the same rounds from another record of the same night
    # (auditor/store/tallies.py, `table_nights.start`), and the span of time it covers,
    # which tells a record whose rounds another record holds too (the same night split in
    # two files) from another shift's record (`table_nights.first_round`, `last_round`)
    spans: dict[str | None, list] = field(default_factory=dict)
    # the record is whole: its table closed, or the run took it as finished (set by the
    # audit when the file is done); None: not known
    finished: bool | None = None
    _open: ShuffledCards | None = None  # the shuffle being dealt
    _pending: int = 0  # its first card not yet given to a round
    # (dealer, date, the players of the round's main wagers in wager order) -> rounds: the
    # same line-up sits for many rounds, so a round is one count here, and `finish` adds
    # each line-up's rounds to each of its players' pairs (`_count_pairs`)
    _lineups: dict[tuple, int] = field(default_factory=dict)

    def add_event(self, event: ev.Event) -> None:
        """An event between rounds: a shuffle or a new shoe starts a new sequence, a burned
        card belongs to it."""
        if isinstance(event, (ev.Shuffle, ev.Shoe)):
            self._close()
        elif isinstance(event, ev.Burn):
            self._card(event.card, event.line, None)

    def add_round(self, view: RoundView, findings: list[Finding]) -> None:
        """One replayed round and the findings judged in it."""
        if self.table_id is None:  # the file's first round: its header's table
            config = view.config
            self.site = config.licence or config.casino
            self.table_id, self.decks = config.table_id, config.decks
            self.hits_soft_17 = config.hits_soft_17
        # The date and hour: the parent makes it a gaming day and shift (auditor/gaming_day.py)
        dealer, (date, hour) = view.dealer_id, _stamp_and_hour(view.date, view.clock)
        rounds, key = self.rounds, (dealer, date, hour)
        rounds[key] = rounds.get(key, 0) + 1
        span = self.spans.get(date)
        if span is None:  # a few times a file: an hour's first round
            line, round_id, clock = view.start_line, view.round_id, view.clock
            self.spans[date] = [line, round_id, clock, line, round_id, clock]
        else:
            span[3], span[4], span[5] = view.start_line, view.round_id, view.clock
        players = players_of(view)
        if players:
            lineups, key = self._lineups, (dealer, date, tuple(players.values()))
            lineups[key] = lineups.get(key, 0) + 1
        if findings:
            occupied = view.occupied_before
            for finding in findings:
                if finding.seat and finding.line is not None:
                    player = players.get(finding.seat) or occupied.get(finding.seat)
                    if player is not None:
                        self.seats.append((finding.line, finding.seat, player))
        if view.unreadable:  # a card may be missing: the cards' sequence breaks here, and
            self._close()  # the round's cards are not counted
            return
        if view.config.game == "ladies":
            self._ladies(view, dealer, date)
        if view.shuffled_in_round:  # the shoe ran dry mid-round (rare)
            self._cards_and_game(view, dealer, date)
        else:
            self._cards_as_counted(view, dealer, date)

    # ---- one pass over the round's events: cards in shoe order, and the game math ----
    def _close(self) -> None:
        if self._open is not None and len(self._open.lines) >= 2:
            self.shuffles.append(self._open.closed())
        self._open = None

    def _card(self, card: str, line: int, view: RoundView | None) -> None:
        if self._open is None:
            self._open = ShuffledCards(view.shoe.shoe_id if view else None)
            self._pending = 0
        self._open.cards += card.encode("ascii")
        self._open.lines.append(line)

    def _cards_as_counted(self, view: RoundView, dealer: str | None, date: str | None
                          ) -> None:
        """`_cards_and_game` for a round with no shuffle in it (nearly every round), fed by
        what the replay already knows: its cards in the order they came out of the shoe
        (`RoundView.card_codes` and `card_lines`: every deal, hit, double, trade, draw and
        burn) and the first two cards dealt to each hand and the dealer (`first_dealt`,
        `second_dealt`), rather than a pass over the round's statements. A round with a
        problem may hold a `deal` to a seat, which makes no hand: its deals are read from
        the statements."""
        codes = view.card_codes
        if codes:
            shuffled = self._open
            if shuffled is None:
                shuffled = self._open = ShuffledCards(view.shoe.shoe_id)
                self._pending = 0
            shuffled.rounds.append((self._pending, view.round_id))
            shuffled.shoe_id = shuffled.shoe_id or view.shoe.shoe_id
            shuffled.date = shuffled.date or date
            # in C, no Python step a card; the lines packed at once (array.extend parses
            # each item on its own)
            shuffled.cards += "".join(codes).encode("ascii")
            count = len(codes)
            packer = _PACKERS.get(count) or _packer(count)
            shuffled.lines.frombytes(packer.pack(*view.card_lines))
            self._pending = len(shuffled.lines)
        if view.problems:
            first_index = view.first_card_index
            deals = (() if first_index is None
                     else view.events[first_index:view.deal_end_index + 1])
            self._game(view, dealer, date, deals)
            return
        # _game, from the hands: a hand dealt two cards or more is a trial, a natural if the
        # two make one (an ace and a ten-value)
        value = blackjack.VALUE
        hands = naturals = 0
        for hand in view.hands.values():
            if hand.dealt >= 2:
                hands += 1
                first, second = value[hand.first_dealt[0]], value[hand.second_dealt[0]]
                naturals += first + second == 11 and (first == 1 or second == 1)
        dealt = view.dealer
        if dealt.dealt >= 2:
            self._tally_game(view, dealer, date, hands, naturals, (
                value[dealt.first_dealt[0]], value[dealt.second_dealt[0]]))
        else:
            self._tally_game(view, dealer, date, hands, naturals, ())

    def _cards_and_game(self, view: RoundView, dealer: str | None, date: str | None) -> None:
        marked = False
        deal = ev.Deal
        deals: list[ev.Deal] = []  # for the game math (`_game`), after the loop
        shuffled = self._open
        # The round's cards and their lines, added to the open sequence at once (at the end
        # of the round, or at a shuffle inside it), not card by card.
        cards: list[str] = []
        lines: list[int] = []
        # Two thirds of a round's statements are neither cards nor a shuffle: they are left
        # out at the speed of a comprehension, before the loop below.
        for event in [e for e in view.events if type(e) in _TALLIED]:
            kind = type(event)
            if kind is ev.Shuffle:  # the shoe ran dry mid-round
                if cards:
                    shuffled.cards += "".join(cards).encode("ascii")
                    shuffled.lines.extend(lines)
                    cards, lines = [], []
                self._close()
                shuffled = None
                marked = False
                continue
            card = event.card
            if not card:
                continue
            if shuffled is None:
                shuffled = self._open = ShuffledCards(view.shoe.shoe_id)
                self._pending = 0
            cards.append(card)
            lines.append(event.line)
            if not marked:
                shuffled.rounds.append((self._pending, view.round_id))
                shuffled.shoe_id = shuffled.shoe_id or view.shoe.shoe_id
                shuffled.date = shuffled.date or date
                marked = True
            if kind is deal:
                deals.append(event)
        if cards:
            shuffled.cards += "".join(cards).encode("ascii")
            shuffled.lines.extend(lines)
        if shuffled is not None:
            self._pending = len(shuffled.lines)
        self._game(view, dealer, date, deals)

    def _game(self, view: RoundView, dealer: str | None, date: str | None,
              events) -> None:
        """The game math of a round from its `deal` statements (among `events`)."""
        first_cards: dict[str, int] = {}  # hand -> value of its first dealt card, or -1
        hands = naturals = 0
        dealer_values: list[int] = []
        value = blackjack.VALUE
        deal = ev.Deal
        for event in events:
            if type(event) is not deal:
                continue
            target, points = event.target, value[event.card[0]]
            if target == "dealer":
                dealer_values.append(points)
                continue
            first = first_cards.get(target)
            if first is None:
                first_cards[target] = points
            elif first > 0:  # the second card: a natural is an ace and a ten-value
                hands += 1
                naturals += first + points == 11 and (first == 1 or points == 1)
                first_cards[target] = -1
        self._tally_game(view, dealer, date, hands, naturals, dealer_values)

    def _tally_game(self, view: RoundView, dealer: str | None, date: str | None, hands: int,
                    naturals: int, dealer_values: Sequence[int]) -> None:
        counts = self.game.get((dealer, date))
        if counts is None:
            counts = self.game[dealer, date] = [0] * GAME_SLOTS
        counts[0] += hands
        counts[1] += naturals
        if len(dealer_values) < 2:
            return
        up, hole = dealer_values[0], dealer_values[1]
        natural = up + hole == 11 and (up == 1 or hole == 1)
        if up == 1 or up == 10:
            slot = 2 if up == 1 else 4
            counts[slot] += 1
            counts[slot + 1] += natural
        if natural or not view.dealer_had_to_play:
            return
        hand = view.dealer
        hits_soft_17 = self.hits_soft_17
        total = hand.total  # the dealer's cards' best total, kept by the replay
        if (total <= 21 and (total < 17 or (total == 17 and hand.soft and hits_soft_17))) or (
                view.trades and any(t.target == "dealer" for t in view.trades)):
            return  # stopped short of the drawing rule, or traded (see below)
        for draw in hand.draws:
            before = draw.total_before
            if before > 17 or (before == 17 and not (draw.soft_before and hits_soft_17)):
                # The hand did not end by the drawing rule (stopped early, drew on a
                # standing total, traded): its end says nothing of the cards.
                return
        slot = 6 + 2 * (up - 1)
        counts[slot] += 1
        counts[slot + 1] += total > 21

    def _ladies(self, view: RoundView, dealer: str | None, date: str | None) -> None:
        """Lucky Ladies wagers placed before the first card and taken or paid once: how
        many, and how many were paid (a win is a 20 in the seat's first two cards)."""
        trials = wins = 0
        for wager in view.wagers:
            if (wager.kind != "ladies" or wager.after_first_card or len(wager.settlements) != 1
                    or wager.settlements[0].outcome not in ("win", "lose")):
                continue
            trials += 1
            wins += wager.settlements[0].outcome == "win"
        if trials:
            counts = self.game.get((dealer, date))
            if counts is None:
                counts = self.game[dealer, date] = [0] * GAME_SLOTS
            counts[26] += trials
            counts[27] += wins

    def finish(self) -> None:
        """The file is read: the last shuffle's cards are complete, and the pairs counted."""
        self._close()
        self._count_pairs()

    def _count_pairs(self) -> None:
        """Each line-up's rounds added to its players' pairs. In the order the rounds first
        seated each pair, each player of a line-up once in the order of the wagers: the
        order `pairs` had counted round by round, in which the store numbers the pairs (a
        set's order would follow the process's string hashing). A pair's first round is
        its first line-up's first round, so the line-ups' order gives that order."""
        pairs = self.pairs
        for (dealer, date, players), rounds in self._lineups.items():
            for player in dict.fromkeys(players):
                key = (dealer, player, date)
                pairs[key] = pairs.get(key, 0) + rounds
        self._lineups = {}

    def absorb(self, other: Tally) -> None:
        """The tally of the next piece of the same file (auditor/split.py): a piece begins
        with a `shoe`, which closes the cards' sequence, so sequences never span two."""
        self._count_pairs()
        other._count_pairs()
        if self.table_id is None:
            self.site, self.table_id = other.site, other.table_id
            self.decks, self.hits_soft_17 = other.decks, other.hits_soft_17
        for mine, theirs in ((self.rounds, other.rounds), (self.pairs, other.pairs)):
            for key, count in theirs.items():
                mine[key] = mine.get(key, 0) + count
        self.seats.extend(other.seats)
        # the earlier piece's first round begins a span, the later piece's last ends it
        for stamp, span in other.spans.items():
            mine = self.spans.get(stamp)
            if mine is None:
                self.spans[stamp] = list(span)
            else:
                mine[3:] = span[3:]
        for key, counts in other.game.items():
            mine = self.game.get(key)
            if mine is None:
                self.game[key] = list(counts)
            else:
                self.game[key] = [a + b for a, b in zip(mine, counts, strict=True)]
        self.shuffles.extend(other.shuffles)

    def game_counts(self) -> Iterator[tuple[str | None, str | None, str, int | None, int,
                                            int]]:
        """(dealer, date, statistic, up card, trials, hits) for every count kept."""
        for (dealer, date), counts in self.game.items():
            for slot in range(0, GAME_SLOTS, 2):
                if counts[slot]:
                    statistic, up = GAME_SLOT_NAMES[slot]
                    yield dealer, date, statistic, up, counts[slot], counts[slot + 1]


def players_of(view: RoundView) -> dict[str, str]:
    """Seat -> the player who placed the seat's main wager in this round: the player seated
    when the wager was placed (a player who sits down in the round counts from then)."""
    changes = view.seat_changes  # (both lists are in the order of the round's events)
    players: dict[str, str] = {}
    if not changes:  # nearly every round: the players seated before it
        seated = view.occupied_before
        for wager in view.wagers:
            if wager.kind == "main" and not wager.tip and wager.initial:
                seat = wager.seat
                if seat not in players:
                    player = seated.get(seat)
                    if player is not None:
                        players[seat] = player
        return players
    seated: dict[str, str | None] = dict(view.occupied_before)
    position = 0
    for wager in view.wagers:
        while position < len(changes) and changes[position].index < wager.index:
            change = changes[position]
            seated[change.seat] = change.player if change.kind == "sit" else None
            position += 1
        if wager.kind == "main" and not wager.tip and wager.initial:
            player = seated.get(wager.seat)
            if player is not None:
                players.setdefault(wager.seat, player)
    return players
