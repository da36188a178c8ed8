"""`auditor watch`: the loop. Every `poll` seconds each followed record is stat'ed and its new
complete rounds judged (auditor/live/follow.py, piece_audit.py); each finding at or above the
alert level goes to every sink (auditor/live/alerts.py) and to the live floor; at the close
of a gaming day its records are audited as `auditor audit` audits them, in a process of its
own, and recorded in the store as one finished run (the findings of the checks across
files, which join the day's files, are alerted then, and anything the run finds that was
not alerted live: lines after a record's last `end` that no `close` follows).

A day is recorded once: when the settings' gaming day has closed on the wall clock and its
records have not grown for `close_grace` seconds (a table's last lines land). The days
recorded are kept in the state folder, so a restart does not record one again. Stopped by
a signal, the loop ends without recording the day: the day is recorded at its close, and
`auditor audit` of its files can always be run.

Nothing of the night's lines is kept: a file's judging holds the table's state and its
findings' identities; the day's run reads the files again.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from datetime import time as clock_time
from pathlib import Path
from typing import Any

from auditor.gaming_day import Calendar
from auditor.live.alerts import (
    CommandSink,
    JsonlSink,
    Sink,
    SinkWorker,
    UrlSink,
    append_line,
    at_or_above,
)
from auditor.live.floor import LiveFloor, TableState
from auditor.live.follow import Folders, Followed
from auditor.selection import Judging
from auditor.shown import visible
from auditor.source import UnreadableFile


class WatchError(Exception):
    """The watch cannot begin (a sink, the state folder, the settings): one line."""


@dataclass
class WatchOptions:
    paths: list[str]
    store: str | None = None
    config: str | None = None
    state: str | None = None  # sent-logs and the days recorded (default: OUT/.watch)
    out: str | None = None  # each day's outputs in OUT/<gaming day> (default: settings, reports)
    alert_on: str = "high"
    alert_jsonl: str | None = None
    alert_command: str | None = None
    alert_url: str | None = None
    command_timeout: float = 10.0
    poll: float = 0.25
    rescan: float = 2.0  # seconds between looks for new records
    close_grace: float = 120.0
    max_age_hours: float = 24.0  # a record untouched for longer is not followed (old nights)
    retry_seconds: float = 60.0  # before a day's run that failed is tried again
    flags_every: float = 60.0  # seconds between reads of the store's trend flags for the page
    record_days: bool = True
    clock: Callable[[], datetime] | None = None  # the wall clock (tests give their own)
    tell: Callable[[str], None] | None = None  # one line each: stderr by default
    sent_at: Callable[[str, float], None] | None = None  # (finding ID, when a sink took it)
    extra_sinks: list[Sink] = field(default_factory=list)


class Watch:
    """`run(stop)` until `stop` is set; thread-safe to stop from another thread."""

    def __init__(self, options: WatchOptions, floor: LiveFloor | None = None) -> None:
        from auditor.settings import SettingsError, find_settings

        self.options = options
        self.floor = floor
        missing = [path for path in options.paths if not os.path.exists(path)]
        if missing:  # a folder the tables have not made yet is made by them, not waited for
            raise WatchError(f"{missing[0]}: no such file or folder")
        self._tell = options.tell or _stderr
        try:
            self.settings = find_settings(options.config)
        except SettingsError as error:
            raise WatchError(f"settings: {error}") from None
        self.calendar: Calendar = self.settings.calendar()
        self.judging = _judging(self.settings)
        self.waivers = None
        if self.settings.waivers:
            from auditor.waivers import WaiverFileError, load_waivers

            try:
                self.waivers = load_waivers(self.settings.waivers)
            except WaiverFileError as error:
                raise WatchError(f"waivers: {error}") from None
        self.out = Path(options.out or self.settings.out or "reports")
        self.state = Path(options.state) if options.state else self.out / ".watch"
        try:
            self.state.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise WatchError(f"the state folder {self.state} cannot be made "
                             f"({error.strerror})") from None
        self._lock = _hold(self.state)  # before the sent-logs are read
        sinks: list[Sink] = list(options.extra_sinks)
        try:
            if options.alert_jsonl is not None:
                sinks.append(JsonlSink(options.alert_jsonl))
            if options.alert_command is not None:
                sinks.append(CommandSink(options.alert_command, options.command_timeout))
            if options.alert_url is not None:
                sinks.append(UrlSink(options.alert_url))
        except ValueError as error:
            for sink in sinks:
                sink.close()
            self._lock.close()
            raise WatchError(str(error)) from None
        self.workers = [SinkWorker(sink, self.state, self.tell, options.sent_at)
                        for sink in sinks]
        self.followed: dict[str, Followed] = {}
        self.skipped: dict[str, float] = {}  # old records left alone, by their mtime then
        self.failing: dict[str, str] = {}  # files that could not be read, and why
        self.floor_ids: set[str] = set()
        self.days_log = self.state / "days.log"
        self.recorded_days = set(self.days_log.read_text(encoding="utf-8").split()) \
            if self.days_log.exists() else set()
        self.last_growth: dict[str, float] = {}  # gaming day -> when its files last grew
        self.recording: threading.Thread | None = None
        self.next_attempt: dict[str, float] = {}
        self.folders = Folders(options.paths)
        self.gaming_day: str | None = None
        self.flags_shown: tuple | None = None
        self.next_flags = 0.0  # when the store's flags are read again for the page
        self.flags_reader: threading.Thread | None = None
        self.passes = 0  # the loop's passes ended: each file's lines read by then are judged

    def tell(self, text: str) -> None:
        self._tell(visible(" ".join(text.splitlines())))

    # --- the loop

    def run(self, stop: threading.Event) -> int:
        next_scan = 0.0
        try:
            while not stop.is_set():
                now = time.monotonic()
                if now >= next_scan:
                    self._scan()
                    next_scan = now + self.options.rescan
                for followed in list(self.followed.values()):
                    self._poll(followed)
                if self.options.record_days:
                    self._close_days()
                if now >= self.next_flags and self.floor is not None and not (
                        self.flags_reader is not None and self.flags_reader.is_alive()):
                    # in a thread: loading the trends' reader takes seconds, and a store
                    # may be slow to answer; the rounds are judged meanwhile
                    reader = threading.Thread(target=self._show_flags, name="trend flags",
                                              daemon=True)
                    reader.start()
                    self.flags_reader = reader  # seen by others only once started
                    self.next_flags = now + self.options.flags_every
                self.passes += 1
                stop.wait(self.options.poll)
        finally:
            # Each sink's alert under way is taken and logged, or given up, before the state
            # folder is let go: a watch started on it then reads every ID taken. A command
            # is ended at once; a URL is waited for within its time.
            for worker in self.workers:
                worker.begin_stop()
                worker.sink.interrupt()
            for worker in self.workers:
                worker.stop(wait=getattr(worker.sink, "timeout", 0.0) + 2.0)
                worker.sink.close()
            if self.recording is not None:
                self.recording.join(1.0)
            self._lock.close()  # another watch may take the state folder now
        return 0

    def drain(self, timeout: float = 10.0) -> bool:
        """Wait until every sink has sent what it was given (for tests and the day's end)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(worker.pending() == 0 for worker in self.workers):
                return True
            time.sleep(0.02)
        return False

    def _scan(self) -> None:
        try:
            found = self.folders.records()
        except OSError as error:
            self.tell(f"auditor: watch: the paths cannot be listed ({error.strerror})")
            return
        cutoff = time.time() - self.options.max_age_hours * 3600
        present = set(found)
        # a record followed that the list names by another name now (a link to it made,
        # sorting first: each file is listed once): followed on under its own name
        followed_files = {f.identity: path for path, f in self.followed.items()}
        for path in found:
            if path in self.followed:
                continue
            try:
                status = os.stat(path)
            except OSError:
                continue
            modified = status.st_mtime
            known = followed_files.get((status.st_dev, status.st_ino))
            if known is not None and _same_file(known, status):
                present.add(known)
                continue
            if modified < cutoff and self.skipped.get(path, modified) == modified:
                self.skipped[path] = modified  # an old night's record: left alone
                continue
            self.skipped.pop(path, None)
            self.followed[path] = Followed(path, self.calendar, self.judging, self.waivers)
        for path in list(self.followed):
            if path not in present:
                self._gone(path)

    def _gone(self, path: str) -> None:
        del self.followed[path]
        self.failing.pop(path, None)
        self.tell(f"auditor: watch: {path} is gone (renamed or removed); no longer followed")
        self._notice(f"{path} is gone (renamed or removed); no longer followed", path)

    def _poll(self, followed: Followed) -> None:
        path = followed.path
        try:
            change = followed.poll()
        except FileNotFoundError:
            self._gone(path)
            return
        except UnreadableFile as error:  # as the audit refuses it: its rounds not judged
            why = str(error)
            if self.failing.get(path) != why:
                self.failing[path] = why
                self.tell(f"auditor: watch: {why}; not judged further, as `auditor audit` "
                          "refuses it")
                self._notice(f"{why}; not judged further", path)
            return
        except OSError as error:
            why = error.strerror or type(error).__name__
            if self.failing.get(path) != why:
                self.failing[path] = why
                self.tell(f"auditor: watch: {path} cannot be read ({why}); trying again")
                self._notice(f"{path} cannot be read ({why})", path)
            return
        except Exception as error:  # a bug judging one file: told, the others go on
            why = f"{type(error).__name__}: {error}"
            if self.failing.get(path) != why:
                self.failing[path] = why
                self.tell(f"auditor: watch: {path} could not be judged ({why}); "
                          "the day's run audits it")
            return
        self.failing.pop(path, None)
        if change is None:
            return
        if change.restarted:
            self.tell(f"auditor: watch: {path} was {change.restarted}; read again from its "
                      "start")
            self._notice(f"{path} was {change.restarted}; read again from its start", path)
            followed.findings, followed.last_round = 0, None
        record = followed.audit
        outcome = change.outcome
        # the days the record is being written in: its last round's, and those of the
        # rounds just judged (a day is recorded once its records are quiet in it)
        growing = {record.last_gaming_day} | (outcome.gaming_days if outcome else set())
        for day in growing - {None}:
            self.last_growth[day] = time.monotonic()
        if outcome is not None:
            for judged in outcome.judged:
                self._found(judged.finding, judged.severity, judged.lines, judged.waived)
        if self.floor is not None and followed.named:  # never a row under its path first
            if outcome is not None:
                followed.findings += len(outcome.judged)
                followed.last_round = outcome.last_round or followed.last_round
            shown = (record.table_key or path, record.game, record.dealer, followed.last_round,
                     change.open_round, record.rounds, followed.findings)
            if shown != followed.shown:  # a change the page shows, not every line read
                followed.shown = shown
                self.floor.update_table(TableState(
                    key=shown[0], file=path, game=record.game, dealer=record.dealer,
                    last_round=followed.last_round, open_round=change.open_round,
                    rounds=record.rounds, findings=followed.findings,
                    updated=datetime.now(UTC).isoformat(timespec="seconds")))

    def _found(self, finding: dict[str, Any], severity: str, lines: dict[int, str],
               waived: bool = False) -> None:
        if at_or_above(severity, self.options.alert_on) and not waived:
            for worker in self.workers:
                worker.offer(finding)
        if self.floor is not None and finding["id"] not in self.floor_ids:
            self.floor_ids.add(finding["id"])
            self.floor.add_finding(finding, lines)

    def _show_flags(self) -> None:
        """The units `auditor trends` flagged on the last night it judged, read from the
        store for the page (trends runs apart, after each night's run: its cron line)."""
        if self.floor is None:
            return
        from auditor.store import StoreError, open_store
        from auditor.store.engine import StoreNotMade, sqlite_path
        from auditor.store_location import choose_store
        from auditor.trends.flags import latest

        try:
            # the store each day's run is recorded in (as `auditor audit` chooses it)
            location = choose_store(self.options.store, self.settings.store).location
        except StoreError as error:
            self._failed_flags(str(error))
            return
        path = sqlite_path(location)
        if path is not None and not path.exists():
            return  # no day recorded yet: no flags, and nothing to say
        try:
            engine = open_store(location, read_only=True, upgrade=False)  # never written
            try:
                night, flags = latest(engine)
            finally:
                engine.dispose()
        except StoreNotMade:
            return  # the first day's run is making it: no flags yet, nothing to say
        except StoreError as error:
            self._failed_flags(str(error))
            return
        except Exception as error:  # the store's server gone, say: told once, tried again
            self._failed_flags(f"{type(error).__name__}")
            return
        shown = (night, tuple(tuple(sorted(flag.items())) for flag in flags))
        if shown != self.flags_shown:
            self.flags_shown = shown
            self.floor.set_flags([{"night": night, **flag} for flag in flags])

    def _failed_flags(self, why: str) -> None:
        if self.flags_shown != ("failed", why):
            self.flags_shown = ("failed", why)
            self.tell(f"auditor: watch: the trend flags cannot be read from the store "
                      f"({why}); trying again")
            self._notice(f"the trend flags cannot be read from the store ({why})")

    def _notice(self, text: str, file: str | None = None) -> None:
        if self.floor is not None:
            self.floor.notice(text, file)

    # --- the close of a gaming day

    def _close_days(self) -> None:
        if self.recording is not None and self.recording.is_alive():
            return
        now = (self.options.clock or _now)()
        days = set().union(*(f.audit.gaming_days for f in self.followed.values()))
        for day in sorted(days - self.recorded_days):
            if now < self._closes(day):
                continue
            quiet = time.monotonic() - self.last_growth.get(day, 0.0)
            if quiet < self.options.close_grace:
                continue
            if time.monotonic() < self.next_attempt.get(day, 0.0):
                continue
            # every record with a round of the day: one dealt past the day's start hour is
            # in the run of each of its days, as `auditor audit` splits it into table-nights
            files = sorted(f.path for f in self.followed.values() if day in f.audit.gaming_days)
            if self.floor is not None and (self.gaming_day is None or day >= self.gaming_day):
                following = (date.fromisoformat(day) + timedelta(days=1)).isoformat()
                self.gaming_day = following
                self.floor.new_gaming_day(following)
                self.floor_ids.clear()
            self.recording = threading.Thread(target=self._record_guarded, args=(day, files),
                                              name=f"record {day}", daemon=True)
            self.recording.start()
            return

    def _closes(self, day: str) -> datetime:
        """When gaming day `day` closes: the next day's start, in the tables' time zone."""
        try:
            following = date.fromisoformat(day) + timedelta(days=1)
        except ValueError:
            return datetime.max.replace(tzinfo=UTC)  # a date written wrongly: never by clock
        zone = _zone(self.calendar.time_zone)
        return datetime.combine(following, clock_time(self.calendar.day_starts), tzinfo=zone)

    def _record_guarded(self, day: str, files: list[str]) -> None:
        try:
            self.record_day(day, files)
        except Exception as error:  # the state folder's disk, say: told, tried again
            self.tell(f"auditor: watch: gaming day {day} could not be recorded "
                      f"({type(error).__name__}: {error}); trying again in "
                      f"{self.options.retry_seconds:g} s")
            self.next_attempt[day] = time.monotonic() + self.options.retry_seconds

    def record_day(self, day: str, files: list[str]) -> bool:
        """Audit the day's records as `auditor audit` does, recording the run in the store;
        then alert its findings not alerted yet. False (told, retried later) on failure."""
        out = self.out / day
        marker = self.state / f"recording-{day}"
        if not self._ran_before(day, marker, out):
            command, environment = day_command(files, out, self.options.store,
                                               self.options.config)
            said_log = self.state / f"recording-{day}.log"  # a file: it outlives this watch
            began = time.time()
            try:
                with open(said_log, "wb") as said_to:
                    process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                               stdout=subprocess.DEVNULL, stderr=said_to,
                                               env=environment)
            except OSError as error:
                self.tell(f"auditor: watch: the run of gaming day {day} could not start "
                          f"({error.strerror}); trying again in "
                          f"{self.options.retry_seconds:g} s")
                self.next_attempt[day] = time.monotonic() + self.options.retry_seconds
                return False
            # A watch killed while the audit runs leaves it running: started again, it
            # finds the marker and waits for that audit rather than run the day twice.
            marker.write_text(f"{process.pid} {time.time()}\n", encoding="utf-8")
            process.wait()
            said = said_log.read_text(encoding="utf-8", errors="replace").strip().splitlines()
            said_log.unlink(missing_ok=True)
            if process.returncode not in (0, 1) and not _refused_inputs(out, began):
                marker.unlink(missing_ok=True)
                self.tell(f"auditor: watch: the run of gaming day {day} failed (exit "
                          f"{process.returncode}: {said[-1] if said else 'no message'}); "
                          f"trying again in {self.options.retry_seconds:g} s")
                self.next_attempt[day] = time.monotonic() + self.options.retry_seconds
                return False
        try:
            document = json.loads((out / "findings.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            self.tell(f"auditor: watch: gaming day {day} was recorded, but its findings.json "
                      f"cannot be read ({error}); its late findings are not alerted")
            document = {"findings": []}
        for finding in document.get("findings", []):
            # the day's own: a record written into the next day is in that day's run too,
            # and its findings of that day are that run's to alert (this run read the
            # record, and the other records of the checks across files, only in part)
            if finding.get("gaming_day") not in (day, None):
                continue
            if at_or_above(finding.get("severity", "low"), self.options.alert_on) \
                    and finding.get("waiver") is None:
                for worker in self.workers:
                    worker.offer(finding)
        append_line(self.days_log, day)  # a line of its own, after one a kill cut
        self.recorded_days.add(day)
        # the marker goes once the day is in days.log: a watch killed, or a days.log that
        # could not be written, before then takes the audit done, never runs it again
        marker.unlink(missing_ok=True)
        refused = sum(1 for entry in document.get("inputs", []) if entry.get("error"))
        self.tell(f"auditor: watch: gaming day {day} recorded ({len(files)} records; "
                  f"outputs in {out})" + (f"; {refused} of them could not be audited (named "
                                          "in its findings.json)" if refused else ""))
        return True


    def _ran_before(self, day: str, marker: Path, out: Path) -> bool:
        """Whether an audit of the day begun by a watch before this one (killed meanwhile)
        wrote its outputs; while it still runs, this waits for it."""
        if not marker.exists():
            return False
        try:
            pid_text, began_text = marker.read_text(encoding="utf-8").split()
            pid, began = int(pid_text), float(began_text)
        except (OSError, ValueError):
            marker.unlink(missing_ok=True)
            return False
        while _is_audit(pid):
            time.sleep(1.0)
        findings = out / "findings.json"
        if findings.exists() and findings.stat().st_mtime >= began:
            return True  # the marker stays until the day is in days.log
        marker.unlink(missing_ok=True)
        return False


def _refused_inputs(out: Path, began: float) -> bool:
    """Whether a day's run that exited 2 did so for records it could not audit (the run
    finished and recorded, its outputs written, each such record named in them), not for
    the store or the settings failing: then the day is recorded, not run again (each run
    again would record the day once more)."""
    findings = out / "findings.json"
    try:
        if findings.stat().st_mtime < began:
            return False
        document = json.loads(findings.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return any(entry.get("error") for entry in document.get("inputs", []))


def day_command(files: list[str], out: Path, store: str | None,
                config: str | None) -> tuple[list[str], dict[str, str]]:
    """The day's `auditor audit` and its environment. The store goes in the environment
    (`BJH_STORE`, which only --store outranks), never on the command line: any user of the
    machine reads a command line (ps), and a store URL may hold a password."""
    command = [sys.executable, "-m", "auditor", "audit", *files, "--out", str(out), "--quiet"]
    environment = dict(os.environ)
    if store:
        environment["BJH_STORE"] = store
    if config:
        command += ["--config", config]
    return command, environment


def _hold(state: Path) -> Any:
    """The state folder's lock, held while the watch runs: a second watch on the same
    folder would alert every finding again (each reads the sent-logs only at start) and
    record each day twice, so it refuses."""
    import fcntl

    try:
        handle = open(state / "watch.lock", "a", encoding="utf-8")  # noqa: SIM115 (held)
    except OSError as error:
        raise WatchError(f"the state folder {state} cannot be written "
                         f"({error.strerror})") from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise WatchError(f"another watch uses the state folder {state} (two would alert "
                         "every finding twice)") from None
    return handle


def _same_file(path: str, status: os.stat_result) -> bool:
    """Whether `path` is still the file `status` is of."""
    try:
        own = os.stat(path)
    except OSError:
        return False
    return (own.st_dev, own.st_ino) == (status.st_dev, status.st_ino)


def _is_audit(pid: int) -> bool:
    """Whether process `pid` is alive and an auditor (not another that took its number)."""
    try:
        return b"auditor" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def run_watch(options: WatchOptions, floor: LiveFloor | None,
              stop: threading.Event) -> int:
    """Follow, judge and alert until `stop` is set (the page runs this in a thread).
    Raises WatchError if it cannot begin."""
    return Watch(options, floor).run(stop)


def _judging(settings: Any) -> Judging | None:
    """What the settings select, as `audit` takes it (none: everything)."""
    from auditor.approvals import ApprovalFileError, load_approvals
    from auditor.selection import SelectionError, judging_for

    if not (settings.select or settings.ignore or settings.approved):
        return None
    try:
        approvals = load_approvals(settings.approved) if settings.approved else None
        return judging_for(settings.select or [], settings.ignore or [], approvals)
    except (ApprovalFileError, SelectionError) as error:
        raise WatchError(f"settings: {error}") from None


def _zone(name: str | None):
    if name:
        from auditor.clock import zone

        return zone(name)
    return datetime.now().astimezone().tzinfo


def _now() -> datetime:
    return datetime.now(UTC)


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
