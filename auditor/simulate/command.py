"""`auditor simulate`: the command line of the simulator (auditor/commands/simulate.py
runs it)."""

from __future__ import annotations

import argparse
import time
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from auditor.refusal import Refused

if TYPE_CHECKING:  # Rich is loaded when something is printed (auditor/shown.py)
    from rich.console import Console


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "simulate", help="write realistic BJH records, compliant or with planted faults",
        description="Deal realistic rounds of a game and write them as BJH 1 records, one "
                    "file per table, each with <name>.truth.json beside it: the faults planted "
                    "(file, round, citation, line). The same arguments and seed give the same "
                    "bytes.")
    parser.add_argument("--game", choices=["standard", "switch", "db21", "tensticks", "ladies"],
                        help="the game (required, unless --floor gives the tables)")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--rounds", type=int, metavar="N", help="rounds dealt at each table")
    size.add_argument("--hours", type=float, metavar="H", help="hours of play at each table")
    parser.add_argument("--tables", type=int, default=1, metavar="T",
                        help="tables, one record each (default 1)")
    parser.add_argument("--seed", default="1", help="the seed (any text; default 1)")
    parser.add_argument("--decks", type=int, default=None,
                        help="6 or 8 (also 1 or 2 for standard and ladies); default 6")
    parser.add_argument("--seats", type=int, default=7)
    parser.add_argument("--min", dest="minimum", type=int, default=10, metavar="AMOUNT",
                        help="table minimum, whole units (default 10)")
    parser.add_argument("--max", dest="maximum", type=int, default=1000, metavar="AMOUNT",
                        help="table maximum, whole units (default 1000)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a house rule as in the format's `option` statement "
                             "(repeatable), e.g. soft17=hit, surrender=late, db21.paytable=2, "
                             "ladies.paytable=B")
    parser.add_argument("--faults", type=float, default=0.0, metavar="RATE",
                        help="the share of rounds given one planted fault, 0 to 1 (default 0)")
    parser.add_argument("--header-fault", nargs="?", const=True, default=False,
                        metavar="CLAUSE",
                        help="with --faults, also plant a fault in each file's header, on top "
                             "of the rate: the CLAUSE named (UnknownHeaderOption, "
                             "CasinoAfterTable, MissingVersionLine; DeckCountNotSixOrEight at "
                             "switch, Db21WithoutPaytable at db21, LadiesWithoutPaytable at "
                             "ladies) or one drawn at random")
    parser.add_argument("--date", default="2026-11-20", help="the first gaming day")
    parser.add_argument("--table", default="T01", help="the table ID (or its prefix)")
    parser.add_argument("--out", default="simulated", metavar="DIR",
                        help="where the records go (default: simulated)")
    parser.add_argument("--quiet", action="store_true", help="print nothing but errors")
    from auditor.simulate.surveillance import add_arguments

    add_arguments(parser)
    parser.add_argument("--floor", metavar="FILE",
                        help="a whole floor from a TOML file (docs/surveillance.md, \"A floor "
                             "from a file\"): tables of several games, one roster of dealers "
                             "and players, planted careless dealers and pairs, night after "
                             "night into OUT/YYYY-MM-DD/; with --out and --quiet only")


# The options of one call's tables, with their defaults: --floor's file gives all of them.
ONE_TABLE_OPTIONS = {"game": None, "rounds": None, "hours": None, "tables": 1, "seed": "1",
                     "decks": None, "seats": 7, "minimum": 10, "maximum": 1000, "option": [],
                     "faults": 0.0, "header_fault": False, "date": "2026-11-20",
                     "table": "T01", "roster": False, "careless": None, "collude": None,
                     "repeat_shoe": False}
FLAGS = {"minimum": "--min", "maximum": "--max"}


def run(arguments: argparse.Namespace, console: Console) -> int:
    from rich.table import Table

    from auditor.output.files import out_folder_problem
    from auditor.simulate import SpecError, simulate, table_spec

    if arguments.floor is not None:
        return run_floor(arguments, console)
    if arguments.game is None or (arguments.rounds is None and arguments.hours is None):
        raise Refused("auditor: simulate needs --game and --rounds or --hours (or --floor "
                      "FILE)")
    options: dict[str, str] = {}
    for item in arguments.option:
        if "=" not in item:
            raise Refused(f"auditor: --option {item!r} is not KEY=VALUE")
        key, value = item.split("=", 1)
        options[key] = value
    try:
        if arguments.tables < 1 or (arguments.rounds is not None and arguments.rounds < 1) or (
                arguments.hours is not None and arguments.hours <= 0):
            raise SpecError("tables, rounds and hours must be positive")
        spec = table_spec(arguments.game, table_id=arguments.table, decks=arguments.decks,
                          seats=arguments.seats, minimum=arguments.minimum,
                          maximum=arguments.maximum, options=options)
        from auditor.simulate.surveillance import floor_from_arguments

        start = date.fromisoformat(arguments.date)
        floor = floor_from_arguments(arguments, arguments.game, arguments.tables,
                                     start.toordinal(), arguments.faults)
        problem = out_folder_problem(Path(arguments.out))
        if problem:  # a file, or a folder under a file, in --out's place: before any dealing
            raise SpecError(problem)
        started = time.perf_counter()
        result = simulate(arguments.out, spec, tables=arguments.tables, rounds=arguments.rounds,
                          hours=arguments.hours, seed=arguments.seed, faults=arguments.faults,
                          start=start, floor=floor, header_fault=arguments.header_fault)
    except (SpecError, ValueError) as error:
        raise Refused(f"auditor: {error}") from None
    except OSError as error:  # the folder went away, or filled up, while records were written
        raise Refused(f"auditor: --out {arguments.out} cannot be written "
                      f"({error.strerror or error})") from None
    elapsed = time.perf_counter() - started
    if arguments.quiet:
        return 0
    console.print(f"Wrote {len(result.files)} record(s) to {arguments.out}: {result.rounds:,} "
                  f"rounds, {result.lines:,} lines, {sum(result.planted.values()):,} planted "
                  f"fault(s) in {elapsed:.1f} s.")
    if result.planted:
        table = Table(title="Planted faults by citation")
        table.add_column("citation")
        table.add_column("faults", justify="right")
        for citation, count in sorted(result.planted.items()):
            table.add_row(citation, str(count))
        console.print(table)
    if result.uncovered:
        console.print("Checks of this game with no fault injector: " + ", ".join(result.uncovered))
    return 0


def run_floor(arguments: argparse.Namespace, console: Console) -> int:
    """`simulate --floor FILE`: the floor of the file, night after night."""
    from pathlib import Path

    from auditor.simulate import SpecError
    from auditor.simulate.floor import FloorFileError, read_floor_file, simulate_floor

    given = [FLAGS.get(name, f"--{name.replace('_', '-')}")
             for name, default in ONE_TABLE_OPTIONS.items()
             if getattr(arguments, name) != default]
    if given:
        raise Refused(f"auditor: --floor takes the floor from its file: {', '.join(given)} "
                      "cannot be given with it")
    started = time.perf_counter()
    try:
        floor = read_floor_file(Path(arguments.floor))
        truth = simulate_floor(floor, Path(arguments.out))
    except (FloorFileError, SpecError) as error:
        raise Refused(f"auditor: {error}") from None
    if not arguments.quiet:
        console.print(f"Wrote a floor of {floor.tables} tables, {floor.nights} night(s) to "
                      f"{arguments.out}: {truth['rounds']:,} rounds, a roster of "
                      f"{len(floor.dealers)} dealers and {len(floor.players)} players, in "
                      f"{time.perf_counter() - started:.1f} s.", markup=False)
    return 0
