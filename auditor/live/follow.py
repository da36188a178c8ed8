"""Following the records as the tables write them: every `*.bjh` under the paths, polled
with os.stat (a new file, lines appended, a file truncated or replaced).

A file is known by its device and inode: a file replaced (a new inode under the name) or
truncated (smaller than what was judged) is judged again from its start; its findings keep
their IDs, so the sent-logs keep them from being alerted twice.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
import time
from dataclasses import dataclass
from typing import BinaryIO

from auditor.gaming_day import Calendar
from auditor.live.piece_audit import GrowingFileAudit, PieceOutcome
from auditor.run import collect_paths
from auditor.selection import Judging
from auditor.source import HEAD_BYTES, check_text

# the round being dealt: the last `round` line after the last round judged
_ROUND_LINE = re.compile(rb"(?m)^[ \t]*(?:[0-9:.]+[ \t]+)?round[ \t]+([^ \t\r\n#]+)")
# a line that may end a piece: a round's `end`, or the record's `close`
_END_WORD = re.compile(rb"(?m)^[ \t]*(?:[0-9:.]+[ \t]+)?(?:end|close)\b")
# the bytes before the next piece, kept to tell a file rewritten in place (truncated and
# written again, larger, between two polls: same inode, no smaller)
_MARK_BYTES = 256
# a header is looked for in this many first bytes, while no round has ended
_HEADER_BYTES = 65536


@dataclass
class Change:
    """What one poll of a file found."""

    outcome: PieceOutcome | None = None
    restarted: str | None = None  # why the file is judged again from its start
    open_round: str | None = None
    grew: bool = False


RECHECK_SECONDS = 60.0
"""How often, as a record grows, the whole of what was judged is compared with the file:
a round corrected far before the file's end is told within this time, for reading each
record once a minute (between times only the bytes before the next round are compared)."""


class Followed:
    def __init__(self, path: str, calendar: Calendar, judging: Judging | None,
                 waivers: list | None = None, recheck_every: float = RECHECK_SECONDS) -> None:
        self.path = path
        self.recheck_every = recheck_every
        self.rechecked = time.monotonic()  # when what was judged was last compared whole
        self.calendar, self.judging, self.waivers = calendar, judging, waivers
        self.identity: tuple[int, int] | None = None
        self.size = -1  # the size at the last poll
        self.modified = -1  # its st_mtime_ns then: bytes written over, the size the same
        # the byte after the last whole line looked at for an `end`: a file that grows
        # without one is read from here, not again from the last round judged at every poll
        self.looked = 0
        self.mark = b""  # the _MARK_BYTES before audit.offset, as they were read
        self.judged = hashlib.sha256()  # of the bytes before audit.offset, as they were read
        self.audit = GrowingFileAudit(path, calendar, judging, waivers)
        self.open_round: str | None = None
        self.last_round: str | None = None  # for the floor
        self.findings = 0
        self.shown: tuple | None = None  # what the live floor was last told of it

    def poll(self) -> Change | None:
        """Read what was added since the last poll; None when nothing changed. Raises
        OSError when the file cannot be read, UnreadableFile when its head is not text
        (`auditor audit` refuses it whole: not UTF-8, NUL bytes)."""
        # Opened first, then looked at: the size and identity judged by are those of the
        # file read. Looked at by name, then opened, a record renamed over the name in
        # between was read from the old one's offsets, and told as rewritten.
        with _opened(self.path) as handle:
            return self._poll(handle, os.fstat(handle.fileno()))

    def _poll(self, handle: BinaryIO, status: os.stat_result) -> Change | None:
        identity = (status.st_dev, status.st_ino)
        change = Change()
        if self.identity is not None and identity != self.identity:
            change.restarted = "replaced (a new file under the name)"
        elif status.st_size < max(self.audit.offset, self.size):
            change.restarted = "truncated"
        elif status.st_size == self.size:
            if status.st_mtime_ns == self.modified:
                return None
            # written over in place, the size the same (a payout corrected): the whole of
            # what was judged is compared (rare: an append changes the size), and what was
            # looked at past it is looked at again
            if self._judged_changed(handle):
                change.restarted = "rewritten"
            self.looked = self.audit.offset
        elif self.mark and (self._rewritten(handle) or self._judged_changed_by_now(handle)):
            change.restarted = "rewritten"
        if change.restarted:
            self.audit = GrowingFileAudit(self.path, self.calendar, self.judging, self.waivers)
            self.looked, self.open_round, self.mark = 0, None, b""
            self.judged = hashlib.sha256()
        base = self.audit.offset  # where the next piece begins
        start = max(base, self.looked)
        handle.seek(0)
        if start < HEAD_BYTES:  # bytes in the head the audit looks at to take the file
            check_text(self.path, handle.read(min(status.st_size, HEAD_BYTES)))
        self.identity, self.size = identity, status.st_size
        self.modified = status.st_mtime_ns
        handle.seek(start)
        data = handle.read(max(0, status.st_size - start))
        whole = data.rfind(b"\n") + 1  # the bytes of whole lines
        change.grew = True
        if whole and _END_WORD.search(data, 0, whole):
            if start > base:  # the piece from the last round judged
                handle.seek(base)
                piece = handle.read(start - base) + data[:whole]
            else:
                piece = data[:whole]
            change.outcome = self.audit.audit_piece(piece)
            # the bytes judged, as read (the mark before them ends where they begin)
            self.mark = (self.mark + piece[:self.audit.offset - base])[-_MARK_BYTES:]
            self.judged.update(piece[:self.audit.offset - base])
            rest = piece[self.audit.offset - base:] + data[whole:]
            self.open_round = None  # what is left after the rounds judged tells
        else:
            rest = data
            if self.audit.table_key is None and base == 0 and whole \
                    and start + whole <= _HEADER_BYTES:
                handle.seek(0)
                self.audit.name_table(handle.read(start + whole))
        self.looked = start + whole
        rounds = _ROUND_LINE.findall(rest)
        if rounds:
            self.open_round = rounds[-1].decode("utf-8", "replace")
        change.open_round = self.open_round
        return change

    @property
    def named(self) -> bool:
        """Whether the floor may show the table: under its key once the header named it,
        under its path only for a record whose header names none."""
        return (self.audit.table_key is not None or self.audit.offset > 0
                or self.looked >= _HEADER_BYTES)

    def _rewritten(self, handle: BinaryIO) -> bool:
        """Whether the bytes before the next piece are no longer those judged."""
        handle.seek(self.audit.offset - len(self.mark))
        return handle.read(len(self.mark)) != self.mark


    def _judged_changed_by_now(self, handle: BinaryIO) -> bool:
        """Whether what was judged changed, asked once every `recheck_every` seconds."""
        now = time.monotonic()
        if now - self.rechecked < self.recheck_every:
            return False
        self.rechecked = now
        return self._judged_changed(handle)

    def _judged_changed(self, handle: BinaryIO) -> bool:
        """Whether the bytes before the next piece are no longer, all of them, those judged."""
        digest, left = hashlib.sha256(), self.audit.offset
        handle.seek(0)
        while left > 0:
            block = handle.read(min(left, 1 << 20))
            if not block:
                return True
            digest.update(block)
            left -= len(block)
        return digest.digest() != self.judged.digest()


def _opened(path: str) -> BinaryIO:
    """The file at `path`, opened to read; OSError for anything but a regular file (a FIFO
    put under the name is never waited on: it is opened without blocking, then refused)."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
        os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


class Folders:
    """The records under the paths, found again every `rescan` polls."""

    def __init__(self, paths: list[str]) -> None:
        self.paths = paths

    def records(self) -> list[str]:
        return [path for path in collect_paths(self.paths) if os.path.isfile(path)]
