"""The replay engine: a round's events, in order, against the table's state.

It records what happened (and, in outcomes.py, what the rules say should have happened);
it never decides that anything is a violation. A statement that cannot be replayed (a hand
that does not exist) is recorded as a `reference` problem and the replay goes on.
"""

from __future__ import annotations

from collections.abc import Callable

from auditor import blackjack
from auditor import events as ev
from auditor.reader import Problem, RoundRecord
from auditor.replay.outcomes import expect_all
from auditor.replay.state import SeatState, TableState
from auditor.replay.view import (
    Card,
    DealerDraw,
    Decision,
    Hand,
    LateCard,
    LightEvent,
    Marker,
    RoundView,
    SeatChange,
    Settlement,
    Trade,
    Wager,
    make_hand,
    seat_number,
    seat_of,
)

_VALUE = blackjack.VALUE
# The round's commonest objects (a card, a settlement, a decision, a wager) are made in
# place: `_new(Card)` and the fields stored, not `Card(...)`, whose Python `__init__` is
# a second frame entered from C (about twice the work in CPython 3.11).
# Every field is stored at the site; tests/replay/test_replay_inits.py holds them to the
# dataclasses' own constructors.
_new = object.__new__
_VIEW_INIT = RoundView.__init__

UNRECORDED_KINDS = frozenset({ev.Deal, ev.Bet, ev.Stand, ev.Settle})
"""The statement types `RoundView.kinds` leaves out (replay_round takes them in its loop)."""

def replay_round(state: TableState, record: RoundRecord, file: str,
                 on_step: Callable[[ev.Event, RoundView], None] | None = None) -> RoundView:
    """Replay one round against the table; `on_step` sees the view after each statement."""
    start = record.start
    # RoundView(...), its __init__ called as a plain function on an object made in place
    # (calling the class enters it through C as a second frame: see _new)
    view = _new(RoundView)
    _VIEW_INIT(
        view, file, state.config, start.round_id, start.line, record.end_line, record.last_line,
        start.date or state.shoe_date, start.clock or start.time, start.dealer or state.dealer,
        record.events, state.shoe_status(), list(record.problems),
        {seat: seated.player for seat, seated in state.seats.items()})  # (a third of a zip's)
    # _RoundReplay(state, view), made in place (see _new): one a round
    replay = _new(_RoundReplay)
    replay.state, replay.view, replay.wager_index = state, view, {}
    replay.seats_reported = set()
    seat_count = replay.seats = state.config.seats
    replay.counts, replay.hands = state.counts, view.hands
    replay.seat_digits = _SEAT_DIGITS.get(seat_count) or _seat_digits(seat_count)
    handlers = _HANDLERS.get
    # The commonest statements (deal, settle) are replayed here, written out: no call, and
    # the round's objects held in locals. Every other statement goes to its handler.
    deal, settle, bet, stand, hit = ev.Deal, ev.Settle, ev.Bet, ev.Stand, ev.Hit
    decisions = view.decisions
    seats = state.seats  # (a `sit` or `leave` changes the dict in place, never replaces it)
    counts, hands = state.counts, view.hands
    card_codes, card_seen, card_lines = view.card_codes, view.card_seen, view.card_lines
    dealer, seat_digits, wager_index = view.dealer, replay.seat_digits, replay.wager_index
    value = _VALUE
    kinds, hits = view.kinds, False
    # the round's first and last `deal` (view.first_card_index, deal_end_index) in locals:
    # the first stored on the view as it is found, the last once the loop ends
    first_card = last_deal = None
    for index, event in enumerate(record.events):
        kind = type(event)
        if kind is deal:  # _RoundReplay.on_deal, written out
            code, target, line = event.card, event.target, event.line
            seen = counts.get(code, 0) + 1  # TableState.count_card
            counts[code] = seen
            card_codes.append(code)
            card_seen.append(seen)
            card_lines.append(line)
            if first_card is None:
                first_card = view.first_card_index = index
            last_deal = index
            hand = hands.get(target)  # a hand of the round: its seat was told already
            if hand is not None:
                pass
            elif target == "dealer":
                hand = dealer
            elif len(target) <= 2:
                replay.problem(line, f"`deal` to {target}: cards are dealt to a hand", target)
            else:
                if target[1] not in seat_digits:
                    replay.note_seat(target, line)
                hand = replay.new_hand(target)
            if hand is not None:
                # CountedCards.add, written out: a card, the hand's count and best total
                hand.changes += 1
                card = _new(Card)
                card.card, card.line, card.index = code, line, index
                hand.cards.append(card)
                rank = code[0]
                hard = hand.hard = hand.hard + value[rank]
                if rank == "A":
                    hand.has_ace = True
                if hand.has_ace and hard <= 11:
                    hand.total, hand.soft = hard + 10, True
                else:
                    hand.total, hand.soft = hard, False
                dealt = hand.dealt = hand.dealt + 1
                if dealt <= 2:  # (the super match's four cards, the tally's game math)
                    if dealt == 1:
                        hand.first_dealt = code
                    else:
                        hand.second_dealt = code
        elif kind is bet:
            target, bet_kind, tip = event.target, event.kind, event.tip
            key = (target, bet_kind, tip)
            if (bet_kind != "insurance" and target != "dealer"
                    and (bet_kind == "main") == (len(target) > 2)
                    and target[1] in seat_digits and (seat := target[:2]) in seats
                    and key not in wager_index):
                # _RoundReplay.on_bet, written out for the common bet: a main wager on a
                # hand or a side wager on a seat, of a seat taken and within the table,
                # placed for the first time (anything else is told by on_bet)
                wager = wager_index[key] = _new(Wager)  # Wager(...), made in place
                wager.target, wager.kind, wager.tip, wager.amount = (
                    target, bet_kind, tip, event.amount)
                wager.line, wager.index = event.line, index
                wager.after_first_card = first_card is not None
                wager.initial = True
                wager.settlements, wager.late_additions = [], ()
                wager.expected = wager.expected_burned = None
                wager.seat = seat  # (target[:2], taken above)
                view.wagers.append(wager)
                if bet_kind != "main":
                    view.wager_marks.add(bet_kind)
                if tip:
                    view.wager_marks.add("tip")
                elif bet_kind == "main":
                    hand = hands.get(target)
                    if hand is None:
                        hand = hands[target] = make_hand(target, seat, target)
                    hand.main = wager
            else:
                replay.on_bet(index, event)
        elif kind is stand:
            hand = hands.get(event.hand)
            if hand is not None and hand.parent is None:
                # _RoundReplay.on_stand, written out for a hand not made by a split
                line = event.line
                decision = _new(Decision)
                decision.kind, decision.target, decision.line, decision.index = (
                    "stand", event.hand, line, index)
                decisions.append(decision)
                hand.stood_line = hand.stood_line or line
                if hand.complete_index is None:  # set_complete
                    hand.complete_index, hand.complete_reason = index, "stood"
            else:
                replay.on_stand(index, event)
        elif kind is hit:
            hits = True
            hand = hands.get(event.hand)
            if (hand is not None and hand.parent is None and hand.complete_index is None
                    and not hand.split_aces):
                # _RoundReplay.on_hit and add_card, written out for the common hit: a hand
                # not made by a split, still open (no late card to note)
                code, line = event.card, event.line
                seen = counts.get(code, 0) + 1  # TableState.count_card
                counts[code] = seen
                card_codes.append(code)
                card_seen.append(seen)
                card_lines.append(line)
                decision = _new(Decision)
                decision.kind, decision.target, decision.line, decision.index = (
                    "hit", event.hand, line, index)
                decisions.append(decision)
                hand.changes += 1  # CountedCards.add, written out
                card = _new(Card)
                card.card, card.line, card.index = code, line, index
                hand.cards.append(card)
                rank = code[0]
                hard = hand.hard = hand.hard + value[rank]
                if rank == "A":
                    hand.has_ace = True
                if hand.has_ace and hard <= 11:
                    hand.total, hand.soft = hard + 10, True
                else:
                    hand.total, hand.soft = hard, False
                if hand.bust_line is None and hand.total > 21:
                    hand.bust_line = line
                    hand.complete_index, hand.complete_reason = index, "over 21"
            else:
                replay.on_hit(index, event)
        elif kind is settle:  # _RoundReplay.on_settle, written out
            wager = wager_index.get((event.target, event.kind, event.tip))
            if wager is None:
                replay.on_settle(index, event)  # the problem, told there
            else:
                settled = _new(Settlement)
                settled.line, settled.index, settled.outcome = event.line, index, event.outcome
                settled.amount, settled.time = event.amount, event.time
                wager.settlements.append(settled)
        else:
            kinds.add(kind)
            handler = handlers(kind)
            if handler is not None:
                handler(replay, index, event)
        if on_step is not None:
            view.deal_end_index = last_deal  # (each step sees the view as it stands)
            on_step(event, view)
    view.deal_end_index = last_deal
    if hits:
        kinds.add(hit)
    replay.finish()
    return view


_SEAT_DIGITS: dict[int, frozenset[str]] = {}
"""Per table size, the second characters of the targets of its seats (`s1` to `s7`)."""


def _seat_digits(seats: int) -> frozenset[str]:
    digits = _SEAT_DIGITS.get(seats)
    if digits is None:
        digits = _SEAT_DIGITS[seats] = frozenset(str(n) for n in range(10) if n <= seats)
    return digits


class _RoundReplay:
    __slots__ = (
        "counts",
        "hands",
        "seat_digits",
        "seats",
        "seats_reported",
        "state",
        "view",
        "wager_index",
    )

    # Made by replay_round alone, in place (no __init__): state, view, wager_index (a
    # wager by its target, kind and tip), seats_reported, seats (the table's count),
    # counts (the state's), hands (the view's), seat_digits (_seat_digits of seats).
    state: TableState
    view: RoundView
    wager_index: dict[tuple[str, str, bool], Wager]
    seats_reported: set[str]
    seats: int
    counts: dict[str, int]
    hands: dict[str, Hand]
    seat_digits: frozenset[str]

    # ---- helpers ----
    def problem(self, line: int, message: str, target: str | None = None) -> None:
        seat = seat_of(target) if target and target != "dealer" else None
        hand = target if target and len(target) > 2 and target != "dealer" else None
        self.view.problems.append(Problem("reference", line, message, seat=seat, hand=hand))

    def count(self, card: str, line: int) -> None:
        counts = self.counts
        seen = counts.get(card, 0) + 1  # TableState.count_card
        counts[card] = seen
        view = self.view
        view.card_codes.append(card)
        view.card_seen.append(seen)
        view.card_lines.append(line)

    def note_seat(self, target: str, line: int) -> None:
        """A seat beyond the table's count is reported once a round; its statements are
        still replayed as recorded, so that nothing false follows from refusing them."""
        if target[1] in self.seat_digits or target == "dealer" or (
                seat_number(target) <= self.seats):
            return
        seat = seat_of(target)
        if seat not in self.seats_reported:
            self.seats_reported.add(seat)
            self.problem(line, f"{target} names seat {seat}, but the table has "
                               f"{self.state.config.seats} seats", target)

    def hand(self, name: str, line: int, statement: str) -> Hand | None:
        hand = self.view.hands.get(name)
        if hand is None:
            self.problem(line, f"`{statement}` names hand {name}, which was neither dealt nor "
                               "wagered on in this round", name)
        return hand

    def new_hand(self, name: str) -> Hand:
        hand = self.hands[name] = make_hand(name, name[:2], name)  # seat_of
        return hand

    @staticmethod
    def is_hand(target: str) -> bool:
        return len(target) > 2 and target != "dealer"

    def complete(self, hand: Hand) -> bool:
        """Complete as bjh-format.md §5 says; a hand at 21 counts once play has moved on."""
        return (hand.complete_index is not None or hand.total >= 21 or hand.misdealt
                or hand.natural or (hand.split_aces and len(hand.cards) >= 2))

    def set_complete(self, hand: Hand, index: int, reason: str) -> None:
        if hand.complete_index is None:
            hand.complete_index, hand.complete_reason = index, reason

    def add_card(self, hand: Hand, card: str, line: int, index: int) -> None:
        if hand.complete_index is not None:
            hand.late_cards = [*hand.late_cards,  # () until the first: most hands have none
                               LateCard(Card(card, line, index), hand.complete_reason or "")]
        elif hand.split_aces and len(hand.cards) >= 2:
            hand.late_cards = [*hand.late_cards, LateCard(Card(card, line, index), "split ace")]
        added = _new(Card)
        added.card, added.line, added.index = card, line, index
        hand.add(added)
        if hand.bust_line is None and hand.total > 21:
            hand.bust_line = line
            self.set_complete(hand, index, "over 21")

    def decide(self, kind: str, target: str, line: int, index: int, hand: Hand | None) -> None:
        if hand is not None and hand.parent is not None and hand.played_before_parent_line is None:
            parent = self.hands.get(hand.parent)
            if parent is not None and not self.complete(parent):
                hand.played_before_parent_line = line
        self.view.decisions.append(Decision(kind, target, line, index))

    # ---- seats and wagers ----
    def on_sit(self, index: int, event: ev.Sit) -> None:
        self.note_seat(event.seat, event.line)
        seats = self.state.seats
        held = seats.get(event.seat)
        if held is not None:  # a named player, or an unnamed one a wager seated (no `leave`)
            who = held.player if held.player is not None else "an unnamed player"
            self.problem(event.line, f"`sit` on {event.seat}, which {who} still occupies (the "
                                     "new player replaces them)", event.seat)
        self.state.seat_player(event.seat, event.player, event.punches)
        self.view.seat_changes.append(SeatChange("sit", event.seat, event.player, event.line,
                                                 index, event.punchcard, event.punches, None))

    def on_leave(self, index: int, event: ev.Leave) -> None:
        seat = self.state.unseat(event.seat)
        if seat is None:
            self.problem(event.line, f"`leave` of {event.seat}, which no player occupies",
                         event.seat)
        recorded = self.state.lights.get(event.seat, 0)
        self.view.seat_changes.append(SeatChange(
            "leave", event.seat, seat.player if seat else None, event.line, index,
            event.punchcard, event.punches, seat.held(recorded) if seat else recorded))

    def on_bet(self, index: int, event: ev.Bet) -> None:
        """(replay_round places the common bet itself, written out.)"""
        target, kind = event.target, event.kind
        wants_hand = kind in ("main", "insurance")
        if target == "dealer" or wants_hand != (len(target) > 2):  # is_hand
            self.problem(event.line, f"a {kind} wager must name a "
                                     f"{'hand' if wants_hand else 'seat'}, not {target}", target)
            return
        if target[1] not in self.seat_digits:
            self.note_seat(target, event.line)
        seat = target[:2]  # seat_of
        seats = self.state.seats
        if seat not in seats:
            self.state.seat_wagerer(seat)
        hands = self.hands
        if kind == "insurance" and (target not in hands or hands[target].main is None):
            self.problem(event.line, f"insurance on {target}, which has no main wager", target)
            return
        view = self.view
        key = (target, kind, event.tip)
        existing = self.wager_index.get(key)
        if existing is not None:
            if view.first_card_index is not None and not existing.after_first_card:
                # chips added after the first card: the wager stays what was placed in time,
                # and the late chips are kept apart for the checks of late wagers
                existing.late_additions = [*existing.late_additions,  # () until the first
                                           (event.amount, event.line)]
                return
            self.problem(event.line, f"a second bet on the {existing.label}, first placed at "
                                     f"line {existing.line}", target)
            existing.amount += event.amount
            return
        # Wager(target, kind, event.tip, event.amount, event.line, index, late), made in place
        wager = self.wager_index[key] = _new(Wager)
        wager.target, wager.kind, wager.tip, wager.amount = target, kind, event.tip, event.amount
        wager.line, wager.index = event.line, index
        wager.after_first_card = view.first_card_index is not None
        wager.initial = True
        wager.settlements, wager.late_additions = [], ()
        wager.expected = wager.expected_burned = None
        wager.seat = seat
        view.wagers.append(wager)
        if kind != "main":
            view.wager_marks.add(kind)
        if event.tip:
            view.wager_marks.add("tip")
        if kind == "main" and not event.tip:
            hand = hands.get(target)
            if hand is None:  # self.new_hand, written out
                hand = hands[target] = make_hand(target, seat, target)
            hand.main = wager

    def on_settle(self, index: int, event: ev.Settle) -> None:
        """(replay_round settles a placed wager itself, written out.)"""
        wager = self.wager_index.get((event.target, event.kind, event.tip))
        if wager is None:
            self.problem(event.line, f"`settle` of a {'tip ' if event.tip else ''}{event.kind} "
                                     f"wager on {event.target} that was not placed",
                         event.target)
            return
        wager.settlements.append(Settlement(event.line, index, event.outcome, event.amount,
                                            event.time))

    # ---- cards ----
    # `deal` is replayed by replay_round itself (the commonest statement)

    def on_hit(self, index: int, event: ev.Hit) -> None:
        """(replay_round replays the common hit itself, written out.)"""
        line, code = event.line, event.card
        counts = self.counts
        seen = counts.get(code, 0) + 1  # self.count, written out
        counts[code] = seen
        view = self.view
        view.card_codes.append(code)
        view.card_seen.append(seen)
        view.card_lines.append(line)
        hand = self.hands.get(event.hand) or self.hand(event.hand, line, "hit")
        if hand is None:
            return
        if hand.parent is None:  # self.decide, written out for a hand not made by a split
            decision = _new(Decision)
            decision.kind, decision.target, decision.line, decision.index = (
                "hit", event.hand, line, index)
            self.view.decisions.append(decision)
        else:
            self.decide("hit", event.hand, line, index, hand)
        self.add_card(hand, code, line, index)

    def on_stand(self, index: int, event: ev.Stand) -> None:
        """(replay_round replays a stand on a hand not made by a split itself.)"""
        line = event.line
        hand = self.hands.get(event.hand) or self.hand(event.hand, line, "stand")
        if hand is None:
            return
        if hand.parent is None:  # self.decide, written out for a hand not made by a split
            decision = _new(Decision)
            decision.kind, decision.target, decision.line, decision.index = (
                "stand", event.hand, line, index)
            self.view.decisions.append(decision)
        else:
            self.decide("stand", event.hand, line, index, hand)
        hand.stood_line = hand.stood_line or line
        if hand.complete_index is None:  # set_complete
            hand.complete_index, hand.complete_reason = index, "stood"

    def on_double(self, index: int, event: ev.Double) -> None:
        self.count(event.card, event.line)
        hand = self.hand(event.hand, event.line, "double")
        if hand is None:
            return
        self.decide("double", event.hand, event.line, index, hand)
        hand.double_cards_before = len(hand.cards)
        hand.doubled += event.amount
        hand.double_line = event.line
        self.add_card(hand, event.card, event.line, index)
        if hand.complete_index == index:
            hand.complete_reason = "doubled"  # a double completes the hand, bust or not
        self.set_complete(hand, index, "doubled")

    def on_split(self, index: int, event: ev.Split) -> None:
        hand = self.hand(event.hand, event.line, "split")
        if hand is None:
            return
        if event.new_hand in self.view.hands or seat_of(event.new_hand) != hand.seat:
            self.problem(event.line, f"`split` of {event.hand} into {event.new_hand}: the new "
                                     "hand must be a new hand of the same seat", event.new_hand)
            return
        self.decide("split", event.hand, event.line, index, hand)
        new = self.new_hand(event.new_hand)
        new.parent, new.root, new.split_line = hand.name, hand.root, event.line
        new.split_from_cards = tuple(hand.card_codes)
        new.switched = hand.switched
        hand.was_split = True
        if len(hand.cards) >= 2:
            new.cards.append(hand.cards.pop(1))
        hand.recount()
        new.recount()
        aces = [c.card[0] for c in hand.cards + new.cards] == ["A", "A"]
        hand.split_aces = new.split_aces = aces
        root = self.view.hands.get(hand.root, hand)
        root.splits_of_root += 1
        wager = Wager(event.new_hand, "main", False, event.amount, event.line, index, True,
                      initial=False)
        self.wager_index[(event.new_hand, "main", False)] = wager
        self.view.wagers.append(wager)
        new.main = wager

    def on_surrender(self, index: int, event: ev.Surrender) -> None:
        hand = self.hand(event.hand, event.line, "surrender")
        if hand is None:
            return
        hand.surrender_after_decision = any(d.target == hand.name for d in self.view.decisions)
        self.decide("surrender", event.hand, event.line, index, hand)
        hand.surrendered_line = event.line
        self.set_complete(hand, index, "surrendered")

    def on_switch(self, index: int, event: ev.Switch) -> None:
        seat = event.seat
        first, second = self.view.hands.get(seat + "h1"), self.view.hands.get(seat + "h2")
        if first is None or second is None or len(first.cards) < 2 or len(second.cards) < 2:
            self.problem(event.line, f"`switch` of {seat}, which does not hold two hands of "
                                     "two cards", seat)
            return
        self.decide("switch", seat, event.line, index, None)
        first.cards[1], second.cards[1] = second.cards[1], first.cards[1]
        first.recount()
        second.recount()
        first.switched = second.switched = True
        self.view.switched_seats.setdefault(seat, event.line)

    def on_trade(self, index: int, event: ev.Trade) -> None:
        self.count(event.card, event.line)
        if event.target == "dealer":
            cards = self.view.dealer.cards
            hand = None
        else:
            hand = self.hand(event.target, event.line, "trade")
            if hand is None:
                return
            cards = hand.cards
        if not cards:
            self.problem(event.line, f"`trade` on {event.target}, which holds no card",
                         event.target)
            return
        codes = [c.card for c in cards]
        held = blackjack.BONUS_CARD in codes
        position = len(codes) - 1 - codes[::-1].index(blackjack.BONUS_CARD) if held else -1
        over = held and blackjack.total(codes)[0] > 21
        gave_up = cards[position].card
        received = Card(event.card, event.line, index)
        cards[position] = received
        if hand is None:
            self.view.dealer.recount()
        else:
            hand.recount()
        self.view.trades.append(Trade(event.target, received, gave_up, held, over))
        if hand is not None and hand.bust_line is not None and not hand.busted:
            hand.bust_line = None  # the recorded cards no longer go over 21
            if hand.complete_reason == "over 21":
                hand.complete_index = hand.complete_reason = None
        elif hand is not None and hand.bust_line is None and hand.busted:
            hand.bust_line = event.line
            self.set_complete(hand, index, "over 21")

    # ---- the dealer ----
    def on_peek(self, index: int, event: ev.Peek) -> None:
        self.view.dealer.peek_line, self.view.dealer.peek_index = event.line, index

    def on_reveal(self, index: int, event: ev.Reveal) -> None:
        self.view.dealer.reveal_line, self.view.dealer.reveal_index = event.line, index

    def on_draw(self, index: int, event: ev.Draw) -> None:
        self.count(event.card, event.line)
        dealer = self.view.dealer
        before, soft = dealer.total, dealer.soft
        # the hands with a wager not complete (self.complete, written out: every hand at
        # every draw)
        waiting = tuple([h.name for h in self.view.hands.values() if h.main is not None and not (
            h.complete_index is not None or h.total >= 21 or h.misdealt or h.natural
            or (h.split_aces and len(h.cards) >= 2))])
        card = _new(Card)  # Card(...) and DealerDraw(...), made in place (see _new)
        card.card, card.line, card.index = event.card, event.line, index
        draw = _new(DealerDraw)
        draw.card, draw.total_before, draw.soft_before, draw.incomplete_hands = (
            card, before, soft, waiting)
        dealer.draws.append(draw)
        dealer.add(card)

    # ---- everything else ----
    def on_light(self, index: int, event: ev.Light) -> None:
        seat = self.state.seats.get(event.seat)
        if seat is None:
            self.problem(event.line, f"`light` on {event.seat}, which no player occupies",
                         event.seat)
            seat = self.state.seats[event.seat] = SeatState(None)
        self.view.lights.append(LightEvent(
            event.seat, event.count, event.line, index, seat.player,
            self.state.lights.get(event.seat, 0),
            None if seat.lit_since_sit else seat.player_start, not seat.lit_since_sit,
            seat.prize_since_light, seat.other_prize_since_light))
        self.state.seat_lit(event.seat, event.count)

    def on_prize(self, index: int, event: ev.Prize) -> None:
        paid = self.state.seats.get(event.seat)
        held = paid.held(self.state.lights.get(event.seat, 0)) if paid else None
        self.view.markers.append(Marker("prize", event.seat, event.line, index, event.amount,
                                        held))
        self.state.prize_paid(event.seat)

    def on_marker(self, index: int, event: ev.Tuck | ev.Discard | ev.Misdeal) -> None:
        kind = type(event).__name__.lower()
        if isinstance(event, ev.Misdeal):
            target = self.misdeal_target(event)
        elif self.hand(event.hand, event.line, kind) is None:
            return
        else:
            target = event.hand
        self.view.markers.append(Marker(kind, target, event.line, index))
        if kind == "misdeal":
            for hand in self.view.hands.values():
                if target in ("dealer", hand.seat):
                    hand.misdealt = True

    def misdeal_target(self, event: ev.Misdeal) -> str:
        """The seat (or `dealer`) a misdeal is declared for. The format names a seat; a
        hand is reported and read as a misdeal of its seat, the closest the record comes."""
        target = event.target
        self.note_seat(target, event.line)
        if self.is_hand(target):
            seat = seat_of(target)
            self.problem(event.line, f"`misdeal {target}` names a hand, but a misdeal is "
                                     f"declared for a seat or the dealer: read as a misdeal "
                                     f"of {seat}", target)
            return seat
        return target

    def on_burn(self, index: int, event: ev.Burn) -> None:
        self.count(event.card, event.line)

    def on_table_event(self, index: int, event: ev.Event) -> None:
        self.state.apply(event)
        if type(event) is ev.Shuffle:
            self.view.shuffled_in_round = True
            # Running out of cards (bjh-format.md §5): the cards on the layout are not in
            # the shuffled stack, so counting starts again from them.
            for hand in self.view.hands.values():
                for card in hand.cards:
                    self.state.count_card(card.card)
            for card in self.view.dealer.cards:
                self.state.count_card(card.card)

    def on_unreadable(self, index: int, event: ev.Unreadable) -> None:
        self.view.unreadable = True
        self.view.problems.append(Problem("syntax", event.line, event.message,
                                          column=event.column))

    def finish(self) -> None:
        view = self.view
        dealer = view.dealer
        dealer.turn_index = self._dealer_turn()
        moment = dealer.turn_index if dealer.turn_index is not None else len(view.events)
        live_at = self._live_at
        for wager in view.wagers:  # any wager live when the dealer's turn began
            if live_at(wager, moment):
                view.dealer_had_to_play = True
                break
        expect_all(view)

    def _dealer_turn(self) -> int | None:
        """Where the dealer's turn began, also in a record that shows no `reveal`."""
        dealer = self.view.dealer
        reveal = dealer.reveal_index
        if dealer.draws:
            draw = dealer.draws[0].card.index
            return draw if reveal is None else min(reveal, draw)
        if reveal is not None:
            return reveal
        before = [i for i in (self.view.decisions[-1].index if self.view.decisions else None,
                              dealer.peek_index, self.view.deal_end_index) if i is not None]
        return max(before) if before and dealer.cards else None  # the turn follows it

    def _live_at(self, wager: Wager, moment: int) -> bool:
        """A wager that still depends on the dealer's hand at `moment` (bjh-format.md §5)."""
        settlements = wager.settlements  # wager.settlement, written out
        if settlements and settlements[0].index < moment:
            return False
        if wager.kind == "db21":  # a dealer's tip on the bust too: 30.10(11) says any wager
            # (a misdeal, of the seat or of the dealer, returns it: nothing to play out for)
            misdealt = bool(self.view.markers) and any(
                m.kind == "misdeal" and m.target in ("dealer", wager.seat)
                for m in self.view.markers)
            return self.view.game == "db21" and not wager.after_first_card and not misdealt
        if wager.kind != "main" or wager.tip:
            return False
        hand = self.view.hands.get(wager.target)
        return hand is not None and bool(hand.cards) and not (
            hand.total > 21 or hand.natural or hand.misdealt  # hand.busted, written out
            or hand.surrendered_line is not None)


# The statements replay_round's loop does not take itself (deal, bet, stand, hit and settle
# are taken there, and handed to their `on_` methods when they are not the common case).
_HANDLERS: dict[type, Callable[[_RoundReplay, int, ev.Event], None]] = {
    ev.Sit: _RoundReplay.on_sit, ev.Leave: _RoundReplay.on_leave,
    ev.Double: _RoundReplay.on_double,
    ev.Split: _RoundReplay.on_split, ev.Surrender: _RoundReplay.on_surrender,
    ev.Switch: _RoundReplay.on_switch, ev.Trade: _RoundReplay.on_trade,
    ev.Peek: _RoundReplay.on_peek, ev.Reveal: _RoundReplay.on_reveal,
    ev.Draw: _RoundReplay.on_draw, ev.Light: _RoundReplay.on_light,
    ev.Prize: _RoundReplay.on_prize, ev.Tuck: _RoundReplay.on_marker,
    ev.Discard: _RoundReplay.on_marker, ev.Misdeal: _RoundReplay.on_marker,
    ev.Burn: _RoundReplay.on_burn, ev.CutCard: _RoundReplay.on_table_event,
    ev.Shuffle: _RoundReplay.on_table_event, ev.Cut: _RoundReplay.on_table_event,
    ev.Unreadable: _RoundReplay.on_unreadable,
}
