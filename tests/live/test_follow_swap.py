"""A followed record replaced under its name at the instant the watch looks at it
(auditor/live/follow.py): the bytes judged are those of the file whose size and identity
were looked at, never another file's read from the first one's offsets."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from auditor.gaming_day import DEFAULT
from auditor.live.follow import Followed
from tests.helpers import SAMPLES
from tests.helpers.watch_writer import is_end

FIRST = SAMPLES / "standard-t11-2026-11-20.bjh"
OTHER = SAMPLES / "standard-t12-2026-11-21.bjh"


def _judged(change) -> list[tuple[int, str]]:
    return [(j.finding["line"], j.finding["citation"]) for j in change.outcome.judged]


def test_a_record_replaced_as_it_is_looked_at_is_judged_whole_then_read_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's record grows, and another record is renamed over it just after the
    watch looks at it: the watch read the new file from the old one's offset, judging
    rounds no record holds (alerted at once), and only at its next look saw the file
    replaced."""
    lines = FIRST.read_bytes().splitlines(keepends=True)
    half = next(n for n in range(len(lines) // 2, len(lines)) if is_end(lines[n].decode()))
    path = tmp_path / "t11.bjh"
    path.write_bytes(b"".join(lines[:half + 1]))
    followed = Followed(str(path), DEFAULT, None)
    first = followed.poll()
    path.write_bytes(FIRST.read_bytes())  # the rest of the night written
    incoming = tmp_path / "incoming.tmp"
    incoming.write_bytes(OTHER.read_bytes())
    real = {"stat": os.stat, "open": os.open}

    def looked_then_replaced(name: str):
        def call(target, *arguments, **keywords):
            result = real[name](target, *arguments, **keywords)
            if os.fspath(target) == str(path) and incoming.exists():
                os.replace(incoming, path)  # the instant after the watch's look
            return result
        return call

    monkeypatch.setattr(os, "stat", looked_then_replaced("stat"))
    monkeypatch.setattr(os, "open", looked_then_replaced("open"))
    second = followed.poll()
    monkeypatch.undo()
    assert not incoming.exists()  # replaced during the poll indeed
    whole = Followed(str(tmp_path / "whole.bjh"), DEFAULT, None)
    (tmp_path / "whole.bjh").write_bytes(FIRST.read_bytes())
    expected = _judged(whole.poll())
    assert second.restarted is None
    assert _judged(first) + _judged(second) == expected
    third = followed.poll()
    assert third.restarted == "replaced (a new file under the name)"
    other = Followed(str(tmp_path / "other.bjh"), DEFAULT, None)
    (tmp_path / "other.bjh").write_bytes(OTHER.read_bytes())
    assert _judged(third) == _judged(other.poll())


def test_a_record_replaced_by_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    """A FIFO renamed over a followed record: the watch opened it to read the new file
    from its start and waited for a writer for ever, every other table with it."""
    import threading

    path = tmp_path / "t11.bjh"
    path.write_bytes(FIRST.read_bytes())
    followed = Followed(str(path), DEFAULT, None)
    followed.poll()
    os.mkfifo(tmp_path / "incoming.fifo")
    os.replace(tmp_path / "incoming.fifo", path)
    said: dict = {}

    def poll() -> None:
        try:
            said["change"] = followed.poll()
        except OSError as error:
            said["error"] = error

    thread = threading.Thread(target=poll, daemon=True)
    thread.start()
    thread.join(30)
    if thread.is_alive():  # let the stuck open go: a writer that writes nothing
        with open(path, "wb"):
            pass
    assert not thread.is_alive(), "the poll waited on the FIFO"
    assert str(said.get("error")) == f"[Errno 22] not a regular file: '{path}'"
