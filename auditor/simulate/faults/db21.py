"""Faults of Dealer Bust 21 (20:18:15:30.10): its side wager alone, late or settled wrong,
busted hands discarded, the order of the settlements, the dealer's play and the odds."""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING

from auditor.simulate.cards import total
from auditor.simulate.faults.base import Injector
from auditor.simulate.faults.edits import move_after, personal_hands
from auditor.simulate.faults.registry import injector
from auditor.simulate.faults.wagers import (
    PlacedAfterFirstCard,
    SettledTheWrongWay,
    SideWagerAlone,
    WinPaidWrong,
)
from auditor.simulate.pays import db21_odds

if TYPE_CHECKING:
    from auditor.simulate.game import RoundBuilder
    from auditor.simulate.round_parts import Hand, SeatPlay, Stmt, Wager
    from auditor.simulate.spec import TableSpec

DB21 = frozenset({"db21"})


def settled_db21(builder: RoundBuilder) -> list[Wager]:
    return [s.db21 for s in builder.seats if s.db21 is not None and s.db21.settle is not None]


@injector
class Db21WithoutMainWager(SideWagerAlone):
    citation = "20:18:15:30.10(2)"
    games = DB21
    kind = "db21"
    what = "a DB21 wager on {target} with no blackjack wager"

    def place(self, seat: SeatPlay, wager: Wager) -> None:
        seat.db21 = wager


@injector
class LateDb21Wager(PlacedAfterFirstCard):
    citation = "20:18:15:30.10(4)"
    games = DB21
    what = "the DB21 wager on {target} placed after the first card and settled as a wager"

    def wagers(self, builder: RoundBuilder) -> list[Wager]:
        return [s.db21 for s in builder.seats if s.db21 is not None]


@injector
class Db21WrongOutcome(SettledTheWrongWay):
    citation = "20:18:15:30.10(5)"
    games = DB21
    what = "the DB21 wager on {target} settled the wrong way"

    def wagers(self, builder: RoundBuilder) -> list[Wager]:
        return settled_db21(builder)

    def odds(self, builder: RoundBuilder) -> int:
        return db21_odds(builder.rules.db21_paytable, builder.up())


@injector
class BustedHandDiscarded(Injector):
    citation = "20:18:15:30.10(8)"
    games = DB21

    def edit(self, builder: RoundBuilder) -> bool:
        tucks = [s for s in builder.stmts if s.kind == "tuck"]
        if not tucks:
            return False
        stmt = builder.rng.choice(tucks)
        stmt.kind = "discard"
        builder.mark(stmt, f"{stmt.words[0]} discarded instead of tucked")
        return True


def remaining_settles(builder: RoundBuilder) -> list[Stmt]:
    """Settlements of the players' main and DB21 wagers after the dealer's hand was
    complete, in order (tips are the dealer's wagers: (9) and (10) do not order them)."""
    return [s for s in builder.stmts if s.kind == "settle" and s.meta.remaining
            and s.meta.kind in ("main", "db21") and not s.meta.tip]


@injector
class Db21CollectedLate(Injector):
    citation = "20:18:15:30.10(9)"
    games = DB21

    def edit(self, builder: RoundBuilder) -> bool:
        if total(builder.dealer)[0] > 21:
            return False
        settles = remaining_settles(builder)
        mains = [s for s in settles if s.meta.kind == "main"]
        if not mains:
            return False
        first = mains[0]
        earlier = [s for s in settles if s.meta.kind == "db21"
                   and builder.stmts.index(s) < builder.stmts.index(first)]
        if not earlier:
            return False
        stmt = builder.rng.choice(earlier)
        move_after(builder, stmt, first)
        builder.mark(stmt, f"the DB21 wager on {stmt.meta.target} collected after a remaining "
                           "blackjack wager")
        return True


@injector
class Db21OutOfOrder(Injector):
    citation = "20:18:15:30.10(10)"
    games = DB21

    def edit(self, builder: RoundBuilder) -> bool:
        if total(builder.dealer)[0] <= 21:
            return False
        settles = remaining_settles(builder)
        pairs = [(a, b) for a, b in pairwise(settles)
                 if a.meta.target[:2] != b.meta.target[:2]
                 or (a.meta.kind, b.meta.kind) == ("main", "db21")]
        if not pairs:
            return False
        first, second = builder.rng.choice(pairs)
        move_after(builder, first, second)
        builder.mark(first, f"the {first.meta.kind} wager on {first.meta.target} resolved out "
                            "of counter-clockwise order")
        return True


@injector
class Db21DealerStops(Injector):
    citation = "20:18:15:30.10(11)"
    games = DB21

    def steer(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        # Players may hit any total: here every one of them does, so that all may bust.
        if any(s.db21 is not None and s.hands for s in builder.seats):
            return "hit"
        return None

    def dealer_stop(self, builder: RoundBuilder) -> bool:
        hands = personal_hands(builder)
        return (not builder.applied and bool(hands) and all(h.busted for h in hands)
                and any(s.db21 is not None and s.hands for s in builder.seats))


@injector
class Db21WrongOdds(WinPaidWrong):
    citation = "20:18:15:30.10(12)"
    games = DB21
    what = "the DB21 win on {target} paid one unit too many"

    def suits(self, spec: TableSpec) -> bool:
        return "db21.paytable" in dict(spec.options)  # (no table declared: not judged)

    def wins(self, builder: RoundBuilder) -> list[Wager]:
        return [w for w in settled_db21(builder) if w.outcome == "win"]
