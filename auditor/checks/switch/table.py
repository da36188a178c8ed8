"""Blackjack Switch's table, wagers and deal (20:18:15:30.09(1), (2), (3), (4), (7), (9)): six or
eight decks and two hands, equal main wagers, tips, misdeals, the shuffle and cut, insurance.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from auditor import events as ev
from auditor.checks.base import Check, FileView, register
from auditor.checks.judging import (
    kept_net,
    money_text,
    net_text,
    recorded_text,
    returned_in_full,
    settled_void_in_full,
)
from auditor.checks.switch.common import DECKS, SWITCH, ZERO, settle_subject
from auditor.findings import Finding
from auditor.parser import parse_lines
from auditor.reader import Problem
from auditor.replay import switch as facts
from auditor.replay.view import RoundView
from auditor.source import SourceFile


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
                                   ).model_copy(update={"subject": settle_subject(wager)})
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
                                   ).model_copy(update={"subject": settle_subject(wager)})

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
