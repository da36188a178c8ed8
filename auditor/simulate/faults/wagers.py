"""The edit of one wager (`WagerEdit`), and the ways of breaking a wager that several games
share, each written once and made a clause of its game by a subclass that names the
citation, the wagers it may pick and the words of the fault (`what`, formatted with the
wager's target and kind)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from auditor.simulate.faults.base import Injector
from auditor.simulate.faults.edits import move_after, rewrite_settle
from auditor.simulate.pays import money
from auditor.simulate.round_parts import SeatPlay

if TYPE_CHECKING:
    from auditor.simulate.game import RoundBuilder
    from auditor.simulate.round_parts import Stmt, Wager
    from auditor.simulate.table import Player


class WagerEdit(Injector):
    """One of the round's `wagers`, drawn at random, changed (`change` returns the
    statement that shows the fault) and marked with `what` (formatted by `describe`)."""

    what: ClassVar[str]

    def wagers(self, builder: RoundBuilder) -> list[Wager]:
        raise NotImplementedError

    def change(self, builder: RoundBuilder, wager: Wager) -> Stmt:
        raise NotImplementedError

    def describe(self, builder: RoundBuilder, wager: Wager) -> str:
        return self.what.format(target=wager.target, kind=wager.kind)

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = self.wagers(builder)
        if not wagers:
            return False
        wager = builder.rng.choice(wagers)
        builder.mark(self.change(builder, wager), self.describe(builder, wager))
        return True


class PlacedAfterFirstCard(WagerEdit):
    """A wager placed after the first card of the round (a side wager settled all the
    same, as if it had been in time). Not a wager its own play pushed for its whole amount:
    that returns it as a wager that is no bet must be returned, so the lateness would show
    nothing (issue 41: `void` or `push` in full)."""

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = [w for w in self.wagers(builder)
                  if not (w.outcome in ("push", "void") and w.paid == w.amount)]
        if not wagers:
            return False
        wager = builder.rng.choice(wagers)
        builder.mark(self.change(builder, wager), self.describe(builder, wager))
        return True

    def change(self, builder: RoundBuilder, wager: Wager) -> Stmt:
        move_after(builder, wager.bet, builder.first_deal)
        return wager.bet


class SettledTheWrongWay(WagerEdit):
    """A side wager that won collected, or one that lost paid as a win."""

    def odds(self, builder: RoundBuilder) -> int:
        """What a unit of the wager wins where it is paid as a win."""
        raise NotImplementedError

    def change(self, builder: RoundBuilder, wager: Wager) -> Stmt:
        if wager.outcome == "win":
            rewrite_settle(wager.settle, wager, "lose", wager.amount)
        else:
            rewrite_settle(wager.settle, wager, "win", wager.amount * self.odds(builder))
        return wager.settle


class WinPaidWrong(WagerEdit):
    """A side wager's win paid other than its pay table says: one unit too many unless
    `paid` says otherwise (None: not this win). `what` may name the amounts paid and due."""

    def wins(self, builder: RoundBuilder) -> list[Wager]:
        raise NotImplementedError

    def paid(self, builder: RoundBuilder, wager: Wager) -> int | None:
        return wager.paid + wager.amount

    def wagers(self, builder: RoundBuilder) -> list[Wager]:
        return [w for w in self.wins(builder) if self.paid(builder, w) is not None]

    def change(self, builder: RoundBuilder, wager: Wager) -> Stmt:
        rewrite_settle(wager.settle, wager, "win", self.paid(builder, wager))
        return wager.settle

    def describe(self, builder: RoundBuilder, wager: Wager) -> str:
        return self.what.format(target=wager.target, paid=money(self.paid(builder, wager)),
                                due=money(wager.paid))


class SideWagerAlone(Injector):
    """A side wager (`kind`) at a seat with no blackjack wager: a player seated but not in
    the round wagers on the side alone."""

    kind: ClassVar[str]
    what: ClassVar[str]

    def place(self, seat: SeatPlay, wager: Wager) -> None:
        """Give the seat its side wager."""
        raise NotImplementedError

    def extra_bettors(self, builder: RoundBuilder, players: dict[int, Player]) -> set[int]:
        if len(players) < 2:
            return set()
        number = builder.rng.choice(sorted(players))
        seat = SeatPlay(number, players[number])
        wager = builder.bet(seat.name, self.kind, builder.spec.side_limits[0])
        self.place(seat, wager)
        builder.mark(wager.bet, self.what.format(target=seat.name))
        builder.forced_seats[number] = seat
        return {number}
