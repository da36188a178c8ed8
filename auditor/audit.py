"""The audit of one file: streamed round by round through replay and checks.

A file is audited on its own, knowing nothing of the other files of its run nor of the
pools that may run it (auditor/run.py merges the results in input order, so the output does
not depend on how many processes audited; checks that judge across files, `collect` and
`audit`, see their facts there once every file is done).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from itertools import count
from typing import Any

from auditor import events as ev
from auditor.checks.base import FileView, round_end
from auditor.checks.runner import RoundRunner, runner_for
from auditor.config import TableConfig, option_field, option_key
from auditor.findings import Finding
from auditor.gaming_day import hour_stamp
from auditor.identity import normalise_statement
from auditor.parser import line_batches, parse_batches, parse_lines
from auditor.reader import (
    Header,
    Problem,
    ProblemContext,
    RoundRecord,
    read_body,
    read_structure,
)
from auditor.replay.engine import replay_round
from auditor.replay.state import TableState
from auditor.replay.trace import trace_round
from auditor.results import FileResult, InputSummary, round_key
from auditor.selection import Judging
from auditor.source import SourceFile, UnreadableFile


def house_rules(config: TableConfig) -> dict[str, str]:
    """The house rules a table was judged under: every option of its game with the value in
    force, a default made explicit (`blackjack` is the game's odds when not declared)."""
    rules: dict[str, str] = {}
    unknown = {rule.field for rule in config.unknown}  # not known, so not shown
    for name, value in config.rules.model_dump().items():
        if name in unknown:
            continue
        key = option_key(name)
        game = key.split(".", 1)[0]
        if game in ("db21", "tensticks", "ladies") and game != config.game:
            continue  # another game's option: nothing of this table
        if key == "blackjack":
            value = config.blackjack_odds
        if value is not None:
            rules[key] = str(value)
    return rules


REPLAYS_PER_CITATION = 10
"""Rounds of one file replayed step by step for the report, per citation: the first ones in
record order. Every finding is still reported with its lines; the cap keeps memory bounded by
the kinds of fault in a file rather than by how often they recur (a replay holds about
0.15 MiB), and keeps the printed report readable."""


class _ReplayPicker:
    """Which rounds with findings get a step-by-step replay (REPLAYS_PER_CITATION).

    Offered the rounds of a file in record order, it takes a round while one of its
    citations has fewer than the cap. A piece of a file (auditor/split.py) picks with a
    picker of its own, which takes every round the whole file's picker would take and
    maybe more (its counts can only be lower); offering the pieces' picks again, in
    order, to one picker gives exactly the whole file's choice."""

    def __init__(self) -> None:
        self.replayed: Counter = Counter()

    def wants(self, citations: frozenset[str]) -> bool:
        if all(self.replayed[c] >= REPLAYS_PER_CITATION for c in citations):
            return False
        self.replayed.update(citations)
        return True


class FileAudit:
    """One file's audit as its lines stream by: header, rounds, then the file's own checks.

    `audit_file` runs it over a whole file. A large file can also be audited in pieces that
    begin at a `shoe` statement (auditor/split.py): each piece starts from the table's state
    handed to it, `close_piece` ends it, and the first piece `absorb`s the others in order
    before `finish` judges the file as a whole, so the result is the whole file's."""

    def __init__(self, path: str, keep_evidence: bool = True, first_line: int = 1,
                 judging: Judging | None = None, reaches_end: bool = True) -> None:
        self.path = path
        self.judging = judging  # what the run judges (auditor/selection.py); None: all
        # Whether a round open at the end of the lines read may be one still being dealt:
        # the lines reach the file's end (a piece that ends at a `shoe` does not), and the
        # run does not take every file as finished (`audit --finished`).
        self.may_be_open = reaches_end and not (judging is not None and judging.finished)
        # The open round: the file ends inside it and no `close` was read (`_open`), and
        # the last line, not ended by a newline, set aside as not yet written (`_written`)
        self.open_round: dict[str, Any] | None = None
        self.unwritten_line: int | None = None
        # Whether a body statement (or a problem of the body) was read: a file that ends
        # before one, in a record not finished, is cut inside its header (`_open_header`)
        self.body_read = False
        self.open_key: tuple = (None, None)  # the open round's dealer and hour stamp
        self.keep_evidence = keep_evidence
        self.summary = InputSummary(path=path)
        self.result = FileResult(self.summary)
        self.state: TableState | None = None
        self.file_view: FileView | None = None
        self.runner = RoundRunner([], self.result)
        self.first_date: str | None = None
        self.last_date: str | None = None
        self.dealers: dict[str, None] = {}
        self.evidence_rounds: list[tuple[RoundRecord, TableState, list[int]]] = []
        self.evidence_lines: dict[int, str] = {}  # the lines of the rounds to replay, as read
        # (round key, citations) of each round replayed, in record order (see _ReplayPicker)
        self.picks: list[tuple[str, frozenset[str]]] = []
        self.picker = _ReplayPicker()
        self.file_picker = _ReplayPicker()  # the whole file's, as pieces are joined
        self.texts = _LineTexts(first_line)
        # Rounds read since the summary was last brought up to date (`close_piece`): a plain
        # counter a round, not the summary's validating `__setattr__`.
        self.rounds = 0
        # The last time stamp since the shoe began: a line's between rounds, else the end
        # of the last round (`last_view`, read only when a problem needs it).
        self.last_time: str | None = None
        self.last_view: Any = None
        # Rounds read but not judged, by (dealer, hour stamp): rare. The rounds read by the
        # same key are the tally's (`Tally.rounds`): `finish` puts both on the summary, so
        # that a report filtered to a dealer or a gaming day counts that scope's rounds.
        self.not_judged: dict[tuple[str | None, str | None], int] = {}

    def begin(self, config: TableConfig, problems: Iterable[Problem],
              state: TableState | None = None) -> None:
        """The table is known: from the header, or handed to a piece of the file."""
        self.state = state if state is not None else TableState(config)
        self.file_view = FileView(self.path, config, list(problems))
        if self.judging is not None:
            self.file_view.approvals = self.judging.approvals
        describe_table(self.summary, config)
        self.file_view.house_rules = self.summary.house_rules
        self.summary.rounds_audited += self.runner.judged  # any judged before a new runner
        # (a piece of a file, begun with a state, leaves the header's problems to the first)
        self.runner = runner_for(config, self.result, self.judging,
                                 self.file_view.problems if state is None else None)

    def read(self, lines: SourceFile | Iterable[tuple[int, str | None, str | None]],
             config: TableConfig | None = None) -> None:
        """Audit the lines: a whole record, or (with the table's `config`) a piece that
        begins with a body statement. A `SourceFile` is read a block of lines at a time."""
        texts = self.texts
        batches = self._written(lines) if isinstance(lines, SourceFile) \
            else line_batches(lines)
        events = parse_batches(batches, texts.keep, texts.problems)
        self.audit_items(read_structure(events) if config is None else read_body(events, config))

    def _written(self, source: SourceFile) -> Iterator[tuple]:
        """The source's batches of lines, but for a last line that no newline ends in a
        record not finished (no `close` read, the run not told every file is finished):
        a line the table may still be writing, set aside as not yet written, unless it is
        a whole `end` or `close` (nothing longer begins with either). Every line before it
        has been read when the source gives it: the table's state knows of a `close`."""
        for batch in source.batches():
            number = source.unterminated
            if number is not None and batch[0] == number and self.may_be_open and not (
                    self.state is not None and self.state.closed) and self._live(
                    self.state.date_in_force if self.state is not None else None):
                text = batch[1][0]  # None: not even text (cut inside a character)
                statement = next(parse_lines([(number, text, None)]), None) \
                    if text is not None else _CUT
                if statement is not None and type(statement) not in (ev.RoundEnd, ev.Close):
                    self.unwritten_line = number
                    continue  # (a blank or comment line holds nothing: read as it is)
            yield batch

    def audit_items(self, items: Iterable[Any]) -> None:
        """Audit what the reader made of the lines: rounds, headers, problems and the
        statements between rounds."""
        # Most items are rounds: they are tested first. Memory stays flat: nothing is kept
        # per round but its findings, and the rounds to replay (bounded per citation).
        for item in items:
            if isinstance(item, RoundRecord):
                self._round(item)
            elif isinstance(item, Header):
                self.begin(item.config, item.problems)
            elif isinstance(item, Problem):
                self.body_read = True
                self.file_view.problems.append(self._in_context(item))
            elif isinstance(item, ev.Event):
                self.body_read = True
                self._between_rounds(item)

    def _round(self, item: RoundRecord) -> None:
        state, result, texts = self.state, self.result, self.texts
        if item.at_end and self.may_be_open and not state.closed and self._live(
                state.date_of(item.start.date, item.start.clock or item.start.time)):
            self._open(item)
            return
        before = state.clone() if self.keep_evidence else None
        view = replay_round(state, item, self.path)
        self.rounds += 1
        self.last_view, self.last_time = view, None
        date = view.date
        if date:
            if self.first_date is None or date < self.first_date:
                self.first_date = date
            if self.last_date is None or date > self.last_date:
                self.last_date = date
        if view.dealer_id:
            self.dealers[view.dealer_id] = None
        found = len(result.findings)
        judged = self.runner.run(view)
        if view.unreadable or not self.runner.regulation:  # not audited (a rare round)
            key = (view.dealer_id, hour_stamp(view.date, view.clock))
            self.not_judged[key] = self.not_judged.get(key, 0) + 1
        if judged:
            texts.attach(result.findings, found)
            citations = frozenset(f.citation for f in result.findings[found:])
            if before is not None and self.picker.wants(citations):
                self.picks.append((round_key(self.path, item.round_id, item.start.line),
                                   citations))
                self.evidence_rounds.append((item, before, [
                    f.line for f in result.findings[found:] if f.line is not None]))
                # Taken from the bytes being read (and hashed), never read again: a file
                # replaced while it is audited cannot put its lines beside this SHA-256.
                self.evidence_lines.update(texts.shown(item.start.line,
                                                       item.end_line or item.last_line))
        texts.forget(item.start.line, item.end_line or item.last_line)
        result.tally.add_round(view, result.findings[found:] if judged else ())

    def _open_header(self, lines: int) -> int | None:
        """The last line read of a header the table may still be writing, else None: the
        file ends before any body statement (an empty file too) in a record not finished
        and not untouched since before `Judging.live_from` (a header holds no date: the
        file's own says whether it is an old record cut short). Its header is not judged: a
        file cut before its `table` line would be a false record:header."""
        if self.body_read or self.rounds or self.summary.rounds or not self.may_be_open:
            return None
        live_from = self.judging.live_from if self.judging is not None else None
        if live_from is not None:
            import os
            from datetime import date

            try:
                day = date.fromtimestamp(os.stat(self.path).st_mtime).isoformat()
            except (OSError, ValueError):
                day = None  # bytes handed to a worker: no date to go by
            # untouched since before `live_from`: an old record cut short, judged (a later
            # date is no reason to judge: a copy of a file is dated when it is made)
            if day is not None and day < live_from:
                return None
        return lines - (self.unwritten_line is not None)

    def _live(self, day: str | None) -> bool:
        """Whether a round of `day` may still be being dealt (`Judging.may_be_live`)."""
        return self.judging is None or self.judging.may_be_live(max(
            (d for d in (day, self.last_date) if d), default=None))

    def _open(self, item: RoundRecord) -> None:
        """The round the file ends inside, in a record whose table has not closed: still
        being dealt, as far as the record tells. It is read (counted as read) but neither
        replayed nor judged: no check sees it, so nothing in it is a finding, and the
        outputs name it instead (`InputSummary.open_round`)."""
        start, state = item.start, self.state
        self.rounds += 1
        self.open_round = {"round": item.round_id, "line": start.line,
                           "last_line": item.last_line}
        dealer = start.dealer or state.dealer
        stamp = hour_stamp(state.date_of(start.date, start.clock or start.time), start.clock)
        self.open_key = (dealer, stamp)
        self.texts.forget(start.line, item.last_line)

    def _between_rounds(self, item: ev.Event) -> None:
        state = self.state
        state.apply(item)
        self.result.tally.add_event(item)
        if isinstance(item, ev.Shoe):
            # a piece of a split file begins here knowing no time
            self.last_time = self.last_view = None
        elif item.time:
            self.last_time = item.time
        if isinstance(item, ev.Burn) and state.counts[item.card] > state.config.decks:
            # a card burned between rounds counts too (record:card-count)
            self.file_view.problems.append(self._in_context(Problem(
                "card-count", item.line, f"burned {item.card} is seen "
                f"{state.counts[item.card]} times {state.counted_since_text()}, more "
                f"than the {state.config.decks}-deck shoe holds")))

    def _in_context(self, problem: Problem) -> Problem:
        """`problem`, met between rounds, with what is in force there: its finding is dated
        and placed like the rounds around it (its gaming day, shift, shoe and dealer)."""
        state = self.state
        if state is None or state.shoe_id is None:
            return problem  # before the first shoe: the record's, not a shoe's
        time = self.last_time or (round_end(self.last_view) if self.last_view else None)
        return replace(problem, context=ProblemContext(
            state.date_in_force, state.shoe_id, state.dealer, time))

    def close_piece(self, trace: bool = True) -> None:
        """The lines are all read: the last shuffle's cards closed, and the replays of the
        rounds picked traced (their rounds' states let go). A piece of a file leaves its
        rounds untraced (`trace=False`): the join traces only those the whole file picks,
        most of a piece's picks being taken already by the pieces before it."""
        self.result.tally.finish()
        summary, runner = self.summary, self.runner
        summary.rounds += self.rounds
        summary.rounds_audited += runner.judged
        self.rounds = runner.judged = 0
        if trace:
            self._trace()

    def _trace(self) -> list[str]:
        """The rounds picked traced; their keys."""
        keys = []
        for record, before, faults in self.evidence_rounds:
            key = round_key(self.path, record.round_id, record.start.line)
            self.result.evidence[key] = trace_round(before, record, self.path,
                                                    self.evidence_lines, faults)
            keys.append(key)
        self.evidence_rounds, self.evidence_lines = [], {}
        return keys

    def absorb(self, piece: FileAudit) -> None:
        """The next piece of the same file, audited from the state this one ended in."""
        result, other = self.result, piece.result
        self.summary.rounds += piece.summary.rounds
        self.summary.rounds_audited += piece.summary.rounds_audited
        for date in (piece.first_date, piece.last_date):
            if date and (self.first_date is None or date < self.first_date):
                self.first_date = date
            if date and (self.last_date is None or date > self.last_date):
                self.last_date = date
        self.dealers.update(piece.dealers)
        for key, rounds in piece.not_judged.items():
            self.not_judged[key] = self.not_judged.get(key, 0) + rounds
        result.findings.extend(other.findings)
        for citation, facts in other.facts.items():
            result.facts.setdefault(citation, []).extend(facts)
        result.evidence.update(other.evidence)
        self.picks.extend(piece.picks)
        self.evidence_rounds.extend(piece.evidence_rounds)
        self.evidence_lines.update(piece.evidence_lines)
        result.tally.absorb(other.tally)
        self.file_view.problems.extend(piece.file_view.problems)
        self.texts.absorb(piece.texts)
        self.texts.problems.update(piece.texts.problems)
        self.runner.audited += piece.runner.audited
        self.runner.not_in_force.update(piece.runner.not_in_force)
        self.runner.unreadable += piece.runner.unreadable
        self.state = piece.state
        self.last_time, self.last_view = piece.last_time, piece.last_view
        self.open_round = piece.open_round or self.open_round
        self.open_key = piece.open_key
        self.unwritten_line = piece.unwritten_line or self.unwritten_line

    def pick_replays(self) -> None:
        """Of the replays of the pieces joined so far, the ones the whole file's picker takes
        (_ReplayPicker), traced, with what each line changed. Called again as each piece is
        joined (auditor/split.py), while the last pieces are still audited: the picker
        takes rounds in record order, so the picks of the pieces joined are final."""
        picker = self.file_picker
        evidence = self.result.evidence
        wanted = set()
        for key, citations in self.picks:
            if picker.wants(citations):
                wanted.add(key)
            else:
                evidence.pop(key, None)
        self.picks = []
        self.evidence_rounds = [
            (record, before, faults) for record, before, faults in self.evidence_rounds
            if round_key(self.path, record.round_id, record.start.line) in wanted]
        traced = self._trace()
        for key in traced:
            evidence[key].changes()  # made now, not in the store's serial end

    def finish(self, sha256: str, lines: int, size: int | None = None) -> FileResult:
        """The file's own checks, its dates and dealers: the result is complete. `size`: the
        bytes hashed into `sha256`."""
        summary, result, file_view = self.summary, self.result, self.file_view
        summary.sha256, summary.lines, summary.size = sha256, lines, size
        open_header = self._open_header(lines)
        if summary.lines == 0 and open_header is None:
            file_view.problems.insert(0, Problem("header", 1, "the file is empty"))
        self.runner.count_applied()
        found = len(result.findings)
        file_view.statements = self.texts.texts  # the header's lines, for record:approval
        summary.open_header = open_header
        if open_header is None:  # a header still being written is not judged
            self.runner.run_file(file_view)
        self.texts.attach(result.findings, found)
        summary.first_date, summary.last_date = self.first_date, self.last_date
        summary.dealers = list(self.dealers)
        summary.round_counts = round_counts(result.tally.rounds, self.not_judged)
        summary.open_round, summary.unwritten_line = self.open_round, self.unwritten_line
        summary.finished = result.tally.finished = (
            self.state is not None and self.state.closed) or (
            self.judging is not None and self.judging.finished)
        if self.open_round is not None and summary.round_counts is not None:
            _count_open_round(summary.round_counts, self.open_key)
        return result


ROUND_COUNTS_AT_MOST = 10_000
"""Dealer-hours a file's `round_counts` holds at most: a month of one table's hours by a
few dealers is a few thousand; past it (a record naming a new dealer every round) the file
keeps none, and a filtered report counts it whole and says so, rather than carrying a
list as long as the file into findings.json, the store and the page."""


def round_counts(read: dict[tuple, int], not_judged: dict[tuple, int]) -> list[list] | None:
    """[dealer, hour stamp, rounds read, rounds audited] for each dealer and hour of a
    file, in record order of first appearance (`read`: the tally's rounds by dealer, hour
    stamp and shift); None past ROUND_COUNTS_AT_MOST."""
    counts: dict[tuple, int] = {}
    for (dealer, stamp, _), rounds in read.items():
        counts[dealer, stamp] = counts.get((dealer, stamp), 0) + rounds
    if len(counts) > ROUND_COUNTS_AT_MOST:
        return None
    return [[dealer, stamp, rounds, rounds - not_judged.get((dealer, stamp), 0)]
            for (dealer, stamp), rounds in counts.items()]


def _count_open_round(counts: list[list], key: tuple) -> None:
    """The open round among the rounds read of its dealer and hour (none audited)."""
    dealer, stamp = key
    for row in counts:
        if row[0] == dealer and row[1] == stamp:
            row[2] += 1
            return
    counts.append([dealer, stamp, 1, 0])


def audit_file(path: str, keep_evidence: bool = True, data: bytes | None = None,
               judging: Judging | None = None) -> FileResult:
    """Audit one record: the file at `path`, or its bytes `data` (named `path`) for a
    worker that cannot read the file itself; `judging`: what is judged (None: all)."""
    source = SourceFile(path, data=data)
    try:
        source.open_check()
    except UnreadableFile as error:
        return refused_file(path, str(error), judging)
    audit = FileAudit(path, keep_evidence, judging=judging)
    audit.read(source)
    audit.close_piece()
    return audit.finish(source.sha256, source.line_count, source.size)


def refused_file(path: str, why: str, judging: Judging | None = None) -> FileResult:
    """The result of a record that could not be read: `why`, and nothing judged."""
    audit = FileAudit(path, judging=judging)
    audit.summary.error = why
    return audit.result


def why_unreadable(path: str, error: OSError) -> str:
    """Why a file that failed to open cannot be audited, in the words its audit would use."""
    try:
        SourceFile(path).open_check()
    except UnreadableFile as refused:
        return str(refused)
    return f"{path}: cannot be read ({error.strerror or error})"


def describe_table(summary: InputSummary, config: TableConfig) -> None:
    """The header's identity of the table: who runs it, its game, shoe, limits and rules."""
    summary.table, summary.game = config.table_id, config.game
    summary.casino, summary.licence = config.casino, config.licence
    summary.decks, summary.seats, summary.currency = config.decks, config.seats, config.currency
    if any(rule.field == "decks" for rule in config.unknown):
        summary.decks = None  # the header does not say (record:header)
    summary.minimum, summary.maximum = config.minimum, config.maximum
    summary.house_rules = house_rules(config)
    summary.declared_rules = [key for key in summary.house_rules
                              if config.declares(option_field(key) or key)]
    summary.unknown_rules = {rule.key: rule.why for rule in config.unknown}
class _LineTexts:
    """The texts of the lines findings may stand on, kept while the file streams, so that
    each finding carries its statement (for its ID) without reading the file again.

    The lines are kept as the parser reads them, a batch at a time (`keep`: the batch's
    list itself, no work per line); a round's lines are dropped once the round is judged,
    and the blank and comment lines between rounds then too. What stays (`kept`) is the
    few statements between rounds (header, shoes, notes), for the findings about the whole
    file, and the lines not yet settled."""

    def __init__(self, first_line: int = 1) -> None:
        self.kept: dict[int, str | None] = {}  # settled lines kept, by number
        # the batches read, holding every line from `after` on: each one's texts, and the
        # number of its first line
        self.batches: list[Sequence[str | None]] = []
        self.firsts: list[int] = []
        self.problems: dict[int, str] = {}  # why an unreadable line could not be read
        self.after = first_line  # lines before this one are settled (or in another piece)

    def keep(self, first: int, texts: Sequence[str | None]) -> None:
        """Lines first, first + 1, ... as read (None for an unreadable line, whose ID uses
        the message in `problems`)."""
        self.firsts.append(first)
        self.batches.append(texts)

    def get(self, number: int, default: Any = None) -> Any:
        """The text of line `number`, if kept (it may be None: an unreadable line)."""
        if number < self.after:
            return self.kept.get(number, default)
        index = bisect_right(self.firsts, number) - 1
        if index >= 0:
            offset = number - self.firsts[index]
            texts = self.batches[index]
            if offset < len(texts):
                return texts[offset]
        return default

    @property
    def texts(self) -> dict[int, str | None]:
        """Every line kept, by number, in line order."""
        texts = dict(self.kept)
        after = self.after
        for first, batch in zip(self.firsts, self.batches, strict=True):
            skip = max(0, after - first)
            texts.update(zip(count(first + skip), batch[skip:]))
        return texts

    def absorb(self, other: _LineTexts) -> None:
        """The lines kept by the next piece of the same file (its lines come after these)."""
        kept = self.texts
        kept.update(other.texts)
        self.problems.update(other.problems)
        self.kept, self.batches, self.firsts = kept, [], []
        # every line is settled now: looked up in `kept`
        self.after = max(self.after, other.after, max(kept, default=0) + 1)

    def shown(self, first: int, last: int) -> dict[int, str]:
        """The lines first to last as a replay shows them (an unreadable one as <why>)."""
        shown: dict[int, str] = {}
        for number in range(first, last + 1):
            text = self.get(number, _MISSING)
            if text is not _MISSING:
                shown[number] = text if text is not None else f"<{self.problems[number]}>"
        return shown

    def attach(self, findings: list[Finding], start: int) -> None:
        """Give findings[start:] their normalised statement."""
        for index in range(start, len(findings)):
            finding = findings[index]
            if finding.line is None:
                continue
            text = self.get(finding.line, _MISSING)
            if text is not _MISSING:
                # An unreadable line has no text: "" says so (its ID uses the message), so
                # the parent does not look for it again.
                statement = normalise_statement(text) if text is not None else ""
                findings[index] = finding.model_copy(update={"statement": statement})

    def forget(self, first: int, last: int) -> None:
        """Lines up to `last` are settled: those before `first` (between rounds) kept
        unless blank or a comment, `first` to `last` (a judged round) dropped."""
        get, kept = self.get, self.kept
        for number in range(self.after, first):
            text = get(number, _MISSING)
            if text is not _MISSING and (text is None or text.lstrip()[:1] not in ("", "#")):
                kept[number] = text
        self.after = after = max(self.after, last + 1)
        firsts, batches = self.firsts, self.batches
        settled = 0  # the batches wholly before `after`
        while settled < len(batches) and firsts[settled] + len(batches[settled]) <= after:
            settled += 1
        if settled:
            del firsts[:settled], batches[:settled]


_MISSING = object()
_CUT = object()  # a last line that is not text: a statement cut short
