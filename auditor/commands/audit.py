"""`auditor audit`: files and folders of records audited, recorded in the run store, judged,
written out and summed up. `run` takes the steps in order: the settings, the options, what
is judged, what is read before the audit (waivers, a baseline file, the inputs), the audit
and its recording, the judging of the whole run, the outputs, the warnings and the summary.
A step that refuses raises `Refused`: one line, exit 2 (auditor/commands/guard.py)."""

from __future__ import annotations

import argparse
import gc
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from auditor import __version__
from auditor.commands import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, text_console
from auditor.policy import FAIL_ON_LEVELS
from auditor.refusal import Refused

if TYPE_CHECKING:  # Rich is loaded when something is printed (auditor/shown.py)
    from rich.console import Console

    from auditor.report.frames import RunSummary

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
  SHA-256), from/until (gaming days); justification, approved_by and expires are
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
     --fail-on-new: one not known to persist, new or not compared); see report.html,
     findings.json, findings.csv
  2  an input could not be read, or the waiver file, the baseline or the settings; or
     the command was misused
  3  the auditor itself failed (a bug: please report it with the input), or memory ran out
"""

# A file or folder that cannot be used is refused before the audit (`read_before`): one
# that fails after it (a full disk writing the outputs) is the auditor's own failure, exit 3
# with its traceback in --out (auditor/commands/guard.py).
OS_ERRORS_REFUSED = False


def add_parser(commands: argparse._SubParsersAction) -> None:
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
                            "new or persisting (not compared: a citation one of the two runs did "
                            "not judge) and list the earlier ones now resolved. With "
                            "`last` or RUN, also the patterns (table, dealer, player × "
                            "citation) new, recurring or gone against that run, or with "
                            "`last` and other inputs, against the latest run over the same "
                            "tables (last night's)")
    audit.add_argument("--fail-on", default=None, choices=FAIL_ON_LEVELS,
                       help="exit 1 only for unwaived findings of this severity or above "
                            "(default: low; never: exit 0 whatever is found)")
    audit.add_argument("--fail-on-new", action="store_true", default=None,
                       help="with --baseline: only findings not known to persist fail the "
                            "run (new ones, and those of a citation the baseline's run did "
                            "not judge: not compared)")
    _add_judging_options(audit)
    _add_output_and_store_options(audit)


def _add_judging_options(audit: argparse.ArgumentParser) -> None:
    """What is judged: a selection of the rules, the approved house rules, finished files."""
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


def _add_output_and_store_options(audit: argparse.ArgumentParser) -> None:
    """The settings file, what is printed and the run store."""
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


@dataclass
class Options:
    """The run's options: the command line's flags, else the settings file's."""

    settings: Any
    out: str
    jobs: int | None
    fail_on: str
    fail_on_new: bool
    waivers_path: str | None
    baseline_path: str | None
    scheduler: str | None
    judging: Any = None
    judged: dict = field(default_factory=dict)


@dataclass
class Recorded:
    """The audit as recorded in the store: the run's record, and what judging it needs."""

    run: dict
    store: Any
    location: str
    run_id: int
    calendar: Any
    on_cluster: bool
    replays: dict  # the replays kept, as the report shows them (`api.record_run`)


def run(arguments: argparse.Namespace) -> int:
    """The steps of the audit, in order. What a step refuses (`Refused`, a bad store, an
    unreachable cluster) and the store failing mid-run (a full disk, a server gone, a
    damaged file: the run stays unfinished, and --out keeps the outputs it had, published
    as one set) are told by the command line's guard in one line, exit 2; a reader of the
    summary that goes away (`| head`) ends it quietly with the audit's own exit code, and
    an audit the closed pipe cut short never passes for a clean one
    (auditor/commands/guard.py)."""
    from auditor import api
    from auditor.shown import LazyTextConsole

    arguments.exit_code = EXIT_ERROR  # until the audit's own is known
    arguments.crash_folder = arguments.out or "reports"  # until the settings are read
    # with --quiet only error lines are printed: Rich is loaded if one is printed
    console = LazyTextConsole(soft_wrap=True) if arguments.quiet \
        else text_console(soft_wrap=True)
    errors = LazyTextConsole(stderr=True, soft_wrap=True)
    options = resolve_options(arguments)
    options.judging, options.judged = judging_of(arguments, options.settings)
    waivers, earlier, paths = read_before(arguments, options)
    recorded = audit_and_record(arguments, options, paths, console, errors)
    result = annotate(recorded, options, waivers, earlier, errors)
    summary = api.summarize(result)  # handed to every output: counted once
    code = write_outputs(recorded, result, summary, options, arguments)
    warn(arguments, options, recorded, result, errors)
    if not arguments.quiet:
        summarize(console, result, summary, options, arguments.verbose)
    recorded.store.dispose()
    return code


def resolve_options(arguments: argparse.Namespace) -> Options:
    """The settings file's values, with a flag on the command line winning over them."""
    from auditor.settings import SettingsError, find_settings

    try:
        settings = find_settings(arguments.config)
    except SettingsError as error:
        raise Refused(f"auditor: settings: {error}") from None
    options = Options(
        settings=settings, out=arguments.out or settings.out or "reports",
        jobs=arguments.jobs if arguments.jobs is not None else settings.jobs,
        fail_on=arguments.fail_on or settings.fail_on or "low",
        fail_on_new=bool(arguments.fail_on_new if arguments.fail_on_new is not None
                         else settings.fail_on_new),
        waivers_path=None if arguments.ignore_waivers
        else (arguments.waivers or settings.waivers),
        baseline_path=arguments.baseline or settings.baseline,
        scheduler=arguments.scheduler or settings.scheduler)
    arguments.out = arguments.crash_folder = options.out  # a crash's traceback goes there too
    if options.jobs is not None and options.jobs < 1:
        raise Refused("auditor: --jobs must be 1 or more")
    if options.fail_on_new and not options.baseline_path:
        raise Refused("auditor: --fail-on-new needs --baseline (what would be new?)")
    return options


def judging_of(arguments: argparse.Namespace, settings) -> tuple[Any, dict]:
    """What the run judges (auditor/selection.py) and how the outputs name it; a bad
    selection or approval file is refused."""
    from dataclasses import replace

    from auditor.selection import SelectionError, judged_block, judging_for, printable

    select = arguments.select if arguments.select is not None else settings.select or []
    ignore = arguments.ignore if arguments.ignore is not None else settings.ignore or []
    approved = arguments.approved or settings.approved
    approvals = None
    if approved:
        from auditor.approvals import ApprovalFileError, load_approvals  # its file's audit

        try:
            approvals = load_approvals(approved)
        except ApprovalFileError as error:
            raise Refused(printable(f"auditor: approved house rules: {error}")) from None
    try:
        judging = judging_for(select, ignore, approvals)
    except SelectionError as error:
        raise Refused(printable(f"auditor: --select/--ignore: {error}")) from None
    judged = judged_block(judging, select, ignore) if select or ignore else {}
    if approved:
        judged["approved"] = str(approved)
    if getattr(arguments, "finished", False):
        judging = replace(judging, finished=True)
    else:
        judging = replace(judging, live_from=live_from(settings.calendar()))
    return judging, judged


def live_from(calendar) -> str:
    """The earliest date a record may still be being written on: yesterday by the tables'
    clock (a night's rounds after midnight are dated the next day), so that a record of an
    older night cut inside a round is judged as the catalog says, not set aside as open."""
    from datetime import date, timedelta

    from auditor.clock import zone

    today = datetime.now(zone(calendar.time_zone)).date() if calendar.time_zone \
        else date.today()
    return (today - timedelta(days=1)).isoformat()


def read_before(arguments: argparse.Namespace, options: Options) -> tuple[Any, Any, list]:
    """The waivers, a baseline file's findings and the inputs, read before the audit: a bad
    waiver file, baseline or --out costs no audit time, and a night's audit is never lost
    to them."""
    from auditor.baseline_runs import run_number
    from auditor.output.files import out_folder_problem
    from auditor.run import collect_paths

    waivers = None
    if options.waivers_path:
        from auditor.waivers import WaiverFileError, load_waivers  # a waiver file's audit

        try:
            waivers = load_waivers(options.waivers_path)
        except WaiverFileError as error:
            raise Refused(f"auditor: waivers: {error}") from None
    earlier = None
    baseline = options.baseline_path
    # `last`: the latest finished run over the same inputs, found in the store (`judge`).
    if baseline and baseline != "last" and run_number(baseline) is None:
        from auditor.baseline import BaselineError, load_baseline  # a baseline file's run

        try:
            earlier = load_baseline(baseline)
        except BaselineError as error:
            raise Refused(f"auditor: baseline: {error}") from None
    problem = out_folder_problem(Path(options.out))
    if problem:
        raise Refused(f"auditor: {problem}")
    paths = collect_paths(arguments.paths)
    if not paths:
        raise Refused("auditor: no *.bjh files under " + ", ".join(arguments.paths))
    return waivers, earlier, paths


def run_record(options: Options, words: list[str], calendar) -> dict:
    """What the store, findings.json and report.html say of the run itself (`words`: the
    command line's, as given)."""
    from auditor.build import build_fingerprint
    from auditor.reproduce import run_conditions
    from auditor.rulebase import rule_base_version
    from auditor.store.urls import command_line

    run = {
        "version": __version__,
        "build": build_fingerprint(),  # the SHA-256 of the auditor's files (build.py)
        "rule_base": rule_base_version(),
        # a store URL's password is never recorded (findings.json, report.html, the store)
        "command": command_line(words),
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    run["calendar"] = calendar.described()  # the report says which shifts it counts by
    # What the findings were judged under, so that `case` and `verify` judge alike.
    run["conditions"] = run_conditions(options.judging, options.judged, calendar)
    return run


def audit_and_record(arguments: argparse.Namespace, options: Options, paths: list,
                     console: Console, errors: Console) -> Recorded:
    """The inputs audited, each file's results recorded in the store as it is done (the
    parent keeps none). The audit makes millions of small objects and next to no cycles:
    the modules loaded so far are kept out of the collector's walks, and its youngest
    generation is collected every 20,000 allocations rather than 700
    (docs/performance.md); set before any worker is forked, so that the workers run so
    too."""
    from auditor import api
    from auditor.output.terminal import progress_bar

    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(20_000, 20, 10)
    audit = _Audit(options)
    try:
        if not options.scheduler:
            # On this machine's processes the audit begins here: its first pieces are
            # audited while the store is loaded and opened (about 0.3 s), and the output
            # modules (the report's templates) load in the parent meanwhile. A store that
            # cannot be used stops it (`finally`).
            audit.results = api.audit_inputs(paths, jobs=options.jobs, meanwhile=load_outputs,
                                             judging=options.judging)
        calendar = options.settings.calendar()  # gaming day and shifts (gaming_day.py)
        run = run_record(options, arguments.words, calendar)
        store, location, choice = audit.open_store(arguments, paths)
        gc.freeze()  # and the modules loaded since (the store's, the outputs')
        _record_options(run, options, arguments, choice, errors)
        replays: dict = {}
        with progress_bar(console, len(paths), enabled=not arguments.quiet) as advance:
            # `inputs`: what a run killed half-way never audited (`auditor runs show`)
            run_id = api.record_run(store, run, {"paths": arguments.paths, "jobs": options.jobs,
                                                 "inputs": paths, **options.judged,
                                                 # where report.html is, for incidents' links
                                                 "out": str(Path(options.out).resolve())},
                                    paths, audit.results, advance, calendar=calendar,
                                    recorded=replays)
            arguments.run_id = run_id
    finally:
        audit.close(threshold)
    return Recorded(run, store, location, run_id, calendar, audit.cluster is not None, replays)


class _Audit:
    """The audit under way: its results, walked as they come, and the cluster it runs on."""

    def __init__(self, options: Options) -> None:
        self.options, self.results, self.cluster = options, None, None

    def open_store(self, arguments: argparse.Namespace, paths: list) -> tuple[Any, str, Any]:
        """The run store, and on a cluster the audit begun: one floor history
        (auditor/store_location.py); the default's folder is made on first use, as is
        --out's (the audit makes it anyway); a store named elsewhere only in a folder that
        exists, or --new-store. A store or cluster that cannot be used is refused (its
        error told by auditor/commands/guard.py)."""
        from auditor import api
        from auditor.baseline_runs import baseline_run_problem, run_number
        from auditor.store import StoreError
        from auditor.store_location import choose_store, in_folder

        options = self.options
        choice = choose_store(arguments.store, options.settings.store)
        location = arguments.store_location = choice.location  # named if the store fails
        store = api.open_store(location, new_store=arguments.new_store or choice.is_default
                               or in_folder(location, Path(options.out)))
        if run_number(options.baseline_path) is not None:  # a run named: it must be whole
            problem = baseline_run_problem(store, run_number(options.baseline_path))
            if problem:
                raise StoreError(problem)
        # before the run is recorded: a cluster that cannot be used costs nothing
        if options.scheduler:
            from auditor.cluster import quiet_logs

            quiet_logs()
            self.cluster = api.connect_cluster(options.scheduler)
            self.results = api.audit_inputs(paths, cluster=self.cluster,
                                            meanwhile=load_outputs,
                                            judging=options.judging)
        return store, location, choice

    def close(self, threshold: tuple[int, int, int]) -> None:
        if self.results is not None:
            self.results.close()  # stopped, if the store or the cluster failed before it was walked
        gc.set_threshold(*threshold)
        gc.unfreeze()
        if self.cluster is not None:
            from auditor.cluster import disconnect

            disconnect(self.cluster)  # bounded, even with the scheduler gone


def _record_options(run: dict, options: Options, arguments: argparse.Namespace, choice,
                    errors: Console) -> None:
    """The run's options in its record; and, even with --quiet, a line if the history no
    longer goes where it went."""
    from auditor.store_location import old_store_note

    note = old_store_note(choice, Path(options.out))
    if note:
        errors.print(note)
    if options.waivers_path:
        run["waivers"] = str(options.waivers_path)
    if options.baseline_path:
        run["baseline"] = str(options.baseline_path)
    run["fail_on"] = options.fail_on + (" (new and not compared findings only)"
                                        if options.fail_on_new else "")
    if options.judged:
        run["judging"] = options.judged


def annotate(recorded: Recorded, options: Options, waivers, earlier, errors: Console):
    """The run's findings annotated: identity is computed once, for the whole run in record
    order, before waivers and the baseline look at the findings; the store keeps the
    findings as annotated, and the outputs are written from it."""
    from auditor import api
    from auditor.baseline_runs import run_number

    compared = unjudged = None
    store, run, run_id = recorded.store, recorded.run, recorded.run_id
    earlier_run: int | str | None = options.baseline_path
    if options.baseline_path == "last" or run_number(options.baseline_path) is not None:
        from auditor.baseline_runs import choose_baseline, earlier_findings, unjudged_between

        compared = choose_baseline(store, options.baseline_path, run_id)
        if compared.note:
            errors.print(compared.note)
        earlier = earlier_findings(store, compared.findings_run)
        earlier_run = compared.findings_run
        if compared.findings_run is not None:
            run["baseline_run"] = compared.findings_run
            unjudged = unjudged_between(store, compared.findings_run, run_id)
    elif earlier is not None:  # a findings.json: what its run left unjudged, if it says
        from auditor.baseline import Unjudged

        unjudged = Unjudged(earlier.not_judged,
                            frozenset(options.judged.get("not_judged") or ()))
    result = api.annotate_run(store, run_id, waivers, earlier,
                              today=datetime.now(UTC).date(), calendar=recorded.calendar,
                              recorded=recorded.replays, unjudged=unjudged,
                              earlier_run=earlier_run)
    if result.not_compared is not None:
        run["not_compared"] = result.not_compared
    if compared is not None and compared.patterns_run is not None:
        from auditor.baseline_runs import patterns_against

        run["patterns_run"] = compared.patterns_run  # the run the patterns are counted in
        result.patterns = patterns_against(store, compared.patterns_run, run_id)
    return result


def write_outputs(recorded: Recorded, result, summary: RunSummary, options: Options,
                  arguments: argparse.Namespace) -> int:
    """The four outputs written, the run finished in the store; its exit code."""
    from auditor.output.render import write_outputs as write
    from auditor.run import job_count
    from auditor.store import finish_run, run_extras_of

    recorded.run["finished"] = datetime.now(UTC).isoformat(timespec="seconds")
    # on a cluster, or with one job, the outputs are written by this process alone
    write(result, recorded.run, Path(options.out),
          processes=1 if recorded.on_cluster else job_count(options.jobs), summary=summary)
    code = exit_code(result, options.fail_on, options.fail_on_new)
    finish_run(recorded.store, recorded.run_id, recorded.run, code, run_extras_of(result))
    arguments.exit_code = code  # kept if the reader of what follows goes away (cli.py)
    return code


def exit_code(result, fail_on: str = "low", new_only: bool = False) -> int:
    """The run's exit code: an unreadable input first, then the fail-on policy."""
    from auditor.policy import fails

    if result.unreadable:
        return EXIT_ERROR
    return (EXIT_FINDINGS if any(fails(f, fail_on, new_only) for f in result.findings)
            else EXIT_CLEAN)


def warn(arguments: argparse.Namespace, options: Options, recorded: Recorded, result,
         errors: Console) -> None:
    """The lines on stderr: where the run is recorded, the inputs that could not be audited
    and, even with --quiet, those still being written, the expired waivers and a selection
    that judged nothing of the regulation."""
    from auditor.output.terminal import open_round_warning, regulation_unjudged
    from auditor.store.urls import shown

    if not arguments.quiet:
        errors.print(f"auditor: run {recorded.run_id} recorded in {shown(recorded.location)}",
                     markup=False)
    for summary in result.unreadable:
        errors.print(f"auditor: cannot audit {summary.error}")
    for summary in result.inputs:  # even with --quiet: its last round is not judged
        if (warning := open_round_warning(summary)) is not None:
            errors.print(warning, markup=False)
    for waiver in result.waivers:
        if waiver.status == "expired":  # loudly: someone counted on it
            errors.print(f"auditor: waiver {waiver.index} ({options.waivers_path}, line "
                         f"{waiver.line}) expired at the end of {waiver.expires} UTC and was "
                         f"not applied; it would cover {waiver.matches} finding(s)")
    if options.judged and (unjudged := regulation_unjudged(result, options.judged)):
        errors.print(unjudged, markup=False)  # even with --quiet: a run that judged nothing


def summarize(console: Console, result, summary: RunSummary, options: Options,
              verbose: bool) -> None:
    """What was judged, if a selection was made, and the summary (auditor/output/terminal.py)."""
    from auditor.output.terminal import print_summary

    if options.judged:
        from auditor.selection import judged_text

        console.print(judged_text(options.judged), markup=False)
    print_summary(console, result, Path(options.out), options.fail_on, options.fail_on_new,
                  verbose, summary)


def load_outputs() -> None:
    """What the reports need, loaded and compiled (pandas, Jinja's templates): the HTML
    report imports the tables and the rule base too."""
    import auditor.output.json_report  # noqa: F401
    from auditor.output.html_report import load_templates

    load_templates()
