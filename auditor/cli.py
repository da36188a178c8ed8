"""The command line: `auditor audit`, `auditor rules`, `auditor simulate`, the run store's
commands and `auditor trends`."""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

from auditor import __version__
from auditor.policy import FAIL_ON_LEVELS
from auditor.shown import LazyTextConsole, visible

if TYPE_CHECKING:  # Rich is loaded when something is printed (auditor/shown.py)
    from rich.console import Console

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR, EXIT_CRASH = 0, 1, 2, 3
# Every command, in the order build_parser adds them (tests/test_lean_audit.py holds them
# to it).
COMMANDS = ("audit", "rules", "simulate", "runs", "report", "diff", "trends", "case", "verify",
            "keygen", "incidents", "watch")
CRASH_LOG = "auditor-crash.log"

AUDIT_EPILOG = """\
finding IDs:
  Every finding has a stable ID, BJH- and 16 hex digits: the SHA-256 of the table's
  identity (licence or else casino, and table ID), the gaming date, the shoe, the round
  ID, the time, the dealer, the citation, the seat and hand, the text of the line the
  finding stands on (no comment, single spaces; the message for a finding with no line)
  and an occurrence number for true repeats within one file. Line numbers, file names and
  the other files of the run are not part of it: inserting blank lines, comments or
  notes, renaming the file, or auditing it with others keeps every ID. See README.md.

waivers (--waivers FILE, TOML, one [[waiver]] table each):
  Match on id, or any of citation, table (T07 or LICENCE/T07), dealer, file (name or
  SHA-256), from/until (record dates); justification, approved_by and expires are
  required. A waiver holds until the END of its expires day, UTC. Waived findings stay in
  every output, marked; expired waivers are not applied and are reported; unused ones
  are listed.

settings: --config FILE, else [tool.bjh-auditor] in ./pyproject.toml, else
  ./bjh-auditor.toml (keys: waivers, baseline, fail-on, fail-on-new, jobs, out, store,
  scheduler, select, ignore, approved; paths relative to the file). Command-line flags
  win (--select/--ignore given on the command line replace the file's lists).

exit codes:
  0  no findings, or none that fails the run (see --fail-on)
  1  findings: an unwaived finding at or above the --fail-on severity (with
     --fail-on-new: a new one); see report.html, findings.json, findings.csv
  2  an input could not be read, or the waiver file, the baseline or the settings; or
     the command was misused
  3  the auditor itself failed (a bug: please report it with the input)
"""




def _text_console(**options) -> Console:
    from auditor.shown import TextConsole

    return TextConsole(**options)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with `command` "audit", that command's alone: it parses
    `auditor audit ...` as the whole parser does (a command's parser knows nothing of the
    others), and the other commands' modules are not loaded."""
    parser = argparse.ArgumentParser(
        prog="auditor", description="Audit BJH blackjack hand histories against "
                                    "S.D. Admin. R. chapter 20:18:15.")
    parser.add_argument("--version", action="version", version=f"auditor {__version__}")
    # Named in full in the usage line, even when only the audit's parser is built (the
    # usage printed with an unknown option's error is the same).
    commands = parser.add_subparsers(dest="command", required=True,
                                     metavar="{" + ",".join(COMMANDS) + "}"
                                     if command == "audit" else None)

    audit = commands.add_parser(
        "audit", help="audit files and folders of *.bjh records",
        description="Audit BJH hand histories: every round replayed and judged against\n"
                    "S.D. Admin. R. chapter 20:18:15 and the BJH format.",
        epilog=AUDIT_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    audit.add_argument("paths", nargs="+", metavar="PATH",
                       help="a BJH record (any name), or a folder: every *.bjh file under it, "
                            "subfolders included; give as many as you like")
    audit.add_argument("--out", default=None, metavar="DIR",
                       help="where findings.json, findings.csv, summary.csv and report.html "
                            "go (default: reports)")
    audit.add_argument("--jobs", type=int, default=None, metavar="N",
                       help="processes auditing in parallel (default: the machine's cores); "
                            "a file over 16 MiB is shared among them in pieces")
    audit.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="audit on the Dask cluster whose scheduler is at ADDRESS (such "
                            "as tcp://10.0.0.5:8786) instead of this machine's cores; needs "
                            "the `cluster` extra here and the same auditor on every worker")
    audit.add_argument("--waivers", default=None, metavar="FILE",
                       help="a TOML file of waivers: findings accepted for a reason until "
                            "the end of a day, UTC")
    audit.add_argument("--ignore-waivers", action="store_true",
                       help="audit as if there were no waiver file")
    audit.add_argument("--baseline", default=None, metavar="PATH|last|RUN",
                       help="an earlier findings.json; `last`: the latest finished run in "
                            "the store over the same inputs; or a run's number: mark findings "
                            "new or persisting and list the earlier ones now resolved. With "
                            "`last` or RUN, also the patterns (table, dealer, player × "
                            "citation) new, recurring or gone against that run, or with "
                            "`last` and other inputs, against the latest run over the same "
                            "tables (last night's)")
    audit.add_argument("--fail-on", default=None, choices=FAIL_ON_LEVELS,
                       help="exit 1 only for unwaived findings of this severity or above "
                            "(default: low; never: exit 0 whatever is found)")
    audit.add_argument("--fail-on-new", action="store_true", default=None,
                       help="with --baseline: only new findings fail the run")
    audit.add_argument("--select", action="append", default=None, metavar="WHAT",
                       help="judge only this: a citation or a prefix of one (20:18:15:30.10, "
                            "30.10(4)), a game (switch, db21, tensticks, ladies, standard) or "
                            "a rule (db21.past_posting); repeatable. Record findings are "
                            "always judged")
    audit.add_argument("--ignore", action="append", default=None, metavar="WHAT",
                       help="do not judge this (as --select names it); repeatable")
    audit.add_argument("--approved", default=None, metavar="FILE",
                       help="a TOML file of the licensees' approved house rules: a header "
                            "that declares others is a record:approval finding")
    audit.add_argument("--finished", action="store_true",
                       help="take every file as a finished record, though it has no `close`: "
                            "a round open at its end is judged (record:reference), not set "
                            "aside as still being dealt")
    audit.add_argument("--config", default=None, metavar="FILE",
                       help="a settings file (default: [tool.bjh-auditor] in ./pyproject.toml, "
                            "or ./bjh-auditor.toml)")
    audit.add_argument("--verbose", action="store_true",
                       help="print every finding's ID, severity, citation and place")
    audit.add_argument("--quiet", action="store_true", help="print nothing but errors")
    audit.add_argument("--store", default=None, metavar="PATH_OR_URL",
                       help="the run store this audit is recorded in: a SQLite file or a "
                            "database URL such as postgresql+psycopg://user@host/db "
                            "(default: $BJH_STORE, else the settings' store, else "
                            "$XDG_DATA_HOME/bjh-auditor/floor.sqlite: one floor history)")
    audit.add_argument("--new-store", action="store_true",
                       help="start a new run store at --store, making its folder: without "
                            "it a store path whose folder does not exist is refused")
    if command == "audit":
        return parser

    rules = commands.add_parser("rules", help="the rule base: what checks each citation")
    rules.add_argument("action", nargs="?", choices=["list", "show"], default="list")
    rules.add_argument("citation", nargs="?")
    rules.add_argument("--markdown", action="store_true", help="print the list as Markdown")
    rules.add_argument("--as-of", default=None, metavar="DATE",
                       help="the rules in force on this gaming date (YYYY-MM-DD), and those "
                            "whose text is in force only later"),

    from auditor.case.command import add_parsers as add_case_commands
    from auditor.incidents import add_parser as add_incidents
    from auditor.live.command import add_parser as add_watch
    from auditor.simulate.command import add_parser as add_simulate
    from auditor.store_cli import add_parsers as add_store_commands
    from auditor.trends.command import add_parser as add_trends

    add_simulate(commands)
    add_store_commands(commands)
    add_trends(commands)
    add_case_commands(commands)
    add_incidents(commands)
    add_watch(commands)
    return parser


def command_line() -> int:
    """The `auditor` command and `python -m auditor`: `main`, then every object left moved
    out of the collector's reach. The interpreter's exit still runs its handlers and closes
    its modules, but its last collections (a twentieth of a one-round audit, measured)
    walk nothing: whatever the run wrote is closed before `main` returns."""
    code = main()
    gc.freeze()
    return code


def main(argv: list[str] | None = None) -> int:
    # Importing what a command needs makes most of a process's long-lived objects and next
    # to no cycles: the collector's youngest generation is walked every 20,000 allocations
    # rather than 700 meanwhile (as in the audit itself, `run_audit`), and as before after.
    threshold = gc.get_threshold()
    gc.set_threshold(20_000, 20, 10)
    try:
        return _main(argv)
    finally:
        gc.set_threshold(*threshold)


def _main(argv: list[str] | None) -> int:
    words = sys.argv[1:] if argv is None else argv
    # The first word is the command unless it is an option (--version, --help).
    arguments = build_parser(words[0] if words else None).parse_args(argv)
    # an audit with --quiet prints only error lines: Rich is loaded if one is printed
    console = LazyTextConsole(soft_wrap=True) if arguments.command == "audit" \
        and arguments.quiet else _text_console(soft_wrap=True)
    try:
        return _run_command(arguments, console, argv)
    except BrokenPipeError:  # the reader stopped reading (`auditor runs --json | head`)
        from auditor.store_cli import quiet_stdout

        quiet_stdout()
        return getattr(arguments, "exit_code", EXIT_CLEAN)  # an audit's, once it is known


def _run_command(arguments: argparse.Namespace, console: Console,
                 argv: list[str] | None) -> int:
    if arguments.command == "rules":
        from auditor.rules_cli import show_rules

        return show_rules(arguments.action, arguments.citation, console, arguments.markdown,
                          arguments.as_of)
    if arguments.command == "simulate":
        from auditor.simulate.command import run as run_simulate

        return run_simulate(arguments, console)
    if arguments.command in ("case", "verify", "keygen"):
        from auditor.case.command import run as run_case

        return run_case(arguments, console, _text_console(stderr=True))
    if arguments.command == "watch":
        from auditor.live.command import run as run_watch

        return run_watch(arguments)
    if arguments.command in ("runs", "report", "diff", "trends", "incidents"):
        return store_command_guarded(arguments, console)
    return audit_guarded(arguments, console, argv)


def store_command_guarded(arguments: argparse.Namespace, console: Console) -> int:
    """`runs`, `report`, `diff` and `trends`, with what the store or the file system refuses
    told in one line and exit 2 (for `trends`, 1 means "something flagged": never an
    error); a failure of the auditor itself is exit 3."""
    from sqlalchemy.exc import SQLAlchemyError

    from auditor.settings import SettingsError
    from auditor.store import StoreError
    from auditor.store.engine import cause_of
    from auditor.store.urls import shown
    from auditor.store_location import command_store

    errors = _text_console(stderr=True)  # a message is one line
    try:
        # One floor history for every command (auditor/store_location.py).
        arguments.store = command_store(arguments.store, getattr(arguments, "config", None))
        if arguments.command == "trends":
            from auditor.trends.command import run as run_trends

            return run_trends(arguments, console, errors)
        if arguments.command == "incidents":
            from auditor.incidents import run as run_incidents

            return run_incidents(arguments, console, errors)
        from auditor.store_cli import run_command

        return run_command(arguments, console, errors)
    except (KeyboardInterrupt, SystemExit, BrokenPipeError):
        raise
    except StoreError as error:
        message = f"auditor: {error}"
    except SettingsError as error:
        message = f"auditor: settings: {error}"
    except SQLAlchemyError as error:
        message = f"auditor: store {shown(arguments.store)} cannot be read ({cause_of(error)})"
    except OSError as error:
        message = f"auditor: {error.strerror or error}" + (
            f": {error.filename}" if error.filename else "")
    except Exception as error:
        print(f"auditor: the auditor itself failed ({type(error).__name__}: "
              f"{cause_of(error)})", file=sys.stderr)
        return EXIT_CRASH
    print(message, file=sys.stderr)
    return EXIT_ERROR


def audit_guarded(arguments: argparse.Namespace, console: Console,
                  argv: list[str] | None) -> int:
    """`run_audit`, with a failure of the auditor itself told apart from findings: one line
    naming the file it was on, the traceback in --out's auditor-crash.log, exit 3."""
    import traceback

    from auditor.results import AuditFailure

    try:
        return audit_store_guarded(arguments, console, argv)
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as error:
        where = (f"while auditing {error.path}" if isinstance(error, AuditFailure)
                 else "after auditing the inputs")
        log = Path(arguments.out or "reports") / CRASH_LOG
        try:
            log.parent.mkdir(parents=True, exist_ok=True)
            log.write_text(traceback.format_exc(), encoding="utf-8")
            told = f"the traceback is in {log}"
        except OSError:
            told = "and the traceback could not be written"
        cause = error.__cause__ or error
        print(visible(f"auditor: the auditor itself failed {where} ({type(cause).__name__}); "
                      f"{told}"), file=sys.stderr)
        return EXIT_CRASH


def audit_store_guarded(arguments: argparse.Namespace, console: Console,
                        argv: list[str] | None) -> int:
    """`run_audit`, with the store failing mid-run (a full disk, a server gone, a damaged
    file) told in one line naming it and the cause, exit 2: the run stays unfinished, and
    --out keeps the outputs it had (they are published as one set). A reader of the
    summary that goes away (`| head`) ends it quietly, with the audit's own exit code."""
    try:
        return run_audit(arguments, console, argv)
    except BrokenPipeError:
        from auditor.store_cli import quiet_stdout

        quiet_stdout()  # an audit the closed pipe cut short never passes for a clean one
        return getattr(arguments, "exit_code", EXIT_ERROR)
    except Exception as error:
        # The store's modules (SQLAlchemy) loaded here, not before the audit: the workers
        # begin before the store is loaded (`run_audit`).
        from auditor.store import StoreFailure
        from auditor.store.engine import cause_of, is_store_fault
        from auditor.store.urls import shown

        if not (isinstance(error, StoreFailure) or is_store_fault(error)):
            raise  # the auditor's own failure (`audit_guarded`)
        run_id = getattr(error, "run_id", None) or getattr(arguments, "run_id", None)
        cause = error.cause if isinstance(error, StoreFailure) else cause_of(error)
        left = f"run {run_id} is left unfinished" if run_id else "no run was recorded"
        print(f"auditor: store {shown(getattr(arguments, 'store_location', '?'))} failed "
              f"during the audit ({cause}); {left}, and {arguments.out} keeps the outputs "
              "it had", file=sys.stderr)
        return EXIT_ERROR


def exit_code(result, fail_on: str = "low", new_only: bool = False) -> int:
    """The run's exit code: an unreadable input first, then the fail-on policy."""
    from auditor.policy import fails

    if result.unreadable:
        return EXIT_ERROR
    return (EXIT_FINDINGS if any(fails(f, fail_on, new_only) for f in result.findings)
            else EXIT_CLEAN)


def run_audit(arguments: argparse.Namespace, console: Console,
              argv: list[str] | None) -> int:
    from auditor.baseline_runs import baseline_run_problem, run_number
    from auditor.run import collect_paths, job_count
    from auditor.settings import SettingsError, find_settings
    from auditor.waivers import WaiverFileError, load_waivers

    errors = LazyTextConsole(stderr=True, soft_wrap=True)
    try:
        settings = find_settings(arguments.config)
    except SettingsError as error:
        errors.print(f"auditor: settings: {error}")
        return EXIT_ERROR
    # A flag on the command line wins over the settings file.
    out_folder = arguments.out or settings.out or "reports"
    arguments.out = out_folder  # where a crash's traceback goes too (`audit_guarded`)
    jobs = arguments.jobs if arguments.jobs is not None else settings.jobs
    fail_on = arguments.fail_on or settings.fail_on or "low"
    fail_on_new = bool(arguments.fail_on_new if arguments.fail_on_new is not None
                       else settings.fail_on_new)
    waivers_path = None if arguments.ignore_waivers else (arguments.waivers or settings.waivers)
    baseline_path = arguments.baseline or settings.baseline
    if jobs is not None and jobs < 1:
        errors.print("auditor: --jobs must be 1 or more")
        return EXIT_ERROR
    if fail_on_new and not baseline_path:
        errors.print("auditor: --fail-on-new needs --baseline (what would be new?)")
        return EXIT_ERROR
    judging, judged = _judging(arguments, settings, errors)
    if judging is None:
        return EXIT_ERROR
    try:  # read before the audit: a bad waiver file or baseline costs no audit time
        waivers = load_waivers(waivers_path) if waivers_path else None
    except WaiverFileError as error:
        errors.print(f"auditor: waivers: {error}")
        return EXIT_ERROR
    earlier = None
    # `last`: the latest finished run over the same inputs, found in the store below.
    if baseline_path and baseline_path != "last" and run_number(baseline_path) is None:
        from auditor.baseline import BaselineError, load_baseline  # a baseline file's run

        try:
            earlier = load_baseline(baseline_path)
        except BaselineError as error:
            errors.print(f"auditor: baseline: {error}")
            return EXIT_ERROR
    from auditor.output.files import out_folder_problem

    problem = out_folder_problem(Path(out_folder))
    if problem:  # before the audit: a night's audit is never lost to a bad --out
        errors.print(f"auditor: {problem}")
        return EXIT_ERROR
    paths = collect_paths(arguments.paths)
    if not paths:
        errors.print("auditor: no *.bjh files under " + ", ".join(arguments.paths))
        return EXIT_ERROR
    from auditor import api
    from auditor.cluster import ClusterError

    scheduler = arguments.scheduler or settings.scheduler
    # The audit makes millions of small objects and next to no cycles: the modules loaded
    # so far are kept out of the collector's walks, and its youngest generation is
    # collected every 20,000 allocations rather than 700 (docs/performance.md).
    # Set before any worker is forked, so that the workers run so too.
    recorded: dict = {}  # the replays kept, as the report shows them (`api.record_run`)
    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(20_000, 20, 10)
    results = cluster = None
    try:
        if not scheduler:
            # On this machine's processes the audit begins here: its first pieces are
            # audited while the store is loaded and opened (about 0.3 s), and the output
            # modules (the report's templates) load in the parent meanwhile. A store that
            # cannot be used stops it (`finally`).
            results = api.audit_inputs(paths, jobs=jobs, meanwhile=_load_outputs,
                                       judging=judging)
        from auditor.build import build_fingerprint
        from auditor.reproduce import run_conditions
        from auditor.rulebase import rule_base_version
        from auditor.store import (
            StoreError,
            finish_run,
            run_extras_of,
        )
        from auditor.store.urls import command_line, shown
        from auditor.store_location import choose_store, in_folder, old_store_note

        out = Path(out_folder)
        run = {
            "version": __version__,
            "build": build_fingerprint(),  # the SHA-256 of the auditor's files (build.py)
            "rule_base": rule_base_version(),
            # a store URL's password is never recorded (findings.json, report.html, the store)
            "command": command_line(argv if argv is not None else sys.argv[1:]),
            "started": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        calendar = settings.calendar()  # gaming day and shifts (auditor/gaming_day.py)
        run["calendar"] = calendar.described()  # the report says which shifts it counts by
        # What the findings were judged under, so that `case` and `verify` judge alike.
        run["conditions"] = run_conditions(judging, judged, calendar)
        try:
            # One floor history (auditor/store_location.py): the default's folder is made on
            # first use, as is --out's (the audit makes it anyway); a store named elsewhere
            # only in a folder that exists, or --new-store.
            choice = choose_store(arguments.store, settings.store)
            location = arguments.store_location = choice.location  # named if the store fails
            store = api.open_store(location, new_store=arguments.new_store
                                   or choice.is_default or in_folder(location, out))
            if run_number(baseline_path) is not None:  # a run named: it must be whole
                problem = baseline_run_problem(store, run_number(baseline_path))
                if problem:
                    raise StoreError(problem)
            # before the run is recorded: a cluster that cannot be used costs nothing
            if scheduler:
                from auditor.cluster import quiet_logs

                quiet_logs()
                cluster = api.connect_cluster(scheduler)
                results = api.audit_inputs(paths, cluster=cluster, meanwhile=_load_outputs,
                                           judging=judging)
        except (ClusterError, StoreError) as error:
            errors.print(f"auditor: {error}")
            return EXIT_ERROR
        gc.freeze()  # and the modules loaded since (the store's, the outputs')
        note = old_store_note(choice, out)
        if note:  # even with --quiet: the history no longer goes where it went
            errors.print(note)
        if waivers_path:
            run["waivers"] = str(waivers_path)
        if baseline_path:
            run["baseline"] = str(baseline_path)
        run["fail_on"] = fail_on + (" (new findings only)" if fail_on_new else "")
        if judged:
            run["judging"] = judged
        with progress_bar(console, len(paths), enabled=not arguments.quiet) as advance:
            # Each file's results go to the store as the file is done: the parent keeps
            # none. `inputs`: what a run killed half-way never audited (`auditor runs show`)
            run_id = api.record_run(store, run, {"paths": arguments.paths, "jobs": jobs,
                                                 "inputs": paths, **judged,
                                                 # where report.html is, for incidents' links
                                                 "out": str(out.resolve())},
                                    paths, results, advance, calendar=calendar,
                                    recorded=recorded)
            arguments.run_id = run_id
    except ClusterError as error:
        errors.print(f"auditor: {error}")
        return EXIT_ERROR
    finally:
        if results is not None:
            results.close()  # stopped, if the store or the cluster failed before it was walked
        gc.set_threshold(*threshold)
        gc.unfreeze()
        if cluster is not None:
            from auditor.cluster import disconnect

            disconnect(cluster)  # bounded, even with the scheduler gone
    from auditor.output.render import write_outputs

    compared = None
    if baseline_path == "last" or run_number(baseline_path) is not None:
        from auditor.baseline_runs import choose_baseline, earlier_findings

        compared = choose_baseline(store, baseline_path, run_id)
        if compared.note:
            errors.print(compared.note)
        earlier = earlier_findings(store, compared.findings_run)
        if compared.findings_run is not None:
            run["baseline_run"] = compared.findings_run
    # Identity is computed once, for the whole run in record order, before waivers and the
    # baseline look at the findings; the store keeps the findings as judged, and the
    # outputs are written from it.
    result = api.judge_run(store, run_id, waivers, earlier, today=datetime.now(UTC).date(),
                           calendar=calendar, recorded=recorded)
    if compared is not None and compared.patterns_run is not None:
        from auditor.baseline_runs import patterns_against

        run["patterns_run"] = compared.patterns_run  # the run the patterns are counted in
        result.patterns = patterns_against(store, compared.patterns_run, run_id)
    run["finished"] = datetime.now(UTC).isoformat(timespec="seconds")
    # on a cluster, or with one job, the outputs are written by this process alone
    write_outputs(result, run, out, processes=1 if cluster else job_count(jobs))
    code = exit_code(result, fail_on, fail_on_new)
    finish_run(store, run_id, run, code, run_extras_of(result))
    arguments.exit_code = code  # kept if the reader of what follows goes away (`main`)
    if not arguments.quiet:
        errors.print(f"auditor: run {run_id} recorded in {shown(location)}", markup=False)
    for summary in result.unreadable:
        errors.print(f"auditor: cannot audit {summary.error}")
    for summary in result.inputs:  # even with --quiet: its last round is not judged
        if (warning := open_round_warning(summary)) is not None:
            errors.print(warning, markup=False)
    for waiver in result.waivers:
        if waiver.status == "expired":  # loudly: someone counted on it
            errors.print(f"auditor: waiver {waiver.index} ({waivers_path}, line {waiver.line}) "
                         f"expired at the end of {waiver.expires} UTC and was not applied; it "
                         f"would cover {waiver.matches} finding(s)")
    if judged and (unjudged := _regulation_unjudged(result, judged)):
        errors.print(unjudged, markup=False)  # even with --quiet: a run that judged nothing
    if not arguments.quiet:
        if judged:
            from auditor.selection import judged_text

            console.print(judged_text(judged), markup=False)
        print_summary(console, result, out, fail_on, fail_on_new, arguments.verbose)
    store.dispose()
    return code


def open_round_warning(summary) -> str | None:
    """The one line that says a file is not finished: the round it ends inside is not
    judged, and a line not yet written was set aside (the file's name escaped)."""
    from auditor.selection import printable

    opened, unwritten = summary.open_round, summary.unwritten_line
    if opened is None and unwritten is None:
        return None
    parts = []
    if opened is not None:
        parts.append(f"round {opened['round']} (line {opened['line']}) is still open: read, "
                     "not judged")
    if unwritten is not None:
        parts.append(f"line {unwritten} is not yet written (no newline): not read")
    return printable(f"auditor: {summary.path} has no `close` yet: " + "; ".join(parts)
                     + "; audit it again once finished, or with --finished if it is whole")


def _regulation_unjudged(result, judged: dict) -> str | None:
    """The line that says a selection judged no round by a rule of the regulation, where the
    records held rounds of a known game (the rules selected are of other games, or the
    record alone was asked for): its clean result is no audit of the regulation."""
    from auditor.selection import printable

    readable = [i for i in result.inputs if not i.error and i.game and i.rounds]
    if not readable or any(i.rounds_audited for i in result.inputs):
        return None
    games = ", ".join(sorted({i.game for i in readable}))
    terms = " ".join([*(f"--select {t}" for t in judged.get("select", [])),
                      *(f"--ignore {t}" for t in judged.get("ignore", []))])
    if all(c.startswith("record:") for c in judged.get("judged", [])):
        why = "the record alone was asked for"
    else:
        why = f"no rule it selects applies to the games audited ({games})"
    return printable(f"auditor: {terms} judged no round by a rule of the regulation: {why}; "
                     "only the record was judged")


def _judging(arguments: argparse.Namespace, settings, errors: Console):
    """What the run judges (auditor/selection.py) and how the outputs name it, or (None,
    None) once the bad selection or approval file is told in one line."""
    from auditor.approvals import ApprovalFileError, load_approvals
    from auditor.selection import SelectionError, judged_block, judging_for, printable

    select = arguments.select if arguments.select is not None else settings.select or []
    ignore = arguments.ignore if arguments.ignore is not None else settings.ignore or []
    approved = arguments.approved or settings.approved
    try:
        approvals = load_approvals(approved) if approved else None
        judging = judging_for(select, ignore, approvals)
    except ApprovalFileError as error:
        errors.print(printable(f"auditor: approved house rules: {error}"), markup=False)
        return None, None
    except SelectionError as error:
        errors.print(printable(f"auditor: --select/--ignore: {error}"), markup=False)
        return None, None
    judged = judged_block(judging, select, ignore) if select or ignore else {}
    if approved:
        judged["approved"] = str(approved)
    from dataclasses import replace

    if getattr(arguments, "finished", False):
        judging = replace(judging, finished=True)
    else:
        judging = replace(judging, live_from=live_from(settings.calendar()))
    return judging, judged


def live_from(calendar) -> str:
    """The earliest date a record may still be being written on: yesterday by the tables'
    clock (a night's rounds after midnight are dated the next day), so that a record of an
    older night cut inside a round is judged as the catalog says, not set aside as open."""
    from datetime import date, datetime, timedelta

    today = datetime.now(_zone(calendar.time_zone)).date() if calendar.time_zone \
        else date.today()
    return (today - timedelta(days=1)).isoformat()


def _zone(name: str):
    from zoneinfo import ZoneInfo

    return ZoneInfo(name)


def _load_outputs() -> None:
    """What the reports need, loaded and compiled (pandas, Jinja's templates): the HTML
    report imports the tables and the rule base too."""
    import auditor.output.json_report  # noqa: F401
    from auditor.output.html_report import load_templates

    load_templates()


@contextmanager
def progress_bar(console: Console, files: int, enabled: bool) -> Iterator:
    """Files, rounds and rounds per second on a terminal; nothing when output is not one."""
    if not enabled or not console.is_terminal:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    started = time.perf_counter()
    rounds = 0
    counts = "files  {task.fields[rounds]:,} rounds  {task.fields[rate]:,.0f} rounds/s"
    columns = (TextColumn("auditing"), BarColumn(), MofNCompleteColumn(), TextColumn(counts))
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("audit", total=files, rounds=0, rate=0.0)

        def advance(result) -> None:
            nonlocal rounds
            rounds += result.summary.rounds
            elapsed = max(time.perf_counter() - started, 1e-9)
            progress.update(task, advance=1, rounds=rounds, rate=rounds / elapsed)

        yield advance


SUMMARY_HEADERS = ("citation", "findings", "high", "medium", "low", "under-paid", "over-paid")


def print_summary(console: Console, result, out: Path, fail_on: str = "low",
                  fail_on_new: bool = False, verbose: bool = False) -> None:
    """The findings by citation with a total row, and the currency the money is in (on a
    terminal wide enough, a table; in a log or a narrow terminal, plain columns as wide as
    their widest cell, so no header or citation is ever cut); then waivers, the baseline
    and what fails the run."""
    from types import SimpleNamespace

    from rich.table import Table

    from auditor.money import MoneyTotals, currency_label
    from auditor.policy import fails
    from auditor.report.frames import summary_by, summary_frame

    rounds = sum(i.rounds for i in result.inputs)
    audited = sum(i.rounds_audited for i in result.inputs)
    console.print(f"Audited {len(result.inputs)} file(s): {rounds} round(s) read, "
                  f"{audited} audited, {len(result.findings)} finding(s).")
    opened = sum(1 for i in result.inputs if i.open_round is not None)
    if opened:
        console.print(f"{opened} round(s) still open at the end of a file with no `close` "
                      "(read, not judged): each is named in a warning line.")
    frame = summary_frame(result.findings, result.inputs)
    if not frame.empty:
        # A row per citation; its money, and the total's, one amount per currency: two
        # currencies are never added.
        counts: dict[str, list[int]] = {}
        money: dict[str, MoneyTotals] = {}
        overall = MoneyTotals()
        for row in (SimpleNamespace(**r) for r in summary_by(frame, "citation")):
            counted = counts.setdefault(row.citation, [0, 0, 0, 0])
            for index, value in enumerate((row.findings, row.high, row.medium, row.low)):
                counted[index] += int(value)
            under, over = Decimal(row.under_paid), Decimal(row.over_paid)
            money.setdefault(row.citation, MoneyTotals()).add_totals(row.currency, under, over)
            overall.add_totals(row.currency, under, over)
        rows = [[citation, *(f"{n:,}" for n in counted),
                 money[citation].text("under", "0.00"), money[citation].text("over", "0.00")]
                for citation, counted in counts.items()]
        total = ["total", *(f"{sum(c[i] for c in counts.values()):,}" for i in range(4)),
                 overall.text("under", "0.00"), overall.text("over", "0.00")]
        totals = [total]
        if len(overall.currencies()) > 1:  # the total's counts, then each currency's total
            total[5:] = ["", ""]
            for row in (SimpleNamespace(**r) for r in summary_by(frame, "currency")):
                amounts = MoneyTotals()
                amounts.add_totals(row.currency, Decimal(row.under_paid), Decimal(row.over_paid))
                totals.append([f"total {currency_label(row.currency)}",
                               *(f"{int(n):,}" for n in (row.findings, row.high, row.medium,
                                                         row.low)),
                               amounts.text("under", "0.00"), amounts.text("over", "0.00")])
        lines = [list(SUMMARY_HEADERS), *rows, *totals]
        widths = [max(len(line[i]) for line in lines) for i in range(len(SUMMARY_HEADERS))]
        framed = sum(widths) + max(0, 20 - widths[0]) + 3 * len(widths) + 1  # with borders
        if console.is_terminal and framed <= console.width:
            table = Table(title="Findings by citation")
            for index, header in enumerate(SUMMARY_HEADERS):
                table.add_column(header, no_wrap=True,
                                 min_width=max(len(header), 20 if index == 0 else 0),
                                 justify="left" if index == 0 else "right")
            for row in rows:
                table.add_row(*row)
            table.add_section()
            for row in totals:
                table.add_row(*row, style="bold")
            console.print(table)
        else:  # a log, or a terminal too narrow for the table: plain columns, nothing cut
            console.print("Findings by citation", markup=False)
            for number, line in enumerate(lines):
                if number == len(lines) - len(totals):
                    console.print("  ".join("-" * w for w in widths), markup=False)
                console.print("  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i])
                                        for i, cell in enumerate(line)).rstrip(),
                              markup=False, crop=False, overflow="ignore")
        console.print(currency_note(result.inputs), markup=False)
    waived = sum(1 for f in result.findings if f.waiver is not None)
    if result.waivers:
        status = {name: [w for w in result.waivers if w.status == name]
                  for name in ("applied", "expired", "unused")}
        console.print(f"Waivers: {waived} finding(s) waived by {len(status['applied'])} "
                      f"waiver(s); {len(status['expired'])} expired (not applied), "
                      f"{len(status['unused'])} unused.")
        for waiver in status["expired"]:
            console.print(f"  EXPIRED waiver {waiver.index} (line {waiver.line}: "
                          f"{_criteria(waiver.matched_on)}) ended {waiver.expires}: "
                          f"{waiver.matches} finding(s) not waived")
        for waiver in status["unused"]:
            console.print(f"  unused waiver {waiver.index} (line {waiver.line}: "
                          f"{_criteria(waiver.matched_on)}) matched no finding")
    if result.resolved is not None:
        new = sum(1 for f in result.findings if f.baseline == "new")
        console.print(f"Against the baseline: {new} new, {len(result.findings) - new} "
                      f"persisting, {len(result.resolved)} resolved.")
    if result.patterns is not None:  # across nights (auditor/baseline_runs.py)
        from auditor.patterns import summary_lines

        for line in summary_lines(result.patterns, every=verbose):
            console.print(line, markup=False)
    failed = high = 0
    first_high = []  # the findings are walked once: a month's are never held
    for finding in result.findings:
        if fails(finding, fail_on, fail_on_new):
            failed += 1
            if finding.severity == "high":
                high += 1
                if len(first_high) < 20:
                    first_high.append(finding)
    console.print(f"Failing the run (--fail-on {fail_on}"
                  f"{', new only' if fail_on_new else ''}): {failed} finding(s).")
    shown = result.findings if verbose else first_high
    if shown:
        console.print("Findings:" if verbose else "High findings that fail the run:")
        for finding in shown:
            marks = "".join([" waived" if finding.waiver else "",
                             f" {finding.baseline}" if finding.baseline else ""])
            place = f"{finding.file}:{finding.line}" if finding.line else finding.file
            console.print(f"  {finding.id}  {finding.severity:<6} {finding.citation}  "
                          f"{place}{marks}")
        if not verbose and high > 20:
            console.print(f"  … and {high - 20} more (--verbose lists every finding)")
    console.print(f"Report: {out / 'report.html'}  (also findings.json, findings.csv, "
                  "summary.csv)")


def currency_note(inputs) -> str:
    """The currency of the amounts: each table's own, as its header declared it; totals
    are per currency."""
    currencies = sorted({i.currency for i in inputs if i.currency})
    undeclared = any(i.currency is None for i in inputs if not i.error)
    if len(currencies) == 1 and not undeclared:
        return f"Amounts in {currencies[0]}."
    if not currencies:
        return "Amounts in each table's currency (no table declared one: undeclared)."
    return (f"Amounts in each table's currency ({', '.join(currencies)}"
            f"{', and undeclared' if undeclared else ''}): each total is per currency, "
            "never added across currencies.")


def _criteria(matched_on: dict[str, str]) -> str:
    return ", ".join(f"{key} {value}" for key, value in matched_on.items())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
