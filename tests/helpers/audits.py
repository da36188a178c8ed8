"""The audit as the tests run it, written once: `auditor audit` in this process, its
findings.json read back, a record written from text, and the library's audit of files.
Each caller says what differs (a store, the job count, no --quiet) by parameters."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path

from auditor.audit import audit_file
from auditor.cli import main
from auditor.identity import apply_identity
from auditor.results import AuditResult
from auditor.run import audit_paths


def audit(*inputs: Path | str, out: Path, store: Path | str | None = None,
          jobs: int | None = 1, quiet: bool = True, more: Sequence[str] = ()) -> int:
    """`auditor audit INPUTS --out OUT [--store STORE] [--quiet] [--jobs N] MORE…` run by
    the command line's own `main`; its exit status. `jobs=None` leaves the command's own
    default (as many jobs as it chooses)."""
    arguments = ["audit", *map(str, inputs), "--out", str(out)]
    if store is not None:
        arguments += ["--store", str(store)]
    if quiet:
        arguments.append("--quiet")
    if jobs is not None:
        arguments += ["--jobs", str(jobs)]
    return main([*arguments, *more])


def findings_of(out: Path) -> dict:
    """The findings.json an audit wrote into `out`."""
    return json.loads((out / "findings.json").read_text(encoding="utf-8"))


def written(folder: Path, text: str, name: str = "record.bjh") -> Path:
    """A record of `text` written as `folder/name` (UTF-8)."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def audit_record(folder: Path, text: str, name: str = "record.bjh") -> AuditResult:
    """One record of `text`, written as `folder/name`, audited by the library without the
    replays a report shows (the findings and the input's summary only)."""
    return audit_file(str(written(folder, text, name)), keep_evidence=False)


def audit_identified(paths: Iterable[Path | str]) -> AuditResult:
    """Files audited together in one job, their findings given IDs, gaming days and shifts
    as a run's are."""
    result = audit_paths([str(path) for path in paths], jobs=1)
    apply_identity(result)
    return result
