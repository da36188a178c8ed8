"""A seeded mutation fuzzer over the sample logs: corrupted bytes, cut and doubled lines,
numbers made huge, never a crash of the auditor, every line accounted for, and the same
result twice. A few hundred cases in the normal run; `BJH_SLOW_TESTS=1` for thousands."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from auditor.audit import audit_file, merge
from auditor.identity import apply_identity
from auditor.output.json_report import to_json

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "sample_logs").glob("*.bjh"))
CASES = 3000 if os.environ.get("BJH_SLOW_TESTS") else 240
PIECES = [b"9" * 40, b"\x00", b"\xff\xfe", b"=", b"#", b'"', b"\r", b"\n", b"\t", b"25:61:61",
          b"date=2026-02-30", b"game=swatch", b"s9h9", b"dealer", b"end\n", b"round 1\n",
          b"shuffle\n", "é".encode(), b"-1", b"1e26"]


def mutated(data: bytes, chance: random.Random) -> bytes:
    lines = data.split(b"\n")
    for _ in range(chance.randint(1, 6)):
        at = chance.randrange(len(lines))
        action = chance.randrange(5)
        if action == 0:  # a byte replaced
            line = lines[at]
            if line:
                spot = chance.randrange(len(line))
                lines[at] = line[:spot] + bytes([chance.randrange(256)]) + line[spot + 1:]
        elif action == 1:  # a piece inserted
            line = lines[at]
            spot = chance.randrange(len(line) + 1)
            lines[at] = line[:spot] + chance.choice(PIECES) + line[spot:]
        elif action == 2:
            del lines[at]
        elif action == 3:
            lines.insert(at, lines[chance.randrange(len(lines))])
        else:  # a number made huge
            lines[at] = lines[at].replace(b"1", b"1" + b"0" * chance.randint(10, 5000), 1)
    return b"\n".join(lines)


def audited(path: Path) -> str:
    result = merge([audit_file(str(path))])
    apply_identity(result)
    return to_json(result, {"version": "fuzz"})


@pytest.mark.parametrize("batch", range(8))
def test_mutated_records_never_crash_and_every_line_is_accounted_for(tmp_path, batch):
    chance = random.Random(f"fuzz-{batch}")
    for case in range(CASES // 8):
        original = SAMPLES[chance.randrange(len(SAMPLES))].read_bytes()
        data = mutated(original, chance)
        path = tmp_path / f"case-{case}.bjh"
        path.write_bytes(data)
        first = audited(path)  # raises on a crash of the auditor
        assert audited(path) == first, f"batch {batch} case {case}: two runs differ"
        summary = audit_file(str(path)).summary
        if summary.error is None:
            expected = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
            assert summary.lines == expected, f"batch {batch} case {case}"
