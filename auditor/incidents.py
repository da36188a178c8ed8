"""`auditor incidents`: a run's findings as incidents for a surveillance incident system.

One incident per finding, with what incident systems import: its status ("new": the
incident system's to change) and when it was reported (the export's time, UTC), type and
category (the citation and the rule), location (licensee, pit, table) and the camera on
that table (the settings' `[pits]` and `[cameras]`, "LICENCE/TABLE" or "TABLE" = NAME),
when it occurred (the round's local start and end), gaming day and shift, the people
(dealer, player, seat), the amounts with their currency, a synopsis (the finding's
sentence), the finding's ID and a link to its evidence: the run's report.html#finding-ID,
as a path relative to the folder the incidents are written to (it works wherever the two
folders are copied together), or, with the settings' `evidence-url`, that address and the
report's path under `evidence-root`.

Each incident leaves once: the store remembers the finding IDs it has exported
(`incident_exports`, migration 0006). A finding's ID is stable, so the same record audited
again in a later run is not exported again. A table-night a later run recorded again (a
record audited while its table was open, then once finished: auditor/store/trend_reads.py,
`superseded_nights`) is exported from the later run only: findings of the earlier
recording that the later one no longer holds are never exported. The IDs are recorded in
the transaction that writes the files: a failed write exports nothing and remembers
nothing.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from auditor.patterns import table_keys

if TYPE_CHECKING:  # the store (SQLAlchemy) loads only when incidents are exported, so that
    from auditor.store.engine import Engine  # every other command starts without it

CSV_COLUMNS = ["incident_id", "status", "reported", "type", "category", "severity",
               "licensee", "casino", "pit", "table", "camera", "occurred_start",
               "occurred_end", "gaming_day", "shift", "dealer", "player", "seat", "hand",
               "expected", "actual", "difference", "currency", "synopsis", "finding_id",
               "evidence", "file", "line", "round"]


NEW = "new"  # every incident's status when exported: the incident system changes it


class IncidentError(Exception):
    """The export cannot be made (no such run, an unfinished one); the message says why."""


@dataclass(frozen=True)
class Floor:
    """What the settings say of the floor, for incidents: the cameras and pits of tables
    ("LICENCE/TABLE" or "TABLE" = NAME), and where the reports are served (`evidence_url`,
    the address of the folder `evidence_root`), if they are."""

    cameras: dict[str, str] = field(default_factory=dict)
    pits: dict[str, str] = field(default_factory=dict)
    evidence_url: str | None = None
    evidence_root: Path | None = None


def _as_link(parts: Iterable[str]) -> str:
    """Path parts as a URL path: each part quoted (a space, `#`, `?` or `%` in a folder's
    name cannot end the path or start an anchor)."""
    return "/".join(quote(part, safe="") for part in parts)


def report_link(report: Path | None, out: Path, floor: Floor) -> str | None:
    """The link to the run's report.html, without its anchor: its address under the
    settings' evidence-url, else its path relative to the export folder `out`; None for a
    run that did not record where its report went. IncidentError for a report outside
    evidence-root (no address can be made for it)."""
    if report is None:
        return None
    if floor.evidence_url is None:
        relative = os.path.relpath(report, out.resolve())
        return _as_link(Path(relative).parts)
    root = (floor.evidence_root or Path.cwd()).resolve()
    try:
        under = report.relative_to(root)
    except ValueError:
        raise IncidentError("the run's report.html is not under the settings' evidence-root "
                            f"({root}): no evidence-url address can be made for it") from None
    return f"{floor.evidence_url.rstrip('/')}/{_as_link(under.parts)}"


def chosen_run(engine: Engine, run_id: int | None) -> int:
    """`run_id` if it is a finished run of the store, else the latest finished run."""
    from auditor.store.incidents import latest_finished_run, run_status
    from auditor.store.recording import FINISHED

    if run_id is None:
        latest = latest_finished_run(engine)
        if latest is None:
            raise IncidentError("the store has no finished run to export")
        return latest
    status = run_status(engine, run_id)
    if status is None:
        raise IncidentError(f"the store has no run {run_id}")
    if status != FINISHED:
        raise IncidentError(f"run {run_id} did not finish: its findings are not exported")
    return run_id


def occurred(finding: dict[str, Any]) -> tuple[str | None, str | None]:
    """The round's local start and end (YYYY-MM-DDTHH:MM:SS, no zone: the table's clock);
    the end is on the next date where the clock passed midnight between them, as every
    output dates a time read after another (auditor/clock.py `date_after`: back more than
    an hour; 01:55 then 01:05, the fall-back hour, is the same date)."""
    from auditor.clock import date_after

    day = finding.get("date")
    start = finding.get("round_started") or finding.get("time")
    end = finding.get("round_ended") or start
    if not day or not start:
        return None, None
    return f"{day}T{start}", f"{date_after(day, start, end)}T{end}" if end else None


def camera_of(cameras: dict[str, str], table_key: str | None, table: str | None) -> str | None:
    """The camera on a table (or its pit, given `[pits]`): by its identity ("RL-0412/T11"),
    else by its table ID alone."""
    return cameras.get(table_key or "") or cameras.get(table or "")


def incident(finding: dict[str, Any], place: dict[str, Any], table_key: str | None,
             floor: Floor, report: str | None, reported: str) -> dict[str, Any]:
    """One finding (as findings.json shows it) as an incident (the JSON form); `report`:
    the link to its report (report_link), `reported`: the export's time."""
    start, end = occurred(finding)
    finding_id = finding.get("id")
    table = finding.get("table") or place.get("table")
    return {
        "incident_id": finding_id, "status": NEW, "reported": reported,
        "type": finding["citation"], "category": finding["rule"],
        "severity": finding["severity"],
        "location": {"licensee": place.get("licence"), "casino": place.get("casino"),
                     "pit": camera_of(floor.pits, table_key, table), "table": table},
        "camera": camera_of(floor.cameras, table_key, finding.get("table")),
        "occurred": {"start": start, "end": end},
        "gaming_day": finding.get("gaming_day"), "shift": finding.get("shift"),
        "people": {"dealer": finding.get("dealer"), "player": finding.get("player"),
                   "seat": finding.get("seat"), "hand": finding.get("hand")},
        "amounts": {"expected": finding.get("expected"), "actual": finding.get("actual"),
                    "difference": finding.get("difference"),
                    "currency": finding.get("currency")},
        "synopsis": finding["message"],
        "finding_id": finding_id,
        "evidence": (f"{report}#finding-{quote(finding_id, safe='')}"
                     if report and finding_id else None),
        "record": {"file": finding["file"], "line": finding.get("line"),
                   "round": finding.get("round")},
    }


def csv_row(item: dict[str, Any]) -> dict[str, Any]:
    """An incident as one CSV row (CSV_COLUMNS)."""
    return {"incident_id": item["incident_id"], "status": item["status"],
            "reported": item["reported"], "type": item["type"],
            "category": item["category"], "severity": item["severity"],
            **item["location"], "camera": item["camera"],
            "occurred_start": item["occurred"]["start"],
            "occurred_end": item["occurred"]["end"], "gaming_day": item["gaming_day"],
            "shift": item["shift"], **item["people"], **item["amounts"],
            "synopsis": item["synopsis"], "finding_id": item["finding_id"],
            "evidence": item["evidence"], **item["record"]}


def _report_of(engine: Engine, run_id: int) -> Path | None:
    """The run's report.html, where the audit wrote it (recorded since incidents exist)."""
    from auditor.store.runs import run_settings_text

    out = json.loads(run_settings_text(engine, run_id) or "{}").get("out")
    return Path(out) / "report.html" if isinstance(out, str) else None


def _superseded(engine: Engine, run_id: int) -> set[tuple[str, str]]:
    """(file, gaming day) of the run's table-nights that a later recording supersedes
    (auditor/store/trend_reads.py, `superseded_nights`): their findings are not exported.
    A finding gone from the later recording is thus never exported, and one still there is
    exported from it (once: its ID is the same)."""
    from auditor.store.incidents import superseded_places

    return superseded_places(engine, run_id)


PENDING = ".incidents-pending"  # an export written, not yet published (see export_incidents)
FILES = ("incidents.csv", "incidents.json")
EXPORT = "export.json"  # in PENDING: the export's run, its mark in the store, rows remembered


def export_incidents(engine: Engine, run_id: int, out: Path, floor: Floor,
                     store_name: str, again: bool = False) -> tuple[int, int]:
    """Write out/incidents.csv and out/incidents.json with the run's findings not exported
    before (with `again`: all of them, those exported before too), and remember them;
    (incidents written, findings exported before).

    Each incident leaves once: both files are written whole, beside the folder's others,
    before the store remembers them, and are published after it has, by two renames. A
    full disk or a kill before the store's commit leaves nothing published and nothing
    remembered; a kill after it leaves the pending files, which the next export to the same
    folder publishes before anything else.

    One export into a folder at a time (a lock on the folder, held to the end): another
    begun meanwhile took this one's files, written and not yet remembered, for the
    leftover of an export that never left and removed them, and this one, remembered,
    then had nothing to publish."""
    out.mkdir(parents=True, exist_ok=True)
    with _folder_held(out):
        return _export(engine, run_id, out, floor, store_name, again)


@contextmanager
def _folder_held(out: Path) -> Iterator[None]:
    import fcntl

    # the folder itself is locked: a lock file would be left in it
    descriptor = os.open(out, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


def _export(engine: Engine, run_id: int, out: Path, floor: Floor, store_name: str,
            again: bool) -> tuple[int, int]:
    from auditor.output.files import write_atomic
    from auditor.store.incidents import export_transaction
    from auditor.store.runs import finding_documents, run_inputs_documents

    # An export left pending is published first; its incidents go into this export's
    # files too, which replace the folder's: written over alone, they would be lost.
    recovered = publish_pending(engine, out)
    inputs = run_inputs_documents(engine, run_id)
    places = {summary["path"]: summary for summary in inputs}
    keys = table_keys(inputs)
    report = report_link(_report_of(engine, run_id), out, floor)
    superseded = _superseded(engine, run_id)
    findings = [f for f in finding_documents(engine, run_id)
                if (f.get("file"), f.get("gaming_day")) not in superseded]
    moment = datetime.now(UTC)
    now = moment.isoformat(timespec="seconds")  # each incident's `reported`
    # The export's own mark in the store (the time to the microsecond, and a random tail):
    # what tells a pending export the store remembered from one it never did.
    mark = f"{moment.isoformat(timespec='microseconds')}/{secrets.token_hex(2)}"
    pending = out / PENDING
    with export_transaction(engine) as exports:
        before = exports.exported_before({f["id"] for f in findings if f.get("id")})
        fresh, taken = [], set()
        for finding in findings:
            finding_id = finding.get("id")
            if (finding_id in before and not again) or finding_id in taken:
                continue  # exported before (or, an ID twice in one run, just now)
            if finding_id:
                taken.add(finding_id)
            fresh.append(incident(finding, places.get(finding["file"], {}),
                                  keys.get(finding["file"]), floor, report, now))
        fresh = [item for item in recovered if item.get("incident_id") not in taken] + fresh
        remembered = sorted(taken - before)
        exports.remember(run_id, mark, remembered)
        try:
            shutil.rmtree(pending, ignore_errors=True)
            _write(pending, fresh, {"run": run_id, "store": store_name, "exported": now,
                                    "again": again})
            write_atomic(pending / EXPORT, json.dumps({"run": run_id, "mark": mark,
                                                       "remembered": len(remembered)}))
        except BaseException:
            shutil.rmtree(pending, ignore_errors=True)
            raise
    publish_pending(engine, out)
    return len(fresh), len(before)


def publish_pending(engine: Engine, out: Path) -> list[dict[str, Any]]:
    """Publish an export left pending in out/PENDING if the store remembers it (its rows
    bear its mark), else drop it: it never left. Its incidents, as published (none where
    nothing was).

    Its files are written whole before the store remembers it, so a remembered export that
    lacks one has had that one published already (a publication cut between its two
    renames): the rest is published, never dropped, or the store would hold as exported
    incidents that no file holds. A rename that fails leaves the export pending (raised as
    `ExportPending`), for the next export to the folder to publish."""
    pending = out / PENDING
    if not pending.is_dir():
        return []
    published: list[dict[str, Any]] = []
    if (pending / EXPORT).is_file() and _remembered(engine, pending / EXPORT):
        try:
            for name in FILES:
                if (pending / name).is_file():
                    os.replace(pending / name, out / name)
        except OSError as error:
            raise ExportPending(error, pending) from error
        published = _incidents_in(out / "incidents.json")
    shutil.rmtree(pending, ignore_errors=True)
    return published


def _incidents_in(path: Path) -> list[dict[str, Any]]:
    """The incidents of an export's JSON, as this module wrote it; none if it cannot be read
    (a folder's file replaced by hand since)."""
    try:
        incidents = json.loads(path.read_text(encoding="utf-8")).get("incidents")
    except (OSError, ValueError, AttributeError):
        return []
    return [item for item in incidents if isinstance(item, dict)] \
        if isinstance(incidents, list) else []


class ExportPending(Exception):
    """An export the store remembers, whose files could not all be published: they wait in
    out/PENDING for the next export to the folder."""

    def __init__(self, error: OSError, pending: Path) -> None:
        super().__init__(str(error))
        self.error, self.pending = error, pending


def _remembered(engine: Engine, about: Path) -> bool:
    from auditor.store.incidents import rows_marked

    try:
        export = json.loads(about.read_text(encoding="utf-8"))
        mark, rows = str(export["mark"]), int(export["remembered"])
    except (OSError, ValueError, KeyError, TypeError):
        return False
    if rows == 0:  # nothing new in it: publishing it repeats nothing
        return True
    return rows_marked(engine, mark) == rows


def _write(out: Path, incidents: list[dict[str, Any]], about: dict[str, Any]) -> None:
    import pandas as pd

    from auditor.output.files import write_atomic
    from auditor.output.tables import spreadsheet_safe

    out.mkdir(parents=True, exist_ok=True)
    frame = pd.DataFrame([csv_row(i) for i in incidents], columns=CSV_COLUMNS)
    frame["line"] = frame["line"].astype("Int64")
    write_atomic(out / "incidents.csv",
                     spreadsheet_safe(frame).to_csv(index=False, lineterminator="\n"))
    document = {**about, "incidents": incidents}
    write_atomic(out / "incidents.json",
                     json.dumps(document, indent=1, ensure_ascii=False) + "\n")


# ---- the command ----

def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "incidents", help="a run's findings as incidents for an incident system",
        description="Write DIR/incidents.csv and DIR/incidents.json: one incident per finding "
                    "of a stored run (the latest finished run unless --run), each exported "
                    "once (the store remembers what it exported).")
    parser.add_argument("--store", default=None, metavar="PATH_OR_URL",
                        help="the run store (default: $BJH_STORE, else the settings "
                             "file's `store`, else $XDG_DATA_HOME/bjh-auditor/floor.sqlite)")
    parser.add_argument("--run", type=int, default=None, metavar="N",
                        help="the run to export (default: the latest finished run)")
    parser.add_argument("--out", required=True, metavar="DIR")
    parser.add_argument("--again", action="store_true",
                        help="export every finding of the run, those exported before too "
                             "(a folder that was lost); the store's memory is unchanged")
    parser.add_argument("--config", metavar="FILE",
                        help="the settings file (for its [cameras], [pits], evidence-url "
                             "and evidence-root; default: as `audit`)")
    parser.add_argument("--quiet", action="store_true", help="print nothing but errors")


def floor_of(settings: Any) -> Floor:
    """The incidents' part of the settings; evidence-root defaults to the settings file's
    folder (paths in the file are its folder's)."""
    root = settings.evidence_root or (str(Path(settings.source).parent)
                                      if settings.source else None)
    return Floor(cameras=settings.cameras or {}, pits=settings.pits or {},
                 evidence_url=settings.evidence_url,
                 evidence_root=Path(root) if root else None)


def run(arguments: Any, console: Any, errors: Any) -> int:
    """`auditor incidents`: 0 when written (even with no new incident); what it refuses is
    raised as `Refused` (exit 2, told by the command line's one guard)."""
    from auditor.output.files import out_folder_problem
    from auditor.refusal import Refused
    from auditor.settings import SettingsError, find_settings
    from auditor.store import open_store
    from auditor.store.urls import shown
    from auditor.store_cli import open_existing_store
    from auditor.store_location import choose_store

    try:
        settings = find_settings(arguments.config)
    except SettingsError as error:
        raise Refused(f"auditor: settings: {error}") from error
    arguments.store = choose_store(arguments.store, settings.store).location
    problem = out_folder_problem(Path(arguments.out))
    if problem:
        raise Refused(f"auditor: {problem}")
    open_existing_store(arguments.store).dispose()  # a missing store is refused
    engine = open_store(arguments.store)  # for writing: what was exported is remembered
    try:
        run_id = chosen_run(engine, arguments.run)
        written, before = export_incidents(engine, run_id, Path(arguments.out),
                                           floor_of(settings), shown(arguments.store),
                                           again=arguments.again)
    except IncidentError as error:
        raise Refused(f"auditor: {error}") from error
    except ExportPending as error:  # remembered, not yet all published
        from auditor.patterns import printable

        failed = error.error  # a rename: its second name is the file the folder lacks
        target = failed.filename2 or failed.filename or arguments.out
        raise Refused(f"auditor: {printable(str(target))}: "
                      f"{failed.strerror}: the export is remembered and waits in "
                      f"{printable(str(error.pending))}; the next export to this folder "
                      "publishes it") from error
    except OSError as error:  # a full disk, a folder that cannot be written
        from auditor.patterns import printable

        raise Refused(f"auditor: {printable(str(error.filename or arguments.out))}: "
                      f"{error.strerror}: no incident was exported or remembered") from error
    finally:
        engine.dispose()
    if not arguments.quiet:
        from auditor.patterns import printable

        again = " (--again: those exported before included)" if arguments.again else ""
        console.print(f"run {run_id}: {written} incident(s) written to "
                      f"{printable(arguments.out)} ({before} exported before){again}",
                      markup=False)
    return 0
