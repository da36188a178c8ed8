"""The report's model built from an audit's result and its run: `build_report`.

The findings are walked, never held (they may be read from the run store as they are
walked): once for every total (`FindingsTotals`), and once more for the groups' findings in
a report small enough to list them (`lazy` false); the page's data walks them again."""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from typing import Any

from auditor.findings import SEVERITIES
from auditor.report.coverage import build_coverage, build_provenance
from auditor.report.frames import RunSummary, run_summary
from auditor.report.groups import build_groups, table_keys
from auditor.report.model import Licensee, Masthead, Report, Scope, TableIdentity
from auditor.report.replays import REPLAYS_IN_REPORT, build_replays
from auditor.report.summaries import build_summaries
from auditor.report.totals import FindingsTotals
from auditor.results import AuditResult

# Past this many findings the page holds the findings and replays as compact data and its
# script draws only what is shown (auditor/output/html_report.py): no finding is then
# listed in its group here (`lazy`).
LAZY_OVER = 500


def build_report(result: AuditResult, run: dict[str, Any], summary: RunSummary | None = None,
                 *, lazy_over: int = LAZY_OVER,
                 replays_in_report: int = REPLAYS_IN_REPORT) -> Report:
    """The report of `result`; `summary`, the run's findings counted (frames.py), is counted
    here only when none is given."""
    findings = result.findings
    keys = table_keys(result.inputs)
    totals = FindingsTotals.of(findings, result, keys)
    if summary is None:
        summary = run_summary(findings, result.inputs)
    lazy = totals.count > lazy_over
    replays = build_replays(result, totals, replays_in_report)
    return Report(
        run=run, fingerprint=fingerprint(result, run), masthead=build_masthead(result),
        scope=build_scope(result, totals), summaries=build_summaries(summary),
        groups=build_groups(totals, None if lazy else findings, replays, keys),
        replays=replays, coverage=build_coverage(result, totals.found(), run.get("judging")),
        provenance=build_provenance(result, run, totals.syntax_rounds),
        facets=totals.facets(), waivers=result.waivers, waived=totals.waived,
        resolved=result.resolved, lazy=lazy)


def fingerprint(result: AuditResult, run: dict[str, Any]) -> str:
    """A short digest of what was audited and by what: the same inputs give the same one."""
    digest = hashlib.sha256()
    for part in (run.get("version"), run.get("rule_base")):
        digest.update(str(part).encode() + b"\0")
    if run.get("judging"):  # a report judged in part is not the full audit's
        digest.update(json.dumps(run["judging"], sort_keys=True).encode())
    for summary in result.inputs:
        digest.update(f"{summary.path}\0{summary.sha256}\0".encode())
    return digest.hexdigest()[:16]


def build_scope(result: AuditResult, totals: FindingsTotals) -> Scope:
    inputs = result.inputs
    dates = sorted({d for i in inputs for d in i.gaming_days() if d})
    dealer_inputs: dict[str, list[int]] = defaultdict(list)  # dealer -> inputs (positions)
    for position, summary in enumerate(inputs):
        for dealer in summary.dealers:
            dealer_inputs[dealer].append(position)
    rounds = sum(i.rounds for i in inputs)
    audited = sum(i.rounds_audited for i in inputs)
    return Scope(
        files=len(inputs), readable_files=sum(1 for i in inputs if not i.error),
        unreadable_files=[i for i in inputs if i.error],
        tables=sorted({i.table_key for i in inputs if i.table_key}),
        games=sorted({i.game for i in inputs if i.game}),
        first_gaming_day=dates[0] if dates else None,
        last_gaming_day=dates[-1] if dates else None,
        rounds=rounds, audited=audited, not_audited=rounds - audited,
        dealers=sorted(dealer_inputs), dealer_inputs=dict(dealer_inputs),
        findings=totals.count,
        severities={s: totals.severities.get(s, 0) for s in SEVERITIES},
        rounds_with_findings=len(totals.rounds), money=totals.money)


def build_masthead(result: AuditResult) -> Masthead:
    """Who was audited and under which house rules: the licensees, and each table (by its
    identity) with its game, shoe, seats, limits, currency and the rules in force."""
    licensees: dict[tuple, Licensee] = {}
    owned: dict[tuple, set] = defaultdict(set)
    tables: dict[tuple, TableIdentity] = {}
    for position, summary in enumerate(result.inputs):
        if summary.error or summary.table is None:
            continue
        owner = (summary.casino, summary.licence)
        licensee = licensees.setdefault(owner, Licensee(summary.casino, summary.licence, 0, []))
        owned[owner].add(summary.table_key)
        licensee.inputs.append(position)
        rules = [(key, value, summary.rule_declared(key))
                 for key, value in summary.house_rules.items()]
        unknown = tuple((summary.unknown_rules or {}).items())
        identity = (summary.table_key, summary.game, summary.decks, summary.seats,
                    summary.minimum, summary.maximum, summary.currency, tuple(rules), unknown)
        row = tables.setdefault(identity, TableIdentity(
            summary.table_key, summary.table, summary.casino, summary.licence, summary.game,
            summary.decks, summary.seats, summary.minimum, summary.maximum, summary.currency,
            rules, unknown))
        row.inputs.append(position)
        row.files += 1
        row.rounds += summary.rounds
    rows = sorted(tables.values(), key=lambda r: (r.key, r.game or ""))
    keyed = Counter(r.key for r in rows)
    for row in rows:  # one table declared two ways in its files: say so on each row
        row.varies = keyed[row.key] > 1
    for owner, licensee in licensees.items():
        licensee.tables = len(owned[owner])
    named = sorted(licensees.values(), key=lambda e: (e.casino or "", e.licence or ""))
    return Masthead(named, rows, sorted({r.currency for r in rows if r.currency}),
                    any(r.currency is None for r in rows))
