"""The replays a run keeps per citation (auditor/run.py) and what the report says of a finding
whose replay was made and not kept: the run's cap, and how to get the replay."""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from pathlib import Path

from auditor.cli import main
from auditor.run import REPLAYS_PER_CITATION_IN_RUN


def test_a_finding_past_the_runs_cap_says_so_and_how_to_replay_it(tmp_path: Path) -> None:
    records, out = tmp_path / "records", tmp_path / "out"
    assert main(["simulate", "--out", str(records), "--game", "switch", "--tables", "6",
                 "--rounds", "1000", "--seed", "11", "--faults", "0.2", "--quiet"]) == 0
    assert main(["audit", str(records), "--out", str(out), "--quiet", "--jobs", "1",
                 "--store", str(tmp_path / "history.sqlite")]) == 1
    findings = json.loads((out / "findings.json").read_text())["findings"]
    page = html.unescape((out / "report.html").read_text(encoding="utf-8"))
    rounds_of = Counter(citation for citation, _, _ in
                        {(f["citation"], f["file"], f["round"]) for f in findings if f["round"]})
    # a citation found in more rounds than the run keeps replays of, in files of fewer
    # than the per-file cap each: some of its rounds lose their replay to the run's cap
    assert max(rounds_of.values()) > REPLAYS_PER_CITATION_IN_RUN
    said = re.findall(r"This round's replay was made and not kept: a run keeps the replays "
                      r"of at most (\d+) rounds of each citation, its first in input and "
                      r"record order \(([\d,]+) kept in all\)\. To replay it, audit its file "
                      r"alone: auditor audit (\S+)", page)
    assert said, "no finding says the run's cap left its replay out"
    assert {number for number, _, _ in said} == {str(REPLAYS_PER_CITATION_IN_RUN)}
    assert {Path(file).parent for _, _, file in said} == {records}
    assert "No replay of this round was recorded" not in page
    assert "25 rounds of each citation" not in page
