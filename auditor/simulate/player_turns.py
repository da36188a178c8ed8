"""The players' turns (`PlayerTurns`, a part of game.py's `RoundBuilder`): each hand
played by basic strategy (hit, stand, double, split, surrender, switch), and Ten sticks
21's bonus cards traded or lit."""

from __future__ import annotations

import auditor.simulate.strategy as strategy
from auditor.simulate.cards import BONUS_CARD, VALUE, total
from auditor.simulate.pays import money
from auditor.simulate.round_parts import Hand, SeatPlay, Stmt, Wager, root_of


class PlayerTurns:
    """The players' half of `RoundBuilder` (game.py): it uses the round's seats, shoe and
    fault hooks."""

    # ---- the players ----
    def seat_turn(self, seat: SeatPlay) -> None:
        if not seat.hands or seat.misdealt:
            return
        if self.game == "switch" and len(seat.hands) == 2:
            self.maybe_switch(seat)
        if self.game == "tensticks":
            for hand in seat.hands:
                self.bonus_cards_dealt(seat, hand)
                if (BONUS_CARD not in hand.cards and not hand.natural
                        and self.fault.trade_other_card(self, hand)):
                    self.trade(seat, hand, lit=self.rules.tensticks_trade == "yes",
                               fault=f"{hand.name} traded {hand.cards[-1]}, not a bonus card")
                if self.fault.unearned_light(self, seat):
                    self.light(seat)
                    self.mark(self.stmts[-1], f"a light for {seat.name} with no trade")
        queue = list(seat.hands)
        while queue:
            hand = queue.pop(0)
            self.play_hand(seat, hand, queue)

    def maybe_switch(self, seat: SeatPlay) -> None:
        first, second = seat.hands[0], seat.hands[1]
        wanted = self.fault.steer_switch(self, seat)
        if wanted is None:
            wanted = strategy.should_switch(first.cards, second.cards)
        if not wanted:
            return
        self.emit("switch", seat.name, seconds=self.pause(1, 4))
        first.cards[1], second.cards[1] = second.cards[1], first.cards[1]
        first.switched = second.switched = True

    def can_double(self, hand: Hand) -> bool:
        if len(hand.cards) != 2 or hand.split_aces:
            return False
        if self.rules.das == "no" and (hand.parent is not None or hand.was_split):
            return False
        allowed = {"any": range(2, 22), "9-11": range(9, 12), "10-11": range(10, 12)}
        return hand.total in allowed[self.rules.double]

    @property
    def split_limit(self) -> int:
        """Splits of one original hand the house allows (never more than three)."""
        return min(self.rules.splits, 3)

    @staticmethod
    def is_pair(hand: Hand) -> bool:
        """Two cards of one value that may still be split (a split ace is complete)."""
        return (len(hand.cards) == 2 and not hand.split_aces
                and VALUE[hand.cards[0][0]] == VALUE[hand.cards[1][0]])

    def can_split(self, hand: Hand, seat: SeatPlay) -> bool:
        root = root_of(hand)
        # after a split for a wrong amount (a planted fault) that line splits no more: the
        # standard and the switch checks measure a later split against different wagers
        return (self.is_pair(hand) and root.splits_of_root < self.split_limit
                and not root.odd_split)

    def can_surrender(self, hand: Hand) -> bool:
        return (self.rules.surrender == "late" and hand.decisions == 0
                and hand.parent is None and not hand.was_split and len(hand.cards) == 2)

    def play_hand(self, seat: SeatPlay, hand: Hand, queue: list[Hand]) -> None:
        if hand.parent is not None and len(hand.cards) == 1:
            self.hit(seat, hand)  # the new hand of a split draws its second card
        if hand.natural:
            hand.done = True
            if not self.dealer_may_have_blackjack() or self.peeked:
                self.settle_hand(hand)  # paid at once: the dealer cannot hold a blackjack
            return
        while not hand.done:
            if hand.split_aces and len(hand.cards) >= 2:
                if len(hand.cards) == 2 and self.fault.hit_split_ace(self, hand):
                    late = self.hit(seat, hand)
                    self.mark(late, f"{hand.name}, a split ace, drew {hand.cards[-1]} too")
                hand.done = True  # a split ace takes one card
                break
            if hand.total >= 21:
                hand.done = True
                if hand.total == 21:
                    self.emit("stand", hand.name, seconds=self.pause(1, 4))
                break
            forced = self.fault.decision(self, seat, hand)
            action = forced or self.fault.steer(self, seat, hand) or strategy.decide(
                hand.cards, self.up(), can_double=self.can_double(hand),
                can_split=self.can_split(hand, seat), can_surrender=self.can_surrender(hand),
                das=self.rules.das == "yes", hits_soft_17=self.hits17)
            stmt = self.act(seat, hand, action, queue)
            if forced:
                self.mark(stmt, f"{action} of {hand.name} holding {' '.join(hand.cards)}")
            hand.decisions += 1

    def act(self, seat: SeatPlay, hand: Hand, action: str, queue: list[Hand]) -> Stmt:
        if action == "hit":
            return self.hit(seat, hand)
        if action == "stand":
            hand.done = True
            stmt = self.emit("stand", hand.name, seconds=self.pause(2, 5))
            if self.fault.hit_after_stand(self, hand):
                late = self.hit(seat, hand)
                self.mark(late, f"{hand.name} drew {hand.cards[-1]} after it stood")
            return stmt
        if action == "double":
            return self.double(seat, hand)
        if action == "split":
            return self.split(seat, hand, queue)
        if action == "surrender":
            hand.done = hand.surrendered = True
            stmt = self.emit("surrender", hand.name, seconds=self.pause(2, 5))
            self.settle_hand(hand)
            return stmt
        raise ValueError(f"unknown action {action}")

    def receive(self, seat: SeatPlay, hand: Hand, stmt: Stmt, card: str) -> None:
        hand.cards.append(card)
        hand.card_stmts.append(stmt)
        if total(hand.cards)[0] > 21:
            if (self.game == "tensticks" and card == BONUS_CARD
                    and self.fault.trade_busting(self, hand)):
                self.trade(seat, hand, lit=self.rules.tensticks_trade == "yes",
                           fault=f"{hand.name} traded a bonus card that took it over 21")
                return
            hand.done = hand.busted = True
            self.bust(seat, hand)
        elif self.game == "tensticks" and card == BONUS_CARD:
            self.bonus_card_received(seat, hand, stmt)

    def hit(self, seat: SeatPlay, hand: Hand) -> Stmt:
        card = self.card()
        stmt = self.emit("hit", hand.name, card, seconds=self.pause(2, 5))
        self.receive(seat, hand, stmt, card)
        return stmt

    def double(self, seat: SeatPlay, hand: Hand) -> Stmt:
        base = hand.wager.amount
        amount = self.fault.double_amount(self, hand)
        card = self.card()
        stmt = self.emit("double", hand.name, money(amount or base), card,
                         seconds=self.pause(1, 4))
        hand.doubled = amount or base
        if amount:
            self.mark(stmt, f"{hand.name} doubled for {money(amount)} on {money(base)}")
        hand.done = True
        hand.cards.append(card)
        hand.card_stmts.append(stmt)
        if total(hand.cards)[0] > 21:
            hand.busted = True
            self.bust(seat, hand)
        elif (self.game == "tensticks" and card == BONUS_CARD
              and self.rules.tensticks_trade == "no"):
            self.light(seat, stmt)  # a double's bonus card is kept: no trade after a double
        if not hand.busted and self.fault.hit_after_double(self, hand):
            late = self.hit(seat, hand)
            self.mark(late, f"{hand.name} drew {late.words[1]} after its double")
            # (a bonus card in the double would be traded or lit: a question of lights too)
            self.spoiled = self.game == "tensticks" and BONUS_CARD in (card, late.words[1])
        return stmt

    def split(self, seat: SeatPlay, hand: Hand, queue: list[Hand]) -> Stmt:
        taken = {h.name for h in seat.hands}
        number = 1
        while f"{seat.name}h{number}" in taken:
            number += 1
        new = Hand(f"{seat.name}h{number}", seat.seat, parent=hand, switched=hand.switched)
        amount = self.fault.split_amount(self, hand) or hand.wager.amount
        stmt = self.emit("split", hand.name, new.name, money(amount), seconds=self.pause(2, 5))
        if amount != hand.wager.amount:
            self.mark(stmt, f"split wager {money(amount)} on {money(hand.wager.amount)}")
            root_of(hand).odd_split = True
        new.wager = Wager("main", new.name, amount, False, None)
        self.wagers.append(new.wager)
        new.cards.append(hand.cards.pop(1))
        hand.was_split = True
        aces = hand.cards[0][0] == "A" and new.cards[0][0] == "A"
        hand.split_aces = new.split_aces = aces
        root_of(hand).splits_of_root += 1
        seat.hands.append(new)
        self.hit(seat, hand)
        if self.fault.play_new_hand_first(self, seat, hand, new):
            self.hit(seat, new)
            self.mark(new.card_stmts[-1], f"{new.name} drew before {hand.name} was complete")
        queue.insert(0, new)
        return stmt

    def bust(self, seat: SeatPlay, hand: Hand) -> None:
        self.settle_hand(hand)
        if seat.db21 is not None:
            self.emit("tuck", hand.name)
        elif self.rng.random() < 0.5:
            self.emit("discard", hand.name)

    # ---- Ten sticks 21 ----
    def bonus_cards_dealt(self, seat: SeatPlay, hand: Hand) -> None:
        """At the seat's turn: the bonus cards of the initial deal, traded or lit."""
        dealt = [st for c, st in zip(hand.cards, hand.card_stmts, strict=False)
                 if c == BONUS_CARD]
        for stmt in dealt:
            if self.rules.tensticks_trade == "no":
                self.light(seat, stmt)
                if self.fault.trade_anyway(self, hand):
                    self.trade(seat, hand, lit=False, fault="a trade where trades are not "
                                                            "allowed")
            elif not hand.natural and self.rng.random() < 0.75:
                self.trade(seat, hand)

    def bonus_card_received(self, seat: SeatPlay, hand: Hand, stmt: Stmt) -> None:
        if self.rules.tensticks_trade == "no":
            self.light(seat, stmt)
            return
        keep = 0.7 if hand.total >= 19 else 0.3
        if not hand.split_aces and self.rng.random() >= keep:
            self.trade(seat, hand)

    def trade(self, seat: SeatPlay, hand: Hand, *, lit: bool = True,
              fault: str | None = None) -> Stmt:
        """The hand's bonus card (or, as a fault, its last card) is traded for the next card."""
        card = self.card()
        stmt = self.emit("trade", hand.name, card, seconds=self.pause(2, 5))
        if fault:
            self.mark(stmt, fault)
        if BONUS_CARD in hand.cards:
            position = len(hand.cards) - 1 - hand.cards[::-1].index(BONUS_CARD)
        else:
            position = len(hand.cards) - 1
        hand.cards[position] = card
        if lit:
            self.light(seat, stmt)
        if (card == BONUS_CARD and self.rules.tensticks_trade == "no"
                and total(hand.cards)[0] <= 21):
            self.light(seat, stmt)  # a bonus card received by a trade lights too
        if total(hand.cards)[0] > 21:
            hand.done = hand.busted = True
            self.bust(seat, hand)
        return stmt

    def light(self, seat: SeatPlay, earned_by: Stmt | None = None) -> None:
        """A bonus light for the seat's player (earned by a trade or a bonus card)."""
        player = seat.player
        session = self.session
        if earned_by is not None and self.fault.skip_light(self, seat):
            self.mark(earned_by, f"no light for {seat.name} after its bonus card")
            self.unlit_seat = seat.seat
            return
        if seat.seat == self.unlit_seat:
            # a later light of the seat would be paired with the unlit bonus card, and the
            # finding fall on the later one (the earlier earner takes the first light): a
            # round that cannot tell which went unlit is dealt again with another fault
            self.spoiled = True
        count = player.lights + 1
        forced = self.fault.light_count(self, seat, count)
        stmt = self.emit("light", seat.name, str(forced or count))
        if forced:
            self.mark(stmt, f"the light at {seat.name} showed {forced}, not {count}")
        player.lights = forced or count
        player.lit = True
        player.after_prize = False
        player.light_serial = session.prize_serial
        session.disk[seat.seat] = player.lights
        required = self.rules.tensticks_lights
        prize = self.fault.prize(self, seat, player.lights)
        if prize == "withheld" and player.lights >= required:
            if not self.applied:  # (one finding per seat and round: its first such light)
                self.mark(stmt, f"{seat.name} reached {player.lights} lights and was not paid")
            player.stay, player.no_card = 1, True  # leaves before lighting again
        elif player.lights >= required or prize == "early":
            stmt = self.emit("prize", seat.name, money(session.prize_cents), seconds=5)
            if player.lights < required:
                self.mark(stmt, f"a prize at {seat.name} with {player.lights} lights")
            player.lights = 0
            player.after_prize = True
            session.prize_serial += 1
            player.light_serial = session.prize_serial  # its own prize is not another's
