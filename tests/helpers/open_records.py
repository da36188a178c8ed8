"""Records of tonight still being written: a header of today's date and rounds of 12 lines,
written as they are or cut anywhere (a round left open, a line half written)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

# A record still being written is of today's night: the audit takes a record of an older
# night cut inside a round as an old record cut short (`Judging.live_from`).
TODAY = date.today().isoformat()
HEADER = f"""bjh 1
casino "Test" licence=RL-9
table T4 game=standard decks=6 min=5 max=500
shoe A date={TODAY}
shuffle
cut
"""


def round_text(number: int, *, stand: str = "stand s1h1", paid: str = "10") -> str:
    """A round of 12 lines; `paid` is the win paid on a 10 wager (10 is right)."""
    return f"""round {number} time=20:{number % 60:02d}:00 dealer=D1
sit s1 player=P1
bet s1h1 main 10
deal s1h1 9h
deal dealer 7c
deal s1h1 Kd
deal dealer Ts
{stand}
reveal
settle s1h1 main win {paid}
leave s1
end
"""


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path
