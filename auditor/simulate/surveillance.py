"""Patterns planted across a simulated floor, for `auditor trends` to find.

A real floor has a roster: the same dealers deal night after night, at one table a night.
With `--roster` (implied by the options below) each table's two dealers of the night come
from a roster of two per table (D-1001, D-1002, …), moved between tables from one night
(`--date`) to the next, so that a dealer's rounds add up across tables and nights; without
it every dealer's stint has a new random ID, as before.

- `--careless DEALER:MULTIPLE`: that dealer's rounds get planted faults at MULTIPLE times the
  floor's `--faults` rate.
- `--collude DEALER:PLAYER:RATE`: PLAYER sits at DEALER's table whenever DEALER deals there
  and leaves when DEALER does; in a share RATE of those rounds the player's main wager is
  over-paid (a win paid 5 more, a loss pushed, a push paid), each a planted 20:18:15:06 fault.
- `--repeat-shoe`: the third shuffle of the last table is dealt in exactly the order of the
  first shuffle of the first table (a false shuffle, or a stacked shoe).

What was planted is written to `surveillance.truth.json` beside the records.
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (the simulator loads only when a floor is simulated: `auditor audit`
    # builds its command line, `simulate` options included, without it)
    from auditor.simulate.cards import Shoe
    from auditor.simulate.game import RoundBuilder
    from auditor.simulate.table import Session

FIRST_DEALER = 1001
DEALERS_PER_TABLE = 2
NIGHT_SHIFT = 3  # roster places a dealer moves from one night to the next
REPEATED_SHUFFLE = 3  # the shuffle of the last table dealt in the order of table 1's first
OVERPAY_CITATION = "20:18:15:06"
OVERPAY_GAMES = ("standard", "db21", "tensticks", "ladies")  # Switch: its own rule, 30.09(13)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The floor options of `auditor simulate`."""
    group = parser.add_argument_group("a floor's patterns (for `auditor trends`)")
    group.add_argument("--roster", action="store_true",
                       help="dealers from a floor roster, two per table a night (D-1001…), "
                            "moved between tables from night to night")
    group.add_argument("--careless", metavar="DEALER:MULTIPLE",
                       help="a roster dealer whose rounds get faults at MULTIPLE times the "
                            "--faults rate (implies --roster)")
    group.add_argument("--collude", metavar="DEALER:PLAYER:RATE",
                       help="PLAYER sits at DEALER's table while DEALER deals and is over-paid "
                            "in a share RATE of those rounds (implies --roster)")
    group.add_argument("--repeat-shoe", action="store_true",
                       help="the last table's third shuffle repeats the first table's first "
                            "shuffle card for card (implies --roster)")


@dataclass
class Floor:
    """The patterns planted over one `simulate` call (one night of the floor, or of one
    game's tables of a `--floor` night: auditor/simulate/floor.py fills the fields after
    `truth`)."""

    tables: int
    night: int  # the night's day number: the roster moves from night to night
    faults: float
    careless: tuple[str, float] | None = None
    collusion: tuple[str, str, float] | None = None
    repeat_shoe: bool = False
    recorded: list[str] = field(default_factory=list)  # table 1's first shuffle, card by card
    truth: dict[str, Any] = field(default_factory=dict)
    # a whole floor (`--floor`): this call's tables are the floor's from `offset` on
    offset: int = 0
    assignment: list[list[str]] | None = None  # each floor table's two dealers tonight
    players: list[list[str]] | None = None  # each floor table's players tonight
    more_careless: dict[str, float] = field(default_factory=dict)
    more_collusions: list[tuple[str, str, float]] = field(default_factory=list)
    roster_names: list[str] | None = None
    writes_truth: bool = True

    @property
    def roster(self) -> list[str]:
        if self.roster_names is not None:
            return self.roster_names
        return [f"D-{FIRST_DEALER + n}" for n in range(self.tables * DEALERS_PER_TABLE)]

    @property
    def careless_dealers(self) -> dict[str, float]:
        found = dict(self.more_careless)
        if self.careless:
            found[self.careless[0]] = self.careless[1]
        return found

    @property
    def collusions(self) -> list[tuple[str, str, float]]:
        return ([self.collusion] if self.collusion else []) + self.more_collusions

    def dealers_of(self, number: int) -> list[str]:
        """The two dealers of table `number` (1-based) this night."""
        if self.assignment is not None:
            return self.assignment[self.offset + number - 1]
        roster = self.roster
        first = (number - 1) * DEALERS_PER_TABLE + self.night * NIGHT_SHIFT
        return [roster[(first + k) % len(roster)] for k in range(DEALERS_PER_TABLE)]

    def attach(self, session: Session, number: int, seed: str) -> None:
        session.surveillance = TableHooks(self, session, number, seed)
        if self.repeat_shoe and (number == 1 or number == self.tables):
            session.shoe = RepeatingShoe(session.shoe, self, record=number == 1,
                                         replay=number == self.tables, session=session)

    def write_truth(self, out: Path) -> None:
        if not self.writes_truth:
            return
        document = {"roster": self.roster, **self.truth}
        if self.careless:
            document["careless"] = {"dealer": self.careless[0], "multiple": self.careless[1]}
        if self.collusion:
            dealer, player, rate = self.collusion
            document.setdefault("collusion", {"over_payments": []}).update(
                dealer=dealer, player=player, rate=rate)
        (out / "surveillance.truth.json").write_text(json.dumps(document, indent=1) + "\n",
                                                      encoding="utf-8")


def floor_from_arguments(arguments: argparse.Namespace, game: str, tables: int,
                         night: int, faults: float) -> Floor | None:
    """The floor the options ask for, or None; ValueError with a plain message if wrong."""
    wanted = arguments.roster or arguments.careless or arguments.collude or arguments.repeat_shoe
    if not wanted:
        return None
    floor = Floor(tables, night, faults, repeat_shoe=arguments.repeat_shoe)
    if arguments.careless:
        dealer, _, multiple = arguments.careless.partition(":")
        floor.careless = (dealer, _number(multiple, "--careless is DEALER:MULTIPLE"))
        if floor.careless[1] <= 0 or faults <= 0:
            raise ValueError("--careless needs a positive multiple and a --faults rate")
    if arguments.collude:
        parts = arguments.collude.split(":")
        said = "--collude is DEALER:PLAYER:RATE with RATE in (0, 1]"
        if len(parts) != 3 or not 0 < _number(parts[2], said) <= 1:
            raise ValueError(said)
        if game not in OVERPAY_GAMES:
            raise ValueError(f"--collude plants 20:18:15:06 over-payments: "
                             f"{', '.join(OVERPAY_GAMES)} only")
        floor.collusion = (parts[0], parts[1], float(parts[2]))
    for dealer in (d for d in (floor.careless and floor.careless[0],
                               floor.collusion and floor.collusion[0]) if d):
        if dealer not in floor.roster:
            raise ValueError(f"{dealer} is not on the roster ({floor.roster[0]} to "
                             f"{floor.roster[-1]})")
    return floor


def _number(text: str, said: str) -> float:
    """`text` as a finite number, else ValueError with `said` (the option's form)."""
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{said}: {text!r} is not a number") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{said}: {text!r} is not a number")
    return value


class TableHooks:
    """What the floor changes at one table; `Session` calls these where marked."""

    def __init__(self, floor: Floor, session: Session, number: int, seed: str) -> None:
        self.floor = floor
        self.dealers = floor.dealers_of(number)
        self.rng = random.Random(f"{seed}:{session.name}:surveillance")
        self.players = (floor.players[floor.offset + number - 1] if floor.players is not None
                        else None)
        self.seated = 0  # players of the pool sat down so far

    def next_player(self, session: Session) -> str | None:
        """The next player of the floor's pool to sit at this table (in turn, passing those
        seated now), or None where the floor has no pool (the table makes its own)."""
        if not self.players:
            return None
        seated = {p.player_id for p in session.players.values()}
        for _ in range(len(self.players)):
            player = self.players[self.seated % len(self.players)]
            self.seated += 1
            if player not in seated:
                return player
        return None

    @staticmethod
    def seat_of(session: Session, player_id: str) -> int | None:
        """The seat of the colluding player, found afresh each time: a round dealt again
        after a retry puts the session's players back, and this stays right."""
        return next((n for n, p in session.players.items() if p.player_id == player_id),
                    None)

    def next_dealer(self, session: Session) -> str:
        """The table's other dealer of the night (the first at the start)."""
        if session.dealer_id == self.dealers[0]:
            return self.dealers[1]
        return self.dealers[0]

    def fault_rate(self, session: Session) -> float:
        multiple = self.floor.careless_dealers.get(session.dealer_id)
        if multiple is not None:
            return min(1.0, session.faults * multiple)
        return session.faults

    def collusion(self, session: Session) -> tuple[str, str, float] | None:
        """The collusion of this table's game, the first whose player is seated here or
        whose dealer deals here (a player follows one dealer at a time)."""
        if session.spec.game not in OVERPAY_GAMES:
            return None  # (Switch over-pays under its own rule)
        found = self.floor.collusions
        return next((c for c in found if self.seat_of(session, c[1]) is not None),
                    next((c for c in found if c[0] == session.dealer_id), None))

    def seat(self, session: Session, builder: RoundBuilder) -> None:
        """Before the round's seat changes: the colluding player follows the dealer."""
        collusion = self.collusion(session)
        if collusion is None:
            return
        dealer, player_id, _ = collusion
        seat = self.seat_of(session, player_id)
        if seat is not None and session.dealer_id != dealer:
            session.players[seat].stay = 1  # leaves in this round's seat changes
        elif seat is None and session.dealer_id == dealer:
            empty = [s for s in range(1, session.spec.seats + 1) if s not in session.players]
            if not empty:
                return
            player = session.new_player()
            player.player_id, player.stay, player.sit_out = player_id, 10**9, 0.0
            number = empty[0]
            builder.emit("sit", f"s{number}", f"player={player_id}", seconds=10)
            session.players[number] = player

    def edit(self, session: Session, builder: RoundBuilder) -> None:
        """After the round is built: the colluding player's main wager over-paid, at the
        rate asked, in rounds with no other planted fault."""
        collusion = self.collusion(session)
        if (collusion is None or session.dealer_id != collusion[0]
                or any(stmt.fault for stmt in builder.stmts)):
            return
        from auditor.simulate.faults.edits import rewrite_settle
        from auditor.simulate.pays import money

        number = self.seat_of(session, collusion[1])
        seat = next((s for s in builder.seats if s.seat == number), None)
        if seat is None or seat.misdealt or self.rng.random() >= collusion[2]:
            return
        hands = [h for h in seat.hands if h.wager is not None and h.wager.settle is not None
                 and not h.busted and not h.surrendered]
        if not hands:
            return
        wager = hands[0].wager
        if wager.outcome == "win":
            outcome, amount = "win", wager.paid + 500
        elif wager.outcome == "lose":
            outcome, amount = "push", wager.paid
        else:
            outcome, amount = "win", wager.paid
        rewrite_settle(wager.settle, wager, outcome, amount)
        wager.settle.fault = (OVERPAY_CITATION, f"{wager.target} of {collusion[1]} settled "
                                                f"{outcome} {money(amount)} instead of "
                                                f"{wager.outcome} {money(wager.paid)}",
                               "ColludingOverpayment")
        self.floor.truth.setdefault("collusion", {"over_payments": []})[
            "over_payments"].append({"file": session.name,
                                     "round": str(session.round_number + 1)})


class RepeatingShoe:
    """A shoe that records the order of table 1's first shuffle, or deals the last table's
    third shuffle in that recorded order (card for card, burn included). It wraps the
    session's own shoe: everything else is that shoe's."""

    def __init__(self, shoe: Shoe, floor: Floor, *, record: bool, replay: bool,
                 session: Session) -> None:
        self.shoe = shoe
        self.floor = floor
        self.session = session
        self.record, self.replay = record, replay
        self.shuffles = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.shoe, name)

    @property
    def recording(self) -> bool:
        return self.record and self.shuffles == 1

    @property
    def replaying(self) -> bool:
        return self.replay and self.shuffles == REPEATED_SHUFFLE

    def shuffle(self) -> None:
        self.shoe.shuffle()
        self.shuffles += 1
        role = ("source" if self.recording else "target" if self.replaying else None)
        if role:  # the burn card that follows the shuffle is dealt before this round
            self.floor.truth.setdefault("repeated_shoe", {})[role] = {
                "file": self.session.name, "round": str(self.session.round_number + 1)}

    def draw(self) -> str:
        shoe, recorded = self.shoe, self.floor.recorded
        position = shoe.position
        if self.replaying and position < len(recorded):
            wanted = recorded[position]
            index = shoe.cards.index(wanted, position)
            shoe.cards[position], shoe.cards[index] = shoe.cards[index], shoe.cards[position]
            shoe.position = position + 1
            return wanted
        card = shoe.draw()
        if self.recording:
            del recorded[position:]  # a round dealt again after a retry
            recorded.append(card)
        return card

    def snapshot(self) -> tuple:
        return (self.shoe.snapshot(), self.shuffles)

    def restore(self, state: tuple) -> None:
        shoe, self.shuffles = state
        self.shoe.restore(shoe)

    def shuffle_discards(self, in_play: list[str]) -> None:
        self.shoe.shuffle_discards(in_play)
        self.record = self.replay = False  # the order is broken: plant nothing further
