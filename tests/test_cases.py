"""Every case of tests/cases/*.toml: exactly the marked findings, on the marked lines."""

from __future__ import annotations

from collections import Counter

import pytest
from casefiles import Case, load_cases

from auditor.audit import audit_file

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_case(case: Case, tmp_path) -> None:
    record = tmp_path / "case.bjh"
    record.write_text(case.text, encoding="utf-8")
    result = audit_file(str(record), keep_evidence=False)
    found = Counter((f.citation, f.round, f.line) for f in result.findings)
    assert found == case.expected(), "\n".join(
        f"{f.citation} round {f.round} line {f.line}: {f.message}" for f in result.findings)
    if case.kind == "violating":
        assert any(c == case.citation for c, _, _ in case.expected()), (
            "a violating case must mark at least one finding of its own citation")
    else:
        assert not case.expected(), "a compliant case has no markers"


def test_every_check_has_a_violating_and_a_compliant_case() -> None:
    from auditor.checks.base import registry

    kinds = {(c.citation, c.kind) for c in CASES}
    # A check held to a file outside the record (--approved) is tested with that file
    # (tests/test_selection.py): a case is a record alone.
    missing = [f"{citation} {kind}" for citation, check in registry().items()
               if not check.outside_file
               for kind in ("violating", "compliant") if (citation, kind) not in kinds]
    assert not missing, "checks without cases: " + ", ".join(missing)
