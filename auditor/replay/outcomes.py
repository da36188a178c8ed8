"""What each wager should have paid, by the cards as recorded (bjh-format.md §5).

This is the pay table knowledge of the engine; whether a recorded settlement differs is
for the checks to say.
"""

from __future__ import annotations

import copy
from decimal import Decimal

from auditor import blackjack
from auditor.events import Deal
from auditor.replay.view import DealerHand, Expected, Hand, RoundView, Wager

ZERO = Decimal(0)
_new = object.__new__  # an Expected made in place, without its __init__'s frame
_NONE: frozenset[str] = frozenset()


def _expected(outcome: str, net: Decimal, why: str | tuple) -> Expected:
    """`Expected(outcome, net, why)`, made in place: a plain call, where calling the class
    enters its `__init__` through C as a second frame (a side wager's result, most rounds)."""
    expected = _new(Expected)
    expected.outcome, expected.net, expected._why = outcome, net, why
    return expected


def must_stand(total: int, soft: bool, hits_soft_17: bool) -> bool:
    """A total on which the dealer must stand: 17 to 21, a soft 17 excepted where the
    house hits it (20:18:15:28: a card drawn there "must be burned")."""
    return 17 <= total <= 21 and not (total == 17 and soft and hits_soft_17)


def expect_all(view: RoundView) -> None:
    _expect(view)
    if not view.dealer.draws:
        return  # most rounds: nothing drawn, nothing to burn (_without_burned_card)
    burned = _without_burned_card(view)
    if burned is None:
        return  # the common case: no draw on a standing total
    view.burned_dealer = burned
    recorded = [w.expected for w in view.wagers]
    as_burned = copy.copy(view)  # the same round against the dealer's hand without the card
    as_burned.dealer = burned
    _expect(as_burned, kinds=("main", "db21"))
    for wager, expected in zip(view.wagers, recorded, strict=True):
        if wager.expected is not expected:
            burned_result, wager.expected = wager.expected, expected
            if burned_result is not None and (expected is None
                                              or burned_result.net != expected.net):
                wager.expected_burned = burned_result


def _without_burned_card(view: RoundView) -> DealerHand | None:
    """The dealer's hand before the first draw on a standing total, or None."""
    dealer = view.dealer
    if not dealer.draws:
        return None  # most rounds: nothing drawn, nothing to burn
    hits17 = view.config.hits_soft_17
    first = next((i for i, d in enumerate(dealer.draws)
                  if must_stand(d.total_before, d.soft_before, hits17)), None)
    if first is None:
        return None
    burned_index = dealer.draws[first].card.index
    hand = DealerHand(dealt=dealer.dealt, reveal_line=dealer.reveal_line,
                      reveal_index=dealer.reveal_index, peek_line=dealer.peek_line,
                      peek_index=dealer.peek_index, turn_index=dealer.turn_index)
    position = next((i for i, c in enumerate(dealer.cards) if c.index == burned_index), None)
    kept = (dealer.cards[:position] if position is not None
            else [c for c in dealer.cards if c.index < burned_index])
    for card in kept:
        hand.add(card)
    hand.first_dealt, hand.second_dealt = dealer.first_dealt, dealer.second_dealt
    hand.draws = dealer.draws[:first]
    return hand


def _expect(view: RoundView, kinds: tuple[str, ...] | None = None) -> None:
    misdealt_seats = ({m.target for m in view.markers if m.kind == "misdeal"} if view.markers
                      else _NONE)
    dealer_misdeal = "dealer" in misdealt_seats
    hands = view.hands
    dealer_natural = view.dealer.natural  # the same for every wager: told once
    for wager in view.wagers:
        kind = wager.kind
        if kinds is not None and kind not in kinds:
            continue
        if misdealt_seats and (dealer_misdeal or wager.seat in misdealt_seats):
            wager.expected = Expected("void", ZERO, "a misdeal returns the wager")
        elif kind == "main":
            hand = hands.get(wager.target)
            wager.expected = _main_result(view, hand, wager, dealer_natural) if hand else None
        elif kind == "insurance":
            wager.expected = insurance_result(view, wager)
        elif kind == "db21":
            wager.expected = db21_result(view, wager)
        elif kind == "supermatch":
            wager.expected = super_match_result(view, wager)
        elif kind == "ladies":
            wager.expected = ladies_result(view, wager)


def main_result(view: RoundView, hand: Hand, wager: Wager) -> Expected:
    """A main wager's result under standard blackjack, or Blackjack Switch (30.09(13))."""
    return _main_result(view, hand, wager, view.dealer.natural)


def _main_result(view: RoundView, hand: Hand, wager: Wager, dealer_natural: bool) -> Expected:
    base = wager.amount
    stake = base + (hand.doubled if not wager.tip else ZERO)
    player = hand.total
    why: str | tuple  # a tuple: its words put together only if read (Expected.why)
    # one Expected made at the end, in place (every main wager of every round: see _new)
    if not hand.cards:
        outcome, net, why = "void", ZERO, "a hand dealt no cards is dead: its wager is returned"
    elif hand.surrendered_line is not None:
        outcome, net, why = "lose", -base / 2, ("a surrender is read to collect half the "
                                                "wager (late surrender)")
    elif player > 21:  # hand.busted
        outcome, net, why = "lose", -stake, ("the hand went over 21 ({})", player)
    # Hand.natural, written out (every main wager): 21 in the first two cards of an
    # original hand, not switched
    elif (player == 21 and len(hand.cards) == 2 and hand.parent is None and not hand.was_split
            and not hand.switched and hand.dealt >= 2):
        if dealer_natural:
            outcome, net, why = "push", ZERO, "blackjack against a dealer blackjack pushes"
        else:
            config = view.config
            declared = config.blackjack_odds
            owed = (declared if config.game == "switch"
                    else blackjack.owed_blackjack_odds(declared, config.decks))
            why = f"blackjack pays {owed}"
            if owed != declared:  # a value an unknown `blackjack` could hold is not declared
                held = ("the value" if any(rule.field == "blackjack" for rule in config.unknown)
                        else "the declared")
                why += f" ({held} {declared} is under the least 20:18:15:06 allows)"
            outcome, net = "win", base * blackjack.BLACKJACK_ODDS[owed]
    elif dealer_natural:
        if hand.parent is not None:
            outcome, net, why = "push", ZERO, ("against a dealer blackjack the new hand of a "
                                               "split is returned: only the original wager is "
                                               "collected")
        elif stake != base:
            outcome, net, why = "lose", -base, ("against a dealer blackjack only the original "
                                                "wager is collected, not the double")
        else:
            outcome, net, why = "lose", -base, "the dealer has blackjack"
    else:
        dealer_total = view.dealer.total
        if dealer_total == 22 and view.config.game == "switch":
            outcome, net, why = "push", ZERO, "a dealer 22 pushes every remaining wager"
        elif dealer_total > 21:
            outcome, net, why = "win", stake, ("the dealer went over 21 ({})", dealer_total)
        elif player > dealer_total:
            outcome, net, why = "win", stake, ("{} beats the dealer's {}", player, dealer_total)
        elif player < dealer_total:
            outcome, net, why = "lose", -stake, ("{} loses to the dealer's {}", player,
                                                 dealer_total)
        else:
            outcome, net, why = "push", ZERO, ("{} against the dealer's {} pushes", player,
                                               dealer_total)
    expected = _new(Expected)
    expected.outcome, expected.net, expected._why = outcome, net, why
    return expected


def insurance_result(view: RoundView, wager: Wager) -> Expected:
    if view.dealer.natural:
        return _expected("win", wager.amount * 2, "insurance pays 2 to 1 on a dealer blackjack")
    return _expected("lose", -wager.amount, "the dealer has no blackjack: insurance is read "
                                            "to lose")


def db21_result(view: RoundView, wager: Wager) -> Expected:
    if wager.after_first_card:
        return _expected("void", ZERO, "a DB21 wager made after the first card is no bet")
    dealer = view.dealer
    pay_table = view.config.rules.db21_paytable
    if dealer.busted and dealer.up is not None and pay_table:
        odds = blackjack.db21_odds(pay_table, dealer.up.card)
        return _expected("win", wager.amount * odds,
                        f"the dealer busted with {dealer.up.card} up: pay table {pay_table} "
                        f"pays {odds} to 1")
    return _expected("lose", -wager.amount, ("the dealer did not bust ({})", dealer.total))


def seat_first_four(view: RoundView, seat: str) -> list[str]:
    """The first two cards dealt to each of the seat's hands h1 and h2, before any switch,
    in the order they were dealt (for a finding's words: read from the `deal` statements,
    counted per hand as the replay counts a hand's cards dealt)."""
    targets = (seat + "h1", seat + "h2")
    dealt: dict[str, int] = {}
    cards: list[str] = []
    for event in view.events:
        if type(event) is Deal and event.target in targets:
            seen = dealt[event.target] = dealt.get(event.target, 0) + 1
            if seen <= 2:
                cards.append(event.card)
    return cards


def _first_four(view: RoundView, seat: str) -> list[str]:
    """`seat_first_four` as the replay recorded it (each hand's `first_dealt` and
    `second_dealt`), in another order: enough for the super match, which reads ranks."""
    cards = []
    hands = view.hands
    for name in (seat + "h1", seat + "h2"):
        hand = hands.get(name)
        if hand is not None and hand.first_dealt is not None:
            cards.append(hand.first_dealt)
            if hand.second_dealt is not None:
                cards.append(hand.second_dealt)
    return cards


def super_match_result(view: RoundView, wager: Wager) -> Expected:
    cards = _first_four(view, wager.seat)
    if len(cards) != 4:
        return _expected("void", ZERO, "the seat was not dealt four cards")
    match = blackjack.super_match(cards)
    if match is None:
        return _expected("lose", -wager.amount, "the first four cards hold no pair")
    decks = view.config.decks
    schedules = blackjack.SUPER_MATCH_SCHEDULE
    if decks in schedules:
        odds = schedules[decks][match]
        return _expected("win", wager.amount * odds, ("{} pays {} to 1", match, odds))
    # dealt with a count neither schedule is for (30.09(1)): it wins, at the least either pays
    odds = min(schedule[match] for schedule in schedules.values())
    return _expected("win", wager.amount * odds,
                     ("{} pays at least {} to 1 (no schedule is for {} decks)", match, odds,
                      decks))


def first_two_cards(view: RoundView, seat: str) -> list[tuple[str, int]]:
    """The seat's first two cards (card, line): the first two dealt to its hand h1, as
    dealt, before any split (20:18:15:30.04(3))."""
    target = seat + "h1"
    found: list[tuple[str, int]] = []
    for event in view.events:
        if type(event) is Deal and event.target == target:
            found.append((event.card, event.line))
            if len(found) == 2:
                break
    return found


def ladies_result(view: RoundView, wager: Wager) -> Expected:
    """A Lucky Ladies wager by the seat's first two cards and the declared pay table: the
    highest category only (30.04(4)); the top award needs the dealer's blackjack. With no
    usable pay table a 20 wins an amount no record can say (net 0 here; the checks know)."""
    if wager.after_first_card:
        return _expected("void", ZERO, "a Lucky Ladies wager made after the first card is no "
                                      "bet")
    cards = [card for card, _ in first_two_cards(view, wager.seat)]
    if len(cards) != 2:
        return _expected("void", ZERO, "the seat was not dealt two cards")
    config = view.config
    single = config.decks == 1
    category = blackjack.ladies_category(cards, single, view.dealer.natural)
    shown = " ".join(cards)
    if category is None:
        return _expected("lose", -wager.amount, f"the first two cards ({shown}) do not total 20")
    name = blackjack.ladies_category_name(category, single)
    declared = config.rules.ladies_paytable
    table = blackjack.ladies_pay_table(declared, config.decks) if declared else None
    if table is None:
        return _expected("win", ZERO, f"{shown} is {name} (the amount owed is not known: the "
                                     "table declares no usable pay table)")
    odds = blackjack.LADIES_PAY_TABLES[table][category]
    return _expected("win", wager.amount * odds,
                    f"{shown} is {name}, which pay table {table} pays {odds:,} to 1")
