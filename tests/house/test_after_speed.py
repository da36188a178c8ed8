"""The work after the single-file audit (issue 27): start-up loads only what the command
needs, and the faster paths of the tally and the store give what the plain ones gave."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.output import json_report

# Modules the command line must not load before it knows the command: each costs tenths of
# a second that `audit --help`, `rules` and every audit's start would pay.
HEAVY = ("sqlalchemy", "alembic", "pandas", "pydantic", "jinja2", "statsmodels", "scipy",
         "cryptography", "auditor.store")


def test_the_command_line_starts_without_the_heavy_modules() -> None:
    probe = ("import sys\nfrom auditor.cli import build_parser\nbuild_parser()\n"
             f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == []


def test_audit_help_prints_without_them() -> None:
    probe = ("import sys\nfrom auditor.cli import main\ntry:\n    main(['audit', '--help'])\n"
             "except SystemExit:\n    pass\n"
             f"print('LOADED', ' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert "--jobs N" in done.stdout
    assert done.stdout.rsplit("LOADED", 1)[1].split() == []


# ---- findings.json laid out without the pure-Python encoder ----

_LEAF = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True)
         | st.text(alphabet=st.characters(codec="utf-8")))
_TREE = st.recursive(_LEAF, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                     | st.dictionaries(st.text(max_size=5), inner, max_size=4), max_leaves=25)


@settings(max_examples=400, deadline=None)
@given(_TREE, st.sampled_from(["", "  ", "    "]))
def test_findings_json_layout_is_json_dumps_indent_2(value, indent: str) -> None:
    expected = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + indent)
    assert json_report._indented(value, indent) == expected


def test_a_key_that_is_not_text_is_left_to_json_dumps() -> None:
    assert json_report._indented({1: [True, None], "x": {}}, "  ") == (
        '{\n    "1": [\n      true,\n      null\n    ],\n    "x": {}\n  }')


# ---- the tally fed by the replay's card counts ----

def _tally_facts(tally) -> tuple:
    return (tally.site, tally.table_id, tally.decks, tally.hits_soft_17, dict(tally.rounds),
            dict(tally.pairs), tally.seats, tally.game,
            [(s.shoe_id, s.date, s.cards, s.lines, s.rounds)
             for s in tally.shuffles])


@pytest.mark.parametrize("game, options", [("standard", {"surrender": "late"}),
                                           ("switch", {}), ("db21", {"db21.paytable": "1"}),
                                           ("ladies", {})])
def test_the_tally_from_card_counts_is_the_tally_from_every_statement(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str, options: dict) -> None:
    """Rounds without a shuffle take their cards from `RoundView.card_codes` and their game
    math from the deal statements; the pass over every statement (kept for rounds with a
    shuffle) must give the same tally, faults and all."""
    from auditor.audit import audit_file
    from auditor.simulate import simulate, table_spec
    from auditor.tally import Tally

    simulate(tmp_path, table_spec(game, table_id="T1", options=options), rounds=400,
             seed="after-tally", faults=0.1)
    (path,) = sorted(tmp_path.glob("*.bjh"))
    fast = audit_file(str(path)).tally
    monkeypatch.setattr(Tally, "_cards_as_counted", Tally._cards_and_game)
    slow = audit_file(str(path)).tally
    assert fast.shuffles and fast.game and fast.pairs
    assert _tally_facts(fast) == _tally_facts(slow)


def test_a_stored_replay_is_the_json_of_its_document(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store encodes a replay's shared hands, wagers and seating once each; the text
    must be `_json` of the whole document, byte for byte."""
    from auditor.audit import audit_file
    from auditor.simulate import simulate, table_spec
    from auditor.store import encoding
    from auditor.store.runs import _evidence_document, _evidence_json, _json

    simulate(tmp_path, table_spec("switch", table_id="T1"), rounds=300, seed="after-replay",
             faults=0.1)
    (path,) = sorted(tmp_path.glob("*.bjh"))
    evidence = audit_file(str(path)).evidence
    assert len(evidence) >= 5
    encoded: list[Any] = []  # what _json is given: never a whole step on the fast path

    def counted(value: Any) -> str:
        encoded.append(value)
        return _json(value)

    monkeypatch.setattr(encoding, "_json", counted)
    for replay in evidence.values():
        document = _evidence_document(replay)
        encoded.clear()
        assert _evidence_json(document) == _json(document)
        assert document["steps"] and not any(
            isinstance(value, dict) and "hands" in value for value in encoded)
        assert all(value is not document for value in encoded)
    odd = {"file": "f", "round_id": "r", "start_line": 1, "lines": [],
           "steps": {"3": {"hands": [], "dealer": {}}}, "changes": {}}
    assert _evidence_json(odd) == _json(odd)


@pytest.mark.parametrize("clock", [
    "00:00:00", "05:59:59", "06:00", "13:30:05", "22:00:01", "23:59:59", "12:59", "12:60",
    "12:6", "12:5x", "12-30:00", "24:00:00", "29:10:00", "7:30:00", "1", "", "ab:cd", None])
@pytest.mark.parametrize("date", ["2026-03-02", None])
def test_the_stamp_kept_by_the_hour_is_the_stamp_worked_out(date: str | None,
                                                            clock: str | None) -> None:
    """The tally keeps a round's (hour stamp, local hour) by its date and hour once the
    minutes are valid; every clock, valid or not, must give what `hour_stamp` and
    `local_hour` give."""
    from auditor.gaming_day import hour_stamp, local_hour
    from auditor.tally import _stamp_and_hour

    for _ in range(2):  # worked out, then found kept
        assert _stamp_and_hour(date, clock) == (hour_stamp(date, clock), local_hour(clock))
