"""Blackjack Switch's super match wager (20:18:15:30.09(5), (6), (8), (18)): placed with the main
wager, settled at its time, paid by its pay table.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from auditor.blackjack import cents_match
from auditor.checks.base import Check, register
from auditor.checks.judging import (
    money_text,
    net_text,
    recorded_text,
)
from auditor.checks.switch.common import DECKS, SWITCH, settle_subject
from auditor.findings import Finding
from auditor.replay import switch as facts
from auditor.replay.outcomes import seat_first_four
from auditor.replay.view import RoundView, Settlement, Wager, seat_number


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
                               ).model_copy(update={"subject": settle_subject(wager)}))
        return findings


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
                               ).model_copy(update={"subject": settle_subject(wager)}))
        return findings
