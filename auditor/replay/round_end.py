"""A replayed round's end: where the dealer's turn began, whether any wager still
depended on the dealer's hand then (the dealer had to play it out), and what each wager
should have been paid (`outcomes.expect_all`)."""

from __future__ import annotations

from auditor.replay.outcomes import expect_all
from auditor.replay.view import RoundView, Wager


def end_round(view: RoundView) -> None:
    """Record the dealer's turn and what the rules say each wager should have been paid."""
    dealer = view.dealer
    dealer.turn_index = dealer_turn(view)
    moment = dealer.turn_index if dealer.turn_index is not None else len(view.events)
    view.dealer_had_to_play = any(live_at(view, wager, moment) for wager in view.wagers)
    expect_all(view)


def dealer_turn(view: RoundView) -> int | None:
    """Where the dealer's turn began, also in a record that shows no `reveal`."""
    dealer = view.dealer
    reveal = dealer.reveal_index
    if dealer.draws:
        draw = dealer.draws[0].card.index
        return draw if reveal is None else min(reveal, draw)
    if reveal is not None:
        return reveal
    before = [i for i in (view.decision_indices[-1] if view.decision_indices else None,
                          dealer.peek_index, view.deal_end_index) if i is not None]
    return max(before) if before and dealer.cards else None  # the turn follows it


def live_at(view: RoundView, wager: Wager, moment: int) -> bool:
    """A wager that still depends on the dealer's hand at `moment` (bjh-format.md §5)."""
    settlements = wager.settlements
    if settlements and settlements[0].index < moment:
        return False
    if wager.kind == "db21":  # a dealer's tip on the bust too: 30.10(11) says any wager
        # (a misdeal, of the seat or of the dealer, returns it: nothing to play out for)
        misdealt = any(m.kind == "misdeal" and m.target in ("dealer", wager.seat)
                       for m in view.markers)
        return view.game == "db21" and not wager.after_first_card and not misdealt
    if wager.kind != "main" or wager.tip:
        return False
    hand = view.hands.get(wager.target)
    return hand is not None and bool(hand.cards) and not (
        hand.busted or hand.natural or hand.misdealt or hand.surrendered_line is not None)
