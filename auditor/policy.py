"""What fails a run: unwaived findings at or above a severity (`--fail-on`), optionally only
those not known to be old (`--fail-on-new`, with a baseline): the new ones, and those not
compared (their citation one of the two runs did not judge, auditor/baseline.py), since
nothing says they were there before. Persisting findings alone pass."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the command line reads FAIL_ON_LEVELS before any finding (pydantic) loads
    from auditor.findings import Finding

FAIL_ON_LEVELS = ("low", "medium", "high", "never")
_RANK = {"low": 0, "medium": 1, "high": 2}


def fails(finding: Finding, fail_on: str = "low", new_only: bool = False) -> bool:
    """Whether this finding fails the run under the policy."""
    if fail_on == "never":
        return False
    return (finding.waiver is None and _RANK[finding.severity] >= _RANK[fail_on]
            and not (new_only and finding.baseline == "persisting"))
