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
from tests.helpers.review_record import DOUBLE_AND_BUST, HEADER, THREE_SEATS, with_line
from tests.helpers.review_record import RECORD as REVIEW_RECORD
from tests.helpers.run_outputs import OUTPUTS, RUN_CLOCK

RECORD = with_line(with_line(
    REVIEW_RECORD, "18:01:21 settle s2h1 main win 30",
    '18:01:21 settle s2h1 main win 30  # naïve ♠ "quoted" \\ back </script>'),
    "18:01:22 settle s3h1 main win 25", "18:01:22 settle s3h1 main win 25 # \u202e rtl x")

EARLIER = with_line(HEADER + THREE_SEATS + DOUBLE_AND_BUST, "18:01:20 settle s1h1 main push 10",
                    "18:01:20 settle s1h1 main push 0")

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
