"""findings.json's layout writes each scalar by its exact type (`json_report._PLAIN`): a
subclass of a scalar type, or a float, must still be written as `json.dumps` writes it."""

from __future__ import annotations

import json
from enum import IntEnum

from markupsafe import Markup

from auditor.output import json_report


class Seats(IntEnum):
    SEVEN = 7


class Named(str):
    pass


def test_subclasses_and_floats_are_written_as_json_dumps_writes_them() -> None:
    value = {"markup": Markup("<b>&"), "named": Named('say "hi"\u2028'), "seats": Seats.SEVEN,
             "flag": True, "off": False, "none": None, "big": 10 ** 30, "negative": -3,
             "float": 1.5, "nan": float("nan"), "inf": float("-inf"),
             "nested": [Seats.SEVEN, Named("x"), (True, None)], "empty": [[], {}]}
    expected = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n    ")
    assert json_report._indented(value, "    ") == expected
    assert '"seats": 7' in expected and '"flag": true' in expected
