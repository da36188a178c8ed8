"""Helpers shared by checks: comparing a settlement with what the rules say, and wording it."""

from __future__ import annotations

from decimal import Decimal

from auditor.blackjack import cents_match
from auditor.replay.view import Expected, RoundView, Settlement, Wager


def money_text(amount: Decimal) -> str:
    return f"{amount:,.2f}"


def net_text(net: Decimal) -> str:
    if net > 0:
        return f"be paid {money_text(net)}"
    if net < 0:
        return f"lose {money_text(-net)}"
    return "be returned (push)"


def recorded_text(settlement: Settlement) -> str:
    return {"win": f"was paid {money_text(settlement.amount)}",
            "lose": f"was collected {money_text(settlement.amount)}",
            "push": "was pushed", "void": "was returned as void"}[settlement.outcome]


def wrongly_settled(wager: Wager) -> tuple[Settlement, Expected] | None:
    """The wager's one settlement and its expectation, if they differ in money."""
    if wager.expected is None or len(wager.settlements) != 1:
        return None  # unsettled or settled twice: record:unsettled says so
    settlement = wager.settlements[0]
    if cents_match(settlement.net, wager.expected.net) or (
            settlement.net == 0 and wager.expected.net == 0):
        return None
    return settlement, wager.expected


def payout_sentence(wager: Wager, settlement: Settlement, expected: Expected) -> str:
    return (f"The {wager.label} {recorded_text(settlement)}; it should "
            f"{net_text(expected.net)}: {expected.why}.")


def settled_void_in_full(wager: Wager) -> bool:
    return (len(wager.settlements) == 1 and wager.settlements[0].outcome == "void"
            and wager.settlements[0].amount == wager.amount)


def next_action_index(view: RoundView, after: int) -> int | None:
    """The next player decision or dealer action (reveal, draw) after an event index."""
    candidates = [d.index for d in view.decisions if d.index > after]
    dealer = view.dealer
    if dealer.reveal_index is not None and dealer.reveal_index > after:
        candidates.append(dealer.reveal_index)
    candidates.extend(d.card.index for d in dealer.draws if d.card.index > after)
    return min(candidates) if candidates else None
