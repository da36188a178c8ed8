"""The command line: `auditor audit`, `auditor rules`, `auditor simulate`, the run store's
commands and `auditor trends`."""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

from rich.console import Console
from rich.table import Table

from auditor import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


AUDIT_EPILOG = """\
exit codes:
  0  no findings: every file was read and no round departs from the rules
  1  findings: see report.html (findings.json, findings.csv, summary.csv)
  2  an input could not be read, or the command was misused
  3  the auditor itself failed (a bug: please report it with the input)
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="auditor", description="Audit BJH blackjack hand histories against "
                                    "S.D. Admin. R. chapter 20:18:15.")
    parser.add_argument("--version", action="version", version=f"auditor {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    audit = commands.add_parser(
        "audit", help="audit files and folders of *.bjh records",
        description="Audit BJH hand histories: every round replayed and judged against\n"
                    "S.D. Admin. R. chapter 20:18:15 and the BJH format.",
        epilog=AUDIT_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    audit.add_argument("paths", nargs="+", metavar="PATH",
                       help="a BJH record (any name), or a folder: every *.bjh file under it, "
                            "subfolders included; give as many as you like")
    audit.add_argument("--out", default="reports", metavar="DIR",
                       help="where findings.json, findings.csv, summary.csv and report.html "
                            "go (default: reports)")
    audit.add_argument("--jobs", type=int, default=None, metavar="N",
                       help="files audited in parallel (default: the machine's cores)")
    audit.add_argument("--quiet", action="store_true", help="print nothing but errors")
    audit.add_argument("--store", default=None, metavar="PATH_OR_URL",
                       help="the run store this audit is recorded in: a SQLite file or a "
                            "database URL such as postgresql+psycopg://user@host/db "
                            "(default: history.sqlite in the --out folder)")

    rules = commands.add_parser("rules", help="the rule base: what checks each citation")
    rules.add_argument("action", nargs="?", choices=["list", "show"], default="list")
    rules.add_argument("citation", nargs="?")
    rules.add_argument("--markdown", action="store_true", help="print the list as Markdown")

    from auditor.simulate.command import add_parser as add_simulate
    from auditor.store_cli import add_parsers as add_store_commands
    from auditor.trends.command import add_parser as add_trends

    add_simulate(commands)
    add_store_commands(commands)
    add_trends(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    arguments = build_parser().parse_args(argv)
    console = Console(stderr=False, highlight=False, soft_wrap=True)
    if arguments.command == "rules":
        from auditor.rules_cli import show_rules

        return show_rules(arguments.action, arguments.citation, console, arguments.markdown)
    if arguments.command == "simulate":
        from auditor.simulate.command import run as run_simulate

        return run_simulate(arguments, console)
    if arguments.command == "trends":
        from auditor.trends.command import run as run_trends

        return run_trends(arguments, console, Console(stderr=True, highlight=False))
    if arguments.command in ("runs", "report", "diff"):
        from auditor.store_cli import run_command

        return run_command(arguments, console, Console(stderr=True, highlight=False))
    return run_audit(arguments, console, argv)


def run_audit(arguments: argparse.Namespace, console: Console,
              argv: list[str] | None) -> int:
    from auditor.audit import audit_each, collect_paths

    errors = Console(stderr=True, highlight=False)
    if arguments.jobs is not None and arguments.jobs < 1:
        errors.print("auditor: --jobs must be 1 or more")
        return EXIT_ERROR
    paths = collect_paths(arguments.paths)
    if not paths:
        errors.print("auditor: no *.bjh files under " + ", ".join(arguments.paths))
        return EXIT_ERROR
    from auditor.rulebase import rule_base_version
    from auditor.store import (
        RunRecorder,
        StoreError,
        begin_run,
        finish_run,
        load_result,
        open_store,
    )

    out = Path(arguments.out)
    run = {
        "version": __version__,
        "rule_base": rule_base_version(),
        "command": "auditor " + shlex.join(argv if argv is not None else sys.argv[1:]),
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    try:
        store = open_store(arguments.store or str(out / "history.sqlite"))
    except StoreError as error:
        errors.print(f"auditor: {error}")
        return EXIT_ERROR
    # Recorded as begun before the audit: a run killed half-way stays marked unfinished.
    run_id = begin_run(store, run, {"paths": arguments.paths, "jobs": arguments.jobs})
    recorder = RunRecorder(store, run_id, paths)
    with progress_bar(console, len(paths), enabled=not arguments.quiet) as advance:
        # Each file's results go to the store as the file is done: the parent keeps none.
        # The output modules (pandas, Jinja) load in the parent while workers audit.
        for place, file_result in audit_each(paths, jobs=arguments.jobs,
                                             meanwhile=_load_outputs):
            recorder.add(place, file_result)
            if advance:
                advance(file_result)
        recorder.close()
    from auditor.output.render import write_outputs

    run["finished"] = datetime.now(UTC).isoformat(timespec="seconds")
    result, _ = load_result(store, run_id)
    write_outputs(result, run, out)
    finish_run(store, run_id, run, result.exit_code)
    store.dispose()
    for summary in result.unreadable:
        errors.print(f"auditor: cannot audit {summary.error}")
    if not arguments.quiet:
        print_summary(console, result, out)
    return result.exit_code


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


def print_summary(console: Console, result, out: Path) -> None:
    """The findings by citation with a total row, and the currency the money is in. On a
    terminal wide enough, a table; in a log (no terminal) or a narrow terminal, plain
    columns as wide as their widest cell, so no header or citation is ever cut."""
    from auditor.output.tables import findings_frame, summary_by

    rounds = sum(i.rounds for i in result.inputs)
    audited = sum(i.rounds_audited for i in result.inputs)
    console.print(f"Audited {len(result.inputs)} file(s): {rounds} round(s) read, "
                  f"{audited} audited, {len(result.findings)} finding(s).")
    frame = findings_frame(result.findings, result.inputs)
    if not frame.empty:
        table_rows = list(summary_by(frame, "citation").itertuples(index=False))
        money = [(Decimal(str(r.under_paid)), Decimal(str(r.over_paid))) for r in table_rows]
        rows = [[row.citation, str(row.findings), str(row.high), str(row.medium), str(row.low),
                 f"{under:,.2f}", f"{over:,.2f}"]
                for row, (under, over) in zip(table_rows, money, strict=True)]
        total = ["total", *(f"{sum(int(r[i]) for r in rows):,}" for i in range(1, 5)),
                 f"{sum(m[0] for m in money):,.2f}", f"{sum(m[1] for m in money):,.2f}"]
        lines = [list(SUMMARY_HEADERS), *rows, total]
        widths = [max(len(line[i]) for line in lines) for i in range(len(SUMMARY_HEADERS))]
        framed = sum(widths) + max(0, 20 - widths[0]) + 3 * len(widths) + 1  # with borders
        if console.is_terminal and framed <= console.width:
            table = Table(title="Findings by citation", show_footer=True)
            for index, header in enumerate(SUMMARY_HEADERS):
                table.add_column(header, footer=total[index], no_wrap=True,
                                 min_width=max(len(header), 20 if index == 0 else 0),
                                 justify="left" if index == 0 else "right")
            for row in rows:
                table.add_row(*row)
            console.print(table)
        else:  # a log, or a terminal too narrow for the table: plain columns, nothing cut
            console.print("Findings by citation", markup=False)
            for number, line in enumerate(lines):
                if number == len(lines) - 1:
                    console.print("  ".join("-" * w for w in widths), markup=False)
                console.print("  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i])
                                        for i, cell in enumerate(line)).rstrip(),
                              markup=False, crop=False, overflow="ignore")
        console.print(currency_note(result.inputs), markup=False)
    console.print(f"Report: {out / 'report.html'}  (also findings.json, findings.csv, "
                  "summary.csv)")


def currency_note(inputs) -> str:
    """The currency of the amounts: each table's own, as its header declared it."""
    currencies = sorted({i.currency for i in inputs if i.currency})
    undeclared = any(i.currency is None for i in inputs if not i.error)
    if len(currencies) == 1 and not undeclared:
        return f"Amounts in {currencies[0]}."
    if not currencies:
        return "Amounts in each table's currency (no table declared one)."
    return (f"Amounts in each table's currency ({', '.join(currencies)}"
            f"{', and some undeclared' if undeclared else ''}): the totals add them as they are.")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
