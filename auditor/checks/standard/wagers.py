"""The chapter's wagers and what they are paid (20:18:15:03, :06, :23): placed in time and within
the limits, the main wager's payout, insurance.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from decimal import Decimal

from auditor.checks.base import GAMES, Check, register
from auditor.checks.judging import (
    kept_net,
    late_addition_finding,
    money_text,
    payout_finding,
    recorded_text,
    returned_in_full,
    stake_of,
    wrongly_settled,
)
from auditor.findings import Finding
from auditor.replay.view import RoundView


@register
class WagerTiming(Check):
    """A main or super match wager placed after the first card, or a wager outside the limits.

    Regulation: "Before the first card is dealt for a round of play, a player may make a
    wager of not more than the posted table limit against the dealer." (20:18:15:03)
    Violating: `deal s1h1 9c` then `bet s2h1 main 25`, settled other than `void 25`; or
    `bet s1h1 main 2000` at a table with `max=1000`.
    Compliant: the bet before the first `deal`; a late bet settled `void` for its amount.
    Reading: the posted limits are `min`/`max` of the `table` for main wagers and
    `sidebet.min`/`sidebet.max` for super match, DB21 and Lucky Ladies wagers; tips are the
    dealer's wagers and are not held to them. A late DB21 wager is 20:18:15:30.10(4), a late
    Lucky Ladies wager 20:18:15:30.04(2). A split's new wager is not an initial wager. A
    late wager is returned when it is settled `void`, or `push`, for its full amount (the
    same money); a late wager never settled is record:unsettled's alone. Chips added to a
    wager after the first card are no bet too: the wager is judged on what was placed in
    time, and a settlement wrong for that is one finding on the added chips. The wager's
    result is not judged again under 20:18:15:06 (one fault, one finding). With a posted
    side-bet limit unknown (record:header) a wager is outside it only where it is outside
    every value given; with a limit that cannot be read, never.
    """

    citation = "20:18:15:03"
    name = "standard.wager_timing_and_limits"
    severity = "high"
    # chips added late: the wager is judged on what was placed in time (its payout)
    options = frozenset({"sidebet_min", "sidebet_max", "blackjack", "decks", "soft17"})

    def round(self, view: RoundView) -> Iterable[Finding]:
        """The common round, every wager in time and within its limits, told without a
        generator; any other goes to `_judged`, which judges them all."""
        config = view.config
        table_low, table_high = config.minimum, config.maximum
        side_low, side_high = config.rules.sidebet_min, config.rules.sidebet_max
        for wager in view.wagers:
            if not wager.initial:
                continue
            kind = wager.kind
            if (wager.late_additions or wager.after_first_card) and (
                    kind == "main" or kind == "supermatch"):
                return self._judged(view)
            if wager.tip or kind == "insurance":
                continue
            amount = wager.amount
            if kind == "main":
                if (table_low is not None and amount < table_low) or (
                        table_high is not None and amount > table_high):
                    return self._judged(view)
            elif (side_low is not None and amount < side_low) or (
                    side_high is not None and amount > side_high):
                return self._judged(view)
        return ()

    def _judged(self, view: RoundView) -> Iterator[Finding]:
        config = view.config
        table_limits = (config.minimum, config.maximum)
        side_limits = (config.rules.sidebet_min, config.rules.sidebet_max)
        for wager in view.wagers:
            if not wager.initial:
                continue
            if wager.late_additions and wager.kind in ("main", "supermatch"):
                stake = stake_of(wager, view.hands.get(wager.target))
                late = late_addition_finding(self, view, wager, stake)
                if late is not None:
                    yield late
            if (wager.after_first_card and wager.kind in ("main", "supermatch")
                    and wager.settlements and not returned_in_full(wager)):
                settlement = wager.settlements[0]
                yield self.finding(
                    view, wager.line, f"The {wager.label} was placed after the first card of "
                    f"the round and {recorded_text(settlement)}; a wager is made before the "
                    "first card, so a late one is read as no wager, owed back in full "
                    f"({money_text(wager.amount)}) as void.", seat=wager.seat,
                    hand=wager.hand, expected=Decimal(0), actual=kept_net(wager, settlement),
                    evidence=[view.events[view.first_card_index].line,
                              *(s.line for s in wager.settlements)])
            if wager.tip or wager.kind == "insurance":
                continue
            low, high = table_limits if wager.kind == "main" else side_limits
            if low is not None and wager.amount < low:
                yield self.finding(view, wager.line, f"The {wager.label} of "
                                   f"{money_text(wager.amount)} is under the posted minimum of "
                                   f"{money_text(low)}.", seat=wager.seat, hand=wager.hand)
            if high is not None and wager.amount > high:
                yield self.finding(view, wager.line, f"The {wager.label} of "
                                   f"{money_text(wager.amount)} is over the posted maximum of "
                                   f"{money_text(high)}.", seat=wager.seat, hand=wager.hand)


@register
class MainPayout(Check):
    """A main wager paid, collected or pushed wrongly under standard blackjack.

    Regulation: "Winning wagers must be paid at odds of at least one to one with the
    exception of blackjack which must be paid at odds of at least three to two. In the case
    of a single-deck game, the operator may choose to pay a winning blackjack at the odds
    of at least six to five." (20:18:15:06)
    Violating: s2h1 holds `Ah Kd`, the dealer 19, and `settle s2h1 main win 25` on a 25
    wager at 3:2 (expected 37.50).
    Compliant: `settle s2h1 main win 37.50`.
    Reading: the declared `blackjack` option is the odds owed, raised to the floor of this
    section where it is lower: 3 to 2, or 6 to 5 at a one-deck table (so `blackjack=6:5` at
    a six-deck table owes 3 to 2 on every blackjack, and a payout at a declared rate above
    the floor is held to the declared rate). Against a dealer blackjack a doubled hand loses
    only its original wager and the new hand of a split is returned, its double included
    (20:18:15:24, :25; bjh-format.md §5). A split hand's 21 is not a blackjack. A busted
    hand loses everything it wagered, a double included, even where the dealer later shows a
    blackjack: it was collected when it went over 21. A payout that cannot be made in whole
    cents is right rounded either way; a push and a void are the same money, and are judged
    by what they return: `push 20` on a hand that doubled 20 (40 at stake) kept 20 from the
    player. Tip wagers on a hand ride its result without its double. A wager on a hand dealt
    no cards is dead and owed back as void ("a hand dealt no cards is dead", 20:18:15:28). A
    wager placed after the first card is judged under 20:18:15:03 only. Surrenders are
    20:18:15:30; Blackjack Switch has its own rule, 20:18:15:30.09(13). In Ten sticks 21 a
    settlement made before the dealer traded a card is not judged on the cards the trade
    made: the trade is the fault (20:18:15:30.02(9)), the rest follows from it. Where the
    dealer drew on a standing total, a settlement right for the dealer's hand without that
    card (which "must be burned", 20:18:15:28) is right too, as is one right for the cards
    as recorded; a settlement wrong for both names both results. With `blackjack`, `decks`
    or `soft17` unknown (record:header), a payout is wrong only where it is wrong under
    every value, and the finding owes the least of them. A `misdeal` outside Blackjack
    Switch (whose 30.09(4) is the only misdeal rule on file) is read as the format defines
    it: declared for one seat, every wager of that seat is owed back in full, and declared
    for the dealer, every wager of the round; a settlement other than `void` or `push` for
    the whole wager is this section's finding, the other seats' hands are settled as usual.
    How many cards a seat is dealt outside Switch is not judged: no rule on file says.
    """

    citation = "20:18:15:06"
    name = "standard.main_payout"
    severity = "high"
    options = frozenset({"blackjack", "decks", "soft17"})  # soft17: the card of :28
    games = GAMES - {"switch"}

    def round(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        hands = view.hands
        for wager in view.wagers:
            if wager.kind != "main":
                continue
            expected, settlements = wager.expected, wager.settlements
            if expected is not None and len(settlements) == 1:
                # the common case, a win or a loss of the expected money, told before the
                # look-ups and calls (wrongly_settled judges the rest)
                settled = settlements[0]
                if settled.outcome == "win":
                    if settled.amount == expected.net:
                        continue
                elif settled.outcome == "lose" and -settled.amount == expected.net:
                    continue
            hand = hands.get(wager.target)
            if hand is None or hand.surrendered_line is not None:
                continue
            if wager.initial and (wager.after_first_card or wager.late_additions):
                continue  # late chips are no bet: 20:18:15:03 judges the wager
            stake = stake_of(wager, hand)
            wrong = wrongly_settled(wager, stake)
            if wrong is None:
                continue
            settlement, expected = wrong
            dealer_trade = next((t.card.index for t in view.trades if t.target == "dealer"),
                                None)
            if dealer_trade is not None and settlement.index < dealer_trade:
                continue  # right when paid; the dealer's later trade is 30.02(9)'s fault
            findings.append(payout_finding(self, view, wager, settlement, expected, stake,
                                 evidence=[c.line for c in hand.cards]))
        return findings


@register
class Insurance(Check):
    """Insurance over half the wager it insures, or paid other than 2 to 1.

    Regulation: the text of 20:18:15:23 (Insurance wagers) is not on file; 20:18:19:01
    requires the layout to show "Insurance pays 2 to 1".
    Violating: `bet s1h1 main 20` and `bet s1h1 insurance 15`; or a dealer blackjack and
    `settle s1h1 insurance win 10` on a 10 insurance wager (expected 20).
    Compliant: `bet s1h1 insurance 10`, `settle s1h1 insurance win 20` on a dealer blackjack.
    Reading: (*reading*) common dealer procedure: insurance is at most half the original
    wager of the hand it insures, pays 2 to 1 on a dealer blackjack and loses otherwise.
    Whether insurance may be offered at all (up card not an ace) is judged only where a
    variation says so (20:18:15:30.09(9)). A tip insurance wager is the dealer's and is
    not held to the half; its payout is judged all the same.
    """

    citation = "20:18:15:23"
    name = "standard.insurance"
    severity = "high"
    options = frozenset()
    needs = frozenset({"insurance"})

    def round(self, view: RoundView) -> Iterator[Finding]:
        for wager in view.wagers:
            if wager.kind != "insurance":
                continue
            hand = view.hands.get(wager.target)
            insured = hand.main.amount if hand and hand.main else None
            if not wager.tip and insured is not None and wager.amount > insured / 2:
                yield self.finding(view, wager.line, f"Insurance of {money_text(wager.amount)} "
                                   f"on {wager.target} is more than half its "
                                   f"{money_text(insured)} wager.", hand=wager.target,
                                   evidence=[hand.main.line])
            wrong = wrongly_settled(wager, wager.amount)
            if wrong is not None:
                settlement, expected = wrong
                yield payout_finding(self, view, wager, settlement, expected, wager.amount)
