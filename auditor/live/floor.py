"""The floor as it plays, held in memory for the live page: each table's latest state, the
gaming day's findings in the order they were judged, the units trends flags, and notices
(a file truncated and read again, a store that failed). The watcher writes it from its own
thread; the page reads it from the server's event loop. Every change gets the next sequence
number, so a page that has seen up to N asks for what came after N and never misses or
repeats one; a page that fell further behind than the changes kept loads the snapshot again.

Everything here is record text or derived from it: the page escapes it all.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import asdict, dataclass
from itertools import islice
from typing import Any, Literal

# The characters of a record line the page carries (a record's line may run to 64 KiB, each
# finding carries its round's lines, and the floor keeps 5,000 findings).
SHOWN_LINE_CHARACTERS = 1000

ChangeKind = Literal["table", "finding", "flags", "notice", "day"]


@dataclass(frozen=True, slots=True)
class TableState:
    """One followed record, as last read."""

    key: str  # the table's key (licence/table as the header names it), else the file's path
    file: str
    game: str | None
    dealer: str | None
    last_round: str | None  # the last round judged (its `end` written)
    open_round: str | None  # the round being dealt, None between rounds
    rounds: int  # rounds judged so far this gaming day
    findings: int  # findings so far this gaming day
    updated: str  # when the watcher last read new lines of the file (ISO 8601, UTC)


@dataclass(frozen=True, slots=True)
class Change:
    sequence: int
    kind: ChangeKind
    data: dict[str, Any]


class LiveFloor:
    """Thread-safe. Memory is bounded by the tables followed and by `keep` findings and
    changes: the page of a long night shows the newest `keep` findings and says how many
    came before them."""

    def __init__(self, keep: int = 5000) -> None:
        self._lock = threading.Lock()
        self._sequence = 0
        self._tables: dict[str, TableState] = {}
        self._findings: deque[dict[str, Any]] = deque(maxlen=keep)
        self._findings_total = 0
        self._flags: list[dict[str, Any]] = []
        self._notices: deque[dict[str, Any]] = deque(maxlen=200)
        self._changes: deque[Change] = deque(maxlen=keep)
        self._gaming_day: str | None = None

    def _record(self, kind: ChangeKind, data: dict[str, Any]) -> None:
        self._sequence += 1
        self._changes.append(Change(self._sequence, kind, data))

    def update_table(self, state: TableState) -> None:
        with self._lock:
            self._tables[state.key] = state
            self._record("table", asdict(state))

    def add_finding(self, finding: dict[str, Any], lines: dict[int, str]) -> None:
        """`finding` as findings.json holds it (with its ID); `lines`: the round's lines by
        number, the evidence among them, for the page to show beside it. A line longer than
        SHOWN_LINE_CHARACTERS is shortened here, for the page alone (the findings, the store
        and the case file keep it whole): `shortened` gives such a line's whole length."""
        entry: dict[str, Any] = {"finding": finding, "lines": {
            str(number): text[:SHOWN_LINE_CHARACTERS] for number, text in sorted(lines.items())}}
        shortened = {str(number): len(text) for number, text in sorted(lines.items())
                     if len(text) > SHOWN_LINE_CHARACTERS}
        if shortened:
            entry["shortened"] = shortened
        with self._lock:
            self._findings.append(entry)
            self._findings_total += 1
            self._record("finding", entry)

    def set_flags(self, flags: list[dict[str, Any]]) -> None:
        """The units trends flags now (each as `auditor trends --json` lists a flag)."""
        with self._lock:
            self._flags = list(flags)
            self._record("flags", {"flags": self._flags})

    def notice(self, text: str, file: str | None = None) -> None:
        entry = {"text": text, "file": file}
        with self._lock:
            self._notices.append(entry)
            self._record("notice", entry)

    def new_gaming_day(self, gaming_day: str) -> None:
        """The gaming day closed and the next began: the findings shown start again."""
        with self._lock:
            self._gaming_day = gaming_day
            self._findings.clear()
            self._findings_total = 0
            self._tables = {key: _fresh(state) for key, state in self._tables.items()}
            self._record("day", {"gaming_day": gaming_day})

    def snapshot(self) -> dict[str, Any]:
        """Everything the page shows, with the sequence number it is current to."""
        with self._lock:
            return {
                "sequence": self._sequence,
                "gaming_day": self._gaming_day,
                "tables": [asdict(state) for _, state in sorted(self._tables.items())],
                "findings": list(self._findings),
                "findings_total": self._findings_total,
                "flags": list(self._flags),
                "notices": list(self._notices),
            }

    def changes_after(self, sequence: int, limit: int | None = None) -> list[Change] | None:
        """The changes after `sequence`, oldest first, at most `limit` of them; None when
        some of them are no longer kept (the caller loads the snapshot again)."""
        with self._lock:
            if sequence >= self._sequence:
                return []
            if not self._changes or self._changes[0].sequence > sequence + 1:
                return None
            first = sequence + 1 - self._changes[0].sequence  # the sequences are contiguous
            last = None if limit is None else first + limit
            return list(islice(self._changes, first, last))

    @property
    def sequence(self) -> int:
        with self._lock:
            return self._sequence


def _fresh(state: TableState) -> TableState:
    return TableState(state.key, state.file, state.game, state.dealer, state.last_round,
                      state.open_round, 0, 0, state.updated)
