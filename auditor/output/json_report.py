"""findings.json: one object with the auditor, the inputs and the findings."""

from __future__ import annotations

import json
from typing import Any

from auditor.audit import AuditResult


def to_json(result: AuditResult, run: dict[str, Any]) -> str:
    document = {
        "auditor": run,
        "inputs": [summary.model_dump(mode="json") for summary in result.inputs],
        "findings": [finding.as_dict() for finding in result.findings],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
