"""`auditor simulate`: realistic BJH 1 records of any game, compliant or with planted faults.

Each table is one record, `<game>-<table>.bjh`, and beside it `<game>-<table>.truth.json`:
the faults planted in it (file, round, citation, line, what), empty for a clean record.
The same arguments and seed give the same bytes.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from auditor.simulate.spec import SpecError, TableSpec, table_spec

__all__ = ["SimulationResult", "SpecError", "TableSpec", "simulate", "table_spec"]


@dataclass
class SimulationResult:
    files: list[Path] = field(default_factory=list)
    rounds: int = 0
    lines: int = 0
    planted: Counter = field(default_factory=Counter)  # citation -> faults planted
    uncovered: list[str] = field(default_factory=list)  # checks of the game with no injector
    declared: list[TableSpec] = field(default_factory=list)  # each table as its header has it


def __getattr__(name: str) -> Any:
    """The simulator's table spec is loaded on first use: `auditor audit` builds the command
    line, `simulate` included, without loading the simulator itself."""
    if name in ("SpecError", "TableSpec", "table_spec"):
        from auditor.simulate import spec

        return getattr(spec, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def simulate(out_dir: str | Path, spec: TableSpec, *, tables: int = 1,
             rounds: int | None = None, hours: float | None = None, seed: str | int = 1,
             faults: float = 0.0, start: date = date(2026, 11, 20),
             start_seconds: int = 18 * 3600, floor: Any = None,
             header_fault: bool | str = False) -> SimulationResult:
    """Write `tables` records of `spec`'s game, each `rounds` rounds or `hours` long;
    `floor` (surveillance.Floor) plants patterns across the tables; `header_fault` also
    plants a fault in each header when faults are planted: the clause named
    (table.HEADER_CLAUSES), or (True) one drawn at random."""
    from auditor.simulate.spec import SpecError, TableSpec
    from auditor.simulate.table import Session

    if (rounds is None) == (hours is None):
        raise SpecError("give either a number of rounds or a number of hours")
    if not 0.0 <= faults <= 1.0:
        raise SpecError("the fault rate is a fraction between 0 and 1")
    injectors = None
    result = SimulationResult()
    if faults > 0:
        from auditor.simulate.faults import InjectorTable

        injectors = InjectorTable()
        result.uncovered = injectors.missing(spec.game)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    away: list[tuple[str, str, int, int]] = []  # Ten sticks cards punched, not handed in
    for number in range(1, tables + 1):
        table_id = f"{spec.table_id}" if tables == 1 else f"{spec.table_id}-{number:02d}"
        table = TableSpec(spec.game, table_id, spec.decks, spec.seats, spec.minimum,
                          spec.maximum, spec.rules, spec.options)
        name = f"{spec.game}-{table_id}.bjh"
        path = out / name
        with path.open("w", encoding="utf-8", newline="\n") as stream:
            session = Session(table, stream, name=name, seed=str(seed), start=start,
                              start_seconds=start_seconds, faults=faults,
                              injectors=injectors, header_fault=header_fault)
            if floor is not None:
                floor.attach(session, number, str(seed))
            session.carried_in = list(away)  # a player may bring one from another table
            session.floor_share = 0.3 if tables > 1 else 0.0  # or take one to another
            result.rounds += session.run(rounds=rounds, hours=hours)
            taken = {entry[1] for entry in away} - {entry[1] for entry in session.carried_in}
            away = [e for e in away if e[1] not in taken] + session.cards_away()
        result.lines += session.line
        result.planted.update(session.planted_count)
        truth = {"file": name, "game": spec.game, "seed": str(seed),
                 "rounds": session.round_number,
                 "faults": [asdict(p) for p in session.planted]}
        (out / f"{spec.game}-{table_id}.truth.json").write_text(
            json.dumps(truth, indent=1) + "\n", encoding="utf-8")
        result.files.append(path)
        result.declared.append(session.spec)
    if floor is not None:
        floor.write_truth(out)
    return result
