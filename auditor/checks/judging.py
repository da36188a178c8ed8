"""Helpers shared by checks: comparing a settlement with what the rules say, and wording it."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import TYPE_CHECKING

from auditor.blackjack import cents_match
from auditor.replay.outcomes import must_stand
from auditor.replay.view import DealerDraw, Expected, Hand, RoundView, Settlement, Wager

if TYPE_CHECKING:
    from auditor.checks.base import Check
    from auditor.findings import Finding


def money_text(amount: Decimal) -> str:
    """Two decimals, or more where an owed amount falls between cents (3 to 2 on 10.05)."""
    if amount == amount.quantize(Decimal("0.01")):
        return f"{amount:,.2f}"
    return f"{amount.normalize():,f}"


def net_text(net: Decimal) -> str:
    if net > 0:
        return f"be paid {money_text(net)}"
    if net < 0:
        return f"lose {money_text(-net)}"
    return "be returned in full (push)"


def recorded_text(settlement: Settlement) -> str:
    return {"win": f"was paid {money_text(settlement.amount)}",
            "lose": f"was collected {money_text(settlement.amount)}",
            "push": f"was pushed ({money_text(settlement.amount)} returned)",
            "void": f"was returned {money_text(settlement.amount)} as void"}[settlement.outcome]


def settled_net(settlement: Settlement, stake: Decimal | None = None) -> Decimal:
    """The player's net on a settlement. Given the stake the wager put at risk, a push or
    void that returns less (or more) than the stake counts the difference: `push 20` on a
    doubled 20 wager (stake 40) kept 20 from the player (bjh-format.md §5: the new hand
    of a split is pushed "for its whole wager, a double on it included")."""
    if stake is not None and settlement.outcome in ("push", "void"):
        return settlement.amount - stake
    return settlement.net


def stake_of(wager: Wager, hand: Hand | None) -> Decimal:
    """What a wager put at risk: a player's main wager with its hand's double; a tip, a
    side wager or a wager without a hand, its amount."""
    if hand is None or wager.tip:
        return wager.amount
    return wager.amount + hand.doubled


def wrongly_settled(wager: Wager, stake: Decimal | None = None
                    ) -> tuple[Settlement, Expected] | None:
    """The wager's one settlement and its expectation, if they differ in money (with
    `stake`, a push or void is held to returning the whole stake; see `settled_net`)."""
    expected = wager.expected
    if expected is None or len(wager.settlements) != 1:
        return None  # unsettled or settled twice: record:unsettled says so
    settlement = wager.settlements[0]
    outcome = settlement.outcome
    if outcome == "win":  # settled_net, written out (every wager)
        net = settlement.amount
    elif outcome == "lose":
        net = -settlement.amount
    else:
        net = settled_net(settlement, stake)
    if net == expected.net:
        return None  # the common case, told without the rounding rule
    if cents_match(net, expected.net) or (net == 0 and expected.net == 0):
        return None
    burned = wager.expected_burned
    if burned is not None and (cents_match(net, burned.net) or net == burned.net):
        return None  # right without the card the dealer should have burned (20:18:15:28)
    return settlement, expected


def payout_sentence(wager: Wager, settlement: Settlement, expected: Expected) -> str:
    burned = wager.expected_burned
    if burned is not None and expected is wager.expected:
        return (f"The {wager.label} {recorded_text(settlement)}; it should "
                f"{net_text(expected.net)}: {expected.why}, or, without the card the dealer "
                f"drew on a standing total (which must be burned, 20:18:15:28), "
                f"{net_text(burned.net)}: {burned.why}.")
    return (f"The {wager.label} {recorded_text(settlement)}; it should "
            f"{net_text(expected.net)}: {expected.why}.")


def kept_net(wager: Wager, settlement: Settlement) -> Decimal:
    """The player's net on a wager owed back as void: a void (or push) for less than the
    wager returned only that part, so the rest was kept from the player."""
    if settlement.outcome in ("void", "push"):
        return min(settlement.amount - wager.amount, Decimal(0))
    return settlement.net


def settled_void_in_full(wager: Wager) -> bool:
    """Settled `void` for its whole amount: returned as no bet, in the record's own word
    (what shows that play stopped for a misdeal, where a push is play's own outcome)."""
    return (len(wager.settlements) == 1 and wager.settlements[0].outcome == "void"
            and wager.settlements[0].amount == wager.amount)


def returned_in_full(wager: Wager) -> bool:
    """The wager was given back whole, as a wager that is no bet must be: settled `void`,
    or `push`, for its full amount. The two are the same money (bjh-format.md §5: each
    returns the amount), and the rules ask that the wager be returned, which both do."""
    return (len(wager.settlements) == 1
            and wager.settlements[0].outcome in ("void", "push")
            and wager.settlements[0].amount == wager.amount)


def next_action_index(view: RoundView, after: int) -> int | None:
    """The next player decision or dealer action (reveal, draw) after an event index."""
    candidates = [d.index for d in view.decisions if d.index > after]
    dealer = view.dealer
    if dealer.reveal_index is not None and dealer.reveal_index > after:
        candidates.append(dealer.reveal_index)
    candidates.extend(d.card.index for d in dealer.draws if d.card.index > after)
    return min(candidates) if candidates else None


def stop_line(view: RoundView) -> int:
    """Where the dealer's hand stopped: the last draw, else the reveal, else the last card."""
    dealer = view.dealer
    if dealer.draws:
        return dealer.draws[-1].card.line
    return dealer.reveal_line or dealer.cards[-1].line


def on_standing_total(draw: DealerDraw, hits_soft_17: bool) -> bool:
    """Whether the dealer held a total on which the dealer must stand when drawing (:28)."""
    return must_stand(draw.total_before, draw.soft_before, hits_soft_17)


def drew_past_a_standing_total(view: RoundView) -> bool:
    """The dealer drew on a standing total: a stop that follows is that fault's consequence."""
    hits17 = view.config.hits_soft_17
    return any(on_standing_total(draw, hits17) for draw in view.dealer.draws)


def payout_finding(check: Check, view: RoundView, wager: Wager, settlement: Settlement,
                   expected: Expected, stake: Decimal, evidence: Iterable[int] = ()) -> Finding:
    """The finding of a wrongly settled wager: what it got, what it was owed, and why.

    Its subject is the wager's settlement, so that of two checks judging the same
    settlement only the most specific citation is kept."""
    hand = wager.target if wager.hand is not None else None
    return check.finding(
        view, settlement.line, payout_sentence(wager, settlement, expected),
        seat=wager.seat, hand=hand, expected=expected.net,
        actual=settled_net(settlement, stake), evidence=evidence,
    ).model_copy(update={"subject": f"settle:{wager.target}:{wager.kind}"})


def late_addition_finding(check: Check, view: RoundView, wager: Wager,
                          stake: Decimal, in_words: bool = False) -> Finding | None:
    """Chips added to a wager placed in time, after the round's first card, are no bet and
    returned (20:18:15:03, 30.10(4)): the wager is judged on what was placed in time. A
    settlement wrong for that is the late chips' fault, one finding on the first addition
    (the payout checks leave such a wager alone); a right one means they were returned.
    `in_words`: the regulation says so in words (30.10(4)); elsewhere it is a reading."""
    if not wager.late_additions or view.first_card_index is None:
        return None
    wrong = wrongly_settled(wager, stake)
    if wrong is None:
        return None
    settlement, expected = wrong
    added = sum(amount for amount, _ in wager.late_additions)
    first_card = view.events[view.first_card_index].line
    lines = [line for _, line in wager.late_additions]
    return check.finding(
        view, lines[0], f"{money_text(added)} was added to the {wager.label} after the first "
        f"card (line {first_card}) and the wager {recorded_text(settlement)}; chips placed "
        f"late are {'no bet' if in_words else 'read as no bet'}, and on the "
        f"{money_text(wager.amount)} placed in time it should "
        f"{net_text(expected.net)}: {expected.why}.", seat=wager.seat, hand=wager.hand,
        expected=expected.net, actual=settled_net(settlement, stake),
        evidence=[first_card, wager.line, *lines[1:], settlement.line],
    ).model_copy(update={"subject": f"settle:{wager.target}:{wager.kind}"})
