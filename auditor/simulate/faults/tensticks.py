"""Faults of Ten sticks 21 (20:18:15:30.02): the bonus card traded or lit wrongly, the
light count and its prize, the dealer's bonus card, and the punched cards."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from auditor.simulate.cards import BONUS_CARD, total
from auditor.simulate.faults.base import Injector
from auditor.simulate.faults.edits import personal_hands, rewrite_settle
from auditor.simulate.faults.registry import injector
from auditor.simulate.faults.wagers import WagerEdit
from auditor.simulate.pays import money

if TYPE_CHECKING:
    from auditor.simulate.game import RoundBuilder
    from auditor.simulate.round_parts import Hand, SeatPlay, Stmt, Wager
    from auditor.simulate.spec import TableSpec

TENSTICKS = frozenset({"tensticks"})


def trading(spec: TableSpec) -> bool:
    return spec.rules.tensticks_trade == "yes"


def below_prize(builder: RoundBuilder, count: int) -> bool:
    return count < builder.rules.tensticks_lights


@injector
class BustingBonusCardTraded(Injector):
    citation = "20:18:15:30.02(3)"
    games = TENSTICKS

    def trade_busting(self, builder: RoundBuilder, hand: Hand) -> bool:
        return not builder.applied


@injector
class BustingBonusCardPushed(WagerEdit):
    citation = "20:18:15:30.02(3)"
    games = TENSTICKS
    what = "{target}, over 21 with the bonus card, pushed"

    def wagers(self, builder: RoundBuilder) -> list[Wager]:
        # the bonus card itself took the hand over 21: it was the last card the hand drew
        return [h.wager for h in personal_hands(builder) if h.busted
                and h.cards[-1] == BONUS_CARD and h.wager.settle is not None]

    def change(self, builder: RoundBuilder, wager: Wager) -> Stmt:
        rewrite_settle(wager.settle, wager, "push", wager.paid)
        return wager.settle


@injector
class TradeOfAnotherCard(Injector):
    citation = "20:18:15:30.02(4)"
    games = TENSTICKS

    def trade_other_card(self, builder: RoundBuilder, hand: Hand) -> bool:
        return not builder.applied


class TenSticksInjector(Injector):
    """A Ten sticks fault for the tables that allow trading the bonus card (`trading`
    True), or for those that do not (False): the same fault breaks 30.02(5) at one and
    30.02(¶10) at the other."""

    games = TENSTICKS
    trading: ClassVar[bool] = True

    def suits(self, spec: TableSpec) -> bool:
        return trading(spec) == self.trading


@injector
class TradeWithoutLight(TenSticksInjector):
    citation = "20:18:15:30.02(5)"

    def skip_light(self, builder: RoundBuilder, seat: SeatPlay) -> bool:
        return not builder.applied


@injector
class LightWithoutTrade(TenSticksInjector):
    citation = "20:18:15:30.02(5)"

    def unearned_light(self, builder: RoundBuilder, seat: SeatPlay) -> bool:
        return not builder.applied and below_prize(builder, seat.player.lights + 1)


@injector
class LightCountSkips(Injector):
    citation = "20:18:15:30.02(5)"
    games = TENSTICKS

    def light_count(self, builder: RoundBuilder, seat: SeatPlay, count: int) -> int | None:
        player = seat.player
        if (builder.applied or not player.lit or player.after_prize
                or player.light_serial != builder.session.prize_serial
                or not below_prize(builder, count + 1)):
            return None
        return count + 1


@injector
class PrizeWithheld(Injector):
    citation = "20:18:15:30.02(6)"
    games = TENSTICKS

    def __init__(self) -> None:
        self.seat: int | None = None

    def prize(self, builder: RoundBuilder, seat: SeatPlay, lights: int) -> str | None:
        # withheld for the rest of the round: a prize later in the round would be in time
        if self.seat is None and not builder.applied and lights >= builder.rules.tensticks_lights:
            self.seat = seat.seat
        return "withheld" if seat.seat == self.seat else None


@injector
class PrizeTooEarly(Injector):
    citation = "20:18:15:30.02(6)"
    games = TENSTICKS

    def prize(self, builder: RoundBuilder, seat: SeatPlay, lights: int) -> str | None:
        return None if builder.applied else "early"


@injector
class PrizeWrongAmount(Injector):
    citation = "20:18:15:30.02(6)"
    games = TENSTICKS

    def suits(self, spec: TableSpec) -> bool:
        return "tensticks.prize" in dict(spec.options)  # (no prize designated: not judged)

    def edit(self, builder: RoundBuilder) -> bool:
        prizes = [s for s in builder.stmts if s.kind == "prize"]
        if not prizes:
            return False
        stmt = prizes[0]
        stmt.words = (stmt.words[0], money(builder.session.prize_cents // 2))
        builder.mark(stmt, f"a prize of half the designated amount at {stmt.words[0]}")
        return True


@injector
class WinnerKeepsCounting(Injector):
    citation = "20:18:15:30.02(7)"
    games = TENSTICKS

    def light_count(self, builder: RoundBuilder, seat: SeatPlay, count: int) -> int | None:
        if builder.applied or not seat.player.after_prize or not below_prize(builder, 2):
            return None
        return 2  # the count restarted at one, not at zero


@injector
class OtherSeatReset(Injector):
    citation = "20:18:15:30.02(7)"
    games = TENSTICKS

    def light_count(self, builder: RoundBuilder, seat: SeatPlay, count: int) -> int | None:
        player = seat.player
        if (builder.applied or not player.lit or player.after_prize or player.lights < 1
                or player.light_serial == builder.session.prize_serial):
            return None
        return 1  # reset as if this seat had won the prize paid at another


@injector
class NewPlayerCarriesLights(Injector):
    citation = "20:18:15:30.02(8)"
    games = TENSTICKS

    def light_count(self, builder: RoundBuilder, seat: SeatPlay, count: int) -> int | None:
        player = seat.player
        if builder.applied or player.lit or player.start or not below_prize(builder, 2):
            return None
        return 2


@injector
class DealerTradesBonusCard(Injector):
    citation = "20:18:15:30.02(9)"
    games = TENSTICKS

    def dealer_trade(self, builder: RoundBuilder) -> bool:
        return not builder.applied


@injector
class DealerBonusCardNotTen(Injector):
    citation = "20:18:15:30.02(9)"
    games = TENSTICKS

    def dealer_extra(self, builder: RoundBuilder) -> bool:
        count, soft = total(builder.dealer)
        return (not builder.applied and BONUS_CARD in builder.dealer and not soft
                and not builder.dealer_natural and 17 <= count <= 21)


@injector
class TradeWhereNotAllowed(TenSticksInjector):
    citation = "20:18:15:30.02(¶10)"
    trading = False

    def trade_anyway(self, builder: RoundBuilder, hand: Hand) -> bool:
        return not builder.applied and not hand.natural


@injector
class BonusCardUnlit(TradeWithoutLight):
    citation = "20:18:15:30.02(¶10)"
    trading = False


@injector
class LightWithoutBonusCard(LightWithoutTrade):
    citation = "20:18:15:30.02(¶10)"
    trading = False


@injector
class PunchedWrong(Injector):
    citation = "20:18:15:30.02(¶11)"
    games = TENSTICKS

    def punches(self, builder: RoundBuilder, lights: int) -> int | None:
        return None if builder.applied else lights + 1


@injector
class HandedInWrong(Injector):
    citation = "20:18:15:30.02(¶11)"
    games = TENSTICKS

    def wrong_hand_in(self, builder: RoundBuilder) -> bool:
        return not builder.applied

    def hand_in_punches(self, builder: RoundBuilder, punched: int) -> int | None:
        return None if builder.applied else punched + 1


@injector
class HandedInTwice(Injector):
    citation = "20:18:15:30.02(¶11)"
    games = TENSTICKS

    def hand_in_again(self, builder: RoundBuilder) -> bool:
        return not builder.applied
