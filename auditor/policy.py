"""What fails a run: unwaived findings at or above a severity (`--fail-on`), optionally only
the new ones (`--fail-on-new`, with a baseline)."""

from __future__ import annotations

from auditor.findings import Finding

FAIL_ON_LEVELS = ("low", "medium", "high", "never")
_RANK = {"low": 0, "medium": 1, "high": 2}


def failing(findings: list[Finding], fail_on: str = "low",
            new_only: bool = False) -> list[Finding]:
    """The findings that fail the run under the policy."""
    if fail_on == "never":
        return []
    threshold = _RANK[fail_on]
    return [f for f in findings
            if f.waiver is None and _RANK[f.severity] >= threshold
            and not (new_only and f.baseline != "new")]
