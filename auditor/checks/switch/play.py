"""Blackjack Switch's order of play (20:18:15:30.09(14) to (17)): no card after a hand is complete,
a bust collected at once, the rotation of play, the dealer waiting for the players.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from auditor import events as ev
from auditor.blackjack import cents_match
from auditor.checks.base import Check, register
from auditor.checks.judging import (
    money_text,
    recorded_text,
)
from auditor.checks.switch.common import SWITCH, settle_subject
from auditor.findings import Finding
from auditor.replay import switch as facts
from auditor.replay.view import Decision, Hand, RoundView, Settlement, Wager, seat_number, seat_of


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
                                   ).model_copy(update={"subject": settle_subject(wager)}))
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
