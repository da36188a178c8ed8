"""The page's data is written by json's C encoder made once (output/page_data.py): each text
must be what `json.dumps(value, separators=(",", ":"))` wrote, escaped for a script element
as before, and a value JSON cannot hold refused as `dumps` refuses it."""

from __future__ import annotations

import json
import math

import pytest

from auditor.output.page_data import _SCRIPT_BIDI, _script_marker, _script_text


def _written_by_dumps(value) -> str:
    """The page's text as it was made before: `json.dumps`, then escaped for a script."""
    text = json.dumps(value, separators=(",", ":"))
    if "\\u20" in text or "\\u061" in text:
        text = _SCRIPT_BIDI.sub(_script_marker, text)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


VALUES = [
    "plain", "10♥ </script><b>&amp;", "bidi \u202e here \u2066", "line\nbreak \u2028 \u2029",
    "\x00\x1f\x7f", 0, -7, 2**70, 1.5, -0.0, 1e300, math.inf, -math.inf, True, False, None,
    [], {}, [1, "a", None, [True, {"k": "v"}]],
    {"f": 12, "t": "Ann \u202eoops", "m": ["25.00", None], "n": {"x": [1.25, "é"]}},
    (1, 2, ("nested", "tuple")),
]


@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
def test_a_value_is_written_as_json_dumps_wrote_it(value) -> None:
    assert _script_text(value) == _written_by_dumps(value)


def test_bidi_controls_are_markers_as_before() -> None:
    assert _script_text("a\u202eb") == '"a\\u27e6U+202E\\u27e7b"'


def test_a_value_json_cannot_hold_is_refused() -> None:
    with pytest.raises(TypeError):
        _script_text({"when": object()})
    with pytest.raises(TypeError):
        _script_text({1.5j: "complex key"})
