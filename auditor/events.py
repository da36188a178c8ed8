"""Typed events: one per BJH statement, each keeping its line and optional time stamp.

Events are slotted dataclasses rather than pydantic models: a round has forty or so of them
and they are built on the hot path, where a frozen dataclass or a pydantic model costs
several times as much to build. They are not frozen, for that reason alone: nothing changes
an event once built (the replay reads them; checks see them through the round's view, and
`tests/checks/test_read_only_view.py` holds checks to leaving the view unchanged). Validation that
matters to an inspector (amounts, cards, seats) is done by the grammar; meaning is judged
later by the replay and the checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from auditor.fieldwise import Fieldwise

# Every event's repr and equality are Fieldwise's, the same as @dataclass's but not
# compiled for each of these 36 classes in every process (auditor/fieldwise.py).


@dataclass(slots=True, repr=False, eq=False)
class Event(Fieldwise):
    """A statement of the record: its line and its time stamp, if any."""

    line: int
    time: str | None


# ---- header ----
@dataclass(slots=True, repr=False, eq=False)
class Version(Event):
    """`bjh 1`"""

    number: int


@dataclass(slots=True, repr=False, eq=False)
class Casino(Event):
    """`casino "NAME" [licence=ID]`"""

    name: str
    licence: str | None


@dataclass(slots=True, repr=False, eq=False)
class Table(Event):
    """`table ID game=GAME decks=N [seats=N] [min=AMOUNT] [max=AMOUNT] [currency=CODE]`"""

    table_id: str
    fields: tuple[tuple[str, str], ...]  # key=value pairs in record order, judged by the reader


@dataclass(slots=True, repr=False, eq=False)
class Option(Event):
    """`option KEY=VALUE`"""

    key: str
    value: str


# ---- body, outside rounds (some also allowed inside) ----
@dataclass(slots=True, repr=False, eq=False)
class Shoe(Event):
    """`shoe ID [date=YYYY-MM-DD]`"""

    shoe_id: str
    date: str | None


@dataclass(slots=True, repr=False, eq=False)
class Shuffle(Event):
    """`shuffle`"""


@dataclass(slots=True, repr=False, eq=False)
class Cut(Event):
    """`cut`"""


@dataclass(slots=True, repr=False, eq=False)
class CutCard(Event):
    """`cutcard`"""


@dataclass(slots=True, repr=False, eq=False)
class Burn(Event):
    """`burn CARD`"""

    card: str


@dataclass(slots=True, repr=False, eq=False)
class DealerChange(Event):
    """`dealer ID`"""

    dealer_id: str


@dataclass(slots=True, repr=False, eq=False)
class Note(Event):
    """`note "TEXT"`"""

    text: str


@dataclass(slots=True, repr=False, eq=False)
class Close(Event):
    """`close`"""


# ---- rounds ----
@dataclass(slots=True, repr=False, eq=False)
class RoundStart(Event):
    """`round ID [date=YYYY-MM-DD] [time=HH:MM:SS] [dealer=ID]`"""

    round_id: str
    date: str | None
    clock: str | None
    dealer: str | None


@dataclass(slots=True, repr=False, eq=False)
class RoundEnd(Event):
    """`end`"""


@dataclass(slots=True, repr=False, eq=False)
class Sit(Event):
    """`sit SEAT player=ID [punchcard=ID punches=N]`"""

    seat: str
    player: str
    punchcard: str | None
    punches: int | None


@dataclass(slots=True, repr=False, eq=False)
class Leave(Event):
    """`leave SEAT [punchcard=ID punches=N]`"""

    seat: str
    punchcard: str | None
    punches: int | None


@dataclass(slots=True, repr=False, eq=False)
class Bet(Event):
    """`bet TARGET KIND AMOUNT [tip]`"""

    target: str
    kind: str
    amount: Decimal
    tip: bool


@dataclass(slots=True, repr=False, eq=False)
class Deal(Event):
    """`deal TARGET CARD`"""

    target: str
    card: str


@dataclass(slots=True, repr=False, eq=False)
class Peek(Event):
    """`peek`"""


@dataclass(slots=True, repr=False, eq=False)
class Switch(Event):
    """`switch SEAT`"""

    seat: str


@dataclass(slots=True, repr=False, eq=False)
class Hit(Event):
    """`hit HAND CARD`"""

    hand: str
    card: str


@dataclass(slots=True, repr=False, eq=False)
class Stand(Event):
    """`stand HAND`"""

    hand: str


@dataclass(slots=True, repr=False, eq=False)
class Double(Event):
    """`double HAND AMOUNT CARD`"""

    hand: str
    amount: Decimal
    card: str


@dataclass(slots=True, repr=False, eq=False)
class Split(Event):
    """`split HAND NEWHAND AMOUNT`"""

    hand: str
    new_hand: str
    amount: Decimal


@dataclass(slots=True, repr=False, eq=False)
class Surrender(Event):
    """`surrender HAND`"""

    hand: str


@dataclass(slots=True, repr=False, eq=False)
class Trade(Event):
    """`trade TARGET CARD`"""

    target: str
    card: str


@dataclass(slots=True, repr=False, eq=False)
class Light(Event):
    """`light SEAT N`"""

    seat: str
    count: int


@dataclass(slots=True, repr=False, eq=False)
class Prize(Event):
    """`prize SEAT AMOUNT`"""

    seat: str
    amount: Decimal


@dataclass(slots=True, repr=False, eq=False)
class Reveal(Event):
    """`reveal`"""


@dataclass(slots=True, repr=False, eq=False)
class Draw(Event):
    """`draw CARD`"""

    card: str


@dataclass(slots=True, repr=False, eq=False)
class Settle(Event):
    """`settle TARGET KIND OUTCOME AMOUNT [tip]`"""

    target: str
    kind: str
    outcome: str
    amount: Decimal
    tip: bool


@dataclass(slots=True, repr=False, eq=False)
class Tuck(Event):
    """`tuck HAND`"""

    hand: str


@dataclass(slots=True, repr=False, eq=False)
class Discard(Event):
    """`discard HAND`"""

    hand: str


@dataclass(slots=True, repr=False, eq=False)
class Misdeal(Event):
    """`misdeal TARGET`"""

    target: str


# ---- a line that could not be read ----
@dataclass(slots=True, repr=False, eq=False)
class Unreadable(Event):
    """A line that is not a statement: kept in the stream so that nothing is lost."""

    column: int
    message: str
    text: str
