"""One round of play, dealt and played by the rules, as a list of statements.

`RoundBuilder.play()` deals a round at a table (`Session` in table.py owns the shoe, the
seats and the clock) and records every statement in the order it happens. Amounts are
whole cents. Every settlement is computed from the cards as dealt, so a fault planted by
a hook (hooks.py, answered by an injector of faults/) leaves the rest of the round
consistent with it.

The round's course is here: the wagers, the initial deal, what follows it (insurance, the
peek, the side wagers settled then) and the dealer's turn. The players' turns are in
player_turns.py, the settlements in settling.py (`RoundBuilder` is made of both), the
round's parts (statements, wagers, hands, seats) in round_parts.py and what each wager
pays in pays.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from auditor.simulate.cards import BONUS_CARD, VALUE, is_two_card_21, total
from auditor.simulate.pays import money, play_dealer
from auditor.simulate.player_turns import PlayerTurns
from auditor.simulate.round_parts import Hand, SeatPlay, Stmt, Wager
from auditor.simulate.settling import Settlements

if TYPE_CHECKING:
    from auditor.simulate.hooks import Hooks
    from auditor.simulate.table import Player, Session

MISDEAL_RATE = 0.003  # rounds with a misdealt seat (any game but Ten sticks 21)
DEALER_MISDEAL_RATE = 0.002  # rounds misdealt to the dealer: every wager returned
IMPOSSIBLE_TIME = "hour 24"  # a statement's meta: its time stamp is written 24:MM:SS
BURN_RATE = 0.01  # rounds whose dealer burns a card after the wagers (a lawful `burn`)


class RoundBuilder(PlayerTurns, Settlements):
    """Deals and plays one round; `stmts` is the record of it, `round` line excluded."""

    def __init__(self, session: Session, fault: Hooks) -> None:
        self.session = session
        self.spec = session.spec
        self.rules = session.spec.rules
        self.game = session.spec.game
        self.rng = session.rng
        self.fault = fault
        self.stmts: list[Stmt] = []
        self.seats: list[SeatPlay] = []
        self.wagers: list[Wager] = []
        self.dealer: list[str] = []
        self.dealer_stmts: list[Stmt] = []
        self.in_play: list[str] = []
        self.first_deal: Stmt | None = None
        self.peeked = False
        self.dealer_natural = False
        self.dealer_done: Stmt | None = None  # the reveal or the last draw
        self.dealer_had_to_play = False
        self.hits17 = self.rules.soft17 == "hit"
        self.applied = False  # the fault hook fired
        self.spoiled = False  # the fault would bring more findings than its own: not used
        self.forced_seats: dict[int, SeatPlay] = {}  # seats whose wagers a hook placed
        self.void_round = False  # misdealt to the dealer: every wager returned
        self.unlit_seat: int | None = None  # the seat whose light was left out (a fault)

    # ---- recording ----
    def emit(self, kind: str, *words: str, seconds: int = 1, meta: Any = None) -> Stmt:
        stmt = Stmt(kind, words, seconds, meta)
        self.stmts.append(stmt)
        return stmt

    def mark(self, stmt: Stmt, what: str) -> None:
        stmt.fault = (self.fault.citation, what, type(self.fault).__name__)
        self.applied = True

    def pause(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    # ---- cards ----
    def card(self) -> str:
        shoe = self.session.shoe
        if shoe.remaining == 0:
            # The shoe ran dry (a short shoe, a long round): the discards are shuffled in.
            self.emit("shuffle", seconds=30)
            self.emit("cut", seconds=5)
            shoe.shuffle_discards(self.in_play)
            self.session.seen = {}
            self.session.reshuffle_due = True  # the reshuffled discards hold no cut card
            self.session.cutcard_pending = False
        elif shoe.cut_card_due():
            self.emit("cutcard", seconds=0)
            self.session.reshuffle_due = self.session.cutcard_pending = True
        card = shoe.draw()
        self.in_play.append(card)
        self.session.seen[card] = self.session.seen.get(card, 0) + 1
        return card

    # ---- the round ----
    def play(self, players: dict[int, Player]) -> bool:
        """Play a round with the seated players; False if nobody wagered."""
        self.place_bets(players)
        if not any(s.hands for s in self.seats):
            return False
        self.deal()
        if self.void_round:
            return True  # a misdeal for the round: every wager returned, nothing more
        self.after_deal()
        if self.dealer_natural and self.game == "tensticks" and \
                self.rules.tensticks_trade == "no":
            for seat in self.seats:  # lights come with the bonus cards, whatever the dealer holds
                for hand in seat.hands:
                    self.bonus_cards_dealt(seat, hand)
        if not self.dealer_natural:
            for seat in self.seats:
                self.seat_turn(seat)
            self.dealer_turn()
        self.settle_remaining()
        return True

    # ---- wagers ----
    def bet(self, target: str, kind: str, amount: int, tip: bool = False) -> Wager:
        words = (target, kind, money(amount), "tip") if tip else (target, kind, money(amount))
        stmt = self.emit("bet", *words, seconds=self.pause(1, 2))
        wager = Wager(kind, target, amount, tip, stmt)
        stmt.meta = wager
        self.wagers.append(wager)
        return wager

    def place_bets(self, players: dict[int, Player]) -> None:
        rng = self.rng
        forced = self.fault.extra_bettors(self, players)
        # the last seat plays whatever happens, so that every round has a hand
        last_chance = max((n for n in players if n not in forced), default=None)
        for number in sorted(players):
            if number in forced:
                self.seats.append(self.forced_seats[number])  # a hook placed its wagers
                continue
            player = players[number]
            seat = SeatPlay(number, player)
            self.seats.append(seat)
            if rng.random() < player.sit_out and number != last_chance:
                continue  # sits this round out (unless nobody else would play)
            amount = player.wager(rng, self.spec)
            unlawful = self.fault.main_amount(self, seat, amount)
            names = ("h1",)
            if self.game == "switch" and not self.fault.one_hand(self, seat):
                names = ("h1", "h2")
            for suffix in names:
                hand = Hand(f"s{number}{suffix}", number)
                other = self.fault.second_hand_amount(self, seat, amount) if suffix == "h2" \
                    else None
                hand.wager = self.bet(hand.name, "main", other or unlawful or amount)
                seat.hands.append(hand)
                if other:
                    self.mark(hand.wager.bet, f"{money(other)} on h2 against {money(amount)}")
            if unlawful:  # (at Blackjack Switch both hands: a finding for each wager)
                for hand in seat.hands:
                    self.mark(hand.wager.bet, f"a main wager of {money(unlawful)}")
            if self.game == "switch" and len(names) == 1:
                self.mark(seat.hands[0].wager.bet, f"{seat.name} wagered on h1 only")
                continue
            if rng.random() < player.tips:
                hand = seat.hands[0]
                hand.tips.append(self.bet(hand.name, "main", player.tip_amount(rng), tip=True))
            side = player.side_wager(rng, self.spec)
            if side and self.game in ("db21", "switch", "ladies"):
                unlawful = self.fault.side_amount(self, seat, side)
                kind = {"db21": "db21", "switch": "supermatch"}.get(self.game, self.game)
                wager = self.bet(seat.name, kind, unlawful or side)
                if unlawful:
                    self.mark(wager.bet, f"a {kind} wager of {money(unlawful)}")
                if self.game == "db21":
                    seat.db21 = wager
                    if rng.random() < player.tips:  # a tip on the bust, for the dealer
                        seat.db21_tips.append(self.bet(seat.name, "db21",
                                                       player.tip_amount(rng), tip=True))
                elif self.game == "ladies":
                    seat.ladies.append(wager)
                    if rng.random() < player.tips * 5:  # the dealer's, on the seat's 20
                        seat.ladies.append(self.bet(seat.name, "ladies",
                                                    player.tip_amount(rng), tip=True))
                else:
                    seat.super_match = wager

    # ---- the initial deal ----
    def deal(self) -> None:
        hands = [h for s in self.seats for h in s.hands]
        # Now and then a hand is dealt a third card, a misdeal to its seat, or the dealer
        # is, a misdeal for the round (not at Ten sticks 21, where a misdealt bonus card
        # would raise a question of lights the format does not answer). Outside Blackjack
        # Switch, and for the dealer, only in rounds without a planted fault.
        lawful = self.fault.allows_misdeals() and self.game != "tensticks"
        misdealt, played_on, dealer_misdeal = None, None, False
        if self.fault.force_dealer_misdeal(self) or (
                lawful and self.rng.random() < DEALER_MISDEAL_RATE):
            dealer_misdeal = True
        elif self.fault.force_misdeal(self) or (
                (self.game == "switch" or lawful) and self.rng.random() < MISDEAL_RATE):
            misdealt = self.rng.choice(hands)
        elif self.fault.extra_card_played_on(self):
            bare = [h for s in self.seats if s.super_match is None for h in s.hands]
            played_on = self.rng.choice(bare) if bare else None
        if self.rng.random() < BURN_RATE:
            card = self.card()
            self.in_play.remove(card)  # to the discards, not the layout
            self.emit("burn", card, seconds=2)
        for turn in range(2):
            for hand in hands:
                extra = turn == 1 and hand in (misdealt, played_on)
                for _ in range(2 if extra else 1):
                    card = self.card()
                    stmt = self.emit("deal", hand.name, card, seconds=1)
                    hand.cards.append(card)
                    hand.card_stmts.append(stmt)
                    if self.first_deal is None:
                        self.first_deal = stmt
            for _ in range(2 if turn == 1 and dealer_misdeal else 1):
                card = self.card()
                self.dealer.append(card)
                self.dealer_stmts.append(self.emit("deal", "dealer", card, seconds=1))
        for seat in self.seats:
            seat.first_four = [c for h in seat.hands for c in h.cards[:2]]
        if dealer_misdeal:
            self.emit("misdeal", "dealer", seconds=10)
            for seat in self.seats:
                self.void_seat(seat)
            self.void_round = True
        elif misdealt is not None:
            self.emit("misdeal", f"s{misdealt.seat}", seconds=10)
            self.void_seat(next(s for s in self.seats if s.seat == misdealt.seat))
        elif played_on is not None:
            self.mark(played_on.card_stmts[-1], f"{played_on.name} dealt three cards, played "
                                                "on without a misdeal")
            self.spoiled = played_on.total > 21  # dealt over 21: a fault of another kind

    def void_seat(self, seat: SeatPlay) -> None:
        """30.09(4): a misdealt seat's wagers are returned in full; it sits the round out."""
        seat.misdealt = True
        wagers = [w for h in seat.hands for w in (h.wager, *h.tips)]
        wagers += [w for w in (seat.super_match, seat.db21) if w is not None]
        wagers += seat.db21_tips + seat.ladies
        for wager in wagers:
            self.settle(wager, "void", wager.amount)
        for hand in seat.hands:
            hand.done = hand.settled = True

    def up(self) -> str:
        return self.dealer[0]

    def dealer_may_have_blackjack(self) -> bool:
        return self.up()[0] == "A" or VALUE[self.up()[0]] == 10

    def after_deal(self) -> None:
        for seat in self.seats:
            if seat.super_match is not None and not seat.misdealt:
                self.settle_super_match(seat)
        if self.up()[0] == "A":
            self.offer_insurance()
        elif self.fault.insure_without_ace(self):
            hand = next((h for s in self.seats if not s.misdealt for h in s.hands
                         if not h.natural and h.wager.amount >= 200), None)
            if hand is not None:
                wager = self.bet(hand.name, "insurance", hand.wager.amount // 2)
                self.mark(wager.bet, f"insurance with {self.up()} up")
                next(s for s in self.seats if s.seat == hand.seat).insurance.append(wager)
        if self.rules.peek == "yes" and self.dealer_may_have_blackjack():
            self.emit("peek", seconds=2)
            self.peeked = True
            self.dealer_natural = is_two_card_21(self.dealer)
            if self.dealer_natural:
                self.dealer_done = self.emit("reveal", seconds=2)
            for wager in self.insurance_wagers():
                self.settle_insurance(wager)
        if self.game == "ladies":
            for seat in self.seats:  # 30.04(5): before any player receives another card
                if not seat.misdealt and not self.ladies_waits(seat):
                    self.settle_ladies(seat)

    # ---- the dealer ----
    def dealer_must_play(self) -> bool:
        for seat in self.seats:
            if seat.misdealt:
                continue
            for hand in seat.hands:
                if not (hand.busted or hand.natural or hand.surrendered):
                    return True
            if seat.db21 is not None and not seat.db21.late:
                return True
        return False

    def dealer_turn(self) -> None:
        self.dealer_done = self.emit("reveal", seconds=2)
        self.dealer_natural = is_two_card_21(self.dealer)
        for seat in self.seats:  # the top awards that waited for the dealer's blackjack
            if seat.ladies and not seat.misdealt:
                self.settle_ladies(seat)
        if (self.game == "tensticks" and BONUS_CARD in self.dealer and not self.dealer_natural
                and self.fault.dealer_trade(self)):
            card = self.card()
            stmt = self.emit("trade", "dealer", card, seconds=4)
            self.dealer[len(self.dealer) - 1 - self.dealer[::-1].index(BONUS_CARD)] = card
            self.mark(stmt, f"the dealer traded the bonus card for {card}")
            # A blackjack made by the trade would turn naturals already paid into faults of
            # their own: such a round is dealt again with another fault.
            self.spoiled = is_two_card_21(self.dealer)
        self.dealer_had_to_play = self.dealer_must_play()
        if self.dealer_had_to_play:
            play_dealer(self.dealer, self.dealer_draw, self.hits17, stop=self.dealer_stops)
            if self.applied:
                return
        if self.fault.dealer_extra(self):
            self.dealer.append(self.dealer_draw())
            self.mark(self.dealer_stmts[-1], "the dealer drew on a standing total")

    def dealer_stops(self) -> bool:
        if not self.fault.dealer_stop(self):
            return False
        # the stop shows on the last draw, or on the reveal (judging.stop_line)
        self.mark(self.dealer_done, f"the dealer stopped at {total(self.dealer)[0]}")
        return True

    def dealer_draw(self) -> str:
        """The dealer's next card, recorded as a `draw` (the caller adds it to the hand)."""
        card = self.card()
        self.dealer_done = self.emit("draw", card, seconds=self.pause(2, 3))
        self.dealer_stmts.append(self.dealer_done)
        return card
