"""Faults of the record itself (`record:*`): lines that cannot be read, references to what
was never there, cards the shoe does not hold, wagers left unsettled or settled twice."""

from __future__ import annotations

from typing import TYPE_CHECKING

from auditor.simulate.cards import BONUS_CARD
from auditor.simulate.faults.base import ALL_GAMES, Injector
from auditor.simulate.faults.edits import insert_after, insert_before_end, personal_hands
from auditor.simulate.faults.registry import injector
from auditor.simulate.faults.wagers import WagerEdit
from auditor.simulate.game import IMPOSSIBLE_TIME
from auditor.simulate.pays import money
from auditor.simulate.round_parts import Stmt

if TYPE_CHECKING:
    from auditor.simulate.game import RoundBuilder
    from auditor.simulate.round_parts import Wager
    from auditor.simulate.table import Session


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
class WagerSettledTwice(WagerEdit):
    citation = "record:unsettled"
    what = "the {kind} wager on {target} settled a second time"

    def wagers(self, builder: RoundBuilder) -> list[Wager]:
        return [h.wager for h in personal_hands(builder) if h.wager.settle is not None]

    def change(self, builder: RoundBuilder, wager: Wager) -> Stmt:
        again = Stmt(wager.settle.kind, wager.settle.words)
        insert_after(builder, again, wager.settle)
        return again


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
