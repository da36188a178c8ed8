"""Faults of the rules every game keeps (20:18:15:03 to :30): wagers outside the limits or
late, wrong payouts, doubles, splits, insurance, surrender, and the dealer's play."""

from __future__ import annotations

from typing import TYPE_CHECKING

from auditor.simulate.cards import BONUS_CARD, VALUE, total
from auditor.simulate.faults.base import ALL_GAMES, Injector
from auditor.simulate.faults.edits import (
    live_player_hand,
    original,
    personal_hands,
    rewrite_settle,
)
from auditor.simulate.faults.registry import injector
from auditor.simulate.faults.wagers import PlacedAfterFirstCard, WagerEdit
from auditor.simulate.pays import money
from auditor.simulate.round_parts import root_of

if TYPE_CHECKING:
    from auditor.simulate.game import RoundBuilder
    from auditor.simulate.round_parts import Hand, SeatPlay, Stmt, Wager
    from auditor.simulate.spec import TableSpec
    from auditor.simulate.table import Session


@injector
class LateMainWager(PlacedAfterFirstCard):
    citation = "20:18:15:03"
    what = "the main wager on {target} placed after the first card"

    def wagers(self, builder: RoundBuilder) -> list[Wager]:
        return [s.hands[0].wager for s in builder.seats if s.hands]


@injector
class MainWagerOverLimit(Injector):
    citation = "20:18:15:03"
    # (at Blackjack Switch the seat's two wagers, equal as 30.09(2) wants: two findings)

    def main_amount(self, builder: RoundBuilder, seat: SeatPlay, amount: int) -> int | None:
        return None if builder.applied else builder.spec.maximum + 500


@injector
class MainWagerUnderMinimum(Injector):
    citation = "20:18:15:03"

    def suits(self, spec: TableSpec) -> bool:
        return spec.minimum > 1

    def main_amount(self, builder: RoundBuilder, seat: SeatPlay, amount: int) -> int | None:
        return None if builder.applied else builder.spec.minimum // 2


def side_limits_posted(spec: TableSpec) -> bool:
    options = dict(spec.options)
    return "sidebet.min" in options and "sidebet.max" in options


@injector
class SideWagerOverLimit(Injector):
    citation = "20:18:15:03"
    games = frozenset({"switch", "db21", "ladies"})

    def suits(self, spec: TableSpec) -> bool:
        return side_limits_posted(spec)

    def side_amount(self, builder: RoundBuilder, seat: SeatPlay, amount: int) -> int | None:
        return None if builder.applied else builder.spec.side_limits[1] + 500


@injector
class SideWagerUnderMinimum(Injector):
    citation = "20:18:15:03"
    games = frozenset({"switch", "db21", "ladies"})

    def suits(self, spec: TableSpec) -> bool:
        return side_limits_posted(spec) and spec.side_limits[0] > 1

    def side_amount(self, builder: RoundBuilder, seat: SeatPlay, amount: int) -> int | None:
        return None if builder.applied else builder.spec.side_limits[0] // 2


@injector
class WrongMainPayout(WagerEdit):
    """A main wager paid too much or too little, a loss paid, a push collected (Blackjack
    Switch's own rule is 30.09(13): switch.WrongSwitchPayout)."""

    citation = "20:18:15:06"
    games = ALL_GAMES - {"switch"}

    def payable(self, builder: RoundBuilder, hand: Hand) -> bool:
        """Whether the hand's settlement is this rule's to judge (besides a bust or a
        surrender, whose settlement is another's)."""
        return True

    def win_paid(self, builder: RoundBuilder, wager: Wager) -> int:
        """A win paid wrong: five more, or five less where there is that much."""
        return wager.paid + 500 if wager.paid <= 500 or builder.rng.random() < 0.5 \
            else wager.paid - 500

    def wagers(self, builder: RoundBuilder) -> list[Wager]:
        return [h.wager for h in personal_hands(builder) if h.wager.settle is not None
                and not h.busted and not h.surrendered and self.payable(builder, h)]

    def change(self, builder: RoundBuilder, wager: Wager) -> Stmt:
        if wager.outcome == "win":
            rewrite_settle(wager.settle, wager, "win", self.win_paid(builder, wager))
        elif wager.outcome == "lose":
            # paid, not collected (a push of part of a doubled stake is a loss of the rest:
            # against a dealer blackjack, `push 50` on a 100 stake is the right `lose 50`)
            rewrite_settle(wager.settle, wager, "win", wager.paid)
        else:
            rewrite_settle(wager.settle, wager, "lose", wager.paid)
        return wager.settle

    def describe(self, builder: RoundBuilder, wager: Wager) -> str:
        return f"{wager.target} settled {wager.settle.text} instead of {wager.outcome} " \
               f"{money(wager.paid)}"


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
class InsuranceWrongPayout(WagerEdit):
    citation = "20:18:15:23"
    what = "insurance on {target} settled wrongly"

    def insurance(self, builder: RoundBuilder, hand: Hand) -> int | None:
        # with an ace up, a player who insures lawfully (few do): its settlement goes wrong
        return hand.wager.amount // 2 if hand.wager.amount >= 2 else None

    def wagers(self, builder: RoundBuilder) -> list[Wager]:
        return [w for s in builder.seats for w in s.insurance if w.settle is not None]

    def change(self, builder: RoundBuilder, wager: Wager) -> Stmt:
        if wager.outcome == "win":
            rewrite_settle(wager.settle, wager, "win", wager.amount)  # 1 to 1, not 2 to 1
        else:
            rewrite_settle(wager.settle, wager, "push", wager.amount)
        return wager.settle


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
class CardAfterDouble(Injector):
    citation = "20:18:15:24"
    # (Switch: 30.09(14) judges a card after a completed hand; Ten sticks: a round whose
    # double or late card is the bonus card, traded or lit, is dealt again: game.double)
    games = ALL_GAMES - {"switch"}

    def hit_after_double(self, builder: RoundBuilder, hand: Hand) -> bool:
        return not builder.applied


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
class DoubleAfterSplitWithoutDas(Injector):
    citation = "20:18:15:24"

    def suits(self, spec: TableSpec) -> bool:
        return spec.rules.das == "no"

    def steer(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        # a lawful split of a pair: the hands it makes are where the double goes wrong
        if builder.applied or not builder.can_split(hand, seat):
            return None
        return "split"

    def decision(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        if (builder.applied or len(hand.cards) != 2 or hand.split_aces or hand.decisions
                or not (hand.parent is not None or hand.was_split)
                or hand.total not in (10, 11)):  # a total every double option allows
            return None
        return "double"


@injector
class SplitAceDrawsTwice(Injector):
    citation = "20:18:15:25"

    def steer(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        if (builder.applied or [card[0] for card in hand.cards] != ["A", "A"]
                or not builder.can_split(hand, seat)):
            return None
        return "split"

    def hit_split_ace(self, builder: RoundBuilder, hand: Hand) -> bool:
        return not builder.applied


@injector
class MoreSplitsThanAllowed(Injector):
    citation = "20:18:15:25"

    def steer(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        if not builder.applied and builder.can_split(hand, seat):
            return "split"  # every pair split, lawfully, up to the limit
        return None

    def decision(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        if builder.applied or not builder.is_pair(hand):
            return None
        root = root_of(hand)
        at_limit = root.splits_of_root == builder.split_limit
        return "split" if at_limit and root.splits_of_root and not root.odd_split else None


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
        if builder.game == "tensticks" and BONUS_CARD in builder.dealer:
            return False  # a draw over the dealer's bonus card is 30.02(9)'s
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


@injector
class SurrenderCollectsAll(WagerEdit):
    citation = "20:18:15:30"

    def suits(self, spec: TableSpec) -> bool:
        return spec.rules.surrender == "late"

    def steer(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        # a lawful surrender, whose settlement then goes wrong
        if builder.applied or not builder.can_surrender(hand) or hand.wager.amount < 2:
            return None
        return "surrender"

    def wagers(self, builder: RoundBuilder) -> list[Wager]:
        return [h.wager for h in personal_hands(builder) if h.surrendered and h.wager.settle]

    def change(self, builder: RoundBuilder, wager: Wager) -> Stmt:
        rewrite_settle(wager.settle, wager, "lose", wager.amount)
        return wager.settle

    def describe(self, builder: RoundBuilder, wager: Wager) -> str:
        return f"the surrender of {wager.target} collected the whole {money(wager.amount)}, " \
               "not half"
