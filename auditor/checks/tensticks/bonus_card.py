"""Ten sticks 21's bonus card (20:18:15:30.02(3), (4), (9), (¶10)): a busting bonus card loses, only
the bonus card is traded, the dealer's plays as a ten, and no trade where the table allows none.
"""

from __future__ import annotations

from collections.abc import Iterator

from auditor import events as ev
from auditor.checks.base import Check, register
from auditor.checks.judging import money_text, recorded_text
from auditor.checks.tensticks.common import (
    BONUS,
    TENSTICKS,
    in_seat_order,
    pair_with_lights,
    player_trades,
    traded_bonus_lines,
    trading_allowed,
)
from auditor.findings import Finding
from auditor.replay import tensticks
from auditor.replay.view import RoundView


@register
class BustingBonusCard(Check):
    """A bonus card that took the player's hand over 21 was traded, or the hand was not lost.

    Regulation: "If a player is dealt a bonus card which makes the point count exceed 21,
    the hand is lost just as in regular blackjack;" (20:18:15:30.02(3))
    Violating: s1h1 holds `9h 5d`, `hit s1h1 Tc` (24), then `trade s1h1 6s`; or no trade and
    `settle s1h1 main push 25`.
    Compliant: `hit s1h1 Tc` (24) and `settle s1h1 main lose 25` before play goes on.
    Reading: the bonus card makes the count exceed 21 when the hand, counting it as ten, is
    over 21, whether it came last or a later card took the hand over (a trade cannot bring a
    lost hand back). A trade of it from such a hand is the finding, under this subsection
    whatever the `tensticks.trade` option; the light after it is not unearned ((5)) and its
    hand's settlement is not reported again (subject `settle:<hand>:main`). Without a trade,
    such a hand settled other than `lose` is the finding (the standard 20:18:15:06 twin
    collapses into it); a `lose` of the wrong amount is 20:18:15:06's.
    """

    citation = "20:18:15:30.02(3)"
    name = "tensticks.busting_bonus_card"
    options = frozenset()
    severity = "high"
    games = TENSTICKS

    def round(self, view: RoundView) -> Iterator[Finding]:
        reported: set[str] = set()
        for trade in player_trades(view):
            if trade.held_bonus and trade.bonus_over_21 and trade.target not in reported:
                reported.add(trade.target)
                yield self.finding(
                    view, trade.card.line, f"{trade.target} traded the bonus card for "
                    f"{trade.card.card} though, counted as ten, it left the hand over 21; the "
                    "hand was lost and the card may not be traded.", hand=trade.target,
                    evidence=traded_bonus_lines(view, trade),
                ).model_copy(update={"subject": f"settle:{trade.target}:main"})
        for hand in view.hands.values():
            if not hand.busted or BONUS not in hand.card_codes or hand.name in reported:
                continue
            wager = hand.main
            if wager is None or len(wager.settlements) != 1:
                continue  # unsettled or settled twice: record:unsettled says so
            settlement = wager.settlements[0]
            if settlement.outcome == "lose":
                continue
            bonus = [c.line for c in hand.cards if c.card == BONUS]
            yield self.finding(
                view, settlement.line, f"The {wager.label} {recorded_text(settlement)}, but "
                f"{hand.name} holds the bonus card (line {bonus[0]}) and, counting it as ten, "
                f"{hand.total}: the hand is lost and should lose {money_text(hand.stake)}.",
                hand=hand.name, expected=-hand.stake, actual=settlement.net, evidence=bonus,
            ).model_copy(update={"subject": f"settle:{hand.name}:main"})


@register
class TradeOfBonusCardOnly(Check):
    """A player's trade gave up a card other than a ten of clubs the hand holds.

    Regulation: "If a player is dealt a playable bonus card or one which does not make the
    point count exceed 21, one of two options may be taken; (a) The player may keep the
    bonus card and play it as a ten; or (b) The player may trade the bonus card for the next
    card dealt;" (20:18:15:30.02(4))
    Violating: s2h1 holds `9h 7d` and `trade s2h1 4c`.
    Compliant: s2h1 holds `9h Tc` and `trade s2h1 4c`; or keeps `Tc` as a ten.
    Reading: only the bonus card may be traded; a hand that holds none gave up the last
    card dealt to it (bjh-format.md §5, "A trade of a card that is not the bonus card"),
    and its cards stand as if the card received had been dealt in that place. The finding
    stands whatever the
    `tensticks.trade` option. The cards are then judged as recorded; its light is not
    judged as unearned.
    """

    citation = "20:18:15:30.02(4)"
    name = "tensticks.trade_bonus_card_only"
    options = frozenset()
    severity = "medium"
    needs = frozenset({ev.Trade})
    games = TENSTICKS

    def round(self, view: RoundView) -> Iterator[Finding]:
        for trade in player_trades(view):
            if not trade.held_bonus:
                yield self.finding(view, trade.card.line, f"{trade.target} traded "
                                   f"{trade.gave_up} for {trade.card.card}, but the hand held "
                                   "no bonus card: only the ten of clubs may be traded.",
                                   hand=trade.target)


@register
class DealerBonusCardIsTen(Check):
    """The dealer traded a bonus card, or did not count the dealer's bonus card as ten.

    Regulation: "A Ten sticks 21 bonus card dealt to the dealer must be played as a
    ten-count card." (20:18:15:30.02(9))
    Violating: `deal dealer Tc` … `trade dealer 6h`; or the dealer holds `Tc 7d` (17) and
    `draw 4s` follows.
    Compliant: the dealer holds `Tc 6d` (16) and draws; or holds `Tc 7d` and stands.
    Reading: a `trade dealer` is the finding, whatever it gave up. A dealer `draw` made
    while the dealer holds a bonus card and a total on which the dealer must not draw,
    counting that card as ten (17 or more, a soft 17 excepted where `soft17=hit`, or over
    21), shows the card was not counted as ten: the finding is this subsection's rather than
    20:18:15:28's (subject `draw:<line>`). Settlements are judged on the cards as recorded
    and, where the dealer drew on a standing total, on the hand without that card too
    (20:18:15:28). The dealer's bonus card is a ten in every respect: with an ace it makes
    the dealer's first two cards a blackjack (settlements under 20:18:15:06), and it counts
    ten in every total the dealer draws to or stands on.
    """

    citation = "20:18:15:30.02(9)"
    name = "tensticks.dealer_bonus_card_is_ten"
    severity = "high"
    options = frozenset({"soft17"})
    games = TENSTICKS

    def round(self, view: RoundView) -> Iterator[Finding]:
        for trade in view.trades:
            if trade.target == "dealer":
                yield self.finding(view, trade.card.line, f"The dealer traded {trade.gave_up} "
                                   f"for {trade.card.card}; the dealer's bonus card must be "
                                   "played as a ten.", evidence=traded_bonus_lines(view, trade))
        hits17 = view.config.hits_soft_17
        for draw in tensticks.of(view).dealer_bonus_draws:
            total, soft = draw.total_before, draw.soft_before
            if total < 17 or (total == 17 and soft and hits17):
                continue
            yield self.finding(view, draw.line, f"The dealer drew {draw.card} holding "
                               f"{'soft ' if soft else ''}{total} with the bonus card (line "
                               f"{draw.bonus_line}) counted as ten, a total on which the dealer "
                               "may not draw, so the bonus card was not played as a ten.",
                               evidence=[draw.bonus_line]
                               ).model_copy(update={"subject": f"draw:{draw.line}"})


@register
class NoTradeOption(Check):
    """Where the casino does not allow trades: a trade took place, or a playable bonus card
    did not earn a light in its round.

    Regulation: "A casino may opt not to allow players to trade cards. A player who receives
    a playable Ten sticks bonus card or one that does not make the count of the player's
    hand exceed 21 automatically receives a bonus light." (20:18:15:30.02(¶10))
    Violating: `option tensticks.trade=no` and `trade s1h1 5d`; or `deal s1h1 Tc` (playable)
    and no `light s1 …` in the round.
    Compliant: `option tensticks.trade=no`, `deal s1h1 Tc`, `light s1 3` in the round.
    Reading: judged only where `tensticks.trade=no`. A trade of a playable bonus card is
    this paragraph's (a busting one is (3)'s, another card (4)'s, the dealer's (9)'s). Each
    bonus card a player's hand receives (dealt, hit, doubled, or received by a trade)
    without going over 21 earns one light for the seat in that round, before or after it;
    a card moved by a split is not received again. A light with no playable bonus card to
    earn it is this paragraph's too (*reading*: where trading is off, lights come only this
    way). Counts are judged under (5), (7) and (8). With `tensticks.trade` unknown
    (record:header) a trade is not a finding here: trading may be allowed.
    """

    citation = "20:18:15:30.02(¶10)"
    name = "tensticks.no_trade_option"
    severity = "medium"
    options = frozenset({"tensticks_trade"})
    games = TENSTICKS

    def round(self, view: RoundView) -> Iterator[Finding]:
        if trading_allowed(view):
            return
        for trade in player_trades(view):
            if trade.held_bonus and not trade.bonus_over_21:
                yield self.finding(view, trade.card.line, f"{trade.target} traded the bonus card "
                                   f"for {trade.card.card} at a table that does not allow "
                                   "trades.", hand=trade.target,
                                   evidence=traded_bonus_lines(view, trade))
        playable = [b for b in tensticks.of(view).player_bonus_cards() if not b.over_21]
        for seat in in_seat_order([b.seat for b in playable]
                                  + [light.seat for light in view.lights]):
            pairing = pair_with_lights([(b.index, b) for b in playable if b.seat == seat],
                                       [light for light in view.lights if light.seat == seat])
            # where trading is off the light may stand anywhere in the round
            for bonus in pairing.unlit:
                yield self.finding(view, bonus.line, f"{bonus.target} received a playable bonus "
                                   f"card, but no light was lit for {seat} in this round.",
                                   hand=bonus.target)
            for light in pairing.unearned:
                yield self.finding(view, light.line, f"A light was lit for {seat} (count "
                                   f"{light.count}) though no playable bonus card earned it in "
                                   "this round.", seat=seat)
