"""The floor's sums, read once from the store for the questions of auditor/trends/analysis.py.

Rounds come summed by the store (auditor/store/trend_reads.py); findings are streamed and
summed here, one at a time: each is counted under its dealer, table, shift, gaming day and
citation, its exact money added to theirs, and an over-payment kept (its ID and amount)
under the dealer–player pair it favoured. What is held is one entry a unit, a unit and
day, or an over-payment: never a round or a finding.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from auditor.gaming_day import stamped_shift
from auditor.money import ZERO, MoneyTotals
from auditor.store import trend_reads
from auditor.store.engine import Engine

NO_DEALER = "(no dealer)"
# Rounds with no gaming date (date= is optional on `shoe` and `round` in BJH 1, and a round
# takes its shoe's): one day of their own, their findings counted with them.
UNDATED = "(undated)"
NO_SHIFT = "(none)"
DIMENSIONS = ("dealer", "table", "shift", "day")


def table_name(site: str | None, table_id: str | None) -> str:
    """A table's identity: its licence (or casino) and its table ID."""
    return f"{site} {table_id}" if site else str(table_id)


def amount_of(document: dict[str, Any]) -> Decimal:
    """A finding's difference, exact as in the audit (findings.json's text; the store's
    cents column drops a computed amount's fraction of a cent)."""
    text = document.get("difference")
    return Decimal(text) if text else ZERO


@dataclass
class FloorCounts:
    """What the window holds, summed."""

    runs: list[int] = field(default_factory=list)  # with tallied rounds in the window
    inputs: int = 0
    rounds: dict[str, Counter] = field(  # dimension -> unit -> rounds
        default_factory=lambda: {d: Counter() for d in DIMENSIONS})
    cell_rounds: Counter = field(default_factory=Counter)  # (dealer, table) -> rounds
    day_rounds: Counter = field(default_factory=Counter)  # (kind, unit, day) -> rounds
    found: dict[str, Counter] = field(  # dimension (and citation) -> unit -> findings
        default_factory=lambda: {d: Counter() for d in (*DIMENSIONS, "citation")})
    money: dict[tuple[str, Any], MoneyTotals] = field(
        default_factory=lambda: defaultdict(MoneyTotals))
    floor_found: int = 0
    floor_money: MoneyTotals = field(default_factory=MoneyTotals)
    cell_found: Counter = field(default_factory=Counter)  # of tallied cells only
    day_found: Counter = field(default_factory=Counter)
    # dealer–player pairs: each over-payment (finding ID, currency, amount), by pair
    over: dict[tuple[str, str], list[tuple[str, str | None, Decimal]]] = field(
        default_factory=lambda: defaultdict(list))
    day_over: dict[tuple[str, str], Counter] = field(  # (dealer, player) -> day -> count
        default_factory=lambda: defaultdict(Counter))
    dealer_over: Counter = field(default_factory=Counter)
    # each (dealer, table, day): kept only where asked (`count_floor(…, by_cell_day=True)`)
    by_cell_day: bool = False
    cell_day_rounds: Counter = field(default_factory=Counter)
    cell_day_found: Counter = field(default_factory=Counter)

    @property
    def days(self) -> list[str]:
        """Every gaming day with a tallied round, undated last."""
        return sorted({day for _, _, day in self.day_rounds},
                      key=lambda d: (d == UNDATED, d))


def count_floor(engine: Engine, since: str | None, until: str | None,
                by_cell_day: bool = False) -> FloorCounts:
    """The window's sums; `by_cell_day` also each (dealer, table, day)'s: for a few nights
    (a year's would hold a line per dealer and night)."""
    counts = FloorCounts(by_cell_day=by_cell_day)
    counts.runs, counts.inputs = trend_reads.window_inputs(engine, since, until)
    _count_rounds(counts, engine, since, until)
    _count_findings(counts, engine, since, until)
    return counts


def _count_rounds(counts: FloorCounts, engine: Engine, since: str | None,
                  until: str | None) -> None:
    rounds = counts.rounds
    for row in trend_reads.round_totals(engine, since, until):
        dealer, table = row.dealer or NO_DEALER, table_name(row.site, row.table_id)
        day, n = row.date or UNDATED, row.rounds
        rounds["dealer"][dealer] += n
        rounds["table"][table] += n
        rounds["shift"][row.shift or NO_SHIFT] += n
        rounds["day"][day] += n
        counts.cell_rounds[dealer, table] += n
        counts.day_rounds["dealer", dealer, day] += n
        counts.day_rounds["table", table, day] += n
        if counts.by_cell_day:
            counts.cell_day_rounds[dealer, table, day] += n


def _count_findings(counts: FloorCounts, engine: Engine, since: str | None,
                    until: str | None) -> None:
    """Each finding of the window counted where it belongs; a run's seats read when its
    first over-payment comes (the findings come a run at a time)."""
    found, money, cell_rounds = counts.found, counts.money, counts.cell_rounds
    seats_of: int | None = None
    seats: dict[tuple[int, int, str], str] = {}
    for (run_id, place, site, dealer, table_id, day, citation, currency, line, finding_id,
         file, text) in trend_reads.window_findings(engine, since, until):
        document = json.loads(text)
        dealer = dealer or NO_DEALER
        table = table_name(site, table_id)
        day = day or UNDATED
        shift = stamped_shift(document.get("shift"), document.get("gaming_day"),
                              document.get("date"), document.get("round_started")
                              or document.get("time")) or NO_SHIFT
        units = (("dealer", dealer), ("table", table), ("shift", shift), ("day", day),
                 ("citation", citation))
        for dimension, key in units:
            found[dimension][key] += 1
        counts.floor_found += 1
        difference = amount_of(document)
        if difference:
            for unit in units:
                money[unit].add(currency, difference)
            counts.floor_money.add(currency, difference)
        if (dealer, table) in cell_rounds:  # else no rate to put it in
            counts.cell_found[dealer, table] += 1
            counts.day_found["dealer", dealer, day] += 1
            counts.day_found["table", table, day] += 1
            if counts.by_cell_day:
                counts.cell_day_found[dealer, table, day] += 1
        if difference > 0 and document.get("seat"):
            if seats_of != run_id:
                seats_of, seats = run_id, trend_reads.run_seats(engine, run_id)
            player = seats.get((place, line, document["seat"]))
            if player is not None:
                counts.over[dealer, player].append(
                    (finding_id or f"{file}:{line}", currency, difference))
                counts.day_over[dealer, player][day] += 1
                counts.dealer_over[dealer] += 1
