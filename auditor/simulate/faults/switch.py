"""Faults of Blackjack Switch (20:18:15:30.09): its two hands and their wagers, the super
match, misdeals, switched 21s, the order of play and of the settlements, and its payouts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from auditor.simulate.cards import total
from auditor.simulate.faults.base import Injector
from auditor.simulate.faults.edits import (
    insert_after,
    move_after,
    personal_hands,
    rewrite_settle,
    seat_of,
)
from auditor.simulate.faults.registry import injector
from auditor.simulate.faults.standard import SplitWagerUnequal, WrongMainPayout
from auditor.simulate.faults.wagers import (
    PlacedAfterFirstCard,
    SettledTheWrongWay,
    WagerEdit,
    WinPaidWrong,
)
from auditor.simulate.pays import SUPER_MATCH, money, super_match_kind
from auditor.simulate.round_parts import Stmt, Wager

if TYPE_CHECKING:
    from auditor.simulate.game import RoundBuilder
    from auditor.simulate.round_parts import Hand, SeatPlay
    from auditor.simulate.spec import TableSpec
    from auditor.simulate.table import Session

SWITCH = frozenset({"switch"})


def switched_21(hand: Hand) -> bool:
    return hand.switched and len(hand.cards) == 2 and total(hand.cards)[0] == 21


def decision_stmts(builder: RoundBuilder) -> list[Stmt]:
    return [s for s in builder.stmts
            if s.kind in ("switch", "hit", "stand", "double", "split", "surrender")]


def super_matches(builder: RoundBuilder) -> list[Wager]:
    """The super match wagers of the seats not misdealt (a misdealt seat's is returned)."""
    return [s.super_match for s in builder.seats
            if s.super_match is not None and not s.misdealt]


@injector
class LateSuperMatch(PlacedAfterFirstCard):
    citation = "20:18:15:03"
    games = SWITCH
    what = "the super match wager on {target} placed after the first card"

    def wagers(self, builder: RoundBuilder) -> list[Wager]:
        return [s.super_match for s in builder.seats if s.super_match is not None]


@injector
class OneHandOnly(Injector):
    citation = "20:18:15:30.09(1)"
    games = SWITCH

    def one_hand(self, builder: RoundBuilder, seat: SeatPlay) -> bool:
        return not builder.applied


@injector
class UnequalWagers(Injector):
    citation = "20:18:15:30.09(2)"
    games = SWITCH

    def second_hand_amount(self, builder: RoundBuilder, seat: SeatPlay,
                           amount: int) -> int | None:
        if builder.applied:
            return None
        return amount + 500 if amount + 500 <= builder.spec.maximum else amount - 500


@injector
class TipWithoutSuperMatch(Injector):
    citation = "20:18:15:30.09(3)"
    games = SWITCH

    def edit(self, builder: RoundBuilder) -> bool:
        seats = [s for s in builder.seats if len(s.hands) == 2 and s.super_match is None
                 and not s.misdealt]
        if not seats:
            return False
        seat = builder.rng.choice(seats)
        tip = Wager("supermatch", seat.name, 100, True, None)
        tip.bet = Stmt("bet", (seat.name, "supermatch", "1", "tip"), meta=tip)
        insert_after(builder, tip.bet, seat.hands[-1].wager.bet)
        kind = super_match_kind(seat.first_four)
        odds = SUPER_MATCH[8 if builder.spec.decks >= 8 else 6].get(kind, 0)
        outcome, amount = ("win", 100 * odds) if kind else ("lose", 100)
        tip.settle = Stmt("settle", (seat.name, "supermatch", outcome, money(amount), "tip"),
                          meta=tip)
        insert_after(builder, tip.settle, builder.dealer_stmts[1])  # the end of the deal
        builder.mark(tip.bet, f"a tip on {seat.name}'s super match, which the player left bare")
        return True


@injector
class MisdealtWagerKept(Injector):
    citation = "20:18:15:30.09(4)"
    games = SWITCH

    def force_misdeal(self, builder: RoundBuilder) -> bool:
        return True

    misdealt_to = "its seat"

    def edit(self, builder: RoundBuilder) -> bool:
        voided = [s for s in builder.stmts if s.kind == "settle" and s.words[2] == "void"
                  and not s.meta.tip]
        if not voided:
            return False
        stmt = builder.rng.choice(voided)
        wager = stmt.meta
        rewrite_settle(stmt, wager, "lose", wager.amount)
        builder.mark(stmt, f"the {wager.kind} wager on {wager.target} was collected after a "
                           f"misdeal to {self.misdealt_to}, not returned")
        return True


@injector
class DealerMisdealWagerKept(MisdealtWagerKept):
    misdealt_to = "the dealer"

    def force_misdeal(self, builder: RoundBuilder) -> bool:
        return False

    def force_dealer_misdeal(self, builder: RoundBuilder) -> bool:
        return True


@injector
class ExtraCardPlayedOn(Injector):
    citation = "20:18:15:30.09(4)"
    games = SWITCH

    def extra_card_played_on(self, builder: RoundBuilder) -> bool:
        return True

    def steer_switch(self, builder: RoundBuilder, seat: SeatPlay) -> bool | None:
        return False  # (which second card a switch of a three-card hand moves is no rule's)


@injector
class NeighbourVoided(WagerEdit):
    citation = "20:18:15:30.09(4)"
    games = SWITCH
    what = "{target} returned as void for another seat's misdeal"

    def force_misdeal(self, builder: RoundBuilder) -> bool:
        return True

    def wagers(self, builder: RoundBuilder) -> list[Wager]:
        return [h.wager for h in personal_hands(builder) if not seat_of(builder, h.name).misdealt
                and h.wager.settle is not None and h.wager.outcome != "push"]

    def change(self, builder: RoundBuilder, wager: Wager) -> Stmt:
        rewrite_settle(wager.settle, wager, "void", wager.amount)
        return wager.settle


@injector
class MainBeforeSuperMatch(Injector):
    citation = "20:18:15:30.09(5)"
    games = SWITCH

    def edit(self, builder: RoundBuilder) -> bool:
        stmts = builder.stmts
        deadline = next((i for i, s in enumerate(stmts) if s.kind in
                         ("switch", "hit", "stand", "double", "split", "surrender")
                         or (s.kind == "bet" and s.words[1] == "insurance")), len(stmts))
        for seat in builder.seats:
            if seat.super_match is None or seat.misdealt:
                continue
            mains = [w.settle for h in seat.hands for w in (h.wager, *h.tips)
                     if w.settle is not None and stmts.index(w.settle) < deadline]
            if mains:
                first = min(mains, key=stmts.index)
                move_after(builder, seat.super_match.settle, max(mains, key=stmts.index))
                builder.mark(first, f"{seat.name}'s main wager settled before its super match")
                return True
        return False


@injector
class SuperMatchWrongOutcome(SettledTheWrongWay):
    citation = "20:18:15:30.09(6)"
    games = SWITCH
    what = "the super match on {target} settled the wrong way"

    def wagers(self, builder: RoundBuilder) -> list[Wager]:
        return super_matches(builder)

    def odds(self, builder: RoundBuilder) -> int:
        return 1


@injector
class ShuffledNotCut(Injector):
    citation = "20:18:15:30.09(7)"
    games = SWITCH

    def omit_cut(self, session: Session) -> bool:
        return True


@injector
class SuperMatchAfterDecision(WagerEdit):
    citation = "20:18:15:30.09(8)"
    games = SWITCH
    what = "the super match on {target} resolved after play began"

    def wagers(self, builder: RoundBuilder) -> list[Wager]:
        return super_matches(builder) if decision_stmts(builder) else []

    def change(self, builder: RoundBuilder, wager: Wager) -> Stmt:
        move_after(builder, wager.settle, decision_stmts(builder)[0])
        return wager.settle


@injector
class InsuranceWithoutAce(Injector):
    citation = "20:18:15:30.09(9)"
    games = SWITCH

    def insure_without_ace(self, builder: RoundBuilder) -> bool:
        return not builder.applied


@injector
class SwitchedTwentyOnePaidAsBlackjack(Injector):
    citation = "20:18:15:30.09(10)"
    games = SWITCH

    def steer_switch(self, builder: RoundBuilder, seat: SeatPlay) -> bool | None:
        first, second = seat.hands[0].cards, seat.hands[1].cards
        swapped = ([first[0], second[1]], [second[0], first[1]])
        if any(total(cards)[0] == 21 for cards in swapped):
            return True  # a lawful choice that makes a switched 21
        return None

    def edit(self, builder: RoundBuilder) -> bool:
        dealer, drawn = total(builder.dealer)[0], len(builder.dealer) > 2
        for hand in personal_hands(builder):
            wager = hand.wager
            if not switched_21(hand) or wager.settle is None:
                continue
            if builder.dealer_natural and wager.outcome == "lose":
                rewrite_settle(wager.settle, wager, "push", wager.amount)
            elif drawn and dealer in (21, 22) and wager.outcome == "push":
                rewrite_settle(wager.settle, wager, "win", hand.stake)
            else:
                continue
            builder.mark(wager.settle, f"{hand.name}'s switched 21 settled as a blackjack")
            return True
        return False


@injector
class SplitWagerUnequalSwitch(SplitWagerUnequal):
    citation = "20:18:15:30.09(11)"
    games = SWITCH


@injector
class WrongSwitchPayout(WrongMainPayout):
    """A main wager paid wrong (a switched 21 paid as a blackjack is 30.09(10)'s, and a
    misdealt seat's wagers are returned, 30.09(4)'s)."""

    citation = "20:18:15:30.09(13)"
    games = SWITCH

    def payable(self, builder: RoundBuilder, hand: Hand) -> bool:
        return not switched_21(hand) and not seat_of(builder, hand.name).misdealt

    def win_paid(self, builder: RoundBuilder, wager: Wager) -> int:
        return wager.paid + 500


@injector
class CardAfterStand(Injector):
    citation = "20:18:15:30.09(14)"
    games = SWITCH

    def hit_after_stand(self, builder: RoundBuilder, hand: Hand) -> bool:
        return not builder.applied


@injector
class BustCollectedLate(WagerEdit):
    citation = "20:18:15:30.09(15)"
    games = SWITCH
    what = "{target} collected only after the dealer played"

    def wagers(self, builder: RoundBuilder) -> list[Wager]:
        if builder.dealer_done is None:
            return []
        return [h.wager for h in personal_hands(builder) if h.busted
                and h.wager.settle is not None]

    def change(self, builder: RoundBuilder, wager: Wager) -> Stmt:
        move_after(builder, wager.settle, builder.dealer_done)  # with the remaining wagers
        return wager.settle


@injector
class OutOfRotation(Injector):
    citation = "20:18:15:30.09(16)"
    games = SWITCH

    def edit(self, builder: RoundBuilder) -> bool:
        decisions = decision_stmts(builder)
        for index, stmt in enumerate(decisions[:-1]):
            after = decisions[index + 1]
            if stmt.kind == "stand" and after.words[0][:2] != stmt.words[0][:2]:
                seat = stmt.words[0][:2]
                if any(d.words[0][:2] == seat for d in decisions[index + 1:]):
                    continue  # the seat acts again later: keep it simple
                # after the other seat's first decision and what it settled at once
                stmts = builder.stmts
                at = stmts.index(after)
                while at + 1 < len(stmts) and stmts[at + 1].kind in ("settle", "discard"):
                    at += 1
                move_after(builder, stmt, stmts[at])
                builder.mark(stmt, f"{stmt.words[0]} stood after {after.words[0][:2]} began")
                return True
        return False


@injector
class DealerDrawsEarly(Injector):
    citation = "20:18:15:30.09(17)"
    games = SWITCH

    def edit(self, builder: RoundBuilder) -> bool:
        stmts = builder.stmts
        draws = [s for s in stmts if s.kind == "draw"]
        decisions = decision_stmts(builder)
        if not draws or not decisions or decisions[-1].kind != "stand":
            return False
        last = decisions[-1]
        hand = next(h for s in builder.seats for h in s.hands if h.name == last.words[0])
        if hand.total >= 21:
            return False  # a hand at 21 counts as complete already
        reveal = next(s for s in stmts if s.kind == "reveal")
        if stmts.index(reveal) != stmts.index(last) + 1:
            return False  # something stands between the last stand and the reveal
        for stmt in (reveal, draws[0]):
            stmts.remove(stmt)
        at = stmts.index(last)
        stmts[at:at] = [reveal, draws[0]]
        builder.mark(draws[0], f"the dealer drew before {last.words[0]} stood")
        return True


@injector
class SuperMatchWrongOdds(WinPaidWrong):
    citation = "20:18:15:30.09(18)"
    games = SWITCH
    what = "the super match on {target} paid one unit too many"

    def suits(self, spec: TableSpec) -> bool:
        return spec.decks in SUPER_MATCH  # (another deck count is 30.09(1)'s: odds not judged)

    def wins(self, builder: RoundBuilder) -> list[Wager]:
        return [w for w in super_matches(builder) if w.outcome == "win"]
