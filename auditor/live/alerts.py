"""Where alerts go: a JSONL file, a command given the finding on its standard input, a URL
POSTed to. Each sink has its own thread and its own sent-log, so a sink that hangs or fails
delays only itself; a finding is retried with back-off until its sink takes it, never
dropped, and counted as sent only once its ID is written and fsynced to the sink's log.

Exactly once, across restarts: the sent-log is read at start, and a finding whose ID is in
it is not sent again. The one window left is a kill between a sink taking a finding and its
ID reaching the log (microseconds): then the command or URL may get it twice after the
restart; the finding's `id` lets the receiver tell. For the JSONL file there is no such
window: the IDs already in the file count as sent.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import shlex
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

SEVERITY_RANK = {"low": 0, "medium": 1, "high": 2}
COMMAND_TIMEOUT = 10.0
URL_TIMEOUT = 10.0
BACKOFF_FIRST, BACKOFF_MOST = 0.5, 30.0


def at_or_above(severity: str, level: str) -> bool:
    return SEVERITY_RANK.get(severity, 0) >= SEVERITY_RANK[level]


def url_shown(url: str) -> str:
    """A URL as any message shows it: its user's password replaced by ***."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<a URL that cannot be read>"
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


class SinkClosed(Exception):
    """The sink was closed (the watch stopping) while it took an alert: not a failure."""


class Sink:
    """One destination. `deliver` raises on failure (OSError, a timeout, a status)."""

    name = "sink"

    def deliver(self, text: str) -> None:  # pragma: no cover (each sink has its own)
        raise NotImplementedError

    def already_sent(self) -> set[str]:
        return set()

    def interrupt(self) -> None:
        """End an alert being taken that would otherwise take long (a command): the watch
        is stopping. A sink that cannot be cut short is waited for, within its time."""

    def close(self) -> None:
        """Let go of what the sink holds (the JSONL file's lock)."""


class JsonlSink(Sink):
    def __init__(self, path: str) -> None:
        import stat

        try:  # a FIFO or a device would block the watch reading what it took (or writing)
            mode = os.stat(path).st_mode
        except OSError:
            mode = None
        if mode is not None and not stat.S_ISREG(mode):
            raise ValueError(f"--alert-jsonl {path} is not a regular file")
        self.path = path
        self.name = "jsonl:" + path
        # held while the watch runs: a second watch appending to the file (its own state
        # folder) would write every finding again, having read the IDs here only at start
        import fcntl

        try:
            self.held = open(path, "a", encoding="utf-8")  # noqa: SIM115 (held)
        except OSError as error:
            raise ValueError(f"--alert-jsonl {path} cannot be written "
                             f"({error.strerror})") from None
        try:
            fcntl.flock(self.held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.held.close()
            raise ValueError(f"another watch writes the alert file {path} (two would "
                             "alert every finding twice)") from None

    def close(self) -> None:
        self.held.close()

    def deliver(self, text: str) -> None:
        append_line(Path(self.path), text)

    def already_sent(self) -> set[str]:
        sent: set[str] = set()
        try:
            with open(self.path, encoding="utf-8", errors="replace") as handle:
                for line in handle:
                    try:
                        sent.add(json.loads(line)["id"])
                    except (ValueError, KeyError, TypeError):
                        continue  # a line cut by a kill: its finding is sent again
        except FileNotFoundError:
            pass
        return sent


class CommandSink(Sink):
    def __init__(self, command: str, timeout: float = COMMAND_TIMEOUT) -> None:
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError("--alert-command is empty")
        self.timeout = timeout
        self.name = "command:" + command
        self.running: subprocess.Popen | None = None  # the command taking an alert now
        self.closed = False

    def deliver(self, text: str) -> None:
        if self.closed:  # the watch stopping: no command begun that nothing would end
            raise SinkClosed
        # a group of its own: what it starts (a pager script's curl) is ended with it
        with subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True) as process:
            self.running = process
            if self.closed:  # closed while it began: close() may not have seen it
                _end_group(process)
            try:
                process.communicate(text.encode("utf-8"), timeout=self.timeout)
            except subprocess.TimeoutExpired:
                _end_group(process)
                raise
            finally:
                self.running = None
        if self.closed:
            raise SinkClosed
        if process.returncode != 0:
            raise RuntimeError(f"exit status {process.returncode}")

    def interrupt(self) -> None:
        """The command still running when the watch stops is ended with it: left, it
        would hang on for ever (its wait for it gone with the watch)."""
        self.closed = True
        process = self.running
        if process is not None and process.poll() is None:
            _end_group(process)

    def close(self) -> None:
        self.interrupt()


def _end_group(process: subprocess.Popen) -> None:
    """Kill the command and every process of its group (started with a session of its own)."""
    import contextlib
    import signal

    with contextlib.suppress(OSError):  # gone meanwhile
        os.killpg(process.pid, signal.SIGKILL)


class UrlSink(Sink):
    def __init__(self, url: str, timeout: float = URL_TIMEOUT) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"--alert-url {url_shown(url)} is not an http(s) URL")
        self.timeout = timeout
        self.headers = {"Content-Type": "application/json"}
        if parts.username is not None or parts.password is not None:
            import base64
            from urllib.parse import unquote

            pair = f"{unquote(parts.username or '')}:{unquote(parts.password or '')}"
            self.headers["Authorization"] = "Basic " + base64.b64encode(
                pair.encode("utf-8")).decode("ascii")
            host = parts.hostname + (f":{parts.port}" if parts.port is not None else "")
            parts = parts._replace(netloc=host)
        self.url = urlunsplit(parts)  # without its credentials
        self.name = "url:" + url_shown(url)

    def deliver(self, text: str) -> None:
        request = urllib.request.Request(self.url, data=text.encode("utf-8"),
                                         headers=self.headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                response.read()
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"HTTP {error.code}") from None
        except urllib.error.URLError as error:
            raise RuntimeError(f"{type(error.reason).__name__}: not reached") from None


class SentLog:
    """The IDs a sink took, one a line, fsynced: read at start."""

    def __init__(self, folder: Path, sink: Sink) -> None:
        digest = hashlib.sha256(sink.name.encode("utf-8")).hexdigest()[:12]
        self.path = folder / f"sent-{digest}.log"
        self.ids: set[str] = set()
        if self.path.exists():
            self.ids = set(self.path.read_text(encoding="utf-8", errors="replace").split())
        self.ids |= sink.already_sent()

    def add(self, finding_id: str) -> None:
        append_line(self.path, finding_id)
        self.ids.add(finding_id)


def append_line(path: Path, text: str) -> None:
    """`text` appended as a line of its own, fsynced. After a last line a kill or a full
    disk cut (no newline), it begins on a new line, not glued to the cut one (one line no
    reader parses: a finding lost to the alert file's reader, an ID not known as sent)."""
    with open(path, "a+b") as handle:
        cut = False
        if os.fstat(handle.fileno()).st_size > 0:
            handle.seek(-1, os.SEEK_END)
            cut = handle.read(1) != b"\n"
        handle.write((b"\n" if cut else b"") + text.encode("utf-8") + b"\n")
        handle.flush()
        os.fsync(handle.fileno())


class SinkWorker:
    """A sink's thread: findings in order, each retried with back-off until taken."""

    def __init__(self, sink: Sink, folder: Path, tell: Callable[[str], None],
                 sent_at: Callable[[str, float], None] | None = None) -> None:
        self.sink = sink
        self.log = SentLog(folder, sink)
        self.tell = tell
        self.sent_at = sent_at
        self.queue: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.queued: set[str] = set()
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, name=f"alerts {sink.name}",
                                       daemon=True)
        self.stopping = threading.Event()
        self.given_up = False  # stopped, the thread still running: it writes nothing more
        self.refused_at_stop = False  # the sink refused as the worker stopped: no more tries
        self.thread.start()

    def offer(self, finding: dict[str, Any]) -> None:
        with self.lock:
            if finding["id"] in self.log.ids or finding["id"] in self.queued:
                return
            self.queued.add(finding["id"])
        self.queue.put(finding)

    def pending(self) -> int:
        return self.queue.unfinished_tasks

    def stop(self, wait: float = 5.0) -> None:
        """Stop taking findings; wait up to `wait` seconds for the one being sent (it is
        logged if its sink takes it). A sink still not done then is given up: whatever it
        does after, this worker writes nothing more (its watch may let go of the state
        folder to another, which read the sent-log at its start)."""
        self.begin_stop()
        self.thread.join(wait)
        with self.lock:
            self.given_up = self.thread.is_alive()

    def begin_stop(self) -> None:
        """Ask the thread to end after the finding it sends now (see `stop`)."""
        self.stopping.set()
        self.queue.put(None)

    def _run(self) -> None:
        while True:
            finding = self.queue.get()
            try:
                if finding is None or self.refused_at_stop:
                    return  # those still queued are not in the sent-log: sent after restart
                self._send(finding)
            finally:
                self.queue.task_done()

    def _send(self, finding: dict[str, Any]) -> None:
        text = alert_text(finding)
        delay = BACKOFF_FIRST
        while True:
            try:
                self.sink.deliver(text)
                break
            except SinkClosed:
                return  # ended with the watch: not in the sent-log, sent after the restart
            except subprocess.TimeoutExpired:
                why = f"no answer within {self.sink.timeout:g} s"
            except Exception as error:  # any failure is told and retried, never a loss
                why = _one_line(error)
            if self.stopping.is_set():  # what is queued is flushed to a sink that takes it,
                self.refused_at_stop = True  # not tried one by one on one that refuses
                return
            self.tell(f"auditor: watch: alert {finding['id']} not taken by {self.sink.name} "
                      f"({why}); retrying in {delay:g} s")
            if self.stopping.wait(delay):
                self.refused_at_stop = True
                return  # stopped: not in the sent-log, so sent after the restart
            delay = min(delay * 2, BACKOFF_MOST)
        while True:  # taken: counted once its ID is on disk
            try:
                with self.lock:
                    if self.given_up:
                        return  # not in the sent-log: sent again after the restart
                    self.log.add(finding["id"])
                break
            except OSError as error:
                self.tell(f"auditor: watch: the sent-log {self.log.path} cannot be written "
                          f"({_one_line(error)}); retrying in 1 s")
                if self.stopping.wait(1.0):
                    return
        if self.sent_at is not None:
            self.sent_at(finding["id"], time.time())


# Characters JSON leaves raw that some readers end a line at (Python's str.splitlines,
# JavaScript before ES2019): escaped, so an alert is one line under any reader's splitting
_LINE_BREAKS = str.maketrans({"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"})


def alert_text(finding: dict[str, Any]) -> str:
    """The finding as one line of JSON: its record text's line breaks all escaped."""
    return json.dumps(finding, ensure_ascii=False, separators=(",", ":")).translate(
        _LINE_BREAKS)


def _one_line(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return " ".join(text.split())[:300]
