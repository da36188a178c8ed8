"""Faults of Lucky Ladies blackjack (20:18:15:30.04): its side wager alone, late or settled
the wrong way, wins paid off the pay table, and wagers taken after a player drew."""

from __future__ import annotations

from typing import TYPE_CHECKING

from auditor.simulate.faults.edits import move_after, seat_of
from auditor.simulate.faults.registry import injector
from auditor.simulate.faults.wagers import (
    PlacedAfterFirstCard,
    SettledTheWrongWay,
    SideWagerAlone,
    WagerEdit,
    WinPaidWrong,
)
from auditor.simulate.pays import LADIES, ladies_kind

if TYPE_CHECKING:
    from auditor.simulate.game import RoundBuilder
    from auditor.simulate.round_parts import SeatPlay, Stmt, Wager
    from auditor.simulate.spec import TableSpec

LADIES_GAME = frozenset({"ladies"})


def settled_ladies(builder: RoundBuilder) -> list[Wager]:
    """Lucky Ladies wagers taken or paid (a misdeal's void is not)."""
    return [w for s in builder.seats for w in s.ladies
            if w.settle is not None and w.outcome in ("win", "lose")]


@injector
class LadiesWithoutMainWager(SideWagerAlone):
    citation = "20:18:15:30.04(2)"
    games = LADIES_GAME
    kind = "ladies"
    what = "a Lucky Ladies wager on {target} with no blackjack wager"

    def place(self, seat: SeatPlay, wager: Wager) -> None:
        seat.ladies.append(wager)


@injector
class LateLadiesWager(PlacedAfterFirstCard):
    citation = "20:18:15:30.04(2)"
    games = LADIES_GAME
    what = ("the Lucky Ladies wager on {target} placed after the first card and settled as "
            "a wager")

    def wagers(self, builder: RoundBuilder) -> list[Wager]:
        return settled_ladies(builder)


@injector
class LadiesWrongOutcome(SettledTheWrongWay):
    citation = "20:18:15:30.04(3)"
    games = LADIES_GAME
    what = "the Lucky Ladies wager on {target} settled the wrong way"

    def wagers(self, builder: RoundBuilder) -> list[Wager]:
        return settled_ladies(builder)

    def odds(self, builder: RoundBuilder) -> int:
        return 4


class LadiesWinPaidWrong(WinPaidWrong):
    citation = "20:18:15:30.04(4)"
    games = LADIES_GAME
    what = "the Lucky Ladies win on {target} paid {paid}, not {due}"

    def suits(self, spec: TableSpec) -> bool:
        return "ladies.paytable" in dict(spec.options)  # (no table declared: not judged)

    def wins(self, builder: RoundBuilder) -> list[Wager]:
        return [w for w in settled_ladies(builder) if w.outcome == "win"]


@injector
class LadiesWrongOdds(LadiesWinPaidWrong):
    """A win paid one unit too many."""


@injector
class LadiesTwoCategoriesPaid(LadiesWinPaidWrong):
    def paid(self, builder: RoundBuilder, wager: Wager) -> int | None:
        """A hand above any 20 paid its own category and the any-20 odds as well."""
        seat = seat_of(builder, wager.target)
        kind = ladies_kind(builder.first_two(seat), builder.spec.decks == 1,
                           builder.dealer_natural)
        if kind in (None, "any"):
            return None
        return wager.paid + wager.amount * LADIES[builder.rules.ladies_paytable]["any"]


@injector
class LadiesTakenAfterMoreCards(WagerEdit):
    citation = "20:18:15:30.04(5)"
    games = LADIES_GAME
    what = "the Lucky Ladies wager on {target} taken or paid after a player drew"

    @staticmethod
    def first_draw(builder: RoundBuilder) -> Stmt | None:
        """The round's first card drawn by a player."""
        return next((s for s in builder.stmts if s.kind in ("hit", "double")), None)

    def wagers(self, builder: RoundBuilder) -> list[Wager]:
        more = self.first_draw(builder)
        if more is None:
            return []
        position = builder.stmts.index(more)
        return [w for w in settled_ladies(builder) if builder.stmts.index(w.settle) < position]

    def change(self, builder: RoundBuilder, wager: Wager) -> Stmt:
        move_after(builder, wager.settle, self.first_draw(builder))
        return wager.settle
