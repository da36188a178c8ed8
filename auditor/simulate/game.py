"""One round of play, dealt and played by the rules, as a list of statements.

`RoundBuilder.play()` deals a round at a table (`Session` in table.py owns the shoe, the
seats and the clock) and records every statement in the order it happens. Amounts are
whole cents. Every settlement is computed from the cards as dealt, so a fault planted by
a hook (hooks.py, answered by an injector of faults/) leaves the rest of the round
consistent with it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import auditor.simulate.strategy as strategy
from auditor.simulate.cards import BONUS_CARD, VALUE, dealer_must_draw, is_two_card_21, total

if TYPE_CHECKING:
    from auditor.simulate.hooks import Hooks
    from auditor.simulate.table import Player, Session

MISDEAL_RATE = 0.003  # rounds with a misdealt seat (any game but Ten sticks 21)
DEALER_MISDEAL_RATE = 0.002  # rounds misdealt to the dealer: every wager returned
IMPOSSIBLE_TIME = "hour 24"  # a statement's meta: its time stamp is written 24:MM:SS
BURN_RATE = 0.01  # rounds whose dealer burns a card after the wagers (a lawful `burn`)
BLACKJACK_ODDS = {"3:2": (3, 2), "6:5": (6, 5), "1:1": (1, 1)}
DB21_PAY_TABLES = {1: (10, 4, 2, 1), 2: (15, 4, 2, 1), 3: (2, 2, 2, 2), 4: (4, 2, 4, 1)}
SUPER_MATCH = {6: {"four": 40, "two pair": 8, "three": 5, "pair": 1},
               8: {"four": 50, "two pair": 7, "three": 5, "pair": 1}}
# 20:18:15:30.04(4): Lucky Ladies odds by pay table, highest category first
LADIES = {"A": {"top": 1000, "queens": 125, "matched": 19, "suited": 9, "any": 4},
          "B": {"top": 1000, "queens": 200, "matched": 25, "suited": 10, "any": 4},
          "C": {"top": 250, "queens": 25, "matched": 9, "suited": 6, "any": 3}}


def money(cents: int) -> str:
    """Cents as a BJH amount: `25`, `37.50`."""
    if cents % 100 == 0:
        return str(cents // 100)
    return f"{cents // 100}.{cents % 100:02d}"


def db21_odds(pay_table: int, up_card: str) -> int:
    ace, ten, high, low = DB21_PAY_TABLES[pay_table]
    rank = up_card[0]
    if rank == "A":
        return ace
    if VALUE[rank] == 10:
        return ten
    return high if rank in "789" else low


def super_match_kind(cards: list[str]) -> str | None:
    """The best super match hand in four cards, matched by rank, or None (30.09(1), (6))."""
    ranks = [card[0] for card in cards]
    distinct = len(set(ranks))
    if distinct == 4:
        return None
    if distinct == 3:
        return "pair"
    if distinct == 1:
        return "four"
    return "three" if ranks.count(ranks[0]) in (1, 3) else "two pair"


def ladies_kind(cards: list[str], one_deck: bool, dealer_blackjack: bool) -> str | None:
    """The highest Lucky Ladies category of a seat's first two cards, or None (no 20).
    One deck: a pair of queens, a paired 20 (one rank); more: two queens of hearts, a
    matched 20 (one rank and suit); then suited, then any 20 (an ace counts eleven)."""
    if len(cards) != 2 or total(cards)[0] != 20:
        return None
    first, second = cards
    if one_deck:
        queens, matched = first[0] == second[0] == "Q", first[0] == second[0]
    else:
        queens, matched = first == second == "Qh", first == second
    if queens:
        return "top" if dealer_blackjack else "queens"
    if matched:
        return "matched"
    return "suited" if first[1] == second[1] else "any"


def play_dealer(cards: list[str], draw: Callable[[], str], hits_soft_17: bool,
                stop: Callable[[], bool] | None = None) -> list[str]:
    """The dealer's drawing rule: draw below 17, and at soft 17 where the house hits it.

    `draw` deals the next card; `stop` (a planted fault) may end the drawing early. The
    game and the statistical fast path (sampling.py) both deal the dealer's hand here.
    """
    while dealer_must_draw(cards, hits_soft_17):
        if stop is not None and stop():
            break
        cards.append(draw())
    return cards


class Stmt:
    """One statement of the record; its time stamp is given when the round is written."""

    __slots__ = ("fault", "kind", "meta", "seconds", "words")

    def __init__(self, kind: str, words: tuple[str, ...] = (), seconds: int = 1,
                 meta: Any = None) -> None:
        self.kind = kind
        self.words = words
        self.seconds = seconds
        self.meta = meta
        # (citation, what was planted, the clause: the injector's name)
        self.fault: tuple[str, str, str] | None = None

    @property
    def text(self) -> str:
        return f"{self.kind} {' '.join(self.words)}" if self.words else self.kind


@dataclass(slots=True)
class Wager:
    kind: str  # main, insurance, supermatch, db21
    target: str
    amount: int  # cents
    tip: bool
    bet: Stmt | None  # None for the new wager of a split
    settle: Stmt | None = None
    outcome: str = ""
    paid: int = 0
    remaining: bool = False  # settled after the dealer's hand was complete
    late: bool = False  # placed after the first card (a fault)


@dataclass(slots=True)
class Hand:
    name: str
    seat: int
    cards: list[str] = field(default_factory=list)
    wager: Wager | None = None
    tips: list[Wager] = field(default_factory=list)
    doubled: int = 0
    parent: Hand | None = None
    split_aces: bool = False
    was_split: bool = False
    splits_of_root: int = 0
    odd_split: bool = False  # a split of its line was for a wrong amount
    switched: bool = False
    done: bool = False
    busted: bool = False
    surrendered: bool = False
    settled: bool = False
    decisions: int = 0
    card_stmts: list[Stmt] = field(default_factory=list)

    @property
    def natural(self) -> bool:
        return (self.parent is None and not self.was_split and not self.switched
                and is_two_card_21(self.cards))

    @property
    def total(self) -> int:
        return total(self.cards)[0]

    @property
    def stake(self) -> int:
        return (self.wager.amount if self.wager else 0) + self.doubled


def root_of(hand: Hand) -> Hand:
    """The original hand a hand was split from (itself if it was never split off)."""
    while hand.parent is not None:
        hand = hand.parent
    return hand


@dataclass(slots=True)
class SeatPlay:
    seat: int
    player: Player
    hands: list[Hand] = field(default_factory=list)
    db21: Wager | None = None
    db21_tips: list[Wager] = field(default_factory=list)  # the dealer's, beside the player's
    super_match: Wager | None = None
    ladies: list[Wager] = field(default_factory=list)  # the player's, then a tip
    insurance: list[Wager] = field(default_factory=list)
    first_four: list[str] = field(default_factory=list)
    misdealt: bool = False

    @property
    def name(self) -> str:
        return f"s{self.seat}"


class RoundBuilder:
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
