"""`auditor trends`: surveillance signals across the nights kept in the run store.

Writes trends.json and trends.html into --out and prints a short summary. Exit 0 when
nothing is flagged, 1 when something is, 2 when the store cannot be read or the command
is misused (raised as `Refused`: the command line's one guard tells it in one line).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from auditor.money import rows_text as paid_words
from auditor.refusal import Refused
from auditor.shown import terminal_json
from auditor.trends.numbers import count, probability, rate, stated

if TYPE_CHECKING:  # Rich is loaded when something is printed (auditor/shown.py)
    from rich.console import Console


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "trends", help="surveillance signals across the nights in the run store",
        description="Rates of findings and money per 1,000 rounds, dealers and tables that "
                    "err beyond chance, dealer–player pairs the over-payments favour, "
                    "shuffles that repeat, and each dealer's cards against the game's exact "
                    "odds: from the finished runs of the store (each input's latest run), "
                    "written as trends.json and trends.html.")
    from auditor.store_cli import CONFIG_HELP, STORE_HELP

    parser.add_argument("--store", default=None, metavar="PATH_OR_URL", help=STORE_HELP)
    parser.add_argument("--config", default=None, metavar="FILE", help=CONFIG_HELP)
    parser.add_argument("--since", metavar="DATE",
                        help="first gaming day (YYYY-MM-DD; a gaming day begins at the "
                             "settings' gaming_day_starts, 06:00 by default)")
    parser.add_argument("--until", metavar="DATE", help="last gaming day (YYYY-MM-DD)")
    parser.add_argument("--out", default="trends", metavar="DIR",
                        help="where trends.json and trends.html go (default: trends)")
    parser.add_argument("--fdr", type=float, default=0.05, metavar="LEVEL",
                        help="the false discovery rate controlled in each question "
                             "(Benjamini–Hochberg; default 0.05)")
    parser.add_argument("--min-rounds", type=int, default=200, metavar="N",
                        help="a dealer or table with fewer rounds is not judged (default 200)")
    parser.add_argument("--min-pair-rounds", type=int, default=50, metavar="N",
                        help="a dealer–player pair with fewer rounds is not judged "
                             "(default 50)")
    parser.add_argument("--change-nights", type=int, default=7, metavar="N",
                        help="a change in a dealer's or table's rate may start on one of the "
                             "window's last N nights (default 7; Bonferroni over them)")
    parser.add_argument("--json", action="store_true",
                        help="print trends.json to standard output instead of the summary")
    parser.add_argument("--quiet", action="store_true", help="print nothing but errors")


def run(arguments: argparse.Namespace, console: Console, errors: Console) -> int:
    from auditor.store_cli import open_existing_store

    for name in ("since", "until"):
        value = getattr(arguments, name)
        try:
            if value is not None:
                date.fromisoformat(value)
        except ValueError:
            raise Refused(f"auditor: --{name} {value!r} is not a date (YYYY-MM-DD)") from None
    if not 0 < arguments.fdr < 1 or arguments.min_rounds < 1 or arguments.min_pair_rounds < 1 \
            or arguments.change_nights < 1:
        raise Refused("auditor: --fdr is between 0 and 1, the minimums and --change-nights "
                      "are 1 or more")
    from auditor.output.files import out_folder_problem
    from auditor.store.urls import shown

    problem = out_folder_problem(Path(arguments.out))  # before the store is read
    if problem:
        raise Refused(f"auditor: {problem}")
    engine = open_existing_store(arguments.store)
    from auditor.store.trend_reads import as_of_now
    from auditor.trends.analysis import Settings, flags, trends_document
    from auditor.trends.html import to_html

    settings = Settings(since=arguments.since, until=arguments.until, fdr=arguments.fdr,
                        min_rounds=arguments.min_rounds,
                        min_pair_rounds=arguments.min_pair_rounds,
                        change_nights=arguments.change_nights)
    try:
        pair_nights: dict = {}
        try:
            reader = as_of_now(engine)  # the document and its links: one state of the store
            document = trends_document(reader, settings, shown(arguments.store), pair_nights)
        except OSError as error:  # the repeats' temporary files (auditor/trends/repeats.py)
            import tempfile

            raise Refused(f"auditor: trends could not keep its temporary files in "
                          f"{tempfile.gettempdir()} ({error.strerror or error}); set TMPDIR "
                          "to a folder with room") from error
        from auditor.trends.links import add_night_links

        # each flag's nights' reports
        add_night_links(reader, document, Path(arguments.out), pair_nights)
        del pair_nights
        note = keep_flags(arguments.store, engine, document)
    finally:
        engine.dispose()
    out = Path(arguments.out)
    out.mkdir(parents=True, exist_ok=True)
    with (out / "trends.json").open("w", encoding="utf-8") as stream:
        write_json(document, stream)
    (out / "trends.html").write_text(to_html(document), encoding="utf-8")
    raised = flags(document)
    if note and not arguments.quiet:
        errors.print(f"auditor: {note}", markup=False)
    if arguments.json or not arguments.quiet:
        try:
            if arguments.json:  # raw numbers, as in trends.json; nothing else on stdout
                # exact once parsed; what a terminal would obey (C1, bidi) escaped
                write_json(document, sys.stdout, terminal_json)
                sys.stdout.flush()
            else:
                print_summary(console, document, raised, out)
        except BrokenPipeError:  # the reader stopped reading: the exit code still tells
            from auditor.store_cli import quiet_stdout

            quiet_stdout()
    return 1 if any(raised.values()) else 0


def write_json(document: dict, stream: TextIO,
               escape: Callable[[str], str] | None = None) -> None:
    """The document as trends.json holds it, written a piece at a time (`escape`d each):
    years of a floor make a text of hundreds of megabytes, and its pieces joined first
    several times that."""
    for piece in json.JSONEncoder(indent=1, ensure_ascii=False).iterencode(document):
        stream.write(escape(piece) if escape else piece)
    stream.write("\n")


def keep_flags(location: str, engine, document: dict) -> str | None:
    """The document's flags recorded in the store (auditor/trends/flags.py) and each unit's
    flag history added to it; a note when the store cannot be written (nothing recorded:
    the history is read as it stands)."""
    from auditor.store import StoreError, open_store
    from auditor.store.engine import cause_of, is_store_fault
    from auditor.trends import flags as kept_flags

    window = document["trends"]["window"]
    note = None
    try:
        writer = open_store(location)
    except StoreError as error:
        writer, note = None, f"the flags were not recorded in the store ({error})"
    if writer is not None:
        try:
            kept_flags.record(writer, document)
            engine = writer
        except Exception as error:
            if not is_store_fault(error):
                raise
            note = f"the flags were not recorded in the store ({cause_of(error)})"
    try:
        kept_flags.attach(document, kept_flags.history(engine, window["since"],
                                                       window["until"]))
    finally:
        if writer is not None:
            writer.dispose()
    return note


def print_summary(console: Console, document: dict, raised: dict, out: Path) -> None:
    head = document["trends"]
    floor = document["rates"]["floor"]
    window = head["window"]
    span = ("every gaming date" if not (window["since"] or window["until"]) else
            f"gaming dates {window['since'] or 'from the first'} to "
            f"{window['until'] or 'the last'}")
    if not head["rounds"]:
        console.print(f"Trends over {span}: the store holds no tallied rounds there (runs "
                      "recorded before this auditor kept tallies are passed over).",
                      markup=False, highlight=False)
        console.print(f"Trends: {out / 'trends.html'}  (also trends.json)", markup=False,
                      highlight=False)
        return
    console.print(f"Trends over {span}: {count(head['inputs'])} input(s) of "
                  f"{count(len(head['runs']))} run(s), {count(head['rounds'])} rounds, "
                  f"{count(head['findings'])} findings "
                  f"({rate(floor['findings_per_1000'])} per 1,000 rounds; over-paid "
                  f"{paid_words(floor['money'], 'over_paid')}, under-paid "
                  f"{paid_words(floor['money'], 'under_paid')}).",
                  markup=False, highlight=False)
    from auditor.store.trend_reads import CUT_ACROSS  # loaded already: the store was read

    left_out = head.get("superseded") or []
    again = [row for row in left_out if row.get("reason") != CUT_ACROSS]
    if again:
        console.print(f"{count(len(again))} table-night(s) recorded again: "
                      "those recordings left out, another of the same rounds counted "
                      "(trends.json `superseded`).", markup=False, highlight=False)
    if len(again) < len(left_out):
        console.print(f"{count(len(left_out) - len(again))} table-night(s) cut across "
                      "another recording of the same night: left out, their own rounds not "
                      "counted; audit the night's whole record to count every round once "
                      "(trends.json `superseded`).", markup=False, highlight=False)
    console.print(f"False discovery rate {head['fdr']:g} in each question; dealers and tables "
                  f"judged from {head['minimum_rounds']['dealer_or_table']} rounds, pairs from "
                  f"{head['minimum_rounds']['pair']}.", markup=False, highlight=False)
    for name, title in (("outliers", "Outliers"), ("changes", "Changes in rate"),
                        ("pairs", "Dealer–player pairs"),
                        ("repeats", "Shuffles that repeat"), ("game_math", "Game math")):
        if name == "changes":
            print_changes(console, document, raised["changes"])
            continue
        entries = document[name]
        judged = [e for e in entries if e["status"] != "too few rounds to judge"]
        explained = [e for e in entries if e["status"] == "explained"]
        console.print(f"{title}: {count(len(raised[name]))} flagged"
                      + (f", {count(len(explained))} explained" if explained else "")
                      + f" of {count(len(judged))} judged", markup=False, highlight=False)
        for entry in raised[name]:
            console.print(f"  FLAG {describe(entry)}  {odds_text(entry)}", markup=False,
                          highlight=False)
        for entry in explained:
            console.print(f"  explained {describe(entry)}: by "
                          + ", ".join(f"{p['kind']} {p['key']}" for p in entry["explained_by"]),
                          markup=False, highlight=False)
        for line in document.get("not_judged", []):
            if line["question"] == name:
                console.print(f"  {folded(line)}", markup=False, highlight=False)
    console.print(f"Trends: {out / 'trends.html'}  (also trends.json)", markup=False,
                  highlight=False)


def print_changes(console: Console, document: dict, raised: list) -> None:
    """The changes in rate: how many judged, and each one flagged, since its first night."""
    judged = [e for e in document["outliers"] if e.get("change")]
    nights = document["trends"]["change_nights"]
    console.print(f"Changes in rate (a start on one of the last {count(nights)} nights): "
                  f"{count(len(raised))} flagged of {count(len(judged))} judged",
                  markup=False, highlight=False)
    for entry in raised:
        change, counts = entry["change"], entry["change"]["counts"]
        first = next((h["night"] for h in entry.get("flag_history", [])
                      if h["question"] == "change"), None)
        console.print(
            f"  FLAG {entry['unit']['kind']} {entry['unit']['key']} since {change['since']}"
            + (f" (first raised on {first})" if first else "")
            + f": {count(counts['findings_since'])} findings in "
            f"{count(counts['rounds_since'])} rounds since "
            f"({rate(change['rates']['since_per_1000'])} per 1,000), "
            f"{count(counts['findings_before'])} in {count(counts['rounds_before'])} before "
            f"({rate(change['rates']['before_per_1000'])} per 1,000), "
            f"{counts['expected_given']:,.1f} expected given its "
            f"{'tables' if entry['unit']['kind'] == 'dealer' else 'dealers'}  "
            f"{stated('p', change['p'])}, {stated('q', change['q'])}",
            markup=False, highlight=False)


def folded(line: dict) -> str:
    """The units a question did not judge, as one line."""
    if line["question"] == "game_math":
        return (f"{count(line['units'])} tests with n·p·(1−p) under "
                f"{line['minimum_variance']:g}: not judged")
    if line["question"] == "pairs":
        return (f"{count(line['units'])} dealer–player pairs with fewer than "
                f"{count(line['minimum_rounds'])} rounds: {count(line['findings'])} "
                "over-payments, not judged")
    return (f"{count(line['units'])} {line['kind']}s with fewer than "
            f"{count(line['minimum_rounds'])} rounds: {count(line['findings'])} findings, "
            "not judged")


def describe(entry: dict) -> str:
    """One line naming a flagged unit and its counts."""
    unit, counts = entry["unit"], entry["counts"]
    if unit["kind"] == "pair":
        return (f"dealer {unit['dealer']} – player {unit['player']}: "
                f"{count(counts['over_payments'])} over-payments "
                f"({paid_words(counts['money'], 'over_paid')}) in "
                f"{count(counts['rounds'])} rounds, {counts['expected']:,.1f} expected")
    if unit["kind"] == "repeat":
        first, second = entry["places"]
        return (f"{unit['cards']} cards repeated: {first['file']} round {first['round']} "
                f"line {first['line']} and {second['file']} round {second['round']} "
                f"line {second['line']}")
    if "statistic" in unit:
        up = f" {unit['up']} up" if unit.get("up") else ""
        return (f"{unit['key']} {unit['statistic']}{up}: {count(counts['hits'])} of "
                f"{count(counts['trials'])}, {counts['expected']:,.1f} expected, "
                f"z={entry['statistic']['value']:.2f}")
    given = counts.get("expected_given")
    return (f"{unit['kind']} {unit['key']}: {count(counts['findings'])} findings in "
            f"{count(counts['rounds'])} rounds ({rate(entry['rates']['findings_per_1000'])} "
            f"per 1,000), {counts['expected']:,.1f} expected at the floor's rate"
            + (f", {given:,.1f} given its {'tables' if unit['kind'] == 'dealer' else 'dealers'}"
               if given is not None else ""))


def odds_text(entry: dict) -> str:
    """p and q, or for a chance too small for a float its order of magnitude."""
    if entry["p"] == 0 and "log10_p" in entry:
        return f"p = q {probability(0, entry['log10_p'])}"
    return f"{stated('p', entry['p'])}, {stated('q', entry['q'])}"
