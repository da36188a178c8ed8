"""Fault injectors, keyed by the citation of the check that must find them.

An injector plants one fault in one round. It either bends the play through a hook that
the round builder (game.py) consults at the right moment (a double for too much, a dealer
who stops early), or edits the finished round (a wrong payout, a statement moved out of
order). Either way it marks the statement that shows the fault, and the rest of the round
stays consistent with it: settlements are made on the cards as dealt, so one fault gives
exactly one finding, under its own citation (rule-catalog.md: "one fault, one finding").

To cover a new check, write an `Injector` subclass with its `citation` and decorate it
with `@injector`; several variants may share a citation.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import pairwise
from typing import TYPE_CHECKING, ClassVar

from auditor.simulate.cards import BONUS_CARD, VALUE, total
from auditor.simulate.game import Hand, RoundBuilder, SeatPlay, Stmt, Wager, db21_odds, money

if TYPE_CHECKING:
    from auditor.simulate.table import Player, Session, TableSpec

ALL_GAMES = frozenset({"standard", "switch", "db21", "tensticks"})
FILE_LEVEL = frozenset({"record:header"})  # planted in the header, see table.Session.header


class Injector:
    """No fault: every hook leaves the play alone. Subclasses override what they need."""

    citation: ClassVar[str] = ""
    games: ClassVar[frozenset[str]] = ALL_GAMES

    def suits(self, spec: TableSpec) -> bool:
        """Whether the table's rules allow this fault at all (e.g. surrender offered)."""
        return True

    # ---- hooks consulted while the round is dealt (return None/False: no deviation) ----
    def extra_bettors(self, builder: RoundBuilder, players: dict[int, Player]) -> set[int]:
        return set()

    def main_amount(self, builder: RoundBuilder, seat: SeatPlay, amount: int) -> int | None:
        return None

    def insurance(self, builder: RoundBuilder, hand: Hand) -> int | None:
        return None

    def decision(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        return None

    def steer(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        """A lawful player choice that sets the stage for the fault (not itself a fault)."""
        return None

    def double_amount(self, builder: RoundBuilder, hand: Hand) -> int | None:
        return None

    def split_amount(self, builder: RoundBuilder, hand: Hand) -> int | None:
        return None

    def play_new_hand_first(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand,
                            new: Hand) -> bool:
        return False

    def dealer_stop(self, builder: RoundBuilder) -> bool:
        return False

    def dealer_extra(self, builder: RoundBuilder) -> bool:
        return False

    def skip_reshuffle(self, session: Session) -> bool:
        return False

    # ---- after the round is dealt ----
    def edit(self, builder: RoundBuilder) -> bool:
        """Change the finished round; True if the fault was planted (and marked)."""
        return False


NO_FAULT = Injector()
INJECTORS: dict[str, list[type[Injector]]] = {}


def injector(cls: type[Injector]) -> type[Injector]:
    INJECTORS.setdefault(cls.citation, []).append(cls)
    return cls


class InjectorTable:
    """The injectors for the checks the auditor has, in the order a faulty round tries them."""

    def __init__(self) -> None:
        from auditor import checks as _checks  # noqa: F401  (registers every check)
        from auditor.checks.base import registry

        self.checks = registry()

    def citations(self, game: str) -> list[str]:
        return [c for c, check in self.checks.items()
                if check.applies_to(game) and c not in FILE_LEVEL
                and any(game in v.games for v in INJECTORS.get(c, ()))]

    def missing(self, game: str) -> list[str]:
        """Checks of the game that no injector covers."""
        return [c for c, check in self.checks.items() if check.applies_to(game)
                and c not in FILE_LEVEL
                and not any(game in v.games for v in INJECTORS.get(c, ()))]

    def candidates(self, session: Session, rng: random.Random) -> Iterator[Injector]:
        """The least planted citations first, so that every check gets its faults."""
        spec = session.spec
        order = sorted(self.citations(spec.game),
                       key=lambda c: (session.planted_count[c], rng.random()))
        for citation in order:
            variants = [v() for v in INJECTORS[citation] if spec.game in v.games]
            rng.shuffle(variants)
            yield from (v for v in variants if v.suits(spec))


# ---- helpers for edits ----

def personal_hands(builder: RoundBuilder) -> list[Hand]:
    return [h for s in builder.seats for h in s.hands if h.wager is not None]


def rewrite_settle(stmt: Stmt, wager: Wager, outcome: str, amount: int) -> None:
    words = [wager.target, wager.kind, outcome, money(amount)]
    if wager.tip:
        words.append("tip")
    stmt.words = tuple(words)


def move_after(builder: RoundBuilder, stmt: Stmt, anchor: Stmt) -> None:
    builder.stmts.remove(stmt)
    builder.stmts.insert(builder.stmts.index(anchor) + 1, stmt)


def insert_before_end(builder: RoundBuilder, stmt: Stmt) -> None:
    builder.stmts.insert(len(builder.stmts) - 1, stmt)


def live_player_hand(builder: RoundBuilder) -> bool:
    return any(not (h.busted or h.natural or h.surrendered) for h in personal_hands(builder))


def original(hand: Hand) -> bool:
    return hand.parent is None and not hand.was_split


# ---- record: problems of the record itself ----

@injector
class UnreadableLine(Injector):
    citation = "record:syntax"

    def edit(self, builder: RoundBuilder) -> bool:
        stmt = Stmt("note", ('"card reader fault',))  # the closing quote is missing
        insert_before_end(builder, stmt)
        builder.mark(stmt, "a note with no closing quote")
        return True


@injector
class UnknownHand(Injector):
    citation = "record:reference"

    def edit(self, builder: RoundBuilder) -> bool:
        seats = [s for s in builder.seats if s.hands]
        seat = builder.rng.choice(seats)
        stmt = Stmt("stand", (f"{seat.name}h9",))
        insert_before_end(builder, stmt)
        builder.mark(stmt, f"a stand of {seat.name}h9, a hand never dealt")
        return True


@injector
class CardTooOften(Injector):
    citation = "record:card-count"

    def edit(self, builder: RoundBuilder) -> bool:
        session = builder.session
        seen = {c: n for c, n in session.seen.items() if c != BONUS_CARD}
        if not seen:
            return False
        most = max(seen.values())
        card = builder.rng.choice(sorted(c for c, n in seen.items() if n == most))
        stmt = None
        for _ in range(session.spec.decks - most + 1):
            stmt = Stmt("burn", (card,))
            insert_before_end(builder, stmt)
        builder.mark(stmt, f"{card} burned once more than the shoe holds it")
        session.reshuffle_due = True  # the next round must not deal that card again
        return True


@injector
class WagerNeverSettled(Injector):
    citation = "record:unsettled"

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = [h.wager for h in personal_hands(builder) if h.wager.settle is not None]
        if not wagers:
            return False
        last = max(wagers, key=lambda w: builder.stmts.index(w.settle))
        builder.stmts.remove(last.settle)
        builder.mark(builder.stmts[-1], f"the {last.kind} wager on {last.target} was never "
                                        "settled")
        return True


# ---- 20:18:15 standard rules ----

@injector
class LateMainWager(Injector):
    citation = "20:18:15:03"

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = [s.hands[0].wager for s in builder.seats if s.hands]
        wager = builder.rng.choice(wagers)
        move_after(builder, wager.bet, builder.first_deal)
        builder.mark(wager.bet, f"the main wager on {wager.target} placed after the first card")
        return True


@injector
class MainWagerOverLimit(Injector):
    citation = "20:18:15:03"
    games = ALL_GAMES - {"switch"}  # a switch seat wagers twice: two findings

    def main_amount(self, builder: RoundBuilder, seat: SeatPlay, amount: int) -> int | None:
        return None if builder.applied else builder.spec.maximum + 500


@injector
class LateSuperMatch(Injector):
    citation = "20:18:15:03"
    games = frozenset({"switch"})

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = [s.super_match for s in builder.seats if s.super_match is not None]
        if not wagers:
            return False
        wager = builder.rng.choice(wagers)
        move_after(builder, wager.bet, builder.first_deal)
        builder.mark(wager.bet, f"the super match wager on {wager.target} placed after the "
                                "first card")
        return True


@injector
class WrongMainPayout(Injector):
    citation = "20:18:15:06"
    games = ALL_GAMES - {"switch"}  # switch has its own rule, 30.09(13)

    def edit(self, builder: RoundBuilder) -> bool:
        hands = [h for h in personal_hands(builder) if h.wager.settle is not None
                 and not h.busted and not h.surrendered]
        if not hands:
            return False
        hand = builder.rng.choice(hands)
        wager = hand.wager
        if wager.outcome == "win":
            paid = wager.paid + 500 if wager.paid <= 500 or builder.rng.random() < 0.5 \
                else wager.paid - 500
            rewrite_settle(wager.settle, wager, "win", paid)
        elif wager.outcome == "lose":
            rewrite_settle(wager.settle, wager, "push", wager.paid)
        else:
            rewrite_settle(wager.settle, wager, "lose", wager.paid)
        builder.mark(wager.settle, f"{wager.target} settled {wager.settle.text} instead of "
                                   f"{wager.outcome} {money(wager.paid)}")
        return True


@injector
class NoReshuffleAfterCutCard(Injector):
    citation = "20:18:15:10"

    def skip_reshuffle(self, session: Session) -> bool:
        return True


@injector
class InsuranceOverHalf(Injector):
    citation = "20:18:15:23"

    def insurance(self, builder: RoundBuilder, hand: Hand) -> int | None:
        if builder.applied or hand.wager.amount < 200:
            return None
        return hand.wager.amount


@injector
class InsuranceWrongPayout(Injector):
    citation = "20:18:15:23"

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = [w for s in builder.seats for w in s.insurance if w.settle is not None]
        if not wagers:
            return False
        wager = builder.rng.choice(wagers)
        if wager.outcome == "win":
            rewrite_settle(wager.settle, wager, "win", wager.amount)  # 1 to 1, not 2 to 1
        else:
            rewrite_settle(wager.settle, wager, "push", wager.amount)
        builder.mark(wager.settle, f"insurance on {wager.target} settled wrongly")
        return True


@injector
class DoubleForMore(Injector):
    citation = "20:18:15:24"

    def double_amount(self, builder: RoundBuilder, hand: Hand) -> int | None:
        return None if builder.applied else hand.wager.amount * 2


@injector
class DoubleAfterHit(Injector):
    citation = "20:18:15:24"

    def decision(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        if (builder.applied or not original(hand) or len(hand.cards) != 3
                or hand.total > 11):
            return None
        return "double"


@injector
class DoubleOutsideOption(Injector):
    citation = "20:18:15:24"

    def suits(self, spec: TableSpec) -> bool:
        return spec.rules.double != "any"

    def decision(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        if (builder.applied or not original(hand) or len(hand.cards) != 2
                or hand.decisions or hand.natural or hand.total in (9, 10, 11)):
            return None
        return "double"


@injector
class SplitUnequalCards(Injector):
    citation = "20:18:15:25"

    def decision(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        cards = hand.cards
        if (builder.applied or not original(hand) or len(cards) != 2 or hand.decisions
                or hand.natural or VALUE[cards[0][0]] == VALUE[cards[1][0]]):
            return None
        return "split"


@injector
class SplitWagerUnequal(Injector):
    citation = "20:18:15:25"
    games = ALL_GAMES - {"switch"}  # switch: 20:18:15:30.09(11)

    def split_amount(self, builder: RoundBuilder, hand: Hand) -> int | None:
        return None if builder.applied else hand.wager.amount + 500


@injector
class SecondSplitHandFirst(Injector):
    citation = "20:18:15:25"

    def play_new_hand_first(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand,
                            new: Hand) -> bool:
        return not builder.applied and not hand.split_aces and hand.total < 21


@injector
class DealerStopsShort(Injector):
    citation = "20:18:15:26"

    def dealer_stop(self, builder: RoundBuilder) -> bool:
        return (not builder.applied and builder.dealer_had_to_play
                and live_player_hand(builder))


@injector
class DealerDrawsOnStandingTotal(Injector):
    citation = "20:18:15:28"

    def dealer_extra(self, builder: RoundBuilder) -> bool:
        # A hard total only: a card drawn to a soft 21 can make a hard 16, and the stop
        # on it would be reported under 20:18:15:26 as well (reported to the lead).
        count, soft = total(builder.dealer)
        return (not builder.applied and not builder.dealer_natural and not soft
                and 17 <= count <= 21)


@injector
class SurrenderAfterHit(Injector):
    citation = "20:18:15:30"

    def suits(self, spec: TableSpec) -> bool:
        return spec.rules.surrender == "late"

    def decision(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        if builder.applied or not original(hand) or len(hand.cards) < 3:
            return None
        return "surrender"


@injector
class SurrenderNotOffered(Injector):
    citation = "20:18:15:30"

    def suits(self, spec: TableSpec) -> bool:
        return spec.rules.surrender == "no"

    def decision(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        if builder.applied or not original(hand) or hand.decisions or len(hand.cards) != 2:
            return None
        return "surrender"


# ---- 20:18:15:30.10 Dealer Bust 21 ----

DB21 = frozenset({"db21"})


def settled_db21(builder: RoundBuilder) -> list[Wager]:
    return [s.db21 for s in builder.seats if s.db21 is not None and s.db21.settle is not None]


@injector
class Db21WithoutMainWager(Injector):
    citation = "20:18:15:30.10(2)"
    games = DB21

    def extra_bettors(self, builder: RoundBuilder, players: dict[int, Player]) -> set[int]:
        if len(players) < 2:
            return set()
        number = builder.rng.choice(sorted(players))
        seat = SeatPlay(number, players[number])
        seat.db21 = builder.bet(seat.name, "db21", builder.spec.side_limits[0])
        builder.mark(seat.db21.bet, f"a DB21 wager on {seat.name} with no blackjack wager")
        builder.forced_seats[number] = seat
        return {number}


@injector
class LateDb21Wager(Injector):
    citation = "20:18:15:30.10(4)"
    games = DB21

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = [s.db21 for s in builder.seats if s.db21 is not None]
        if not wagers:
            return False
        wager = builder.rng.choice(wagers)
        move_after(builder, wager.bet, builder.first_deal)
        builder.mark(wager.bet, f"the DB21 wager on {wager.target} placed after the first card "
                                "and settled as a wager")
        return True


@injector
class Db21WrongOutcome(Injector):
    citation = "20:18:15:30.10(5)"
    games = DB21

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = settled_db21(builder)
        if not wagers:
            return False
        wager = builder.rng.choice(wagers)
        if wager.outcome == "win":
            rewrite_settle(wager.settle, wager, "lose", wager.amount)
        else:
            odds = db21_odds(builder.rules.db21_paytable, builder.up())
            rewrite_settle(wager.settle, wager, "win", wager.amount * odds)
        builder.mark(wager.settle, f"the DB21 wager on {wager.target} settled the wrong way")
        return True


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
    """Settlements of main and DB21 wagers after the dealer's hand was complete, in order."""
    return [s for s in builder.stmts if s.kind == "settle" and s.meta.remaining
            and s.meta.kind in ("main", "db21")]


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
class Db21WrongOdds(Injector):
    citation = "20:18:15:30.10(12)"
    games = DB21

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = [w for w in settled_db21(builder) if w.outcome == "win"]
        if not wagers:
            return False
        wager = builder.rng.choice(wagers)
        rewrite_settle(wager.settle, wager, "win", wager.paid + wager.amount)
        builder.mark(wager.settle, f"the DB21 win on {wager.target} paid one unit too many")
        return True
