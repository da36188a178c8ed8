"""The parts of a simulated round: its statements (time-stamped when the round is
written), the wagers, the hands (split hands keep their parent) and each seat's play."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from auditor.simulate.cards import is_two_card_21, total

if TYPE_CHECKING:
    from auditor.simulate.table import Player


class Stmt:
    """One statement of the record; its time stamp is given when the round is written."""

    __slots__ = ("fault", "kind", "meta", "seconds", "words")

    def __init__(self, kind: str, words: tuple[str, ...] = (), seconds: int = 1,
                 meta: Any = None) -> None:
        self.kind = kind
        self.words = words
        self.seconds = seconds
        self.meta = meta
        # (citation, what was planted, the clause: the injector's name)
        self.fault: tuple[str, str, str] | None = None

    @property
    def text(self) -> str:
        return f"{self.kind} {' '.join(self.words)}" if self.words else self.kind


@dataclass(slots=True)
class Wager:
    kind: str  # main, insurance, supermatch, db21
    target: str
    amount: int  # cents
    tip: bool
    bet: Stmt | None  # None for the new wager of a split
    settle: Stmt | None = None
    outcome: str = ""
    paid: int = 0
    remaining: bool = False  # settled after the dealer's hand was complete
    late: bool = False  # placed after the first card (a fault)


@dataclass(slots=True)
class Hand:
    name: str
    seat: int
    cards: list[str] = field(default_factory=list)
    wager: Wager | None = None
    tips: list[Wager] = field(default_factory=list)
    doubled: int = 0
    parent: Hand | None = None
    split_aces: bool = False
    was_split: bool = False
    splits_of_root: int = 0
    odd_split: bool = False  # a split of its line was for a wrong amount
    switched: bool = False
    done: bool = False
    busted: bool = False
    surrendered: bool = False
    settled: bool = False
    decisions: int = 0
    card_stmts: list[Stmt] = field(default_factory=list)

    @property
    def natural(self) -> bool:
        return (self.parent is None and not self.was_split and not self.switched
                and is_two_card_21(self.cards))

    @property
    def total(self) -> int:
        return total(self.cards)[0]

    @property
    def stake(self) -> int:
        return (self.wager.amount if self.wager else 0) + self.doubled


def root_of(hand: Hand) -> Hand:
    """The original hand a hand was split from (itself if it was never split off)."""
    while hand.parent is not None:
        hand = hand.parent
    return hand


@dataclass(slots=True)
class SeatPlay:
    seat: int
    player: Player
    hands: list[Hand] = field(default_factory=list)
    db21: Wager | None = None
    db21_tips: list[Wager] = field(default_factory=list)  # the dealer's, beside the player's
    super_match: Wager | None = None
    ladies: list[Wager] = field(default_factory=list)  # the player's, then a tip
    insurance: list[Wager] = field(default_factory=list)
    first_four: list[str] = field(default_factory=list)
    misdealt: bool = False

    @property
    def name(self) -> str:
        return f"s{self.seat}"
