"""The faults each sample log announces in its header comments, in the form
`# fault: CITATION round ROUND line LINE: what happened` (`round -` outside rounds)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

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
