"""Fault injectors, keyed by the citation of the check that must find them.

An injector plants one fault in one round. It either bends the play through a hook that
the round builder (game.py) consults at the right moment (a double for too much, a dealer
who stops early), or edits the finished round (a wrong payout, a statement moved out of
order). Either way it marks the statement that shows the fault, and the rest of the round
stays consistent with it: settlements are made on the cards as dealt, so one fault gives
exactly one finding, under its own citation (rule-catalog.md: "one fault, one finding").

To cover a new check, write an `Injector` subclass with its `citation` and decorate it
with `@injector`; several variants may share a citation.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from itertools import pairwise
from typing import TYPE_CHECKING, ClassVar

from auditor.simulate.cards import BONUS_CARD, VALUE, total
from auditor.simulate.game import (
    IMPOSSIBLE_TIME,
    LADIES,
    SUPER_MATCH,
    Hand,
    RoundBuilder,
    SeatPlay,
    Stmt,
    Wager,
    db21_odds,
    ladies_kind,
    money,
    root_of,
    super_match_kind,
)

if TYPE_CHECKING:
    from auditor.simulate.table import Player, Session, TableSpec

ALL_GAMES = frozenset({"standard", "switch", "db21", "tensticks", "ladies"})
FILE_LEVEL = frozenset({"record:header"})  # planted in the header, see table.Session.header


class Injector:
    """No fault: every hook leaves the play alone. Subclasses override what they need."""

    citation: ClassVar[str] = ""
    games: ClassVar[frozenset[str]] = ALL_GAMES

    def suits(self, spec: TableSpec) -> bool:
        """Whether the table's rules allow this fault at all (e.g. surrender offered)."""
        return True

    # ---- hooks consulted while the round is dealt (return None/False: no deviation) ----
    def extra_bettors(self, builder: RoundBuilder, players: dict[int, Player]) -> set[int]:
        return set()

    def main_amount(self, builder: RoundBuilder, seat: SeatPlay, amount: int) -> int | None:
        return None

    def one_hand(self, builder: RoundBuilder, seat: SeatPlay) -> bool:
        return False

    def second_hand_amount(self, builder: RoundBuilder, seat: SeatPlay,
                           amount: int) -> int | None:
        return None

    def side_amount(self, builder: RoundBuilder, seat: SeatPlay, amount: int) -> int | None:
        return None

    def force_misdeal(self, builder: RoundBuilder) -> bool:
        return False

    def force_dealer_misdeal(self, builder: RoundBuilder) -> bool:
        return False

    def extra_card_played_on(self, builder: RoundBuilder) -> bool:
        return False

    def allows_misdeals(self) -> bool:
        """Whether the round may have lawful misdeals of its own: only a round with no
        planted fault (an edit could otherwise land on a returned wager)."""
        return type(self) is Injector

    def insure_without_ace(self, builder: RoundBuilder) -> bool:
        return False

    def steer_switch(self, builder: RoundBuilder, seat: SeatPlay) -> bool | None:
        return None

    def hit_after_stand(self, builder: RoundBuilder, hand: Hand) -> bool:
        return False

    def hit_split_ace(self, builder: RoundBuilder, hand: Hand) -> bool:
        return False

    def hit_after_double(self, builder: RoundBuilder, hand: Hand) -> bool:
        return False

    # Ten sticks 21
    def trade_busting(self, builder: RoundBuilder, hand: Hand) -> bool:
        return False

    def trade_other_card(self, builder: RoundBuilder, hand: Hand) -> bool:
        return False

    def trade_anyway(self, builder: RoundBuilder, hand: Hand) -> bool:
        return False

    def skip_light(self, builder: RoundBuilder, seat: SeatPlay) -> bool:
        return False

    def unearned_light(self, builder: RoundBuilder, seat: SeatPlay) -> bool:
        return False

    def light_count(self, builder: RoundBuilder, seat: SeatPlay, count: int) -> int | None:
        return None

    def prize(self, builder: RoundBuilder, seat: SeatPlay, lights: int) -> str | None:
        """`withheld` (no prize at the required count) or `early` (a prize before it)."""
        return None

    def dealer_trade(self, builder: RoundBuilder) -> bool:
        return False

    def punches(self, builder: RoundBuilder, lights: int) -> int | None:
        return None

    def wrong_hand_in(self, builder: RoundBuilder) -> bool:
        return False

    def hand_in_punches(self, builder: RoundBuilder, punched: int) -> int | None:
        return None

    def hand_in_again(self, builder: RoundBuilder) -> bool:
        return False

    def insurance(self, builder: RoundBuilder, hand: Hand) -> int | None:
        return None

    def decision(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        return None

    def steer(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        """A lawful player choice that sets the stage for the fault (not itself a fault)."""
        return None

    def double_amount(self, builder: RoundBuilder, hand: Hand) -> int | None:
        return None

    def split_amount(self, builder: RoundBuilder, hand: Hand) -> int | None:
        return None

    def play_new_hand_first(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand,
                            new: Hand) -> bool:
        return False

    def dealer_stop(self, builder: RoundBuilder) -> bool:
        return False

    def dealer_extra(self, builder: RoundBuilder) -> bool:
        return False

    def skip_reshuffle(self, session: Session) -> bool:
        return False

    def omit_cut(self, session: Session) -> bool:
        return False

    def burn_between_rounds(self, session: Session) -> bool:
        return False

    # ---- after the round is dealt ----
    def edit(self, builder: RoundBuilder) -> bool:
        """Change the finished round; True if the fault was planted (and marked)."""
        return False


NO_FAULT = Injector()
INJECTORS: dict[str, list[type[Injector]]] = {}


def injector(cls: type[Injector]) -> type[Injector]:
    INJECTORS.setdefault(cls.citation, []).append(cls)
    return cls


def clause_words(name: str) -> str:
    """An injector's name as words: MainWagerUnderMinimum -> main wager under minimum."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).lower()


class InjectorTable:
    """The injectors for the checks the auditor has, in the order a faulty round tries them."""

    def __init__(self) -> None:
        from auditor import checks as _checks  # noqa: F401  (registers every check)
        from auditor.checks.base import registry

        # A check held to a file outside the record (--approved) has no fault to plant.
        self.checks = {c: check for c, check in registry().items() if not check.outside_file}

    def citations(self, game: str) -> list[str]:
        return [c for c, check in self.checks.items()
                if check.applies_to(game) and c not in FILE_LEVEL
                and any(game in v.games for v in INJECTORS.get(c, ()))]

    def missing(self, game: str) -> list[str]:
        """Checks of the game that no injector covers."""
        return [c for c, check in self.checks.items() if check.applies_to(game)
                and c not in FILE_LEVEL
                and not any(game in v.games for v in INJECTORS.get(c, ()))]

    def candidates(self, session: Session, rng: random.Random) -> Iterator[Injector]:
        """The least planted citations first, so that every check gets its faults."""
        spec = session.spec
        # The least planted clause first (then the least planted citation): a fault with a
        # rare occasion (the bonus card dealt, a split) is planted when the occasion comes.
        variants = [(session.clause_count[v.__name__], session.planted_count[c], rng.random(), v)
                    for c in self.citations(spec.game) for v in INJECTORS[c]
                    if spec.game in v.games]
        for *_, variant in sorted(variants, key=lambda entry: entry[:3]):
            made = variant()
            if made.suits(spec):
                yield made


# ---- helpers for edits ----

def personal_hands(builder: RoundBuilder) -> list[Hand]:
    return [h for s in builder.seats for h in s.hands if h.wager is not None]


def rewrite_settle(stmt: Stmt, wager: Wager, outcome: str, amount: int) -> None:
    words = [wager.target, wager.kind, outcome, money(amount)]
    if wager.tip:
        words.append("tip")
    stmt.words = tuple(words)


def insert_after(builder: RoundBuilder, stmt: Stmt, anchor: Stmt) -> None:
    """Put a statement not yet in the round right after `anchor`."""
    builder.stmts.insert(builder.stmts.index(anchor) + 1, stmt)


def move_after(builder: RoundBuilder, stmt: Stmt, anchor: Stmt) -> None:
    builder.stmts.remove(stmt)
    insert_after(builder, stmt, anchor)


def insert_before_end(builder: RoundBuilder, stmt: Stmt) -> None:
    builder.stmts.insert(len(builder.stmts) - 1, stmt)


def live_player_hand(builder: RoundBuilder) -> bool:
    return any(not (h.busted or h.natural or h.surrendered) for h in personal_hands(builder))


def original(hand: Hand) -> bool:
    return hand.parent is None and not hand.was_split


# ---- record: problems of the record itself ----

@injector
class UnreadableLine(Injector):
    citation = "record:syntax"

    def edit(self, builder: RoundBuilder) -> bool:
        stmt = Stmt("note", ('"card reader fault',))  # the closing quote is missing
        insert_before_end(builder, stmt)
        builder.mark(stmt, "a note with no closing quote")
        forget_cards_of(builder)
        return True


def forget_cards_of(builder: RoundBuilder) -> None:
    """The auditor does not judge a round with an unreadable line, so the punched cards
    of its `leave` and `sit` statements are not on its books: they must not come back as
    the ground of a planted punched-card fault."""
    session = builder.session
    cards = {w.split("=", 1)[1] for s in builder.stmts if s.kind in ("leave", "sit")
             for w in s.words if w.startswith("punchcard=")}
    session.punched = [p for p in session.punched if p[1] not in cards]
    session.handed_in = [h for h in session.handed_in if h[0] not in cards]


@injector
class TimeNotOfTheDay(Injector):
    citation = "record:syntax"

    def edit(self, builder: RoundBuilder) -> bool:
        stmt = Stmt("note", ('"clock reset"',), meta=IMPOSSIBLE_TIME)
        insert_before_end(builder, stmt)
        builder.mark(stmt, "a time stamp of hour 24")
        forget_cards_of(builder)
        return True


@injector
class UnknownHand(Injector):
    citation = "record:reference"

    def edit(self, builder: RoundBuilder) -> bool:
        seats = [s for s in builder.seats if s.hands]
        seat = builder.rng.choice(seats)
        stmt = Stmt("stand", (f"{seat.name}h9",))
        insert_before_end(builder, stmt)
        builder.mark(stmt, f"a stand of {seat.name}h9, a hand never dealt")
        return True


@injector
class UnclosedRound(Injector):
    citation = "record:reference"

    def edit(self, builder: RoundBuilder) -> bool:
        session = builder.session
        # a cut card, shuffle, cut or burn before the next round would fall inside this one
        if (session.reshuffle_due or session.shoe.cut_card_next()
                or builder.stmts[-1].kind != "end"):
            return False
        end = builder.stmts[-1]
        end.meta = "left out"  # (table.Session.commit writes no `end`; the finding stands
        builder.mark(end, "a round not closed by `end`")  # on the `round` line)
        return True


@injector
class CardTooOften(Injector):
    citation = "record:card-count"

    def edit(self, builder: RoundBuilder) -> bool:
        session = builder.session
        seen = {c: n for c, n in session.seen.items() if c != BONUS_CARD}
        if not seen or any(s.kind == "shuffle" for s in builder.stmts):
            return False  # (after a shuffle in the round the layout's cards count too)
        most = max(seen.values())
        card = builder.rng.choice(sorted(c for c, n in seen.items() if n == most))
        stmt = None
        for _ in range(session.spec.decks - most + 1):
            stmt = Stmt("burn", (card,))
            insert_before_end(builder, stmt)
        builder.mark(stmt, f"{card} burned once more than the shoe holds it")
        session.seen[card] = session.spec.decks + 1
        session.reshuffle_due = True  # the next round must not deal that card again
        return True


@injector
class CardBurnedBetweenRoundsTooOften(Injector):
    """A card burned between rounds that the shoe holds no more (the auditor counts it in
    the file, not in a round: the fault has no round). The cards are shuffled and cut
    right after, so that the next round deals nothing over the count."""

    citation = "record:card-count"

    def burn_between_rounds(self, session: Session) -> bool:
        # not after a round left unclosed (the burn would fall inside it), nor with a
        # reshuffle due (a shuffle in the last round, or burns planted in it, would leave
        # the counts of `session.seen` short of the auditor's)
        return not session.unclosed and not session.reshuffle_due


@injector
class WagerNeverSettled(Injector):
    citation = "record:unsettled"

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = [h.wager for h in personal_hands(builder) if h.wager.settle is not None]
        if not wagers:
            return False
        last = max(wagers, key=lambda w: builder.stmts.index(w.settle))
        builder.stmts.remove(last.settle)
        builder.mark(builder.stmts[-1], f"the {last.kind} wager on {last.target} was never "
                                        "settled")
        return True


@injector
class WagerSettledTwice(Injector):
    citation = "record:unsettled"

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = [h.wager for h in personal_hands(builder) if h.wager.settle is not None]
        if not wagers:
            return False
        wager = builder.rng.choice(wagers)
        again = Stmt(wager.settle.kind, wager.settle.words)
        insert_after(builder, again, wager.settle)
        builder.mark(again, f"the {wager.kind} wager on {wager.target} settled a second time")
        return True


@injector
class SettleOfWagerNeverPlaced(Injector):
    citation = "record:reference"

    def edit(self, builder: RoundBuilder) -> bool:
        insured = {w.target for s in builder.seats for w in s.insurance}
        hands = [h for h in personal_hands(builder) if h.name not in insured]
        if not hands:
            return False
        hand = builder.rng.choice(hands)
        stmt = Stmt("settle", (hand.name, "insurance", "lose", money(500)))
        insert_before_end(builder, stmt)
        builder.mark(stmt, f"an insurance wager on {hand.name} settled, never placed")
        return True


@injector
class SitOnTakenSeat(Injector):
    citation = "record:reference"
    # (Ten sticks: a player sat again starts a new light count, a second fault)
    games = ALL_GAMES - {"tensticks"}

    def edit(self, builder: RoundBuilder) -> bool:
        session = builder.session
        sat = {s.words[0] for s in builder.stmts if s.kind == "sit"}
        seats = [s for s in builder.seats if s.hands and s.seat in session.players
                 and s.name not in sat]
        first_bet = next((s for s in builder.stmts if s.kind == "bet"), None)
        if not seats or first_bet is None:
            return False
        seat = builder.rng.choice(seats)
        player = session.players[seat.seat].player_id  # the same player, seated again
        stmt = Stmt("sit", (seat.name, f"player={player}"), 3)
        builder.stmts.insert(builder.stmts.index(first_bet), stmt)
        builder.mark(stmt, f"a `sit` on {seat.name}, which {player} occupies")
        return True


# ---- 20:18:15 standard rules ----

@injector
class LateMainWager(Injector):
    citation = "20:18:15:03"

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = [s.hands[0].wager for s in builder.seats if s.hands]
        wager = builder.rng.choice(wagers)
        move_after(builder, wager.bet, builder.first_deal)
        builder.mark(wager.bet, f"the main wager on {wager.target} placed after the first card")
        return True


@injector
class MainWagerOverLimit(Injector):
    citation = "20:18:15:03"
    # (at Blackjack Switch the seat's two wagers, equal as 30.09(2) wants: two findings)

    def main_amount(self, builder: RoundBuilder, seat: SeatPlay, amount: int) -> int | None:
        return None if builder.applied else builder.spec.maximum + 500


@injector
class MainWagerUnderMinimum(Injector):
    citation = "20:18:15:03"

    def suits(self, spec: TableSpec) -> bool:
        return spec.minimum > 1

    def main_amount(self, builder: RoundBuilder, seat: SeatPlay, amount: int) -> int | None:
        return None if builder.applied else builder.spec.minimum // 2


def side_limits_posted(spec: TableSpec) -> bool:
    options = dict(spec.options)
    return "sidebet.min" in options and "sidebet.max" in options


@injector
class SideWagerOverLimit(Injector):
    citation = "20:18:15:03"
    games = frozenset({"switch", "db21", "ladies"})

    def suits(self, spec: TableSpec) -> bool:
        return side_limits_posted(spec)

    def side_amount(self, builder: RoundBuilder, seat: SeatPlay, amount: int) -> int | None:
        return None if builder.applied else builder.spec.side_limits[1] + 500


@injector
class SideWagerUnderMinimum(Injector):
    citation = "20:18:15:03"
    games = frozenset({"switch", "db21", "ladies"})

    def suits(self, spec: TableSpec) -> bool:
        return side_limits_posted(spec) and spec.side_limits[0] > 1

    def side_amount(self, builder: RoundBuilder, seat: SeatPlay, amount: int) -> int | None:
        return None if builder.applied else builder.spec.side_limits[0] // 2


@injector
class LateSuperMatch(Injector):
    citation = "20:18:15:03"
    games = frozenset({"switch"})

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = [s.super_match for s in builder.seats if s.super_match is not None]
        if not wagers:
            return False
        wager = builder.rng.choice(wagers)
        move_after(builder, wager.bet, builder.first_deal)
        builder.mark(wager.bet, f"the super match wager on {wager.target} placed after the "
                                "first card")
        return True


@injector
class WrongMainPayout(Injector):
    citation = "20:18:15:06"
    games = ALL_GAMES - {"switch"}  # switch has its own rule, 30.09(13)

    def edit(self, builder: RoundBuilder) -> bool:
        hands = [h for h in personal_hands(builder) if h.wager.settle is not None
                 and not h.busted and not h.surrendered]
        if not hands:
            return False
        hand = builder.rng.choice(hands)
        wager = hand.wager
        if wager.outcome == "win":
            paid = wager.paid + 500 if wager.paid <= 500 or builder.rng.random() < 0.5 \
                else wager.paid - 500
            rewrite_settle(wager.settle, wager, "win", paid)
        elif wager.outcome == "lose":
            # paid, not collected (a push of part of a doubled stake is a loss of the rest:
            # against a dealer blackjack, `push 50` on a 100 stake is the right `lose 50`)
            rewrite_settle(wager.settle, wager, "win", wager.paid)
        else:
            rewrite_settle(wager.settle, wager, "lose", wager.paid)
        builder.mark(wager.settle, f"{wager.target} settled {wager.settle.text} instead of "
                                   f"{wager.outcome} {money(wager.paid)}")
        return True


@injector
class NoReshuffleAfterCutCard(Injector):
    citation = "20:18:15:10"

    def skip_reshuffle(self, session: Session) -> bool:
        return True


@injector
class InsuranceOverHalf(Injector):
    citation = "20:18:15:23"

    def insurance(self, builder: RoundBuilder, hand: Hand) -> int | None:
        if builder.applied or hand.wager.amount < 200:
            return None
        return hand.wager.amount


@injector
class InsuranceWrongPayout(Injector):
    citation = "20:18:15:23"

    def insurance(self, builder: RoundBuilder, hand: Hand) -> int | None:
        # with an ace up, a player who insures lawfully (few do): its settlement goes wrong
        return hand.wager.amount // 2 if hand.wager.amount >= 2 else None

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = [w for s in builder.seats for w in s.insurance if w.settle is not None]
        if not wagers:
            return False
        wager = builder.rng.choice(wagers)
        if wager.outcome == "win":
            rewrite_settle(wager.settle, wager, "win", wager.amount)  # 1 to 1, not 2 to 1
        else:
            rewrite_settle(wager.settle, wager, "push", wager.amount)
        builder.mark(wager.settle, f"insurance on {wager.target} settled wrongly")
        return True


@injector
class DoubleForMore(Injector):
    citation = "20:18:15:24"

    def double_amount(self, builder: RoundBuilder, hand: Hand) -> int | None:
        return None if builder.applied else hand.wager.amount * 2


@injector
class DoubleAfterHit(Injector):
    citation = "20:18:15:24"

    def decision(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        if (builder.applied or not original(hand) or len(hand.cards) != 3
                or hand.total > 11):
            return None
        return "double"


@injector
class CardAfterDouble(Injector):
    citation = "20:18:15:24"
    # (Switch: 30.09(14) judges a card after a completed hand; Ten sticks: a round whose
    # double or late card is the bonus card, traded or lit, is dealt again: game.double)
    games = ALL_GAMES - {"switch"}

    def hit_after_double(self, builder: RoundBuilder, hand: Hand) -> bool:
        return not builder.applied


@injector
class DoubleOutsideOption(Injector):
    citation = "20:18:15:24"

    def suits(self, spec: TableSpec) -> bool:
        return spec.rules.double != "any"

    def decision(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        if (builder.applied or not original(hand) or len(hand.cards) != 2
                or hand.decisions or hand.natural or hand.total in (9, 10, 11)):
            return None
        return "double"


@injector
class DoubleAfterSplitWithoutDas(Injector):
    citation = "20:18:15:24"

    def suits(self, spec: TableSpec) -> bool:
        return spec.rules.das == "no"

    def steer(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        # a lawful split of a pair: the hands it makes are where the double goes wrong
        if builder.applied or not builder.can_split(hand, seat):
            return None
        return "split"

    def decision(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        if (builder.applied or len(hand.cards) != 2 or hand.split_aces or hand.decisions
                or not (hand.parent is not None or hand.was_split)
                or hand.total not in (10, 11)):  # a total every double option allows
            return None
        return "double"


@injector
class SplitAceDrawsTwice(Injector):
    citation = "20:18:15:25"

    def steer(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        if (builder.applied or [card[0] for card in hand.cards] != ["A", "A"]
                or not builder.can_split(hand, seat)):
            return None
        return "split"

    def hit_split_ace(self, builder: RoundBuilder, hand: Hand) -> bool:
        return not builder.applied


@injector
class MoreSplitsThanAllowed(Injector):
    citation = "20:18:15:25"

    def steer(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        if not builder.applied and builder.can_split(hand, seat):
            return "split"  # every pair split, lawfully, up to the limit
        return None

    def decision(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        if builder.applied or not builder.is_pair(hand):
            return None
        root = root_of(hand)
        at_limit = root.splits_of_root == builder.split_limit
        return "split" if at_limit and root.splits_of_root and not root.odd_split else None


@injector
class SplitUnequalCards(Injector):
    citation = "20:18:15:25"

    def decision(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        cards = hand.cards
        if (builder.applied or not original(hand) or len(cards) != 2 or hand.decisions
                or hand.natural or VALUE[cards[0][0]] == VALUE[cards[1][0]]):
            return None
        return "split"


@injector
class SplitWagerUnequal(Injector):
    citation = "20:18:15:25"
    games = ALL_GAMES - {"switch"}  # switch: 20:18:15:30.09(11)

    def split_amount(self, builder: RoundBuilder, hand: Hand) -> int | None:
        return None if builder.applied else hand.wager.amount + 500


@injector
class SecondSplitHandFirst(Injector):
    citation = "20:18:15:25"

    def play_new_hand_first(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand,
                            new: Hand) -> bool:
        return not builder.applied and not hand.split_aces and hand.total < 21


@injector
class DealerStopsShort(Injector):
    citation = "20:18:15:26"

    def dealer_stop(self, builder: RoundBuilder) -> bool:
        return (not builder.applied and builder.dealer_had_to_play
                and live_player_hand(builder))


@injector
class DealerDrawsOnStandingTotal(Injector):
    citation = "20:18:15:28"

    def dealer_extra(self, builder: RoundBuilder) -> bool:
        # A hard total only: a card drawn to a soft 21 can make a hard 16, and the stop
        # on it would be reported under 20:18:15:26 as well (reported to the lead).
        count, soft = total(builder.dealer)
        if builder.game == "tensticks" and BONUS_CARD in builder.dealer:
            return False  # a draw over the dealer's bonus card is 30.02(9)'s
        return (not builder.applied and not builder.dealer_natural and not soft
                and 17 <= count <= 21)


@injector
class SurrenderAfterHit(Injector):
    citation = "20:18:15:30"

    def suits(self, spec: TableSpec) -> bool:
        return spec.rules.surrender == "late"

    def decision(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        if builder.applied or not original(hand) or len(hand.cards) < 3:
            return None
        return "surrender"


@injector
class SurrenderNotOffered(Injector):
    citation = "20:18:15:30"

    def suits(self, spec: TableSpec) -> bool:
        return spec.rules.surrender == "no"

    def decision(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        if builder.applied or not original(hand) or hand.decisions or len(hand.cards) != 2:
            return None
        return "surrender"


@injector
class SurrenderCollectsAll(Injector):
    citation = "20:18:15:30"

    def suits(self, spec: TableSpec) -> bool:
        return spec.rules.surrender == "late"

    def steer(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        # a lawful surrender, whose settlement then goes wrong
        if builder.applied or not builder.can_surrender(hand) or hand.wager.amount < 2:
            return None
        return "surrender"

    def edit(self, builder: RoundBuilder) -> bool:
        hands = [h for h in personal_hands(builder) if h.surrendered and h.wager.settle]
        if not hands:
            return False
        hand = builder.rng.choice(hands)
        wager = hand.wager
        rewrite_settle(wager.settle, wager, "lose", wager.amount)
        builder.mark(wager.settle, f"the surrender of {hand.name} collected the whole "
                                   f"{money(wager.amount)}, not half")
        return True


# ---- 20:18:15:30.10 Dealer Bust 21 ----

DB21 = frozenset({"db21"})


def settled_db21(builder: RoundBuilder) -> list[Wager]:
    return [s.db21 for s in builder.seats if s.db21 is not None and s.db21.settle is not None]


@injector
class Db21WithoutMainWager(Injector):
    citation = "20:18:15:30.10(2)"
    games = DB21

    def extra_bettors(self, builder: RoundBuilder, players: dict[int, Player]) -> set[int]:
        if len(players) < 2:
            return set()
        number = builder.rng.choice(sorted(players))
        seat = SeatPlay(number, players[number])
        seat.db21 = builder.bet(seat.name, "db21", builder.spec.side_limits[0])
        builder.mark(seat.db21.bet, f"a DB21 wager on {seat.name} with no blackjack wager")
        builder.forced_seats[number] = seat
        return {number}


@injector
class LateDb21Wager(Injector):
    citation = "20:18:15:30.10(4)"
    games = DB21

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = [s.db21 for s in builder.seats if s.db21 is not None]
        if not wagers:
            return False
        wager = builder.rng.choice(wagers)
        move_after(builder, wager.bet, builder.first_deal)
        builder.mark(wager.bet, f"the DB21 wager on {wager.target} placed after the first card "
                                "and settled as a wager")
        return True


@injector
class Db21WrongOutcome(Injector):
    citation = "20:18:15:30.10(5)"
    games = DB21

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = settled_db21(builder)
        if not wagers:
            return False
        wager = builder.rng.choice(wagers)
        if wager.outcome == "win":
            rewrite_settle(wager.settle, wager, "lose", wager.amount)
        else:
            odds = db21_odds(builder.rules.db21_paytable, builder.up())
            rewrite_settle(wager.settle, wager, "win", wager.amount * odds)
        builder.mark(wager.settle, f"the DB21 wager on {wager.target} settled the wrong way")
        return True


@injector
class BustedHandDiscarded(Injector):
    citation = "20:18:15:30.10(8)"
    games = DB21

    def edit(self, builder: RoundBuilder) -> bool:
        tucks = [s for s in builder.stmts if s.kind == "tuck"]
        if not tucks:
            return False
        stmt = builder.rng.choice(tucks)
        stmt.kind = "discard"
        builder.mark(stmt, f"{stmt.words[0]} discarded instead of tucked")
        return True


def remaining_settles(builder: RoundBuilder) -> list[Stmt]:
    """Settlements of the players' main and DB21 wagers after the dealer's hand was
    complete, in order (tips are the dealer's wagers: (9) and (10) do not order them)."""
    return [s for s in builder.stmts if s.kind == "settle" and s.meta.remaining
            and s.meta.kind in ("main", "db21") and not s.meta.tip]


@injector
class Db21CollectedLate(Injector):
    citation = "20:18:15:30.10(9)"
    games = DB21

    def edit(self, builder: RoundBuilder) -> bool:
        if total(builder.dealer)[0] > 21:
            return False
        settles = remaining_settles(builder)
        mains = [s for s in settles if s.meta.kind == "main"]
        if not mains:
            return False
        first = mains[0]
        earlier = [s for s in settles if s.meta.kind == "db21"
                   and builder.stmts.index(s) < builder.stmts.index(first)]
        if not earlier:
            return False
        stmt = builder.rng.choice(earlier)
        move_after(builder, stmt, first)
        builder.mark(stmt, f"the DB21 wager on {stmt.meta.target} collected after a remaining "
                           "blackjack wager")
        return True


@injector
class Db21OutOfOrder(Injector):
    citation = "20:18:15:30.10(10)"
    games = DB21

    def edit(self, builder: RoundBuilder) -> bool:
        if total(builder.dealer)[0] <= 21:
            return False
        settles = remaining_settles(builder)
        pairs = [(a, b) for a, b in pairwise(settles)
                 if a.meta.target[:2] != b.meta.target[:2]
                 or (a.meta.kind, b.meta.kind) == ("main", "db21")]
        if not pairs:
            return False
        first, second = builder.rng.choice(pairs)
        move_after(builder, first, second)
        builder.mark(first, f"the {first.meta.kind} wager on {first.meta.target} resolved out "
                            "of counter-clockwise order")
        return True


@injector
class Db21DealerStops(Injector):
    citation = "20:18:15:30.10(11)"
    games = DB21

    def steer(self, builder: RoundBuilder, seat: SeatPlay, hand: Hand) -> str | None:
        # Players may hit any total: here every one of them does, so that all may bust.
        if any(s.db21 is not None and s.hands for s in builder.seats):
            return "hit"
        return None

    def dealer_stop(self, builder: RoundBuilder) -> bool:
        hands = personal_hands(builder)
        return (not builder.applied and bool(hands) and all(h.busted for h in hands)
                and any(s.db21 is not None and s.hands for s in builder.seats))


@injector
class Db21WrongOdds(Injector):
    citation = "20:18:15:30.10(12)"
    games = DB21

    def suits(self, spec: TableSpec) -> bool:
        return "db21.paytable" in dict(spec.options)  # (no table declared: not judged)

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = [w for w in settled_db21(builder) if w.outcome == "win"]
        if not wagers:
            return False
        wager = builder.rng.choice(wagers)
        rewrite_settle(wager.settle, wager, "win", wager.paid + wager.amount)
        builder.mark(wager.settle, f"the DB21 win on {wager.target} paid one unit too many")
        return True


# ---- 20:18:15:30.04 Lucky Ladies blackjack ----

LADIES_GAME = frozenset({"ladies"})


def settled_ladies(builder: RoundBuilder) -> list[Wager]:
    """Lucky Ladies wagers taken or paid (a misdeal's void is not)."""
    return [w for s in builder.seats for w in s.ladies
            if w.settle is not None and w.outcome in ("win", "lose")]


def ladies_declared(spec: TableSpec) -> bool:
    return "ladies.paytable" in dict(spec.options)  # (no table declared: odds not judged)


@injector
class LadiesWithoutMainWager(Injector):
    citation = "20:18:15:30.04(2)"
    games = LADIES_GAME

    def extra_bettors(self, builder: RoundBuilder, players: dict[int, Player]) -> set[int]:
        if len(players) < 2:
            return set()
        number = builder.rng.choice(sorted(players))
        seat = SeatPlay(number, players[number])
        seat.ladies.append(builder.bet(seat.name, "ladies", builder.spec.side_limits[0]))
        builder.mark(seat.ladies[0].bet, f"a Lucky Ladies wager on {seat.name} with no "
                                         "blackjack wager")
        builder.forced_seats[number] = seat
        return {number}


@injector
class LateLadiesWager(Injector):
    citation = "20:18:15:30.04(2)"
    games = LADIES_GAME

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = settled_ladies(builder)
        if not wagers:
            return False
        wager = builder.rng.choice(wagers)
        move_after(builder, wager.bet, builder.first_deal)
        builder.mark(wager.bet, f"the Lucky Ladies wager on {wager.target} placed after the "
                                "first card and settled as a wager")
        return True


@injector
class LadiesWrongOutcome(Injector):
    citation = "20:18:15:30.04(3)"
    games = LADIES_GAME

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = settled_ladies(builder)
        if not wagers:
            return False
        wager = builder.rng.choice(wagers)
        if wager.outcome == "win":
            rewrite_settle(wager.settle, wager, "lose", wager.amount)
        else:
            rewrite_settle(wager.settle, wager, "win", wager.amount * 4)
        builder.mark(wager.settle, f"the Lucky Ladies wager on {wager.target} settled the "
                                   "wrong way")
        return True


class _LadiesWinEdit(Injector):
    citation = "20:18:15:30.04(4)"
    games = LADIES_GAME

    def suits(self, spec: TableSpec) -> bool:
        return ladies_declared(spec)

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = [w for w in settled_ladies(builder) if w.outcome == "win"]
        wagers = [w for w in wagers if self.paid(builder, w) is not None]
        if not wagers:
            return False
        wager = builder.rng.choice(wagers)
        paid = self.paid(builder, wager)
        rewrite_settle(wager.settle, wager, "win", paid)
        builder.mark(wager.settle, f"the Lucky Ladies win on {wager.target} paid "
                                   f"{money(paid)}, not {money(wager.paid)}")
        return True

    def paid(self, builder: RoundBuilder, wager: Wager) -> int | None:
        raise NotImplementedError


@injector
class LadiesWrongOdds(_LadiesWinEdit):
    def paid(self, builder: RoundBuilder, wager: Wager) -> int | None:
        return wager.paid + wager.amount  # one unit too many


@injector
class LadiesTwoCategoriesPaid(_LadiesWinEdit):
    def paid(self, builder: RoundBuilder, wager: Wager) -> int | None:
        """A hand above any 20 paid its own category and the any-20 odds as well."""
        seat = seat_of(builder, wager.target)
        kind = ladies_kind(builder.first_two(seat), builder.spec.decks == 1,
                           builder.dealer_natural)
        if kind in (None, "any"):
            return None
        return wager.paid + wager.amount * LADIES[builder.rules.ladies_paytable]["any"]


@injector
class LadiesTakenAfterMoreCards(Injector):
    citation = "20:18:15:30.04(5)"
    games = LADIES_GAME

    def edit(self, builder: RoundBuilder) -> bool:
        more = next((s for s in builder.stmts if s.kind in ("hit", "double")), None)
        if more is None:
            return False
        position = builder.stmts.index(more)
        early = [w for w in settled_ladies(builder)
                 if builder.stmts.index(w.settle) < position]
        if not early:
            return False
        wager = builder.rng.choice(early)
        move_after(builder, wager.settle, more)
        builder.mark(wager.settle, f"the Lucky Ladies wager on {wager.target} taken or paid "
                                   "after a player drew")
        return True


# ---- 20:18:15:30.09 Blackjack Switch ----

SWITCH = frozenset({"switch"})


def seat_of(builder: RoundBuilder, stmt_or_target: str) -> SeatPlay:
    return next(s for s in builder.seats if s.name == stmt_or_target[:2])


def switched_21(hand: Hand) -> bool:
    return hand.switched and len(hand.cards) == 2 and total(hand.cards)[0] == 21


def decision_stmts(builder: RoundBuilder) -> list[Stmt]:
    return [s for s in builder.stmts
            if s.kind in ("switch", "hit", "stand", "double", "split", "surrender")]


@injector
class OneHandOnly(Injector):
    citation = "20:18:15:30.09(1)"
    games = SWITCH

    def one_hand(self, builder: RoundBuilder, seat: SeatPlay) -> bool:
        return not builder.applied


@injector
class UnequalWagers(Injector):
    citation = "20:18:15:30.09(2)"
    games = SWITCH

    def second_hand_amount(self, builder: RoundBuilder, seat: SeatPlay,
                           amount: int) -> int | None:
        if builder.applied:
            return None
        return amount + 500 if amount + 500 <= builder.spec.maximum else amount - 500


@injector
class TipWithoutSuperMatch(Injector):
    citation = "20:18:15:30.09(3)"
    games = SWITCH

    def edit(self, builder: RoundBuilder) -> bool:
        seats = [s for s in builder.seats if len(s.hands) == 2 and s.super_match is None
                 and not s.misdealt]
        if not seats:
            return False
        seat = builder.rng.choice(seats)
        tip = Wager("supermatch", seat.name, 100, True, None)
        tip.bet = Stmt("bet", (seat.name, "supermatch", "1", "tip"), meta=tip)
        insert_after(builder, tip.bet, seat.hands[-1].wager.bet)
        kind = super_match_kind(seat.first_four)
        odds = SUPER_MATCH[8 if builder.spec.decks >= 8 else 6].get(kind, 0)
        outcome, amount = ("win", 100 * odds) if kind else ("lose", 100)
        tip.settle = Stmt("settle", (seat.name, "supermatch", outcome, money(amount), "tip"),
                          meta=tip)
        insert_after(builder, tip.settle, builder.dealer_stmts[1])  # the end of the deal
        builder.mark(tip.bet, f"a tip on {seat.name}'s super match, which the player left bare")
        return True


@injector
class MisdealtWagerKept(Injector):
    citation = "20:18:15:30.09(4)"
    games = SWITCH

    def force_misdeal(self, builder: RoundBuilder) -> bool:
        return True

    misdealt_to = "its seat"

    def edit(self, builder: RoundBuilder) -> bool:
        voided = [s for s in builder.stmts if s.kind == "settle" and s.words[2] == "void"
                  and not s.meta.tip]
        if not voided:
            return False
        stmt = builder.rng.choice(voided)
        wager = stmt.meta
        rewrite_settle(stmt, wager, "lose", wager.amount)
        builder.mark(stmt, f"the {wager.kind} wager on {wager.target} was collected after a "
                           f"misdeal to {self.misdealt_to}, not returned")
        return True


@injector
class DealerMisdealWagerKept(MisdealtWagerKept):
    misdealt_to = "the dealer"

    def force_misdeal(self, builder: RoundBuilder) -> bool:
        return False

    def force_dealer_misdeal(self, builder: RoundBuilder) -> bool:
        return True


@injector
class ExtraCardPlayedOn(Injector):
    citation = "20:18:15:30.09(4)"
    games = SWITCH

    def extra_card_played_on(self, builder: RoundBuilder) -> bool:
        return True

    def steer_switch(self, builder: RoundBuilder, seat: SeatPlay) -> bool | None:
        return False  # (which second card a switch of a three-card hand moves is no rule's)


@injector
class NeighbourVoided(Injector):
    citation = "20:18:15:30.09(4)"
    games = SWITCH

    def force_misdeal(self, builder: RoundBuilder) -> bool:
        return True

    def edit(self, builder: RoundBuilder) -> bool:
        hands = [h for h in personal_hands(builder) if not seat_of(builder, h.name).misdealt
                 and h.wager.settle is not None and h.wager.outcome != "push"]
        if not hands:
            return False
        wager = builder.rng.choice(hands).wager
        rewrite_settle(wager.settle, wager, "void", wager.amount)
        builder.mark(wager.settle, f"{wager.target} returned as void for another seat's "
                                   "misdeal")
        return True


@injector
class MainBeforeSuperMatch(Injector):
    citation = "20:18:15:30.09(5)"
    games = SWITCH

    def edit(self, builder: RoundBuilder) -> bool:
        stmts = builder.stmts
        deadline = next((i for i, s in enumerate(stmts) if s.kind in
                         ("switch", "hit", "stand", "double", "split", "surrender")
                         or (s.kind == "bet" and s.words[1] == "insurance")), len(stmts))
        for seat in builder.seats:
            if seat.super_match is None or seat.misdealt:
                continue
            mains = [w.settle for h in seat.hands for w in (h.wager, *h.tips)
                     if w.settle is not None and stmts.index(w.settle) < deadline]
            if mains:
                first = min(mains, key=stmts.index)
                move_after(builder, seat.super_match.settle, max(mains, key=stmts.index))
                builder.mark(first, f"{seat.name}'s main wager settled before its super match")
                return True
        return False


@injector
class SuperMatchWrongOutcome(Injector):
    citation = "20:18:15:30.09(6)"
    games = SWITCH

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = [s.super_match for s in builder.seats
                  if s.super_match is not None and not s.misdealt]
        if not wagers:
            return False
        wager = builder.rng.choice(wagers)
        if wager.outcome == "win":
            rewrite_settle(wager.settle, wager, "lose", wager.amount)
        else:
            rewrite_settle(wager.settle, wager, "win", wager.amount)
        builder.mark(wager.settle, f"the super match on {wager.target} settled the wrong way")
        return True


@injector
class ShuffledNotCut(Injector):
    citation = "20:18:15:30.09(7)"
    games = SWITCH

    def omit_cut(self, session: Session) -> bool:
        return True


@injector
class SuperMatchAfterDecision(Injector):
    citation = "20:18:15:30.09(8)"
    games = SWITCH

    def edit(self, builder: RoundBuilder) -> bool:
        decisions = decision_stmts(builder)
        wagers = [s.super_match for s in builder.seats
                  if s.super_match is not None and not s.misdealt]
        if not decisions or not wagers:
            return False
        wager = builder.rng.choice(wagers)
        move_after(builder, wager.settle, decisions[0])
        builder.mark(wager.settle, f"the super match on {wager.target} resolved after play began")
        return True


@injector
class InsuranceWithoutAce(Injector):
    citation = "20:18:15:30.09(9)"
    games = SWITCH

    def insure_without_ace(self, builder: RoundBuilder) -> bool:
        return not builder.applied


@injector
class SwitchedTwentyOnePaidAsBlackjack(Injector):
    citation = "20:18:15:30.09(10)"
    games = SWITCH

    def steer_switch(self, builder: RoundBuilder, seat: SeatPlay) -> bool | None:
        first, second = seat.hands[0].cards, seat.hands[1].cards
        swapped = ([first[0], second[1]], [second[0], first[1]])
        if any(total(cards)[0] == 21 for cards in swapped):
            return True  # a lawful choice that makes a switched 21
        return None

    def edit(self, builder: RoundBuilder) -> bool:
        dealer, drawn = total(builder.dealer)[0], len(builder.dealer) > 2
        for hand in personal_hands(builder):
            wager = hand.wager
            if not switched_21(hand) or wager.settle is None:
                continue
            if builder.dealer_natural and wager.outcome == "lose":
                rewrite_settle(wager.settle, wager, "push", wager.amount)
            elif drawn and dealer in (21, 22) and wager.outcome == "push":
                rewrite_settle(wager.settle, wager, "win", hand.stake)
            else:
                continue
            builder.mark(wager.settle, f"{hand.name}'s switched 21 settled as a blackjack")
            return True
        return False


@injector
class SplitWagerUnequalSwitch(Injector):
    citation = "20:18:15:30.09(11)"
    games = SWITCH

    def split_amount(self, builder: RoundBuilder, hand: Hand) -> int | None:
        return None if builder.applied else hand.wager.amount + 500


@injector
class WrongSwitchPayout(Injector):
    citation = "20:18:15:30.09(13)"
    games = SWITCH

    def edit(self, builder: RoundBuilder) -> bool:
        hands = [h for h in personal_hands(builder) if h.wager.settle is not None
                 and not h.busted and not h.surrendered and not switched_21(h)
                 and not seat_of(builder, h.name).misdealt]
        if not hands:
            return False
        hand = builder.rng.choice(hands)
        wager = hand.wager
        if wager.outcome == "win":
            rewrite_settle(wager.settle, wager, "win", wager.paid + 500)
        elif wager.outcome == "lose":
            # paid, not collected (a push of part of a doubled stake is a loss of the rest:
            # against a dealer blackjack, `push 50` on a 100 stake is the right `lose 50`)
            rewrite_settle(wager.settle, wager, "win", wager.paid)
        else:
            rewrite_settle(wager.settle, wager, "lose", wager.paid)
        builder.mark(wager.settle, f"{wager.target} settled {wager.settle.text} instead of "
                                   f"{wager.outcome} {money(wager.paid)}")
        return True


@injector
class CardAfterStand(Injector):
    citation = "20:18:15:30.09(14)"
    games = SWITCH

    def hit_after_stand(self, builder: RoundBuilder, hand: Hand) -> bool:
        return not builder.applied


@injector
class BustCollectedLate(Injector):
    citation = "20:18:15:30.09(15)"
    games = SWITCH

    def edit(self, builder: RoundBuilder) -> bool:
        busted = [h for h in personal_hands(builder) if h.busted and h.wager.settle is not None]
        if not busted or builder.dealer_done is None:
            return False
        hand = builder.rng.choice(busted)
        settle = hand.wager.settle
        move_after(builder, settle, builder.dealer_done)  # collected with the remaining wagers
        builder.mark(settle, f"{hand.name} collected only after the dealer played")
        return True


@injector
class OutOfRotation(Injector):
    citation = "20:18:15:30.09(16)"
    games = SWITCH

    def edit(self, builder: RoundBuilder) -> bool:
        decisions = decision_stmts(builder)
        for index, stmt in enumerate(decisions[:-1]):
            after = decisions[index + 1]
            if stmt.kind == "stand" and after.words[0][:2] != stmt.words[0][:2]:
                seat = stmt.words[0][:2]
                if any(d.words[0][:2] == seat for d in decisions[index + 1:]):
                    continue  # the seat acts again later: keep it simple
                # after the other seat's first decision and what it settled at once
                stmts = builder.stmts
                at = stmts.index(after)
                while at + 1 < len(stmts) and stmts[at + 1].kind in ("settle", "discard"):
                    at += 1
                move_after(builder, stmt, stmts[at])
                builder.mark(stmt, f"{stmt.words[0]} stood after {after.words[0][:2]} began")
                return True
        return False


@injector
class DealerDrawsEarly(Injector):
    citation = "20:18:15:30.09(17)"
    games = SWITCH

    def edit(self, builder: RoundBuilder) -> bool:
        stmts = builder.stmts
        draws = [s for s in stmts if s.kind == "draw"]
        decisions = decision_stmts(builder)
        if not draws or not decisions or decisions[-1].kind != "stand":
            return False
        last = decisions[-1]
        hand = next(h for s in builder.seats for h in s.hands if h.name == last.words[0])
        if hand.total >= 21:
            return False  # a hand at 21 counts as complete already
        reveal = next(s for s in stmts if s.kind == "reveal")
        if stmts.index(reveal) != stmts.index(last) + 1:
            return False  # something stands between the last stand and the reveal
        for stmt in (reveal, draws[0]):
            stmts.remove(stmt)
        at = stmts.index(last)
        stmts[at:at] = [reveal, draws[0]]
        builder.mark(draws[0], f"the dealer drew before {last.words[0]} stood")
        return True


@injector
class SuperMatchWrongOdds(Injector):
    citation = "20:18:15:30.09(18)"
    games = SWITCH

    def suits(self, spec: TableSpec) -> bool:
        return spec.decks in SUPER_MATCH  # (another deck count is 30.09(1)'s: odds not judged)

    def edit(self, builder: RoundBuilder) -> bool:
        wagers = [s.super_match for s in builder.seats if s.super_match is not None
                  and not s.misdealt and s.super_match.outcome == "win"]
        if not wagers:
            return False
        wager = builder.rng.choice(wagers)
        rewrite_settle(wager.settle, wager, "win", wager.paid + wager.amount)
        builder.mark(wager.settle, f"the super match on {wager.target} paid one unit too many")
        return True


# ---- 20:18:15:30.02 Ten sticks 21 ----

TENSTICKS = frozenset({"tensticks"})


def trading(spec: TableSpec) -> bool:
    return spec.rules.tensticks_trade == "yes"


def below_prize(builder: RoundBuilder, count: int) -> bool:
    return count < builder.rules.tensticks_lights


@injector
class BustingBonusCardTraded(Injector):
    citation = "20:18:15:30.02(3)"
    games = TENSTICKS

    def trade_busting(self, builder: RoundBuilder, hand: Hand) -> bool:
        return not builder.applied


@injector
class BustingBonusCardPushed(Injector):
    citation = "20:18:15:30.02(3)"
    games = TENSTICKS

    def edit(self, builder: RoundBuilder) -> bool:
        # the bonus card itself took the hand over 21: it was the last card the hand drew
        hands = [h for h in personal_hands(builder) if h.busted and h.cards[-1] == BONUS_CARD
                 and h.wager.settle is not None]
        if not hands:
            return False
        wager = builder.rng.choice(hands).wager
        rewrite_settle(wager.settle, wager, "push", wager.paid)
        builder.mark(wager.settle, f"{wager.target}, over 21 with the bonus card, pushed")
        return True


@injector
class TradeOfAnotherCard(Injector):
    citation = "20:18:15:30.02(4)"
    games = TENSTICKS

    def trade_other_card(self, builder: RoundBuilder, hand: Hand) -> bool:
        return not builder.applied


@injector
class TradeWithoutLight(Injector):
    citation = "20:18:15:30.02(5)"
    games = TENSTICKS

    def suits(self, spec: TableSpec) -> bool:
        return trading(spec)

    def skip_light(self, builder: RoundBuilder, seat: SeatPlay) -> bool:
        return not builder.applied


@injector
class LightWithoutTrade(Injector):
    citation = "20:18:15:30.02(5)"
    games = TENSTICKS

    def suits(self, spec: TableSpec) -> bool:
        return trading(spec)

    def unearned_light(self, builder: RoundBuilder, seat: SeatPlay) -> bool:
        return not builder.applied and below_prize(builder, seat.player.lights + 1)


@injector
class LightCountSkips(Injector):
    citation = "20:18:15:30.02(5)"
    games = TENSTICKS

    def light_count(self, builder: RoundBuilder, seat: SeatPlay, count: int) -> int | None:
        player = seat.player
        if (builder.applied or not player.lit or player.after_prize
                or player.light_serial != builder.session.prize_serial
                or not below_prize(builder, count + 1)):
            return None
        return count + 1


@injector
class PrizeWithheld(Injector):
    citation = "20:18:15:30.02(6)"
    games = TENSTICKS

    def __init__(self) -> None:
        self.seat: int | None = None

    def prize(self, builder: RoundBuilder, seat: SeatPlay, lights: int) -> str | None:
        # withheld for the rest of the round: a prize later in the round would be in time
        if self.seat is None and not builder.applied and lights >= builder.rules.tensticks_lights:
            self.seat = seat.seat
        return "withheld" if seat.seat == self.seat else None


@injector
class PrizeTooEarly(Injector):
    citation = "20:18:15:30.02(6)"
    games = TENSTICKS

    def prize(self, builder: RoundBuilder, seat: SeatPlay, lights: int) -> str | None:
        return None if builder.applied else "early"


@injector
class PrizeWrongAmount(Injector):
    citation = "20:18:15:30.02(6)"
    games = TENSTICKS

    def suits(self, spec: TableSpec) -> bool:
        return "tensticks.prize" in dict(spec.options)  # (no prize designated: not judged)

    def edit(self, builder: RoundBuilder) -> bool:
        prizes = [s for s in builder.stmts if s.kind == "prize"]
        if not prizes:
            return False
        stmt = prizes[0]
        stmt.words = (stmt.words[0], money(builder.session.prize_cents // 2))
        builder.mark(stmt, f"a prize of half the designated amount at {stmt.words[0]}")
        return True


@injector
class WinnerKeepsCounting(Injector):
    citation = "20:18:15:30.02(7)"
    games = TENSTICKS

    def light_count(self, builder: RoundBuilder, seat: SeatPlay, count: int) -> int | None:
        if builder.applied or not seat.player.after_prize or not below_prize(builder, 2):
            return None
        return 2  # the count restarted at one, not at zero


@injector
class OtherSeatReset(Injector):
    citation = "20:18:15:30.02(7)"
    games = TENSTICKS

    def light_count(self, builder: RoundBuilder, seat: SeatPlay, count: int) -> int | None:
        player = seat.player
        if (builder.applied or not player.lit or player.after_prize or player.lights < 1
                or player.light_serial == builder.session.prize_serial):
            return None
        return 1  # reset as if this seat had won the prize paid at another


@injector
class NewPlayerCarriesLights(Injector):
    citation = "20:18:15:30.02(8)"
    games = TENSTICKS

    def light_count(self, builder: RoundBuilder, seat: SeatPlay, count: int) -> int | None:
        player = seat.player
        if builder.applied or player.lit or player.start or not below_prize(builder, 2):
            return None
        return 2


@injector
class DealerTradesBonusCard(Injector):
    citation = "20:18:15:30.02(9)"
    games = TENSTICKS

    def dealer_trade(self, builder: RoundBuilder) -> bool:
        return not builder.applied


@injector
class DealerBonusCardNotTen(Injector):
    citation = "20:18:15:30.02(9)"
    games = TENSTICKS

    def dealer_extra(self, builder: RoundBuilder) -> bool:
        count, soft = total(builder.dealer)
        return (not builder.applied and BONUS_CARD in builder.dealer and not soft
                and not builder.dealer_natural and 17 <= count <= 21)


@injector
class TradeWhereNotAllowed(Injector):
    citation = "20:18:15:30.02(¶10)"
    games = TENSTICKS

    def suits(self, spec: TableSpec) -> bool:
        return not trading(spec)

    def trade_anyway(self, builder: RoundBuilder, hand: Hand) -> bool:
        return not builder.applied and not hand.natural


@injector
class BonusCardUnlit(Injector):
    citation = "20:18:15:30.02(¶10)"
    games = TENSTICKS

    def suits(self, spec: TableSpec) -> bool:
        return not trading(spec)

    def skip_light(self, builder: RoundBuilder, seat: SeatPlay) -> bool:
        return not builder.applied


@injector
class LightWithoutBonusCard(Injector):
    citation = "20:18:15:30.02(¶10)"
    games = TENSTICKS

    def suits(self, spec: TableSpec) -> bool:
        return not trading(spec)

    def unearned_light(self, builder: RoundBuilder, seat: SeatPlay) -> bool:
        return not builder.applied and below_prize(builder, seat.player.lights + 1)


@injector
class PunchedWrong(Injector):
    citation = "20:18:15:30.02(¶11)"
    games = TENSTICKS

    def punches(self, builder: RoundBuilder, lights: int) -> int | None:
        return None if builder.applied else lights + 1


@injector
class HandedInWrong(Injector):
    citation = "20:18:15:30.02(¶11)"
    games = TENSTICKS

    def wrong_hand_in(self, builder: RoundBuilder) -> bool:
        return not builder.applied

    def hand_in_punches(self, builder: RoundBuilder, punched: int) -> int | None:
        return None if builder.applied else punched + 1


@injector
class HandedInTwice(Injector):
    citation = "20:18:15:30.02(¶11)"
    games = TENSTICKS

    def hand_in_again(self, builder: RoundBuilder) -> bool:
        return not builder.applied
