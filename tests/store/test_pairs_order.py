"""Hostile review of the tally's line-ups (issue 44, checks4: pairs counted a line-up at a
time, made pairs in `finish`): a player at two seats (counted once a round), line-ups that
come back, a seat that changes player, a dealer change and back. The store's pairs, in
the order it numbers them, are those 52bdaf6 counted round by round."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.helpers.audits import audit, written
from tests.helpers.review_record import HEADER

RECORD = HEADER + """\
round 1 time=18:01:00 dealer=D-1
18:01:00 sit s1 player=P-A
18:01:00 sit s2 player=P-B
18:01:00 sit s4 player=P-A
18:01:01 bet s2h1 main 10
18:01:01 bet s1h1 main 10
18:01:02 settle s2h1 main void 10
18:01:02 settle s1h1 main void 10
end
round 2 time=18:02:00 dealer=D-1
18:02:01 bet s4h1 main 10
18:02:01 bet s1h1 main 10
18:02:02 settle s4h1 main void 10
18:02:02 settle s1h1 main void 10
end
round 3 time=18:03:00 dealer=D-1
18:03:00 leave s2
18:03:00 sit s3 player=P-C
18:03:00 sit s2 player=P-D
18:03:01 bet s3h1 main 10
18:03:01 bet s4h1 main 10
18:03:02 settle s3h1 main void 10
18:03:02 settle s4h1 main void 10
end
round 4 time=18:04:00 dealer=D-2
18:04:01 bet s2h1 main 10
18:04:01 bet s1h1 main 10
18:04:02 settle s2h1 main void 10
18:04:02 settle s1h1 main void 10
end
round 5 time=18:05:00 dealer=D-2
18:05:01 bet s3h1 main 10
18:05:01 bet s1h1 main 10
18:05:01 bet s2h1 main 10
18:05:02 settle s3h1 main void 10
18:05:02 settle s1h1 main void 10
18:05:02 settle s2h1 main void 10
end
round 6 time=18:06:00 dealer=D-1
18:06:01 bet s1h1 main 10
18:06:01 bet s2h1 main 10
18:06:02 settle s1h1 main void 10
18:06:02 settle s2h1 main void 10
end
"""


@pytest.mark.parametrize("jobs", [1, 2])
def test_pairs_in_the_order_and_counts_of_the_rounds(tmp_path: Path, jobs: int) -> None:
    store = tmp_path / "store.sqlite"
    audit(written(tmp_path, RECORD), out=tmp_path / "out", store=store, jobs=jobs,
          more=["--new-store", "--fail-on", "never"])
    with sqlite3.connect(store) as connection:
        pairs = list(connection.execute(
            "select dealer, player, date, rounds from tally_pairs order by position, item"))
    assert pairs == [
        ("D-1", "P-B", "2026-11-20", 1), ("D-1", "P-A", "2026-11-20", 4),
        ("D-1", "P-C", "2026-11-20", 1), ("D-2", "P-D", "2026-11-20", 2),
        ("D-2", "P-A", "2026-11-20", 2), ("D-2", "P-C", "2026-11-20", 1),
        ("D-1", "P-D", "2026-11-20", 1)]
