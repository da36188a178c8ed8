"""The conditions a run's findings were found under, besides its inputs and the auditor's
build: what it judged (`--select`/`--ignore`, the commission's approvals) and the casino's
calendar (the gaming day each finding falls on). They are recorded with the run and in
every manifest, so that `auditor case` and `auditor verify` audit the inputs again under
the very same ones: a run audited with a selection verifies untouched, and a case by gaming
date holds the same findings when it is checked.

A run recorded before the conditions were (no `conditions` in its record) was judged on
everything unless its `judging` block says otherwise; approvals it names but does not hold
cannot be applied again, and `UnknownConditions` says so.
"""

from __future__ import annotations

from typing import Any

from auditor.gaming_day import Calendar


class UnknownConditions(ValueError):
    """The run's conditions cannot be known again (an older run's approval file)."""


def approvals_document(approvals: Any, sha256: str | None = None) -> dict[str, Any]:
    """An approval file as it was read (`approvals.Approvals`), as a record keeps it."""
    return {"path": approvals.path, "sha256": sha256,
            "entries": [{"licence": a.licence, "table": a.table, "reference": a.reference,
                         "date": a.day, "line": a.line, "rules": [list(r) for r in a.rules]}
                        for a in approvals.entries]}


def approvals_of(document: dict[str, Any]) -> Any:
    """The `approvals.Approvals` a record kept (`approvals_document`)."""
    from auditor.approvals import Approval, Approvals

    try:
        return Approvals(str(document["path"]), tuple(
            Approval(str(e["licence"]), None if e.get("table") is None else str(e["table"]),
                     str(e["reference"]), str(e["date"]), int(e["line"]),
                     tuple((str(key), str(value)) for key, value in e["rules"]))
            for e in document["entries"]))
    except (KeyError, TypeError, ValueError) as error:
        raise UnknownConditions(f"the recorded approvals cannot be read ({error!r})") from None


def run_conditions(judging: Any, judged: dict[str, Any], calendar: Calendar
                   ) -> dict[str, Any]:
    """The conditions of a run about to be audited: `judging` (selection.Judging or None),
    `judged` (selection.judged_block, for its terms), `calendar`."""
    citations = None if judging is None or judging.citations is None else sorted(
        judging.citations)
    approvals = None if judging is None or judging.approvals is None else approvals_document(
        judging.approvals, judging.approvals.sha256)
    return {"select": list(judged.get("select") or []),
            "ignore": list(judged.get("ignore") or []),
            "citations": citations, "approvals": approvals,
            "calendar": calendar.described(),
            "finished": bool(judging is not None and judging.finished),
            "live_from": None if judging is None else judging.live_from}


def conditions_of_run(run: dict[str, Any]) -> dict[str, Any]:
    """A recorded run's conditions (its `conditions`; for an older run, what its `judging`
    and `calendar` say). Raises UnknownConditions when they cannot be known again."""
    recorded = run.get("conditions")
    if isinstance(recorded, dict):
        return recorded
    judging = run.get("judging") or {}
    if judging.get("approved"):
        raise UnknownConditions(
            f"the run was audited with the approvals in {judging['approved']}, which its "
            "record does not hold (an auditor before this one): audit it again")
    citations = judging.get("judged") if (judging.get("select") or judging.get("ignore")) \
        else None
    return {"select": list(judging.get("select") or []),
            "ignore": list(judging.get("ignore") or []),
            "citations": list(citations) if citations is not None else None,
            "approvals": None,
            "calendar": run.get("calendar") or Calendar().described(),
            "finished": True}


def for_licences(conditions: dict[str, Any], licences: set[str]) -> dict[str, Any]:
    """The conditions a case of `licences` keeps: the approvals of other licensees left out
    (they judge none of its tables, and a case names no other licensee)."""
    approvals = conditions.get("approvals")
    if not approvals:
        return conditions
    kept = [e for e in approvals.get("entries", []) if e.get("licence") in licences]
    return {**conditions, "approvals": {**approvals, "entries": kept}}


def judging_of(conditions: dict[str, Any]) -> Any:
    """The `selection.Judging` the conditions name; None: everything, no approvals."""
    from auditor.selection import Judging

    citations, approvals = conditions.get("citations"), conditions.get("approvals")
    # A run recorded before open rounds were told apart (no `finished` in its conditions)
    # judged every file as finished: so it is audited again.
    finished = conditions.get("finished", True) is not False
    live_from = conditions.get("live_from")
    if live_from is not None and not isinstance(live_from, str):
        raise UnknownConditions("the recorded date records may still be written from is not "
                                "a date")
    if citations is None and not approvals and not finished and live_from is None:
        return None
    if citations is not None and not (isinstance(citations, list)
                                      and all(isinstance(c, str) for c in citations)):
        raise UnknownConditions("the recorded selection is not a list of citations")
    return Judging(None if citations is None else frozenset(citations),
                   approvals_of(approvals) if approvals else None, finished, live_from)


def calendar_of(conditions: dict[str, Any]) -> Calendar:
    """The casino's calendar the conditions name (`Calendar.described`)."""
    try:
        return Calendar.read(conditions.get("calendar") or {})
    except ValueError as error:
        raise UnknownConditions(f"the recorded calendar cannot be read ({error!r})") from None


def audit_again(paths: list[str], conditions: dict[str, Any]) -> Any:
    """The inputs audited again under `conditions`, merged in path order, each finding given
    its gaming day and shift: an `AuditResult` as the run's would be before its IDs."""
    from auditor.findings import Finding
    from auditor.run import audit_each, merge

    judging, calendar = judging_of(conditions), calendar_of(conditions)
    results = [result for _, result in sorted(audit_each(paths, judging=judging),
                                              key=lambda pair: pair[0])]
    merged = merge(results)
    stamped: list[Finding] = [calendar.stamp(finding) for finding in merged.findings]
    merged.findings[:] = stamped
    return merged
