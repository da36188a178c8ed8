"""`auditor watch` under faults: killed -9 and started again, a file truncated, replaced or
renamed, a sink that fails, hangs or is a URL with a password, a hostile file name, a huge
line. No finding lost, none alerted twice, nothing untrusted or secret printed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from auditor.live.floor import LiveFloor
from tests.helpers.waiting import WITHIN, until
from tests.helpers.watch_writer import Writer, audited, of_record, simulated
from tests.helpers.watching import alerts_of, caught_up, watching


def _round_ids(path: Path) -> list[str]:
    return [f["id"] for f in of_record(audited(path), path)]


def _watch_process(folder: Path, tmp: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "auditor", "watch", str(folder), "--alert-jsonl",
         str(tmp / "alerts.jsonl"), "--alert-on", "low", "--state", str(tmp / "state"),
         "--out", str(tmp / "out"), "--poll", "0.05", *extra],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)


def _wait_for(condition, timeout: float = WITHIN) -> None:
    until(condition, timeout)


def test_killed_minus_nine_and_started_again_loses_no_finding_and_repeats_none(tmp_path):
    source = simulated(tmp_path / "sim", rounds=60, seed="7")
    folder = tmp_path / "floor"
    folder.mkdir()
    target = folder / source.name
    lines = source.read_bytes().splitlines(keepends=True)
    alerts = tmp_path / "alerts.jsonl"
    watch = _watch_process(folder, tmp_path)
    try:
        half = len(lines) // 2
        writer = Writer(source, target, pause=0.001, last=half)
        writer.start()
        writer.join()
        _wait_for(lambda: alerts.exists() and len(alerts_of(alerts)) >= 3)
    finally:
        watch.send_signal(signal.SIGKILL)
        watch.wait()
    sent_before = len(alerts_of(alerts))
    Writer(source, target, pause=0.0005, first=half + 1, last=half + 200).run()  # while down
    watch = _watch_process(folder, tmp_path)
    try:
        Writer(source, target, pause=0.0005, first=half + 201).run()
        expected = _round_ids(target)
        _wait_for(lambda: len(alerts_of(alerts)) >= len(expected))
        time.sleep(0.5)
    finally:
        watch.send_signal(signal.SIGTERM)
        assert watch.wait(10) == 0
    got = [a["id"] for a in alerts_of(alerts)]
    assert sent_before >= 3
    assert sorted(got) == sorted(expected)  # none lost, none twice
    assert len(got) == len(set(got))
    assert watch.stderr.read() == b""


def test_a_truncated_or_replaced_file_is_read_again_and_told(tmp_path):
    source = simulated(tmp_path / "sim", rounds=30, seed="3")
    other = simulated(tmp_path / "sim2", rounds=30, seed="4", table="T01")
    folder = tmp_path / "floor"
    folder.mkdir()
    target = folder / source.name
    floor = LiveFloor()
    watch, stop, thread, told, taken = watching(folder, tmp_path, floor)
    try:
        Writer(source, target, pause=0.0002).run()
        _wait_for(lambda: len(taken) == len(_round_ids(source)))
        # truncated and written again from its start: the same findings, not alerted again
        with open(target, "r+b") as handle:
            handle.truncate(0)
        _wait_for(lambda: len(told) == 1)  # the truncation seen before the file grows again
        Writer(source, target, pause=0.0002).run()
        caught_up(watch, target)
        # replaced: another record under the name (a new inode)
        replacement = folder / "incoming.tmp"
        replacement.write_bytes(other.read_bytes())
        os.replace(replacement, target)
        expected = set(_round_ids(source)) | set(_round_ids(other))
        _wait_for(lambda: set(taken) == expected)
        assert watch.drain()
    finally:
        stop.set()
        thread.join(5)
    assert told == [f"auditor: watch: {target} was truncated; read again from its start",
                    f"auditor: watch: {target} was replaced (a new file under the name); "
                    "read again from its start"]
    assert [n["text"] for n in floor.snapshot()["notices"]] == [
        f"{target} was truncated; read again from its start",
        f"{target} was replaced (a new file under the name); read again from its start"]
    ids = [a["id"] for a in alerts_of(tmp_path / "alerts.jsonl")]
    assert sorted(ids) == sorted(expected) and len(ids) == len(set(ids))


def test_a_renamed_file_is_followed_under_its_new_name_without_repeating(tmp_path):
    source = simulated(tmp_path / "sim", rounds=30, seed="3")
    folder = tmp_path / "floor"
    folder.mkdir()
    target = folder / source.name
    lines = len(source.read_bytes().splitlines())
    watch, stop, thread, told, taken = watching(folder, tmp_path)
    try:
        Writer(source, target, pause=0.0003, last=lines // 2).run()
        caught_up(watch, target)  # the first half judged under the first name
        renamed = folder / "renamed.bjh"
        os.rename(target, renamed)
        Writer(source, renamed, pause=0.0003, first=lines // 2 + 1).run()
        _wait_for(lambda: set(taken) == set(_round_ids(source)))
        assert watch.drain()
    finally:
        stop.set()
        thread.join(5)
    assert told == [f"auditor: watch: {target} is gone (renamed or removed); "
                    "no longer followed"]
    ids = [a["id"] for a in alerts_of(tmp_path / "alerts.jsonl")]
    assert sorted(ids) == sorted(_round_ids(source)) and len(ids) == len(set(ids))


FLAKY = """\
import pathlib, sys
count = pathlib.Path(sys.argv[1])
tries = int(count.read_text()) if count.exists() else 0
count.write_text(str(tries + 1))
if tries < 3:
    sys.exit(5)
with open(sys.argv[2], "a") as out:
    out.write(sys.stdin.read() + "\\n")
"""


def test_a_failing_alert_command_is_retried_and_loses_nothing(tmp_path):
    source = simulated(tmp_path / "sim", rounds=30, seed="3")
    script = tmp_path / "flaky.py"
    script.write_text(FLAKY)
    got = tmp_path / "got.jsonl"
    folder = tmp_path / "floor"
    folder.mkdir()
    command = f"{sys.executable} {script} {tmp_path / 'count'} {got}"
    _watch, stop, thread, told, _taken = watching(folder, tmp_path, alert_command=command,
                                                alert_jsonl=None)
    try:
        Writer(source, folder / source.name, pause=0.0002).run()
        expected = _round_ids(source)
        _wait_for(lambda: got.exists() and len(alerts_of(got)) == len(expected), 60)
    finally:
        stop.set()
        thread.join(5)
    assert [a["id"] for a in alerts_of(got)] == expected
    first = expected[0]
    assert told == [f"auditor: watch: alert {first} not taken by command:{command} "
                    f"(exit status 5); retrying in {delay:g} s" for delay in (0.5, 1, 2)]


def test_a_sink_that_hangs_times_out_and_holds_up_no_other_sink(tmp_path):
    source = simulated(tmp_path / "sim", rounds=30, seed="3")
    folder = tmp_path / "floor"
    folder.mkdir()
    _watch, stop, thread, told, _taken = watching(
        folder, tmp_path, alert_command=f"{sys.executable} -c 'import time; time.sleep(60)'",
        command_timeout=0.3)
    try:
        writer = Writer(source, folder / source.name, pause=0.0002)
        writer.run()
        expected = _round_ids(source)
        _wait_for(lambda: len(alerts_of(tmp_path / "alerts.jsonl")) == len(expected))
        assert time.time() - max(writer.ends.values()) < 2.0
        _wait_for(lambda: told)  # the command's time out told (a stop now ends it untold)
    finally:
        stop.set()
        thread.join(10)
    assert not thread.is_alive()
    assert told[0].endswith("(no answer within 0.3 s); retrying in 0.5 s")


def test_an_alert_url_is_posted_to_with_its_password_never_shown(tmp_path):
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    bodies: list[tuple[str, bytes]] = []
    answers = iter([500])

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            status = next(answers, 200)
            if status == 200:
                bodies.append((self.headers.get("Authorization", ""), body))
            self.send_response(status)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    source = simulated(tmp_path / "sim", rounds=30, seed="3")
    folder = tmp_path / "floor"
    folder.mkdir()
    url = f"http://watcher:s3cr%C3%A9t-pw@127.0.0.1:{server.server_port}/alerts"
    process = _watch_process(folder, tmp_path, "--alert-url", url)
    try:
        Writer(source, folder / source.name, pause=0.0002).run()
        expected = _round_ids(source)
        _wait_for(lambda: len(bodies) == len(expected))
    finally:
        process.send_signal(signal.SIGINT)
        assert process.wait(10) == 0
        server.shutdown()
    import base64

    assert {auth for auth, _ in bodies} == {
        "Basic " + base64.b64encode("watcher:s3crét-pw".encode()).decode()}
    assert [json.loads(body)["id"] for _, body in bodies] == expected
    said = process.stderr.read().decode()
    first = expected[0]
    shown = f"http://watcher:***@127.0.0.1:{server.server_port}/alerts"
    assert said == (f"auditor: watch: alert {first} not taken by url:{shown} (HTTP 500); "
                    "retrying in 0.5 s\n")
    for folder_file in (tmp_path / "state").iterdir():
        assert "s3cr" not in folder_file.read_text()
    # a server that is down: told with the URL shown, never the password
    process = _watch_process(folder, tmp_path / "again", "--alert-url",
                             "http://watcher:s3cret@127.0.0.1:9/x")
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(
        line.decode() for line in process.stderr), daemon=True)
    reader.start()
    try:  # stopped once it has said its retry (a fixed sleep raced its start under load)
        _wait_for(lambda: any("retrying" in line for line in lines))
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(10) == 0
    reader.join(5)
    said = "".join(lines)
    assert "retrying" in said and "s3cret" not in said and "watcher:***@127.0.0.1:9" in said


def test_a_hostile_file_name_is_escaped_and_a_huge_line_judged_as_the_audit_does(tmp_path):
    source = simulated(tmp_path / "sim", rounds=12, seed="3")
    lines = source.read_bytes().splitlines(keepends=True)
    # a line of 3 MiB between rounds: unreadable, as the audit says it is
    after_round = next(n for n, line in enumerate(lines) if line.startswith(b"end"))
    lines.insert(after_round + 1, b"note \"" + b"x" * (3 << 20) + b"\"\n")
    hostile = tmp_path / "hostile.bjh"
    hostile.write_bytes(b"".join(lines))
    folder = tmp_path / "floor"
    folder.mkdir()
    name = folder / "T\x1b[2J\x07\u202eevil.bjh"
    process = _watch_process(folder, tmp_path)
    try:
        Writer(hostile, name, pause=0.0003, halves=True).run()
        expected = _round_ids(name)
        _wait_for(lambda: (tmp_path / "alerts.jsonl").exists()
                  and len(alerts_of(tmp_path / "alerts.jsonl")) == len(expected))
        with open(name, "r+b") as handle:
            handle.truncate(10)
        time.sleep(0.5)
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(10) == 0
    alerts = alerts_of(tmp_path / "alerts.jsonl")
    assert [a["id"] for a in alerts] == expected
    said = process.stderr.read().decode()
    assert said.startswith("auditor: watch: ") and "was truncated; read again" in said
    assert "\x1b" not in said and "\x07" not in said and "\u202e" not in said


def test_a_store_that_fails_at_the_days_close_is_told_and_tried_again(tmp_path):
    source = simulated(tmp_path / "sim", rounds=10, seed="3", day="2026-11-20")
    folder = tmp_path / "floor"
    folder.mkdir()
    store = tmp_path / "not-yet" / "floor.sqlite"  # a folder that does not exist: refused
    watch, stop, thread, told, _ = watching(folder, tmp_path, record_days=True,
                                            close_grace=0.2, store=str(store),
                                            retry_seconds=0.5)
    try:
        Writer(source, folder / source.name, pause=0.0002).run()
        _wait_for(lambda: any("failed (exit 2" in line for line in told), 60)
        assert not store.exists()
        store.parent.mkdir()
        _wait_for(lambda: "2026-11-20" in watch.recorded_days, 60)
    finally:
        stop.set()
        thread.join(5)
    assert told[0].startswith("auditor: watch: the run of gaming day 2026-11-20 failed (exit "
                              "2: auditor: store ")
    assert told[0].endswith("; trying again in 0.5 s")
    assert told[-1].startswith("auditor: watch: gaming day 2026-11-20 recorded (1 records")
    assert store.exists()


def test_misuse_is_one_line_and_exit_2(tmp_path):
    def watch(*words: str) -> tuple[int, str]:
        done = subprocess.run([sys.executable, "-m", "auditor", "watch", str(tmp_path),
                               "--state", str(tmp_path / "state"), *words],
                              capture_output=True, text=True, timeout=60)
        return done.returncode, done.stderr

    assert watch("--alert-url", "ftp://user:pw@host/x") == (
        2, "auditor: watch: --alert-url ftp://user:***@host/x is not an http(s) URL\n")
    assert watch("--alert-command", "") == (2, "auditor: watch: --alert-command is empty\n")
    nowhere = subprocess.run([sys.executable, "-m", "auditor", "watch", str(tmp_path),
                              str(tmp_path / "nowhere")], capture_output=True, text=True,
                             timeout=60)
    assert (nowhere.returncode, nowhere.stderr) == (
        2, f"auditor: watch: {tmp_path / 'nowhere'}: no such file or folder\n")
    assert watch("--poll", "0") == (2, "auditor: watch: --poll, --command-timeout and "
                                       "--max-age must be numbers above 0, --close-grace 0 "
                                       "or more\n")


def test_a_days_audit_left_by_a_killed_watch_is_not_run_again(tmp_path):
    """A watch killed -9 during a day's audit leaves the audit running; the watch started
    again waits for it and, its outputs written, records the day without a second run."""
    source = simulated(tmp_path / "sim", rounds=10, seed="3", day="2026-11-20")
    folder = tmp_path / "floor"
    folder.mkdir()
    (folder / source.name).write_bytes(source.read_bytes())
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "recording-2026-11-20").write_text("999999999 0\n")
    out = tmp_path / "out" / "2026-11-20"
    out.mkdir(parents=True)
    (out / "findings.json").write_text('{"findings": []}')  # written by that audit
    store = tmp_path / "absent" / "floor.sqlite"  # an audit run now would be refused
    watch, stop, thread, told, _ = watching(folder, tmp_path, record_days=True,
                                            close_grace=0.2, store=str(store))
    try:
        _wait_for(lambda: "2026-11-20" in watch.recorded_days, 30)
    finally:
        stop.set()
        thread.join(5)
    assert told == [f"auditor: watch: gaming day 2026-11-20 recorded (1 records; outputs in "
                    f"{out})"]
    assert not (tmp_path / "state" / "recording-2026-11-20").exists()


def test_killed_minus_nine_mid_record_alerts_findings_of_no_one_round_once(tmp_path):
    """Killed -9 with the record half written, between-round findings among what is
    alerted before and after: started again, every finding of the finished record is
    alerted once (the header's, a run of unreadable lines, a statement outside any round,
    a card burned past the count, the line before `close`), none twice."""
    from tests.helpers.watching import planted_between_rounds

    source = planted_between_rounds(tmp_path / "made")
    folder = tmp_path / "floor"
    folder.mkdir()
    target = folder / source.name
    lines = source.read_bytes().splitlines(keepends=True)
    # cut inside the run of unreadable lines: its finding is alerted only after the restart
    cut = next(n for n, line in enumerate(lines, 1) if line.startswith(b"@@ scrambled 2"))
    alerts = tmp_path / "alerts.jsonl"
    watch = _watch_process(folder, tmp_path)
    try:
        Writer(source, target, pause=0.001, last=cut).run()
        _wait_for(lambda: alerts.exists() and any(
            a["citation"] == "record:card-count" and a["round"] is None
            for a in alerts_of(alerts)))
        time.sleep(0.5)
    finally:
        watch.send_signal(signal.SIGKILL)
        watch.wait()
    before = [a["id"] for a in alerts_of(alerts)]
    assert not any(a["citation"] == "record:syntax" and a["round"] is None
                   for a in alerts_of(alerts))
    Writer(source, target, pause=0.0005, first=cut + 1, last=cut + 300).run()  # while down
    watch = _watch_process(folder, tmp_path)
    try:
        Writer(source, target, pause=0.0005, first=cut + 301).run()
        expected = [f["id"] for f in audited(target)]
        _wait_for(lambda: len(alerts_of(alerts)) >= len(expected))
        time.sleep(0.5)
    finally:
        watch.send_signal(signal.SIGTERM)
        assert watch.wait(10) == 0
    got = [a["id"] for a in alerts_of(alerts)]
    assert got[:len(before)] == before
    assert sorted(got) == sorted(expected) and len(got) == len(set(got))
    syntax = [a for a in alerts_of(alerts) if a["citation"] == "record:syntax"
              and a["round"] is None]
    assert [a["message"][:13] for a in syntax] == ["Lines 325–327", "unknown state"]
    assert watch.stderr.read() == b""


def test_a_replaced_record_judges_its_header_and_between_rounds_again_alerting_only_news(
        tmp_path):
    """A record with findings of no one round replaced by a new file under its name: the
    header and what lies between rounds are judged again from its start; the findings it
    shares with the first (the same IDs) are not alerted again, the new ones are, once."""
    from tests.helpers.watching import planted_between_rounds

    source = planted_between_rounds(tmp_path / "made")
    text = source.read_text(encoding="utf-8")
    # the replacement: its header fault and the statement outside a round gone, an
    # unreadable line between rounds 49 and 50 new
    other = text.replace("option table.colour=green\n", "").replace("\nstand s1h1\n", "\n")
    other = other.replace("\nround 50 ", "\n@@ new in the replacement\nround 50 ", 1)
    assert other.count("\n") == text.count("\n") - 1
    folder = tmp_path / "floor"
    folder.mkdir()
    target = folder / source.name
    watch, stop, thread, told, taken = watching(folder, tmp_path)
    try:
        Writer(source, target, pause=0.0002).run()
        first = [f["id"] for f in audited(target)]
        _wait_for(lambda: set(taken) == set(first))
        replacement = folder / "incoming.tmp"
        replacement.write_text(other, encoding="utf-8")
        os.replace(replacement, target)
        second = audited(target)
        _wait_for(lambda: set(taken) >= {f["id"] for f in second})
        time.sleep(0.5)
        assert watch.drain()
    finally:
        stop.set()
        thread.join(5)
    assert told == [f"auditor: watch: {target} was replaced (a new file under the name); "
                    "read again from its start"]
    ids = [a["id"] for a in alerts_of(tmp_path / "alerts.jsonl")]
    assert len(ids) == len(set(ids))
    assert ids[:len(first)] == first
    news = [f for f in second if f["id"] not in first]
    assert [(f["citation"], f["round"]) for f in news] == [("record:syntax", None)]
    assert ids[len(first):] == [news[0]["id"]]
    # the header's finding was the first record's alone; the shared run of unreadable
    # lines, and the line before `close`, are alerted once
    gone = {f["citation"] for f in audited(source) if f["id"] not in
            {g["id"] for g in second} and f["round"] is None}
    assert gone == {"record:header", "record:reference"}
