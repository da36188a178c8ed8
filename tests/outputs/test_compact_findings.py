"""Findings made compact (findings.compact) are the same findings, sharing their set of
given fields."""

from __future__ import annotations

import pickle
from decimal import Decimal

from auditor.findings import Finding, Waiver, changed, compact

VALUES = {"citation": "20:18:15:06", "rule": "standard.main_payout", "severity": "high",
          "file": "night/T1.bjh", "line": 41, "round": "12", "table": "T1", "seat": "s2",
          "hand": "s2h1", "message": "The main wager on s2h1 was paid 10.00; it should lose.",
          "expected": Decimal("-10"), "actual": Decimal("10.00"), "difference": Decimal("20"),
          "dealer": "D-7", "date": "2026-11-20", "time": "21:04:05", "evidence": (38, 40),
          "statement": "settle s2h1 main win 10"}


def test_a_compact_finding_is_the_same_finding() -> None:
    finding = Finding.model_validate(VALUES)
    made = compact(finding)
    assert made == finding
    assert made.as_dict() == finding.as_dict()
    assert made.statement == finding.statement and made.evidence == (38, 40)
    assert pickle.loads(pickle.dumps(made)) == finding


def test_compact_findings_share_their_set_of_given_fields() -> None:
    made = compact(Finding.model_validate(VALUES))
    other = compact(Finding.model_validate({**VALUES, "line": 42}))
    fewer = compact(Finding.model_validate({**VALUES, "time": None} | {"line": 43}))
    assert made.__pydantic_fields_set__ is other.__pydantic_fields_set__
    assert fewer.__pydantic_fields_set__ is made.__pydantic_fields_set__  # given, if None
    alone = compact(Finding.model_validate({k: v for k, v in VALUES.items() if k != "time"}))
    assert alone.__pydantic_fields_set__ is not made.__pydantic_fields_set__


def test_a_change_leaves_the_others_alone() -> None:
    first = compact(Finding.model_validate(VALUES))
    second = compact(Finding.model_validate({**VALUES, "line": 42}))
    waiver = Waiver(index=1, name="known", justification="a known reader fault",
                    approved_by="floor", expires="2026-12-31", matched_on={"id": "BJH-1"})
    marked = changed(first, id="BJH-1", waiver=waiver, baseline="new")
    assert (marked.id, marked.waiver, marked.baseline) == ("BJH-1", waiver, "new")
    assert (first.id, first.waiver, first.baseline) == (None, None, None)
    assert second.__pydantic_fields_set__ == set(VALUES)
    assert {"id", "waiver", "baseline"} <= marked.__pydantic_fields_set__
    assert marked.as_dict() == {**first.as_dict(), "id": "BJH-1",
                                "waiver": waiver.model_dump(mode="json"), "baseline": "new"}
