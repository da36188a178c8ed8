"""The findings grouped by citation, in the order of the regulation, and why a finding has
no replay in the report."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from auditor.checks.base import citation_sort_key, registry
from auditor.report.model import CitationGroup, FindingItem, NoReplay, Replays
from auditor.report.totals import key_of
from auditor.rulebase import rule_entries

if TYPE_CHECKING:
    from auditor.findings import Finding
    from auditor.report.totals import FindingsTotals


def check_reading(citation: str) -> str:
    """The `Reading:` section of the check's docstring: how the auditor reads the rule (as
    `auditor rules show` prints it, and the case's exhibits)."""
    check = registry().get(citation)
    return check.reading() if check is not None else ""


def build_groups(totals: FindingsTotals, findings: Iterable[Finding] | None,
                 replays: Replays, keys: dict[str, str]) -> list[CitationGroup]:
    """Each group's counts and money, and, given `findings` (a report small enough to be
    markup), its findings."""
    entries = rule_entries()
    groups = []
    for index, citation in enumerate(sorted(totals.citations, key=citation_sort_key)):
        counted = totals.citations[citation]
        entry = entries.get(citation)
        check = registry().get(citation)
        groups.append(CitationGroup(
            index, citation, entry.title if entry else "",
            entry.text.strip() if entry else "", check.name if check else counted.rule,
            check_reading(citation), counted.severity, counted.severities, counted.money,
            counted.count, on_file=entry.on_file if entry else True))
    if findings is not None:
        place = {group.citation: group for group in groups}
        for number, finding in enumerate(findings, start=1):
            place[finding.citation].findings.append(finding_item(finding, number, replays,
                                                                 keys))
    return groups


def finding_item(finding: Finding, number: int, replays: Replays,
                 keys: dict[str, str]) -> FindingItem:
    return FindingItem(finding, number, key_of(finding, keys), replays.of_finding.get(number),
                       no_replay(finding, number, replays))


def no_replay(finding: Finding, number: int, replays: Replays) -> NoReplay | None:
    """Why a finding has no replay in the report (never silently), or None: it has one."""
    if number in replays.of_finding:
        return None
    if number in replays.cut:
        return NoReplay("cut", replays.recorded)
    if finding.round and (finding.file, finding.citation) in replays.full:
        return NoReplay("beyond_file_cap")
    if finding.round and finding.citation in replays.run_full:
        return NoReplay("beyond_run_cap", replays.recorded)
    if finding.round:
        return NoReplay("not_recorded")
    return NoReplay("file")


def table_keys(inputs) -> dict[str, str]:
    """Each file's table identity (licence or casino, and table ID), by path."""
    return {i.path: i.table_key for i in inputs if i.table_key}
