"""Events to the record's structure: the header, body statements and rounds.

The reader judges only the shape of the record (bjh-format.md §2, §5, §7): the header's
order and options, rounds closed by `end`, round statements inside rounds. What it finds
is a `Problem`; the record checks turn problems into findings.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import InvalidOperation
from itertools import chain, islice
from typing import Literal, get_args, get_origin

from pydantic import ValidationError

from auditor import events as ev
from auditor.blackjack import ladies_pay_table
from auditor.config import (
    OPTION_KEYS,
    HouseRules,
    TableConfig,
    UnknownRule,
    option_field,
    validation_messages,
)
from auditor.fieldwise import Fieldwise
from auditor.parser import BATCH_LINES, EventBatches

GAMES = ("standard", "switch", "db21", "tensticks", "ladies")


@dataclass(frozen=True, slots=True, repr=False)
class Problem(Fieldwise):
    """Something wrong with the record itself, not with the game it records."""

    kind: str  # syntax, header, reference, card-count, unsettled
    line: int | None
    message: str
    column: int | None = None
    seat: str | None = None
    hand: str | None = None
    # What was in force at a problem between rounds (set by the audit as it reads): the
    # shoe's date and ID, the dealer, the last time stamp since the shoe began.
    context: ProblemContext | None = None


@dataclass(frozen=True, slots=True, repr=False)
class ProblemContext(Fieldwise):
    date: str | None
    shoe: str | None
    dealer: str | None
    time: str | None


@dataclass(slots=True, repr=False, eq=False)
class RoundRecord(Fieldwise):
    """A round as the record holds it: its `round` statement, the events up to its `end`, and
    what was wrong in it."""

    start: ev.RoundStart
    events: list[ev.Event] = field(default_factory=list)
    end_line: int | None = None  # the `end` statement, None if the round was not closed
    last_line: int = 0
    problems: list[Problem] = field(default_factory=list)
    # The lines read ended inside this round (no `end`, and no statement after it): in a
    # record not yet finished, the round still being dealt (auditor/audit.py, `open_round`)
    at_end: bool = False

    @property
    def round_id(self) -> str:
        return self.start.round_id


@dataclass(slots=True, repr=False, eq=False)
class Header(Fieldwise):
    """The record's header read: the table's configuration and what was wrong in the header."""

    config: TableConfig
    problems: list[Problem]
    last_line: int


BODY_EVENTS = (ev.Shoe, ev.Shuffle, ev.Cut, ev.CutCard, ev.Burn, ev.DealerChange, ev.Note,
               ev.Close)
ENDS_OPEN_ROUND = (ev.RoundStart, ev.Shoe, ev.DealerChange, ev.Close)
HEADER_EVENTS = (ev.Version, ev.Casino, ev.Table, ev.Option)

Item = Header | RoundRecord | ev.Event | Problem


def read_structure(events: Iterable[ev.Event]) -> Iterator[Item]:
    """Yield the Header first, then body events, rounds and problems outside rounds."""
    lists = event_lists(events)
    header_events: list[ev.Event] = []
    for batch in lists:
        for at, event in enumerate(batch):
            if isinstance(event, HEADER_EVENTS) or (
                    isinstance(event, ev.Unreadable) and not header_events):
                header_events.append(event)
                continue
            header = build_header(header_events)
            yield header
            yield from _read_lists(chain((batch[at:],), lists), header.config, False)
            return
    yield build_header(header_events)


def event_lists(events: Iterable[ev.Event]) -> Iterator[list[ev.Event]]:
    """The events as lists: the parser's own batches (`EventBatches`), a list as it is, or
    any other iterable of events cut into lists."""
    if isinstance(events, EventBatches):
        return events.lists
    if isinstance(events, list):
        return iter((events,))
    stream = iter(events)
    return iter(lambda: list(islice(stream, BATCH_LINES)), [])


# Inside a round most events are the round's own: one set lookup on the exact type (no
# event class is subclassed) tells them from the few that end or break the round.
_BREAKS_ROUND = frozenset((ev.RoundEnd, *ENDS_OPEN_ROUND, *HEADER_EVENTS))


def read_body(events: Iterable[ev.Event], config: TableConfig,
              seen_shoe: bool = False) -> Iterator[Item]:
    """The body of a record from its first body statement on (a file's piece that begins
    with `shoe` too: auditor/split.py); `seen_shoe`: a piece that begins after a `shoe`
    (auditor/live/piece_audit.py)."""
    return _read_lists(event_lists(events), config, seen_shoe)


def _read_lists(lists: Iterable[list[ev.Event]], config: TableConfig,
                seen_shoe: bool) -> Iterator[Item]:
    """`read_body` of the events a list at a time: a round's own events are placed in it
    a run at a time (`_round_run`), each event that ends or breaks it, and each event
    between rounds, one by one."""
    current: RoundRecord | None = None
    for batch in lists:
        kinds = list(map(type, batch))
        at, end = 0, len(batch)
        while at < end:
            if current is not None:
                stop = _round_run(kinds, at, end)
                if stop > at:
                    current.events += batch[at:stop]
                    if stop == end:
                        break
                event, kind = batch[stop], kinds[stop]
                at = stop + 1
                # the round's last line, set once here rather than per statement
                current.last_line = current.events[-1].line if current.events \
                    else current.start.line
                if kind is ev.RoundEnd:
                    current.end_line = current.last_line = event.line
                    yield current
                    current = None
                    continue
                if kind in HEADER_EVENTS:
                    yield Problem("header", event.line, _out_of_place(event, "after the header"))
                    continue
                yield _unclosed(current)  # a statement that ends an open round
                current = None
            else:
                event = batch[at]
                at += 1
            if isinstance(event, ev.RoundStart):
                current = RoundRecord(event, last_line=event.line)
                if not seen_shoe:
                    current.problems.append(Problem(
                        "reference", event.line,
                        f"round {event.round_id} comes before any `shoe`"))
                continue
            if isinstance(event, ev.Unreadable):
                yield Problem("syntax", event.line, event.message, column=event.column)
            elif isinstance(event, HEADER_EVENTS):
                yield Problem("header", event.line, _out_of_place(event, "after the header"))
            elif isinstance(event, BODY_EVENTS):
                seen_shoe = seen_shoe or isinstance(event, ev.Shoe)
                yield event
            else:
                yield Problem("reference", event.line, _out_of_place(event, "outside a round"))
    if current is not None:
        current.last_line = current.events[-1].line if current.events else current.start.line
        current.at_end = True
        yield _unclosed(current)


def _round_run(kinds: list[type], at: int, end: int) -> int:
    """Where the round's own events from `at` stop: at the first event that ends or breaks
    the round (nearly always its `end`), or at `end`. Found in C: the `end`'s place, and
    whether any other breaking event comes before it (rare: a round not closed)."""
    try:
        stop = kinds.index(ev.RoundEnd, at, end)
    except ValueError:
        stop = end
    if _BREAKS_ROUND.isdisjoint(kinds[at:stop]):
        return stop
    return next(i for i in range(at, stop) if kinds[i] in _BREAKS_ROUND)


def _unclosed(record: RoundRecord) -> RoundRecord:
    record.problems.append(Problem(
        "reference", record.start.line,
        f"round {record.round_id} is not closed by `end` (it ends at line {record.last_line})"))
    return record


def _out_of_place(event: ev.Event, where: str) -> str:
    return f"`{statement_name(event)}` statement {where}"


def statement_name(event: ev.Event) -> str:
    names = {ev.Version: "bjh", ev.RoundStart: "round", ev.RoundEnd: "end",
             ev.DealerChange: "dealer", ev.CutCard: "cutcard"}
    return names.get(type(event), type(event).__name__.lower())


# ---- the header ----

_TABLE_FIELDS = {"game": "game", "decks": "decks", "seats": "seats", "min": "minimum",
                 "max": "maximum", "currency": "currency"}


def build_header(events: list[ev.Event]) -> Header:
    problems: list[Problem] = []
    fields: dict[str, object] = {}
    options: dict[str, str] = {}
    option_lines: dict[str, int] = {}
    given: set[str] = set()
    settings: dict[str, list[tuple[str, int, bool]]] = {}  # field -> (value, line, usable)
    order = {ev.Version: 0, ev.Casino: 1, ev.Table: 2, ev.Option: 3}
    last_rank = -1
    table_line = None
    last_line = 0
    for event in events:
        last_line = event.line
        if isinstance(event, ev.Unreadable):
            problems.append(Problem("syntax", event.line, event.message, column=event.column))
            continue
        rank = order[type(event)]
        if rank < last_rank or (rank == last_rank and rank < 3):
            problems.append(Problem("header", event.line,
                                    f"`{statement_name(event)}` is out of order in the header"))
        last_rank = max(last_rank, rank)
        if isinstance(event, ev.Version):
            if event.number != 1:
                problems.append(Problem("header", event.line,
                                        f"format version {event.number} is not BJH 1"))
        elif isinstance(event, ev.Casino):
            fields["casino"], fields["licence"] = event.name, event.licence
        elif isinstance(event, ev.Table):
            table_line = event.line
            fields["table_id"] = event.table_id
            problems.extend(_table_fields(event, fields, settings))
        elif isinstance(event, ev.Option):
            problems.extend(_option_problems(event, options, option_lines, given, settings))
    first = next((e for e in events if not isinstance(e, ev.Unreadable)), None)
    if not isinstance(first, ev.Version):
        problems.append(Problem("header", first.line if first else 1,
                                "the file does not begin with `bjh 1`"))
    if table_line is None:
        problems.append(Problem("header", last_line or 1, "the header has no `table` statement"))
    config, more = _config(fields, options, option_lines, given, table_line or last_line or 1,
                           settings)
    problems.extend(more)
    return Header(config, problems, last_line)


def _table_fields(event: ev.Table, fields: dict[str, object],
                  settings: dict[str, list[tuple[str, int, bool]]]) -> list[Problem]:
    problems = []
    seen: set[str] = set()
    for key, text in event.fields:
        if key == "decks":  # a house rule: judged like an option (`_unknown_rules`)
            settings.setdefault("decks", []).append((text, event.line, _usable_decks(text)))
        if key in seen:
            problems.append(Problem("header", event.line, f"`table` gives {key}= twice"))
            continue
        seen.add(key)
        fields[_TABLE_FIELDS[key]] = text
    for required in ("game", "decks"):
        if required not in seen:
            problems.append(Problem("header", event.line, f"`table` has no {required}="))
    return problems


def _usable_decks(text: str) -> bool:
    """A count `decks` can take: at least one, and digits Python reads as a number (past
    4300 of them `int` refuses the text: the value cannot be taken, it does not crash)."""
    try:
        return text.isdigit() and int(text) >= 1
    except ValueError:
        return False


def _option_problems(event: ev.Option, options: dict[str, str], lines: dict[str, int],
                     given: set[str], settings: dict[str, list[tuple[str, int, bool]]]
                     ) -> list[Problem]:
    """Judge one option as it is read: a bad value, or a second value, is reported once,
    here; what the option could then hold is worked out after the header (`_unknown_rules`)."""
    name = option_field(event.key)
    if name is None:
        return [Problem("header", event.line, f"unknown option {event.key!r}")]
    given.add(name)  # given, even if its value is bad: it is not missing
    try:
        HouseRules(**{name: event.value})
    except ValidationError as error:
        settings.setdefault(name, []).append((event.value, event.line, False))
        return [Problem("header", event.line, f"option {event.key}={event.value}: "
                                              f"{item['msg'].lower()}") for item in error.errors()]
    settings.setdefault(name, []).append((event.value, event.line, True))
    if name in options and options[name] != event.value:
        return [Problem("header", event.line,
                        f"option {event.key} is set to {options[name]} at line {lines[name]}"
                        f" and to {event.value} here")]
    options[name] = event.value
    lines[name] = event.line
    return []


def _config(fields: dict[str, object], options: dict[str, str], lines: dict[str, int],
            given: set[str], table_line: int,
            settings: dict[str, list[tuple[str, int, bool]]]) -> tuple[TableConfig, list[Problem]]:
    problems: list[Problem] = []
    rules = HouseRules(**options)  # each value was judged as it was read (`_option_problems`)
    game = fields.get("game")
    if game is not None and game not in GAMES:
        problems.append(Problem(
            "header", table_line, f"the table's game {game} is not one the format knows "
            f"({', '.join(GAMES)}): no game's rules are judged on its rounds"))
        fields = {**fields, "game": None}
    if "decks" in fields:  # a house rule: a value it cannot take leaves it unknown
        try:
            TableConfig(decks=fields["decks"])
        except ValidationError as error:
            problems.extend(Problem("header", table_line, f"table {m}")
                            for m in validation_messages(error))
            fields = {k: v for k, v in fields.items() if k != "decks"}
    declared = frozenset(options)  # the options set, each to a value it can take
    try:
        config = TableConfig(rules=rules, declared=declared, **fields)
    except (ValidationError, InvalidOperation) as error:
        messages = (validation_messages(error) if isinstance(error, ValidationError)
                    else [str(error)])
        problems.extend(Problem("header", table_line, f"table {m}") for m in messages)
        safe = {k: v for k, v in fields.items() if k in ("table_id", "casino", "licence")}
        # Never a guessed game: with a value of the `table` statement unreadable (an unknown
        # game, seats out of range…), no game's rules are judged on the rounds.
        config = TableConfig(rules=rules, declared=declared, game=None, **safe)
    if config.game is not None and "game" not in fields:
        config = config.model_copy(update={"game": None})
    config = _with_unknown_rules(config, settings, table_line)
    # an unknown rule holds a value the header may never have meant (one of those it could
    # hold): its odds are judged under each possible table, so no contradiction is told
    unknown = {rule.field for rule in config.unknown}
    problems.extend(_contradictions(config, lines, given, unknown, table_line))
    return config, problems


def _with_unknown_rules(config: TableConfig, settings: dict[str, list[tuple[str, int, bool]]],
                        table_line: int) -> TableConfig:
    """The table with each house rule that cannot be known named, and set to one of the
    values it could hold (`decks` to the most: the card counts between rounds)."""
    unknown: list[UnknownRule] = []
    decks = settings.get("decks", [])
    if not decks or len({text for text, _, _ in decks}) > 1 or not _usable(decks):
        why = _unknown_why(decks) if decks else "not given"
        values = _decks_values(config.game, decks)
        paytable = settings.get("ladies_paytable", [])
        if config.game == "ladies" and len({t for t, _, _ in paytable}) == 1 and paytable[0][2]:
            # only the counts the declared pay table is dealt with (A, B: more than one
            # deck; C: one): a table the header would call contradictory is not a candidate
            declared = config.rules.ladies_paytable
            values = tuple(v for v in values if ladies_pay_table(declared, v)) or values
        unknown.append(UnknownRule(key="decks", field="decks", values=values, why=why,
                                   line=max((line for _, line, _ in decks), default=table_line)))
    else:
        config = config.model_copy(update={"decks": int(decks[0][0])})
    decks_known = not unknown  # only `decks` is named so far
    for name, given in settings.items():
        if name == "decks" or (len({text for text, _, _ in given}) == 1 and given[0][2]):
            continue
        key = next(k for k in OPTION_KEYS if option_field(k) == name)
        values = _option_values(name, given)
        if (name == "ladies_paytable" and config.game == "ladies" and decks_known
                and not _usable(given)):
            # a pay table it cannot take could hold only those dealt with the known decks
            # (A, B: more than one deck; C: one): any other is a contradictory option
            values = tuple(v for v in values if ladies_pay_table(v, config.decks)) or values
        unknown.append(UnknownRule(key=key, field=name, values=values,
                                   why=_unknown_why(given), line=max(line for _, line, _ in given)))
    if not unknown:
        return config
    rules = config.rules.model_copy(update={u.field: u.values[-1] for u in unknown
                                            if u.field != "decks"})
    decks_now = next((u.values[-1] for u in unknown if u.field == "decks"), config.decks)
    return config.model_copy(update={"rules": rules, "decks": decks_now,
                                     "unknown": tuple(unknown)})


def _unknown_why(given: list[tuple[str, int, bool]]) -> str:
    parts = [f"{value} at line {line}{'' if ok else ', a value it cannot take'}"
             for value, line, ok in given]
    return "set to " + (" and to " if _usable(given) else ", and to ").join(parts)


MOST_DECKS = {"switch": 8}
"""The most decks a game is dealt from: Blackjack Switch six or eight (20:18:15:30.09(1));
the other games' rules name no most."""

NO_MOST = 10 ** 6
"""Stands for a count with no most (decks, lights): past any count a record can show."""


def _usable(given: list[tuple[str, int, bool]]) -> bool:
    """Whether every value a header gives a rule (text, line, usable) is one it can take."""
    return all(ok for *_, ok in given)


def _decks_values(game: str | None, given: list[tuple[str, int, bool]]) -> tuple[int, ...]:
    """What `decks` could hold, ascending: the usable values given where they are all
    usable, else one of each count the rules tell apart (one deck for the odds of
    blackjack, six and eight for Blackjack Switch and super match) and the most."""
    if given and _usable(given):
        return tuple(sorted({int(text) for text, _, _ in given}))
    most = MOST_DECKS.get(game or "", NO_MOST)
    return tuple(sorted({1, 6, 8, most}))


def _option_values(name: str, given: list[tuple[str, int, bool]]) -> tuple:
    """What an option could hold: the values given, where they are all usable; else every
    value it can take (an amount: none, the loosest; a count with no most: the least and
    one past any count)."""
    if _usable(given):
        values: list = []
        for text, _, _ in given:
            value = getattr(HouseRules(**{name: text}), name)
            if value not in values:
                values.append(value)
        return tuple(values)
    info = HouseRules.model_fields[name]
    choices = get_args(info.annotation)
    literal = next((a for a in choices if get_origin(a) is Literal), None)
    if get_origin(info.annotation) is Literal:
        return get_args(info.annotation)
    if literal is not None:
        return get_args(literal)
    if info.annotation in (int, int | None):
        low = next((m.ge for m in info.metadata if hasattr(m, "ge")), 1)
        high = next((m.le for m in info.metadata if hasattr(m, "le")), None)
        return tuple(range(low, high + 1)) if high is not None else (low, NO_MOST)
    return (None,)


CONTRADICTION_FIELDS = frozenset({"decks", "ladies_paytable"})
"""The house rules a contradiction that hides findings (`contradictory`) turns on."""


def contradictory(config: TableConfig) -> bool:
    """Whether the table's house rules contradict each other so that a rule's findings go
    unjudged: a Lucky Ladies pay table its decks are not dealt with (the odds are not
    known). A table of unknown house rules that no header could declare so is not one the
    record could be of (auditor/unknown_rules.py). The header's other contradictions
    (`sidebet.min` above `sidebet.max`) forbid wagers rather than hide findings."""
    return (config.game == "ladies" and config.rules.ladies_paytable is not None
            and ladies_pay_table(config.rules.ladies_paytable, config.decks) is None)


def _contradictions(config: TableConfig, lines: dict[str, int], given: set[str],
                    unknown: set[str], table_line: int) -> list[Problem]:
    rules = config.rules
    found = []
    if config.game == "db21" and "db21_paytable" not in given:
        found.append(Problem("header", table_line,
                             "a db21 table must declare `option db21.paytable=N`"))
    if config.game == "ladies" and "ladies_paytable" not in given:
        found.append(Problem("header", table_line,
                             "a ladies table must declare `option ladies.paytable=A`, `B` or `C`"))
    elif "ladies_paytable" not in unknown and contradictory(config):
        found.append(Problem("header", lines["ladies_paytable"],
                             f"Lucky Ladies pay table {rules.ladies_paytable} is not dealt with "
                             f"{config.decks} deck{'s' if config.decks != 1 else ''} (A or B with "
                             "more than one deck, C with one): its odds are not judged"))
    if config.game == "switch" and rules.blackjack not in (None, "1:1"):
        found.append(Problem("header", lines["blackjack"],
                             f"Blackjack Switch pays blackjack 1 to 1, not {rules.blackjack}"))
    if (config.minimum is not None and config.maximum is not None
            and config.minimum > config.maximum):
        found.append(Problem("header", table_line, "the table minimum is above its maximum"))
    if (rules.sidebet_min is not None and rules.sidebet_max is not None
            and rules.sidebet_min > rules.sidebet_max):
        found.append(Problem("header", lines["sidebet_min"],
                             "sidebet.min is above sidebet.max"))
    return found

