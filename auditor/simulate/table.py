"""A table over a session: its header, shoes, dealers, players and rounds, written as BJH 1.

A `Session` owns everything that lasts between rounds (the shoe, the seated players, the
dealer, the clock) and writes the record as it goes, so memory stays flat however long
the session. Each round is built by a `RoundBuilder` (game.py); a faulty round is built
again from a snapshot of the session for each candidate fault until one applies.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import TextIO

from auditor.simulate.cards import BONUS_CARD, Shoe
from auditor.simulate.game import IMPOSSIBLE_TIME, RoundBuilder
from auditor.simulate.hooks import NO_FAULT, Hooks
from auditor.simulate.pays import money
from auditor.simulate.round_parts import Stmt
from auditor.simulate.spec import (
    HEADER_CITATIONS,
    RecordShape,
    TableSpec,
    as_declared,
    header_clause,
)


@dataclass
class Player:
    player_id: str
    unit: int  # cents
    stay: int  # rounds until the player leaves
    sit_out: float = 0.03
    tips: float = 0.0
    insures: float = 0.0
    side: float = 0.0
    side_unit: int = 0
    lights: int = 0  # Ten sticks 21: lights held
    lit: bool = False  # lit a light since sitting down
    start: int = 0  # the punches of the card handed in when sitting down
    after_prize: bool = False  # paid the prize, no light since
    light_serial: int = 0  # the table's prize count at this player's last light (or sitting)
    no_card: bool = False  # leaves without a punched card

    def wager(self, rng: random.Random, spec: TableSpec) -> int:
        amount = self.unit * 2 if rng.random() < 0.1 else self.unit
        return max(spec.minimum, min(spec.maximum, amount))

    def tip_amount(self, rng: random.Random) -> int:
        return rng.choice((100, 100, 200, 500))

    def side_wager(self, rng: random.Random, spec: TableSpec) -> int | None:
        if self.side and rng.random() < self.side:
            return self.side_unit
        return None


_REMARKS = ("shift change at the pit", "camera 4 re-aimed", "chip fill at the rack",
            "player asked for the rules card", "floor supervisor watched the round")


@dataclass
class Planted:
    file: str
    round: str | None
    citation: str
    line: int
    what: str
    clause: str = ""  # which of the citation's faults (the injector that planted it)


# Everything that lasts between rounds and that a round may change: what a retried
# faulty round must put back.
_MUTABLE = ("players", "seen", "reshuffle_due", "cutcard_pending", "dealer_id",
            "next_dealer_change", "shoe_number", "next_shoe_at", "player_count",
            "punch_count", "punched", "handed_in", "prize_serial", "disk", "carried_in",
            "to_floor")


def _copied(value: object) -> object:
    """A copy deep enough for the session's state (players are flat dataclasses)."""
    if isinstance(value, dict):
        return {k: replace(v) if isinstance(v, Player) else v for k, v in value.items()}
    if isinstance(value, list):
        return list(value)
    return value


class Session:
    """One table, one record: header, shoes and rounds, written to `out` as they happen."""

    surveillance = None  # a floor's planted patterns (surveillance.TableHooks), if any

    def __init__(self, spec: TableSpec, out: TextIO, *, name: str, seed: str,
                 start: date, start_seconds: int = 18 * 3600, faults: float = 0.0,
                 injectors: object = None, header_fault: bool | str = False) -> None:
        self.out = out
        self.name = name
        self.rng = random.Random(f"{seed}:{spec.game}:{spec.table_id}")
        self.fault_rng = random.Random(f"{seed}:{spec.game}:{spec.table_id}:faults")
        self.shape = RecordShape(random.Random(f"{seed}:{spec.game}:{spec.table_id}:shape"))
        planting = header_fault and faults > 0 and injectors is not None
        self.header_clause = header_clause(spec, planting and header_fault, self.fault_rng)
        self.spec = spec = as_declared(spec, self.header_clause, self.shape)
        self.stamped = (-1, 0)  # the last statement's second and milliseconds
        self.faults = faults
        self.injectors = injectors  # faults.InjectorTable, or None for clean records
        self.shoe = Shoe(spec.decks, self.rng)
        self.start_date = start
        self.clock = start_seconds
        self.line = 0
        self.round_number = 0
        self.shoe_date = start
        self.prize_cents = int((spec.rules.tensticks_prize or 0) * 100)
        self.planted: list[Planted] = []
        self.planted_count: Counter = Counter()
        self.clause_count: Counter = Counter()  # by injector: each clause gets its turn
        # between rounds (see _MUTABLE)
        self.players: dict[int, Player] = {}
        self.seen: dict[str, int] = {}
        self.reshuffle_due = False
        self.cutcard_pending = False
        self.dealer_id = ""
        self.next_dealer_change = 0
        self.shoe_number = 0
        self.next_shoe_at = 0
        self.player_count = 0
        self.punch_count = 0
        self.punched: list[tuple[str, str, int]] = []  # (player, card, punches) away
        self.handed_in: list[tuple[str, int]] = []  # (card, punches) surrendered at a sit
        self.prize_serial = 0  # prizes paid at the table
        self.disk: dict[int, int] = {}  # seat -> its last recorded light count
        self.first_deal_fault: str | None = None  # a fault that shows on the next first card
        self.unclosed = False  # the last round was left without its `end` (a planted fault)
        # Ten sticks 21: cards punched at the floor's earlier tables (player, card, punches,
        # clock), which a player may hand in here later than they were punched
        self.carried_in: list[tuple[str, str, int, int]] = []
        self.punch_clock: dict[str, int] = {}  # card -> when this table punched it
        self.floor_share = 0.0  # of the cards punched here, those taken to other tables
        self.to_floor: list[tuple[str, str, int, int]] = []

    # ---- writing ----
    def stamp(self) -> str:
        seconds = self.clock % 86400
        return f"{seconds // 3600:02d}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"

    def today(self) -> date:
        return self.start_date + timedelta(days=self.clock // 86400)

    def write(self, text: str) -> int:
        self.out.write(text)
        self.out.write(self.shape.newline)
        self.line += 1
        return self.line

    def statement_stamp(self) -> str:
        """A statement's time stamp: with milliseconds, rising within a second, where the
        record's shape has them."""
        if not self.shape.fractions:
            return self.stamp()
        second, millis = self.stamped
        millis = min(999, millis + self.shape.rng.randint(1, 150)) \
            if second == self.clock else self.shape.rng.randint(0, 400)
        self.stamped = (self.clock, millis)
        return f"{self.stamp()}.{millis:03d}"

    def write_stmt(self, stmt: Stmt) -> int:
        self.clock += stmt.seconds
        stamp = self.statement_stamp()
        if stmt.meta == IMPOSSIBLE_TIME:  # a planted fault: no such time of day
            stamp = "24" + stamp[2:]
        return self.write(f"{stamp} {stmt.text}")

    def remark(self, inside_round: bool) -> None:
        """Now and then, where the shape has them: a comment, a blank line or a note (a
        note only inside a round)."""
        shape = self.shape
        if not shape.remarks or shape.rng.random() >= shape.remarks:
            return
        words = shape.rng.choice(_REMARKS)
        kind = "note" if inside_round else shape.rng.choice(("comment", "blank", "note"))
        if kind == "comment":
            self.write(f"# {words}")
        elif kind == "blank":
            self.write("")
        else:
            self.write(f"{self.statement_stamp()} note \"{words}\"")

    def header(self) -> None:
        spec = self.spec
        clause = self.header_clause
        casino = 'casino "Simulated Casino" licence=RL-SIM-01'
        if clause == "MissingVersionLine":
            self.plant_header(clause, 1, "a header without its `bjh 1` line")
        else:
            self.write("bjh 1")
        if clause != "CasinoAfterTable":
            self.write(casino)
        line = self.write(f"table {spec.table_id} game={spec.game} decks={spec.decks} "
                          f"seats={spec.seats} min={money(spec.minimum)} "
                          f"max={money(spec.maximum)} currency={self.shape.currency}")
        if clause == "DeckCountNotSixOrEight":
            self.plant_header(clause, line, f"a Blackjack Switch table of {spec.decks} decks")
        elif clause == "Db21WithoutPaytable":
            self.plant_header(clause, line, "a db21 table with no `option db21.paytable`")
        elif clause == "LadiesWithoutPaytable":
            self.plant_header(clause, line, "a ladies table with no `option ladies.paytable`")
        if clause == "CasinoAfterTable":
            self.plant_header(clause, self.write(casino), "the casino named after the table")
        for key, value in spec.options:
            self.write(f"option {key}={value}")
        if clause == "UnknownHeaderOption":
            self.plant_header(clause, self.write("option table.colour=green"),
                              "an unknown option in the header")

    def plant_header(self, clause: str, line: int, what: str) -> None:
        citation = HEADER_CITATIONS.get(clause, "record:header")
        self.planted.append(Planted(self.name, None, citation, line, what, clause))
        self.planted_count[citation] += 1

    # ---- the session ----
    def run(self, rounds: int | None = None, hours: float | None = None) -> int:
        """Deal `rounds` rounds, or until `hours` have passed; returns the rounds dealt."""
        self.header()
        end_clock = self.clock + int(hours * 3600) if hours is not None else None
        dealt = 0
        while (rounds is None or dealt < rounds) and (end_clock is None
                                                      or self.clock < end_clock):
            if self.play_round():
                dealt += 1
            else:
                self.clock += 30  # an empty table: nobody wagered
        self.write(f"{self.statement_stamp()} close")
        return dealt

    def play_round(self) -> bool:
        rate = self.surveillance.fault_rate(self) if self.surveillance else self.faults
        faulty = (self.injectors is not None and self.faults > 0
                  and self.fault_rng.random() < rate)
        if not faulty:
            return self.commit(*self.build(NO_FAULT))
        saved = self.snapshot()
        for injector in self.injectors.candidates(self, self.fault_rng):
            self.restore(saved)
            before, builder = self.build(injector)
            if builder is not None and not builder.spoiled and (
                    builder.applied or injector.edit(builder)):
                return self.commit(before, builder)
        self.restore(saved)
        return self.commit(*self.build(NO_FAULT))

    def snapshot(self) -> tuple:
        return (self.rng.getstate(), self.shoe.snapshot(),
                {name: _copied(getattr(self, name)) for name in _MUTABLE})

    def restore(self, saved: tuple) -> None:
        rng_state, shoe_state, values = saved
        self.rng.setstate(rng_state)
        self.shoe.restore(shoe_state)
        for name, value in values.items():
            setattr(self, name, _copied(value))

    def build(self, injector: Hooks) -> tuple[list[Stmt], RoundBuilder | None]:
        before = self.between_rounds(injector)
        builder = RoundBuilder(self, injector)
        builder.applied = any(stmt.fault is not None for stmt in before)  # planted already
        if self.surveillance:
            self.surveillance.seat(self, builder)
        self.seat_changes(builder)
        planted = self.first_deal_fault
        self.first_deal_fault = None
        if not builder.play(self.players):
            return before, None
        first = builder.stmts.index(builder.first_deal)
        if planted and not any(s.kind == "shuffle" for s in builder.stmts[:first]):
            # (a shoe that ran dry before the first card was reshuffled in time after all)
            builder.mark(builder.first_deal, planted)
            self.reshuffle_due = True  # the next round is dealt from shuffled and cut cards
        builder.emit("end")
        return before, builder

    def commit(self, before: list[Stmt], builder: RoundBuilder | None) -> bool:
        if self.surveillance and builder is not None:
            self.surveillance.edit(self, builder)
        for stmt in before:
            line = self.write_stmt(stmt)
            if stmt.fault is not None:  # a fault between rounds: it belongs to no round
                citation, what, clause = stmt.fault
                self.planted.append(Planted(self.name, None, citation, line, what, clause))
                self.clause_count[clause] += 1
                self.planted_count[citation] += 1
        if builder is None:
            return False
        self.round_number += 1
        round_id = str(self.round_number)
        # a round left unclosed ends at the next `round`, `shoe`, `dealer` or `close`: what
        # comes before (a burn, a shuffle) would fall inside it
        self.unclosed = builder.stmts[-1].meta == "left out"
        self.clock += self.rng.randint(8, 25)
        day = self.today()
        dated = f" date={day.isoformat()}" if day != self.shoe_date else ""
        opened = self.write(f"round {round_id}{dated} time={self.stamp()} "
                            f"dealer={self.dealer_id}")
        for stmt in builder.stmts:
            if stmt.kind == "end":
                self.remark(inside_round=True)
                # a round left unclosed (a planted fault) ends at the next round
                line = opened if stmt.meta == "left out" else self.write("end")
            else:
                line = self.write_stmt(stmt)
            if stmt.fault is not None:
                citation, what, clause = stmt.fault
                self.planted.append(Planted(self.name, round_id, citation, line, what, clause))
                self.clause_count[clause] += 1
                self.planted_count[citation] += 1
        self.remark(inside_round=False)
        return True

    # ---- between rounds: shoes, shuffles, dealers ----
    def between_rounds(self, injector: Hooks) -> list[Stmt]:
        stmts: list[Stmt] = []
        if self.seen and injector.burn_between_rounds(self):
            self.burn_too_often(stmts, injector)
        if not self.reshuffle_due and self.shoe.cut_card_due():
            # the last round ended at the cutting card: it comes out now, and the next round
            # is dealt from reshuffled cards
            stmts.append(Stmt("cutcard", (), 2))
            self.reshuffle_due = self.cutcard_pending = True
        if self.shoe_number == 0 or (self.clock >= self.next_shoe_at and self.reshuffle_due):
            self.shoe_number += 1
            self.next_shoe_at = self.clock + self.rng.randint(3 * 3600, 5 * 3600)
            self.shoe_date = self.today()
            stmts.append(Stmt("shoe", (f"{self.spec.table_id}-{self.shoe_number}",
                                       f"date={self.shoe_date.isoformat()}"), 20))
            if not self.dealer_id:
                self.change_dealer(stmts, burn=False)
            self.shuffle(stmts, injector)
        elif self.reshuffle_due:
            if self.cutcard_pending and injector.skip_reshuffle(self):
                self.first_deal_fault = ("a round dealt after the cutting card came out, "
                                         "without a reshuffle")
            else:
                self.shuffle(stmts, injector)
        if self.clock >= self.next_dealer_change:
            self.change_dealer(stmts, burn=self.rng.random() < 0.5)
        return stmts

    def burn_too_often(self, stmts: list[Stmt], injector: Hooks) -> None:
        """A planted fault: the most seen card burned until the shoe has held it once too
        often (only the last burn is over the count); a reshuffle follows at once."""
        seen = {c: n for c, n in self.seen.items() if c != BONUS_CARD}
        if not seen:
            return
        most = max(seen.values())
        card = self.rng.choice(sorted(c for c, n in seen.items() if n == most))
        for _ in range(self.spec.decks - most + 1):
            stmt = Stmt("burn", (card,), 2)
            stmts.append(stmt)
        stmt.fault = (injector.citation, f"{card} burned between rounds once more than the "
                                         "shoe holds it", type(injector).__name__)
        self.reshuffle_due = True

    def shuffle(self, stmts: list[Stmt], injector: Hooks) -> None:
        decks = self.spec.decks
        self.shoe.shuffle()
        self.seen = {}
        self.reshuffle_due = self.cutcard_pending = False
        stmts.append(Stmt("shuffle", (), 20 + 12 * decks))
        if injector.omit_cut(self):
            self.first_deal_fault = "a round dealt from cards shuffled but not cut"
        else:
            stmts.append(Stmt("cut", (), 8))
        low, high = (0.55, 0.7) if decks <= 2 else (0.7, 0.85)
        self.shoe.place_cut_card(self.rng.uniform(low, high))
        stmts.append(self.burn())

    def burn(self) -> Stmt:
        card = self.shoe.draw()
        self.seen[card] = self.seen.get(card, 0) + 1
        return Stmt("burn", (card,), 2)

    def change_dealer(self, stmts: list[Stmt], burn: bool) -> None:
        self.dealer_id = (self.surveillance.next_dealer(self) if self.surveillance
                          else f"D-{self.rng.randint(1000, 9999)}")
        self.next_dealer_change = self.clock + self.rng.randint(40 * 60, 80 * 60)
        stmts.append(Stmt("dealer", (self.dealer_id,), 30))
        if burn and self.shoe.position < self.shoe.cut_position - 1:
            stmts.append(self.burn())  # never the card at the cut: it would need a reshuffle

    # ---- players ----
    def new_player(self) -> Player:
        rng = self.rng
        spec = self.spec
        self.player_count += 1
        pooled = self.surveillance.next_player(self) if self.surveillance else None
        player_id = pooled or f"P-{rng.randint(10, 99)}{self.player_count:04d}"
        low = spec.minimum // 100
        unit = low * rng.choice((1, 1, 1, 2, 2, 3, 5, 10)) * 100
        side_low, side_high = spec.side_limits
        side_unit = min(side_high, max(side_low, rng.choice((5, 5, 10, 10, 25)) * 100))
        plays_side = spec.game in ("switch", "db21", "ladies") and rng.random() < 0.5
        if self.shape.cents and self.shape.rng.random() < 0.3 and unit + 50 <= spec.maximum:
            unit += 50  # 12.50: halves, 3 to 2 and 6 to 5 of it still fall on whole cents
        return Player(
            player_id, min(unit, spec.maximum), stay=int(rng.expovariate(1 / 60)) + 5,
            tips=0.03 if rng.random() < 0.2 else 0.0,
            insures=0.3 if rng.random() < 0.1 else 0.0,
            side=rng.uniform(0.5, 1.0) if plays_side else 0.0, side_unit=side_unit)

    def carried_card(self) -> tuple[str, str, int] | None:
        """A card punched at an earlier table before now, taken from the floor's pool."""
        ready = [n for n, entry in enumerate(self.carried_in) if entry[3] < self.clock]
        if not ready:
            return None
        player_id, card, punches, _ = self.carried_in.pop(self.rng.choice(ready))
        return player_id, card, punches

    def cards_away(self) -> list[tuple[str, str, int, int]]:
        """The cards this table punched that are still away, for the floor's later tables."""
        return self.to_floor + [(player, card, punches, self.punch_clock[card])
                                for player, card, punches in self.punched]

    def seat_changes(self, builder: RoundBuilder) -> None:
        rng = self.rng
        fault = builder.fault
        tensticks = self.spec.game == "tensticks"
        for seat in sorted(self.players):
            player = self.players[seat]
            player.stay -= 1
            if player.stay > 0:
                continue
            del self.players[seat]
            if tensticks and player.lit and player.lights > 0 and not player.no_card:
                # the card is punched with the lights held (zero after a prize: no card)
                self.punch_count += 1
                card = f"PC-{self.spec.table_id}-{self.punch_count:04d}"
                punches = fault.punches(builder, player.lights) or player.lights
                stmt = builder.emit("leave", f"s{seat}", f"punchcard={card}",
                                    f"punches={punches}", seconds=5)
                if punches != player.lights:
                    builder.mark(stmt, f"{card} punched {punches} for {player.lights} lights")
                if self.floor_share and rng.random() < self.floor_share:
                    self.to_floor.append((player.player_id, card, punches, self.clock))
                else:
                    self.punched.append((player.player_id, card, punches))
                    self.punch_clock[card] = self.clock
            else:
                builder.emit("leave", f"s{seat}", seconds=3)
        empty = [s for s in range(1, self.spec.seats + 1) if s not in self.players]
        arrivals = [s for s in empty if rng.random() < 0.04]
        if not self.players and empty and not arrivals:
            # an empty table (a new session): a few players sit down together
            arrivals = sorted(rng.sample(empty, min(len(empty), rng.randint(1, 4))))
        for seat in arrivals:
            player = self.new_player()
            player.light_serial = self.prize_serial
            words = [f"s{seat}", f"player={player.player_id}"]
            fault_text = None
            if tensticks and self.handed_in and fault.hand_in_again(builder):
                card, punches = self.handed_in[-1]
                fault_text = f"{card} handed in a second time"
            elif tensticks and self.carried_in and rng.random() < 0.25 and (
                    carried := self.carried_card()):
                player.player_id, card, punches = carried  # punched at another table
            elif tensticks and self.punched and (rng.random() < 0.4
                                                 or fault.wrong_hand_in(builder)):
                player_id, card, punched = self.punched.pop(rng.randrange(len(self.punched)))
                player.player_id = player_id
                punches = fault.hand_in_punches(builder, punched) or punched
                if punches != punched:
                    fault_text = f"{card} handed in with {punches} punches, punched {punched}"
                self.handed_in.append((card, punches))
            else:
                card = None
            if card is not None:
                player.lights = player.start = punches
                words += [f"punchcard={card}", f"punches={punches}"]
            stmt = builder.emit("sit", *words, seconds=10)
            if fault_text:
                builder.mark(stmt, fault_text)
            self.players[seat] = player
