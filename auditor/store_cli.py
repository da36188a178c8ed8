"""`auditor runs`, `auditor runs show RUN`, `auditor report RUN`, `auditor diff A B`: the run
store read from the command line; each takes `--json` for scripts. What they refuse (no
store, no such run, an unfinished one, an --out that cannot be written) they raise as
`Refused`, told by the command line's one guard in one line, exit 2."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from auditor.refusal import Refused
from auditor.shown import terminal_json

if TYPE_CHECKING:  # Rich is loaded when something is printed (auditor/shown.py)
    from rich.console import Console

STORE_HELP = ("the run store: a SQLite file path or a database URL such as "
              "postgresql+psycopg://user@host/db (default: $BJH_STORE, else the settings' "
              "store, else $XDG_DATA_HOME/bjh-auditor/floor.sqlite, as for `auditor audit`)")
CONFIG_HELP = ("the settings file whose `store` is read (default: [tool.bjh-auditor] in "
               "./pyproject.toml, or ./bjh-auditor.toml)")


def add_parsers(commands: argparse._SubParsersAction) -> None:
    """`runs`, `report` and `diff`, in that order."""
    add_runs_parser(commands)
    add_report_parser(commands)
    add_diff_parser(commands)


def add_runs_parser(commands: argparse._SubParsersAction) -> None:
    runs = commands.add_parser("runs", help="the audits kept in the run store")
    runs.add_argument("action", nargs="?", choices=["list", "show"], default="list")
    runs.add_argument("run", nargs="?", type=int, metavar="RUN", help="a run's number (show)")
    _common(runs)


def add_report_parser(commands: argparse._SubParsersAction) -> None:
    report = commands.add_parser(
        "report", help="write the four outputs of a stored run again",
        description="Write findings.json, findings.csv, summary.csv and report.html of a "
                    "stored run into DIR, as the run wrote them.")
    report.add_argument("run", type=int, metavar="RUN")
    report.add_argument("--out", required=True, metavar="DIR")
    _common(report)


def add_diff_parser(commands: argparse._SubParsersAction) -> None:
    diff = commands.add_parser(
        "diff", help="findings new, persisting and resolved between two stored runs",
        description="Compare two stored runs by stable finding ID: the findings of the later "
                    "run that are new or persisting, and those of the earlier that are gone; "
                    "and, across nights, the patterns (table, dealer and player × citation) "
                    "new, recurring or gone, with their counts in each run.")
    diff.add_argument("earlier", type=int, metavar="RUN_A")
    diff.add_argument("later", type=int, metavar="RUN_B")
    _common(diff)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--store", default=None, metavar="PATH_OR_URL", help=STORE_HELP)
    parser.add_argument("--config", default=None, metavar="FILE", help=CONFIG_HELP)
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")


def open_existing_store(location: str):
    """The store at `location` for a command that reads it, opened for reading only (a store
    on read-only media or an archive is read as it is); `Refused` with the reason (no store
    there, or one this auditor cannot read)."""
    from auditor.store import StoreError, open_store
    from auditor.store_location import missing_store_hint

    try:
        return open_store(location, read_only=True)
    except StoreError as error:
        raise Refused(f"auditor: {error}{missing_store_hint(location)}") from error


def run_command(arguments: argparse.Namespace, console: Console, errors: Console) -> int:
    """Exit 0; what cannot be read or done is raised as `Refused` (exit 2). `errors`: the
    console every store command is given (these tell nothing there but refusals)."""
    engine = open_existing_store(arguments.store)
    try:
        if arguments.command == "runs" and arguments.action == "show":
            if arguments.run is None:
                raise Refused("auditor: usage: auditor runs show RUN")
            return _show(engine, arguments.run, arguments.json, console)
        if arguments.command == "runs":
            return _list(engine, arguments.json, console)
        if arguments.command == "report":
            return _report(engine, arguments.run, Path(arguments.out), arguments.json, console)
        return _diff(engine, arguments.earlier, arguments.later, arguments.json, console)
    finally:
        engine.dispose()


def _print_json(document: Any) -> None:
    """Plain JSON on standard output (no colours, no wrapping), for scripts."""
    print(terminal_json(json.dumps(document, indent=2, ensure_ascii=False)))


def _list(engine, as_json: bool, console: Console) -> int:
    from auditor.store import list_runs
    from auditor.store.urls import hide_secrets

    rows = list_runs(engine)
    if as_json:  # a store written before passwords were hidden may hold one in a command
        _print_json([{**row.as_dict(), "command": hide_secrets(row.command)} for row in rows])
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


def _show(engine, run_id: int, as_json: bool, console: Console) -> int:
    from auditor.store import list_runs, run_document
    from auditor.store.runs import run_inputs_documents, unaudited_inputs
    from auditor.store.urls import hide_secrets

    rows = list_runs(engine, [run_id])
    if not rows:
        raise Refused(f"auditor: the store has no run {run_id}")
    row = rows[0]
    document: dict[str, Any] = {**row.as_dict(), "auditor": run_document(engine, run_id),
                                "inputs": run_inputs_documents(engine, run_id)}
    # A store written before passwords were hidden may hold one in the command.
    document["command"] = hide_secrets(document["command"])
    document["auditor"]["command"] = hide_secrets(document["auditor"]["command"])
    if row.status != "finished":
        document["not_audited"] = unaudited_inputs(engine, run_id)
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
        opened = summary.get("open_round")
        if isinstance(opened, dict):  # a record not finished (auditor/audit.py)
            state += (f"; no `close` yet: round {opened.get('round')} (line "
                      f"{opened.get('line')}) still open, not judged")
        if isinstance(summary.get("open_header"), int):  # cut inside its header
            state += "; no `close` yet: its header still being written, not judged"
        console.print(f"  - {summary['path']}: {state}")
    if row.status != "finished":
        missing = document["not_audited"]
        console.print("  UNFINISHED: " + (
            "which inputs it was given was not recorded (an older auditor)" if missing is None
            else f"{len(missing)} input(s) not audited" if missing else
            "every input audited, its findings never judged nor its outputs written"),
            markup=False)
        for path in missing or []:
            console.print(f"  - {path}: not audited", markup=False)
    return 0


def _report(engine, run_id: int, out: Path, as_json: bool, console: Console) -> int:
    from auditor.output.files import out_folder_problem
    from auditor.output.render import OUTPUT_NAMES, write_outputs
    from auditor.store import load_result

    refusal = _unfinished(engine, [run_id], "reported")
    if refusal:
        raise Refused(f"auditor: {refusal}")
    problem = out_folder_problem(out)
    if problem:
        raise Refused(f"auditor: {problem}")
    try:
        result, run = load_result(engine, run_id)
    except KeyError:
        raise Refused(f"auditor: the store has no run {run_id}") from None
    write_outputs(result, run, out)
    if as_json:
        _print_json({"run": run_id, "files": [str(out / name) for name in OUTPUT_NAMES]})
    else:
        console.print(f"Run {run_id} written to {out}: {', '.join(OUTPUT_NAMES)}")
    return 0


def _unfinished(engine, run_ids: list[int], verb: str) -> str | None:
    """Why a run cannot be reported or compared: it never finished (killed, failed, or still
    running), so it holds some of its inputs and findings never judged (no IDs, waivers or
    baseline marks). None when every run named finished (or does not exist)."""
    from auditor.store import list_runs
    from auditor.store.runs import unaudited_inputs

    for row in list_runs(engine, run_ids):
        if row.status == "finished":
            continue
        missing = unaudited_inputs(engine, row.id)
        if missing is None:
            which = "which inputs it was given was not recorded"
        elif missing:
            shown = ", ".join(missing[:_NAMED])
            more = f" and {len(missing) - _NAMED} more" if len(missing) > _NAMED else ""
            which = (f"{row.inputs} of {row.inputs + len(missing)} input(s) audited; not "
                     f"audited: {shown}{more}")
        else:
            which = f"all {row.inputs} input(s) audited but its findings never judged"
        return (f"run {row.id} is UNFINISHED (killed, failed or still running): {which}; "
                f"it is not {verb} (`auditor runs show {row.id}` lists what it holds)")
    return None


_NAMED = 5  # inputs named in a one-line refusal; `runs show` lists them all


def _diff(engine, earlier: int, later: int, as_json: bool, console: Console) -> int:
    from auditor.money import rows_text, signed_text
    from auditor.run_diff import diff_runs
    from auditor.store import list_runs

    missing = {earlier, later} - {row.id for row in list_runs(engine, [earlier, later])}
    if missing:
        raise Refused(f"auditor: the store has no run {', '.join(map(str, sorted(missing)))}")
    refusal = _unfinished(engine, [earlier, later], "compared")
    if refusal:
        raise Refused(f"auditor: {refusal}")
    difference = diff_runs(engine, earlier, later)
    if as_json:
        _print_json({"earlier": earlier, "later": later, **difference})
        return 0
    left_out = _not_compared(difference, earlier, later)
    console.print(f"Run {later} against run {earlier}: {len(difference['new'])} new, "
                  f"{len(difference['persisting'])} persisting, "
                  f"{len(difference['resolved'])} resolved{left_out}.", markup=False)
    for status in ("new", "persisting", "resolved"):  # money per currency, never added
        rows = difference["money"][status]
        if rows:
            console.print(f"  {status}: players under-paid {rows_text(rows, 'under_paid')}, "
                          f"over-paid {rows_text(rows, 'over_paid')}", soft_wrap=True)
    _print_patterns(console, difference["patterns"], earlier, later)
    for status in ("new", "resolved"):
        for finding in difference[status]:
            amount = (f"  ({signed_text(finding['difference'], finding['currency'])})"
                      if finding.get("difference") else "")
            console.print(f"  {status:9} {finding.get('id') or '-'}  {finding['citation']}  "
                          f"{finding['file']}:{finding.get('line') or ''}  "
                          f"{finding['message']}{amount}", soft_wrap=True)
    return 0


def _not_compared(difference: dict, earlier: int, later: int) -> str:
    """"; 1 not compared (20:18:15:26: run 2 did not judge it)": the findings of citations
    one of the two runs did not judge, which are neither new nor resolved; "" for none."""
    from auditor.run_diff import in_citation_order

    left_out = difference["not_compared"]
    parts, count = [], 0
    for side, other in (("later", earlier), ("earlier", later)):
        citations = in_citation_order({f["citation"] for f in left_out[side]})
        count += len(left_out[side])
        if citations:
            parts.append(f"{', '.join(citations)}: run {other} did not judge "
                         f"{'it' if len(citations) == 1 else 'them'}")
    return f"; {count} not compared ({'; '.join(parts)})" if count else ""


def _print_patterns(console: Console, patterns: list[dict], earlier: int, later: int) -> None:
    """Patterns across the two nights (auditor/patterns.py): how many of each status, then
    every one with its counts in the two runs, those unlikely by chance marked "notable"
    with their q (the audit's summary lists those alone)."""

    from auditor.patterns import every_pattern_lines, status_counts

    notable = sum(1 for p in patterns if p.get("notable") and p.get("q") is not None)
    console.print("Patterns (table, dealer, player × citation): " + status_counts(patterns)
                  + f"; {notable} notable.", markup=False)
    for line in every_pattern_lines(patterns):
        console.print(line, markup=False, soft_wrap=True)


def quiet_stdout() -> None:
    """After the reader of standard output went away (`| head`): whatever is still to be
    printed, and Python's flush at exit, go nowhere instead of raising again."""
    import os
    import sys

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
