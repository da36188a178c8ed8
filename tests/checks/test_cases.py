"""Every case of tests/cases/*.toml: exactly the marked findings, on the marked lines."""

from __future__ import annotations

import re
from collections import Counter
from decimal import Decimal

import pytest

from auditor.audit import audit_file
from auditor.findings import Finding
from tests.helpers.casefiles import Case, Marked, load_cases, parse_marker

CASES = load_cases()
MONEY = ("expected", "actual", "difference")
_NONE = re.compile(r"(?<![.!?] )(?<!^)\bNone\b")


def holds(finding: Finding, marked: Marked) -> bool:
    """The finding has every field the marker states (money compared as amounts)."""
    for name, value in marked.stated:
        held = getattr(finding, name)
        if name in MONEY:
            if (held is None) != (value is None) or (
                    value is not None and held != Decimal(value)):
                return False
        elif held != value:
            return False
    return True


def unmatched(findings: list[Finding], marks: list[Marked]) -> list[Marked]:
    """The marks no finding of theirs holds, each finding used once (the marks stating the
    most first, so one stating less never takes the finding another needs)."""
    left = list(findings)
    missed = []
    for marked in sorted(marks, key=lambda m: -len(m.stated)):
        match = next((f for f in left if (f.citation, f.round, f.line) == marked.key
                      and holds(f, marked)), None)
        if match is None:
            missed.append(marked)
        else:
            left.remove(match)
    return missed


def described(finding: Finding) -> str:
    return (f"{finding.citation} round {finding.round} line {finding.line} seat={finding.seat} "
            f"hand={finding.hand} expected={finding.expected} actual={finding.actual} "
            f"difference={finding.difference}: {finding.message}")


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_case(case: Case, tmp_path) -> None:
    record = tmp_path / "case.bjh"
    record.write_text(case.text, encoding="utf-8")
    result = audit_file(str(record), keep_evidence=False)
    found = Counter((f.citation, f.round, f.line) for f in result.findings)
    assert found == case.expected(), "\n".join(map(described, result.findings))
    marks = case.marked()
    assert unmatched(result.findings, marks) == [], "\n".join(map(described, result.findings))
    # A finding that carries money has it stated by its marker.
    with_money = {(f.citation, f.round, f.line) for f in result.findings
                  if f.expected is not None or f.actual is not None}
    unstated = [m.key for m in marks if m.key in with_money
                and not {"expected", "actual"} <= dict(m.stated).keys()]
    assert unstated == [], "state expected= and actual= for: " + "\n".join(
        map(described, result.findings))
    # A value missing from a message's text shows as "None" inside a sentence.
    assert [f.message for f in result.findings if _NONE.search(f.message)] == []
    if case.kind == "violating":
        assert any(c == case.citation for c, _, _ in case.expected()), (
            "a violating case must mark at least one finding of its own citation")
    else:
        assert not case.expected(), "a compliant case has no markers"


def test_every_check_has_a_violating_and_a_compliant_case() -> None:
    from auditor.checks.base import registry

    kinds = {(c.citation, c.kind) for c in CASES}
    # A check held to a file outside the record (--approved) is tested with that file
    # (tests/checks/test_selection.py): a case is a record alone.
    missing = [f"{citation} {kind}" for citation, check in registry().items()
               if not check.outside_file
               for kind in ("violating", "compliant") if (citation, kind) not in kinds]
    assert not missing, "checks without cases: " + ", ".join(missing)


def test_a_marker_states_seat_hand_and_money_per_citation() -> None:
    assert parse_marker(["20:18:15:06", "seat=s3", "hand=s3h1", "expected=30", "actual=20",
                         "record:syntax", "difference=none"], "4", 12) == [
        Marked("20:18:15:06", "4", 12, (("seat", "s3"), ("hand", "s3h1"), ("expected", "30"),
                                        ("actual", "20"))),
        Marked("record:syntax", "4", 12, (("difference", None),))]
    for words in (["seat=s3"], ["20:18:15:06", "player=P-1"], ["20:18:15:06", "seat="],
                  ["20:18:15:06", "seat=s1", "seat=s2"]):
        with pytest.raises(ValueError):
            parse_marker(words, "1", 3)


def test_a_stated_field_is_compared() -> None:
    """Each stated field can fail a case: another seat, hand or amount, a missing amount."""
    finding = Finding(citation="20:18:15:06", rule="r", severity="high", file="f", line=12,
                      round="4", seat="s3", hand="s3h1", message="m",
                      expected=Decimal("30.00"), actual=Decimal("20"),
                      difference=Decimal("-10"))
    right = parse_marker(["20:18:15:06", "seat=s3", "hand=s3h1", "expected=30",
                          "actual=20.00", "difference=-10"], "4", 12)
    assert unmatched([finding], right) == []
    for wrong in ("seat=s4", "hand=s3h2", "expected=31", "actual=none", "difference=10"):
        marks = parse_marker(["20:18:15:06", wrong], "4", 12)
        assert unmatched([finding], marks) == marks
    no_money = finding.model_copy(update={"expected": None})
    assert unmatched([no_money], parse_marker(["20:18:15:06", "expected=30"], "4", 12))
    assert unmatched([no_money], parse_marker(["20:18:15:06", "expected=none"], "4", 12)) == []
    # Two findings on one line told apart by their seats, whatever the order of the marks.
    other = finding.model_copy(update={"seat": "s4", "hand": "s4h1"})
    marks = parse_marker(["20:18:15:06", "seat=s4", "20:18:15:06", "seat=s3",
                          "hand=s3h1"], "4", 12)
    assert unmatched([finding, other], marks) == []
    assert unmatched([finding, finding], marks) == [marks[0]]
