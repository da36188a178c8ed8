"""`auditor audit --baseline last` and `--baseline RUN`: the audit compared with an earlier
run of the store, finding by finding and by patterns across nights.

Two comparisons, each for its own question:

- **Finding by finding** (stable IDs: new, persisting, resolved) answers "what changed in
  these records": it is made against a run over the same records. `last` is the latest
  finished run over exactly the same inputs (by SHA-256), if any; with none, every finding
  is new and none resolved (an ID carries its gaming day: another night's findings are
  other events, never "resolved").
- **Patterns** (auditor/patterns.py: table, dealer and player × citation, new, recurring,
  gone, not audited) answer "what keeps coming back from one night to the next". `last`
  compares with the run over the same inputs if there is one, else with the latest
  finished run before this one that audited one of the same tables (by licence, else
  casino, and table ID) in a record begun on an earlier day: last night's, in a store that
  keeps several floors, and never a re-check of tonight's records.

`RUN` (a run number) must be a finished run of the store. Its patterns are compared as
named; its findings one by one only when it audited some of the same records (by
SHA-256): another night's run shares none, and its findings are other events, so every
finding is new and none resolved, and one line says so.

**What each run judged.** Only the citations both runs judged are compared (a run of
`--select`/`--ignore` names the others in its settings' `not_judged`; a run recorded
before that judged everything): a finding of a citation one of them did not judge is `not
compared`, never new, resolved or persisting (auditor/baseline.py), and so is a pattern of
such a citation, never new or gone (auditor/patterns.py). So `last` prefers, among the
runs it would choose, one that judged at least every citation this run judges, the latest
first: among the runs over the same inputs, any; among those over the same tables, one of
the same night as the latest (a re-check of last night's records, never an older night).
With none, it takes the latest, and the citations that one did not judge are not
compared.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from auditor.fieldwise import Fieldwise


def run_number(baseline: str | None) -> int | None:
    """The run a `--baseline` names (digits only), or None for `last` or a findings.json
    path (a file named only by digits is given as ./NAME)."""
    if baseline and baseline.isascii() and baseline.isdigit():
        return int(baseline)
    return None


def baseline_run_problem(store: Any, run_id: int) -> str | None:
    """Why run `run_id` cannot be a baseline (not in the store, or never finished); None
    when it can."""
    from auditor.store import list_runs

    rows = list_runs(store, [run_id])
    if not rows:
        return f"--baseline {run_id}: the store has no run {run_id}"
    if rows[0].status != "finished":
        return (f"--baseline {run_id}: run {run_id} never finished (killed, failed or still "
                "running): its findings are not whole")
    return None


@dataclass(repr=False, eq=False)
class StoreBaseline(Fieldwise):
    """The stored runs a `--baseline last` or RUN compares against, by finding and by
    pattern."""

    findings_run: int | None  # compared finding by finding; None: every finding is new
    patterns_run: int | None  # compared by patterns; None: no earlier run to compare
    note: str | None = None  # one line for standard error, when `last` found less


def choose_baseline(store: Any, baseline: str, run_id: int) -> StoreBaseline:
    """The runs `--baseline last` or `--baseline RUN` compares run `run_id` with."""
    from auditor.store import run_inputs_sha256
    from auditor.store.runs import runs_over

    named = run_number(baseline)
    if named is not None:
        if run_inputs_sha256(store, named) & run_inputs_sha256(store, run_id):
            return StoreBaseline(named, named)
        return StoreBaseline(None, named, (
            f"auditor: --baseline {named}: run {named} audited none of these records (by "
            "content), so no finding is compared one by one: every finding is new and none "
            f"resolved; patterns are compared with run {named}"))
    covers = _covering(store, run_id)
    same = _preferred(runs_over(store, run_inputs_sha256(store, run_id), before=run_id),
                      covers)
    if same is not None:
        return StoreBaseline(same, same, None if covers(same) else (
            f"auditor: --baseline last: no earlier run over these records judged every "
            f"citation this run judges; compared with run {same}, the latest: the findings "
            f"of the citations run {same} did not judge are not compared"))
    night = latest_run_over_tables(store, run_id, covers)
    note = ("auditor: --baseline last: the store has no earlier finished run over the same "
            "inputs; every finding is new")
    note += (f"; patterns are compared with run {night}, the latest over the same tables"
             if night is not None else "; no earlier run audited these tables, so no "
             "patterns are compared")
    return StoreBaseline(None, night, note)


def _covering(store: Any, run_id: int) -> Callable[[int], bool]:
    """Whether an earlier run judged at least every citation run `run_id` judges: it left
    unjudged only citations this run left unjudged too."""
    from auditor.store.runs import run_not_judged

    unjudged = run_not_judged(store, run_id)
    return lambda earlier: run_not_judged(store, earlier) <= unjudged


def _preferred(candidates: Iterable[int], covers: Callable[[int], bool]) -> int | None:
    """The first candidate that covers what this run judges; else the first; None: none."""
    first = None
    for candidate in candidates:
        if covers(candidate):
            return candidate
        first = candidate if first is None else first
    return first


def latest_run_over_tables(store: Any, run_id: int,
                           covers: Callable[[int], bool] | None = None) -> int | None:
    """The latest finished run before `run_id` that audited one of its tables on an earlier
    date (its record of that table began on an earlier day than this run's), found in one
    walk of the earlier runs' inputs, latest first. A re-check of tonight's records (the
    same table, the same first day, other contents) is not last night. Where either record
    has no date, the table alone decides. With `covers`, a run of that night (its record
    begun on the same day as the latest's) that `covers` holds for is preferred, the latest
    first: the walk stops at a run of another night."""
    from contextlib import closing

    from auditor.store.baselines import earlier_input_tables, run_input_tables

    wanted: dict[str, str | None] = {}  # each table of this run: its earliest first day
    for first_date, *names in run_input_tables(store, run_id):
        table = _table(*names)
        if table is not None:
            known = wanted.get(table, first_date)
            wanted[table] = min(known, first_date) if known and first_date else None
    if not wanted:
        return None
    latest, night, weighed = None, None, set()
    with closing(earlier_input_tables(store, run_id)) as earlier:
        for earlier_run, (first_date, *names) in earlier:
            table = _table(*names)
            if table not in wanted or not _before(first_date, wanted[table]):
                continue
            if latest is None:
                latest, night = earlier_run, first_date
            elif earlier_run != latest and first_date != night:
                break  # another night's run: last night's own are all seen
            if covers is None:
                break
            if earlier_run not in weighed:
                weighed.add(earlier_run)
                if covers(earlier_run):
                    return earlier_run
    return latest


def _before(earlier_day: str | None, this_day: str | None) -> bool:
    """Whether a record that began on `earlier_day` began before one of `this_day`; True
    when either is unknown."""
    return earlier_day is None or this_day is None or earlier_day < this_day


def _table(licence: str | None, casino: str | None, table: str | None) -> str | None:
    """A table's identity as auditor/patterns.py keys it: licence, else casino, / table."""
    from auditor.results import table_key

    return table_key(licence or casino, table)


def earlier_findings(store: Any, run_id: int | None) -> list[dict[str, Any]]:
    """What the per-finding comparison needs of a run's findings; [] for none."""
    from auditor.baseline import resolved_fields
    from auditor.store import finding_documents

    return [] if run_id is None else resolved_fields(finding_documents(store, run_id))


def unjudged_between(store: Any, earlier: int, run_id: int) -> Any:
    """The citations run `earlier` and run `run_id` each left unjudged (baseline.Unjudged)."""
    from auditor.baseline import Unjudged
    from auditor.store.runs import run_not_judged

    return Unjudged(run_not_judged(store, earlier), run_not_judged(store, run_id))


def patterns_against(store: Any, earlier: int, run_id: int) -> list[dict[str, Any]]:
    """The patterns of run `run_id` (judged: its findings carry their player) against run
    `earlier`, as `auditor diff` gives them."""
    from auditor.run_diff import run_patterns

    return run_patterns(store, earlier, run_id)
