"""The replays the report shows: one per round that holds a finding, within its caps, each
built from what the round's lines changed on the table (`replay.changes`), read once."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from auditor.audit import REPLAYS_PER_CITATION
from auditor.replay.changes import TIME
from auditor.report.model import FaultRef, Replay, ReplayLine, Replays, TableEntity
from auditor.run import REPLAYS_PER_CITATION_IN_RUN

if TYPE_CHECKING:
    from auditor.findings import Finding
    from auditor.replay.trace import RoundEvidence
    from auditor.report.totals import FindingsTotals
    from auditor.results import AuditResult

# The report replays at most REPLAYS_PER_CITATION_IN_RUN rounds of one citation across the
# run (the rounds the run keeps: auditor/run.py), and this many in all (audit.py already keeps
# REPLAYS_PER_CITATION per file): every other round is named with the command that replays
# it. The report once had a limit of its own, 25, above the run's 20: it said "25 rounds of
# each citation" of a run that kept 20.
REPLAYS_IN_REPORT = 400


def build_replays(result: AuditResult, totals: FindingsTotals,
                  in_report: int = REPLAYS_IN_REPORT) -> Replays:
    """The replay of every round with a finding, made once per round, and each finding's
    (by its number).

    Across the run at most REPLAYS_PER_CITATION_IN_RUN rounds of each citation and
    `in_report` in all, in record order: a bad night records thousands of rounds' evidence,
    and a report of them all was 40 MB."""
    members = totals.members
    order = {summary.path: position for position, summary in enumerate(result.inputs)}
    rounds = sorted(totals.replayable.values(),
                    key=lambda e: (order.get(e.file, len(order)), e.start_line))
    per_file: Counter = Counter()
    per_citation: Counter = Counter()
    for evidence in rounds:
        for citation in {f.citation for _, f in members[id(evidence)]}:
            per_file[(evidence.file, citation)] += 1
            per_citation[citation] += 1
    full = {key for key, number in per_file.items() if number >= REPLAYS_PER_CITATION}
    run_full = {citation for citation, number in per_citation.items()
                if number >= REPLAYS_PER_CITATION_IN_RUN}
    in_run: Counter = Counter()
    kept, cut = [], set()
    for evidence in rounds:
        citations = {f.citation for _, f in members[id(evidence)]}
        if len(kept) < in_report and any(
                in_run[c] < REPLAYS_PER_CITATION_IN_RUN for c in citations):
            kept.append(evidence)
            in_run.update(citations)
        else:
            cut.update(number for number, _ in members[id(evidence)])
    shown: list[Replay] = []
    of_finding: dict[int, Replay] = {}
    for position, evidence in enumerate(kept):
        replay = build_replay(evidence.shown(), members[id(evidence)], position + 1)
        shown.append(replay)
        for number, _ in members[id(evidence)]:
            of_finding[number] = replay
    return Replays(shown, of_finding, len(rounds), cut, full, run_full)


def build_replay(evidence: RoundEvidence, findings: list[tuple[int, Finding]],
                 number: int) -> Replay:
    """The round's lines, each with what it changed on the table (only what changed), the
    findings on it and those it is evidence of, and the whole table at each fault."""
    faults: dict[int, list[FaultRef]] = {}
    supports: dict[int, list[int]] = {}
    for counted, finding in findings:
        reference = FaultRef(counted, finding.citation, finding.severity, finding.message,
                             finding.line)
        if finding.line is not None:
            faults.setdefault(finding.line, []).append(reference)
        for line in finding.evidence:
            supports.setdefault(line, []).append(counted)
    changes = evidence.changes()
    by_line = {entry[0]: entry for entry in changes["lines"]}
    # The table as it stands, by key: each entity made once, when it changes, and shared
    # by the line that changed it and the whole tables after it.
    table = {key: TableEntity(key, state) for key, state in changes["seated"]}
    rows: list[ReplayLine] = []
    for line, text in evidence.lines:
        match = TIME.match(text)
        time, statement = (match.group(1), match.group(2)) if match else ("", text.strip())
        changed = list(table.values()) if not rows else []
        step = by_line.get(line)
        if step is not None:
            for key, state in step[1]:
                entity = table[key] = TableEntity(key, state)
                changed.append(entity)
            for key in step[2]:
                gone = table.pop(key, None)
                if gone is not None and key.startswith("seat:"):  # a player left
                    changed.append(TableEntity(key, gone.state, left=True))
        on_line = faults.get(line, [])
        rows.append(ReplayLine(line, time, statement, changed, on_line,
                               supports.get(line, []),
                               list(table.values()) if on_line else None))
    lines = evidence.lines
    context = findings[0][1] if findings else None
    return Replay(number, evidence.file, evidence.round_id,
                  lines[0][0] if lines else evidence.start_line,
                  lines[-1][0] if lines else evidence.start_line,
                  context.table if context else None, context.date if context else None,
                  context.dealer if context else None, rows,
                  [FaultRef(counted, f.citation, f.severity, f.message, f.line)
                   for counted, f in findings])
