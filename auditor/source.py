"""Reading an input file as numbered lines, streamed, with its SHA-256 and line count.

A file that cannot be read as text at all (missing, a directory, binary or not UTF-8 in its
first 8 KiB) raises `UnreadableFile`; past that, a line that is not valid UTF-8,
holds a NUL byte or is longer than `MAX_LINE_BYTES` is yielded as a problem for that line
only, so that the rest of the file is still audited.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import count, repeat
from pathlib import Path

from auditor.fieldwise import Fieldwise

MAX_LINE_BYTES = 64 * 1024
_BLOCK = 1 << 18
HEAD_BYTES = 8192  # the head of a file `check_text` judges it by


class UnreadableFile(Exception):
    """The file cannot be audited at all; the message says why, naming the file."""


@dataclass(repr=False, eq=False)
class SourceFile(Fieldwise):
    """A file being read; `sha256` and `lines` are final once `lines()` is exhausted.

    A piece of a file (auditor/split.py) is read from byte `start` (a line's first byte)
    to byte `end`, numbered from `first_line`; a worker that cannot see the file is given
    its bytes as `data` instead."""

    path: str
    sha256: str = ""
    line_count: int = 0
    size: int = 0  # the bytes hashed into `sha256`
    start: int = 0
    end: int | None = None
    first_line: int = 1
    data: bytes | None = None
    # The number of the last line when no newline ends it (set as `batches` yields it, in
    # a batch of its own): a line a writer may still be writing (auditor/audit.py).
    unterminated: int | None = None

    def _blocks(self) -> Iterator[bytes]:
        if self.data is not None:
            for offset in range(0, len(self.data), _BLOCK):
                yield self.data[offset:offset + _BLOCK]
            return
        left = None if self.end is None else self.end - self.start
        with open(self.path, "rb") as handle:
            handle.seek(self.start)
            while left is None or left > 0:
                block = handle.read(_BLOCK if left is None else min(_BLOCK, left))
                if not block:
                    return
                if left is not None:
                    left -= len(block)
                yield block

    def open_check(self) -> None:
        if self.data is not None:  # bytes handed over: what the sniff would look at
            check_text(self.path, self.data[:HEAD_BYTES])
            return
        path = Path(self.path)
        try:
            mode = os.stat(self.path).st_mode
        except OSError as error:
            _memory_is_not_the_file(error)
            if os.path.islink(self.path):
                raise UnreadableFile(f"{self.path}: a link to nothing (dangling)") from None
            raise UnreadableFile(f"{self.path}: no such file") from None
        if stat.S_ISDIR(mode):
            raise UnreadableFile(f"{self.path}: is a directory, not a BJH file")
        if not stat.S_ISREG(mode):
            # Refused without opening: opening a FIFO would wait for a writer for ever.
            kind = ("a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
                    else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                    else "a special file")
            raise UnreadableFile(f"{self.path}: {kind}, not a regular file: not read")
        try:
            with path.open("rb") as handle:
                head = handle.read(HEAD_BYTES)
        except OSError as error:
            _memory_is_not_the_file(error)
            raise UnreadableFile(f"{self.path}: cannot be read ({error.strerror})") from error
        check_text(self.path, head)

    def lines(self) -> Iterator[tuple[int, str | None, str | None]]:
        """Yield (number, text, problem): text is None where problem says why."""
        for first, texts, problems in self.batches():
            if problems is None:  # numbered in C: no Python step per line
                yield from zip(count(first), texts, repeat(None))
            else:
                for number, text in enumerate(texts, first):
                    yield number, text, problems.get(number)

    def batches(self) -> Iterator[tuple[int, list[str | None], dict[int, str] | None]]:
        """Yield the lines a block at a time: (number of the first, their texts, problems),
        problems None when every line reads, else {number: why} for each line whose text
        is None. The reader takes the lines this way, with no object made per line."""
        digest = hashlib.sha256()
        size = 0
        number = self.first_line - 1
        pending = b""
        overlong = False  # inside a line already reported as too long
        for block in self._blocks():
            digest.update(block)
            size += len(block)
            data = pending + block if pending else block
            end = data.rfind(b"\n")
            if end >= 0:
                body, pending = data[:end], data[end + 1:]
                if overlong:  # the rest of that line, up to its newline, is skipped
                    overlong = False
                    cut = body.find(b"\n")
                    body = None if cut < 0 else body[cut + 1:]
                if body is not None:
                    lines = _clean_lines(body)
                    if lines is None:  # a NUL, bad UTF-8 or a very long line: one by one
                        texts: list[str | None] = []
                        problems: dict[int, str] = {}
                        for text, problem in _decode_lines(body):
                            if text is None:
                                problems[number + len(texts) + 1] = problem
                            texts.append(text)
                        yield number + 1, texts, problems or None
                        number += len(texts)
                    else:
                        yield number + 1, lines, None
                        number += len(lines)
            else:
                pending = data
            if len(pending) > MAX_LINE_BYTES and not overlong:
                number += 1
                overlong = True
                pending = b""
                yield number, [None], {number: f"line longer than {MAX_LINE_BYTES} bytes"}
            elif overlong:
                pending = b""
        if pending and not overlong:
            number += 1
            self.unterminated = number
            text, problem = _decode(pending)
            yield number, [text], None if problem is None else {number: problem}
        self.sha256, self.size = digest.hexdigest(), size
        self.line_count = number - self.first_line + 1


def _memory_is_not_the_file(error: OSError) -> None:
    """`error` raised again when it is the system's memory running out (ENOMEM): the run's
    failure (exit 3), never a file refused as if the file were at fault."""
    if error.errno == errno.ENOMEM:
        raise error


def check_text(path: str, head: bytes) -> None:
    """The first bytes of a file: text, or the file is not a BJH record at all."""
    if b"\x00" in head:
        raise UnreadableFile(f"{path}: binary data (NUL bytes), not a BJH text file")
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        # A multi-byte character cut by the end of the sniff window is not an error, nor
        # one cut by the end of a shorter file (being written: its last line is judged as
        # a line, auditor/audit.py).
        if not (error.end == len(head) and error.reason == "unexpected end of data"):
            raise UnreadableFile(
                f"{path}: not UTF-8 text (byte {error.start + 1} of the file)") from error


def _clean_lines(body: bytes) -> list[str] | None:
    """The lines of a block, if every one of them reads as it is (UTF-8, no NUL byte, not
    over MAX_LINE_BYTES); else None. Such blocks (nearly all) are decoded in one go and
    split: a newline byte never occurs inside a UTF-8 character, so the lines are the ones
    `_decode` gives one by one, a CR at the end of a line removed likewise."""
    if b"\x00" in body:
        return None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if b"\r" in body:
        # One CR before each newline dropped in C before the one split; the block's last
        # line has its newline outside the block. (A line's limit counts its CR.)
        lines = text.replace("\r\n", "\n").split("\n")
        if lines[-1].endswith("\r"):
            lines[-1] = lines[-1][:-1]
        limit = (MAX_LINE_BYTES - 1) // 4
    else:
        lines = text.split("\n")
        limit = MAX_LINE_BYTES // 4
    if max(map(len, lines)) > limit:  # maybe over the limit in bytes: one by one
        return None
    return lines


def _decode_lines(body: bytes) -> Iterator[tuple[str | None, str | None]]:
    """The lines of a block, each as `_decode` reads it."""
    for raw in body.split(b"\n"):
        yield _decode(raw)


def _decode(raw: bytes) -> tuple[str | None, str | None]:
    if len(raw) > MAX_LINE_BYTES:
        return None, f"line longer than {MAX_LINE_BYTES} bytes"
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    if b"\x00" in raw:
        return None, "line holds binary data (NUL bytes)"
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as error:
        return None, f"line is not UTF-8 text (byte {error.start + 1} of the line)"
