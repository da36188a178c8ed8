"""`auditor runs`, `auditor runs show RUN`, `auditor report RUN`, `auditor diff A B`: the run
store read from the command line; each takes `--json` for scripts."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.console import Console

from auditor.shown import terminal_json

DEFAULT_STORE = "reports/history.sqlite"
STORE_HELP = ("the run store: a SQLite file path or a database URL such as "
              "postgresql+psycopg://user@host/db (default: history.sqlite in the --out folder "
              f"of an audit; {DEFAULT_STORE} for the commands that read it)")


def add_parsers(commands: argparse._SubParsersAction) -> None:
    runs = commands.add_parser("runs", help="the audits kept in the run store")
    runs.add_argument("action", nargs="?", choices=["list", "show"], default="list")
    runs.add_argument("run", nargs="?", type=int, metavar="RUN", help="a run's number (show)")
    _common(runs)

    report = commands.add_parser(
        "report", help="write the four outputs of a stored run again",
        description="Write findings.json, findings.csv, summary.csv and report.html of a "
                    "stored run into DIR, as the run wrote them.")
    report.add_argument("run", type=int, metavar="RUN")
    report.add_argument("--out", required=True, metavar="DIR")
    _common(report)

    diff = commands.add_parser(
        "diff", help="findings new, persisting and resolved between two stored runs",
        description="Compare two stored runs by stable finding ID: the findings of the later "
                    "run that are new or persisting, and those of the earlier that are gone.")
    diff.add_argument("earlier", type=int, metavar="RUN_A")
    diff.add_argument("later", type=int, metavar="RUN_B")
    _common(diff)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--store", default=DEFAULT_STORE, metavar="PATH_OR_URL", help=STORE_HELP)
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")


def open_existing_store(location: str, errors: Console):
    """The store at `location` for a command that reads it, or None with the reason said
    (no store there, or one this auditor cannot read)."""
    from auditor.store import StoreError, open_store

    if not _exists(location):
        errors.print(f"auditor: no run store at {location}")
        return None
    try:
        return open_store(location)
    except StoreError as error:
        errors.print(f"auditor: {error}")
        return None


def run_command(arguments: argparse.Namespace, console: Console, errors: Console) -> int:
    """Exit 0, or 2 with a plain message when the store or a run cannot be read."""
    engine = open_existing_store(arguments.store, errors)
    if engine is None:
        return 2
    try:
        if arguments.command == "runs" and arguments.action == "show":
            if arguments.run is None:
                errors.print("auditor: usage: auditor runs show RUN")
                return 2
            return _show(engine, arguments.run, arguments.json, console, errors)
        if arguments.command == "runs":
            return _list(engine, arguments.json, console)
        if arguments.command == "report":
            return _report(engine, arguments.run, Path(arguments.out), arguments.json, console,
                           errors)
        return _diff(engine, arguments.earlier, arguments.later, arguments.json, console,
                     errors)
    finally:
        engine.dispose()


def _print_json(document: Any) -> None:
    """Plain JSON on standard output (no colours, no wrapping), for scripts."""
    print(terminal_json(json.dumps(document, indent=2, ensure_ascii=False)))


def _exists(location: str) -> bool:
    return "://" in location or Path(location).exists()


def _list(engine, as_json: bool, console: Console) -> int:
    from auditor.store import list_runs

    rows = list_runs(engine)
    if as_json:
        _print_json([row.as_dict() for row in rows])
        return 0
    header = ("run", "started (UTC)", "status", "inputs", "rounds", "findings", "high",
              "medium", "low", "waived")
    lines = [header] + [(
        str(row.id), row.started, row.status if row.status == "finished" else "unfinished",
        str(row.inputs), f"{row.rounds:,}", str(row.findings), str(row.high), str(row.medium),
        str(row.low), str(row.waived)) for row in rows]
    _print_columns(console, lines, left=(1, 2))
    if not rows:
        console.print("The store holds no run yet.")
    return 0


def _print_columns(console: Console, lines: list[tuple[str, ...]], left: tuple[int, ...]) -> None:
    """Plain aligned columns, never cut or wrapped whatever the width (logs, pipes)."""
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    for line in lines:
        cells = [cell.ljust(widths[i]) if i in left else cell.rjust(widths[i])
                 for i, cell in enumerate(line)]
        console.print("  ".join(cells).rstrip(), soft_wrap=True, highlight=False, markup=False)


def _show(engine, run_id: int, as_json: bool, console: Console, errors: Console) -> int:
    from auditor.store import list_runs, run_document
    from auditor.store.runs import run_inputs_documents

    rows = list_runs(engine, [run_id])
    if not rows:
        errors.print(f"auditor: the store has no run {run_id}")
        return 2
    row = rows[0]
    document: dict[str, Any] = {**row.as_dict(), "auditor": run_document(engine, run_id),
                                "inputs": run_inputs_documents(engine, run_id)}
    if as_json:
        _print_json(document)
        return 0
    console.print(f"Run {row.id}: {document['auditor']['command']}")
    console.print(f"  started {row.started}, finished {row.finished or 'never (unfinished)'}"
                  f", exit code {row.exit_code if row.exit_code is not None else '-'}")
    console.print(f"  {row.inputs} input(s), {row.rounds:,} round(s), {row.findings} finding(s)"
                  f": {row.high} high, {row.medium} medium, {row.low} low; {row.waived} waived")
    for summary in document["inputs"]:
        state = summary.get("error") or (f"{summary.get('rounds', 0):,} rounds, sha256 "
                                         f"{(summary.get('sha256') or '')[:16]}…")
        console.print(f"  - {summary['path']}: {state}")
    return 0


def _report(engine, run_id: int, out: Path, as_json: bool, console: Console,
            errors: Console) -> int:
    from auditor.output.render import OUTPUT_NAMES, write_outputs
    from auditor.store import load_result

    try:
        result, run = load_result(engine, run_id)
    except KeyError:
        errors.print(f"auditor: the store has no run {run_id}")
        return 2
    write_outputs(result, run, out)
    if as_json:
        _print_json({"run": run_id, "files": [str(out / name) for name in OUTPUT_NAMES]})
    else:
        console.print(f"Run {run_id} written to {out}: {', '.join(OUTPUT_NAMES)}")
    return 0


def _diff(engine, earlier: int, later: int, as_json: bool, console: Console,
          errors: Console) -> int:
    from auditor.store import diff_runs, list_runs

    missing = {earlier, later} - {row.id for row in list_runs(engine, [earlier, later])}
    if missing:
        errors.print(f"auditor: the store has no run {', '.join(map(str, sorted(missing)))}")
        return 2
    difference = diff_runs(engine, earlier, later)
    if as_json:
        _print_json({"earlier": earlier, "later": later, **difference})
        return 0
    console.print(f"Run {later} against run {earlier}: {len(difference['new'])} new, "
                  f"{len(difference['persisting'])} persisting, "
                  f"{len(difference['resolved'])} resolved.")
    for status in ("new", "resolved"):
        for finding in difference[status]:
            console.print(f"  {status:9} {finding.get('id') or '-'}  {finding['citation']}  "
                          f"{finding['file']}:{finding.get('line') or ''}  "
                          f"{finding['message']}", soft_wrap=True)
    return 0
