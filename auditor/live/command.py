"""`auditor watch PATH...`: the command line of auditor/live/watch.py."""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import signal
import sys
import threading
from typing import Any

from auditor.live.floor import LiveFloor
from auditor.refusal import Refused

WATCH_EPILOG = """\
alerts: each finding at or above --alert-on, once, as findings.json holds it (one JSON
  object): a line of --alert-jsonl, the standard input of --alert-command (run without a
  shell), the body of a POST to --alert-url. A sink that fails is told in one line and
  retried with back-off; what each sink took is kept in the state folder, so a restart
  sends nothing twice.

the gaming day: at its close (the settings' gaming-day-starts, time-zone), once its
  records have not grown for --close-grace seconds, they are audited as `auditor audit`
  audits them and recorded in the store as one run (outputs in OUT/<gaming day>). Stopped
  by a signal, watch records nothing more: `auditor audit` of the files can be run.

exit codes:
  0  stopped by SIGINT or SIGTERM
  2  the command was misused: a PATH that does not exist, a bad sink, the settings or
     the state folder
  3  the auditor itself failed (a bug: please report it), or memory ran out
"""

# What the watch cannot use is a `WatchError` (exit 2); any other file error is its own
# failure, exit 3 (auditor/commands/guard.py).
OS_ERRORS_REFUSED = False
# A store failing while the watch runs is told and tried again (docs/live.md), never an
# exit: a database error that reaches the guard is the watch's own failure, exit 3, not
# "store … cannot be read" (exit 2 is for misuse alone).
STORE_FAULTS_REFUSED = False


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "watch", help="follow records as the tables write them: judge each round at its "
                      "end, alert, record each gaming day",
        description="Follow every *.bjh under the paths as the tables write them; judge each "
                    "round as soon as its `end` line is written (the rules, house rules, "
                    "settings and finding IDs of `auditor audit`) and alert its findings.",
        epilog=WATCH_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="a record, or a folder: every *.bjh under it, new ones too")
    parser.add_argument("--store", default=None, metavar="PATH_OR_URL",
                        help="the run store each gaming day's run is recorded in (as "
                             "`auditor audit --store`)")
    parser.add_argument("--config", default=None, metavar="FILE",
                        help="the settings file (as `auditor audit --config`)")
    parser.add_argument("--out", default=None, metavar="DIR",
                        help="where each gaming day's outputs go, in DIR/<gaming day> "
                             "(default: the settings' out, else reports)")
    parser.add_argument("--state", default=None, metavar="DIR",
                        help="where the sent-logs and the days recorded are kept (default: "
                             "OUT/.watch)")
    parser.add_argument("--alert-on", default="high", choices=("low", "medium", "high"),
                        help="the least severity alerted (default: high)")
    parser.add_argument("--alert-jsonl", default=None, metavar="FILE",
                        help="append each alert to FILE, one JSON object a line")
    parser.add_argument("--alert-command", default=None, metavar="CMD",
                        help="run CMD (split as a shell would, run without one) with each "
                             "alert on its standard input")
    parser.add_argument("--alert-url", default=None, metavar="URL",
                        help="POST each alert to URL (retried with back-off; its password "
                             "is never shown)")
    parser.add_argument("--command-timeout", type=float, default=10.0, metavar="SECONDS",
                        help="how long --alert-command may run before it counts as failed "
                             "(default 10)")
    parser.add_argument("--poll", type=float, default=0.25, metavar="SECONDS",
                        help="how often each record is looked at (default 0.25)")
    parser.add_argument("--close-grace", type=float, default=120.0, metavar="SECONDS",
                        help="how long a closed gaming day's records must be still before "
                             "its run is recorded (default 120)")
    parser.add_argument("--serve", default=None, metavar="[HOST:]PORT",
                        help="serve the live page (docs/live-page.md) on PORT of the loopback "
                             "address, or of HOST; the page has no login: serve it beyond "
                             "this machine only on the surveillance room's own network")
    parser.add_argument("--max-age", type=float, default=24.0, metavar="HOURS",
                        help="records untouched for longer are left alone until they "
                             "change (default 24)")


def options_of(arguments: argparse.Namespace) -> Any:
    """The `WatchOptions` of parsed `auditor watch` arguments."""
    from auditor.live.watch import WatchOptions

    return WatchOptions(
        paths=arguments.paths, store=arguments.store, config=arguments.config,
        state=arguments.state, out=arguments.out, alert_on=arguments.alert_on,
        alert_jsonl=arguments.alert_jsonl, alert_command=arguments.alert_command,
        alert_url=arguments.alert_url, command_timeout=arguments.command_timeout,
        poll=arguments.poll, close_grace=arguments.close_grace,
        max_age_hours=arguments.max_age)


def run(arguments: argparse.Namespace, floor: Any = None,
        stop: threading.Event | None = None) -> int:
    """`auditor watch`: until SIGINT or SIGTERM (or `stop`), writing `floor` if given."""
    from auditor.live.watch import run_watch

    options = options_of(arguments)
    # `not x > 0`, not `x <= 0`: NaN is neither (a wait for NaN seconds never ended: the
    # watch did not stop on SIGTERM); infinity is no number of seconds either
    numbers = (options.poll, options.command_timeout, options.max_age_hours,
               options.close_grace)
    if not all(math.isfinite(number) for number in numbers) or not options.poll > 0 \
            or not options.command_timeout > 0 or not options.max_age_hours > 0 \
            or not options.close_grace >= 0:
        raise Refused("auditor: watch: --poll, --command-timeout and --max-age must be "
                      "numbers above 0, --close-grace 0 or more")
    stop = stop or threading.Event()
    signals = _Signals(stop) if threading.current_thread() is threading.main_thread() \
        else None
    page = None
    try:
        if arguments.serve is not None:
            floor = floor if floor is not None else LiveFloor()
            page = _start_page(arguments.serve, floor, options.store, stop)
        return run_watch(options, floor, stop)
    finally:
        if page is not None:
            stop.set()
            page.join(5.0)
        if signals is not None:
            signals.close()


class _Signals:
    """SIGINT and SIGTERM set `stop`, from a thread of their own: a handler runs in the
    main thread between two of its steps, perhaps while that thread holds the lock
    `Event.set` takes (the watch's wait on `stop` holds it at each poll), and a `set` in
    the handler then waited for its own thread for ever. The handler only writes a byte
    to a pipe, which takes no lock. `close` puts the caller's handlers back."""

    def __init__(self, stop: threading.Event) -> None:
        self.reading, self.writing = os.pipe()
        self.closed = False
        os.set_blocking(self.writing, False)
        self.thread = threading.Thread(target=self._wait, args=(stop,), name="signals",
                                       daemon=True)
        self.thread.start()
        self.handlers = {number: signal.signal(number, self._handle)
                         for number in (signal.SIGINT, signal.SIGTERM)}

    def _handle(self, *_: Any) -> None:
        if self.closed:  # a handler left in place (see close): its pipe's number is reused
            return
        with contextlib.suppress(OSError):  # a byte already waiting: the stop is coming
            os.write(self.writing, b"s")

    def _wait(self, stop: threading.Event) -> None:
        if os.read(self.reading, 1):  # empty: closed, the watch ended otherwise
            stop.set()

    def close(self) -> None:
        for number, handler in self.handlers.items():
            if handler is not None:  # (None: one not set from Python, left as it is)
                signal.signal(number, handler)
        self.closed = True
        os.close(self.writing)
        self.thread.join()
        os.close(self.reading)


def _start_page(address: str, floor: LiveFloor, store: str | None,
                stop: threading.Event) -> threading.Thread:
    """The live page served in a thread until `stop`; refused where the address is not one
    or cannot be listened on."""
    from auditor.live.page import listen, serve, serve_address
    from auditor.shown import visible

    try:
        host, port = serve_address(address)
        sock = listen(host, port)
    except (ValueError, OSError) as error:
        why = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise Refused(f"auditor: watch: --serve {address}: {why}") from error
    bound = sock.getsockname()[1]
    shown_host = f"[{host}]" if ":" in host else host
    print(visible(f"auditor: watch: the live page is at http://{shown_host}:{bound}/"),
          file=sys.stderr, flush=True)
    thread = threading.Thread(target=serve, args=(floor, host, port, stop),
                              kwargs={"store_url": store, "sock": sock},
                              name="live page", daemon=True)
    thread.start()
    return thread
