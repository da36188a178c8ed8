"""Checks receive a read-only view: judging a round never changes what the replay recorded,
nor the game's facts the runner derived for it (auditor/checks/runner.py)."""

from __future__ import annotations

import copy

import pytest
from casefiles import Case, load_cases

from auditor.checks import games
from auditor.checks.base import registry
from auditor.parser import parse_lines
from auditor.reader import Header, RoundRecord, read_structure
from auditor.replay.engine import replay_round
from auditor.replay.state import TableState

CASES = [c for c in load_cases() if c.kind == "violating"]


def replayed_rounds(case: Case):
    lines = case.text.split("\n")
    state = None
    for item in read_structure(parse_lines((n, t, None) for n, t in enumerate(lines, 1))):
        if isinstance(item, Header):
            state = TableState(item.config)
        elif isinstance(item, RoundRecord):
            yield replay_round(state, item, "case.bjh")


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_checks_do_not_change_the_view(case: Case) -> None:
    for view in replayed_rounds(case):
        facts = games.game(view.game).facts if view.game else None
        if facts is not None:  # as the runner derives them before the checks
            facts(view)
        before = copy.deepcopy(view)
        for check in registry().values():
            if check.applies_to(view.game):
                list(check.round(view))
                check.collect(view)
        assert view == before, f"a check changed the view of round {view.round_id}"
