"""The questions the round builder (game.py) and the session (table.py) ask at each turn
where a fault could be planted: whether to bet another amount, draw another card, leave a
card out... `Hooks` answers every one the lawful way; a fault injector
(auditor/simulate/faults/) overrides the answers it needs. The table and the game know only
this, never the faults: the injectors sit above them and are passed in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from auditor.simulate.game import RoundBuilder
    from auditor.simulate.round_parts import Hand, SeatPlay
    from auditor.simulate.table import Player, Session


class Hooks:
    """No fault: every hook leaves the play alone. Injectors override what they need."""

    citation: ClassVar[str] = ""  # the citation of the check that must find the fault

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
        return True

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


NO_FAULT = Hooks()
