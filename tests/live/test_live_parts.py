"""The live floor's parts, each fast and with exact values: a record judged in pieces, a
followed file polled, the sinks and their sent-logs, the watch's options and its day's
command. They run first in the `live` mutation area (scripts/mutation.py): most wrong
changes are caught here in seconds, before the tests that run whole watchers."""

from __future__ import annotations

import http.server
import os
import threading
import time
from pathlib import Path

import pytest

from auditor.gaming_day import DEFAULT
from auditor.live.alerts import (
    CommandSink,
    JsonlSink,
    SentLog,
    Sink,
    SinkWorker,
    UrlSink,
    url_shown,
)
from auditor.live.floor import TableState
from auditor.live.follow import Followed
from auditor.live.piece_audit import GrowingFileAudit
from auditor.live.watch import Watch, WatchOptions, day_command
from tests.helpers import ROOT
from tests.helpers.waiting import until

RECORD = (ROOT / "sample_logs" / "standard-t11-2026-11-20.bjh").read_bytes()
LINES = RECORD.splitlines(keepends=True)


def _is_end(line: bytes) -> bool:
    words = line.split()
    return words[:1] == [b"end"] or words[1:2] == [b"end"]


ENDS = [number for number, line in enumerate(LINES, 1) if _is_end(line)]  # line numbers
FIRST_ROUND = next(n for n, line in enumerate(LINES, 1) if line.startswith(b"round "))


def upto(line: int) -> bytes:
    """The record's lines 1 to `line`."""
    return b"".join(LINES[:line])


# --- a record judged in pieces (auditor/live/piece_audit.py)


def test_the_header_alone_judges_nothing_but_names_the_table() -> None:
    growing = GrowingFileAudit("t11.bjh", DEFAULT)
    assert growing.audit_piece(upto(FIRST_ROUND - 1)) is None
    assert (growing.table_key, growing.game, growing.offset, growing.line) == (
        "RL-0412/T11", "standard", 0, 1)
    # half a round more: still nothing judged, nothing moved
    assert growing.audit_piece(upto(FIRST_ROUND + 3)) is None
    assert (growing.offset, growing.line, growing.rounds) == (0, 1, 0)


def test_pieces_judge_the_rounds_once_with_the_ids_and_lines_of_the_whole() -> None:
    whole = GrowingFileAudit("t11.bjh", DEFAULT).audit_piece(RECORD)
    assert [(j.finding["citation"], j.finding["line"], j.finding["seat"], j.finding["player"],
             min(j.lines), max(j.lines)) for j in whole.judged] == [
        ("20:18:15:26", 424, None, None, 391, 429),
        ("20:18:15:30", 455, "s3", "P-3107", 431, 467),
        ("20:18:15:06", 524, "s3", "P-3107", 505, 542),
        ("20:18:15:23", 567, "s4", "P-3137", 549, 583),
        # a line of no round (a burn past the count), judged once the next round has ended
        ("record:syntax", 720, None, None, 720, 720)]
    assert (whole.rounds, whole.last_round, whole.gaming_day) == (32, "32", "2026-11-20")
    assert all(j.lines[n] == LINES[n - 1].decode().rstrip("\n") for j in whole.judged
               for n in j.lines)
    # the same record in three pieces cut after an `end`, and one cut inside a round
    growing = GrowingFileAudit("t11.bjh", DEFAULT)
    cut = ENDS[9]
    first = growing.audit_piece(upto(ENDS[2]))
    assert (first.rounds, first.last_round, first.judged) == (3, "3", [])
    assert (growing.offset, growing.line) == (len(upto(ENDS[2])), ENDS[2] + 1)
    second = growing.audit_piece(b"".join(LINES[ENDS[2]:cut + 4]))  # 4 lines of round 11
    assert (second.rounds, second.last_round) == (7, "10")
    assert (growing.offset, growing.line) == (len(upto(cut)), cut + 1)
    third = growing.audit_piece(RECORD[growing.offset:])
    assert (third.rounds, third.last_round, growing.rounds) == (22, "32", 32)
    assert [j.finding for j in second.judged + third.judged] == [j.finding for j in whole.judged]
    assert [j.lines for j in second.judged + third.judged] == [j.lines for j in whole.judged]
    assert growing.first_gaming_day == "2026-11-20"


def test_an_end_before_any_round_judges_no_round_and_names_no_day() -> None:
    data = upto(FIRST_ROUND - 1) + b"19:59:09 end\n"
    growing = GrowingFileAudit("t11.bjh", DEFAULT)
    outcome = growing.audit_piece(data)
    assert (outcome.rounds, outcome.last_round, outcome.gaming_day) == (0, None, None)
    # the `end` itself is of no round: judged with it, as the audit of the file would
    assert [(j.finding["citation"], j.finding["line"], j.finding["message"])
            for j in outcome.judged] == [
        ("record:reference", FIRST_ROUND, "`end` statement outside a round")]
    assert growing.first_gaming_day is None and growing.offset == len(data)


def test_a_finding_with_no_line_has_no_round_lines() -> None:
    from auditor.live.piece_audit import _round_of

    rounds = [(10, 20, "1"), (21, 30, "2")]
    assert _round_of(None, rounds) == (1, 0)  # range(1, 1): no line
    assert [_round_of(line, rounds) for line in (10, 15, 20, 21, 30, 31)] == [
        (10, 20), (10, 20), (10, 20), (21, 30), (21, 30), (31, 31)]


# --- a followed file (auditor/live/follow.py)


def test_a_followed_file_names_its_table_from_the_header_and_judges_each_round_once(
        tmp_path) -> None:
    path = tmp_path / "t11.bjh"
    path.write_bytes(b"")
    followed = Followed(str(path), DEFAULT, None)
    assert followed.poll().outcome is None and followed.named is False
    path.write_bytes(upto(FIRST_ROUND - 1))
    change = followed.poll()
    assert (change.outcome, change.open_round, followed.named) == (None, None, True)
    assert followed.audit.table_key == "RL-0412/T11"
    assert followed.poll() is None  # nothing added
    # a round begun: open, and read from where it was left when it grows without an end
    with path.open("ab") as handle:
        handle.write(b"".join(LINES[FIRST_ROUND - 1:FIRST_ROUND + 4]))
    assert followed.poll().open_round == "1"
    assert followed.looked == len(upto(FIRST_ROUND + 4)) and followed.audit.offset == 0
    with path.open("ab") as handle:
        handle.write(b"".join(LINES[FIRST_ROUND + 4:ENDS[0]]))
    change = followed.poll()
    assert (change.outcome.rounds, change.outcome.last_round, change.open_round) == (1, "1", None)
    assert followed.audit.offset == len(upto(ENDS[0]))
    # the rest in one write: every round judged once, the findings of the whole
    path.write_bytes(RECORD)
    change = followed.poll()
    assert (change.outcome.rounds, change.outcome.last_round, followed.audit.rounds) == (
        31, "32", 32)
    assert [j.finding["line"] for j in change.outcome.judged] == [424, 455, 524, 567, 720]


def test_a_header_past_the_first_64_kib_is_not_looked_for(tmp_path) -> None:
    """Comments fill the first 64 KiB before a header: the table is shown under its path
    (named) and the header is not read, however the bytes arrive."""
    path = tmp_path / "long.bjh"
    filler = b"# " + b"x" * 97 + b"\n"  # 100 bytes
    path.write_bytes(filler * 400)  # 40 000 bytes, no header yet
    followed = Followed(str(path), DEFAULT, None)
    followed.poll()
    assert (followed.audit.table_key, followed.named) == (None, False)
    with path.open("ab") as handle:  # 30 000 more, then the header: past 65 536 bytes
        handle.write(filler * 300 + upto(FIRST_ROUND - 1))
    followed.poll()
    assert (followed.audit.table_key, followed.named) == (None, True)


# --- the sinks (auditor/live/alerts.py)


def test_a_url_is_shown_without_its_password_and_with_its_port() -> None:
    assert url_shown("http://floor:s3cret@alerts.example:8443/in") == \
        "http://floor:***@alerts.example:8443/in"
    assert url_shown("https://floor:s3cret@alerts.example/in") == \
        "https://floor:***@alerts.example/in"
    assert url_shown("http://alerts.example:8080/in") == "http://alerts.example:8080/in"


def test_a_sink_refuses_what_it_cannot_write_to(tmp_path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="is not a regular file"):
        JsonlSink(str(fifo))
    assert JsonlSink(str(tmp_path / "new.jsonl")).already_sent() == set()
    with pytest.raises(ValueError, match="is not an http"):
        UrlSink("ftp://alerts.example/in")
    with pytest.raises(ValueError, match="is not an http"):
        UrlSink("http:///in")
    with pytest.raises(ValueError, match="--alert-command is empty"):
        CommandSink("   ")


def test_every_sinks_default_wait_is_the_documented_command_timeout() -> None:
    """docs/live.md: no answer within `--command-timeout` seconds (default 10) is a
    failure; the command sink and the URL sink wait as long by default. (The mutation
    runs copy no docs/: the documented figure is the option's default here.)"""
    import argparse

    from auditor.live.command import add_parser

    commands = argparse.ArgumentParser().add_subparsers()
    add_parser(commands)
    parser = commands.choices["watch"]
    default = parser.parse_args(["floor"]).command_timeout
    assert default == 10.0
    assert CommandSink("cat").timeout == default
    assert UrlSink("http://127.0.0.1:9/in").timeout == default


class _Hanging(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # reads the finding, never answers in time
        self.rfile.read(int(self.headers["Content-Length"]))
        self.server.posted.append(self.headers["Content-Type"])  # type: ignore[attr-defined]
        self.server.release.wait(5)  # type: ignore[attr-defined]

    def log_message(self, *args) -> None:
        pass


def test_a_url_that_hangs_is_given_up_after_the_sinks_wait(tmp_path) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Hanging)
    server.posted, server.release = [], threading.Event()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        sink = UrlSink(f"http://127.0.0.1:{server.server_port}/in", timeout=0.3)
        began = time.monotonic()
        with pytest.raises(Exception, match="timed out"):
            sink.deliver('{"id":"BJH-1"}')
        assert 0.25 <= time.monotonic() - began < 2.0
        assert server.posted == ["application/json"]
    finally:
        server.release.set()
        server.shutdown()
        server.server_close()


def test_a_sent_log_starts_empty_and_keeps_each_id_on_its_own_line(tmp_path) -> None:
    sink = CommandSink("true")
    log = SentLog(tmp_path, sink)
    assert log.ids == set() and not log.path.exists()
    log.add("BJH-1")
    log.add("BJH-2")
    assert log.path.read_text(encoding="utf-8") == "BJH-1\nBJH-2\n"
    assert SentLog(tmp_path, sink).ids == {"BJH-1", "BJH-2"}


class _Failing(Sink):
    """Refuses the first `refusals` deliveries (an error over two lines), then takes."""

    name = "failing"
    timeout = 1.0

    def __init__(self, refusals: int) -> None:
        self.refusals, self.taken = refusals, []

    def deliver(self, text: str) -> None:
        if self.refusals:
            self.refusals -= 1
            raise RuntimeError("refused\n   by the far end")
        self.taken.append(text)


def test_a_refused_alert_is_told_in_one_line_and_retried_after_doubling_waits(tmp_path) -> None:
    told: list[str] = []
    sink = _Failing(refusals=3)
    worker = SinkWorker(sink, tmp_path, told.append)
    worker.offer({"id": "BJH-7"})
    until(lambda: len(told) >= 3, what="three refusals told")  # 0.5 + 1 + 2 s of back-off
    worker.stop()
    assert told == [f"auditor: watch: alert BJH-7 not taken by failing (refused by the far "
                    f"end); retrying in {delay} s" for delay in ("0.5", "1", "2")]


def test_a_worker_stopped_sends_each_finding_once_and_nothing_else(tmp_path) -> None:
    jsonl = tmp_path / "alerts.jsonl"
    worker = SinkWorker(JsonlSink(str(jsonl)), tmp_path, lambda text: None)
    worker.offer({"id": "BJH-1", "line": 3})
    worker.offer({"id": "BJH-1", "line": 3})  # offered twice: sent once
    worker.stop()
    assert not worker.thread.is_alive()
    assert jsonl.read_text(encoding="utf-8") == '{"id":"BJH-1","line":3}\n'


def test_a_sent_log_that_cannot_be_written_is_tried_again_each_second(tmp_path) -> None:
    """The sink took the alert but its ID cannot be logged (the disk, a folder in the
    log's place): told and tried again once a second, never in a tight loop; stopped, the
    worker ends without logging it (sent again after the restart)."""
    jsonl = tmp_path / "alerts.jsonl"
    told: list[str] = []
    worker = SinkWorker(JsonlSink(str(jsonl)), tmp_path, told.append)
    worker.log.path.mkdir()  # the log's place taken by a folder
    worker.offer({"id": "BJH-1"})
    until(lambda: told, what="the log's failure told")
    time.sleep(1.5)
    worker.stop()
    assert not worker.thread.is_alive()
    assert 1 <= len(told) <= 3
    assert set(told) == {f"auditor: watch: the sent-log {worker.log.path} cannot be written "
                         f"([Errno 21] Is a directory: '{worker.log.path}'); retrying in 1 s"}


# --- the floor's rows (auditor/live/floor.py)


def test_a_tables_row_is_frozen_and_slotted() -> None:
    import dataclasses

    row = TableState("T1", "t1.bjh", "standard", "D-1", "3", None, 3, 0, "2026-11-28T05:00:00Z")
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.rounds = 4  # type: ignore[misc]
    assert not hasattr(row, "__dict__")  # a row per table, kept all night: no dict each


# --- the watch's options and its day's command (auditor/live/watch.py)


def _options(tmp_path: Path, **changes) -> WatchOptions:
    folder = tmp_path / "floor"
    folder.mkdir(exist_ok=True)
    settings = dict(paths=[str(folder)], state=str(tmp_path / "deep" / "state"),
                    out=str(tmp_path / "out"), record_days=False, poll=0.02,
                    tell=lambda text: None)
    settings.update(changes)
    return WatchOptions(**settings)


def test_the_state_folder_is_made_with_its_parents_and_a_stopped_watch_ends_cleanly(
        tmp_path) -> None:
    watch = Watch(_options(tmp_path))
    assert (tmp_path / "deep" / "state" / "watch.lock").is_file()
    stop = threading.Event()
    stop.set()
    assert watch.run(stop) == 0
    assert watch.drain(0.1) is True  # no sink: nothing pending


def test_drain_says_false_while_a_sink_holds_a_finding(tmp_path) -> None:
    sink = _Failing(refusals=100)
    watch = Watch(_options(tmp_path, extra_sinks=[sink], alert_on="low"))
    try:
        watch._found({"id": "BJH-9"}, "high", {})
        assert watch.drain(0.2) is False
    finally:
        stop = threading.Event()
        stop.set()
        watch.run(stop)


def test_the_settings_ignore_is_what_the_watch_leaves_unjudged(tmp_path) -> None:
    config = tmp_path / "auditor.toml"
    config.write_text('ignore = ["20:18:15:26"]\n', encoding="utf-8")
    watch = Watch(_options(tmp_path, config=str(config)))
    try:
        judged = watch.judging.citations
        assert "20:18:15:26" not in judged and "20:18:15:30" in judged
    finally:
        stop = threading.Event()
        stop.set()
        watch.run(stop)


def test_the_days_command_names_the_settings_and_keeps_the_store_off_the_command_line(
        tmp_path) -> None:
    import sys

    out = tmp_path / "out" / "2026-11-20"
    command, environment = day_command(["a.bjh", "b.bjh"], out,
                                       "postgresql://u:pw@db/x", "site.toml")
    assert command == [sys.executable, "-m", "auditor", "audit", "a.bjh", "b.bjh", "--out",
                       str(out), "--quiet", "--config", "site.toml"]
    assert environment["BJH_STORE"] == "postgresql://u:pw@db/x"
    command, environment = day_command(["a.bjh"], out, None, None)
    assert command == [sys.executable, "-m", "auditor", "audit", "a.bjh", "--out", str(out),
                       "--quiet"]
    assert environment == dict(os.environ)  # no store given: the environment as it is


def test_a_watch_goes_on_polling_a_record_that_has_not_changed(tmp_path) -> None:
    """Polls that find nothing new, then the record grows: its rounds are judged and the
    floor shows its table (a poll with no change is not a change to show)."""
    from auditor.live.floor import LiveFloor

    options = _options(tmp_path, rescan=0.05)
    record = Path(options.paths[0]) / "t11.bjh"
    record.write_bytes(upto(FIRST_ROUND - 1))
    floor = LiveFloor()
    watch = Watch(options, floor)
    stop = threading.Event()
    thread = threading.Thread(target=watch.run, args=(stop,), daemon=True)
    thread.start()
    try:
        time.sleep(0.3)  # polls with nothing new
        with record.open("ab") as handle:
            handle.write(b"".join(LINES[FIRST_ROUND - 1:ENDS[2]]))
        until(lambda: floor.snapshot()["tables"]
              and floor.snapshot()["tables"][0]["rounds"] == 3, what="three rounds judged")
        [table] = floor.snapshot()["tables"]
        assert (table["key"], table["rounds"], table["last_round"], table["open_round"]) == (
            "RL-0412/T11", 3, "3", None)
        assert thread.is_alive()
    finally:
        stop.set()
        thread.join(5)


# --- the close of a gaming day (auditor/live/watch.py)


def _closing_watch(tmp_path: Path, clock):
    """A watch recording days, of a record whose three rounds are of gaming day
    2026-11-20, on the wall clock `clock`; (the watch, its state folder, what it told)."""
    told: list[str] = []
    options = _options(tmp_path, record_days=True, close_grace=0.0, clock=clock,
                       tell=told.append)
    (Path(options.paths[0]) / "t11.bjh").write_bytes(upto(ENDS[2]))
    return Watch(options), Path(options.state), told


def _running(watch: Watch, seconds: float) -> None:
    stop = threading.Event()
    thread = threading.Thread(target=watch.run, args=(stop,), daemon=True)
    thread.start()
    time.sleep(seconds)
    stop.set()
    thread.join(5)


def test_a_gaming_day_is_not_recorded_before_it_closes(tmp_path) -> None:
    from datetime import datetime, timedelta

    from auditor.clock import zone

    moment: list[datetime] = []
    watch, state, told = _closing_watch(tmp_path, lambda: moment[0])
    # the day closes at the day's start of the 21st, by the tables' clock: a minute before
    name = watch.calendar.time_zone
    tables_zone = zone(name) if name else datetime.now().astimezone().tzinfo
    moment.append(datetime(2026, 11, 21, watch.calendar.day_starts, tzinfo=tables_zone)
                  - timedelta(minutes=1))
    _running(watch, 0.5)
    assert sorted(path.name for path in state.iterdir()) == ["watch.lock"]
    assert told == []


def test_a_days_audit_begun_by_a_watch_before_is_waited_for_and_not_run_again(tmp_path) -> None:
    """A watch killed while its day's audit ran left the marker; the audit still runs. The
    new watch waits for it, takes its outputs and records the day once."""
    import json
    import subprocess
    import sys
    from datetime import UTC, datetime

    watch, state, told = _closing_watch(tmp_path, lambda: datetime(2026, 11, 22, tzinfo=UTC))
    out = tmp_path / "out" / "2026-11-20"
    out.mkdir(parents=True)
    written = json.dumps({"findings": []})
    (out / "findings.json").write_text(written, encoding="utf-8")
    # the audit still running: a process whose command line names the auditor
    running = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1.0)",
                                "auditor"])
    try:
        (state / "recording-2026-11-20").write_text(f"{running.pid} {time.time() - 100}\n",
                                                    encoding="utf-8")
        stop = threading.Event()
        thread = threading.Thread(target=watch.run, args=(stop,), daemon=True)
        thread.start()
        deadline = time.monotonic() + 20
        days = state / "days.log"
        while time.monotonic() < deadline and not days.exists():
            time.sleep(0.05)
        time.sleep(0.5)  # a second recording of the day, if one were begun, would land
        stop.set()
        thread.join(5)
    finally:
        running.wait(5)
    assert days.read_text(encoding="utf-8") == "2026-11-20\n"
    assert (out / "findings.json").read_text(encoding="utf-8") == written  # not run again
    assert told == [f"auditor: watch: gaming day 2026-11-20 recorded (1 records; outputs in "
                    f"{out})"]
    assert not (state / "recording-2026-11-20").exists()


def test_a_watch_run_in_process_gives_the_callers_signal_handlers_back(tmp_path) -> None:
    """`auditor watch` stops on SIGINT and SIGTERM while it runs; run from a program of
    the caller's (the library, a test), it leaves that program's handlers as they were:
    a later Ctrl-C is the caller's again, and a process it forks later (a pool's worker)
    does not inherit a handler of a watch long gone."""
    import argparse
    import signal

    from auditor.live.command import add_parser, run

    commands = argparse.ArgumentParser().add_subparsers()
    add_parser(commands)
    arguments = commands.choices["watch"].parse_args(
        [str(tmp_path), "--state", str(tmp_path / "state"), "--poll", "0.05"])

    def callers(*_) -> None:
        pass

    before = {number: signal.signal(number, callers)
              for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        stop = threading.Event()
        stop.set()
        assert run(arguments, stop=stop) == 0
        assert signal.getsignal(signal.SIGINT) is callers
        assert signal.getsignal(signal.SIGTERM) is callers
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
