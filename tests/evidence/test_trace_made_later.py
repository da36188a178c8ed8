"""Hostile review of the evidence traced when first read (issue 44, evidence4,
`trace.PendingTrace`): a round's replay traced long after its file was audited (other
files audited in between, the same file's later shuffles, dealer changes, sits and leaves
applied to the table since) is the one traced at once, and the one sent to another
process (pickled) the same again: the table a trace starts from is the round's own, not
one shared with the audit that went on."""

from __future__ import annotations

import pickle
from pathlib import Path

from auditor.audit import audit_file
from auditor.cli import main
from auditor.replay.trace import PendingTrace
from tests.helpers import SAMPLE_FILES


def simulated(folder: Path) -> list[Path]:
    """Records of every game with faults planted in most rounds: many rounds kept as
    evidence, across shuffles and dealer changes."""
    for game in ("standard", "switch", "db21", "tensticks", "ladies"):
        assert main(["simulate", "--game", game, "--rounds", "60", "--seed", "review4",
                     "--faults", "0.6", "--roster", "--out", str(folder / game),
                     "--quiet"]) == 0
    return sorted(folder.glob("*/*.bjh"))


def traced_at_once(path: Path) -> dict[str, tuple]:
    return {key: (evidence.lines, evidence.steps, evidence.changes())
            for key, evidence in audit_file(str(path)).evidence.items()}


def test_a_trace_made_later_is_the_one_made_at_once(tmp_path: Path) -> None:
    paths = [*simulated(tmp_path), *SAMPLE_FILES]
    pending = [audit_file(str(path)).evidence for path in paths]  # none traced yet
    assert all(type(e) is PendingTrace and e.pending is not None
               for evidence in pending for e in evidence.values())
    sent = pickle.loads(pickle.dumps(pending[::2]))  # traced as they are pickled
    for path, evidence in zip(paths, pending, strict=True):
        assert {key: (e.lines, e.steps, e.changes()) for key, e in evidence.items()} == \
            traced_at_once(path), path.name
    for evidence, received in zip(pending[::2], sent, strict=True):
        assert {key: (e.lines, e.steps, e.changes()) for key, e in received.items()} == \
            {key: (e.lines, e.steps, e.changes()) for key, e in evidence.items()}
    assert sum(len(evidence) for evidence in pending) > 100
