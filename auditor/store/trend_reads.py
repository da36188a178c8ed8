"""What `auditor trends` reads of the run store, summed where the history is.

Every query reads the tallies of the *chosen* inputs: for each distinct input content, the
latest finished run that tallied it (the run's lowest place for that content), so that a
night audited twice counts once. The choice is made in SQL (`chosen_inputs`, a window
function: SQLite 3.25 and PostgreSQL alike), and the tallies are summed there by the units
`trends` judges: what comes back is a row per dealer, table, shift and gaming day, per
dealer–player pair, per game-math cell; never a row per round. What is read row by row is
streamed (`yield_per`) and only summed by the caller: the findings (their exact money is in
their documents), one run's seats at a time, and the cards of the shuffles, which
auditor/trends/repeats.py spills to disk.

A window of gaming dates (`since`, `until`, inclusive; either may be None) holds only dated
rows; with neither, undated rows are read too.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    BigInteger,
    Engine,
    Select,
    and_,
    case,
    cast,
    func,
    inspect,
    literal_column,
    or_,
    select,
    tuple_,
    union_all,
)

import auditor.store.schema as schema
from auditor.store.engine import reading

BATCH = 2000  # rows fetched at a time from a streamed query
_SNAPSHOT = "bjh_trends_snapshot"  # an engine's execution option: its `Snapshot`


@dataclass(frozen=True)
class Snapshot:
    """The runs finished when a reading began (`as_of_now`): those up to `last_run` but
    `unfinished`; `supersedes`: whether any of their table-nights was superseded then."""

    last_run: int
    unfinished: tuple[int, ...]
    supersedes: bool = True


def _snapshot(engine: Engine) -> Snapshot | None:
    return engine.get_execution_options().get(_SNAPSHOT)


def as_of_now(engine: Engine) -> Engine:
    """`engine`, every read through it taking the store as it is now: the runs finished
    now, never one that finishes meanwhile, so that the rounds, the findings and the
    links of one `trends` are read from the same runs however long it reads while audits
    record (each query is its own transaction); and, when no table-night of those runs is
    superseded (the usual store), no query asks again which are."""
    if _snapshot(engine) is not None:
        return engine
    runs = schema.runs
    with reading(engine).connect() as connection:  # one transaction: one state
        last = connection.execute(select(func.max(runs.c.id))).scalar() or 0
        unfinished = tuple(connection.execute(
            select(runs.c.id).where(runs.c.id <= last, runs.c.status != "finished")
            .order_by(runs.c.id)).scalars())
    fixed = engine.execution_options(**{_SNAPSHOT: Snapshot(last, unfinished)})
    supersedes = False
    if records_nights(fixed):
        superseded = superseded_nights(fixed)
        with reading(fixed).connect() as connection:
            supersedes = connection.execute(
                select(select(superseded.c.run_id).exists())).scalar_one()
    return engine.execution_options(**{_SNAPSHOT: Snapshot(last, unfinished, bool(supersedes))})


def _supersedes(engine: Engine) -> bool:
    """Whether the reads must leave superseded table-nights out."""
    snapshot = _snapshot(engine)
    return (snapshot is None or snapshot.supersedes) and records_nights(engine)


def chosen_inputs(engine: Engine):
    """The inputs `trends` reads, as a subquery (run_id, position, path): for each input
    content, the latest finished run with a tally of it that judged every check, else the
    latest that judged some (`--select`, `--ignore`: a re-check of one citation judged
    less, it did not find less, and never replaces an audit that judged all), and in that
    run its first place (of the runs of the engine's snapshot, `as_of_now`, if it has
    one)."""
    runs, places, rounds = schema.runs, schema.run_inputs, schema.tally_rounds
    tallied = (select(rounds.c.run_id)
               .where(rounds.c.run_id == places.c.run_id,
                      rounds.c.position == places.c.position).exists())
    latest = func.row_number().over(partition_by=places.c.input_id,
                                    order_by=(_judged_in_part(runs.c.settings),
                                              places.c.run_id.desc(), places.c.position))
    ranked = (select(places.c.run_id, places.c.position, places.c.path,
                     latest.label("latest"))
              .join(runs, runs.c.id == places.c.run_id)
              .where(runs.c.status == "finished", places.c.input_id.is_not(None), tallied))
    snapshot = _snapshot(engine)
    if snapshot is not None:
        ranked = ranked.where(runs.c.id <= snapshot.last_run)
        if snapshot.unfinished:
            ranked = ranked.where(runs.c.id.not_in(snapshot.unfinished))
    ranked = ranked.subquery("ranked")
    return (select(ranked.c.run_id, ranked.c.position, ranked.c.path)
            .where(ranked.c.latest == 1).subquery("chosen"))


def _judged_in_part(settings):
    """1 for a run that left checks unjudged, else 0: its settings' JSON (written compact
    by store/encoding.py, `_json`) names them in a `not_judged` list that is not empty. A
    record's text in it (a path) has its quotes escaped, so it cannot spell the pattern."""
    return case((settings.like('%"not_judged":["%'), literal_column("1")),
                else_=literal_column("0"))


def superseded_nights(engine: Engine, overlapping: bool = True):
    """The table-nights of chosen inputs that another recording supersedes, as a subquery
    (run_id, position, night). A table-night is a table (its licence, else casino, and
    table ID) on a gaming day, begun at one round (`table_nights.start`): a record audited
    while its table was open, then again once finished, records the same table-night
    twice, and only one recording counts: a complete one (the table closed, or
    `audit --finished`) before any that is not; among complete ones the latest recorded
    (the highest run, then the later place in it); among incomplete ones the one with the
    most rounds of that night, then the latest (a record still being written only grows,
    so an older partial audited after a newer one never wins). Two records of one night
    that begin at different rounds (a swing and a grave shift file) are two table-nights,
    unless the rounds of one lie within the other's (`_contained_nights`: the night split
    in two files, and audited whole too), or, with `overlapping`, their spans overlap
    (`_overlapped_nights`: the night cut twice, differently). A table with no ID, and an
    undated night, are never superseded."""
    by_start = _superseded_by_start(engine)
    again = literal_column(f"'{RECORDED_AGAIN}'")
    parts = [select(by_start.c.run_id, by_start.c.position, by_start.c.night,
                    again.label("reason"))]
    if not records_spans(engine):
        return parts[0].subquery("superseded_by_start")
    spanned = _spanned_nights(engine, by_start)
    contained = _contained_nights(spanned)
    parts.append(select(contained.c.run_id, contained.c.position, contained.c.night, again))
    if overlapping:
        overlapped = _overlapped_nights(spanned, contained)
        parts.append(select(overlapped.c.run_id, overlapped.c.position, overlapped.c.night,
                            literal_column(f"'{CUT_ACROSS}'")))
    return union_all(*parts).subquery("superseded_or_contained")


# Why a recording is left out (`superseded_recordings`): another holds every round of it,
# or it shares rounds with another cut of the night and its own rounds are not counted.
RECORDED_AGAIN, CUT_ACROSS = "recorded again", "cut across another"


def _ranked_nights(engine: Engine):
    """The table-nights of the chosen inputs, each ranked among the recordings of its
    table-night begun at the same round (1: the one that counts)."""
    nights, chosen = schema.table_nights, chosen_inputs(engine)
    rank = func.row_number().over(
        partition_by=(nights.c.site, nights.c.table_id, nights.c.night, nights.c.start),
        order_by=(nights.c.complete.desc(),
                  case((nights.c.complete, literal_column("0")), else_=nights.c.rounds).desc(),
                  nights.c.run_id.desc(), nights.c.position.desc()))
    return (select(nights.c.run_id, nights.c.position, nights.c.night, rank.label("rank"))
            .join(chosen, and_(chosen.c.run_id == nights.c.run_id,
                               chosen.c.position == nights.c.position))
            .where(nights.c.table_id.is_not(None))
            .subquery("ranked_nights"))


def _superseded_by_start(engine: Engine):
    ranked = _ranked_nights(engine)
    return (select(ranked.c.run_id, ranked.c.position, ranked.c.night)
            .where(ranked.c.rank > 1).subquery("superseded"))


def _spanned_nights(engine: Engine, by_start):
    """The table-nights with a span (`first_round` to `last_round`) of the chosen inputs
    not superseded by their first round, as a CTE."""
    nights, chosen = schema.table_nights, chosen_inputs(engine)
    return (select(nights.c.run_id, nights.c.position, nights.c.night, nights.c.site,
                   nights.c.table_id, nights.c.complete, nights.c.rounds,
                   nights.c.first_round, nights.c.last_round)
            .join(chosen, and_(chosen.c.run_id == nights.c.run_id,
                               chosen.c.position == nights.c.position))
            .where(nights.c.table_id.is_not(None), nights.c.first_round.is_not(None),
                   nights.c.last_round.is_not(None),
                   ~select(by_start.c.run_id).where(
                       by_start.c.run_id == nights.c.run_id,
                       by_start.c.position == nights.c.position,
                       by_start.c.night == nights.c.night).exists())
            .cte("spanned_nights"))


def _same_night(this, other):
    """Two other recordings of one table's gaming day."""
    return and_(other.c.site.is_not_distinct_from(this.c.site),
                other.c.table_id == this.c.table_id, other.c.night == this.c.night,
                or_(other.c.run_id != this.c.run_id, other.c.position != this.c.position))


def _later(this, other):
    return or_(other.c.run_id > this.c.run_id,
               and_(other.c.run_id == this.c.run_id, other.c.position > this.c.position))


def _contained_nights(spanned):
    """The table-nights, of those not superseded by their first round (`spanned`), whose
    span of time (`first_round` to `last_round`) lies within another's of the same table
    and gaming day: the other's is wider, or the same and it is complete where this one is
    not, or as complete and recorded later. Table-nights with no span are never compared,
    nor two ends that both lie in the hour repeated when daylight saving time ends
    (tallies.py, `_spans`: the record does not say which pass they were)."""
    this, other = spanned.alias("this_night"), spanned.alias("other_night")
    same_span = and_(other.c.first_round == this.c.first_round,
                     other.c.last_round == this.c.last_round)
    wins = or_(~same_span,
               and_(other.c.complete, ~this.c.complete),
               and_(other.c.complete == this.c.complete, _later(this, other)))
    within = (select(other.c.run_id)
              .where(_same_night(this, other),
                     other.c.first_round <= this.c.first_round,
                     other.c.last_round >= this.c.last_round, wins,
                     _ordered(other.c.first_round, this.c.first_round),
                     _ordered(other.c.last_round, this.c.last_round))
              .exists())
    return select(this.c.run_id, this.c.position, this.c.night).where(within).subquery(
        "contained")


def _overlapped_nights(spanned, contained):
    """The table-nights, of those neither superseded by their first round nor within
    another (`contained`), whose span overlaps another's of the same table and gaming day
    (the night cut twice, differently: 22:00-02:00 and 01:00-06:00): the rounds of the
    overlap are in both, and the tallies, summed by dealer and shift, cannot tell which
    they are, so one cut counts whole and the other not at all. The cut that counts: a
    complete one before one that is not, then the one with more rounds of the night, then
    the later recorded. Ends that meet are no overlap: a recorder that rotated its file
    in a round may write that one round in both files, and leaving a whole file out for
    it would lose every other round of it; nor are two ends that cannot be ordered
    (`_ordered`)."""
    this, other = spanned.alias("this_cut"), spanned.alias("other_cut")
    wins = or_(and_(other.c.complete, ~this.c.complete),
               and_(other.c.complete == this.c.complete,
                    or_(other.c.rounds > this.c.rounds,
                        and_(other.c.rounds == this.c.rounds, _later(this, other)))))

    def left(night):
        return ~select(contained.c.run_id).where(
            contained.c.run_id == night.c.run_id, contained.c.position == night.c.position,
            contained.c.night == night.c.night).exists()

    overlaps = (select(other.c.run_id)
                .where(_same_night(this, other), left(other),
                       other.c.first_round < this.c.last_round,
                       other.c.last_round > this.c.first_round, wins,
                       _ordered(other.c.first_round, this.c.last_round),
                       _ordered(other.c.last_round, this.c.first_round))
                .exists())
    return (select(this.c.run_id, this.c.position, this.c.night)
            .where(left(this), overlaps).subquery("overlapped"))


def _ordered(one, other):
    """Whether two span ends can be ordered by their text: not two in the hour repeated
    when daylight saving time ends (tallies.py, `_spans`), unless the same (the same round:
    two rounds of one table do not begin at one second of both passes). An end a run
    without a time zone kept as written ("2026-11-01 01:10:00") lies in that hour when it
    is of the same date and hour as an end kept as both ("2026-11-01 01:40:00 MDT or
    MST"): which pass it was, its text does not say either."""
    return or_(one == other,
               ~or_(_repeated(one), _repeated(other)),
               func.substr(one, 1, 13) != func.substr(other, 1, 13))


def _repeated(moment):
    """Whether a span's end is a time of the hour repeated when daylight saving time ends
    ("01:20:00 MDT or MST"): which pass it was, the record does not say."""
    return moment.like("% or %")


def superseded_recordings(engine: Engine, since: str | None,
                          until: str | None) -> list[dict[str, Any]]:
    """The table-nights of the window left out because another recording supersedes them:
    their run, file, gaming day and why (RECORDED_AGAIN, CUT_ACROSS), in the order they
    were recorded."""
    if not _supersedes(engine):
        return []
    superseded, places = superseded_nights(engine), schema.run_inputs
    query = (select(superseded.c.run_id, places.c.path, superseded.c.night,
                    superseded.c.reason)
             .join(places, and_(places.c.run_id == superseded.c.run_id,
                                places.c.position == superseded.c.position))
             .order_by(superseded.c.run_id, superseded.c.position, superseded.c.night))
    if since:
        query = query.where(superseded.c.night >= since)
    if until:
        query = query.where(superseded.c.night <= until)
    with reading(engine).connect() as connection:
        return [{"run": run_id, "file": path, "night": night, "reason": reason}
                for run_id, path, night, reason in connection.execute(query)]


def records_spans(engine: Engine) -> bool:
    """Whether the store keeps each table-night's span (migration 0009); asked as
    `records_nights` is."""
    with reading(engine).connect() as connection:
        return any(column["name"] == "last_round"
                   for column in inspect(connection).get_columns("table_nights"))


def records_nights(engine: Engine) -> bool:
    """Whether the store keeps `table_nights` (migration 0008): a store of an earlier
    schema, read as it is (engine.READABLE_WITHOUT_UPGRADE), supersedes nothing. Asked
    each time (a catalog look-up): a store may be upgraded while an engine lives."""
    with reading(engine).connect() as connection:
        return inspect(connection).has_table("table_nights")


def _not_superseded(engine: Engine, table, date_column):
    """Rows of `table` (run_id, position) whose gaming day is not superseded."""
    superseded = superseded_nights(engine)
    return ~(select(superseded.c.run_id)
             .where(superseded.c.run_id == table.c.run_id,
                    superseded.c.position == table.c.position,
                    superseded.c.night == date_column).exists())


def _of_chosen(engine: Engine, query: Select, table, since: str | None, until: str | None,
               dated: bool = True) -> Select:
    """`query` over `table` limited to the chosen inputs, their table-nights not
    superseded (`superseded_nights`), and the window of dates."""
    chosen = chosen_inputs(engine)
    query = query.join(chosen, and_(chosen.c.run_id == table.c.run_id,
                                    chosen.c.position == table.c.position))
    if "date" in table.c and _supersedes(engine):
        query = query.where(_not_superseded(engine, table, table.c.date))
    if dated and since:
        query = query.where(table.c.date >= since)
    if dated and until:
        query = query.where(table.c.date <= until)
    return query


def _streamed(engine: Engine, query: Select) -> Iterator[Any]:
    with reading(engine).connect() as connection:
        yield from connection.execute(query.execution_options(yield_per=BATCH))


def dealer_of(column, no_dealer: str):
    """A dealer column as `trends` keys it: no dealer and an empty one are `no_dealer`.
    Literal SQL (our own constant): a grouped expression must be written the same in the
    select list and GROUP BY, which bound parameters are not on PostgreSQL."""
    quoted = "'" + no_dealer.replace("'", "''") + "'"
    return func.coalesce(func.nullif(column, literal_column("''")), literal_column(quoted))


# ---- rounds ----

def _sum(column):
    """A sum that comes back an integer (PostgreSQL sums BIGINT as NUMERIC)."""
    return cast(func.sum(column), BigInteger)


def round_totals(engine: Engine, since: str | None, until: str | None) -> Iterator[Any]:
    """Rounds summed by dealer, site, table ID, shift and gaming day: rows of (dealer,
    site, table_id, shift, date, rounds)."""
    table = schema.tally_rounds
    keys = (table.c.dealer, table.c.site, table.c.table_id, table.c.shift, table.c.date)
    query = _of_chosen(engine, select(*keys, _sum(table.c.rounds).label("rounds")), table,
                       since, until).group_by(*keys)
    return _streamed(engine, query)


def window_inputs(engine: Engine, since: str | None, until: str | None) -> tuple[list[int], int]:
    """The runs with tallied rounds in the window, and how many inputs they hold."""
    table = schema.tally_rounds
    places = _of_chosen(engine, select(table.c.run_id, table.c.position).distinct(), table,
                        since, until).subquery()
    with reading(engine).connect() as connection:
        runs = list(connection.execute(select(places.c.run_id).distinct()
                                       .order_by(places.c.run_id)).scalars())
        inputs = connection.execute(select(func.count()).select_from(places)).scalar_one()
    return runs, int(inputs)


# ---- findings ----

def window_findings(engine: Engine, since: str | None, until: str | None) -> Iterator[Any]:
    """The findings of the chosen inputs (matched on the run and the file's path) in the
    window, in each run's order of recording, runs in order; `place` is the input's place
    in its run, `site` its licence (else casino) as its rounds in the window give it. A
    finding of a round with no date is kept as its round is (no window holds either); a
    finding about a whole file (no round, no date) is outside every window."""
    findings, chosen, rounds = schema.findings, chosen_inputs(engine), schema.tally_rounds
    # a path named at two places of one run: the later place, as a lookup by path has it
    places = (select(chosen.c.run_id, chosen.c.path,
                     func.max(chosen.c.position).label("place"))
              .group_by(chosen.c.run_id, chosen.c.path).subquery())
    # each input's site (licence, else casino), from its rounds in the window
    sites = select(rounds.c.run_id, rounds.c.position, func.max(rounds.c.site).label("site"))
    if since:
        sites = sites.where(rounds.c.date >= since)
    if until:
        sites = sites.where(rounds.c.date <= until)
    sites = sites.group_by(rounds.c.run_id, rounds.c.position).subquery()
    query = (select(findings.c.run_id, places.c.place, sites.c.site, findings.c.dealer,
                    findings.c.table_id, findings.c.date, findings.c.citation,
                    findings.c.currency, findings.c.line, findings.c.finding_id,
                    findings.c.file, findings.c.document)
             .join(places, and_(places.c.run_id == findings.c.run_id,
                                places.c.path == findings.c.file))
             .outerjoin(sites, and_(sites.c.run_id == places.c.run_id,
                                    sites.c.position == places.c.place))
             # a finding of a round, or met between rounds (it names the dealer in force,
             # dated or in an undated shoe); never one about a whole file
             .where(or_(findings.c.date.is_not(None), findings.c.round_id.is_not(None),
                        findings.c.dealer.is_not(None)))
             .order_by(findings.c.run_id, findings.c.position))
    if _supersedes(engine):  # nor one of a table-night a later recording supersedes
        superseded = superseded_nights(engine)
        query = query.where(~(select(superseded.c.run_id)
                              .where(superseded.c.run_id == findings.c.run_id,
                                     superseded.c.position == places.c.place,
                                     superseded.c.night == findings.c.date).exists()))
    if since:
        query = query.where(findings.c.date >= since)
    if until:
        query = query.where(findings.c.date <= until)
    return _streamed(engine, query)


def run_seats(engine: Engine, run_id: int) -> dict[tuple[int, int, str], str]:
    """Who sat at the seats the findings of one run name: (place, line, seat) -> player."""
    seats = schema.tally_seats
    query = (select(seats.c.position, seats.c.line, seats.c.seat, seats.c.player)
             .where(seats.c.run_id == run_id).order_by(seats.c.position, seats.c.item))
    with reading(engine).connect() as connection:
        return {(row.position, row.line, row.seat): row.player
                for row in connection.execute(query)}


# ---- dealer–player pairs ----

def pair_nights(engine: Engine, since: str | None, until: str | None,
                no_dealer: str) -> Iterator[Any]:
    """Rounds summed by dealer, player, gaming day and run, a pair's rows together:
    (dealer, player, date, run_id, rounds), by dealer and player."""
    table = schema.tally_pairs
    dealer = dealer_of(table.c.dealer, no_dealer)
    keys = (dealer, table.c.player, table.c.date, table.c.run_id)
    query = _of_chosen(engine, select(dealer.label("dealer"), table.c.player, table.c.date,
                              table.c.run_id, _sum(table.c.rounds).label("rounds")),
                       table, since, until).group_by(*keys).order_by(dealer, table.c.player)
    return _streamed(engine, query)


# ---- game math ----

def game_totals(engine: Engine, since: str | None, until: str | None,
                no_dealer: str) -> list[Any]:
    """Trials and hits summed by dealer, decks, soft-17 rule, statistic and up card, for
    the rows that know their decks."""
    table = schema.tally_game
    keys = (dealer_of(table.c.dealer, no_dealer).label("dealer"), table.c.decks,
            table.c.hits_soft_17, table.c.statistic, table.c.up)
    query = _of_chosen(engine, select(*keys, _sum(table.c.trials).label("trials"),
                              _sum(table.c.hits).label("hits")), table, since, until)
    query = query.where(table.c.decks.is_not(None), table.c.decks != 0).group_by(*keys)
    with reading(engine).connect() as connection:
        return list(connection.execute(query))


# ---- shuffles ----

def shuffle_cards(engine: Engine, since: str | None, until: str | None,
                  least: int) -> Iterator[Any]:
    """The cards of each shuffle of at least `least` characters, in no particular order
    (sorting a year of cards would cost more than reading them): (run_id, position, item,
    cards)."""
    table = schema.tally_shuffles
    query = _of_chosen(engine, select(table.c.run_id, table.c.position, table.c.item,
                              table.c.cards), table, since, until)
    return _streamed(engine, query.where(func.length(table.c.cards) >= least))


def shuffle_characters(engine: Engine, since: str | None, until: str | None,
                       least: int) -> int:
    """The characters of cards `shuffle_cards` would give: what sizes its spill."""
    table = schema.tally_shuffles
    query = _of_chosen(engine, select(func.coalesce(_sum(func.length(table.c.cards)), 0)), table,
                       since, until)
    with reading(engine).connect() as connection:
        return int(connection.execute(query.where(
            func.length(table.c.cards) >= least)).scalar_one())


def shuffles_at(engine: Engine, keys: Iterable[tuple[int, int, int]]) -> dict[tuple, Any]:
    """The shuffles recorded at these (run_id, position, item), with their input's path."""
    table, places = schema.tally_shuffles, schema.run_inputs
    wanted = sorted(set(keys))
    found = {}
    with reading(engine).connect() as connection:
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            query = (select(table, places.c.path)
                     .join(places, and_(places.c.run_id == table.c.run_id,
                                        places.c.position == table.c.position))
                     .where(tuple_(table.c.run_id, table.c.position, table.c.item).in_(chunk)))
            for row in connection.execute(query):
                found[row.run_id, row.position, row.item] = row
    return found


# ---- nights, for the links of a flag ----

def round_nights(engine: Engine, since: str | None, until: str | None) -> Iterator[Any]:
    """Every round row of the window, as recorded: (dealer, site, table_id, date, run_id)."""
    table = schema.tally_rounds
    query = _of_chosen(engine, select(table.c.dealer, table.c.site, table.c.table_id, table.c.date,
                              table.c.run_id), table, since, until)
    return _streamed(engine, query.order_by(table.c.run_id, table.c.position, table.c.item))


# ---- one run's units, for the patterns of auditor/patterns.py ----

def run_unit_rounds(engine: Engine, run_id: int) -> dict[str, Any]:
    """The rounds of one run by table (licence, else casino, "/" table ID: as the patterns
    key it), by dealer and by player (the rounds the player wagered), and in all
    ("floor": {"rounds": n}); empty for a run recorded before tallies."""
    from collections import Counter

    from auditor.results import table_key

    rounds, pairs = schema.tally_rounds, schema.tally_pairs
    found: dict[str, Any] = {"table": Counter(), "dealer": Counter(), "player": Counter(),
                             "floor": Counter()}
    with reading(engine).connect() as connection:
        for site, table_id, dealer, count in connection.execute(
                select(rounds.c.site, rounds.c.table_id, rounds.c.dealer,
                       _sum(rounds.c.rounds)).where(rounds.c.run_id == run_id)
                .group_by(rounds.c.site, rounds.c.table_id, rounds.c.dealer)):
            table = table_key(site, table_id)
            if table:
                found["table"][table] += count
            if dealer:
                found["dealer"][dealer] += count
            found["floor"]["rounds"] += count
        for player, count in connection.execute(
                select(pairs.c.player, _sum(pairs.c.rounds)).where(pairs.c.run_id == run_id)
                .group_by(pairs.c.player)):
            found["player"][player] += count
    return found
