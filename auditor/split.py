"""One large file on every core: the file cut at `shoe` statements, each piece audited from
the table's state where it begins, and the pieces joined into the whole file's result.

- **Plan** (the parent, one pass over the bytes): the header, read as the audit reads it;
  the `shoe` statements where pieces may begin; and the table's state at each, guessed by
  following only what outlives a round (sits, leaves, wagers on empty seats, lights, prizes,
  dealers, `close`). At a `shoe` the shoe, shuffle, cut and card counts start again, so the
  rest of the state is all a piece needs.
- **Audit** (the workers): each piece from its guessed state, returning its result and the
  state it ended in.
- **Join** (the parent, as the pieces come back): each piece's guess is compared with the
  state the pieces before it ended in, and the piece joined to them if they agree; where
  they differ (a record the plan's short reading got wrong), the piece is audited again
  from that state. The result is the whole file's whatever the guess: the guess decides
  only the speed. As each piece is joined, its replays are picked again as the whole file
  picks them (in record order, so a joined piece's picks are final) and traced; once
  every piece is joined, the file's own checks run once, on the joined file.

The parent's own work (the plan, the join, then the store and the outputs) is what two
cores cannot share: it is kept small (a plan that searches the bytes, a join done while
the last pieces are still audited, the file's last pieces smaller so that neither worker
waits long for the other).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache

from auditor import events as ev
from auditor.audit import FileAudit
from auditor.config import TableConfig
from auditor.parser import line_events, parse_lines
from auditor.reader import Header, read_structure
from auditor.replay.state import TableState
from auditor.replay.view import seat_of
from auditor.results import FileResult
from auditor.source import (
    _BLOCK,
    MAX_LINE_BYTES,
    SourceFile,
    UnreadableFile,
    _decode,
    _memory_is_not_the_file,
)

SPLIT_BYTES = 16 << 20
"""A file larger than this is audited in pieces when several processes audit (about 20,000
rounds); below it, the file alone is a fair share of a worker's time."""

PIECE_BYTES = 2 << 20
"""About the size of one piece (about 2,500 rounds): small enough that the pieces of one
file keep every worker busy to the end (the last piece, audited alone, is the wait at the
end: 4 MiB gave 1.49 x one process on a 40,000-round record, 2 MiB 1.58 x), large enough
that a piece's fixed cost (its result sent back, its replays traced) stays small."""

# The lines the plan reads: the statements that change what outlives a round, and the
# wagers on seats not taken (a wager on an empty seat seats an unnamed player). Each pattern
# leaves out the wagers on the seats taken, which are nearly all wagers and change nothing:
# it is made again when the seats taken change. A line is found by the newline before it
# (the text searched begins with one), which a regular expression finds faster than `^`.
# The time stamp is possessive (`?+`, `*+`, `++`): a line whose stamp is not followed by
# a statement wanted is left at once, not tried again as if the stamp were absent (no
# statement begins with a digit or a blank); with the keywords grouped by first letter,
# this halves the search, which tries every line of the file.
_STAMP = rb"\n[ \t]*+(?:[0-9][0-9]:[0-9][0-9]:[0-9][0-9](?:\.[0-9]{1,3})?+[ \t]++)?+"
_WORD_END = rb"(?![^ \t\r\n#])"


@lru_cache(maxsize=256)
def _followed(seated: frozenset[bytes]) -> re.Pattern:
    taken = b"(?!" + b"|".join(re.escape(seat) for seat in sorted(seated)) + b")" \
        if seated else b""
    return re.compile(
        _STAMP + rb"(?:bet[ \t]++" + taken + rb"(?P<target>[^ \t\r\n#]+)[ \t]+(?P<kind>[a-z0-9]+)"
        rb"|(?P<other>s(?:it|hoe)|l(?:eave|ight)|prize|dealer|close))" + _WORD_END
        + rb"[^\n]*")


# The last line that opens or closes a round before a place: whether a statement found is
# inside a round (the greedy start looks from the place backwards).
_LAST_ROUND_OR_END = re.compile(rb"(?s:.*)" + _STAMP + rb"(?:(?P<opens>round)|(?P<closes>end))"
                                + _WORD_END)


@dataclass(frozen=True)
class Piece:
    """A piece of a file: bytes `start` to `end` (None: to the end), its first line's
    number, and, past the first piece (which reads the header), the table and its state.
    A plan's pieces carry the SHA-256 of the bytes the plan read (`sha256`), and its last
    ends where the plan's reading ended (`last`): the file's end as the audit knows it."""

    path: str
    number: int
    start: int
    end: int | None
    first_line: int
    config: TableConfig | None = None
    state: TableState | None = None
    data: bytes | None = None  # the piece's bytes, for a worker that cannot read the file
    sha256: str | None = None
    last: bool = False

    def with_bytes(self) -> Piece:
        """The same piece carrying its bytes (for a worker on another machine); bytes that
        cannot be read now are sent as none, which are not the bytes planned."""
        try:
            with open(self.path, "rb") as handle:
                handle.seek(self.start)
                data = handle.read(-1 if self.end is None else self.end - self.start)
        except OSError as error:
            _memory_is_not_the_file(error)
            data = b""
        return replace(self, data=data)


@dataclass
class PieceResult:
    number: int
    audit: FileAudit
    guessed: tuple | None  # the state it was handed (TableState.handoff), None: first piece
    began_with_shoe: bool
    sha256: str | None = None  # of the bytes read (None: they could not be read)


def audit_piece(piece: Piece, judging=None) -> PieceResult:
    """Audit one piece (in a worker); `judging`: what the run judges (None: all). A piece
    that cannot be read (the file removed since the plan) is returned unread."""
    audit = FileAudit(piece.path, first_line=piece.first_line, judging=judging,
                      reaches_end=piece.last or piece.end is None)
    try:
        return _audited(piece, audit)
    except OSError as error:
        _memory_is_not_the_file(error)
        return PieceResult(piece.number, audit, None, True, None)


def _audited(piece: Piece, audit: FileAudit) -> PieceResult:
    source = SourceFile(piece.path, start=piece.start, end=piece.end,
                        first_line=piece.first_line, data=piece.data)
    # The piece is read a block of lines at a time, as a whole file is (FileAudit.read).
    if piece.config is None:
        audit.read(source)
        audit.close_piece(trace=False)
        return PieceResult(piece.number, audit, None, True, source.sha256)
    state = piece.state.clone()
    audit.begin(piece.config, (), state)
    first = next(SourceFile(piece.path, start=piece.start, end=piece.end,
                            first_line=piece.first_line, data=piece.data).lines(), None)
    began = first is not None and first[1] is not None and isinstance(
        next(parse_lines([first]), None), ev.Shoe)
    if first is not None:
        audit.read(source, piece.config)
    audit.close_piece(trace=False)
    return PieceResult(piece.number, audit, piece.state.handoff(), began,
                       source.sha256 if first is not None else _EMPTY)


_EMPTY = hashlib.sha256(b"").hexdigest()


@dataclass
class FilePlan:
    """A file's pieces, found as the file is read (`pieces`); its SHA-256 and line count
    once they are all found."""

    path: str
    sha256: str = ""
    lines: int = 0
    size: int = 0  # the bytes hashed into `sha256`
    count: int = 0  # pieces found so far
    _template: dict[int, Piece] = field(default_factory=dict)

    def piece(self, number: int) -> Piece:
        return self._template[number]


def plan_pieces(path: str, piece_bytes: int = PIECE_BYTES) -> tuple[FilePlan, Iterator[Piece]]:
    """The plan of a file and its pieces, yielded as the reading finds them (so that the
    first pieces are audited while the rest of the file is read). Raises UnreadableFile for
    a file that cannot be audited at all (then it is audited whole, which says why)."""
    source = SourceFile(path)
    source.open_check()
    plan = FilePlan(path)
    return plan, _pieces(plan, _header(path), piece_bytes)


def _header(path: str) -> Header:
    items = read_structure(parse_lines(SourceFile(path).lines()))
    try:
        return next(items)
    finally:
        items.close()


def _pieces(plan: FilePlan, header: Header, piece_bytes: int) -> Iterator[Piece]:
    config = header.config
    follower = _StateFollower(TableState(config))
    digest = hashlib.sha256()
    piece_digest = hashlib.sha256()  # the bytes of the piece being found
    lines_before = 0  # newlines before the block
    offset = 0  # the block's first byte in the file
    size = os.path.getsize(plan.path)
    start, first_line, next_cut = 0, 1, _next_size(piece_bytes, size)
    guess: TableState | None = None  # the state where the piece being found begins
    pending = last_byte = b""
    with open(plan.path, "rb") as handle:
        while True:
            block = handle.read(_BLOCK)
            digest.update(block)
            if block:
                last_byte = block[-1:]
            data = pending + block
            last = data.rfind(b"\n") + 1 if block else len(data)
            complete, pending = data[:last], data[last:]
            text = b"\n" + complete  # (a place in `text` is one past its place in `complete`)
            place, looked, hashed = 0, 0, 0
            bytes_of = memoryview(complete)
            pattern = _followed(frozenset(follower.seated))
            while (match := pattern.search(text, place)) is not None:
                place = match.end()
                at_line = match.start()  # where its line begins in `complete`
                rounds = _LAST_ROUND_OR_END.match(text, looked, match.start())
                if rounds is not None:  # (an unreadable `round` line misleads this guess:
                    # the join then audits the piece again)
                    follower.outside_rounds = rounds.lastgroup == "closes"
                looked = match.start()
                seats = follower.seated.copy()
                raw = match.group(0)[1:]
                if match.lastgroup == "kind":
                    follower.wager(match.group("target"), raw)
                else:
                    event = _event(raw)
                    if event is not None:
                        at = offset + at_line
                        if type(event) is ev.Shoe and at >= next_cut:
                            piece_digest.update(bytes_of[hashed:at_line])
                            hashed = at_line
                            yield _made(plan, Piece(plan.path, plan.count, start, at,
                                                    first_line,
                                                    None if plan.count == 0 else config, guess,
                                                    sha256=piece_digest.hexdigest()))
                            piece_digest = hashlib.sha256()
                            start, next_cut = at, at + _next_size(piece_bytes, size - at)
                            first_line = lines_before + complete.count(b"\n", 0, at_line) + 1
                            guess = follower.state.clone()
                        follower.follow(event)
                if follower.seated != seats:
                    pattern = _followed(frozenset(follower.seated))
            rounds = _LAST_ROUND_OR_END.match(text, looked)
            if rounds is not None:
                follower.outside_rounds = rounds.lastgroup == "closes"
            piece_digest.update(bytes_of[hashed:])
            bytes_of.release()
            lines_before += complete.count(b"\n")
            offset += len(complete)
            if not block:
                break
    plan.sha256, plan.size = digest.hexdigest(), offset
    plan.lines = lines_before + (1 if offset and last_byte != b"\n" else 0)
    # The last piece ends where this reading ended: lines written since are the next
    # audit's, as for a file audited whole while it grows.
    yield _made(plan, Piece(plan.path, plan.count, start, offset, first_line,
                            None if plan.count == 0 else config,
                            None if plan.count == 0 else guess,
                            sha256=piece_digest.hexdigest(), last=True))


def _next_size(piece_bytes: int, left: int) -> int:
    """The size of the piece beginning with `left` bytes of the file left: `piece_bytes`,
    down to a quarter of it over the file's last pieces. While the last pieces are audited
    the workers run out of pieces one by one; the smaller those are, the less time one
    worker waits for another at the end (with two workers, the end of one 2 MiB piece:
    about 0.3 s of a 40,000-round record's 7 s)."""
    return max(piece_bytes // 4, min(piece_bytes, left // 4))


def _made(plan: FilePlan, piece: Piece) -> Piece:
    plan._template[piece.number] = piece
    plan.count += 1
    return piece


def _event(raw: bytes) -> ev.Event | None:
    if len(raw) > MAX_LINE_BYTES:
        return None
    text, _ = _decode(raw)
    if text is None:
        return None
    events = line_events(0, text)
    return events[0] if events else None


class _StateFollower:
    """The table's state between rounds, following only the statements that change what
    outlives a round, with the replay's own state changes (TableState's methods)."""

    def __init__(self, state: TableState) -> None:
        self.state = state
        self.outside_rounds = True
        self.seated: set[bytes] = set()  # the seats taken, as the record spells them

    def _seats_changed(self) -> None:
        self.seated.clear()
        self.seated.update(seat.encode() for seat in self.state.seats)

    def follow(self, event: ev.Event) -> None:
        kind = type(event)
        state = self.state
        if kind is ev.RoundStart:
            self.outside_rounds = False
        elif kind is ev.RoundEnd:
            self.outside_rounds = True
        elif kind in (ev.Shoe, ev.DealerChange, ev.Close):
            self.outside_rounds = True  # each ends an open round
            state.apply(event)
            self._seats_changed()
        elif self.outside_rounds:
            return  # a round's statement outside a round is a problem, not a change
        elif kind is ev.Sit:
            state.seat_player(event.seat, event.player, event.punches)
        elif kind is ev.Leave:
            state.unseat(event.seat)
        elif kind is ev.Light:
            state.seat_lit(event.seat, event.count)
        elif kind is ev.Prize:
            state.prize_paid(event.seat)
        self._seats_changed()

    def wager(self, target_bytes: bytes, raw: bytes) -> None:
        """A wager on a seat nobody sat at seats an unnamed player (as the replay does).
        Nearly every wager is on a seat already taken, which changes nothing (the plan
        does not even find those): the others are read whole, to be sure the line is a
        wager at all."""
        target = target_bytes.decode(errors="replace")
        if self.outside_rounds or target == "dealer" or seat_of(target) in self.state.seats:
            return
        event = _event(raw)
        if type(event) is ev.Bet:
            wants_hand = event.kind in ("main", "insurance")
            if event.target != "dealer" and wants_hand == (len(event.target) > 2):
                self.state.seat_wagerer(seat_of(event.target))
                self._seats_changed()


class SplitFile:
    """A file's pieces as they come back, joined in order as soon as each can be: while
    the last pieces are still audited, the first are already one result."""

    def __init__(self, plan: FilePlan) -> None:
        self.plan = plan
        self.results: dict[int, PieceResult] = {}  # come back, not yet joined
        self.planned = False  # every piece found (plan.count is final)
        self.redone = 0  # pieces audited again (their guessed state was wrong)
        self.joined: FileAudit | None = None  # the pieces joined so far, the first on
        self.count = 0  # how many
        self.began_with_shoe = True  # every piece joined began at a `shoe`
        self.changed = False  # a piece's bytes were not those planned: the file changed

    def add(self, result: PieceResult) -> Piece | None:
        """Take a piece's result; the piece to audit again, if a guess was wrong."""
        self.results[result.number] = result
        return self._join_ready()

    def _join_ready(self) -> Piece | None:
        """Join each piece, in order, that has come back and whose guessed state is the
        state the pieces before it ended in; the first whose guess was wrong is returned,
        to be audited again from that state (the pieces after it wait for it)."""
        while (this := self.results.get(self.count)) is not None:
            joined = self.joined
            piece = self.plan.piece(self.count)
            if self.changed or this.sha256 != piece.sha256:
                del self.results[self.count]
                self.changed = True  # nothing more is joined: the file goes whole
                self.count += 1
                continue
            if joined is not None and this.guessed != joined.state.handoff():
                del self.results[self.count]
                self.redone += 1
                return replace(piece, state=joined.state.clone())
            del self.results[self.count]
            if joined is None:
                self.joined = joined = this.audit
            else:
                joined.absorb(this.audit)
            joined.pick_replays()  # its picks final: traced while later pieces are audited
            self.began_with_shoe = self.began_with_shoe and this.began_with_shoe
            self.count += 1
        return None

    def complete(self) -> bool:
        return self.planned and self.count == self.plan.count

    def whole(self) -> bool:
        """Every piece began at a `shoe` statement and was read as the plan read it (else
        the file is audited whole, in one reading)."""
        return self.began_with_shoe and not self.changed

    def join(self) -> FileResult:
        return self.joined.finish(self.plan.sha256, self.plan.lines, self.plan.size)


def audit_split(path: str, piece_bytes: int = PIECE_BYTES) -> FileResult:
    """A file audited in pieces, one after another (the join's reference and its test)."""
    try:
        plan, pieces = plan_pieces(path, piece_bytes)
    except UnreadableFile:
        from auditor.audit import audit_file

        return audit_file(path)
    joined = SplitFile(plan)
    for piece in pieces:
        redo = joined.add(audit_piece(piece))
        while redo is not None:
            redo = joined.add(audit_piece(redo))
    joined.planned = True
    if not joined.whole():
        from auditor.audit import audit_file

        return audit_file(path)
    return joined.join()
