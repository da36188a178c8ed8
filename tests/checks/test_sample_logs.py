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
from tests.helpers import SAMPLE_FILES
from tests.helpers.sample_faults import announced


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=[p.name for p in SAMPLE_FILES])
def test_sample_log_findings_are_announced(path: Path) -> None:
    result = audit_file(str(path), keep_evidence=False)
    found = Counter((f.citation, f.round, f.line) for f in result.findings)
    assert found == announced(path), "\n".join(
        f"{f.citation} round {f.round} line {f.line}: {f.message}" for f in result.findings)
    assert result.summary.rounds == result.summary.rounds_audited


def test_there_are_samples_of_every_game() -> None:
    games = set()
    for path in SAMPLE_FILES:
        match = re.search(r"^table \S+ .*game=(\w+)", path.read_text(encoding="utf-8"), re.M)
        if match:
            games.add(match.group(1))
    assert games == {"standard", "switch", "db21", "tensticks", "ladies"}


def test_the_lucky_ladies_sample_gives_exactly_its_planted_findings() -> None:
    """Written out, so that a change of its header comments cannot hide a lost finding."""
    path = next(p for p in SAMPLE_FILES if p.name == "ladies-t21-2026-11-20.bjh")
    result = audit_file(str(path), keep_evidence=False)
    assert [(f.citation, f.round, f.line, f.seat) for f in result.findings] == [
        ("20:18:15:30.04(5)", "8", 251, "s7"),
        ("20:18:15:30.04(4)", "9", 280, "s3"),
        ("20:18:15:30.04(3)", "13", 403, "s2"),
        ("20:18:15:30.04(2)", "14", 427, "s2"),
        ("20:18:15:30.04(4)", "18", 572, "s5"),
        ("20:18:15:03", "23", 710, "s4"),
    ]
    money = {(f.citation, f.line): (f.expected, f.actual) for f in result.findings
             if f.expected is not None}
    assert {key: (str(e), str(a)) for key, (e, a) in money.items()} == {
        ("20:18:15:30.04(4)", 280): ("250", "225"),
        ("20:18:15:30.04(3)", 403): ("250", "-25"),
        ("20:18:15:30.04(2)", 427): ("0", "-25"),
        ("20:18:15:30.04(4)", 572): ("100", "140"),
    }
