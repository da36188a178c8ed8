"""The standard rules of chapter 20:18:15, which every variation builds on."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from decimal import Decimal

from auditor import blackjack
from auditor import events as ev
from auditor.checks.base import GAMES, Check, register
from auditor.checks.judging import (
    drew_past_a_standing_total,
    kept_net,
    late_addition_finding,
    money_text,
    on_standing_total,
    payout_finding,
    recorded_text,
    returned_in_full,
    stake_of,
    stop_line,
    wrongly_settled,
)
from auditor.events import Shuffle
from auditor.findings import Finding
from auditor.replay.view import ZERO, Hand, RoundView


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

    def round(self, view: RoundView) -> Iterable[Finding]:
        """The common round, every main wager won or lost for the money expected, told
        without a generator; any other goes to `_judged`, which judges them all."""
        hands = view.hands
        for wager in view.wagers:
            if wager.kind != "main":
                continue
            expected, settlements = wager.expected, wager.settlements
            if expected is not None and len(settlements) == 1:
                settled = settlements[0]  # the money first: right, it needs nothing more
                if settled.outcome == "win":
                    if settled.amount == expected.net:
                        continue
                elif settled.outcome == "lose" and -settled.amount == expected.net:
                    continue
            hand = hands.get(wager.target)
            if hand is None or hand.surrendered_line is not None:
                continue
            if wager.initial and (wager.after_first_card or wager.late_additions):
                continue
            return self._judged(view)
        return ()

    def _judged(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        hands = view.hands
        for wager in view.wagers:
            if wager.kind != "main":
                continue
            hand = hands.get(wager.target)
            if hand is None or hand.surrendered_line is not None:
                continue
            if wager.initial and (wager.after_first_card or wager.late_additions):
                continue  # late chips are no bet: 20:18:15:03 judges the wager
            expected, settlements = wager.expected, wager.settlements
            if expected is not None and len(settlements) == 1:
                # the common case, a win or a loss of the expected money, told before the
                # calls (wrongly_settled judges the rest)
                settled = settlements[0]
                if settled.outcome == "win":
                    if settled.amount == expected.net:
                        continue
                elif settled.outcome == "lose" and -settled.amount == expected.net:
                    continue
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
class ReshuffleAfterCutCard(Check):
    """A round dealt after the cutting card came out, with no shuffle in between.

    Regulation: "A reshuffle of the cards must take place after the cutting card is reached
    and before the dealer deals all of the cards." (20:18:15:10)
    Violating: `cutcard` in round 40, then round 41 dealt with no `shuffle` before it.
    Compliant: `cutcard` in round 40, round 40 finished, `shuffle`, `cut`, round 41.
    Reading: the round in which the cutting card appears may be finished; the next round
    must not be dealt from the same cards. A `shuffle` inside the next round, before its
    first card, is a reshuffle in time. Every round dealt before the reshuffle is a finding
    of its own, on that round's first card.
    """

    citation = "20:18:15:10"
    name = "standard.reshuffle_after_cut_card"
    severity = "medium"
    options = frozenset()

    def round(self, view: RoundView) -> Iterable[Finding]:
        if not view.shoe.cutcard_pending or view.first_card_index is None:
            return ()  # the common round, told without a generator
        return self._dealt(view)

    def _dealt(self, view: RoundView) -> Iterator[Finding]:
        if any(isinstance(e, Shuffle) for e in view.events[:view.first_card_index]):
            return
        line = view.events[view.first_card_index].line
        yield self.finding(view, line, f"Round {view.round_id} was dealt after the cutting card "
                           f"came out (line {view.shoe.cutcard_line}) without a reshuffle.",
                           evidence=[view.shoe.cutcard_line or line])


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


# The two-card totals each `double` option allows.
DOUBLE_TOTALS = {"any": range(2, 22), "9-11": range(9, 12), "10-11": range(10, 12)}


@register
class DoubleDown(Check):
    """A double over the original wager, not on two cards, against the house option, or
    followed by more than its one card.

    Regulation: "The player may make an additional wager, not exceeding the original wager,
    on the first two cards dealt to the player or the first two cards of any split pair;
    one additional card must be dealt." (20:18:15:24)
    Violating: `bet s1h1 main 10`, `double s1h1 20 5c`; or `hit s1h1 4d` then `double`.
    Compliant: `double s1h1 10 5c` on the first two cards, nothing drawn after it.
    Reading: the `double` option names the two-card totals allowed, counted as the hand
    plays (a soft hand at its soft total): `A 8` is a soft 19, not a 9, so with `9-11` or
    `10-11` no soft hand may double (every soft two-card total is 12 or more), as the
    restricted rule is dealt; with `any` every two-card hand may; `das=no` forbids doubling
    a hand that was split or made by a split. The amount doubled may be less than the
    original wager, never more. A split ace that doubles after receiving its one card draws
    a second card: that is 20:18:15:25 alone; a split ace that doubles holding the ace alone
    has not two cards. A second double of one hand is one fault, on its card. A card after a
    double in Blackjack Switch is 20:18:15:30.09(14). With `double` or `das` unknown
    (record:header) a double is judged under each value: with `das` unknown a double after a
    split is never flagged; with `double` unknown a total is flagged only where no value
    allows it.
    """

    citation = "20:18:15:24"
    name = "standard.double_down"
    severity = "medium"
    options = frozenset({"double", "das"})
    needs = frozenset({ev.Double})

    def round(self, view: RoundView) -> Iterable[Finding]:
        """The common round, every double on two cards of an allowed total and within the
        original wager, told without a generator; any other goes to `_judged`."""
        rules = view.config.rules
        allowed = DOUBLE_TOTALS[rules.double]
        for hand in view.hands.values():
            if hand.double_line is None:
                continue
            if hand.split_aces and hand.double_cards_before >= 2:
                continue
            if hand.late_cards or hand.double_cards_before != 2 or len(hand.cards) < 2 or (
                    hand.doubled > (hand.main.amount if hand.main else ZERO)) or (
                    rules.das == "no" and (hand.parent is not None or hand.was_split)):
                return self._judged(view)
            first, second = hand.cards[0].card[0], hand.cards[1].card[0]
            hard = blackjack.VALUE[first] + blackjack.VALUE[second]  # blackjack.total
            soft = hard <= 11 and "A" in (first, second)
            if (hard + 10 if soft else hard) not in allowed:
                return self._judged(view)
        return ()

    def _judged(self, view: RoundView) -> Iterator[Finding]:
        rules = view.config.rules
        for hand in view.hands.values():
            if hand.double_line is None:
                continue
            if hand.split_aces and hand.double_cards_before >= 2:
                continue  # the ace had its one card: the double's card is 20:18:15:25's
            line = hand.double_line
            # A second double of one hand: its card is the fault, reported below.
            again = bool(hand.late_cards) and any(
                late.reason == "doubled" and late.card.line == line for late in hand.late_cards)
            if not again:
                yield from self._the_double(view, hand, DOUBLE_TOTALS[rules.double])
            for late in hand.late_cards:
                if late.reason == "doubled":
                    yield self.finding(
                        view, late.card.line, f"{hand.name} received {late.card.card} after "
                        "doubling, which allows one card only.", hand=hand.name,
                        evidence=[line]).model_copy(update={"subject": f"late:{late.card.line}"})

    def _the_double(self, view: RoundView, hand: Hand, allowed: range) -> Iterator[Finding]:
        rules = view.config.rules
        line = hand.double_line
        original = hand.main.amount if hand.main else Decimal(0)
        if hand.doubled > original:
            yield self.finding(view, line, f"{hand.name} doubled for "
                               f"{money_text(hand.doubled)}, more than its original "
                               f"{money_text(original)} wager.", hand=hand.name)
        count = hand.double_cards_before
        if count != 2:
            yield self.finding(view, line, f"{hand.name} doubled holding {count} "
                               f"card{'s' if count != 1 else ''}; a double is taken on the "
                               "first two cards.", hand=hand.name)
        elif (total := blackjack.total(hand.card_codes[:2])[0]) not in allowed:
            yield self.finding(view, line, f"{hand.name} doubled on {total}; the house allows "
                               f"doubling on {rules.double} only.", hand=hand.name)
        if rules.das == "no" and (hand.parent is not None or hand.was_split):
            yield self.finding(view, line, f"{hand.name} doubled after a split, which the "
                               "house does not allow (das=no).", hand=hand.name)


@register
class SplitPairs(Check):
    """A split of unequal cards, with an unequal wager, too many times, a split ace drawing
    again, or the second hand played before the first.

    Regulation: "The cards must be identical in value; the second wager must equal the
    original wager; the first split hand is completed before the second; a player may not
    split more than three times in a round on any one hand; a player splitting aces may
    have only one card dealt to each ace." (20:18:15:25, as summarised on file)
    Violating: `split s1h1 s1h3 10` on `9h 8d`; `hit s1h3 5c` before s1h1 stands.
    Compliant: `split s1h1 s1h3 10` on `8h 8d`, s1h1 played out, then s1h3.
    Reading: ten, jack, queen and king are identical in value (each counts ten). The
    `splits` option caps the splits of one original hand, new hands' splits included;
    each split over the cap is a finding on its `split`. A hand is complete as
    bjh-format.md §5 says (stood, doubled, over 21, a split ace with its card, or at 21
    once play moves on); a new hand's first statement while the hand it was split from is
    still open is the finding. A split's unequal wager in Blackjack Switch is
    20:18:15:30.09(11). With `splits` unknown (record:header), a split is over the cap only
    where it is over every value it could hold (never more than three).
    """

    citation = "20:18:15:25"
    name = "standard.split_pairs"
    severity = "medium"
    options = frozenset({"splits"})
    needs = frozenset({ev.Split})

    def round(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        limit = min(view.config.rules.splits, 3)
        splits_seen: dict[str, int] = {}
        new_hands: list[Hand] = []
        irregular: list[Hand] = []  # a late card, or played before its first hand: rare
        for hand in view.hands.values():
            if hand.parent is not None:
                new_hands.append(hand)
            if hand.late_cards or hand.played_before_parent_line is not None:
                irregular.append(hand)
        if len(new_hands) > 1:
            new_hands.sort(key=lambda h: h.split_line or 0)
        for hand in new_hands:
            line = hand.split_line
            pair = hand.split_from_cards
            if len(pair) != 2 or blackjack.value(pair[0]) != blackjack.value(pair[1]):
                findings.append(self.finding(view, line, f"{hand.parent} was split holding "
                                   f"{' '.join(pair) or 'no cards'}; only two cards of "
                                   "identical value may be split.", hand=hand.parent))
            parent = view.hands.get(hand.parent or "")
            original = parent.main.amount if parent and parent.main else None
            if hand.main is not None and original is not None and hand.main.amount != original:
                findings.append(self.finding(
                    view, line, f"The split of {hand.parent} placed {money_text(hand.main.amount)}"
                    f" on {hand.name}; the wager must equal the original {money_text(original)}.",
                    hand=hand.parent).model_copy(update={"subject": f"split-wager:{line}"}))
            splits_seen[hand.root] = splits_seen.get(hand.root, 0) + 1
            if splits_seen[hand.root] > limit:
                allows = (f"the house allows {limit}" if view.config.declares("splits")
                          else f"the header declares no splits, and the regulation allows {limit}")
                findings.append(self.finding(view, line, f"{hand.root} was split "
                                   f"{splits_seen[hand.root]} times; {allows}.",
                                   hand=hand.parent))
        for hand in irregular:
            for late in hand.late_cards:
                if late.reason == "split ace":
                    findings.append(self.finding(view, late.card.line,
                                       f"{hand.name}, a split ace, received "
                                       f"{late.card.card}: a split ace takes one card only.",
                                       hand=hand.name).model_copy(
                                           update={"subject": f"late:{late.card.line}"}))
            if hand.played_before_parent_line is not None:
                findings.append(self.finding(view, hand.played_before_parent_line,
                                   f"{hand.name} was played before {hand.parent}, the first "
                                   "hand of the split, was complete.", hand=hand.name))
        return findings


@register
class DealerDrawsOut(Check):
    """The dealer stopped drawing below 17, or at a soft 17 where the house hits it.

    Regulation: the text of 20:18:15:26 (Drawing of additional cards by players and
    dealers) is not on file.
    Violating: the dealer holds `Th 6c`, a player hand is still live, and the round goes to
    settlement with no `draw`.
    Compliant: `draw 5d` (21), then the settlements.
    Reading: (*reading*) common dealer procedure: while any player hand is live (or, in
    Dealer Bust 21, a DB21 wager), the dealer draws to 17 or more, and draws to a soft 17
    where `soft17=hit`. The dealer had to play where a wager was live when the dealer's
    turn began (bjh-format.md §5, "When the dealer plays"): not over 21, not a natural,
    not surrendered, settled or void, nor on a hand dealt no cards; otherwise the dealer
    may stop after the reveal. The turn begins at the reveal (or the first draw); in a
    record that shows neither, after the last player decision. The finding stands on the
    dealer's last draw, else on the reveal, else on the dealer's last card. Where every
    player hand has busted and only a DB21 wager is live it is 20:18:15:30.10(11). A stop
    below 17 after a draw on a standing total (:28's fault) follows from that draw and is
    not reported again. With `soft17` unknown (record:header) a stop at a soft 17 is not a
    finding; a stop below 17 is, under either value.
    """

    citation = "20:18:15:26"
    name = "standard.dealer_draws_out"
    severity = "high"
    options = frozenset({"soft17"})

    def round(self, view: RoundView) -> Iterable[Finding]:
        dealer = view.dealer
        if not view.dealer_had_to_play or len(dealer.cards) < 2 or dealer.total > 17:
            return ()  # the common stop, told by the total the replay keeps (no generator)
        return self._stopped(view)

    def _stopped(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        dealer = view.dealer
        if not blackjack.dealer_must_draw(dealer.card_codes, view.config.hits_soft_17):
            return findings
        if drew_past_a_standing_total(view):
            return findings  # the stop follows from a card that should have been burned (:28)
        total, soft = blackjack.total(dealer.card_codes)
        line = stop_line(view)
        # Below 17 the dealer draws whatever the house's soft 17; at a soft 17 only where
        # the header declares soft17=hit (the default, stand, never finds a stop there).
        rule = ("at a soft 17 where the house hits it (soft17=hit)" if total == 17
                else "to 17 or more")
        findings.append(self.finding(view, line,
                           f"The dealer stopped at {'soft ' if soft else ''}{total} "
                           f"with live wagers on the table; read as dealer procedure (the text "
                           f"of 20:18:15:26 is not on file), the dealer draws {rule}.",
                           evidence=[c.line for c in dealer.cards]
                           ).model_copy(update={"subject": "dealer-stop"}))
        return findings


@register
class DealerDrawsOnStandingTotal(Check):
    """The dealer drew a card while holding a total on which the dealer must stand.

    Regulation: "if the dealer has 17, 18, 19, 20 or 21 and accidentally draws a card for
    the dealer, the card must be burned" (20:18:15:28, as summarised on file).
    Violating: the dealer holds `Th 8c` (18) and `draw 3d` follows.
    Compliant: `burn 3d` in its place, or no card at all.
    Reading: a `draw` records a card counted into the dealer's hand, so a draw on a standing
    total (17 to 21; a soft 17 only where `soft17=stand`) is the fault, one finding per such
    draw. The card "must be burned": a settlement right for the dealer's hand without it
    (the hand as it stood at the first such draw) is what the rule requires and is no
    finding, and neither is a settlement right for the cards as recorded (bjh-format.md §5,
    "Judging settlements"; 20:18:15:06, 30.09(13), 30.10(5), (9), (10) and (12)). The
    dealer's later drawing is judged on the hand as recorded (20:18:15:26). A draw after the
    dealer has gone over 21 is outside the section's words (17 to 21) and the catalog's, and
    changes no result; it is not reported. With `soft17` unknown (record:header) a draw on a
    soft 17 is not a finding. The text on file is the section as amended in 2021, and no
    earlier text is on file; the amendment's day is not either, so the section is judged on
    rounds dated from 2022-01-01, the first day it was surely in force (`auditor rules
    --as-of`): an earlier round's draw on a standing total is not judged, never held to
    words that may postdate it. The payout rules still accept, on any date, a settlement
    right for the dealer's hand without that card (it only takes findings away), and a stop
    below 17 after such a draw is not reported under 20:18:15:26 either (it follows from the
    draw). A settlement wrong under both readings (for the cards as recorded and for the
    hand without the card) is one finding of the payout rule, never two: on the settlement,
    naming both results, its amounts those of the cards as recorded; the draw is this
    section's own finding beside it.
    """

    citation = "20:18:15:28"
    name = "standard.dealer_draw_on_standing_total"
    severity = "high"
    options = frozenset({"soft17"})
    needs = frozenset({ev.Draw})

    def round(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        hits17 = view.config.hits_soft_17
        for draw in view.dealer.draws:
            total, soft = draw.total_before, draw.soft_before
            if on_standing_total(draw, hits17):
                findings.append(self.finding(view, draw.card.line,
                                   f"The dealer drew {draw.card.card} "
                                   f"holding {'soft ' if soft else ''}{total}, a total on which "
                                   "the dealer must stand; the card should have been burned."
                                   ).model_copy(update={"subject": f"draw:{draw.card.line}"}))
        return findings


@register
class Surrender(Check):
    """A surrender where the house offers none, after the hand's first decision, or not
    settled as half the wager collected.

    Regulation: the text of 20:18:15:30 (Surrender) is not on file.
    Violating: `option surrender=no` and `surrender s1h1`; or `settle s1h1 main lose 20` on
    a 20 wager after a surrender.
    Compliant: `option surrender=late`, `surrender s1h1`, `settle s1h1 main lose 10`.
    Reading: (*reading*) late surrender as commonly dealt: offered only where the house
    says so, as the first decision on the hand's first two cards, and it collects half the
    wager (a tip wager on the hand too). A hand made by a split, or a hand that was split,
    has had its first decision. A surrendered hand owes half its wager whatever the dealer
    holds: with `peek=no` a dealer blackjack does not change it. Its settlement is judged
    here, not under 20:18:15:06. With `surrender` unknown (record:header) a surrender is
    judged under both values: offered or not, one after the first decision is a finding.
    """

    citation = "20:18:15:30"
    name = "standard.surrender"
    severity = "high"
    options = frozenset({"surrender"})
    needs = frozenset({ev.Surrender})

    def round(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        config = view.config
        offered = config.rules.surrender != "no"
        for hand in view.hands.values():
            if hand.surrendered_line is None:
                continue
            if not offered:
                # the house's word, or the default the auditor assumed: said which
                house = ("the header declares surrender=no" if config.declares("surrender")
                         else "the header does not declare surrender, so it is judged under "
                              "the default surrender=no")
                findings.append(self.finding(view, hand.surrendered_line,
                                   f"{hand.name} surrendered; {house} (not offered).",
                                   hand=hand.name))
            if hand.surrender_after_decision or hand.parent is not None:
                findings.append(self.finding(view, hand.surrendered_line,
                                   f"{hand.name} surrendered after "
                                   f"{'its first decision' if hand.parent is None else 'a split'}"
                                   "; surrender is read as late surrender, the first decision "
                                   "on the first two cards (the text of 20:18:15:30 is not on "
                                   "file).", hand=hand.name))
            for wager in view.wagers_of("main", tip=None):
                if wager.target != hand.name:
                    continue
                wrong = wrongly_settled(wager, wager.amount)
                if wrong is not None:
                    settlement, expected = wrong
                    findings.append(payout_finding(self, view, wager, settlement, expected,
                                         wager.amount,
                                         evidence=[hand.surrendered_line]))
        return findings
