"""The auditor as a library: what the command line, the cluster and the tests call.

    from auditor import api

    result = api.audit_input("T07.bjh")                 # one record: a picklable FileResult
    result = api.audit_input("T07.bjh", data=raw)       # its bytes, where the file is not
    for place, result in api.audit_inputs(paths, jobs=2):           # this machine's cores
    for place, result in api.audit_inputs(paths, cluster=client):   # a Dask cluster
    merged = api.merge(results)                         # in input order, cross-file checks
    store = api.open_store("history.sqlite")            # or postgresql+psycopg://…
    run_id = api.record_run(store, run, settings, paths, api.audit_inputs(paths))
    result = api.annotate_run(store, run_id, waivers, earlier)  # IDs, waivers, baseline
    summary = api.summarize(result)                     # the findings counted, once
    api.render(result, run, "reports", summary=summary) # the four outputs

Whatever runs the audit (one process, several, a cluster, a large file in pieces), a file's
result is the same: the pools only move the work (auditor/tasks.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from auditor.audit import audit_file
from auditor.findings import Finding
from auditor.results import AuditResult, FileResult
from auditor.run import audit_each, collect_paths, merge

if TYPE_CHECKING:
    from auditor.report.frames import RunSummary

__all__ = ["AuditResult", "FileResult", "annotate_run", "audit_input", "audit_inputs",
           "collect_paths", "connect_cluster", "merge", "open_store", "record_run", "render",
           "summarize"]


def audit_input(path: str, data: bytes | None = None, keep_evidence: bool = True,
                judging: Any = None) -> FileResult:
    """Audit one record: the file at `path`, or its bytes `data` named `path`; `judging`
    (selection.judging_for): what is judged, None for everything."""
    return audit_file(path, keep_evidence=keep_evidence, data=data, judging=judging)


def audit_inputs(paths: list[str], jobs: int | None = None, cluster: Any = None,
                 meanwhile: Callable[[], None] | None = None, judging: Any = None
                 ) -> Iterator[tuple[int, FileResult]]:
    """Audit every record; yield (its place in `paths`, its result) as each one is whole.

    On this machine with `jobs` processes (default: its cores; a large file is split among
    them), or on a Dask cluster given as a connected `cluster` client (`connect_cluster`).
    On this machine's processes the work begins at this call: close what it returns if
    it is not walked to its end (`record_run` does)."""
    if cluster is not None:
        from auditor.cluster import audit_on_cluster

        return audit_on_cluster(paths, cluster, meanwhile, judging=judging)
    return audit_each(paths, jobs=jobs, meanwhile=meanwhile, judging=judging)


def connect_cluster(address: str) -> Any:
    """A client of the Dask scheduler at `address` (raises cluster.ClusterError)."""
    from auditor.cluster import connect

    return connect(address)


def open_store(location: str, read_only: bool = False, new_store: bool = False) -> Any:
    """The run store at a SQLite path or database URL (raises store.StoreError): `read_only`
    to only read an existing one, `new_store` to make an SQLite store's missing folders."""
    from auditor.store import open_store as open_it

    return open_it(location, read_only=read_only, new_store=new_store)


def record_run(store: Any, run: dict[str, Any], settings: dict[str, Any], paths: list[str],
               results: Iterable[tuple[int, FileResult]],
               progress: Callable[[FileResult], None] | None = None,
               calendar: Any = None, recorded: dict[str, Any] | None = None) -> int:
    """Record a run in the store as its files finish (the caller keeps none of them): the
    run is marked begun first, so a run killed half-way stays marked unfinished. Returns
    the run's ID; `store.finish_run` marks it finished once its outputs are written.

    A store that fails meanwhile raises `store.StoreFailure` (its cause on one line, the
    run's ID if it was begun); the audit still under way is stopped first.

    `recorded`, a dict, is given what the report shows of each replay kept (its lines and
    changes, by round key): `annotate_run` given it too shows them without reading them back."""
    from auditor.gaming_day import DEFAULT as DEFAULT_CALENDAR
    from auditor.run import RunRecorder
    from auditor.store import StoreFailure, begin_run
    from auditor.store.engine import DatabaseFault, cause_of, is_store_fault

    run_id = None
    try:
        run_id = begin_run(store, run, settings)
        recorder = RunRecorder(store, run_id, paths, calendar or DEFAULT_CALENDAR, recorded)
        for place, result in results:
            recorder.add(place, result)
            if progress:
                progress(result)
        recorder.close()
    except DatabaseFault as error:
        if not is_store_fault(error):
            raise
        raise StoreFailure(run_id, cause_of(error)) from error
    finally:
        # Here, in this thread: the pools stop now, never later in a collector's thread.
        close = getattr(results, "close", None)
        if close is not None:
            close()
    return run_id


def annotate_run(store: Any, run_id: int, waivers: list | None = None,
                 earlier: list[dict[str, Any]] | None = None,
                 today: date | None = None, calendar: Any = None,
                 recorded: dict[str, Any] | None = None, unjudged: Any = None,
                 earlier_run: int | str | None = None) -> AuditResult:
    """Give a recorded run's findings their stable IDs, their gaming day and shift
    (`calendar`, a `gaming_day.Calendar`; the default one if None) and the player at their
    seat, then their waivers (`waivers`, from `waivers.load_waivers`) and baseline marks
    (`earlier`, an earlier run's findings; `unjudged`, a `baseline.Unjudged`, the citations
    either run did not judge, never compared; `earlier_run` names that run), in the store, a
    batch at a time in the run's order; returns the run as the outputs read it, its findings
    read from the store as they are walked (a run of up to `store.findings.HELD_AT_MOST`
    findings: as judged, held); its replays as `record_run` gave them to `recorded`, if
    given, and read back from the store otherwise."""
    from auditor.gaming_day import DEFAULT as DEFAULT_CALENDAR
    from auditor.identity import Identifier, read_statements
    from auditor.store import annotate_findings, load_result, missing_statements

    result, _ = load_result(store, run_id, recorded)
    annotators = [Identifier.of_inputs(result.inputs,
                                       read_statements(missing_statements(store, run_id))),
                  (calendar or DEFAULT_CALENDAR).stamp, _seating(store, run_id)]
    if waivers is not None:
        from auditor.waivers import Waiving  # loaded by a run with a waiver file only

        waive = Waiving(waivers, result.inputs, today or datetime.now(UTC).date())
        annotators.append(waive)
    if earlier is not None:
        from auditor.baseline import Comparison  # loaded by a run with a baseline only

        comparison = Comparison(earlier, unjudged)
        annotators.append(comparison)

    def annotate(finding: Finding) -> Finding:
        for step in annotators:  # identity first: waivers and the baseline look at the IDs
            finding = step(finding)
        return finding

    held = annotate_findings(store, run_id, annotate)
    if held is not None:  # a night's findings, walked by every output without a read back
        result.findings.hold(held)
    if waivers is not None:
        result.waivers = waive.statuses()
    if earlier is not None:
        result.resolved = comparison.resolved()
        result.not_compared = comparison.not_compared(earlier_run)
    return result


def _seating(store: Any, run_id: int) -> Callable[[Finding], Finding]:
    """An annotator that names the player at a finding's seat, if the record names one."""
    from auditor.findings import changed
    from auditor.store.tallies import seated_players

    players = seated_players(store, run_id)

    def seat(finding: Finding) -> Finding:
        player = players.get((finding.file, finding.line, finding.seat))
        if player is None or finding.player == player:
            return finding
        return changed(finding, player=player)
    return seat


def summarize(result: AuditResult) -> RunSummary:
    """The run's findings counted by citation, table, dealer, shift, currency and date, with
    the money involved: made once, for every output (`render`, the terminal's summary)."""
    from auditor.report.frames import run_summary

    return run_summary(result.findings, result.inputs)


def render(result: AuditResult, run: dict[str, Any], out: str | Path,
           processes: int = 1, summary: RunSummary | None = None) -> RunSummary:
    """Write findings.json, findings.csv, summary.csv and report.html to `out`; with
    `processes` above 1, the report by a second process meanwhile. Each output is handed
    `summary` (`summarize`, made here when none is given), which is returned."""
    from auditor.output.render import write_outputs

    return write_outputs(result, run, Path(out), processes, summary)
