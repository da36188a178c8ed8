"""`auditor trends`: surveillance signals across the nights kept in the run store.

Writes trends.json and trends.html into --out and prints a short summary. Exit 0 when
nothing is flagged, 1 when something is, 2 when the store cannot be read or the command
is misused.
"""

from __future__ import annotations

import argparse
import json
from datetime import date
from pathlib import Path

from rich.console import Console

from auditor.money import rows_text as paid_words


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
    parser.add_argument("--quiet", action="store_true", help="print nothing but errors")


def run(arguments: argparse.Namespace, console: Console, errors: Console) -> int:
    from auditor.store_cli import open_existing_store

    for name in ("since", "until"):
        value = getattr(arguments, name)
        try:
            if value is not None:
                date.fromisoformat(value)
        except ValueError:
            errors.print(f"auditor: --{name} {value!r} is not a date (YYYY-MM-DD)")
            return 2
    if not 0 < arguments.fdr < 1 or arguments.min_rounds < 1 or arguments.min_pair_rounds < 1:
        errors.print("auditor: --fdr is between 0 and 1, the minimums are 1 or more")
        return 2
    from auditor.output.files import out_folder_problem
    from auditor.store.urls import shown

    problem = out_folder_problem(Path(arguments.out))  # before the store is read
    if problem:
        errors.print(f"auditor: {problem}", markup=False)
        return 2
    engine = open_existing_store(arguments.store, errors)
    if engine is None:
        return 2
    from auditor.trends.analysis import Settings, flags, trends_document
    from auditor.trends.html import to_html

    settings = Settings(since=arguments.since, until=arguments.until, fdr=arguments.fdr,
                        min_rounds=arguments.min_rounds,
                        min_pair_rounds=arguments.min_pair_rounds)
    try:
        document = trends_document(engine, settings, shown(arguments.store))
    finally:
        engine.dispose()
    out = Path(arguments.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "trends.json").write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n",
                                     encoding="utf-8")
    (out / "trends.html").write_text(to_html(document), encoding="utf-8")
    raised = flags(document)
    if not arguments.quiet:
        try:
            print_summary(console, document, raised, out)
        except BrokenPipeError:  # the reader stopped reading: the exit code still tells
            from auditor.store_cli import quiet_stdout

            quiet_stdout()
    return 1 if any(raised.values()) else 0


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
    console.print(f"Trends over {span}: {head['inputs']} input(s) of {len(head['runs'])} "
                  f"run(s), {head['rounds']:,} rounds, {head['findings']:,} findings "
                  f"({floor['findings_per_1000']} per 1,000 rounds; over-paid "
                  f"{paid_words(floor['money'], 'over_paid')}, under-paid "
                  f"{paid_words(floor['money'], 'under_paid')}).",
                  markup=False, highlight=False)
    console.print(f"False discovery rate {head['fdr']:g} in each question; dealers and tables "
                  f"judged from {head['minimum_rounds']['dealer_or_table']} rounds, pairs from "
                  f"{head['minimum_rounds']['pair']}.", markup=False, highlight=False)
    for name, title in (("outliers", "Outliers"), ("pairs", "Dealer–player pairs"),
                        ("repeats", "Shuffles that repeat"), ("game_math", "Game math")):
        entries = document[name]
        too_few = sum(1 for e in entries if e["status"] == "too few rounds to judge")
        console.print(f"{title}: {len(raised[name])} flagged of {len(entries)} listed"
                      + (f" ({too_few} with too few rounds to judge)" if too_few else ""),
                      markup=False, highlight=False)
        for entry in raised[name]:
            console.print(f"  FLAG {describe(entry)}  {odds_text(entry)}", markup=False,
                          highlight=False)
    console.print(f"Trends: {out / 'trends.html'}  (also trends.json)", markup=False,
                  highlight=False)


def describe(entry: dict) -> str:
    """One line naming a flagged unit and its counts."""
    unit, counts = entry["unit"], entry["counts"]
    if unit["kind"] == "pair":
        return (f"dealer {unit['dealer']} – player {unit['player']}: "
                f"{counts['over_payments']} over-payments "
                f"({paid_words(counts['money'], 'over_paid')}) in "
                f"{counts['rounds']} rounds, {counts['expected']:.1f} expected")
    if unit["kind"] == "repeat":
        first, second = entry["places"]
        return (f"{unit['cards']} cards repeated: {first['file']} round {first['round']} "
                f"line {first['line']} and {second['file']} round {second['round']} "
                f"line {second['line']}")
    if "statistic" in unit:
        up = f" {unit['up']} up" if unit.get("up") else ""
        return (f"{unit['key']} {unit['statistic']}{up}: {counts['hits']} of "
                f"{counts['trials']}, {counts['expected']:.1f} expected, "
                f"z={entry['statistic']['value']}")
    return (f"{unit['kind']} {unit['key']}: {counts['findings']} findings in "
            f"{counts['rounds']:,} rounds, {counts['expected']:.1f} expected")


def odds_text(entry: dict) -> str:
    """p and q, or for a chance too small for a float its order of magnitude."""
    if entry["p"] == 0 and "log10_p" in entry:
        return f"p=q≈1e{entry['log10_p']:.0f}"
    return f"p={entry['p']:.3g} q={entry['q']:.3g}"
