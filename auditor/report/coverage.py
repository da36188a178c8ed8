"""Coverage of the rule base (every subsection: what checks it, how often) and provenance
(who audited what, when, and what was left out)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from auditor.checks.base import citation_sort_key, registry
from auditor.report.model import CoverageRow, CoverageSection, Provenance, RoundNotAudited
from auditor.results import AuditResult
from auditor.rule_coverage import coverage_rows
from auditor.rulebase import effective_dates, load_rule_base


def build_coverage(result: AuditResult, found: Counter,
                   judging: dict[str, Any] | None = None) -> list[CoverageSection]:
    """Every subsection of the rule base, section by section: what checks it, how often.

    The standard rules come first, then the variations, then the record's own rules. A
    check the run's selection left out (`judging`, auditor/selection.py) is "not
    selected"; one whose text came in force after every audited round, "not yet in force".
    """
    unselected = set((judging or {}).get("not_judged", ()))
    effective = effective_dates()
    last_date = max((i.last_date for i in result.inputs if i.last_date), default=None)
    audited_games = {i.game for i in result.inputs if i.game}
    rows_by_citation = {row["citation"]: row for row in coverage_rows()}
    checks = {check.name: check for check in registry().values()}
    sections = []
    for section in sorted(load_rule_base(), key=_section_order):
        rows = []
        for entry in sorted(section.entries, key=lambda e: citation_sort_key(e.citation)):
            check = checks.get(entry.check or "")
            described = rows_by_citation.get(entry.citation, {})
            games = frozenset(check.games) if check else frozenset()
            rows.append(CoverageRow(
                entry.citation, entry.title, check is not None, described.get("rule", ""),
                described.get("severity", ""), described.get("why", ""),
                result.applied.get(entry.citation, 0), found.get(entry.citation, 0), games,
                bool(check) and check.judges_unreadable_rounds,
                bool(check) and not games & audited_games))
        checked = [r for r in rows if r.checked]
        # Where no check of a section could apply (its game was not audited), say it once.
        absent = bool(checked) and all(r.game_absent for r in checked)
        for row in rows:
            since = effective.get(row.citation)
            check = checks.get(row.rule)
            if row.citation in unselected:
                row.note = "not_selected"
            elif row.checked and not row.applied and since and last_date and (
                    last_date < since):
                row.note, row.since = "not_in_force", since
            elif row.checked and check is not None and check.outside_file and not (
                    judging or {}).get("approved"):
                row.note, row.outside_file = "no_outside_file", check.outside_file
            elif row.checked and not row.applied and not absent:
                row.note = "game_absent" if row.game_absent else "no_round"
        sections.append(CoverageSection(
            section.section, section.title, section.source, rows, len(checked),
            len(rows) - len(checked), sum(r.applied for r in checked),
            sorted({g for r in checked for g in (checks[r.rule].games if r.rule in checks
                                                 else ())}) if absent else []))
    return sections


def _section_order(section) -> tuple:
    if section.section.startswith("record"):
        return (2, section.section)
    return (0 if section.section == "20:18:15" else 1, citation_sort_key(section.section))


def build_provenance(result: AuditResult, run: dict[str, Any],
                     syntax_rounds: set[tuple]) -> Provenance:
    """Who audited what, when, and what was left out, so a clean report can be trusted
    (`syntax_rounds`: file, round, line, dealer, date, gaming day and shift of each
    unreadable line in a round)."""
    seen: set[tuple[str, str]] = set()
    rounds_not_audited = []
    for file, round_id, line, *when in sorted(syntax_rounds,
                                              key=lambda r: (r[0], r[2] or 0, str(r[1]))):
        if (file, round_id) not in seen:
            seen.add((file, round_id))
            rounds_not_audited.append(RoundNotAudited(file, round_id, line, *when))
    partial = [i for i in result.inputs if not i.error and i.rounds != i.rounds_audited]
    return Provenance(
        run.get("version", ""), run.get("rule_base", ""), run.get("command", ""),
        run.get("started"), run.get("finished"), result.inputs,
        [(position, i) for position, i in enumerate(result.inputs) if i.error],
        partial, rounds_not_audited,
        # Derived from the syntax findings; shown only where it accounts for every round
        # (but the open ones, listed apart).
        len(rounds_not_audited) == sum(i.rounds - i.rounds_audited - (i.open_round is not None)
                                       for i in partial),
        run.get("build"),
        [i for i in result.inputs if i.open_round is not None or i.unwritten_line is not None
         or i.open_header is not None])
