"""replay.trace.Snapshots keeps each hand's and wager's last entry by the object's id and
makes it again only when what it shows changed: every step must be the table made afresh
at that step, and an entry must be the step before's exactly while it is unchanged (what
replay.changes and the store's JSON know unchanged by identity)."""

from __future__ import annotations

from itertools import pairwise

from auditor.audit import audit_file
from auditor.replay.engine import replay_round
from auditor.replay.trace import _traced
from tests.helpers import SAMPLE_FILES
from tests.helpers.replaying import table_made_afresh


def _hands_and_wagers(table: dict) -> dict:
    """What `Snapshots` shares between steps: the hands and the wagers."""
    return {"hands": table["hands"], "wagers": table["wagers"]}


def _replays():
    for path in SAMPLE_FILES:
        for evidence in audit_file(str(path)).evidence.values():
            yield evidence.file, evidence.pending


def test_every_step_is_the_table_made_afresh_and_unchanged_entries_are_shared() -> None:
    compared = shared = made_again = 0
    for file, (before, record, faults) in _replays():
        afresh: dict[int, dict] = {}

        def step(event, view, afresh=afresh) -> None:
            afresh[event.line] = _hands_and_wagers(table_made_afresh(view))

        replay_round(before.clone(), record, file, on_step=step)
        steps = _traced(before, record, file, faults)
        for line, made in steps.items():
            assert {"hands": made["hands"], "wagers": made["wagers"]} == afresh[line], line
            compared += 1
        ordered = [steps[line] for line in sorted(steps)]
        for earlier, later in pairwise(ordered):
            for part in ("hands", "wagers"):
                for old, new in zip(earlier[part], later[part], strict=False):
                    if old == new and old.get("hand", old.get("wager")) == new.get(
                            "hand", new.get("wager")):
                        assert new is old
                        shared += 1
                    elif old.get("wager") == new.get("wager") and "wager" in old:
                        assert new is not old
                        made_again += 1
    assert compared > 1000 and shared > 1000 and made_again > 10
