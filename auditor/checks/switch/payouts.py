"""Blackjack Switch's main wagers (20:18:15:30.09(10), (11), (13)): a switched 21 is no blackjack,
a split's wager equals its area's, and the main payout.
"""

from __future__ import annotations

from collections.abc import Iterable

from auditor import events as ev
from auditor.checks.base import Check, register
from auditor.checks.judging import (
    money_text,
    net_text,
    payout_sentence,
    settled_net,
    stake_of,
    wrongly_settled,
)
from auditor.checks.switch.common import SWITCH, settle_subject
from auditor.findings import Finding
from auditor.replay import switch as facts
from auditor.replay.view import Hand, RoundView, Settlement, Wager


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
                               ).model_copy(update={"subject": settle_subject(wager)}))
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

    def round(self, view: RoundView) -> list[Finding]:
        findings: list[Finding] = []
        for wager, hand, settlement in facts.of(view).judged_mains:
            # the common case, a win or a loss of the money expected (wrongly_settled's
            # first test), told before the calls
            outcome, net = settlement.outcome, wager.expected.net
            if outcome == "win":
                if settlement.amount == net:
                    continue
            elif outcome == "lose" and -settlement.amount == net:
                continue
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
                               ).model_copy(update={"subject": settle_subject(wager)}))
        return findings
