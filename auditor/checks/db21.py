"""Dealer Bust 21, 20:18:15:30.10 (game=db21)."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from auditor import blackjack
from auditor.checks.base import Check, register
from auditor.checks.judging import (
    drew_past_a_standing_total,
    kept_net,
    late_addition_finding,
    money_text,
    next_action_index,
    payout_finding,
    recorded_text,
    returned_in_full,
    stop_line,
    wrongly_settled,
)
from auditor.findings import Finding
from auditor.replay.view import RoundView, Wager, seat_number

DB21 = frozenset({"db21"})


KEY = "db21"


def judged_db21(view: RoundView) -> list[Wager]:
    """DB21 wagers whose outcome the rules decide: placed in time, on a seat with a main
    wager. Read by most of the game's checks: found once a round, the game's facts
    (auditor/checks/games.py), and kept in `view.derived`. Read-only for the checks."""
    found = view.derived.get(KEY)
    if found is None:
        found = view.derived[KEY] = _judged_db21(view)
    return found


def _judged_db21(view: RoundView) -> list[Wager]:
    db21 = [w for w in view.wagers if w.kind == "db21" and not w.after_first_card]
    if not db21:
        return db21
    with_main = _seats_with_main(view)
    return [w for w in db21 if w.seat in with_main]


def _seats_with_main(view: RoundView) -> set[str]:
    """Seats holding a personal (not tip) main wager."""
    return {w.seat for w in view.wagers if w.kind == "main" and not w.tip}


def _remaining(view: RoundView, kinds: tuple[str, ...]) -> list[Wager]:
    """Wagers not settled by the time the dealer's hand is complete (bjh-format.md §5).

    A busted or surrendered hand is not remaining even where it was collected late: its
    result never depended on the dealer. DB21 wagers count where the rules judge them
    (in time, on a seat with a main wager). A tip is a wager of its kind here too
    (bjh-format.md §5, "Tips"): a tip main or DB21 wager is ordered as the player's would be.
    """
    done = view.dealer.done_index
    if done is None:
        return []
    judged = {id(w) for w in judged_db21(view)} if "db21" in kinds else set()
    found = []
    for wager in view.wagers:
        if wager.kind not in kinds or not wager.settlements:
            continue
        if wager.settlements[0].index <= done:
            continue
        if wager.expected is None or wager.expected.outcome == "void":
            continue
        if wager.kind == "db21" and id(wager) not in judged:
            continue
        hand = view.hands.get(wager.target) if wager.kind == "main" else None
        if hand is not None and (hand.busted or hand.surrendered_line is not None):
            continue
        found.append(wager)
    return found


@register
class WagerNeedsMainBet(Check):
    """A DB21 wager on a seat with no main wager.

    Regulation: "DB21 wagers may only be made if a regular blackjack bet is made;"
    (20:18:15:30.10(2))
    Violating: `bet s4 db21 10` with no `bet s4h1 main …` in the round.
    Compliant: `bet s4h1 main 25` and `bet s4 db21 10`.
    Reading: the seat must hold a personal main wager in the same round; a tip DB21 wager
    needs one too. The wager's settlement is not judged again (it is no lawful wager, so
    no outcome is owed).
    """

    citation = "20:18:15:30.10(2)"
    name = "db21.wager_needs_main_bet"
    options = frozenset()
    severity = "high"
    needs = DB21
    games = DB21

    def round(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        db21 = [w for w in view.wagers if w.kind == "db21"]
        if not db21:
            return findings
        with_main = _seats_with_main(view)
        for wager in db21:
            if wager.seat not in with_main:
                findings.append(self.finding(view, wager.line,
                                   f"The {wager.label} was taken on a seat "
                                   "with no blackjack wager.", seat=wager.seat))
        return findings


@register
class PastPosting(Check):
    """A DB21 wager placed after the first card and not returned as no bet.

    Regulation: "All DB21wagers shall be made prior to the first card of each round being
    dealt. Any wager made after that is considered no bet and returned to the person who
    made it;" (20:18:15:30.10(4))
    Violating: `deal s1h1 9c` … `bet s1 db21 10`, then `settle s1 db21 win 40`.
    Compliant: the same late wager settled `void 10`.
    Reading: the first card is the round's first `deal`. Returned means settled `void`, or
    `push`, for the wager's full amount: the two return the same money (bjh-format.md §5),
    and the rule asks that the wager be returned, which a push in full does; a push or void
    for less kept the rest. A late wager with no settlement at all is record:unsettled
    alone. Chips added to a DB21 wager after the first card are no bet too: the wager is
    judged on what was placed in time, and a settlement wrong for that is one finding on the
    added chips. Its settlement is not judged again under (5) or (12).
    """

    citation = "20:18:15:30.10(4)"
    name = "db21.past_posting"
    options = frozenset({"db21_paytable", "soft17"})  # late chips: the payout owed
    severity = "high"
    needs = DB21
    games = DB21

    def round(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        if view.first_card_index is None:
            return findings
        first = view.events[view.first_card_index].line
        for wager in view.wagers:
            if wager.kind == "db21" and wager.late_additions:
                late = late_addition_finding(self, view, wager, wager.amount, in_words=True)
                if late is not None:
                    findings.append(late)
            if (wager.after_first_card and wager.kind == "db21" and wager.settlements
                    and not returned_in_full(wager)):
                settlement = wager.settlements[0]
                findings.append(self.finding(
                    view, wager.line, f"The {wager.label} was placed after the first card "
                    f"(line {first}) and {recorded_text(settlement)}; it should have been "
                    f"returned in full ({money_text(wager.amount)}) as no bet.",
                    seat=wager.seat, expected=Decimal(0), actual=kept_net(wager, settlement),
                    evidence=[first, *(s.line for s in wager.settlements)]))
        return findings


@register
class Outcome(Check):
    """A DB21 wager won though the dealer did not bust, or lost though the dealer busted.

    Regulation: "DB21 wagers win if the dealer's blackjack hand busts;" (20:18:15:30.10(5))
    and "If the dealer's hand does not bust, all DB21 wagers lose" ((9)).
    Violating: the dealer ends on 20 and `settle s2 db21 win 20`.
    Compliant: the dealer ends on 20 and `settle s2 db21 lose 10`.
    Reading: the dealer's hand as recorded decides; a settlement right for the dealer's
    hand without a card drawn on a standing total (which "must be burned", 20:18:15:28)
    is right too (a bust made by that card owes no win).
    With `db21.paytable` unknown (record:header) a win is judged under each table. A win
    paid at the wrong odds is
    20:18:15:30.10(12). Wagers placed late or without a main wager are judged under (4)
    and (2) only. At a table that declares no pay table (a record:header finding) a win
    on a dealer bust is right whatever its amount; anything else is this finding, with no
    amount owed, but for a wager a misdeal returns (its seat's or the dealer's), which is
    right only when returned as void in full.
    """

    citation = "20:18:15:30.10(5)"
    name = "db21.outcome"
    severity = "high"
    options = frozenset({"db21_paytable", "soft17"})  # soft17: :28
    needs = DB21
    games = DB21

    def round(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        no_table = view.config.rules.db21_paytable is None and view.dealer.busted
        for wager in judged_db21(view):
            misdealt = wager.expected is not None and wager.expected.outcome == "void"
            if no_table and not misdealt:  # (a misdeal returns it, pay table or none)
                findings.extend(self._won_at_unknown_odds(view, wager))
                continue
            wrong = None if wager.late_additions else wrongly_settled(wager, wager.amount)
            if wrong is None:
                continue  # right, or (with chips added late) (4)'s
            settlement, expected = wrong
            if settlement.outcome == "win" and expected.outcome == "win":
                continue  # the odds are (12)'s
            findings.append(payout_finding(self, view, wager, settlement, expected, wager.amount,
                                 evidence=[c.line for c in view.dealer.cards]))
        return findings

    def _won_at_unknown_odds(self, view: RoundView, wager: Wager) -> Iterator[Finding]:
        """The dealer busted at a table that declares no pay table: the wager wins, by how
        much no record can say (the header finding says why)."""
        if len(wager.settlements) != 1 or wager.settlements[0].outcome == "win":
            return
        settlement = wager.settlements[0]
        if view.burned_dealer is not None and settlement.outcome == "lose":
            return  # right without the card that should have been burned (20:18:15:28)
        yield self.finding(view, settlement.line, f"The {wager.label} "
                           f"{recorded_text(settlement)}; the dealer busted "
                           f"({view.dealer.total}), so it wins (the table declares no pay "
                           "table, so the amount owed is not known).", seat=wager.seat,
                           evidence=[c.line for c in view.dealer.cards]
                           ).model_copy(update={"subject": f"settle:{wager.target}:db21"})


def _busts_in(view: RoundView) -> tuple[bool, ...]:
    """Whether the dealer busted: as recorded, and without a card drawn on a standing
    total, which must be burned (20:18:15:28): the order of settlements is right when it is
    right for either hand."""
    if view.burned_dealer is None:
        return (view.dealer.busted,)
    return (view.dealer.busted, view.burned_dealer.busted)


@register
class TuckBustedHand(Check):
    """A busted hand of a seat with a DB21 wager discarded, or not tucked in time.

    Regulation: "If a player has a DB21 wager and busts the player's blackjack hand, the
    dealer will take the losing blackjack bet and pick up the cards. However, instead of
    putting the cards in the discard holder the dealer shall tuck the cards under the DB21
    bet." (20:18:15:30.10(8))
    Violating: `hit s3h1 9c` (over 21), `settle s3h1 main lose 25`, `discard s3h1`.
    Compliant: `settle s3h1 main lose 25`, `tuck s3h1` before the next decision.
    Reading: the tuck must come before the next player decision or dealer action (reveal,
    draw) after the bust. The finding stands on the `discard`, on a late `tuck`, or, with
    no tuck at all, on the card that took the hand over 21. A DB21 wager placed after the
    first card is no bet (30.10(4)), so it asks for no tuck. Each hand of a split that
    busts is tucked.
    """

    citation = "20:18:15:30.10(8)"
    name = "db21.tuck_busted_hand"
    options = frozenset()
    severity = "medium"
    needs = DB21
    games = DB21

    def round(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        seats = {w.seat for w in view.wagers if w.kind == "db21" and not w.after_first_card}
        if not seats:
            return findings
        for hand in view.hands.values():
            if hand.seat not in seats or hand.bust_line is None or hand.main is None:
                continue
            # the statement that took the hand over 21: nearly always one of its cards (a
            # card keeps its statement's index); else (a trade in another game) looked for
            bust_index = next((c.index for c in hand.cards if c.line == hand.bust_line), None)
            if bust_index is None:
                bust_index = next((i for i, e in enumerate(view.events)
                                   if e.line == hand.bust_line), None)
            if bust_index is None:
                continue
            discard = next((m for m in view.markers_of("discard") if m.target == hand.name), None)
            tuck = next((m for m in view.markers_of("tuck") if m.target == hand.name), None)
            deadline = next_action_index(view, bust_index)
            if discard is not None and (tuck is None or discard.index < tuck.index):
                findings.append(self.finding(view, discard.line,
                                   f"{hand.name} busted with a DB21 wager on "
                                   f"{hand.seat}, and its cards went to the discard holder "
                                   "instead of under the DB21 wager.", hand=hand.name,
                                   evidence=[hand.bust_line]))
            elif tuck is None:
                findings.append(self.finding(view, hand.bust_line,
                                   f"{hand.name} busted with a DB21 wager "
                                   f"on {hand.seat}, and its cards were never tucked under the "
                                   "DB21 wager.", hand=hand.name))
            elif deadline is not None and tuck.index > deadline:
                findings.append(self.finding(view, tuck.line,
                                   f"{hand.name}'s cards were tucked only after "
                                   f"play went on (line {view.events[deadline].line}).",
                                   hand=hand.name, evidence=[hand.bust_line]))
        return findings


@register
class LosesBeforeRemainingHands(Check):
    """The dealer did not bust, and a DB21 wager was settled after a remaining main wager.

    Regulation: "If the dealer's hand does not bust, all DB21 wagers lose and the dealer
    shall remove the wagers from the layout prior to resolving the remaining blackjack
    hands;" (20:18:15:30.10(9))
    Violating: the dealer stands on 19, `settle s1h1 main win 10`, then `settle s1 db21 lose 5`.
    Compliant: `settle s1 db21 lose 5` first, then `settle s1h1 main win 10`.
    Reading: remaining wagers are those not settled when the dealer's hand is complete
    (bjh-format.md §5): busted hands, naturals paid early and surrenders are not; a
    natural settled after the dealer's hand is. The removal of the DB21 wagers is one
    procedure of the round: one finding, on the first DB21 settlement that comes after a
    remaining main wager was resolved, the others named as evidence. DB21 wagers placed
    late or without a main wager are judged under (4) and (2) only. A tip DB21 wager is
    removed with the DB21 wagers, and a tip on a hand is a remaining main wager, as the
    format says of tips (bjh-format.md §5, "Tips": settled in the order a player's wager
    of that kind would be). Where the dealer busts only with a card drawn on a standing
    total, which "must be burned" (20:18:15:28), the order is right if it is right for
    either hand: this order or (10)'s; a finding only where both are broken.
    """

    citation = "20:18:15:30.10(9)"
    name = "db21.collect_before_remaining_hands"
    options = frozenset({"soft17"})  # the bust without a burned card
    severity = "medium"
    needs = DB21
    games = DB21

    def round(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        busts = _busts_in(view)
        if not view.dealer.cards or False not in busts:
            return findings
        found = list(self.order(view))
        if found and True in busts and not any(CounterClockwiseResolution().order(view)):
            return findings  # right for the bust as recorded ((10)'s order)
        findings.extend(found)
        return findings

    def order(self, view: RoundView) -> Iterator[Finding]:
        """The finding of a DB21 wager settled after a remaining main wager."""
        mains = _remaining(view, ("main",))
        if not mains:
            return
        first_main = min(mains, key=lambda w: w.settlement.index)
        late = sorted((w for w in judged_db21(view) if w.settlement is not None
                       and w.settlement.index > first_main.settlement.index),
                      key=lambda w: w.settlement.index)
        if late:
            wager = late[0]
            yield self.finding(view, wager.settlement.line, f"The {wager.label} was settled "
                               f"after the remaining {first_main.label} (line "
                               f"{first_main.settlement.line}); DB21 wagers are removed first "
                               "when the dealer does not bust.", seat=wager.seat,
                               evidence=[first_main.settlement.line,
                                         *(w.settlement.line for w in late[1:])])


@register
class CounterClockwiseResolution(Check):
    """The dealer busted, and the remaining wagers were not resolved from third base to first
    base, main wager before DB21 wager.

    Regulation: "If the dealer's hand busts the dealer shall resolve all the remaining
    blackjack bets and DB21 bets beginning in a counter-clockwise order, if a player has
    both a blackjack bet and a DB21 bet remaining, the blackjack bet shall be paid first
    and the DB21 bet shall be paid second;" (20:18:15:30.10(10))
    Violating: the dealer busts; `settle s2h1 main win 10` before `settle s5h1 main win 10`;
    or `settle s5 db21 win 20` before `settle s5h1 main win 10`.
    Compliant: s5's main, s5's DB21, then s2's main and s2's DB21.
    Reading: counter-clockwise is read, as in dealer practice, from the dealer's right to
    the dealer's left: descending seat number (bjh-format.md §5). The hands of one seat
    may be resolved in any order, but every remaining main wager of a seat comes before
    its DB21 wager. Remaining wagers as in (9), tips included as wagers of their kind
    (bjh-format.md §5, "Tips"); a busted hand collected late is not one.
    The resolution order is one procedure of the round: one finding, on the first
    settlement out of order. Where the bust comes only from a card drawn on a standing
    total, which "must be burned" (20:18:15:28), the order is right if it is right for
    either hand: this order or (9)'s; a finding only where both are broken.
    """

    citation = "20:18:15:30.10(10)"
    name = "db21.counter_clockwise_resolution"
    options = frozenset({"soft17"})  # the bust without a burned card
    severity = "medium"
    games = DB21

    def round(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        busts = _busts_in(view)
        if True not in busts:
            return findings
        found = list(self.order(view))
        if found and False in busts and not any(LosesBeforeRemainingHands().order(view)):
            return findings  # right for the dealer's hand without the burned card ((9)'s order)
        findings.extend(found)
        return findings

    def order(self, view: RoundView) -> Iterator[Finding]:
        """The finding of the first remaining wager resolved out of counter-clockwise order."""
        remaining = sorted(_remaining(view, ("main", "db21")), key=lambda w: w.settlement.index)
        previous: Wager | None = None
        for wager in remaining:
            if previous is not None:
                later_seat = seat_number(wager.seat) > seat_number(previous.seat)
                same_seat = wager.seat == previous.seat
                if later_seat or (same_seat and wager.kind == "main" and previous.kind == "db21"):
                    # "counter-clockwise" as a seat order is the auditor's reading; a DB21
                    # bet paid before the blackjack bet is the regulation's own words
                    text = (f"{wager.seat} was resolved after {previous.seat}: the remaining "
                            "wagers were not resolved counter-clockwise, read as from the "
                            "highest seat (third base) down" if later_seat else
                            f"{wager.seat}'s DB21 wager was paid before its blackjack wager: "
                            "the blackjack bet is paid first")
                    yield self.finding(view, wager.settlement.line, f"{text}.",
                                       seat=wager.seat, evidence=[previous.settlement.line])
                    return
            previous = wager


@register
class PlayOutForDb21(Check):
    """Every player hand busted, a DB21 wager was live, and the dealer did not play out.

    Regulation: "If all of the player's blackjack hands have busted leaving only the dealer
    with live cards remaining and there is at least one DB21 wager, the dealer's hand must
    be played out according to the house rules;" (20:18:15:30.10(11))
    Violating: s1h1 busts, `bet s1 db21 10` stands, the dealer reveals 14 and stops.
    Compliant: the dealer draws to 17 or more under the `soft17` option.
    Reading: the house rules are the `soft17` option; a stop on a hard 17 or more is
    compliant. The player's hands are those holding a main wager; a DB21 wager, a dealer's
    tip among them ("at least one DB21 wager"), is live when it was placed in time on a seat
    with a main wager and not settled before the dealer's turn began (the reveal, or as
    20:18:15:26 reads a record without one), and neither its seat nor the dealer was
    misdealt (a misdeal returns it: nothing is played out for it). The finding stands where
    20:18:15:26's would and replaces it for the same stop.
    """

    citation = "20:18:15:30.10(11)"
    name = "db21.play_out_for_db21"
    severity = "high"
    options = frozenset({"soft17"})
    needs = DB21
    games = DB21

    def round(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        played = [h for h in view.hands.values() if h.main is not None]
        if not played or not all(h.busted for h in played) or len(view.dealer.cards) < 2:
            return findings
        live = [w for w in judged_db21(view) if not (
            w.settlement is not None and w.settlement.index < (view.dealer.turn_index or 0))]
        if not live:
            return findings
        cards = view.dealer.card_codes
        if not blackjack.dealer_must_draw(cards, view.config.hits_soft_17):
            return findings
        if drew_past_a_standing_total(view):
            return findings  # the stop follows from a draw on a standing total: 20:18:15:28's
        total, soft = blackjack.total(cards)
        findings.append(self.finding(view, stop_line(view), f"Every player hand busted and a "
                           f"DB21 wager was live, but the dealer stopped at "
                           f"{'soft ' if soft else ''}{total} instead of playing the hand out.",
                           evidence=[w.line for w in live]
                           ).model_copy(update={"subject": "dealer-stop"}))
        return findings


@register
class PayTable(Check):
    """A DB21 win paid at odds other than the declared pay table for the dealer's up card.

    Regulation: "DB21 wagers shall be paid in accordance with one of the following pay
    tables" (20:18:15:30.10(12)): by the dealer's up card, A / T-K / 7-9 / 2-6, table #1
    10/4/2/1, #2 15/4/2/1, #3 2/2/2/2, #4 4/2/4/1 to 1.
    Violating: pay table 1, up card `6h`, the dealer busts, `settle s1 db21 win 20` on 10.
    Compliant: `settle s1 db21 win 10` (1 to 1).
    Reading: the pay table is the `db21.paytable` option; the original up card is the
    dealer's first card (30.10(6)). With the option unknown (record:header) a win is
    short or over only where it is under every table it could be; the finding owes the
    table closest to what was paid. A bust made only by a card drawn on a standing total
    (which "must be burned", 20:18:15:28) owes no win: a wager collected there is right.
    """

    citation = "20:18:15:30.10(12)"
    name = "db21.pay_table"
    severity = "high"
    options = frozenset({"db21_paytable", "soft17"})  # soft17: :28
    needs = DB21
    games = DB21

    def round(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        for wager in judged_db21(view):
            wrong = None if wager.late_additions else wrongly_settled(wager, wager.amount)
            if wrong is None:
                continue  # right, or (with chips added late) (4)'s
            settlement, expected = wrong
            if settlement.outcome != "win" or expected.outcome != "win":
                continue
            odds = settlement.amount / wager.amount if wager.amount else 0
            findings.append(self.finding(view, settlement.line, f"The {wager.label} was paid "
                               f"{money_text(settlement.amount)} ({odds:g} to 1); {expected.why}, "
                               f"{money_text(expected.net)}.", seat=wager.seat,
                               expected=expected.net, actual=settlement.net,
                               evidence=[view.dealer.up.line] if view.dealer.up else []
                               ).model_copy(update={"subject": f"settle:{wager.target}:db21"}))
        return findings
