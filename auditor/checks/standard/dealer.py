"""The shoe and the dealer's hand under the chapter (20:18:15:10, :26, :28): the reshuffle at the
cutting card, the dealer drawing out and standing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from auditor import blackjack
from auditor import events as ev
from auditor.checks.base import Check, register
from auditor.checks.judging import (
    drew_past_a_standing_total,
    on_standing_total,
    stop_line,
)
from auditor.events import Shuffle
from auditor.findings import Finding
from auditor.replay.view import RoundView


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
