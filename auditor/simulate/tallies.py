"""A floor's history written straight into a run store, without records: what `auditor
trends` reads, at sizes the simulator would take days to deal (bench/trends_year.py, and
the tests of trends' memory).

Each night is one finished run of one input per table: its table-night (as an audit
records it, complete, begun at the day shift and ended in the grave shift), its tallies
(rounds by dealer and shift, rounds by dealer and player, the game math's counts drawn
at their exact odds, the cards of each shuffle in a shuffled shoe's order) and its
findings, at `fault_rate` a round (a careless dealer's at a multiple of it from a given
night). The same arguments
give the same store. Rows go in as executemany batches (auditor/store/bulk.py), a night a
transaction.

The roster: three dealers a table a night, one a shift (day, swing, grave), moved three
places along the roster from one night to the next; players from a pool, a few at each
shift's table, the same player at several tables over the nights.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

import numpy as np

from auditor.store import schema
from auditor.store.bulk import last_ids, write_night
from auditor.store.engine import Engine
from auditor.store.tallies import TALLY_COLUMNS
from auditor.store.trend_reads import records_nights, records_spans
from auditor.tally import DEALER_BUST, DEALER_NATURAL, PLAYER_NATURAL
from auditor.trends import odds

SHIFTS = ("day", "swing", "grave")
SHIFT_HOURS = {"day": "10", "swing": "18", "grave": "02"}
SITE = "RL-BENCH"
DECKS = 6
CARDS_DEALT = 234  # of a six-deck shoe: cut at three quarters
CARDS_A_ROUND = 15
PLAYERS_A_SHIFT = 8
SEATED = 4  # players at the table in a round
CITATIONS = ("20:18:15:06", "20:18:15:07", "20:18:15:12", "20:18:15:23")
OVER_PAID = 0.3  # of the findings: an over-payment to a seated player
_TEXT = np.array([f"{r}{s}".encode() for r in "A23456789TJQK" for s in "cdhs"], dtype="S2")


@dataclass(frozen=True)
class FloorPlan:
    tables: int = 60
    nights: int = 365
    rounds: int = 390  # a table a night
    first: date = date(2026, 1, 1)
    seed: str = "floor"
    fault_rate: float = 0.0058  # findings a round
    players: int = 20_000
    careless: tuple[str, float, int] | None = None  # (dealer, multiple, from night 1-based)
    repeat_night: int | None = None  # table 1's first shuffle dealt again at the last table

    @property
    def roster(self) -> list[str]:
        return [f"D-{1001 + n}" for n in range(3 * self.tables)]

    def dealer(self, table: int, shift: int, night: int) -> str:
        roster = self.roster
        return roster[(3 * table + shift + 3 * night) % len(roster)]


def _rng(*parts: Any) -> np.random.Generator:
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


def _game_rates() -> list[tuple[str, int | None, float, float]]:
    """(statistic, up, share of rounds with a trial, chance of a hit) for six decks, S17."""
    rates = [(PLAYER_NATURAL, None, SEATED, float(odds.player_natural(DECKS)))]
    for up in range(1, 11):
        share = float(odds.up_card_probability(up))
        natural = float(odds.dealer_natural(up, DECKS)) if up in (1, 10) else 0.0
        if up in (1, 10):
            rates.append((DEALER_NATURAL, up, share, natural))
        rates.append((DEALER_BUST, up, share * (1 - natural),
                      float(odds.dealer_bust_without_natural(up, DECKS, False))))
    return rates


def write_floor(engine: Engine, plan: FloorPlan) -> int:
    """The plan's nights written into the (open, current) store; returns the rounds."""
    rates = _game_rates()
    shoe = np.repeat(np.arange(52, dtype=np.uint8), DECKS)
    lines_text = json.dumps([9] + [1] * (CARDS_DEALT - 1), separators=(",", ":"))
    total = 0
    recorded_first: str | None = None
    run_id, input_id = last_ids(engine)
    # a store of an earlier schema (the tests of old stores) has no table-nights to write
    with_nights = records_nights(engine) and records_spans(engine)
    for night in range(plan.nights):
        run_id += 1
        day = (plan.first + timedelta(days=night)).isoformat()
        next_day = (plan.first + timedelta(days=night + 1)).isoformat()  # the grave shift's
        rng = _rng(plan.seed, night)
        rows = _Rows(run_id)
        inputs, places, findings = [], [], []
        for table in range(plan.tables):
            input_id += 1
            table_id = f"T{table + 1:03d}"
            path = f"/floor/{day}/{table_id}.bjh"
            inputs.append((input_id, hashlib.sha256(f"{plan.seed}:{path}".encode()).hexdigest(),
                           table_id, "Bench Casino", SITE, "standard", day, day,
                           plan.rounds * 20, plan.rounds))
            places.append((run_id, table, input_id, path, plan.rounds, None, "{}"))
            add = rows.of_input(table)
            shares = np.full(len(SHIFTS), plan.rounds // len(SHIFTS))
            shares[: plan.rounds % len(SHIFTS)] += 1
            line = 10
            for shift, rounds in enumerate(shares.tolist()):
                dealer = plan.dealer(table, shift, night)
                name = SHIFTS[shift]
                add(schema.tally_rounds, SITE, table_id, dealer, day, name, rounds)
                players = rng.integers(0, plan.players, PLAYERS_A_SHIFT)
                weights = rng.multinomial(rounds * SEATED, [1 / PLAYERS_A_SHIFT] * PLAYERS_A_SHIFT)
                for player, played in zip(players.tolist(), weights.tolist(), strict=True):
                    if played:
                        add(schema.tally_pairs, dealer, f"P-{player:06d}", day, played)
                for statistic, up, share, chance in rates:
                    trials = (rounds * SEATED if statistic == PLAYER_NATURAL
                              else int(rng.binomial(rounds, share)))
                    add(schema.tally_game, dealer, day, DECKS, False, statistic, up, trials,
                        int(rng.binomial(trials, chance)))
                rate = plan.fault_rate
                if (plan.careless and dealer == plan.careless[0]
                        and night + 1 >= plan.careless[2]):
                    rate *= plan.careless[1]
                for _ in range(int(rng.poisson(rounds * rate))):
                    line += int(rng.integers(5, 60))
                    seat = int(rng.integers(1, 8))
                    over = rng.random() < OVER_PAID
                    difference = "5.00" if over else None
                    if over:
                        add(schema.tally_seats, line, f"s{seat}",
                            f"P-{int(rng.choice(players)):06d}")
                    citation = CITATIONS[int(rng.integers(len(CITATIONS)))]
                    findings.append(_finding(run_id, table, len(findings), path, line,
                                             table_id, dealer, day, name, citation, seat,
                                             difference))
            cards = plan.rounds * CARDS_A_ROUND
            for number in range(-(-cards // CARDS_DEALT)):
                dealt = rng.permutation(shoe)[:CARDS_DEALT]
                text = _TEXT[dealt].tobytes().decode("ascii")
                if plan.repeat_night == night + 1 and number == 0 and table == 0:
                    recorded_first = text
                if (plan.repeat_night == night + 1 and number == 2
                        and table == plan.tables - 1 and recorded_first):
                    text = recorded_first
                marks = json.dumps([[k, str(number * 16 + k // CARDS_A_ROUND + 1)]
                                    for k in range(0, CARDS_DEALT, CARDS_A_ROUND)],
                                   separators=(",", ":"))
                add(schema.tally_shuffles, SITE, table_id, f"{table_id}-{number + 1}", day,
                    DECKS, text, lines_text, marks)
            # the table-night, as an audit records it: what `trends` asks of each recording
            # to leave out those superseded (auditor/store/trend_reads.py)
            if with_nights:
                rows.rows[schema.table_nights].append((
                    run_id, table, day, SITE, table_id,
                    json.dumps([f"{day} {SHIFT_HOURS['day']}", 10, "1"], separators=(",", ":")),
                    plan.rounds, True, f"{day} {SHIFT_HOURS['day']}:00:00",
                    f"{next_day} {SHIFT_HOURS['grave']}:00:00"))
            total += plan.rounds
        write_night(engine, dict(
            id=run_id, tool_version="bench", rule_base="bench",
            command=f"audit /floor/{day}", started=f"{day}T12:00:00+00:00",
            finished=f"{day}T12:01:00+00:00", status="finished", exit_code=1,
            settings="{}", document="{}", extras="{}"), inputs, places, findings, rows.rows)
    return total


class _Rows:
    """A night's tally rows, numbered within each input as the store numbers them."""

    def __init__(self, run_id: int) -> None:
        self.run_id = run_id
        self.rows: dict[Any, list[tuple]] = {table: [] for table in TALLY_COLUMNS}

    def of_input(self, position: int):
        items = dict.fromkeys(TALLY_COLUMNS, 0)

        def add(table, *values) -> None:
            self.rows[table].append((self.run_id, position, items[table], *values))
            items[table] += 1

        return add


def _finding(run_id: int, place: int, position: int, path: str, line: int, table_id: str,
             dealer: str, day: str, shift: str, citation: str, seat: int,
             difference: str | None) -> tuple:
    """A finding's row as the store keeps it (the columns of schema.findings, in order)."""
    identifier = "BJH-" + hashlib.sha256(f"{path}:{line}".encode()).hexdigest()[:16].upper()
    time = f"{SHIFT_HOURS[shift]}:00:00"
    document = {"id": identifier, "citation": citation, "severity": "high", "file": path,
                "line": line, "round": str(line), "table": table_id, "seat": f"s{seat}",
                "message": "a planted finding", "difference": difference,
                "currency": "USD", "dealer": dealer, "date": day, "time": time,
                "round_started": time, "gaming_day": day, "shift": shift}
    cents = None if difference is None else 500
    return (run_id, position, place, line.to_bytes(8, "big"), identifier, citation, "high",
            path, line, str(line), table_id, dealer, day, shift, None, None, cents, "USD",
            False, None, json.dumps(document, separators=(",", ":")), f"{time} settle")
