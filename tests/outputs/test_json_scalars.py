"""Hostile review of findings.json's scalars written by type (issue 44, evidence4): the values
test_json_layout does not try, each written as `json.dumps` writes it or refused as it
refuses it. (A subclass of bool cannot be made: Python forbids it.)"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from auditor.output import json_report


class Loud(int):
    """An int whose own repr is not its JSON: json writes int.__repr__ of it."""

    def __repr__(self) -> str:
        return "LOUD"


@pytest.mark.parametrize("value", [-0.0, 0.0, 1e308, 5e-324, Loud(3), -(10 ** 4000),
                                   "\u2028\ud800", {"k\u0000": [-0.0, Loud(-1)]}],
                         ids=["minus zero", "zero", "largest", "smallest", "int subclass",
                              "4000 digits", "separator and surrogate", "nested"])
def test_scalars_as_json_dumps_writes_them(value) -> None:
    expected = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  ")
    assert json_report._indented(value, "  ") == expected


@pytest.mark.parametrize(("value", "error"), [(Decimal("1.10"), TypeError),
                                              (10 ** 5000, ValueError),  # past str digits
                                              ({"k": {1, 2}}, TypeError)],
                         ids=["decimal", "5000 digits", "set"])
def test_what_json_dumps_refuses_is_refused(value, error) -> None:
    with pytest.raises(error):
        json.dumps(value, indent=2, ensure_ascii=False)
    with pytest.raises(error):
        json_report._indented(value, "  ")
