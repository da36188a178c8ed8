"""Lucky Ladies blackjack, 20:18:15:30.04 (game=ladies).

30.04(1) (the Lucky Ladies table layout) has nothing to flag in a hand record; the
standard rules of the chapter are judged at these tables as at any other.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from auditor import blackjack
from auditor.checks.base import Check, register
from auditor.checks.judging import (
    kept_net,
    late_addition_finding,
    money_text,
    payout_finding,
    recorded_text,
    returned_in_full,
    wrongly_settled,
)
from auditor.findings import Finding
from auditor.replay import ladies
from auditor.replay.view import RoundView, Wager

LADIES = frozenset({"ladies"})


def _seats_with_main(view: RoundView) -> set[str]:
    """Seats holding a personal (not tip) main wager placed by `bet`."""
    return {w.seat for w in view.wagers if w.kind == "main" and not w.tip and w.initial}


def _judged(view: RoundView) -> list[Wager]:
    """Lucky Ladies wagers whose outcome the rules decide: placed in time (no chips added
    late), on a seat with a main wager; (2) judges the others."""
    wagers = [w for w in view.wagers if w.kind == "ladies" and not w.after_first_card
              and not w.late_additions]
    if not wagers:  # none in time: the seats with a main wager need no look
        return wagers
    with_main = _seats_with_main(view)
    return [w for w in wagers if w.seat in with_main]


def _pay_table(view: RoundView) -> str | None:
    declared = view.config.rules.ladies_paytable
    return blackjack.ladies_pay_table(declared, view.config.decks) if declared else None


def _card_lines(view: RoundView, wager: Wager) -> list[int]:
    seat = ladies.of(view).seats.get(wager.seat)
    return list(seat.lines) if seat else []


def _misdealt(wager: Wager) -> bool:
    return wager.expected is not None and wager.expected.outcome == "void"


@register
class WagerBeforeCards(Check):
    """A Lucky Ladies wager placed after the first card and kept, or with no main wager.

    Regulation: "Prior to the start of each round of blackjack, each player is afforded
    the opportunity to place a voluntary Lucky Ladies wager on the designated spot on the
    table layout at the same time the player's primary wager is made and before any cards
    are dealt;" (20:18:15:30.04(2))
    Violating: `deal s1h1 9c` … `bet s1 ladies 5`, then `settle s1 ladies lose 5`; or
    `bet s4 ladies 5` with no `bet s4h1 main …` in the round.
    Compliant: `bet s1h1 main 25` and `bet s1 ladies 5` before the first `deal`; a late
    wager settled `void 5`.
    Reading: the first card is the round's first `deal`. A wager placed after it is no bet
    and is returned: settled `void`, or `push`, for its full amount (the same money, as
    20:18:15:03 returns a late main wager); a late wager never settled is record:unsettled's
    alone. "At the same time the player's primary wager is made" asks for a personal main
    wager on the seat in the same round; a tip Lucky Ladies wager needs one too. Chips added
    to the wager after the first card are no bet: the wager is judged on what was placed in
    time, and a settlement wrong for that is one finding on the added chips. Such wagers are
    not judged again under (3)-(5).
    """

    citation = "20:18:15:30.04(2)"
    name = "ladies.wager_before_cards"
    options = frozenset({"ladies_paytable", "decks"})  # late chips: the payout
    severity = "high"
    needs = frozenset({"ladies"})
    games = LADIES

    def round(self, view: RoundView) -> Iterator[Finding]:
        wagers = [w for w in view.wagers if w.kind == "ladies"]
        if not wagers:
            return
        with_main = _seats_with_main(view)
        first = (view.events[view.first_card_index].line
                 if view.first_card_index is not None else None)
        for wager in wagers:
            if wager.late_additions:
                late = late_addition_finding(self, view, wager, wager.amount)
                if late is not None:
                    yield late
                continue
            if wager.after_first_card:
                if wager.settlements and not returned_in_full(wager):
                    settlement = wager.settlements[0]
                    yield self.finding(
                        view, wager.line, f"The {wager.label} was placed after the first card "
                        f"(line {first}) and {recorded_text(settlement)}; read as no bet (as a "
                        f"late main wager), it is owed back in full ({money_text(wager.amount)}).",
                        seat=wager.seat, expected=Decimal(0),
                        actual=kept_net(wager, settlement),
                        evidence=[first, *(s.line for s in wager.settlements)])
            elif wager.seat not in with_main:
                yield self.finding(view, wager.line, f"The {wager.label} was taken on a seat "
                                   "with no blackjack wager.", seat=wager.seat)


@register
class Outcome(Check):
    """A Lucky Ladies wager won though the first two cards do not total 20, or lost though
    they do.

    Regulation: "Once the dealer has dealt the first two cards to each player, the dealer
    must determine if any of the players that bet the Lucky Ladies wager have a hand whose
    first two cards total twenty;" (20:18:15:30.04(3))
    Violating: s2h1 dealt `Kh 7c` and `settle s2 ladies win 20`; or dealt `Ad 9s` and
    `settle s2 ladies lose 5`.
    Compliant: `Kh 7c` and `settle s2 ladies lose 5`; `Ad 9s` and `settle s2 ladies win 20`.
    Reading: the first two cards are those first dealt to the seat's hand h1, before any
    split; they total 20 counting an ace as eleven, so an ace and a nine are a 20. A win
    at the wrong odds is 30.04(4). A tip Lucky Ladies wager is judged as the player's. A
    wager a misdeal returns (of its seat or of the dealer) is right only when returned as
    void in full. Where the table declares no usable pay table (a record:header finding) a
    win on a 20 is right whatever its amount; a loss on a 20 is this finding with no amount
    owed. Wagers placed late, with chips added late or on a seat with no main wager are
    judged under (2) only.
    """

    citation = "20:18:15:30.04(3)"
    name = "ladies.outcome"
    options = frozenset({"ladies_paytable", "decks", "peek"})
    severity = "high"
    needs = frozenset({"ladies"})
    games = LADIES

    def round(self, view: RoundView) -> Iterator[Finding]:
        unknown = _pay_table(view) is None
        for wager in _judged(view):
            expected = wager.expected
            if unknown and expected is not None and expected.outcome == "win":
                yield from self._won_at_unknown_odds(view, wager)
                continue
            wrong = wrongly_settled(wager, wager.amount)
            if wrong is None:
                continue
            settlement, expected = wrong
            if settlement.outcome == "win" and expected.outcome == "win":
                continue  # the odds are (4)'s
            yield payout_finding(self, view, wager, settlement, expected, wager.amount,
                                 evidence=_card_lines(view, wager))

    def _won_at_unknown_odds(self, view: RoundView, wager: Wager) -> Iterator[Finding]:
        if len(wager.settlements) != 1 or wager.settlements[0].outcome == "win":
            return
        settlement = wager.settlements[0]
        yield self.finding(view, settlement.line, f"The {wager.label} "
                           f"{recorded_text(settlement)}; {wager.expected.why}, so it wins.",
                           seat=wager.seat, evidence=_card_lines(view, wager)
                           ).model_copy(update={"subject": f"settle:{wager.target}:ladies"})


@register
class PayTable(Check):
    """A Lucky Ladies win paid at odds other than the declared pay table's for the highest
    category the hand meets.

    Regulation: "The winning payoff odds depend upon which version of the game is played
    and the paytable chosen by the retail licensee. Only the highest ranking is paid:"
    (20:18:15:30.04(4)); more than one deck, pay table A / B: queen of hearts pair with
    dealer blackjack 1,000 / 1,000, queen of hearts pair 125 / 200, matched 20 19 / 25,
    suited 20 9 / 10, any 20 4 / 4 to 1; one deck, pay table C: pair of queens with dealer
    blackjack 250, pair of queens 25, paired 20 (two tens, jacks or kings) 9, suited 20 6,
    any 20 3 to 1.
    Violating: pay table A, s1h1 dealt `Qh Qh`, the dealer holds no blackjack, and
    `settle s1 ladies win 5000` on 5 (1,000 to 1), or `win 645` (125 + 4 to 1, two
    categories paid).
    Compliant: `settle s1 ladies win 625` (125 to 1).
    Reading: the pay table is the `ladies.paytable` option, usable only with the deck
    count it is for (A or B with more than one deck, C with one; otherwise record:header,
    and no odds are judged). A matched 20 is two cards of the same rank and suit; a paired
    20 two of the same rank; a queen of hearts pair is also matched and suited, and is paid
    as the queen of hearts pair only. The dealer's blackjack is the dealer's first two
    cards totalling 21 (a dealer who drew holds none). A tip is paid as the player's wager.
    With `decks` unknown (record:header) the table could be any count the declared pay
    table is dealt with (A or B: more than one deck; C: one), so its odds are still judged;
    a count the pay table is not dealt with is no candidate (such a header would be a
    contradiction). With the pay table unknown, a payout is wrong only where it is wrong
    under every pay table it could be, each with the deck counts it is dealt with: given
    `A` and `C` at six decks, the table is A; with both unknown, A or B at more than one
    deck and C at one.
    """

    citation = "20:18:15:30.04(4)"
    name = "ladies.pay_table"
    options = frozenset({"ladies_paytable", "decks", "peek"})
    severity = "high"
    needs = frozenset({"ladies"})
    games = LADIES

    def round(self, view: RoundView) -> Iterator[Finding]:
        if _pay_table(view) is None:
            return
        for wager in _judged(view):
            wrong = wrongly_settled(wager, wager.amount)
            if wrong is None:
                continue
            settlement, expected = wrong
            if settlement.outcome != "win" or expected.outcome != "win":
                continue  # (3)'s
            odds = settlement.amount / wager.amount if wager.amount else 0
            yield self.finding(view, settlement.line, f"The {wager.label} was paid "
                               f"{money_text(settlement.amount)} ({odds:g} to 1); "
                               f"{expected.why}: {money_text(expected.net)}.", seat=wager.seat,
                               expected=expected.net, actual=settlement.net,
                               evidence=_card_lines(view, wager)
                               ).model_copy(update={"subject": f"settle:{wager.target}:ladies"})


@register
class TakeOrPayBeforeMoreCards(Check):
    """A Lucky Ladies wager taken or paid after a player received an additional card.

    Regulation: "The take or pay procedure for the Lucky Ladies wager is accomplished prior
    to any player receiving any additional cards. At the conclusion of the Lucky Ladies
    take or pay procedure, the blackjack game resumes as normal." (20:18:15:30.04(5))
    Violating: `hit s1h1 5d`, then `settle s3 ladies lose 5`.
    Compliant: `settle s3 ladies lose 5` after the initial deal, before the first `hit`.
    Reading: an additional card is any card a player receives beyond the first two of a
    hand: a `hit` (a split hand's second card included) or a double's card. Taken or paid
    means settled `lose` or `win`; a wager returned as void is not. The take or pay is one
    procedure of the round: one finding, on the first take or pay that came after the
    first additional card, the others named as evidence. A seat holding two queens of
    hearts (table C: two queens) while the dealer's blackjack cannot yet be known
    (`peek=no` with an ace or ten-value up card) cannot be paid before the reveal: its
    wager is taken or paid at the reveal, after players drew, and that is compliant (the
    rule catalog's reading). Wagers placed late or on a seat with no main wager are judged
    under (2) only.
    """

    citation = "20:18:15:30.04(5)"
    name = "ladies.take_or_pay_before_more_cards"
    options = frozenset({"decks", "peek"})  # the top award waits
    severity = "medium"
    games = LADIES

    def round(self, view: RoundView) -> Iterator[Finding]:
        facts = ladies.of(view)
        if not facts.late_settlements:
            return
        judged = {id(w) for w in _judged(view) if not _misdealt(w)}
        late = [(w, s) for w, s in facts.late_settlements
                if id(w) in judged and w.seat not in facts.top_pending]
        if not late:
            return
        wager, settlement = min(late, key=lambda pair: pair[1].index)
        others = [s.line for _, s in late if s is not settlement]
        yield self.finding(view, settlement.line, f"The {wager.label} "
                           f"{recorded_text(settlement)} after a player received an additional "
                           f"card (line {facts.first_extra_line}); Lucky Ladies wagers are taken "
                           "or paid before any player receives one.", seat=wager.seat,
                           evidence=[facts.first_extra_line, *others])
