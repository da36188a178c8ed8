"""`auditor watch` stopped: by a signal (auditor/live/command.py), the stop set outside the
signal handler, since the handler runs in the main thread between two of its steps, perhaps
while that thread holds the lock the stop's own `set` takes; with an alert being taken
(auditor/live/alerts.py), the watch lets go of its state folder only once the alert is
taken and logged, or given up."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from auditor.live.alerts import Sink
from auditor.live.watch import Watch, WatchOptions

# The watch run in a process of its own with a stop whose wait holds its lock for a while
# at each poll (the real one holds it for an instant): SIGTERM lands while it is held.
_HOLDING_WATCH = r"""
import argparse, sys, threading, time
from auditor.live.command import add_parser, run

class Holding(threading.Event):
    def wait(self, timeout=None):
        with self._cond:
            print("holding", flush=True)
            time.sleep(2.0)
            if self._flag:
                return True
            return self._cond.wait(timeout)

commands = argparse.ArgumentParser().add_subparsers()
add_parser(commands)
arguments = commands.choices["watch"].parse_args(sys.argv[1:])
sys.exit(run(arguments, stop=Holding()))
"""


def test_sigterm_while_the_watch_holds_its_stops_lock_stops_it(tmp_path: Path) -> None:
    """Set from the handler, the stop waited for its lock, held by the very thread the
    handler had interrupted: the watch hung on SIGTERM for ever."""
    (tmp_path / "floor").mkdir()
    process = subprocess.Popen(
        [sys.executable, "-c", _HOLDING_WATCH, str(tmp_path / "floor"), "--state",
         str(tmp_path / "state"), "--out", str(tmp_path / "out"), "--poll", "0.05"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert process.stdout.readline() == b"holding\n"
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.stderr.read() == b""


class _Slow(Sink):
    """Takes each alert after `seconds` (a URL that answers late, within its time)."""

    name = "slow"
    timeout = 10.0

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.began = threading.Event()
        self.taken: list[str] = []

    def deliver(self, text: str) -> None:
        self.began.set()
        time.sleep(self.seconds)
        self.taken.append(text)


def _stopped(watch: Watch) -> None:
    stop = threading.Event()
    stop.set()
    assert watch.run(stop) == 0


def test_a_watch_stopped_while_an_alert_is_taken_logs_it_before_letting_go(tmp_path) -> None:
    """The watch stopped while a sink was taking an alert, within the sink's time: the watch
    let go of its state folder after 2 s, the alert's ID not yet in the sent-log, so a watch
    started then on the folder sent the alert again (and, as a program, the watch exited
    with the thread that would log it)."""
    (tmp_path / "floor").mkdir()
    sink = _Slow(3.0)
    options = WatchOptions(paths=[str(tmp_path / "floor")], state=str(tmp_path / "state"),
                           out=str(tmp_path / "out"), record_days=False, poll=0.02,
                           alert_on="low", tell=lambda text: None, extra_sinks=[sink])
    watch = Watch(options)
    watch._found({"id": "BJH-1"}, "high", {})
    assert sink.began.wait(30)
    _stopped(watch)
    assert sink.taken == ['{"id":"BJH-1"}']
    assert watch.workers[0].log.path.read_text(encoding="utf-8") == "BJH-1\n"
    again = Watch(options)  # the state folder is free: the alert counts as sent there
    assert again.workers[0].log.ids == {"BJH-1"}
    _stopped(again)


class _Refusing(Sink):
    """Refuses every alert (a URL down)."""

    name = "refusing"
    timeout = 1.0

    def __init__(self) -> None:
        self.tried: list[str] = []

    def deliver(self, text: str) -> None:
        self.tried.append(text)
        raise RuntimeError("refused")


def test_a_stopped_sink_tries_none_of_the_findings_still_queued(tmp_path) -> None:
    """Stopped, a worker went on through its queue, trying each finding once more (a
    command run, a URL posted to, for each) and telling each one's refusal as 'retrying',
    when none was retried: they are sent after the restart."""
    from auditor.live.alerts import SinkWorker
    from tests.helpers.waiting import until

    told: list[str] = []
    sink = _Refusing()
    worker = SinkWorker(sink, tmp_path, told.append)
    for number in (1, 2, 3):
        worker.offer({"id": f"BJH-{number}"})
    until(lambda: told, what="the first refusal told")
    worker.stop()
    assert not worker.thread.is_alive()
    assert set(sink.tried) == {'{"id":"BJH-1"}'}
    assert all("BJH-1 " in line for line in told)
