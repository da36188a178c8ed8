"""The bundled sample logs audit with exactly the findings their headers announce.

Each fault is announced in a header comment of the form
`# fault: CITATION round ROUND line LINE: what happened` (`round -` outside rounds).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from auditor.audit import audit_file

SAMPLES = sorted((Path(__file__).resolve().parent.parent / "sample_logs").glob("*.bjh"))
_FAULT = re.compile(r"^#\s*fault:\s*(\S+)\s+round\s+(\S+)\s+line\s+(\d+)")


def announced(path: Path) -> Counter:
    """The announced faults, counted: each announcement is one finding."""
    faults: Counter = Counter()
    for line in path.read_text(encoding="utf-8").splitlines():
        match = _FAULT.match(line)
        if match:
            citation, round_id, number = match.groups()
            faults[(citation, None if round_id == "-" else round_id, int(number))] += 1
    return faults


@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
def test_sample_log_findings_are_announced(path: Path) -> None:
    result = audit_file(str(path), keep_evidence=False)
    found = Counter((f.citation, f.round, f.line) for f in result.findings)
    assert found == announced(path), "\n".join(
        f"{f.citation} round {f.round} line {f.line}: {f.message}" for f in result.findings)
    assert result.summary.rounds == result.summary.rounds_audited


def test_there_are_samples_of_every_game() -> None:
    games = set()
    for path in SAMPLES:
        match = re.search(r"^table \S+ .*game=(\w+)", path.read_text(encoding="utf-8"), re.M)
        if match:
            games.add(match.group(1))
    assert games == {"standard", "switch", "db21", "tensticks"}
