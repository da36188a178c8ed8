"""Hostile review of the live floor (helper live6): the alert file a kill left with a cut
line, a record rewritten in place to the same size, and other shapes the earlier reviews
did not pin. Each compares with `auditor audit` of the final files."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.helpers.open_records import HEADER, round_text
from tests.helpers.watch_writer import audited, of_record
from tests.helpers.watching import watching


def _wait_for(condition, timeout: float = 20.0) -> None:
    deadline = time.time() + timeout
    while not condition():
        assert time.time() < deadline, "waited too long"
        time.sleep(0.05)


def _bare(alert: dict) -> dict:
    """An alert as findings.json holds the finding (the alert adds the table's key)."""
    return {key: value for key, value in alert.items() if key != "table_key"}


def test_an_alert_after_a_line_cut_by_a_kill_is_a_whole_line_of_its_own(tmp_path) -> None:
    """A watch killed (or a full disk) mid-write leaves the JSONL file's last line cut, no
    newline: the finding is sent again after the restart, and its line must begin on a
    line of its own, not be glued to the cut one (one line no reader can parse, the
    finding lost to it and never sent again: its ID is in the sent-log)."""
    alerts = tmp_path / "alerts.jsonl"
    cut = b'{"id":"BJH-0000000000000000-1","cit'
    alerts.write_bytes(cut)
    folder = tmp_path / "floor"
    folder.mkdir()
    record = folder / "T4.bjh"
    watch, stop, thread, told, taken = watching(folder, tmp_path)
    try:
        record.write_text(HEADER + round_text(1) + round_text(2, paid="15"), encoding="utf-8")
        expected = of_record(audited(record), record)
        assert [f["citation"] for f in expected] == ["20:18:15:06"]
        _wait_for(lambda: set(taken) == {f["id"] for f in expected})
        assert watch.drain()
    finally:
        stop.set()
        thread.join(5)
    lines = alerts.read_bytes().split(b"\n")
    assert lines[0] == cut and lines[-1] == b""
    assert [_bare(json.loads(line)) for line in lines[1:-1]] == expected
    assert told == []


def test_a_record_rewritten_in_place_to_the_same_size_is_read_again(tmp_path) -> None:
    """A record whose bytes are written over in place, its size the same (a round's payout
    corrected, another's spoiled: '15' for '10'): a watch that looked only at the size saw
    no change, so the new fault was not alerted until the day's run, and the live floor
    was not that of the file. It is read again from its start and told; the finding no
    longer in the file stays alerted (an alert is not withdrawn)."""
    folder = tmp_path / "floor"
    folder.mkdir()
    record = folder / "T4.bjh"
    first = HEADER + round_text(1) + round_text(2, paid="15") + round_text(3)
    watch, stop, thread, told, taken = watching(folder, tmp_path)
    try:
        record.write_text(first, encoding="utf-8")
        before = of_record(audited(record), record)
        assert [(f["citation"], f["round"]) for f in before] == [("20:18:15:06", "2")]
        _wait_for(lambda: set(taken) == {f["id"] for f in before})
        rewritten = HEADER + round_text(1, paid="15") + round_text(2) + round_text(3)
        assert len(rewritten) == len(first)
        with open(record, "r+b") as handle:  # one write over the bytes: no size change
            handle.write(rewritten.encode("utf-8"))
        after = of_record(audited(record), record)
        assert [(f["citation"], f["round"]) for f in after] == [("20:18:15:06", "1")]
        _wait_for(lambda: set(taken) == {f["id"] for f in before + after})
        assert watch.drain()
    finally:
        stop.set()
        thread.join(5)
    alerts = [json.loads(line) for line in (tmp_path / "alerts.jsonl").read_text().splitlines()]
    assert [_bare(alert) for alert in alerts] == before + after
    assert told == [f"auditor: watch: {record} was rewritten; read again from its start"]


def test_a_record_the_audit_refuses_is_not_judged_further_and_its_day_recorded_once(tmp_path):
    """A record whose first 8 KiB stop being UTF-8 after its first round was judged (a
    byte of another encoding written in): `auditor audit` refuses the whole file (exit 2,
    every other file audited, the run finished in the store). The watch judged it on, so
    alerted what the audit never gives, and took the day's run's exit 2 for a failure:
    it recorded the day again every `retry_seconds`, for ever, a finished run each time.
    Now it stops judging the record (told once) and counts the day recorded, once."""
    import sqlite3
    from datetime import UTC, datetime

    from tests.helpers.watch_writer import Writer, simulated

    day = "2026-11-20"
    good = simulated(tmp_path / "sim", rounds=10, seed="3", day=day)
    folder = tmp_path / "floor"
    folder.mkdir()
    bad = folder / "T4.bjh"
    now = [datetime(2026, 11, 20, 20, 0, tzinfo=UTC)]  # the day still open
    store = tmp_path / "floor.sqlite"
    watch, stop, thread, told, taken = watching(
        folder, tmp_path, record_days=True, close_grace=0.2, retry_seconds=0.5,
        store=str(store), clock=lambda: now[0])
    try:
        Writer(good, folder / good.name, pause=0.0002).run()
        begun = HEADER.replace(f"date={_today()}", f"date={day}") + round_text(1, paid="15")
        bad.write_text(begun, encoding="utf-8")
        _wait_for(lambda: len(taken) == 1 + len(of_record(audited(folder / good.name),
                                                          folder / good.name)))
        first = set(taken)
        with open(bad, "ab") as handle:
            handle.write(b'note "caf\xe9"\n' + round_text(2, paid="15").encode())
        _wait_for(lambda: any("not UTF-8" in line for line in told))
        now[0] = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)  # the day closed
        _wait_for(lambda: day in watch.recorded_days, 60)
        assert watch.drain()
    finally:
        stop.set()
        thread.join(5)
    out = tmp_path / "out" / day
    byte = len(begun.encode()) + len(b'note "caf') + 1  # the first not UTF-8, from 1
    assert told == [
        f"auditor: watch: {bad}: not UTF-8 text (byte {byte} of the "
        "file); not judged further, as `auditor audit` refuses it",
        f"auditor: watch: gaming day {day} recorded (2 records; outputs in {out}); 1 of "
        "them could not be audited (named in its findings.json)"]
    with sqlite3.connect(store) as connection:
        assert connection.execute("SELECT count(*) FROM runs").fetchone() == (1,)
    document = json.loads((out / "findings.json").read_text(encoding="utf-8"))
    assert [entry["error"] for entry in document["inputs"]] == [
        f"{bad}: not UTF-8 text (byte {byte} of the file)", None]
    # alerted once each: the refused record's first round (before it was refused), and
    # every finding of the day's run
    ids = [alert["id"] for alert in
           map(json.loads, (tmp_path / "alerts.jsonl").read_text().splitlines())]
    assert len(ids) == len(set(ids))
    assert set(ids) == first | {f["id"] for f in document["findings"]}


def _today() -> str:
    from tests.helpers.open_records import TODAY

    return TODAY


def test_a_day_whose_recording_fails_after_its_audit_is_not_audited_again(tmp_path) -> None:
    """The day's audit ran and recorded its run, then the state folder failed (days.log
    cannot be written: a full disk, here a folder in its place): the day is tried again,
    and the retry, like a watch killed at that moment and started again, must take the
    audit already done (its outputs written since it began), not run it again: each run
    again was one more run of the day in the store."""
    import shutil
    import sqlite3

    from tests.helpers.watch_writer import Writer, simulated

    day = "2026-11-20"
    source = simulated(tmp_path / "sim", rounds=10, seed="3", day=day)
    folder = tmp_path / "floor"
    folder.mkdir()
    store = tmp_path / "floor.sqlite"
    watch, stop, thread, told, _ = watching(folder, tmp_path, record_days=True,
                                            close_grace=0.2, retry_seconds=0.3,
                                            store=str(store))
    days_log = tmp_path / "state" / "days.log"
    try:
        days_log.mkdir()  # after the watch read it at start
        Writer(source, folder / source.name, pause=0.0002).run()
        _wait_for(lambda: len(told) >= 2, 60)  # failed, and tried again at least once
        shutil.rmtree(days_log)
        _wait_for(lambda: day in watch.recorded_days, 60)
    finally:
        stop.set()
        thread.join(5)
    failed = (f"auditor: watch: gaming day {day} could not be recorded (IsADirectoryError: "
              f"[Errno 21] Is a directory: '{days_log}'); trying again in 0.3 s")
    assert set(told[:-1]) == {failed}
    assert told[-1] == (f"auditor: watch: gaming day {day} recorded (1 records; outputs in "
                        f"{tmp_path / 'out' / day})")
    with sqlite3.connect(store) as connection:
        assert connection.execute("SELECT count(*) FROM runs").fetchone() == (1,)
    assert days_log.read_text() == f"{day}\n"


def test_a_second_watch_writing_the_same_alert_file_refuses(tmp_path) -> None:
    """Two watches with state folders of their own (two rooms' folders overlapping, say)
    and one --alert-jsonl: each reads the IDs in the file only at start, so each appended
    every finding, each twice in the file. The second refuses, in one line; once the
    first has stopped, a watch may write the file again."""
    import threading

    from auditor.live.watch import Watch, WatchError, WatchOptions

    folder = tmp_path / "floor"
    folder.mkdir()
    alerts = tmp_path / "alerts.jsonl"

    def options(state: str) -> WatchOptions:
        return WatchOptions(paths=[str(folder)], state=str(tmp_path / state),
                            out=str(tmp_path / "out"), alert_jsonl=str(alerts),
                            record_days=False, tell=lambda _: None)

    first = Watch(options("state-1"))
    with pytest.raises(WatchError) as refused:
        Watch(options("state-2"))
    assert str(refused.value) == (f"another watch writes the alert file {alerts} (two "
                                  "would alert every finding twice)")
    stop = threading.Event()
    stop.set()
    first.run(stop)
    Watch(options("state-2"))


RECEIVER = """\
import sys
with open(sys.argv[1], "a", encoding="utf-8") as out:
    out.write(sys.stdin.read() + "\\n")
"""


def test_record_text_in_an_alert_is_never_run_by_a_shell_nor_breaks_its_line(tmp_path):
    """A record named with shell syntax, a quote, a newline and the line separators some
    readers split lines on (U+2028, U+2029, U+0085: Python's str.splitlines does): the
    alert command (a real process) gets the finding's JSON on its standard input, no
    shell runs it, and each alert, in the command's file and the JSONL file alike, is one
    line under any reader's splitting, the finding exactly."""
    import signal
    import subprocess
    import sys

    folder = tmp_path / "floor"
    folder.mkdir()
    name = folder / 'T4 $(touch pwned) `touch pwned2`; "x\n\u2028\u2029\x85.bjh'
    receiver = tmp_path / "receiver.py"
    receiver.write_text(RECEIVER, encoding="utf-8")
    taken = tmp_path / "taken.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "auditor", "watch", str(folder), "--alert-jsonl",
         str(tmp_path / "alerts.jsonl"), "--alert-on", "low", "--state",
         str(tmp_path / "state"), "--out", str(tmp_path / "out"), "--poll", "0.05",
         "--alert-command", f"{sys.executable} {receiver} {taken}"],
        cwd=tmp_path, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
    try:
        name.write_text(HEADER + round_text(1) + round_text(2, paid="15"), encoding="utf-8")
        expected = [{**finding, "table_key": "RL-9/T4"}
                    for finding in of_record(audited(name), name)]
        assert [f["citation"] for f in expected] == ["20:18:15:06"]
        _wait_for(lambda: taken.exists() and taken.read_text(encoding="utf-8").count("\n"))
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(10) == 0
    for received in (taken, tmp_path / "alerts.jsonl"):
        text = received.read_text(encoding="utf-8")
        assert [json.loads(line) for line in text.splitlines()] == expected
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "alerts.jsonl", "floor", "receiver.py", "state", "taken.jsonl"]
    assert process.stderr.read() == b""


def test_a_store_the_first_days_run_is_making_is_no_failure_of_the_flags(tmp_path):
    """The page's flags are read from the store at the watch's start; the store's file is
    made by the first day's run, which writes its schema after: read in between (a file of
    no schema yet) it was told as a failure, "of an older schema" (the flake of
    test_the_gaming_days_run_is_the_audit_of_the_finished_files under load, whose reader,
    slow to import, met the run making the store). Nothing was recorded: nothing to say."""
    import sqlite3

    from auditor.live.floor import LiveFloor

    store = tmp_path / "floor.sqlite"
    sqlite3.connect(store).close()  # the file as its maker opened it: no table yet
    folder = tmp_path / "floor"
    folder.mkdir()
    floor = LiveFloor()
    watch, stop, thread, told, _ = watching(folder, tmp_path, floor, store=str(store),
                                            alert_jsonl=None, poll=0.02)
    try:
        _wait_for(lambda: watch.flags_reader is not None, 60)
        watch.flags_reader.join(60)
        assert not watch.flags_reader.is_alive()
    finally:
        stop.set()
        thread.join(5)
    assert told == []
    assert floor.snapshot()["notices"] == [] and floor.snapshot()["flags"] == []
    assert store.read_bytes() == b""  # still not written by a reader


def test_the_live_pages_flag_reader_never_writes_a_store_of_an_older_schema(tmp_path):
    """The watch reads the trend flags for its page from the store, read-only; but a
    store of an older schema than the reader can take as it is was upgraded by that read
    (migrations 0001 to today's, written while a day's run may write it too). It is left
    byte for byte as it was, told once; the next audit recorded in it upgrades it."""
    import hashlib
    import sqlite3

    from auditor.live.floor import LiveFloor
    from tests.helpers.old_stores import first_schema_store

    store = first_schema_store(tmp_path)
    before = hashlib.sha256(store.read_bytes()).hexdigest()
    folder = tmp_path / "floor"
    folder.mkdir()
    floor = LiveFloor()
    watch, stop, thread, told, _ = watching(folder, tmp_path, floor, store=str(store),
                                            alert_jsonl=None, poll=0.02)
    try:
        _wait_for(lambda: told, 60)  # the flags read (upgraded, before: nothing told)
        watch.flags_reader.join(30)
    finally:
        stop.set()
        thread.join(5)
    why = (f"store {store}: of an older schema, not read here (a reader does not upgrade "
           "it; the next audit recorded in it does)")
    assert told == [f"auditor: watch: the trend flags cannot be read from the store ({why}); "
                    "trying again"]
    assert [notice["text"] for notice in floor.snapshot()["notices"]] == [
        f"the trend flags cannot be read from the store ({why})"]
    assert hashlib.sha256(store.read_bytes()).hexdigest() == before
    with sqlite3.connect(store) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [
            ("0001",)]


def test_clients_that_never_read_hold_up_neither_the_page_nor_its_stop() -> None:
    """Streams opened and never read (a stalled browser, a hostile client), and one
    request whose headers never end: the server holds each stream's writes once its
    socket is full (not every change of the night in memory for it), answers the next
    client, and stops when told."""
    import socket
    import urllib.request

    from auditor.live.floor import LiveFloor
    from tests.helpers.live_page import LINES, Served, finding, table

    floor = LiveFloor()
    floor.update_table(table())
    served = Served(floor)
    stalled = []
    try:
        for _ in range(8):
            client = socket.socket()
            client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            client.connect(("127.0.0.1", served.port))
            client.sendall(b"GET /events?after=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            stalled.append(client)
        unended = socket.create_connection(("127.0.0.1", served.port))
        unended.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        stalled.append(unended)
        for number in range(3000):
            floor.add_finding(finding(message="m" * 2000, id=f"F-{number}"), LINES)
        with urllib.request.urlopen(f"{served.url}/snapshot.json", timeout=30) as response:
            snapshot = json.loads(response.read())
        assert snapshot["findings_total"] == 3000
        assert [entry["finding"]["id"] for entry in snapshot["findings"][-2:]] == [
            "F-2998", "F-2999"]
        stopped = served.close(within=15)
    finally:
        served.stop.set()
        for client in stalled:
            client.close()
    assert stopped < 10, f"serve() took {stopped:.1f} s to stop"


def test_a_day_recorded_by_the_watch_and_again_by_the_nightly_audit_counts_once(tmp_path):
    """The watch records a gaming day at its close; the nightly audit (its cron line) then
    audits the same records into the same store: `auditor trends` counts each round and
    each finding once, from the latest run, not from both."""
    import subprocess
    import sys

    from tests.helpers.watch_writer import Writer, simulated

    day = "2026-11-20"
    source = simulated(tmp_path / "sim", rounds=40, seed="5", day=day)
    folder = tmp_path / "floor"
    folder.mkdir()
    store = tmp_path / "floor.sqlite"
    watch, stop, thread, _told, _ = watching(folder, tmp_path, record_days=True,
                                             close_grace=0.2, store=str(store))
    try:
        Writer(source, folder / source.name, pause=0.0002).run()
        _wait_for(lambda: day in watch.recorded_days, 60)
    finally:
        stop.set()
        thread.join(5)
    findings = json.loads((tmp_path / "out" / day / "findings.json").read_text())["findings"]
    assert findings
    nightly = subprocess.run([sys.executable, "-m", "auditor", "audit", str(folder), "--out",
                              str(tmp_path / "nightly"), "--store", str(store), "--quiet"],
                             check=False)
    assert nightly.returncode == 1  # findings, none waived
    subprocess.run([sys.executable, "-m", "auditor", "trends", "--store", str(store), "--out",
                    str(tmp_path / "trends"), "--quiet"], check=True)
    trends = json.loads((tmp_path / "trends" / "trends.json").read_text())
    assert (trends["trends"]["runs"], trends["trends"]["inputs"]) == ([2], 1)
    assert trends["rates"]["floor"]["rounds"] == 40
    assert trends["rates"]["floor"]["findings"] == len(findings)


def test_a_link_made_to_a_record_followed_is_not_a_record_gone(tmp_path) -> None:
    """A link to a record already followed, made in the watched folder (a name sorting
    before it): the folder's records are each file once, under its first name, so the
    record's own name dropped out of the list and the watch said it was gone (renamed or
    removed) while its table played on, and judged it again under the link. It is
    followed on under its name, nothing told; every finding alerted once."""
    import os

    folder = tmp_path / "floor"
    folder.mkdir()
    record = folder / "b.bjh"
    watch, stop, thread, told, taken = watching(folder, tmp_path)
    try:
        record.write_text(HEADER + round_text(1, paid="15"), encoding="utf-8")
        _wait_for(lambda: len(taken) == 1)
        os.symlink(record, folder / "a.bjh")
        _wait_for(lambda: watch.folders.records() == [str(folder / "a.bjh")])
        with open(record, "a", encoding="utf-8") as handle:
            handle.write(round_text(2, paid="15"))
        expected = of_record(audited(record), record)
        assert [(f["citation"], f["round"]) for f in expected] == [
            ("20:18:15:06", "1"), ("20:18:15:06", "2")]
        _wait_for(lambda: set(taken) == {f["id"] for f in expected})
        assert watch.drain()
    finally:
        stop.set()
        thread.join(5)
    alerts = [json.loads(line) for line in (tmp_path / "alerts.jsonl").read_text().splitlines()]
    assert [_bare(alert) for alert in alerts] == expected
    assert list(watch.followed) == [str(record)]
    assert told == []


def test_an_id_written_after_a_sent_log_line_cut_by_a_kill_counts_as_sent(tmp_path) -> None:
    """A sent-log whose last ID a kill (or a full disk) cut: the next ID written was glued
    to it, so the watch started again did not know that finding as sent and the alert
    command got it a second time."""
    import sys

    from auditor.live.alerts import CommandSink, SentLog

    receiver = tmp_path / "receiver.py"
    receiver.write_text(RECEIVER, encoding="utf-8")
    taken_file = tmp_path / "taken.jsonl"
    command = f"{sys.executable} {receiver} {taken_file}"
    (tmp_path / "state").mkdir()
    sent_log = SentLog(tmp_path / "state", CommandSink(command)).path
    sent_log.write_text("BJH-0123", encoding="utf-8")  # cut: no newline
    folder = tmp_path / "floor"
    folder.mkdir()
    record = folder / "T4.bjh"
    record.write_text(HEADER + round_text(1, paid="15"), encoding="utf-8")
    expected = [{**finding, "table_key": "RL-9/T4"}
                for finding in of_record(audited(record), record)]
    for _ in range(2):  # the watch, then the watch started again
        watch, stop, thread, _told, _taken = watching(
            folder, tmp_path, alert_jsonl=None, alert_command=command)
        try:
            _wait_for(lambda: taken_file.exists())
            # the round judged (and so its finding offered) by this watch
            _wait_for(lambda watch=watch: str(record) in watch.followed
                      and watch.followed[str(record)].audit.offset > 0)
            assert watch.drain()
        finally:
            stop.set()
            thread.join(5)
    received = [json.loads(line) for line in taken_file.read_text().splitlines()]
    assert received == expected
    assert sent_log.read_text() == f"BJH-0123\n{expected[0]['id']}\n"


def test_a_day_written_after_a_days_log_line_cut_by_a_kill_is_not_recorded_again(tmp_path):
    """days.log with a last line a kill (or a full disk) cut: the next day written was
    glued to it, so the watch started again did not know the day as recorded and ran its
    audit again, one more run of the day in the store."""
    import sqlite3

    from tests.helpers.watch_writer import Writer, simulated

    day = "2026-11-20"
    source = simulated(tmp_path / "sim", rounds=10, seed="3", day=day)
    folder = tmp_path / "floor"
    folder.mkdir()
    (tmp_path / "state").mkdir()
    days_log = tmp_path / "state" / "days.log"
    days_log.write_text("2026-11-", encoding="utf-8")  # cut: no newline
    store = tmp_path / "floor.sqlite"
    Writer(source, folder / source.name, pause=0.0002).run()
    watch, stop, thread, told, _ = watching(folder, tmp_path, record_days=True,
                                            close_grace=0.2, store=str(store))
    try:
        _wait_for(lambda: day in watch.recorded_days, 60)
    finally:
        stop.set()
        thread.join(5)
    # started again: the day is known as recorded from days.log, before any poll
    watch, stop, thread, told, _ = watching(folder, tmp_path, record_days=True,
                                            close_grace=0.2, store=str(store))
    stop.set()
    thread.join(5)
    assert watch.recorded_days == {"2026-11-", day}
    with sqlite3.connect(store) as connection:
        assert connection.execute("SELECT count(*) FROM runs").fetchone() == (1,)
    assert days_log.read_text() == f"2026-11-\n{day}\n"
    assert told == []


@pytest.mark.parametrize("words", [("--poll", "nan"), ("--poll", "inf"),
                                   ("--close-grace", "nan"), ("--command-timeout", "inf"),
                                   ("--max-age", "nan")])
def test_a_number_that_is_not_one_is_misuse_not_a_hang(tmp_path, words) -> None:
    """`--poll nan` made a watch that no SIGTERM stopped (its wait was for no time it could
    measure), `--poll inf` a crash (exit 3), `--close-grace nan` a day recorded with no
    grace for its last lines, `--max-age nan` every old record followed: each is refused
    in one line, exit 2."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "auditor", "watch", str(tmp_path),
                           "--state", str(tmp_path / "state"), *words],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (
        2, "auditor: watch: --poll, --command-timeout and --max-age must be numbers above 0, "
           "--close-grace 0 or more\n")


HANGING = """\
import os, subprocess, sys, time
helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
with open(sys.argv[1], "w") as out:
    out.write(f"{os.getpid()} {helper.pid}")
time.sleep(600)
"""


def test_a_watch_stopped_leaves_no_alert_command_hanging(tmp_path) -> None:
    """An alert command that hangs (a pager that never answers), the watch stopped by
    SIGTERM meanwhile (a service restarted): the command, a process of the watch's, was
    left running for ever, its wait gone with the watch (one more at each restart). It is
    ended with the watch; its finding, not in the sent-log, is sent after the restart."""
    import os
    import signal
    import subprocess
    import sys

    folder = tmp_path / "floor"
    folder.mkdir()
    (folder / "T4.bjh").write_text(HEADER + round_text(1, paid="15"), encoding="utf-8")
    hanging = tmp_path / "hanging.py"
    hanging.write_text(HANGING, encoding="utf-8")
    pid_file = tmp_path / "pid"
    process = subprocess.Popen(
        [sys.executable, "-m", "auditor", "watch", str(folder), "--alert-on", "low",
         "--state", str(tmp_path / "state"), "--out", str(tmp_path / "out"), "--poll", "0.05",
         "--command-timeout", "600", "--alert-command",
         f"{sys.executable} {hanging} {pid_file}"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
    try:
        _wait_for(lambda: pid_file.exists() and len(pid_file.read_text().split()) == 2)
        command, helper = map(int, pid_file.read_text().split())
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0
    assert process.stderr.read() == b""  # ended with the watch: no failure told
    try:  # the command and what it started (a pager script's curl, say)
        _wait_for(lambda: not _running(command) and not _running(helper))
    finally:
        for pid in (command, helper):
            if _running(pid):  # debris of a failed run of this test
                os.kill(pid, signal.SIGKILL)


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except (OSError, IndexError):
        return False


def test_two_tables_at_once_one_in_a_subfolder_made_after_the_watch_began(tmp_path) -> None:
    """Two tables writing at once, line by line, one of them in a subfolder that did not
    exist when the watch began: each finding alerted once, as the audit of each finished
    file gives it."""
    import threading

    folder = tmp_path / "floor"
    folder.mkdir()
    first, second = folder / "T4.bjh", folder / "pit2" / "late" / "T5.bjh"
    texts = {first: HEADER + round_text(1) + round_text(2, paid="15") + round_text(3),
             second: HEADER.replace("T4", "T5") + round_text(1, paid="15") + round_text(2)
             + round_text(3, paid="25")}

    def write(path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb", buffering=0) as handle:
            for line in texts[path].encode().splitlines(keepends=True):
                handle.write(line)
                time.sleep(0.001)

    watch, stop, thread, told, taken = watching(folder, tmp_path)
    try:
        writers = [threading.Thread(target=write, args=(path,)) for path in texts]
        for writer in writers:
            writer.start()
        for writer in writers:
            writer.join()
        expected = {path: [{**f, "table_key": key} for f in of_record(audited(path), path)]
                    for path, key in ((first, "RL-9/T4"), (second, "RL-9/T5"))}
        assert [(f["round"]) for f in expected[first]] == ["2"]
        assert [(f["round"]) for f in expected[second]] == ["1", "3"]
        _wait_for(lambda: set(taken) == {f["id"] for found in expected.values()
                                         for f in found})
        assert watch.drain()
    finally:
        stop.set()
        thread.join(5)
    alerts = [json.loads(line) for line in (tmp_path / "alerts.jsonl").read_text().splitlines()]
    assert sorted(alerts, key=lambda alert: alert["id"]) == sorted(
        expected[first] + expected[second], key=lambda alert: alert["id"])
    assert told == []
