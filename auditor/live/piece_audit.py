"""One followed record judged as it grows: each piece of new complete rounds audited from the
table's state where the last piece ended, as a large file's pieces are (auditor/split.py),
so a round is judged once, as soon as its `end` line is written, and never while open.

A piece runs from the byte after the last round judged to the newline of the last line
that parses as `end` (or `close`): the rounds in it are whole, so their findings are those
the audit of the finished file gives them (a round's checks see the round and the table's
state, and the state is handed on exactly, not guessed). The file's own checks judge the
header with the first piece and what each piece met between its rounds with that piece:
nothing after the piece's last line can change those findings. Only the checks across
files wait for the day's run (auditor/live/watch.py): the files they join are the day's,
known at its close.

Each finding gets its ID as `annotate_run` would give it: the same recipe, the occurrence
counted within the file in record order (auditor/identity.py), its gaming day and shift
from the settings' calendar, and the player at its seat.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from auditor import events as ev
from auditor.audit import FileAudit, describe_table
from auditor.checks.base import FileView
from auditor.config import TableConfig
from auditor.findings import Finding, changed
from auditor.gaming_day import Calendar
from auditor.identity import finding_id, identity_key
from auditor.parser import parse_batches
from auditor.reader import Header, RoundRecord, read_body, read_structure
from auditor.replay.state import TableState
from auditor.results import InputSummary
from auditor.selection import Judging
from auditor.source import SourceFile


@dataclass
class LiveFinding:
    """A finding of a round just judged, as findings.json holds it, and its round's lines."""

    finding: dict[str, Any]
    severity: str
    lines: dict[int, str]
    waived: bool = False


@dataclass
class PieceOutcome:
    judged: list[LiveFinding] = field(default_factory=list)
    rounds: int = 0
    last_round: str | None = None
    gaming_day: str | None = None  # of the last round judged
    gaming_days: set[str] = field(default_factory=set)  # of every round judged


class GrowingFileAudit:
    """The judging of one record from its first byte: `offset` is where the next piece
    begins (the byte after the last round judged), `line` its first line's number."""

    def __init__(self, path: str, calendar: Calendar, judging: Judging | None = None,
                 waivers: list | None = None) -> None:
        self.path = path
        self.waivers = waivers  # the settings' waivers (waivers.load_waivers), if any
        self.calendar = calendar
        self.judging = judging
        self.offset = 0
        self.line = 1
        self.config: TableConfig | None = None
        self.state: TableState | None = None
        self.last_time: str | None = None
        self.last_view: Any = None
        self.seen: Counter = Counter()  # identity keys met so far: the occurrence numbers
        self.table_key: str | None = None
        self.game: str | None = None
        self.dealer: str | None = None
        self.first_gaming_day: str | None = None
        # every gaming day the rounds judged fall in (a record dealt past the day's start
        # hour is in two): each day's run records the record (auditor/live/watch.py)
        self.gaming_days: set[str] = set()
        self.last_gaming_day: str | None = None  # of the last round judged
        self.rounds = 0
        self.seen_shoe = False  # a `shoe` before the next piece (reader.read_body)
        # the file's own checks that find something only in a problem met (judged again
        # on each piece's problems), once the header is read; None before
        self.problem_checks: list | None = None

    def audit_piece(self, data: bytes) -> PieceOutcome | None:
        """Judge the rounds whose `end` is in `data` (the file's bytes from `offset`, cut
        after a newline); None when no round is complete yet. Moves `offset` past them."""
        audit = FileAudit(self.path, first_line=self.line, judging=self.judging)
        source = SourceFile(self.path, first_line=self.line, data=data)
        events = list(parse_batches(source.batches(), audit.texts.keep, audit.texts.problems))
        last_end = next((index for index in range(len(events) - 1, -1, -1)
                         if type(events[index]) in _PIECE_ENDS), None)
        if last_end is None:
            if self.table_key is None and events:
                self._name_table(events)
            return None
        end_line = events[last_end].line
        del events[last_end + 1:]
        rounds: list[tuple[int, int, str]] = []  # (first line, last line, round ID)

        def noted(items):
            for item in items:
                if isinstance(item, RoundRecord):
                    rounds.append((item.start.line, item.end_line or item.last_line,
                                   item.round_id))
                yield item

        if self.config is None:
            audit.audit_items(noted(read_structure(events)))
        else:
            audit.begin(self.config, (), self.state.clone())
            audit.last_time, audit.last_view = self.last_time, self.last_view
            audit.audit_items(noted(read_body(events, self.config,
                                                seen_shoe=self.seen_shoe)))
        if audit.state is None:  # the header alone (no body statement): nothing judged
            return None
        outcome = PieceOutcome(rounds=len(rounds))
        self.config = audit.state.config
        self.table_key = audit.summary.table_key
        outcome.judged = self._identified(audit, data, rounds, self._record_findings(audit))
        # commit: the next piece begins after the last `end`
        self.offset += _after_line(data, end_line - self.line + 1)
        self.line = end_line + 1
        self.state, self.last_time, self.last_view = audit.state, audit.last_time, \
            audit.last_view
        self.rounds += len(rounds)
        self.seen_shoe = self.seen_shoe or any(type(e) is ev.Shoe for e in events)
        self.game, self.dealer = self.config.game, audit.state.dealer
        if rounds:
            outcome.last_round = rounds[-1][2]
        view = audit.last_view
        if view is not None:
            outcome.gaming_day = self.calendar.gaming_day(view.date, view.clock)
            if self.first_gaming_day is None:
                self.first_gaming_day = outcome.gaming_day
            self.last_gaming_day = outcome.gaming_day or self.last_gaming_day
        # the days of the piece's rounds, from the hours they were dealt in, as the store
        # splits a record into table-nights (`Calendar.span`)
        outcome.gaming_days = {day for day in (self.calendar.of_stamp(stamp)[0] for _, stamp, _
                                               in audit.result.tally.rounds if stamp) if day}
        self.gaming_days |= outcome.gaming_days
        return outcome

    def name_table(self, data: bytes) -> None:
        """The table's key and game from the record's first whole lines (`data`, from its
        first byte), before any round has ended: the floor shows it under its key."""
        audit = FileAudit(self.path, judging=self.judging)
        source = SourceFile(self.path, data=data)
        events = list(parse_batches(source.batches(), audit.texts.keep, audit.texts.problems))
        if events:
            self._name_table(events)

    def _name_table(self, events: list) -> None:
        """The table's key and game from the header, before any round has ended."""
        items = read_structure(events)
        header = next(items, None)
        items.close()
        if isinstance(header, Header) and header.config is not None:
            summary = InputSummary(path=self.path)
            describe_table(summary, header.config)
            if summary.table != "?":  # not a header cut before its `table` line
                self.table_key, self.game = summary.table_key, header.config.game

    def _record_findings(self, audit: FileAudit) -> list[Finding]:
        """The file's own checks (`Check.file`) on what the piece met outside its rounds:
        the header (in the first piece), and the problems between rounds (a card burned
        past the shoe's count, lines that cannot be read, statements out of place). The
        piece ends at an `end` or `close` line, which no run of unreadable lines crosses,
        so each problem's finding is the one the finished file's audit gives it. A check
        that finds something in the header alone (the Switch table's decks, the house
        rules against their approval) is run once, with the header; the others again with
        each piece's problems."""
        view = audit.file_view
        if self.problem_checks is None:  # the first piece: the header read here
            view.statements = audit.texts.texts  # the header's lines (record:approval)
            found = [finding for check in audit.runner.checks for finding in check.file(view)]
            bare = FileView(view.file, view.config, [], view.approvals, view.statements,
                            view.house_rules)
            self.problem_checks = [check for check in audit.runner.checks
                                   if not any(True for _ in check.file(bare))]
        elif view.problems:
            found = [finding for check in self.problem_checks for finding in check.file(view)]
        else:
            return []
        audit.texts.attach(found, 0)
        return found

    def _identified(self, audit: FileAudit, data: bytes,
                    rounds: list[tuple[int, int, str]],
                    record: list[Finding] = ()) -> list[LiveFinding]:
        # (a file's own findings after its rounds', as FileAudit.finish adds them: in the
        # sort's ties, the order the occurrence numbers are counted in)
        findings = sorted([*audit.result.findings, *record], key=Finding.sort_key)
        if not findings:
            return []
        summary = audit.summary
        site = (summary.licence or summary.casino or None, summary.table)
        players = {(line, seat): player for line, seat, player in audit.result.tally.seats}
        texts = _lines_of(data, self.line)
        judged = []
        for finding in findings:
            key = identity_key(finding, site)
            digest = hashlib.sha256(repr(key).encode("utf-8")).digest()[:16]
            self.seen[digest] += 1
            finding = self.calendar.stamp(changed(finding, id=finding_id(key, self.seen[digest])))
            player = players.get((finding.line, finding.seat))
            if player is not None and finding.player != player:
                finding = changed(finding, player=player)
            if self.waivers:  # as annotate_run marks them (a file's SHA-256 is known at the end)
                from auditor.waivers import Waiving

                finding = Waiving(self.waivers, [summary], datetime.now(UTC).date())(finding)
            first, last = _round_of(finding.line, rounds)
            document = {**finding.as_dict(), "table_key": self.table_key or finding.table}
            judged.append(LiveFinding(document, finding.severity,
                                 {n: texts[n] for n in range(first, last + 1) if n in texts},
                                 finding.waiver is not None))
        return judged


# A piece ends after the last line that ends a round, or the record (`close`: what was
# met between the last round and it can be judged then)
_PIECE_ENDS = (ev.RoundEnd, ev.Close)


def _after_line(data: bytes, lines: int) -> int:
    """The byte after the newline ending the `lines`-th line of `data`."""
    place = -1
    for _ in range(lines):
        place = data.index(b"\n", place + 1)
    return place + 1


def _lines_of(data: bytes, first: int) -> dict[int, str]:
    return dict(enumerate(data.decode("utf-8", "replace").split("\n"), first))


def _round_of(line: int | None, rounds: list[tuple[int, int, str]]) -> tuple[int, int]:
    if line is not None:
        for first, last, _ in rounds:
            if first <= line <= last:
                return first, last
        return line, line
    return 1, 0
