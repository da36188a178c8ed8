"""Hostile review of the outputs' second pass (issue 44, evidence4): a run's judged findings
held for the outputs (up to HELD_AT_MOST) against the same run read back from the store:
`auditor audit` with waivers (one applied, one expired) and a baseline, on a record whose
statements carry quotes, a backslash, non-ASCII text, `</script>` and a right-to-left
mark, at a limit the run's four findings fill exactly (held) and one short of it (walked),
and `auditor report` of each run: the same four outputs, byte for byte but the run's
clock and command."""

from __future__ import annotations

from pathlib import Path

import pytest

import auditor.store.findings as stored_findings
from auditor.cli import main
from tests.helpers.audits import audit, findings_of, written
from tests.helpers.run_outputs import OUTPUTS, RUN_CLOCK

RECORD = """\
bjh 1
casino "Review Casino" licence=RL-R4-01
table R4-01 game=standard decks=6 seats=7 min=10 max=1000 currency=USD
option soft17=stand
option surrender=late
18:00:00 shoe R4-01-1 date=2026-11-20
18:00:01 dealer D-1
18:00:02 shuffle
18:00:03 cut
18:00:04 burn 8d
round 1 time=18:01:00 dealer=D-1
18:01:01 sit s1 player=P-1
18:01:02 sit s2 player=P-2
18:01:03 sit s3 player=P-3
18:01:04 bet s1h1 main 10
18:01:05 bet s2h1 main 20
18:01:06 bet s3h1 main 30
18:01:07 deal s1h1 Kc
18:01:08 deal s2h1 9c
18:01:09 deal s3h1 Th
18:01:10 deal dealer Qh
18:01:11 deal s1h1 8c
18:01:12 deal s2h1 9d
18:01:13 deal s3h1 7s
18:01:14 deal dealer 8s
18:01:15 peek
18:01:16 stand s1h1
18:01:17 stand s2h1
18:01:18 stand s3h1
18:01:19 reveal
18:01:20 settle s1h1 main push 10
18:01:21 settle s2h1 main win 30  # naïve ♠ "quoted" \\ back </script>
18:01:22 settle s3h1 main win 25 # ‮ rtl x
end
round 2 time=18:02:00 dealer=D-1
18:02:04 bet s1h1 main 10
18:02:05 bet s2h1 main 20
18:02:07 deal s1h1 5c
18:02:08 deal s2h1 As
18:02:10 deal dealer 9h
18:02:11 deal s1h1 6c
18:02:12 deal s2h1 5d
18:02:14 deal dealer 7s
18:02:15 peek
18:02:16 double s1h1 10 Kd
18:02:17 hit s2h1 Qd
18:02:18 hit s2h1 9s
18:02:19 tuck s2h1
18:02:20 reveal
18:02:21 settle s2h1 main lose 20
18:02:22 settle s1h1 main win 10
end
round 3 time=18:03:00 dealer=D-1
18:03:04 bet s1h1 main 10
18:03:05 bet s2h1 main 20
18:03:07 deal s1h1 8c
18:03:08 deal s2h1 Ts
18:03:10 deal dealer 9h
18:03:11 deal s1h1 8h
18:03:12 deal s2h1 5d
18:03:14 deal dealer 7c
18:03:15 peek
18:03:16 split s1h1 s1h2 10
18:03:17 deal s1h1 3c
18:03:18 deal s1h2 4c
18:03:19 double s1h1 10 Kh
18:03:20 hit s1h2 Qc
18:03:21 hit s2h1 8d
18:03:22 reveal
18:03:23 draw 2c
18:03:24 tuck s2h1
18:03:25 settle s2h1 main lose 20
18:03:26 settle s1h1 main win 20
18:03:27 settle s1h2 main lose 10
end
"""

EARLIER = """\
bjh 1
casino "Review Casino" licence=RL-R4-01
table R4-01 game=standard decks=6 seats=7 min=10 max=1000 currency=USD
option soft17=stand
option surrender=late
18:00:00 shoe R4-01-1 date=2026-11-20
18:00:01 dealer D-1
18:00:02 shuffle
18:00:03 cut
18:00:04 burn 8d
round 1 time=18:01:00 dealer=D-1
18:01:01 sit s1 player=P-1
18:01:02 sit s2 player=P-2
18:01:03 sit s3 player=P-3
18:01:04 bet s1h1 main 10
18:01:05 bet s2h1 main 20
18:01:06 bet s3h1 main 30
18:01:07 deal s1h1 Kc
18:01:08 deal s2h1 9c
18:01:09 deal s3h1 Th
18:01:10 deal dealer Qh
18:01:11 deal s1h1 8c
18:01:12 deal s2h1 9d
18:01:13 deal s3h1 7s
18:01:14 deal dealer 8s
18:01:15 peek
18:01:16 stand s1h1
18:01:17 stand s2h1
18:01:18 stand s3h1
18:01:19 reveal
18:01:20 settle s1h1 main push 0
18:01:21 settle s2h1 main win 30
18:01:22 settle s3h1 main win 25
end
round 2 time=18:02:00 dealer=D-1
18:02:04 bet s1h1 main 10
18:02:05 bet s2h1 main 20
18:02:07 deal s1h1 5c
18:02:08 deal s2h1 As
18:02:10 deal dealer 9h
18:02:11 deal s1h1 6c
18:02:12 deal s2h1 5d
18:02:14 deal dealer 7s
18:02:15 peek
18:02:16 double s1h1 10 Kd
18:02:17 hit s2h1 Qd
18:02:18 hit s2h1 9s
18:02:19 tuck s2h1
18:02:20 reveal
18:02:21 settle s2h1 main lose 20
18:02:22 settle s1h1 main win 10
end
"""

WAIVERS = """\
[[waiver]]
citation = "20:18:15:26"
justification = "dealer procedure under review"
approved_by = "review4"
expires = "2099-01-01"

[[waiver]]
citation = "20:18:15:06"
table = "R4-01"
justification = "expired"
approved_by = "review4"
expires = "2020-01-01"
"""


def outputs(folder: Path) -> dict[str, str]:
    return {name: RUN_CLOCK.sub("#", (folder / name).read_text(encoding="utf-8"))
            for name in OUTPUTS}


def audited(folder: Path, limit: int) -> tuple[dict[str, str], dict[str, str]]:
    """The record audited with HELD_AT_MOST at `limit`, and its run written again by
    `auditor report`: both runs' outputs."""
    base = folder / "earlier"
    assert audit(written(folder, EARLIER, "earlier.bjh"), out=base,
                 store=folder / "earlier.sqlite", more=["--new-store", "--fail-on", "never"]) == 0
    path = written(folder, RECORD)
    waivers = written(folder, WAIVERS, "waivers.toml")
    store = folder / "store.sqlite"
    assert audit(path, out=folder / "run", store=store,
                 more=["--new-store", "--fail-on", "never", "--waivers", str(waivers),
                       "--baseline", str(base / "findings.json")]) == 0
    assert main(["report", "1", "--store", str(store), "--out", str(folder / "again")]) == 0
    return outputs(folder / "run"), outputs(folder / "again")


@pytest.mark.parametrize("short", [0, 1])
def test_held_findings_write_what_the_store_gives_back(tmp_path: Path, monkeypatch,
                                                       short: int) -> None:
    monkeypatch.setattr(stored_findings, "HELD_AT_MOST", 4 - short)
    run, again = audited(tmp_path, 4 - short)
    assert run == again
    written_out = findings_of(tmp_path / "run")
    assert [(f["citation"], f["line"], f["round"], (f["waiver"] or {}).get("justification"),
             f["baseline"]) for f in written_out["findings"]] == [
        ("20:18:15:06", 32, "1", None, "persisting"),
        ("20:18:15:06", 33, "1", None, "persisting"),
        ("20:18:15:26", 49, "2", "dealer procedure under review", "persisting"),
        ("20:18:15:06", 51, "2", None, "persisting"),
    ]
    assert [(f["id"], f["line"]) for f in written_out["resolved"]] == [
        ("BJH-074EA02468B5B0E5", 31)]
