"""The settlements of a round (`Settlements`, a part of game.py's `RoundBuilder`):
insurance offered and settled, the side wagers (super match, Lucky Ladies, Dealer's bust
21), each hand's main wager against the dealer's, and what is settled after the dealer's
hand is complete. Every amount is computed from the cards as dealt."""

from __future__ import annotations

from auditor.simulate.cards import is_two_card_21, total
from auditor.simulate.pays import (
    BLACKJACK_ODDS,
    LADIES,
    SUPER_MATCH,
    db21_odds,
    ladies_kind,
    money,
    super_match_kind,
)
from auditor.simulate.round_parts import Hand, SeatPlay, Stmt, Wager


class Settlements:
    """The settling half of `RoundBuilder` (game.py): it uses the round's seats, wagers,
    dealer's cards and fault hooks."""

    def ladies_waits(self, seat: SeatPlay) -> bool:
        """The seat holds the top award's cards and the dealer's blackjack cannot be known
        yet (no peek, an ace or ten-value up): its wager is taken or paid at the reveal."""
        return (not self.peeked and self.dealer_may_have_blackjack()
                and ladies_kind(self.first_two(seat), self.spec.decks == 1, True) == "top")

    @staticmethod
    def first_two(seat: SeatPlay) -> list[str]:
        """The seat's first two cards as dealt (a split later does not change them)."""
        return seat.first_four[:2]

    def settle_ladies(self, seat: SeatPlay) -> None:
        kind = ladies_kind(self.first_two(seat), self.spec.decks == 1,
                           is_two_card_21(self.dealer))
        for wager in seat.ladies:
            if wager.settle is not None:
                continue
            if kind is None:
                self.settle(wager, "lose", wager.amount)
            else:
                self.settle(wager, "win", wager.amount * LADIES[self.rules.ladies_paytable][kind])

    def insurance_wagers(self) -> list[Wager]:
        return [w for s in self.seats for w in s.insurance]

    def offer_insurance(self) -> None:
        for seat in self.seats:
            if seat.misdealt:
                continue
            for hand in seat.hands:
                if hand.wager is None or hand.natural:
                    continue
                amount = self.fault.insurance(self, hand)
                if amount is None:
                    if self.rng.random() >= seat.player.insures:
                        continue
                    amount = hand.wager.amount // 2
                wager = self.bet(hand.name, "insurance", amount)
                if amount * 2 > hand.wager.amount:
                    self.mark(wager.bet, f"insurance of {money(amount)} on a "
                                         f"{money(hand.wager.amount)} wager")
                seat.insurance.append(wager)
                if self.rng.random() < seat.player.tips * 10:  # the dealer's, not held to half
                    seat.insurance.append(self.bet(hand.name, "insurance",
                                                   seat.player.tip_amount(self.rng), tip=True))

    # ---- settlements ----
    def settle(self, wager: Wager, outcome: str, amount: int, seconds: int = 2) -> Stmt:
        words = [wager.target, wager.kind, outcome, money(amount)]
        if wager.tip:
            words.append("tip")
        stmt = self.emit("settle", *words, seconds=seconds, meta=wager)
        wager.settle, wager.outcome, wager.paid = stmt, outcome, amount
        wager.remaining = self.dealer_done is not None
        return stmt

    def settle_super_match(self, seat: SeatPlay) -> None:
        wager = seat.super_match
        kind = super_match_kind(seat.first_four)
        if kind is None:
            self.settle(wager, "lose", wager.amount)
        else:
            odds = SUPER_MATCH[8 if self.spec.decks >= 8 else 6][kind]
            self.settle(wager, "win", wager.amount * odds)

    def settle_insurance(self, wager: Wager) -> None:
        if self.dealer_natural:
            self.settle(wager, "win", wager.amount * 2)
        else:
            self.settle(wager, "lose", wager.amount)

    def main_result(self, hand: Hand, wager: Wager) -> tuple[str, int]:
        """(outcome, amount) of a main wager (personal or tip) by the cards as dealt."""
        base = wager.amount
        stake = base if wager.tip else base + hand.doubled
        if hand.surrendered:
            return "lose", base // 2
        if hand.busted:
            return "lose", stake
        if hand.natural:
            if self.dealer_natural:
                return "push", base
            numerator, denominator = BLACKJACK_ODDS[self.spec.blackjack_odds]
            return "win", base * numerator // denominator
        if self.dealer_natural:
            if hand.parent is not None:
                return "push", stake
            return "lose", base
        player, dealer = hand.total, total(self.dealer)[0]
        if self.game == "switch" and dealer == 22:
            return "push", stake
        if dealer > 21 or player > dealer:
            return "win", stake
        if player < dealer:
            return "lose", stake
        return "push", stake

    def settle_hand(self, hand: Hand) -> None:
        for wager in (hand.wager, *hand.tips):
            if wager is not None and wager.settle is None:
                self.settle(wager, *self.main_result(hand, wager))
        hand.settled = True

    def settle_db21(self, seat: SeatPlay) -> None:
        for wager in (seat.db21, *seat.db21_tips):
            if wager is None or wager.settle is not None:
                continue
            if total(self.dealer)[0] > 21:
                self.settle(wager, "win", wager.amount * db21_odds(self.rules.db21_paytable,
                                                                   self.up()))
            else:
                self.settle(wager, "lose", wager.amount)

    def settle_remaining(self) -> None:
        if not self.peeked:
            for wager in self.insurance_wagers():
                self.settle_insurance(wager)
        order = sorted(self.seats, key=lambda s: -s.seat)  # third base first
        dealer_busted = total(self.dealer)[0] > 21
        if self.game == "db21" and not dealer_busted:
            for seat in order:  # 30.10(9): DB21 wagers come down first
                self.settle_db21(seat)
        for seat in order:
            for hand in seat.hands:
                if not hand.settled:
                    self.settle_hand(hand)
            if self.game == "db21":
                self.settle_db21(seat)
