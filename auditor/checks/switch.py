"""Blackjack Switch, 20:18:15:30.09 (game=switch).

The standard checks 20:18:15:03, :10, :23, :24, :25, :26, :28 and :30 also run for this
game; where a fault is one of theirs and this section speaks to it too, the finding here
carries the same subject, so that only this, the more specific citation, is kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from decimal import Decimal

from auditor import events as ev
from auditor.blackjack import cents_match
from auditor.checks.base import Check, FileView, register
from auditor.checks.judging import (
    kept_net,
    money_text,
    net_text,
    payout_sentence,
    recorded_text,
    returned_in_full,
    settled_net,
    settled_void_in_full,
    stake_of,
    wrongly_settled,
)
from auditor.findings import Finding
from auditor.parser import parse_lines
from auditor.reader import Problem
from auditor.replay import switch as facts
from auditor.replay.outcomes import seat_first_four
from auditor.replay.view import (
    Decision,
    Hand,
    RoundView,
    Settlement,
    Wager,
    seat_number,
    seat_of,
)
from auditor.source import SourceFile

SWITCH = frozenset({"switch"})
ZERO = Decimal(0)
DECKS = (6, 8)


def _settle_subject(wager: Wager) -> str:
    return f"settle:{wager.target}:{wager.kind}"


@register
class DecksAndTwoHands(Check):
    """A table dealt with other than six or eight decks, or a seat playing one hand only.

    Regulation: "Six or eight decks of cards shall be used. In blackjack switch each player
    plays two hands of blackjack." (20:18:15:30.09(1))
    Violating: `table T9 game=switch decks=4`; or `bet s3h1 main 25` with no `bet s3h2 main`.
    Compliant: `decks=6` or `decks=8`; `bet s3h1 main 25` and `bet s3h2 main 25`.
    Reading: a seat plays when it holds a personal main wager on h1 or h2; it must hold one
    on both. The finding stands on the one wager's `bet` line. The unbet hand may still be
    dealt, and nothing else follows from it: the wagered hand is settled as usual. The deck
    count is the `decks=` of the `table` statement, where the finding stands; with `decks`
    unknown (record:header) six or eight may be in use, so it is not a finding.
    """

    citation = "20:18:15:30.09(1)"
    name = "switch.decks_and_two_hands"
    severity = "medium"
    options = frozenset({"decks"})
    games = SWITCH

    def file(self, view: FileView) -> Iterator[Finding]:
        if view.config.decks in DECKS:
            return
        yield self.file_finding(view, Problem(
            "decks", _table_line(view.file), f"The Blackjack Switch table is declared with "
            f"{view.config.decks} decks; it must be dealt from six or eight."))

    def round(self, view: RoundView) -> Iterable[Finding]:
        for wagered in facts.of(view).seat_wagers.values():
            if len(wagered) == 1:
                return self._one_hand(view)
        return ()  # every playing seat on two hands: no generator

    def _one_hand(self, view: RoundView) -> Iterator[Finding]:
        for seat, wagered in facts.of(view).seat_wagers.items():
            if len(wagered) != 1:
                continue
            (hand, wager), = wagered.items()
            other = seat + ("h2" if hand.endswith("h1") else "h1")
            yield self.finding(view, wager.line, f"{seat} played with a main wager on {hand} "
                               f"only; each player plays two hands, so {other} needed a wager "
                               "too.", seat=seat, hand=hand)


def _table_line(path: str) -> int | None:
    """The line of the file's `table` statement (read again only when it is at fault)."""
    try:
        for event in parse_lines(SourceFile(path).lines()):
            if isinstance(event, ev.Table):
                return event.line
    except OSError:
        return None
    return None


@register
class EqualWagers(Check):
    """A seat's personal main wagers on its two hands differ.

    Regulation: "Each player must make an initial wager within the limits specified at the
    table by the licensee, and must place equal wagers on both wagering areas"
    (20:18:15:30.09(2))
    Violating: `bet s2h1 main 25` and `bet s2h2 main 50`.
    Compliant: `bet s2h1 main 25` and `bet s2h2 main 25`.
    Reading: the player's own wagers placed by `bet` are compared; tips are the dealer's
    and do not count. The finding stands on the later of the two `bet` lines. A wager
    outside the posted limits is 20:18:15:03.
    """

    citation = "20:18:15:30.09(2)"
    name = "switch.equal_wagers"
    options = frozenset()
    severity = "high"
    games = SWITCH

    def round(self, view: RoundView) -> Iterable[Finding]:
        for wagered in facts.of(view).seat_wagers.values():
            if len(wagered) == 2:
                first, second = wagered.values()
                if first.amount != second.amount:
                    return self._unequal(view)
        return ()  # the common round, without a generator

    def _unequal(self, view: RoundView) -> Iterator[Finding]:
        for seat, wagered in facts.of(view).seat_wagers.items():
            if len(wagered) != 2:
                continue
            first, second = wagered.values()
            if first.amount == second.amount:
                continue
            if second.index < first.index:
                first, second = second, first
            yield self.finding(view, second.line, f"{seat} wagered "
                               f"{money_text(first.amount)} on {first.target} and "
                               f"{money_text(second.amount)} on {second.target}; the wagers "
                               "on both hands must be equal.", seat=seat,
                               hand=second.target, evidence=[first.line])


@register
class TipNeedsPersonalWager(Check):
    """A tip wager on a wagering area where the player has no wager of their own.

    Regulation: "Any dealer tip delivered as a wager may be placed on either of the wager
    areas or super match wager or both, provided that the player has placed a personal
    wager on the same hands." (20:18:15:30.09(3))
    Violating: `bet s4h2 main 5 tip` with no `bet s4h2 main …` in the round.
    Compliant: `bet s4h2 main 25` and `bet s4h2 main 5 tip`; `bet s4 supermatch 5` and
    `bet s4 supermatch 1 tip`.
    Reading: the wagering areas are each hand's main wager and the seat's super match; a
    tip on one needs the player's own wager on the same area in the same round (a tip
    that "remains in play" is recorded again with the player's new wager). The tip's own
    settlement is judged as any wager's.
    """

    citation = "20:18:15:30.09(3)"
    name = "switch.tip_needs_personal_wager"
    options = frozenset()
    severity = "high"
    needs = frozenset({"tip"})
    games = SWITCH

    def round(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        tips = [w for w in view.wagers if w.tip]
        if not tips:
            return findings  # most rounds hold no tip at all
        for kind, area in (("main", "hand"), ("supermatch", "super match of")):
            personal = {w.target for w in view.wagers if w.kind == kind and not w.tip}
            for tip in tips:
                if tip.kind == kind and tip.target not in personal:
                    findings.append(self.finding(view, tip.line, f"A tip was wagered on the {area} "
                                       f"{tip.target}, where the player has no wager of their "
                                       "own.", seat=tip.seat, hand=tip.hand))
        return findings


@register
class Misdeal(Check):
    """A wrong number of cards in the initial deal and play went on; a misdealt wager not
    returned; or one seat's misdeal voiding another seat's wagers.

    Regulation: "An incorrect number of cards dealt to a player constitutes a misdeal to
    that player only. The player receiving the misdealt cards retains the player's wager
    and super match wager. An incorrect number of cards dealt to the dealer constitutes a
    misdeal for the hand, and each player retains the player's wager and super match
    wager;" (20:18:15:30.09(4))
    Violating: `deal s3h1 9c` three times and play goes on with no `misdeal s3`; or
    `misdeal s3` and `settle s3 supermatch lose 5`; or `misdeal s3` and `settle s5h1 main
    void 25`.
    Compliant: `misdeal s3`, every wager of s3 settled `void` for its full amount and the
    other seats played out; `misdeal dealer` and every wager of the round returned.
    Reading: the right number is two cards to each wagered hand of a seat (h1, h2; none to
    any other hand) and two to the dealer. Play went on when no `misdeal` names the seat (or
    the dealer) and not every wager concerned was returned as void; that finding stands on
    the extra card, or on the last card of the initial deal when cards are missing.
    Retaining a wager means its settlement is `void`, or `push`, for the full amount (the
    same money); each wager wrongly settled is one finding, on its `settle` line.
    """

    citation = "20:18:15:30.09(4)"
    name = "switch.misdeal"
    options = frozenset({"decks"})  # a super match owed back: its schedule
    severity = "high"
    games = SWITCH

    def round(self, view: RoundView) -> Iterable[Finding]:
        derived = facts.of(view)
        if not derived.misdeals and not derived.wrong_counts:
            return ()  # the common round: nothing misdealt, no count wrong (no generator)
        return self._misdealt(view)

    def _misdealt(self, view: RoundView) -> Iterator[Finding]:
        misdeals = facts.of(view).misdeals
        yield from self._counts(view, misdeals)
        if not misdeals:
            return  # no wager is voided by a misdeal, or wrongly by a neighbour's
        for wager in view.wagers:
            if len(wager.settlements) != 1:
                continue  # record:unsettled
            settlement = wager.settlements[0]
            if facts.voided_by_misdeal(view, wager):
                if returned_in_full(wager):
                    continue
                declared = misdeals.get("dealer") or misdeals[wager.seat]
                whose = "the dealer" if "dealer" in misdeals else wager.seat
                kept = kept_net(wager, settlement)
                expected, actual = (ZERO, kept) if kept else (None, None)
                partly = (f"was returned as void for {money_text(settlement.amount)} of its "
                          f"{money_text(wager.amount)}") if settlement.outcome == "void" \
                    else recorded_text(settlement)
                yield self.finding(view, settlement.line, f"The {wager.label} {partly}, but the "
                                   f"misdeal to {whose} (line {declared}) returns it in full "
                                   "as void.", seat=wager.seat, hand=wager.hand,
                                   expected=expected, actual=actual, evidence=[declared]
                                   ).model_copy(update={"subject": _settle_subject(wager)})
            elif facts.voided_by_neighbour(view, wager):
                seats = ", ".join(sorted(misdeals))
                money = wager.expected.net
                yield self.finding(view, settlement.line, f"The {wager.label} was returned as "
                                   f"void because of the misdeal to {seats}, which concerns "
                                   f"that seat only; it should {net_text(money)}: "
                                   f"{wager.expected.why}.", seat=wager.seat, hand=wager.hand,
                                   expected=money if money else None,
                                   actual=ZERO if money else None,
                                   evidence=sorted(misdeals.values())
                                   ).model_copy(update={"subject": _settle_subject(wager)})

    def _counts(self, view: RoundView, misdeals: dict[str, int]) -> Iterator[Finding]:
        for fault in facts.of(view).wrong_counts:
            if "dealer" in misdeals or fault.target in misdeals:
                continue
            concerned = (view.wagers if fault.target == "dealer"
                         else [w for w in view.wagers if w.seat == fault.target])
            if concerned and all(settled_void_in_full(w) for w in concerned):
                continue  # voided as in a misdeal: play did not go on (a push is play's)
            dealt = ", ".join(f"{count} card{'' if count == 1 else 's'} to {name}"
                              for name, count in sorted(fault.counts.items()))
            if fault.target == "dealer":
                message = (f"The dealer was dealt {dealt.removesuffix(' to dealer')} in the "
                           "initial deal, not two, and play went on without a misdeal for the "
                           "round.")
                seat = None
            else:
                message = (f"{fault.target} was dealt {dealt} in the initial deal, not two to "
                           "each hand, and play went on without a misdeal to that seat.")
                seat = fault.target
            yield self.finding(view, fault.line, message, seat=seat, evidence=fault.lines)


@register
class SuperMatchBeforeMain(Check):
    """A seat's main wager settled before its super match wager.

    Regulation: "Wagers are collected or paid in this order: super match wager and wager;"
    (20:18:15:30.09(5))
    Violating: `settle s1h1 main win 10` before `settle s1 supermatch lose 5`.
    Compliant: `settle s1 supermatch lose 5` first, then the main wagers.
    Reading: tips follow the wagers they stand beside. Void settlements are not collected
    or paid and do not count. Where the super match itself was resolved after the first
    decision that is 20:18:15:30.09(8), and the order is not reported again. One finding
    per seat, on its first main settlement that came before the super match's.
    """

    citation = "20:18:15:30.09(5)"
    name = "switch.super_match_before_main"
    options = frozenset()
    severity = "medium"
    needs = frozenset({"supermatch"})
    games = SWITCH

    def round(self, view: RoundView) -> Iterable[Finding]:
        """The common round, every super match resolved before its seat's mains, told
        without a generator; any other goes to `_judged`."""
        last_super, early_main = self._resolved(view)
        if not early_main:
            return ()  # the common case: every super match was resolved first
        return self._judged(view, last_super, early_main)

    @staticmethod
    def _resolved(view: RoundView) -> tuple[dict[str, Settlement], dict[str, Settlement]]:
        """Per seat, its last super match resolved, and its first main resolved before that."""
        last_super: dict[str, Settlement] = {}  # seat -> the last of its super matches resolved
        for wager in view.wagers:
            if wager.kind == "supermatch" and wager.settlements:
                settlement = wager.settlements[0]
                known = last_super.get(wager.seat)
                if settlement.outcome != "void" and (known is None
                                                     or settlement.index > known.index):
                    last_super[wager.seat] = settlement
        early_main: dict[str, Settlement] = {}  # seat -> its first main resolved before that
        if not last_super:
            return last_super, early_main
        for wager in view.wagers:
            super_match = last_super.get(wager.seat)
            if wager.kind != "main" or super_match is None or not wager.settlements:
                continue
            settlement = wager.settlements[0]
            known = early_main.get(wager.seat)
            if (settlement.outcome != "void" and settlement.index < super_match.index
                    and (known is None or settlement.index < known.index)):
                early_main[wager.seat] = settlement
        return last_super, early_main

    def _judged(self, view: RoundView, last_super: dict[str, Settlement],
                early_main: dict[str, Settlement]) -> Iterator[Finding]:
        late = {w.seat for w in _mistimed_super_match(view)}
        for seat in sorted(early_main, key=seat_number):
            if seat in late:
                continue
            yield self.finding(view, early_main[seat].line, f"A main wager of {seat} was "
                               f"settled before its super match wager (line "
                               f"{last_super[seat].line}); the super match is collected or "
                               "paid first.", seat=seat, evidence=[last_super[seat].line])


@register
class SuperMatchOutcome(Check):
    """A super match won, lost or returned against what the first four cards hold.

    Regulation: "The following hands are always paid a bonus on the super match wager as it
    does not play against the dealer, but is based on the player's initial four cards: four
    of a kind, two pair, three of a kind, and pair;" (20:18:15:30.09(6))
    Violating: s2 is dealt `9h 4c` and `9d Kc` and `settle s2 supermatch lose 5`.
    Compliant: `settle s2 supermatch win 5` (a pair, 1 to 1).
    Reading: the four cards are the two first cards of h1 and h2 as dealt, before any
    switch; a match is by rank (a king and a queen are no pair): the regulation's hands,
    four of a kind down to pair, are poker hands, which match by rank, where a split asks
    only cards "identical in value" (20:18:15:25). A push or void where the
    wager wins or loses is a wrong outcome too, and so is a loss collected for more or less
    than the whole wager (bjh-format.md §5: a smaller `lose` returned the rest). A win paid
    at the wrong odds is 20:18:15:30.09(18); a misdealt seat's wager is (4). At a table
    declared with a deck count neither schedule is for (a 30.09(1) finding), the hands
    still win or lose as (6) says, but the schedule in use is not known: a win withheld
    owes the least either schedule pays (four of a kind 40 to 1, two pair 7 to 1).
    """

    citation = "20:18:15:30.09(6)"
    name = "switch.super_match_outcome"
    severity = "high"
    options = frozenset({"decks"})
    needs = frozenset({"supermatch"})
    games = SWITCH

    def round(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        for wager, settlement in facts.of(view).judged_super_matches:
            expected = wager.expected
            if settlement.outcome == expected.outcome and (
                    expected.outcome != "lose" or cents_match(settlement.net, expected.net)):
                continue  # a win's amount is (18)'s
            cards = " ".join(seat_first_four(view, wager.seat))
            findings.append(self.finding(view, settlement.line, f"The {wager.label} "
                               f"{recorded_text(settlement)}; the first four cards ({cards}) "
                               f"say it should {net_text(expected.net)}: {expected.why}.",
                               seat=wager.seat, expected=expected.net, actual=settlement.net,
                               ).model_copy(update={"subject": _settle_subject(wager)}))
        return findings


@register
class ShuffleAndCut(Check):
    """A round dealt from a shoe whose cards were not shuffled and then cut.

    Regulation: "Immediately prior to the commencement of play the dealer shall shuffle the
    cards. Following shuffle and cut, the dealer deals out two hands of blackjack to each
    player and one for the dealer;" (20:18:15:30.09(7))
    Violating: `shoe 12`, `shuffle`, then `round 1` with no `cut`; or `shoe 12`, `cut`,
    `round 1`.
    Compliant: `shoe 12`, `shuffle`, `cut`, `round 1`.
    Reading: since the shoe came into play there must have been a shuffle, and the last
    shuffle before the round's first card must be followed by a cut. Each round dealt
    otherwise is a finding, on its first `deal`. A round before any `shoe` is a record
    problem only; a round dealt after the cutting card with no reshuffle is 20:18:15:10. A
    `cut` with no `shuffle` since the shoe came into play cuts cards never shuffled: it
    prepares nothing, and every round dealt is a finding until a shuffle and a cut follow. A
    cut after the last shuffle makes the shoe ready from then on, even one that comes after
    a round dealt uncut (that round is the finding; the floor's late cut is how the record
    shows the fault put right), and a further cut with no shuffle before it undoes nothing.
    """

    citation = "20:18:15:30.09(7)"
    name = "switch.shuffle_and_cut"
    options = frozenset()
    severity = "medium"
    games = SWITCH

    def round(self, view: RoundView) -> Iterable[Finding]:
        if view.first_card_index is None or view.shoe.shoe_id is None:
            return ()
        derived = facts.of(view)
        if derived.shuffled and derived.cut_after_shuffle:
            return ()  # the common round, told without a generator
        return self._not_shuffled(view)

    def _not_shuffled(self, view: RoundView) -> Iterator[Finding]:
        shuffled = facts.of(view).shuffled
        why = ("the cards were not shuffled since the shoe came into play" if not shuffled
               else "the last shuffle was not followed by a cut")
        yield self.finding(view, view.events[view.first_card_index].line,
                           f"Round {view.round_id} of shoe {view.shoe.shoe_id} was dealt, but "
                           f"{why}.")


def _mistimed_super_match(view: RoundView) -> list[Wager]:
    return [w for w, _, _ in _super_match_timing(view)]


def _super_match_timing(view: RoundView) -> Iterator[tuple[Wager, Settlement, str]]:
    derived = facts.of(view)
    end, first = derived.deal_end_index, derived.first_decision_index
    for wager in view.wagers:
        if wager.kind != "supermatch" or not wager.settlements:
            continue
        settlement = wager.settlements[0]
        if settlement.outcome == "void":
            continue
        if end is None or settlement.index < end:
            yield wager, settlement, "before the initial deal was complete"
        elif first is not None and settlement.index > first:
            yield wager, settlement, (f"after the first player decision (line "
                                      f"{view.events[first].line})")


@register
class SuperMatchTiming(Check):
    """A super match settled before the initial deal was complete or after the first decision.

    Regulation: "After each player and the dealer have received the cards, the dealer will
    resolve the super match wager." (20:18:15:30.09(8))
    Violating: `hit s1h1 5c` and then `settle s1 supermatch win 5`.
    Compliant: the dealer's second card, `settle s1 supermatch win 5`, then the first
    `switch`, `hit`, `stand` or insurance wager.
    Reading: the initial deal ends with the last `deal` before the first player decision;
    the first decision is the first `switch`, `hit`, `stand`, `double`, `split`,
    `surrender` or insurance wager of the round. A void settlement (a misdeal, a late
    wager) is not a resolution and is not judged here.
    """

    citation = "20:18:15:30.09(8)"
    name = "switch.super_match_timing"
    options = frozenset()
    severity = "medium"
    needs = frozenset({"supermatch"})
    games = SWITCH

    def round(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        for wager, settlement, when in _super_match_timing(view):
            findings.append(self.finding(view, settlement.line,
                               f"The {wager.label} was resolved {when}; "
                               "it is resolved once every player and the dealer hold their "
                               "cards, before play begins.", seat=wager.seat))
        return findings


@register
class InsuranceOnAce(Check):
    """Insurance taken when the dealer's up card is not an ace.

    Regulation: "If the dealer has been dealt an ace face up, the dealer shall call for
    insurance and each player may place an insurance wager on any one or two of the
    player's wagers;" (20:18:15:30.09(9))
    Violating: the dealer's up card `Kd`, then `bet s3h1 insurance 5`.
    Compliant: the dealer's up card `Ad`, then `bet s3h1 insurance 5`.
    Reading: the up card is the dealer's first card. The finding stands on the insurance
    `bet`; its settlement is judged by 20:18:15:23 on the cards as recorded.
    """

    citation = "20:18:15:30.09(9)"
    name = "switch.insurance_on_ace"
    options = frozenset()
    severity = "high"
    needs = frozenset({"insurance"})
    games = SWITCH

    def round(self, view: RoundView) -> Iterator[Finding]:
        up = view.dealer.up
        if up is None or up.card[0] == "A":
            return
        for wager in view.wagers:
            if wager.kind != "insurance":
                continue
            yield self.finding(view, wager.line, f"Insurance was taken on {wager.target} with "
                               f"the dealer's {up.card} up; insurance is offered only on an "
                               "ace.", hand=wager.target, evidence=[up.line])


def _switched_blackjack(view: RoundView, hand: Hand, wager: Wager,
                        settlement: Settlement) -> str | None:
    """How a switched two-card 21 was treated as a blackjack, if it was (30.09(10)): kept
    from a dealer blackjack it should lose to, or paid where it should push."""
    if not facts.switched_two_card_21(hand) or wager.expected is None:
        return None
    dealer, owed = view.dealer, wager.expected.outcome
    if dealer.natural and owed == "lose" and settlement.outcome in ("win", "push"):
        return "was not lost to the dealer's blackjack"
    if (not dealer.natural and dealer.draws and dealer.total in (21, 22) and owed == "push"
            and settlement.outcome == "win"):
        return f"was paid against the dealer's drawn {dealer.total}"
    return None


@register
class SwitchedBlackjack(Check):
    """A two-card 21 on a hand of a seat that switched was treated as a blackjack.

    Regulation: "If the player does switch the second card a switched blackjack is
    considered a 21, not a blackjack. Blackjack pays 1 to 1 and pushes if the dealer has
    blackjack;" (20:18:15:30.09(10))
    Violating: s2 switches to `As Kh`; the dealer has `Ad Qc` and `settle s2h1 main push 10`.
    Compliant: `settle s2h1 main lose 10`; against the dealer's drawn 21 or 22,
    `settle s2h1 main push 10`.
    Reading: after a switch neither hand of the seat holds a natural (bjh-format.md §5).
    As the rule catalog words it, the finding is for a two-card 21 on any hand of a seat
    that switched (a hand made by splitting one included) pushed or paid against a dealer
    blackjack, or paid against a dealer's drawn-out 21 or 22 (20:18:15:30.09(13)); any
    other wrong settlement of the hand is (13).
    """

    citation = "20:18:15:30.09(10)"
    name = "switch.switched_blackjack"
    options = frozenset()
    severity = "high"
    games = SWITCH

    def round(self, view: RoundView) -> Iterable[Finding]:
        for _, hand, _ in facts.of(view).judged_mains:
            if hand.switched and hand.total == 21 and len(hand.cards) == 2:
                return self._switched(view)  # a switched two-card 21 (_switched_blackjack)
        return ()  # none settled: no generator

    def _switched(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        for wager, hand, settlement in facts.of(view).judged_mains:
            if not hand.switched:
                continue  # the common case, told before the call
            how = _switched_blackjack(view, hand, wager, settlement)
            if how is None:
                continue
            expected = wager.expected
            findings.append(self.finding(view, settlement.line, f"{hand.name}'s switched 21 "
                               f"({' '.join(hand.card_codes)}) {how}: after a switch it is a 21, "
                               f"not a blackjack, and the {wager.label} should "
                               f"{net_text(expected.net)}.", hand=hand.name,
                               expected=expected.net, actual=settlement.net,
                               evidence=[view.switched_seats.get(hand.seat, settlement.line),
                                         *(c.line for c in view.dealer.cards)]
                               ).model_copy(update={"subject": _settle_subject(wager)}))
        return findings


@register
class SplitWager(Check):
    """A split's new wager differs from the original wager on that wagering area.

    Regulation: "The player has the option to split both hands. If a player wishes to split
    cards of the same value, the player must place an additional wager equal to each
    initial wager made on that wager area;" (20:18:15:30.09(11))
    Violating: `bet s1h2 main 20`, then `split s1h2 s1h3 40`.
    Compliant: `split s1h2 s1h3 20`.
    Reading: the wagering area of a new hand is the original hand (h1 or h2) its line of
    splits began from; every new wager equals that hand's initial wager. The value of the
    split cards and the number of splits are 20:18:15:25.
    """

    citation = "20:18:15:30.09(11)"
    name = "switch.split_wager"
    options = frozenset()
    severity = "high"
    needs = frozenset({ev.Split})
    games = SWITCH

    def round(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        for hand in view.hands.values():
            if hand.parent is None or hand.main is None or hand.split_line is None:
                continue
            root = view.hands.get(hand.root)
            if root is None or root.main is None or hand.main.amount == root.main.amount:
                continue
            findings.append(self.finding(view, hand.split_line,
                               f"The split of {hand.parent} placed "
                               f"{money_text(hand.main.amount)} on {hand.name}; it must equal "
                               f"the {money_text(root.main.amount)} initial wager on "
                               f"{hand.root}.", hand=hand.name, evidence=[root.main.line]
                               ).model_copy(update={"subject": f"split-wager:{hand.split_line}"}))
        return findings


@register
class MainPayout(Check):
    """A main wager paid, pushed or collected wrongly under Blackjack Switch.

    Regulation: "If a player has a blackjack, and the dealer does not have a blackjack, the
    player is paid at odds of 1 to 1. If a dealer draws out to a total of 22, all remaining
    wagers push. If both the player and the dealer have blackjacks, the hand is a push. If
    the player has a switched blackjack which is considered a 21, the player loses against
    a dealer blackjack and pushes against a dealer's drawn out 21 or 22;"
    (20:18:15:30.09(13))
    Violating: s1h1 holds `Ah Kd`, the dealer 20, and `settle s1h1 main win 15` on a 10
    wager; or the dealer draws to 22 and `settle s2h1 main win 10` on a standing 19.
    Compliant: `settle s1h1 main win 10`; `settle s2h1 main push 10`.
    Reading: a natural wins even money against a dealer 22, paid at once or at the end
    (bjh-format.md §5); every other hand standing against a dealer 22 pushes. Otherwise
    hands win even money, push or lose as in standard blackjack; against a dealer
    blackjack a doubled hand loses only its original wager and a split's new hand is
    returned (20:18:15:24, :25, with `peek=no`). A push returns the hand's whole stake, a
    double included, and is judged on the amount returned. A switched 21 treated as a
    blackjack is (10); a hand over 21 is (15); a surrender is 20:18:15:30; a misdeal is (4).
    A settlement right for the dealer's hand without a card drawn on a standing total
    (which "must be burned", 20:18:15:28) is right too (a dealer 22 made by that card
    pushes nothing), as is one right for the cards as recorded.
    """

    citation = "20:18:15:30.09(13)"
    name = "switch.main_payout"
    severity = "high"
    options = frozenset({"decks", "soft17"})  # soft17: the card of :28
    games = SWITCH

    def round(self, view: RoundView) -> Iterable[Finding]:
        for wager, _, settlement in facts.of(view).judged_mains:
            # the common case, a win or a loss of the money expected (wrongly_settled's
            # first test), told without a generator; any other: `_judged` judges them all
            outcome, net = settlement.outcome, wager.expected.net
            if outcome == "win":
                if settlement.amount == net:
                    continue
            elif outcome == "lose" and -settlement.amount == net:
                continue
            return self._judged(view)
        return ()

    def _judged(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        for wager, hand, settlement in facts.of(view).judged_mains:
            # a push returns the whole stake, a double included (bjh-format.md §5)
            stake = stake_of(wager, hand)
            wrong = wrongly_settled(wager, stake)  # the cheap test first: most are right
            if wrong is None or hand.busted:
                continue
            if _switched_blackjack(view, hand, wager, settlement) is not None:
                continue
            settlement, expected = wrong
            findings.append(self.finding(view, settlement.line,
                               payout_sentence(wager, settlement, expected), hand=hand.name,
                               expected=expected.net, actual=settled_net(settlement, stake),
                               evidence=[c.line for c in hand.cards + view.dealer.cards]
                               ).model_copy(update={"subject": _settle_subject(wager)}))
        return findings


@register
class CardAfterCompletion(Check):
    """A card drawn to a hand after it stood, doubled, surrendered or went over 21.

    Regulation: "The draw continues until the player chooses to stop or until the value of
    the hand exceeds 21. Each wager position is treated as a separate hand and with respect
    to each wager, a player may elect to draw, or stand;" (20:18:15:30.09(14))
    Violating: `stand s2h2` and later `hit s2h2 4c`; or `double s2h1 10 3c` and `hit s2h1 9d`.
    Compliant: `hit s2h2 4c` and then `stand s2h2`.
    Reading: one finding per card. A card after a double is this subsection, not
    20:18:15:24; a second card to a split ace remains 20:18:15:25. The hand's settlement is
    judged on its cards as recorded.
    """

    citation = "20:18:15:30.09(14)"
    name = "switch.card_after_completion"
    options = frozenset()
    severity = "medium"
    needs = frozenset({ev.Hit, ev.Double})
    games = SWITCH

    def round(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        for hand in view.hands.values():
            for late in hand.late_cards:
                if late.reason == "split ace":
                    continue
                findings.append(self.finding(view, late.card.line, f"{hand.name} received "
                                   f"{late.card.card} after it had {_done(late.reason)}; no card "
                                   "is drawn to a completed hand.", hand=hand.name
                                   ).model_copy(update={"subject": f"late:{late.card.line}"}))
        return findings


def _done(reason: str) -> str:
    return {"stood": "stood", "doubled": "doubled", "surrendered": "been surrendered",
            "over 21": "gone over 21"}.get(reason, reason)


@register
class BustCollectedAtOnce(Check):
    """A hand over 21 not collected at once, or pushed, paid or collected wrongly.

    Regulation: "If a player draws to an amount over 21 at a wager position, that one wager
    and cards are immediately collected by the dealer, leaving the player's other wagers on
    the table until such time as the dealer has taken action on all other wagers and hands
    in play at the table, including the dealer's hand, and has evaluated the winners and
    losers;" (20:18:15:30.09(15))
    Violating: `hit s3h1 Kc` takes s3h1 to 25, `stand s3h2`, then `settle s3h1 main lose 10`;
    or `settle s3h1 main push 10` at the end.
    Compliant: `hit s3h1 Kc`, `settle s3h1 main lose 10`, then `stand s3h2`.
    Reading: immediately means before the next player decision on another hand or the
    dealer's next action (reveal, draw); a card drawn to the busted hand itself is
    20:18:15:30.09(14). The whole stake (the double included) is collected. One finding for
    the hand, whatever went wrong, on its `settle` line; an unsettled hand is
    record:unsettled.
    """

    citation = "20:18:15:30.09(15)"
    name = "switch.bust_collected_at_once"
    options = frozenset()
    severity = "high"
    games = SWITCH

    def round(self, view: RoundView) -> Iterable[Finding]:
        for _, hand, _ in facts.of(view).judged_mains:
            if hand.total > 21:
                return self._busted(view)
        return ()  # no settled hand over 21: no generator

    def _busted(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        by_hand: dict[str, list[tuple[Wager, Settlement]]] = {}
        for wager, hand, settlement in facts.of(view).judged_mains:
            if hand.total > 21:  # hand.busted, without the call (every main wager)
                by_hand.setdefault(hand.name, []).append((wager, settlement))
        for name, settled in by_hand.items():
            hand = view.hands[name]
            bust = _bust_index(hand)
            deadline = _next_action_elsewhere(view, hand, bust)
            if len(settled) > 1:
                settled.sort(key=lambda pair: pair[0].tip)  # the player's own wager first
            for wager, settlement in settled:
                problems = []
                if settlement.outcome != "lose":
                    problems.append(f"{recorded_text(settlement)} instead of being collected")
                else:
                    if deadline is not None and settlement.index > deadline:
                        problems.append(f"was collected only after play went on (line "
                                        f"{view.events[deadline].line})")
                    if not cents_match(settlement.net, wager.expected.net):
                        problems.append(f"was collected {money_text(settlement.amount)} instead "
                                        f"of {money_text(-wager.expected.net)}")
                if not problems:
                    continue
                money = not cents_match(settlement.net, wager.expected.net)
                findings.append(self.finding(view, settlement.line, f"{name} went over 21 "
                                   f"({hand.total}) and its {wager.label} "
                                   f"{' and '.join(problems)}; a hand over 21 is collected at "
                                   "once.", hand=name,
                                   expected=wager.expected.net if money else None,
                                   actual=settlement.net if money else None,
                                   evidence=[view.events[bust].line]
                                   ).model_copy(update={"subject": _settle_subject(wager)}))
                break  # one finding for the hand
        return findings


def _bust_index(hand: Hand) -> int:
    for card in hand.cards:
        if card.line == hand.bust_line:
            return card.index
    return hand.cards[-1].index  # over 21 as dealt (a misdeal's extra card)


def _next_action_elsewhere(view: RoundView, hand: Hand, after: int) -> int | None:
    """The next decision on another hand (or a switch), or the dealer's next reveal or draw.

    Decisions and draws are kept in record order: the first of each after `after` is enough."""
    decision = next((d.index for d in view.decisions
                     if d.index > after and d.target != hand.name), None)
    candidates = [] if decision is None else [decision]
    dealer = view.dealer
    if dealer.reveal_index is not None and dealer.reveal_index > after:
        candidates.append(dealer.reveal_index)
    draw = next((d.card.index for d in dealer.draws if d.card.index > after), None)
    if draw is not None:
        candidates.append(draw)
    return min(candidates) if candidates else None


@register
class Rotation(Check):
    """A player decision taken out of rotation.

    Regulation: "When the dealer and a player have completed action on a player's hand, the
    dealer shall then move to the next player in rotation, offering each player all
    appropriate choices, until action on each wager position has been taken;"
    (20:18:15:30.09(16)); play begins "with the player to the dealer's left" ((8)).
    Violating: `stand s4h1` and then `hit s2h1 6c`.
    Compliant: s2's decisions, then s4's.
    Reading: rotation runs from the dealer's left, ascending seat number. Decisions are
    `switch`, `hit`, `stand`, `double`, `split` and `surrender`; insurance wagers are not.
    One finding per seat that acted after a higher-numbered seat had begun, on its first
    such decision.
    """

    citation = "20:18:15:30.09(16)"
    name = "switch.rotation"
    options = frozenset()
    severity = "medium"
    games = SWITCH

    def round(self, view: RoundView) -> Iterable[Finding]:
        furthest = "0"  # the highest seat digit that has begun: `s1` to `s9` (seat_number)
        for decision in view.decisions:
            digit = decision.target[1]
            if digit > furthest:
                furthest = digit
            elif digit < furthest:
                return self._out_of_rotation(view)
        return ()  # every decision in rotation: the common round, without a generator

    def _out_of_rotation(self, view: RoundView) -> Iterator[Finding]:
        furthest = 0  # the highest seat number that has begun (seats are s1 to s9)
        began: Decision | None = None  # that seat's first decision
        reported: set[str] = set()
        for decision in view.decisions:
            number = seat_number(decision.target)
            if number > furthest:
                furthest, began = number, decision
            elif number < furthest:
                seat = seat_of(decision.target)
                if seat in reported:
                    continue
                reported.add(seat)
                yield self.finding(view, decision.line, f"{seat} acted ({decision.kind} "
                                   f"{decision.target}) after {seat_of(began.target)} had begun "
                                   f"(line {began.line}); play moves from the dealer's left in "
                                   "rotation.", seat=seat, evidence=[began.line])

@register
class DealerWaitsForPlayers(Check):
    """The dealer drew a card before every player hand was complete.

    Regulation: "When the dealer has acted on all players' hands, the dealer shall play out
    the dealer's hand in the same manner as in standard blackjack" (20:18:15:30.09(17))
    Violating: `draw 7c` while s5h2 has neither stood nor gone over 21.
    Compliant: `stand s5h2`, then `draw 7c`.
    Reading: a hand is complete as bjh-format.md §5 says (a hand at 21 once play has moved
    on); hands without a main wager are not waited for. The dealer playing out of turn is
    one fault: one finding, on the first early draw (the draws after it follow from it);
    that draw, if it is also on a standing total (20:18:15:28), is reported here only.
    """

    citation = "20:18:15:30.09(17)"
    name = "switch.dealer_waits_for_players"
    options = frozenset()
    severity = "high"
    needs = frozenset({ev.Draw})
    games = SWITCH

    def round(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        for draw in view.dealer.draws:
            if not draw.incomplete_hands:
                continue
            waiting = ", ".join(draw.incomplete_hands)
            findings.append(self.finding(view, draw.card.line,
                               f"The dealer drew {draw.card.card} while "
                               f"{waiting} still had to be played; the dealer plays only after "
                               "every player hand is complete.",
                               ).model_copy(update={"subject": f"draw:{draw.card.line}"}))
            return findings
        return findings


@register
class SuperMatchPayTable(Check):
    """A super match win paid at odds other than the schedule for the table's deck count.

    Regulation: the pay schedule of 20:18:15:30.09(18): four of a kind 40 to 1 (6 decks) or
    50 to 1 (8 decks); two pair 8 to 1 or 7 to 1; three of a kind 5 to 1; pair 1 to 1.
    Violating: a six-deck table, s3 dealt `8h 8c 8d 2s`, `settle s3 supermatch win 40` on 5
    (expected 25).
    Compliant: `settle s3 supermatch win 25`.
    Reading: the schedule is chosen by `decks=` (six: schedule 1, eight: schedule 2); at a
    table declared with another deck count (a 30.09(1) finding) the odds are not judged,
    nor with `decks` unknown (record:header). Only the highest hand is paid. A wager that
    should not have won at all is (6).
    """

    citation = "20:18:15:30.09(18)"
    name = "switch.super_match_pay_table"
    severity = "high"
    options = frozenset({"decks"})
    needs = frozenset({"supermatch"})
    games = SWITCH

    def round(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        if view.config.decks not in DECKS:
            return findings
        for wager, settlement in facts.of(view).judged_super_matches:
            expected = wager.expected
            if settlement.outcome != "win" or expected.outcome != "win":
                continue
            if cents_match(settlement.net, expected.net):
                continue
            odds = settlement.amount / wager.amount if wager.amount else 0
            findings.append(self.finding(view, settlement.line, f"The {wager.label} was paid "
                               f"{money_text(settlement.amount)} ({odds:g} to 1); at "
                               f"{view.config.decks} decks {expected.why}, "
                               f"{money_text(expected.net)}.", seat=wager.seat,
                               expected=expected.net, actual=settlement.net,
                               ).model_copy(update={"subject": _settle_subject(wager)}))
        return findings
