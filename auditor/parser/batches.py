"""The batches: lines to events, a block at a time, each line by the cheapest path.

`parse_batches` reads lines handed over in blocks (`SourceFile.batches`) in batches of
BATCH_LINES: a run of a round's statements written with single spaces is checked by one
match and built with no Python step of its own per line (`_run_patterns`); past a few
lines the runs do not read, the rest is read line by line by the round pattern
(`_round_pattern`); any other line is read alone (`_line_reader`): by the round pattern,
by the grammar's line pattern and the builders (`_line_patterns`), or through Lark, which
reads it or says what is wrong (`diagnose`). `parse_lines` is the same for (number, text,
problem) lines, `line_events` one line alone, and `parse_lines_lark` the reference path:
every line through Lark, in chunks of CHUNK_LINES.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from itertools import chain, count, islice
from operator import attrgetter, call, itemgetter
from typing import TYPE_CHECKING, Any

from auditor import events as ev
from auditor.config import MAX_AMOUNT
from auditor.parser.builders import _BUILDERS, _statement_builder_class
from auditor.parser.diagnosis import (
    _AMOUNT_TYPES,
    _CHECKED_KINDS,
    TOO_LONG_NUMBER,
    _unreal,
    diagnose,
    implausible,
)
from auditor.parser.fast import _line_patterns, _round_pattern, _run_patterns
from auditor.parser.grammar import lark_parser

if TYPE_CHECKING:
    import re

    from lark import Lark

CHUNK_LINES = 400


def parse_lines(numbered: Iterable[tuple[int, str | None, str | None]],
                texts: dict[int, str | None] | None = None,
                problems: dict[int, str] | None = None) -> EventBatches:
    """Events from (number, text, problem) lines, in line order; bad lines as `Unreadable`.

    A round's statement with sound values is read in one step (`_round_pattern`). Any
    other line is matched against the grammar's statement terminals in one regular
    expression (`_line_patterns`) and its event built directly, with no parse tree; a line
    neither matches goes through Lark itself, which reads it or says exactly what is wrong
    (`parse_lines_lark` is that reference path for every line).

    `texts` (and `problems`), when given, keep each line's text (None for an unreadable
    line, and why in `problems`) as it passes. `parse_batches` is the same reading of
    lines handed over a block at a time (`SourceFile.batches`), as the audit reads them.
    """
    keep = None if texts is None else (
        lambda first, batch: texts.update(zip(count(first), batch)))
    return parse_batches(line_batches(numbered), keep, problems)


BATCH_LINES = 256


def parse_batches(batches: Iterable[tuple[int, Sequence[str | None], dict[int, str] | None]],
                  keep: Callable[[int, Sequence[str | None]], object] | None = None,
                  problems: dict[int, str] | None = None) -> EventBatches:
    """The events of lines given in blocks: (number of the first line, their texts, None
    or {number: why} for each line whose text is None), as `SourceFile.batches` yields.

    The lines are read in batches of BATCH_LINES, each batch's events made as one list
    (`EventBatches`: the events one by one, or those lists). `keep(first, texts)` is
    called with each batch's texts as it is read (the audit's `_LineTexts`): a batch at a
    time, not a line at a time."""
    return EventBatches(_parse_batches(batches, keep, problems))


class EventBatches:
    """The events of a record's lines, made a batch of lines at a time: an iterator of the
    events, or (`lists`) of each batch's list of events, which the reader takes (it
    places a round's events with a slice of the list, not a step per event). Read one
    way or the other, not both."""

    __slots__ = ("_events", "lists")

    def __init__(self, lists: Iterator[list[ev.Event]]) -> None:
        self.lists = lists
        self._events = chain.from_iterable(lists)

    def __iter__(self) -> Iterator[ev.Event]:
        return self._events  # iterated in C, no Python step per event

    def __next__(self) -> ev.Event:
        return next(self._events)


def line_batches(numbered: Iterable[tuple[int, str | None, str | None]]
             ) -> Iterator[tuple[int, Sequence[str | None], dict[int, str] | None]]:
    """(number, text, problem) lines as blocks of consecutive lines. A block holding a
    text with a newline in it (no file's line has one: only a caller of `parse_lines`
    can give it) has {} for its problems: it is read one line at a time."""
    lines = iter(numbered)
    while batch := list(islice(lines, BATCH_LINES)):
        numbers, texts, _ = zip(*batch, strict=True)
        why = {n: p for n, t, p in batch if t is None} if None in texts else None
        if why is None and any("\n" in text for text in texts):
            why = {}
        first = numbers[0]
        if numbers == tuple(range(first, first + len(numbers))):
            yield first, texts, why
        else:  # lines not numbered one after the other: one block each
            for number, text, problem in batch:
                yield number, (text,), {number: problem} if text is None else \
                    {} if "\n" in text else None


def _parse_batches(batches: Iterable[tuple[int, Sequence[str | None], dict[int, str] | None]],
                   keep: Callable[[int, Sequence[str | None]], object] | None,
                   problems: dict[int, str] | None) -> Iterator[list[ev.Event]]:
    """The events of each batch of lines. In a batch of readable lines (nearly all), the
    lines are read a run at a time (`_run_patterns`: one match for a run of round
    statements with time stamps, one for a run without), and each run is split into words
    and built with no Python step of its own per line (map, `operator.call`): only the
    builder runs. A line neither run reads, and every line of a batch holding an
    unreadable one, is read one by one (`_line_reader`)."""
    timed_run, untimed_run, timed, untimed = _run_patterns()
    timed_match, untimed_match = timed_run.match, untimed_run.match
    timed_builder, untimed_builder = timed.__getitem__, untimed.__getitem__
    split = str.split
    keyword, timed_keyword = itemgetter(0), itemgetter(1)
    read_line = _line_reader(problems)
    round_pattern, round_builders = _round_pattern()
    round_match = round_pattern.match
    round_builder = round_builders.__getitem__
    limit = _RUNS_GIVEN_UP  # 0 after a batch in which the runs were given up
    for first_line, block, why in batches:
        for offset in range(0, len(block), BATCH_LINES):
            batch_texts = block[offset:offset + BATCH_LINES] if offset or \
                len(block) > BATCH_LINES else block
            first = first_line + offset
            if keep is not None:
                keep(first, batch_texts)
            if why is not None and (None in batch_texts or not why):  # one by one: an
                # unreadable line, or a text given with a newline in it (`line_batches`)
                built: list[ev.Event] = []
                for number, text in enumerate(batch_texts, first):
                    built.extend(read_line(number, text, why.get(number)))
                yield built
                continue
            text = "\n".join(batch_texts) + "\n"
            count_lines = text.count
            built = []
            at, end = 0, len(batch_texts)
            position, length = 0, len(text)
            alone = 0  # lines read one by one in this batch
            while at < end:
                if alone > limit:  # a record written otherwise (tabs, comments...)
                    built.extend(_by_round_pattern(batch_texts[at:], first + at, round_match,
                                                   round_builder, read_line))
                    limit = 0  # the next batch is likely the same: given up at its first
                    break
                # a run of lines with time stamps, then one of lines without (a run to the
                # batch's end holds every line left: no count; no text holds a newline)
                stop = timed_match(text, position).end()
                lines = end - at if stop == length else count_lines("\n", position, stop)
                if lines:
                    run = list(map(split, batch_texts[at:at + lines]))
                    built.extend(map(call, map(timed_builder, map(timed_keyword, run)),
                                     range(first + at, first + at + lines), run))
                    at += lines
                    position = stop
                stop = untimed_match(text, position).end()
                more = end - at if stop == length else count_lines("\n", position, stop)
                if more:
                    run = list(map(split, batch_texts[at:at + more]))
                    built.extend(map(call, map(untimed_builder, map(keyword, run)),
                                     range(first + at, first + at + more), run))
                    at += more
                    position = stop
                elif not lines and at < end:  # a line neither reads: one by one
                    built.extend(read_line(first + at, batch_texts[at], None))
                    alone += 1
                    at += 1
                    position = text.index("\n", position) + 1
            else:
                limit = _RUNS_GIVEN_UP
            yield built


# Past this many lines of a batch read one by one, the rest of the batch is read line by
# line by the round pattern (each line's match, as before the runs), and so is the next
# batch from its first line the runs do not read: a record whose lines the runs do not
# read (tabs, two spaces, comments) is read about as fast as before.
_RUNS_GIVEN_UP = 16


def _by_round_pattern(texts: Sequence[str], first: int,
                      round_match: Callable[[str], re.Match[str] | None],
                      round_builder: Callable[[int], Callable[[int, re.Match[str]], ev.Event]],
                      read_line: Callable[[int, str | None, str | None], list[ev.Event]]
                      ) -> list[ev.Event]:
    """The events of readable lines, each matched by the round pattern (`_round_pattern`),
    each run of lines it reads built with no Python step of its own per line; a line it
    does not read is read by `read_line`."""
    found = list(map(round_match, texts))
    numbers = range(first, first + len(found))
    built: list[ev.Event] = []
    start, end = 0, len(found)
    while start < end:
        try:
            stop = found.index(None, start)
        except ValueError:
            stop = end
        if stop > start:
            run = found[start:stop]
            built.extend(map(call, map(round_builder, map(_LAST_GROUP, run)),
                             numbers[start:stop], run))
        if stop < end:
            built.extend(read_line(numbers[stop], texts[stop], None))
        start = stop + 1
    return built


_LAST_GROUP = attrgetter("lastindex")


def _line_reader(problems: dict[int, str] | None
                 ) -> Callable[[int, str | None, str | None], list[ev.Event]]:
    """Read one line, the whole way: unreadable, a round's statement read in one step, a
    statement of the grammar (its event built from the statement's text, `implausible`
    asked where it may find something), nothing (blanks, a comment), or through Lark."""
    line_match, empty_match = (p.match for p in _line_patterns())
    round_pattern, round_builders = _round_pattern()
    round_match = round_pattern.match
    builders = _BUILDERS
    checked = _CHECKED_KINDS
    amounts = _AMOUNT_TYPES

    def read_line(number: int, text: str | None, problem: str | None) -> list[ev.Event]:
        if text is None:
            if problems is not None:
                problems[number] = problem or "unreadable line"
            return [ev.Unreadable(number, None, 1, problem or "unreadable line", "")]
        found = round_match(text)
        if found is not None:
            return [round_builders[found.lastindex](number, found)]
        found = line_match(text)
        if found is None:
            if empty_match(text) is not None:
                return []
            return _parse_chunk(lark_parser(), _statement_builder_class()(), [text],
                                number)
        kind = found.lastgroup
        statement, time = found.group(kind, "TIME")
        try:
            event = builders[kind](statement, number, time)
        except ValueError:  # an integer of thousands of digits
            return [ev.Unreadable(number, None, 1, TOO_LONG_NUMBER, text)]
        # `implausible`, called only where it may find something (most lines hold no date,
        # a sound clock is told by three comparisons, an amount by one)
        if (time is None or (time[:2] < "24" and time[3:5] < "60" and time[6:8] < "60")) \
                and (kind not in checked or (
                    type(event) in amounts and event.amount < MAX_AMOUNT)):
            return [event]
        wrong = implausible(event)
        return [event] if wrong is None else _unreal(event, wrong, number, text)

    return read_line


def line_events(number: int, text: str) -> list[ev.Event]:
    """The events of one line read alone, as a record's line read one by one is (a few
    lines picked out of a file: auditor/split.py's plan). `parse_lines` of one line says
    the same, through the batch machinery, at several times the cost."""
    return _lone_line_reader()(number, text, None)


@cache
def _lone_line_reader() -> Callable[[int, str | None, str | None], list[ev.Event]]:
    return _line_reader(None)


def parse_lines_lark(numbered: Iterable[tuple[int, str | None, str | None]]
                     ) -> Iterator[ev.Event]:
    """The same events through Lark alone, in chunks of lines (the reference path)."""
    parser = lark_parser()
    builder = _statement_builder_class()()
    chunk: list[str] = []
    first = 0
    for number, text, problem in numbered:
        if text is None:
            yield from _parse_chunk(parser, builder, chunk, first)
            chunk = []
            yield ev.Unreadable(number, None, 1, problem or "unreadable line", "")
            continue
        if not chunk:
            first = number
        chunk.append(text)
        if len(chunk) >= CHUNK_LINES:
            yield from _parse_chunk(parser, builder, chunk, first)
            chunk = []
    yield from _parse_chunk(parser, builder, chunk, first)


def _parse_chunk(parser: Lark, builder: Any, chunk: list[str],
                 first: int) -> list[ev.Event]:
    if not chunk:
        return []
    from lark.exceptions import UnexpectedInput, VisitError

    try:
        builder.line_offset = first - 1
        events = builder.transform(parser.parse("\n".join(chunk)))
        if not any(implausible(event) for event in events):
            return events
    except (UnexpectedInput, VisitError):
        pass
    built: list[ev.Event] = []
    for index, text in enumerate(chunk):
        number = first + index
        try:
            builder.line_offset = number - 1
            for event in builder.transform(parser.parse(text)):
                wrong = implausible(event)
                built.extend([event] if wrong is None else _unreal(event, wrong, number, text))
        except UnexpectedInput as error:
            column, message = diagnose(text, error)
            built.append(ev.Unreadable(number, None, column, message, text))
        except VisitError:  # an integer of thousands of digits
            built.append(ev.Unreadable(number, None, 1, TOO_LONG_NUMBER, text))
    return built
