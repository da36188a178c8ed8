"""What the injectors' edits of a finished round share: its hands, and statements
rewritten, moved or added."""

from __future__ import annotations

from typing import TYPE_CHECKING

from auditor.simulate.pays import money

if TYPE_CHECKING:
    from auditor.simulate.game import RoundBuilder
    from auditor.simulate.round_parts import Hand, SeatPlay, Stmt, Wager


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


def seat_of(builder: RoundBuilder, stmt_or_target: str) -> SeatPlay:
    return next(s for s in builder.seats if s.name == stmt_or_target[:2])
