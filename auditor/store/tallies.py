"""Tallies in the run store: written with a run's result, read back by `auditor trends`
(auditor/store/trend_reads.py, which sums them in SQL).

`record_tallies` is called by `record_result` in the same transaction (`record_tally` records
one input's, for a recorder that stores each file as it finishes).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection, Engine, and_, bindparam, func, insert, select

import auditor.store.schema as schema
from auditor.clock import repeated, zoned
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
    dict built per row, cost more than SQLite's insert. The values must be what
    the driver stores as they are: numbers, text, bytes, booleans."""
    if not rows:
        return
    if connection.dialect.name == "sqlite":
        text = _driver_insert(table, columns, connection.dialect)
        if text is not None:
            connection.exec_driver_sql(text, rows)
            return
    for start in range(0, len(rows), _BATCH):
        connection.execute(insert(table), [dict(zip(columns, row, strict=True))
                                           for row in rows[start:start + _BATCH]])


@lru_cache(maxsize=64)  # a few tables, per dialect: bounded for a long-lived process
def _driver_insert(table, columns: tuple[str, ...], dialect) -> str | None:
    """The driver's INSERT of `columns` into `table`, its parameters in that order (None
    where the dialect orders them otherwise): compiled once per table, not at every
    file's rows (compiling cost more than inserting a file's tally)."""
    compiled = insert(table).values({key: bindparam(key) for key in columns}).compile(
        dialect=dialect)
    order = compiled.positiontup
    if compiled.positional and order is not None and tuple(order) == columns:
        return str(compiled)
    return None


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
    for (dealer, stamp, hour), count in tally.rounds.items():
        day, shift = of_stamp(stamp)
        if " " not in (stamp or ""):  # no date or no time: the hour alone, if any
            shift = calendar.shift_of_hour(hour)
        key = (dealer, day, shift)
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
TALLY_COLUMNS = {table: tuple(table.columns.keys()) for table in (
    schema.tally_rounds, schema.tally_pairs, schema.tally_seats, schema.tally_game,
    schema.tally_shuffles, schema.table_nights)}


def _rows(run_id: int, position: int, tally: Tally,
          calendar: Calendar = DEFAULT_CALENDAR) -> dict[Any, list[tuple]]:
    """Each tally table's rows, as tuples of its `TALLY_COLUMNS` (a file's thousands of rows:
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
    rows[schema.table_nights] = _nights(run_id, position, tally, rounds, of_stamp,
                                        calendar.time_zone)
    rows[schema.tally_shuffles] = [  # (their texts made in the worker: `ClosedShuffle`)
        (run_id, position, item, site, table_id, shuffled.shoe_id,
         of_stamp(shuffled.date)[0], decks, shuffled.cards, shuffled.lines, shuffled.rounds)
        for item, shuffled in enumerate(tally.shuffles)]
    return rows


def _nights(run_id: int, position: int, tally: Tally, rounds: dict[tuple, int],
            of_stamp: Any, zone_name: str | None = None) -> list[tuple]:
    """The table's gaming days in the record: the rounds of each, and where it begins
    (its first round's hour stamp, line and round ID, as text). An undated night has no
    row: with no gaming day, no later recording can be told to be of the same night."""
    counts: dict[str, int] = {}
    for (_, day, _), count in rounds.items():
        if day is not None:
            counts[day] = counts.get(day, 0) + count
    starts: dict[str, tuple] = {}
    for stamp, (line, round_id, *_) in tally.spans.items():
        day = of_stamp(stamp)[0]
        if day in counts and (day not in starts or line < starts[day][1]):
            starts[day] = (stamp, line, round_id)
    complete = bool(tally.finished)
    spans = _spans(tally, counts, of_stamp, zone_name)
    return [(run_id, position, day, tally.site, tally.table_id,
             json.dumps(starts.get(day), separators=(",", ":")), count, complete,
             *spans.get(day, (None, None)))
            for day, count in counts.items()]


def _spans(tally: Tally, counts: dict[str, int], of_stamp: Any,
           zone_name: str | None = None) -> dict[str, tuple]:
    """Each night's first and last round (in the record's order) as their local date and
    time ("2026-03-01 20:01:00"); none for a night with a round of no time, whose span is
    not known. A time in the hour the floor's zone (`zone_name`) repeats when daylight
    saving time ends says so ("2026-11-01 01:20:00 MDT or MST", `clock.zoned`): the record
    cannot tell which pass it was, so two such times are never compared
    (store/trend_reads.py, `_contained_nights`); against any other time their text orders
    them rightly, the repeated hour lying wholly between 01:00 and 02:00."""
    first: dict[str, tuple] = {}
    last: dict[str, tuple] = {}
    untimed = set()
    for stamp, (first_line, _, first_clock, last_line, _, last_clock) in tally.spans.items():
        day = of_stamp(stamp)[0]
        if day not in counts:
            continue
        if not (isinstance(first_clock, str) and isinstance(last_clock, str)):
            untimed.add(day)
            continue
        if day not in first or first_line < first[day][0]:
            first[day] = (first_line, _moment(zone_name, stamp[:10], first_clock))
        if day not in last or last_line > last[day][0]:
            last[day] = (last_line, _moment(zone_name, stamp[:10], last_clock))
    return {day: (first[day][1], last[day][1]) for day in first if day not in untimed}


def _moment(zone_name: str | None, day: str, clock: str) -> str:
    """A span's end as stored: its date and time, and both offsets in the repeated hour."""
    if zone_name and repeated(zone_name, day, clock):
        return f"{day} {zoned(zone_name, day, clock)}"
    return f"{day} {clock}"


def record_tally(connection: Connection, run_id: int, position: int, tally: Tally,
                 calendar: Calendar = DEFAULT_CALENDAR) -> None:
    """One input's tally, in the caller's transaction: with a run's whole result
    (`record_tallies`) or as each file of the run is recorded; dates as `calendar`'s
    gaming days."""
    for table, rows in _rows(run_id, position, tally, calendar).items():
        insert_rows(connection, table, TALLY_COLUMNS[table], rows)


def record_tallies(connection: Connection, run_id: int, tallies: list[Tally],
                   calendar: Calendar = DEFAULT_CALENDAR) -> None:
    """Every input's tally (inputs that could not be read have an empty one)."""
    for position, tally in enumerate(tallies):
        record_tally(connection, run_id, position, tally, calendar)


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
