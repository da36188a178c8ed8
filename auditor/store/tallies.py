"""Tallies in the run store: written with a run's result, read back by `auditor trends`.

`record_tallies` is called by `record_result` in the same transaction (`record_tally` records
one input's, for a recorder that stores each file as it finishes). Which tallies
`trends` reads: for each distinct input content, the latest finished run that audited it
with a tally, so that a night audited twice counts once (`latest_tallied_inputs`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, and_, bindparam, func, insert, or_, select

import auditor.store.schema as schema
from auditor.fieldwise import Fieldwise
from auditor.gaming_day import DEFAULT as DEFAULT_CALENDAR
from auditor.gaming_day import Calendar
from auditor.store.engine import reading
from auditor.tally import Tally

_BATCH = 1000


def insert_rows(connection: Connection, table, columns: tuple[str, ...],
                rows: list[tuple]) -> None:
    """Rows (tuples of the values of `columns`, in that order) added to `table` in the
    caller's transaction. On SQLite they go straight to the driver's executemany as they
    are: SQLAlchemy's work per row (its parameters processed one by one), and before it a
    dict built per row, cost more than SQLite's insert (issue 27). The values must be what
    the driver stores as they are: numbers, text, bytes, booleans."""
    if not rows:
        return
    if connection.dialect.name == "sqlite":
        compiled = insert(table).values({key: bindparam(key) for key in columns}).compile(
            dialect=connection.dialect)
        order = compiled.positiontup
        if compiled.positional and order is not None and tuple(order) == columns:
            connection.exec_driver_sql(str(compiled), rows)
            return
    for start in range(0, len(rows), _BATCH):
        connection.execute(insert(table), [dict(zip(columns, row, strict=True))
                                           for row in rows[start:start + _BATCH]])


def lines_of(steps: str) -> list[int]:
    """A shuffle's line numbers from their stored steps (`tally.line_steps`)."""
    lines, line = [], 0
    for step in json.loads(steps):
        line += step
        lines.append(line)
    return lines


def _in_gaming_days(tally: Tally, calendar: Calendar) -> tuple[dict, dict, dict, Any]:
    """The tally's rounds, pairs and game counts with their date and hour made gaming days
    and shifts (`calendar`): the hours of one gaming day are added together, each key in
    the order it first comes (the order the store numbers the rows in). Plain dicts: a
    `Counter` adds through a slow slot, and a file has thousands of keys."""
    days: dict[str | None, tuple] = {}  # each stamp worked out once: a file has few hours

    def of_stamp(stamp: str | None) -> tuple:
        found = days.get(stamp)
        if found is None:
            found = days[stamp] = calendar.of_stamp(stamp)
        return found

    rounds: dict[tuple, int] = {}
    for (dealer, stamp, shift), count in tally.rounds.items():
        day, hour_shift = of_stamp(stamp)
        key = (dealer, day, hour_shift if " " in (stamp or "") else shift)
        rounds[key] = rounds.get(key, 0) + count
    pairs: dict[tuple, int] = {}
    for (dealer, player, stamp), count in tally.pairs.items():
        key = (dealer, player, of_stamp(stamp)[0])
        pairs[key] = pairs.get(key, 0) + count
    game: dict[tuple, list[int]] = {}
    for dealer, stamp, statistic, up, trials, hits in tally.game_counts():
        key = (dealer, of_stamp(stamp)[0], statistic, up)
        counts = game.get(key)
        if counts is None:
            game[key] = [trials, hits]
        else:
            counts[0] += trials
            counts[1] += hits
    return rounds, pairs, game, of_stamp


# A row's values in its table's column order (the tables are in store/schema.py)
_COLUMNS = {table: tuple(table.columns.keys()) for table in (
    schema.tally_rounds, schema.tally_pairs, schema.tally_seats, schema.tally_game,
    schema.tally_shuffles)}


def _rows(run_id: int, position: int, tally: Tally,
          calendar: Calendar = DEFAULT_CALENDAR) -> dict[Any, list[tuple]]:
    """Each tally table's rows, as tuples of its `_COLUMNS` (a file's thousands of rows:
    no dict per row)."""
    rows: dict[Any, list[tuple]] = {}
    rounds, pairs, game, of_stamp = _in_gaming_days(tally, calendar)
    site, table_id, decks = tally.site, tally.table_id, tally.decks
    rows[schema.tally_rounds] = [
        (run_id, position, item, site, table_id, dealer, date, shift, count)
        for item, ((dealer, date, shift), count) in enumerate(rounds.items())]
    rows[schema.tally_pairs] = [
        (run_id, position, item, dealer, player, date, count)
        for item, ((dealer, player, date), count) in enumerate(pairs.items())]
    rows[schema.tally_seats] = [
        (run_id, position, item, line, seat, player)
        for item, (line, seat, player) in enumerate(tally.seats)]
    soft = tally.hits_soft_17
    rows[schema.tally_game] = [
        (run_id, position, item, dealer, date, decks, soft, statistic, up, trials, hits)
        for item, ((dealer, date, statistic, up), (trials, hits)) in enumerate(game.items())]
    rows[schema.tally_shuffles] = [  # (their texts made in the worker: `ClosedShuffle`)
        (run_id, position, item, site, table_id, shuffled.shoe_id,
         of_stamp(shuffled.date)[0], decks, shuffled.cards, shuffled.lines, shuffled.rounds)
        for item, shuffled in enumerate(tally.shuffles)]
    return rows


def record_tally(connection: Connection, run_id: int, position: int, tally: Tally,
                 calendar: Calendar = DEFAULT_CALENDAR) -> None:
    """One input's tally, in the caller's transaction: with a run's whole result
    (`record_tallies`) or as each file of the run is recorded; dates as `calendar`'s
    gaming days."""
    for table, rows in _rows(run_id, position, tally, calendar).items():
        insert_rows(connection, table, _COLUMNS[table], rows)


def record_tallies(connection: Connection, run_id: int, tallies: list[Tally],
                   calendar: Calendar = DEFAULT_CALENDAR) -> None:
    """Every input's tally (inputs that could not be read have an empty one)."""
    for position, tally in enumerate(tallies):
        record_tally(connection, run_id, position, tally, calendar)


@dataclass(frozen=True, repr=False)
class TalliedInput(Fieldwise):
    """An input content as `trends` reads it: from the latest finished run that tallied it."""

    run_id: int
    position: int
    path: str


def latest_tallied_inputs(engine: Engine) -> list[TalliedInput]:
    """For each distinct input content, the latest finished run with a tally of it."""
    runs, places, rounds = schema.runs, schema.run_inputs, schema.tally_rounds
    tallied = (select(rounds.c.run_id, rounds.c.position).distinct()).subquery()
    query = (select(places.c.input_id, places.c.run_id, places.c.position, places.c.path)
             .join(runs, runs.c.id == places.c.run_id)
             .join(tallied, and_(tallied.c.run_id == places.c.run_id,
                                 tallied.c.position == places.c.position))
             .where(runs.c.status == "finished", places.c.input_id.is_not(None))
             .order_by(places.c.input_id, places.c.run_id.desc(), places.c.position))
    chosen: dict[int, TalliedInput] = {}
    with reading(engine).connect() as connection:
        for row in connection.execute(query):
            chosen.setdefault(row.input_id, TalliedInput(row.run_id, row.position, row.path))
    return sorted(chosen.values(), key=lambda i: (i.run_id, i.position))


def tally_rows(engine: Engine, table, inputs: list[TalliedInput], since: str | None,
               until: str | None, dated: bool = True) -> Iterator[Any]:
    """The rows of one tally table for these inputs, within the window of dates (`dated`:
    the table has a date column)."""
    wanted = {(i.run_id, i.position) for i in inputs}
    for run_id in sorted({i.run_id for i in inputs}):
        query = select(table).where(table.c.run_id == run_id)
        if dated and since:
            query = query.where(table.c.date >= since)
        if dated and until:
            query = query.where(table.c.date <= until)
        query = query.order_by(table.c.position, table.c.item)
        with reading(engine).connect() as connection:
            for row in connection.execute(query.execution_options(yield_per=_BATCH)):
                if (row.run_id, row.position) in wanted:
                    yield row


def finding_rows(engine: Engine, inputs: list[TalliedInput], since: str | None,
                 until: str | None) -> Iterator[tuple[TalliedInput, Any]]:
    """The findings of these inputs (matched on the run and the file's path) in the window.
    A finding of a round with no date is kept as its round is (no window holds either), and
    so is one met between rounds in an undated shoe (it names the dealer in force); a
    finding about a whole file (no round, no date, no dealer) is outside every window."""
    findings = schema.findings
    by_place = {(i.run_id, i.path): i for i in inputs}
    for run_id in sorted({i.run_id for i in inputs}):
        query = (select(findings).where(findings.c.run_id == run_id,
                                        or_(findings.c.date.is_not(None),
                                            findings.c.round_id.is_not(None),
                                            findings.c.dealer.is_not(None)))
                 .order_by(findings.c.position))
        if since:
            query = query.where(findings.c.date >= since)
        if until:
            query = query.where(findings.c.date <= until)
        with reading(engine).connect() as connection:
            for row in connection.execute(query.execution_options(yield_per=_BATCH)):
                place = by_place.get((run_id, row.file))
                if place is not None:
                    yield place, row


def run_count(engine: Engine) -> int:
    with reading(engine).connect() as connection:
        return connection.execute(select(func.count()).select_from(schema.runs)).scalar_one()


def seated_players(engine: Engine, run_id: int) -> dict[tuple[str, int, str], str]:
    """Who sat at the seat each of the run's findings names, as the worker saw it
    (`Tally.seats`): (file, line, seat) -> player."""
    seats, places = schema.tally_seats, schema.run_inputs
    query = (select(places.c.path, seats.c.line, seats.c.seat, seats.c.player)
             .join(places, and_(places.c.run_id == seats.c.run_id,
                                places.c.position == seats.c.position))
             .where(seats.c.run_id == run_id))
    with reading(engine).connect() as connection:
        return {(path, line, seat): player
                for path, line, seat, player in connection.execute(query)}
