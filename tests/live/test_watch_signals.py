"""`auditor watch` stopped by a signal (auditor/live/command.py): the stop is set outside
the signal handler, since the handler runs in the main thread between two of its steps,
perhaps while that thread holds the lock the stop's own `set` takes."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

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
