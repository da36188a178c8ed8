"""The rule base's coverage (each citation, how it is checked or why it cannot be) and a
citation as a person types it: what `auditor rules`, the report's coverage section and the
waivers file share, below all three."""

from __future__ import annotations

from collections.abc import Iterable

from auditor import checks as _checks  # noqa: F401  (registers every check)
from auditor.checks.base import citation_sort_key, registry
from auditor.rulebase import rule_entries


def coverage_rows(as_of: str | None = None) -> list[dict[str, str]]:
    """One row per citation of the rule base: how it is checked, or why it cannot be;
    with `as_of` (an ISO date), a rule whose text is in force only later says so."""
    checks_by_name = {check.name: check for check in registry().values()}
    rows = []
    for citation, entry in sorted(rule_entries().items(), key=lambda i: citation_sort_key(i[0])):
        check = checks_by_name.get(entry.check or "")
        since = entry.effective.isoformat() if entry.effective else ""
        rows.append({
            "effective": since,
            "in_force": "no" if as_of and since and since > as_of else "yes",
            "citation": citation, "title": entry.title,
            "status": "checked" if check else "not checkable",
            "rule": check.name if check else "",
            "severity": check.severity if check else "",
            "games": ", ".join(sorted(check.games)) if check else "",
            "why": entry.not_checkable or "",
        })
    return rows


def resolve_citation(citation: str, citations: Iterable[str]) -> str | None:
    """The rule base's citation for what a person types: the full form, or a short form
    without the chapter (`30.10(4)`, `06`) and with or without the paragraph sign
    (`30.02(11)` is `30.02(¶11)`); a record citation as written. None if it names none."""
    def plain(text: str) -> str:
        return text.replace("¶", "").replace(" ", "").removeprefix("20:18:15:").lower()

    wanted = plain(citation)
    for known in citations:
        if plain(known) == wanted:
            return known
    return None
