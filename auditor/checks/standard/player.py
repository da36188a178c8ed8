"""The player's choices under the chapter (20:18:15:24, :25, :30): doubling down, splitting pairs,
surrender.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from decimal import Decimal

from auditor import blackjack
from auditor import events as ev
from auditor.checks.base import Check, register
from auditor.checks.judging import (
    money_text,
    payout_finding,
    wrongly_settled,
)
from auditor.findings import Finding
from auditor.replay.view import ZERO, Hand, RoundView

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
    has not two cards. A second double of one hand is one fault, on its card, and the
    hand's first double is still judged as a double (its total, cards and amount). A card
    after a double in Blackjack Switch is 20:18:15:30.09(14). With `double` or `das` unknown
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
                    hand.double_amount > (hand.main.amount if hand.main else ZERO)) or (
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
            line = hand.double_line  # the hand's first double, judged as a double
            yield from self._the_double(view, hand, DOUBLE_TOTALS[rules.double])
            # A second double of the hand: its card is the fault, reported here.
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
        if hand.double_amount > original:
            yield self.finding(view, line, f"{hand.name} doubled for "
                               f"{money_text(hand.double_amount)}, more than its original "
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
                allows = (f"the house allows {limit}" if not view.config.assumes_default("splits")
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
                house = ("the header does not declare surrender, so it is judged under "
                         "the default surrender=no" if config.assumes_default("surrender")
                         else "the header declares surrender=no")
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
