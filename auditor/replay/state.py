"""The table between rounds: the shoe and its card counts, the dealer, the seats and lights."""

from __future__ import annotations

from dataclasses import dataclass, field

from auditor import events as ev
from auditor.clock import date_after
from auditor.config import TableConfig
from auditor.fieldwise import Fieldwise
from auditor.replay.view import ShoeStatus, counted_since_text

_new = object.__new__


@dataclass(slots=True, repr=False, eq=False)
class SeatState(Fieldwise):
    """What a seat carries from round to round: its player and their lights and prizes."""

    player: str | None  # None: an unnamed player seated by a wager
    player_start: int = 0  # what the present player started with (punches handed in, or 0)
    lit_since_sit: bool = False
    prize_since_light: bool = False
    other_prize_since_light: bool = False

    def copy(self) -> SeatState:
        return SeatState(self.player, self.player_start, self.lit_since_sit,
                         self.prize_since_light, self.other_prize_since_light)

    def held(self, recorded: int) -> int:
        """The lights this player holds, given the seat's last recorded count: none after a
        prize (the count starts again at zero), else that count once the player has a light,
        else what the player started with."""
        if self.prize_since_light:
            return 0
        return recorded if self.lit_since_sit else self.player_start


@dataclass(slots=True, repr=False, eq=False)
class TableState(Fieldwise):
    """What the table carries from round to round: the shoe, its cards counted, the seats."""

    config: TableConfig
    shoe_id: str | None = None
    shoe_date: str | None = None
    # The date a statement that gives none is of (`dated`): the shoe's, moved on a day each
    # time the clock passed midnight; and the last time stamp read (a round's own date= is
    # its own, bjh-format.md §1: neither moves them).
    date_in_force: str | None = None
    last_clock: str | None = None
    shuffled: bool = False
    cut_after_shuffle: bool = False
    cutcard_line: int | None = None  # the cutting card is out and no shuffle has followed
    # card -> times seen: a plain dict (a Counter, as a dict subclass with a Python-level
    # __delitem__, takes the slow path on every item read and stored: a few per card)
    counts: dict[str, int] = field(default_factory=dict)
    counted_since: int | None = None  # the `shuffle` the counts started again at (None: the shoe)
    dealer: str | None = None
    seats: dict[str, SeatState] = field(default_factory=dict)
    # seat -> its last recorded light count: the table's disk, carried even across players
    lights: dict[str, int] = field(default_factory=dict)
    closed: bool = False
    # The shoe's status as the rounds see it (`shoe_status`), kept until `apply` changes
    # the shoe: one object shared by the rounds between two table statements
    status: ShoeStatus | None = field(default=None, compare=False, repr=False)

    def clone(self, config: TableConfig | None = None) -> TableState:
        """A copy that a replay can change without touching this one (for tracing; with
        `config`, for judging under another table the header could describe)."""
        # made in place (every round, for the evidence): every field stored, as
        # tests/replay/test_replay_inits.py holds it to the dataclass's own fields
        copy = _new(TableState)
        copy.config = config or self.config
        copy.shoe_id, copy.shoe_date, copy.shuffled = self.shoe_id, self.shoe_date, self.shuffled
        copy.date_in_force, copy.last_clock = self.date_in_force, self.last_clock
        copy.cut_after_shuffle, copy.cutcard_line = self.cut_after_shuffle, self.cutcard_line
        copy.counts, copy.counted_since = self.counts.copy(), self.counted_since
        copy.dealer, copy.closed, copy.status = self.dealer, self.closed, self.status
        copy.seats, copy.lights = dict(self.seats), dict(self.lights)  # seats: never changed
        return copy  # in place (seat_lit, prize_paid put new SeatStates)

    def date_of(self, day: str | None, clock: str | None) -> str | None:
        """The date of a statement read now at `clock` that gives `day` (None: none of its
        own): its own, else the date in force, the next where the clock went back more than
        an hour since the last time stamp (auditor/clock.py `date_after`: it passed
        midnight; the fall-back hour did not)."""
        if day is not None or clock is None:
            return day if day is not None else self.date_in_force
        return date_after(self.date_in_force, self.last_clock, clock)

    def dated(self, day: str | None, clock: str | None) -> str | None:
        """`date_of`, the state moved on to it (a round's start, a time stamp read), unless
        the statement gives its own date (`day`): that one is its alone."""
        if day is not None:
            return day
        day = self.date_of(None, clock)
        self.date_in_force = day
        if clock is not None:
            self.last_clock = clock
        return day

    def shoe_status(self) -> ShoeStatus:
        status = self.status
        if status is None:
            status = self.status = ShoeStatus(
                self.shoe_id, self.shuffled, self.cut_after_shuffle,
                self.cutcard_line is not None, self.cutcard_line, self.counted_since)
        return status

    def counted_since_text(self) -> str:
        """Where the card counts started: the shoe, or the shuffle that started them again."""
        return counted_since_text(self.counted_since)

    def count_card(self, card: str) -> int:
        seen = self.counts[card] = self.counts.get(card, 0) + 1
        return seen

    # ---- what a round changes that outlives it (auditor/split.py replays only these) ----
    def seat_player(self, seat: str, player: str, punches: int | None) -> None:
        self.seats[seat] = SeatState(player, player_start=punches or 0)

    def unseat(self, seat: str) -> SeatState | None:
        return self.seats.pop(seat, None)

    def seat_wagerer(self, seat: str) -> None:
        """A wager on a seat nobody sat at seats an unnamed player there."""
        if seat not in self.seats:
            self.seats[seat] = SeatState(None)

    def seat_lit(self, seat: str, count: int) -> None:
        """The seat's disk shows `count` lights (the seat is taken, if it was not)."""
        state = self.seats.get(seat)
        # a new SeatState, not the old one changed: a clone shares the seats (`clone`)
        self.seats[seat] = SeatState(None if state is None else state.player,
                                     0 if state is None else state.player_start, True)
        self.lights[seat] = count

    def prize_paid(self, seat: str) -> None:
        seats = self.seats
        for name, state in list(seats.items()):  # new SeatStates: a clone shares the old
            changed = seats[name] = state.copy()
            if name == seat:
                changed.prize_since_light = True
            else:
                changed.other_prize_since_light = True

    def handoff(self) -> tuple:
        """What the table carries from one shoe to the next, comparable: at a `shoe` the
        shoe, the shuffle, the cut and the counts start again; the rest goes on."""
        seats = tuple(sorted((seat, s.player, s.player_start, s.lit_since_sit,
                              s.prize_since_light, s.other_prize_since_light)
                             for seat, s in self.seats.items()))
        return (self.dealer, seats, tuple(sorted(self.lights.items())), self.closed,
                tuple(self.seats))

    def apply(self, event: ev.Event) -> None:
        """A body statement outside a round (also the few allowed inside one)."""
        self.status = None  # the shoe may change: its status is made again when asked
        if isinstance(event, ev.Shoe):
            self.shoe_id, self.shoe_date = event.shoe_id, event.date
            self.date_in_force, self.last_clock = event.date, event.time
            self.shuffled = self.cut_after_shuffle = False
            self.cutcard_line = None
            self.counts.clear()
            self.counted_since = None
            return
        if event.time is not None:
            self.dated(None, event.time)
        if isinstance(event, ev.Shuffle):
            # Reading: a shuffle brings the discards back into play, so counts start again.
            self.shuffled = True
            self.cut_after_shuffle = False
            self.cutcard_line = None
            self.counts.clear()
            self.counted_since = event.line
        elif isinstance(event, ev.Cut):
            self.cut_after_shuffle = self.shuffled
        elif isinstance(event, ev.CutCard):
            if self.cutcard_line is None:
                self.cutcard_line = event.line
        elif isinstance(event, ev.Burn):
            self.count_card(event.card)
        elif isinstance(event, ev.DealerChange):
            self.dealer = event.dealer_id
        elif isinstance(event, ev.Close):
            self.closed = True
            self.seats.clear()
