"""findings.json: one object with the auditor, the inputs, the findings, summaries and coverage."""

from __future__ import annotations

import json
from typing import Any

from auditor.audit import AuditResult
from auditor.checks.base import citation_sort_key
from auditor.output.tables import SUMMARY_DIMENSIONS, findings_frame, identities, summary_by


def summaries(result: AuditResult) -> dict[str, list[dict[str, Any]]]:
    """Findings counted by citation, table, dealer and shift, with the money involved."""
    frame = findings_frame(result.findings, result.inputs)
    return {dimension: summary_by(frame, dimension).to_dict("records")
            for dimension in SUMMARY_DIMENSIONS}


def to_json(result: AuditResult, run: dict[str, Any]) -> str:
    """Each input with its table's identity (casino, licence, game, decks, seats, limits,
    currency, house rules); each finding with `table_key`, its table's identity."""
    keys = {path: identity["table_key"] for path, identity in identities(result.inputs).items()}
    document = {
        "auditor": run,
        "inputs": [{**summary.model_dump(mode="json"), "table_key": summary.table_key}
                   for summary in result.inputs],
        "findings": [{**finding.as_dict(), "table_key": keys.get(finding.file) or finding.table}
                     for finding in result.findings],
        "summary": summaries(result),
        "coverage": {citation: result.applied[citation]
                     for citation in sorted(result.applied, key=citation_sort_key)},
        # Every waiver of the file with its status (applied, expired, unused) and matches.
        "waivers": [waiver.model_dump(mode="json") for waiver in result.waivers],
        # Earlier findings gone since the baseline; null when there was no baseline.
        "resolved": result.resolved,
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
