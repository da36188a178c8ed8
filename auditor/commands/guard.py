"""The one guard every command runs under (auditor/cli.py): what a command raises is told
in one line on standard error with the exit code README.md documents.

- 2: what the auditor was given cannot be used (a refusal, the settings, the store, a
  case or manifest, a file or folder, the cluster, the watch's inputs);
- 3: the auditor itself failed (a bug): the exception's type only (its text may quote a
  record or a URL), the traceback in a log file the line names: `auditor-crash.log` in an
  audit's --out, else a file of the temporary folder;
- a reader of standard output that goes away (`| head`) ends the command quietly with
  the exit code it had reached.

Memory running out is the auditor's failure (3), never a refusal: a MemoryError, and an
OSError of errno ENOMEM (the system refusing memory to a file, a thread or a child process)
whatever file it names. Out of memory, telling may fail as well (as a MemoryError, or a
module that cannot be loaded): the exit code is decided before anything is allocated for
the line, the run's own data is let go first, the modules that tell errors apart are only
looked at if they were loaded, and if the line still cannot be made a line made in advance
is written instead, with the same exit code.

Every line is escaped (file names and settings are untrusted text: auditor/shown.py) and
any `scheme://user:password@` in it has its password hidden (auditor/store/urls.py)."""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import sys
from collections.abc import Callable
from pathlib import Path

from auditor.commands import EXIT_CLEAN, EXIT_CRASH, EXIT_ERROR
from auditor.refusal import Refused

CRASH_LOG = "auditor-crash.log"

Command = Callable[[argparse.Namespace], int]

# Written when even the line telling a failure cannot be made (memory exhausted), by its
# exit code: made when the module is loaded, so that writing one allocates nothing.
UNTOLD = {
    EXIT_CRASH: b"auditor: the auditor itself failed, and so did telling how (memory "
                b"exhausted?)\n",
    EXIT_ERROR: b"auditor: the command was refused, and telling why failed (memory "
                b"exhausted?)\n",
}


def guarded(run: Command, arguments: argparse.Namespace, os_errors_refused: bool = True,
            store_faults_refused: bool = True) -> int:
    """`run(arguments)`, its failures told in one line with their exit code.
    `os_errors_refused`: whether a file or folder that cannot be read or written is a
    refusal (exit 2) rather than the auditor's own failure (exit 3: an audit checks what
    it reads and writes before it begins, so one failing later, a full disk, is not).
    `store_faults_refused`: whether a database error that reaches the guard is the store
    refused (exit 2, "store … cannot be read") rather than the auditor's own failure
    (exit 3: the watch tells a store failing while it runs and tries again, so one that
    reaches the guard is a bug)."""
    try:
        return run(arguments)
    except BrokenPipeError:  # the reader stopped reading (`auditor runs --json | head`)
        from auditor.store_cli import quiet_stdout

        quiet_stdout()
        return getattr(arguments, "exit_code", EXIT_CLEAN)  # an audit's, once it is known
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as error:
        return _told(error, arguments, os_errors_refused, store_faults_refused)


def _told(error: Exception, arguments: argparse.Namespace, os_errors_refused: bool,
          store_faults_refused: bool) -> int:
    """`error` told in one line; its exit code. The code is 3 until the error is known to
    be a refusal, and stays what it is if telling it fails (memory exhausted, telling
    raises a MemoryError, or an ImportError or a ValueError from a module loaded then)."""
    code = EXIT_CRASH
    try:
        memory = memory_ran_out(error)
        if memory is not None:
            _let_go(error)
            return crashed(error, arguments, memory)
        line = refusal(error, arguments, os_errors_refused, store_faults_refused)
        if line is None:
            return crashed(error, arguments)
        code = EXIT_ERROR
        tell(line)
        return code
    except Exception:
        with contextlib.suppress(OSError):
            os.write(2, UNTOLD[code])
        return code


def memory_ran_out(error: BaseException) -> BaseException | None:
    """The error telling memory ran out (Python's MemoryError, or the system's ENOMEM):
    `error` itself, or what it was raised from or during (a handler that turned an OSError
    into a refusal of the file it names), else None."""
    seen = 0
    while error is not None and seen < 8:
        if isinstance(error, MemoryError) or (
                isinstance(error, OSError) and error.errno == errno.ENOMEM):
            return error
        error, seen = error.__cause__ or error.__context__, seen + 1
    return None


def _let_go(error: BaseException) -> None:
    """The locals of the frames `error` went through (the run's data, which took the
    memory) let go, so that telling it finds some; the traceback keeps every line."""
    seen = 0
    while error is not None and seen < 8:  # the error, and what it was raised during
        trace = error.__traceback__
        trace = trace.tb_next if trace is not None else None  # this guard's frame runs on
        while trace is not None:
            with contextlib.suppress(RuntimeError):  # a frame still running: kept
                trace.tb_frame.clear()
            trace = trace.tb_next
        error, seen = error.__context__, seen + 1


def tell(line: str) -> None:
    """One line on standard error, escaped, with any password of a URL hidden."""
    from auditor.shown import visible
    from auditor.store.urls import hide_secrets

    print(visible(hide_secrets(line)), file=sys.stderr)


def refusal(error: Exception, arguments: argparse.Namespace,
            os_errors_refused: bool = True, store_faults_refused: bool = True) -> str | None:
    """The line telling `error` if it is a refusal of what the auditor was given (exit 2);
    None for a failure of the auditor itself."""
    if isinstance(error, Refused):
        return str(error)
    if isinstance(error, _audit_failure()):
        return None
    store_line = _store_refusal(error, arguments, store_faults_refused)
    if store_line is not None:
        return store_line
    return _input_refusal(error, os_errors_refused)


def _store_refusal(error: Exception, arguments: argparse.Namespace,
                   store_faults_refused: bool = True) -> str | None:
    """The store failing, or refused. Its modules (SQLAlchemy) are only looked at if they
    were loaded: an error raised before them is none of theirs."""
    if "auditor.store.engine" not in sys.modules:
        return None
    from auditor.store.engine import (
        DatabaseFault,
        StoreError,
        StoreFailure,
        cause_of,
        is_store_fault,
    )
    from auditor.store.urls import shown

    recording = getattr(arguments, "store_location", None)  # an audit recording its run
    if recording is not None and (isinstance(error, StoreFailure) or is_store_fault(error)):
        run_id = getattr(error, "run_id", None) or getattr(arguments, "run_id", None)
        cause = error.cause if isinstance(error, StoreFailure) else cause_of(error)
        left = f"run {run_id} is left unfinished" if run_id else "no run was recorded"
        return (f"auditor: store {shown(recording)} failed during the audit ({cause}); "
                f"{left}, and {arguments.out} keeps the outputs it had")
    if isinstance(error, StoreError):
        return f"auditor: {error}"
    if store_faults_refused and recording is None and isinstance(error, DatabaseFault):
        store = str(getattr(arguments, "store", None) or "?")
        return f"auditor: store {shown(store)} cannot be read ({cause_of(error)})"
    return None


def _input_refusal(error: Exception, os_errors_refused: bool) -> str | None:
    """A settings file, a case or manifest, the cluster, the watch's inputs, a file or
    folder that cannot be used."""
    for module, name, prefix, code_points in _REFUSED_ELSEWHERE:
        kind = getattr(sys.modules.get(module), name, None)  # loaded only if it was used
        if kind is not None and isinstance(error, kind):
            return f"auditor: {prefix}{_code_points(error) if code_points else error}"
    if os_errors_refused and isinstance(error, OSError):  # the file, then why (as `cp` says)
        where = f"{error.filename}: " if error.filename else ""
        return f"auditor: {where}{error.strerror or error}"
    return None


def _code_points(error: Exception) -> str:
    """An error's text, its control characters as code points (`\\u001b`), as a case's
    and a manifest's have always been shown (auditor/verify.py)."""
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in str(error))


# The error types of modules a command loads only when it uses them: (module, type, what
# the line says before the error's own text, whether that text's controls are shown as
# code points rather than escapes).
_REFUSED_ELSEWHERE = (
    ("auditor.settings", "SettingsError", "settings: ", False),
    ("auditor.case.source", "CaseError", "", True),
    ("auditor.manifest", "ManifestError", "", True),
    ("auditor.cluster", "ClusterError", "", False),
    ("auditor.live.watch", "WatchError", "watch: ", False),
)


def _audit_failure() -> type | tuple[()]:
    """`AuditFailure` (a file's audit failing) if its module was loaded; else nothing can be
    one, and the module (pydantic's) is not loaded to say so."""
    results = sys.modules.get("auditor.results")
    return getattr(results, "AuditFailure", ())


def crashed(error: Exception, arguments: argparse.Namespace,
            named: BaseException | None = None) -> int:
    """A failure of the auditor itself told apart from findings: one line (naming the file
    an audit was on, and the error `named`, else what `error` was raised from), the
    traceback in a log it names, exit 3."""
    if isinstance(error, _audit_failure()):
        where = f" while auditing {error.path}"
    elif arguments.command == "audit":
        where = " after auditing the inputs"
    else:
        where = ""
    cause = named or error.__cause__ or error
    tell(f"auditor: the auditor itself failed{where} ({type(cause).__name__}); "
         f"{_log_traceback(arguments)}")
    return EXIT_CRASH


def _log_traceback(arguments: argparse.Namespace) -> str:
    """The traceback written where an audit writes its outputs (`crash_folder`), or else in
    a new file of the temporary folder; what the line says of it."""
    import tempfile
    import traceback

    from auditor.store.urls import hide_secrets

    told = hide_secrets(traceback.format_exc())  # a URL's password in a message neither
    folder = getattr(arguments, "crash_folder", None)
    try:
        if folder is not None:
            log = Path(folder) / CRASH_LOG
            log.parent.mkdir(parents=True, exist_ok=True)
            log.write_text(told, encoding="utf-8")
        else:
            handle, name = tempfile.mkstemp(prefix="auditor-crash-", suffix=".log")
            with open(handle, "w", encoding="utf-8") as stream:
                stream.write(told)
            log = Path(name)
    except OSError:
        return "and the traceback could not be written"
    return f"the traceback is in {log}"
