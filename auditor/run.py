"""A run: every input audited (in this process, on this machine's cores, or in pieces) and
the results merged in input order, with the checks that judge across files, by the one
merger of a run (`RunMerger`), whether the run is held in memory or recorded in the store.
Above the single-file audit (auditor/audit.py), which knows nothing of pools."""

from __future__ import annotations

import bisect
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Protocol

from auditor.audit import audit_file
from auditor.checks.base import registry
from auditor.findings import Finding
from auditor.gaming_day import DEFAULT as DEFAULT_CALENDAR
from auditor.replay.trace import RoundEvidence
from auditor.results import AuditFailure, AuditResult, FileResult, InputSummary
from auditor.selection import Judging

if TYPE_CHECKING:
    from auditor.gaming_day import Calendar
    from auditor.store.engine import Engine


def collect_paths(arguments: Iterable[str]) -> list[str]:
    """Files as given, and under folders every entry named like a record (`.bjh` in any
    case), in a stable order; each file once, however it was named (a path, another
    spelling, a link). An entry that cannot be audited (a dangling link, a FIFO, a device)
    is kept, so that the audit lists it with its error rather than pass over it. Linked
    folders are followed, each folder once, so a link loop ends."""
    paths: list[str] = []
    seen: set[tuple[int, int] | str] = set()
    folders: set[tuple[int, int]] = set()
    for argument in arguments:
        found = _records_under(argument, folders) if os.path.isdir(argument) else [argument]
        for path in found:
            identity = _identity(path)
            if identity not in seen:
                seen.add(identity)
                paths.append(path)
    return paths


def _records_under(top: str, folders: set[tuple[int, int]]) -> list[str]:
    found: list[str] = []
    for folder, subfolders, names in os.walk(top, followlinks=True):
        status = os.stat(folder)
        if (status.st_dev, status.st_ino) in folders:
            subfolders[:] = []
            continue
        folders.add((status.st_dev, status.st_ino))
        subfolders.sort()
        found.extend(os.path.join(folder, name) for name in sorted(names)
                     if name.lower().endswith(".bjh"))
    return found


def _identity(path: str) -> tuple[int, int] | str:
    """What makes two names one file: its device and inode, or for a name that leads to no
    file, its resolved path."""
    try:
        status = os.stat(path)
    except OSError:
        return os.path.realpath(path)
    return (status.st_dev, status.st_ino)


REPLAYS_PER_CITATION_IN_RUN = 20
"""Rounds replayed step by step that a whole run keeps, per citation: the first ones in input
order, then record order, whatever order the files were audited in. A fault repeated on
every table of a month then neither fills the report nor the memory of the run."""


class ReplaySelection:
    """Which replays a run keeps (REPLAYS_PER_CITATION_IN_RUN), decided as files finish in any
    order: each citation holds its first rounds by (input place, line), and a replay is kept
    while one of its citations holds it."""

    def __init__(self, limit: int = REPLAYS_PER_CITATION_IN_RUN) -> None:
        self.limit = limit
        self.held: dict[str, list[tuple[int, int, str]]] = {}

    def offer(self, place: int, result: FileResult) -> tuple[list[str], set[str]]:
        """The keys of this file's replays to keep, and those kept before that are now out."""
        before = self.kept()
        for key, citations in _citations_by_replay(result).items():
            entry = (place, result.evidence[key].start_line, key)
            for citation in citations:
                held = self.held.setdefault(citation, [])
                bisect.insort(held, entry)
                del held[self.limit:]
        after = self.kept()
        return [key for key in result.evidence if key in after], before - after

    def kept(self) -> set[str]:
        return {key for held in self.held.values() for _, _, key in held}


def _citations_by_replay(result: FileResult) -> dict[str, set[str]]:
    """The citations of the findings each replayed round of a file shows."""
    by_round: dict[str, list[tuple[str, RoundEvidence]]] = {}
    for key, evidence in result.evidence.items():
        by_round.setdefault(evidence.round_id, []).append((key, evidence))
    citations: dict[str, set[str]] = {key: set() for key in result.evidence}
    for finding in result.findings:
        for key, evidence in by_round.get(finding.round or "", ()):
            last = evidence.lines[-1][0] if evidence.lines else evidence.start_line
            if finding.line is not None and evidence.start_line <= finding.line <= last:
                citations[key].add(finding.citation)
                break
    return citations


def job_count(jobs: int | None) -> int:
    """The processes `--jobs` asks for: None is the machine's cores."""
    return max(1, jobs or os.cpu_count() or 1)


def audit_each(paths: list[str], jobs: int | None = None,
               meanwhile: Callable[[], None] | None = None, judging: Judging | None = None
               ) -> Iterator[tuple[int, FileResult]]:
    """Audit every file; yield (its place in `paths`, its result) as each is done.

    With several jobs the largest files go first, and a large file goes in pieces
    (auditor/split.py), so that no file keeps one worker busy while the others wait;
    results come in the order they finish; `meanwhile` is work the parent does while its
    workers audit (loading the output modules, say). A caller that needs input order
    (every output does) sorts by place: `RunTotals` and the run store do.

    With several jobs the workers begin at this call, not at the first result asked for:
    what the caller does meanwhile overlaps them. Close what it returns if it is not
    walked to its end (`record_run` does).
    """
    jobs = job_count(jobs)
    if jobs > 1:  # the pools (and the pieces of a large file) loaded only when they may serve
        from auditor.split import SPLIT_BYTES
        from auditor.tasks import audit_in_pools, file_size

        if len(paths) > 1 or file_size(paths[0]) > SPLIT_BYTES:
            return audit_in_pools(paths, jobs, meanwhile, judging=judging)
    return _audit_here(paths, meanwhile, judging)


def _audit_here(paths: list[str], meanwhile: Callable[[], None] | None,
                judging: Judging | None) -> Iterator[tuple[int, FileResult]]:
    for index, path in enumerate(paths):
        try:
            result = audit_file(path, judging=judging)
        except Exception as error:
            raise AuditFailure(path) from error
        yield index, result
    if meanwhile:
        meanwhile()


def audit_paths(paths: list[str], jobs: int | None = None,
                progress: Callable[[FileResult], None] | None = None,
                meanwhile: Callable[[], None] | None = None) -> AuditResult:
    """Audit every file and merge the results in input order, whatever `jobs` is."""
    done: dict[int, FileResult] = {}
    for index, result in audit_each(paths, jobs, meanwhile):
        done[index] = result
        if progress:
            progress(result)
    return merge([done[i] for i in range(len(paths))])


class RunTotals:
    """What a run needs of each file once the file's findings and replays are gone: the
    inputs in their places, the rounds judged per citation, and the facts that the checks
    judging across files see at the end (`cross_file_findings`)."""

    def __init__(self, paths: list[str]) -> None:
        self.inputs: list[InputSummary | None] = [None] * len(paths)
        self.applied: Counter = Counter()
        self._facts: dict[int, dict[str, list]] = {}

    def add(self, index: int, result: FileResult) -> None:
        self.inputs[index] = result.summary
        self.applied.update(result.applied)
        if result.facts:
            self._facts[index] = result.facts

    def cross_file_findings(self) -> list[Finding]:
        """The findings of the checks that judge across files, from every file's facts taken
        in input order."""
        facts: dict[str, list] = {}
        for index in sorted(self._facts):
            for citation, items in self._facts[index].items():
                facts.setdefault(citation, []).extend(items)
        checks = registry()
        return [finding for citation, items in facts.items()
                for finding in checks[citation].audit(items)]

    def place_of(self) -> dict[str, int]:
        """Each input's place by its path (the order of every output)."""
        return {summary.path: index for index, summary in enumerate(self.inputs)
                if summary is not None}


class MergedOutput(Protocol):
    """Where a `RunMerger` hands a run over: the run store's `RunWriter`, or `InMemory`."""

    def add_file(self, place: int, result: FileResult, findings: list[Finding],
                 kept: list[str], dropped: set[str]) -> None: ...

    def add_run(self, findings: list[Finding], places: dict[str, int],
                applied: Counter) -> None: ...


class RunMerger:
    """The one merger of a run's file results, taken in whatever order files finish: each
    file's findings in their order, which replays the run keeps (`ReplaySelection`), what
    the run needs of it afterwards (`RunTotals`), handed to `output` as the file comes; at
    `close`, the findings of the checks that judge across files and the rounds each
    citation judged. With a `calendar` (`gaming_day.Calendar`), each input is given its
    first and last gaming days from the hours its rounds were dealt in."""

    def __init__(self, paths: list[str], output: MergedOutput,
                 calendar: Calendar | None = None) -> None:
        self.output = output
        self.calendar = calendar
        self.totals = RunTotals(paths)
        self.replays = ReplaySelection()

    def add(self, place: int, result: FileResult) -> None:
        if self.calendar is not None:  # `auditor case --from/--until` picks inputs by them
            summary = result.summary
            summary.first_gaming_day, summary.last_gaming_day = self.calendar.span(
                stamp for _, stamp, _ in result.tally.rounds)
        self.totals.add(place, result)
        kept, dropped = self.replays.offer(place, result)
        self.output.add_file(place, result, sorted(result.findings, key=Finding.sort_key),
                             kept, dropped)

    def close(self) -> None:
        self.output.add_run(self.totals.cross_file_findings(), self.totals.place_of(),
                            self.totals.applied)


class InMemory:
    """A merged run held in memory as one `AuditResult` (`result`, once the merger closed):
    the inputs in their places, the findings in the run's order (input place, then
    `Finding.sort_key`), the replays kept and each input's tally."""

    def __init__(self, count: int) -> None:
        self.inputs: list[InputSummary | None] = [None] * count
        self.tallies: list = [None] * count
        self.findings: dict[int, list[Finding]] = {}
        self.evidence: dict[str, RoundEvidence] = {}
        self.result: AuditResult | None = None

    def add_file(self, place: int, result: FileResult, findings: list[Finding],
                 kept: list[str], dropped: set[str]) -> None:
        self.inputs[place], self.tallies[place] = result.summary, result.tally
        self.findings[place] = findings
        self.evidence.update((key, result.evidence[key]) for key in kept)
        for key in dropped:
            del self.evidence[key]

    def add_run(self, findings: list[Finding], places: dict[str, int],
                applied: Counter) -> None:
        merged = [f for place in sorted(self.findings) for f in self.findings[place]]
        merged.extend(findings)
        merged.sort(key=lambda f: (places.get(f.file, len(places)), *f.sort_key()))
        self.result = AuditResult(self.inputs, merged, applied, self.evidence, self.tallies)


def merge(results: list[FileResult]) -> AuditResult:
    """Results of every input, in input order, merged into one (`RunMerger`)."""
    merged = InMemory(len(results))
    merger = RunMerger([r.summary.path for r in results], merged)
    for place, result in enumerate(results):
        merger.add(place, result)
    merger.close()
    assert merged.result is not None
    return merged.result


class RunRecorder(RunMerger):
    """The merger that records the run in the store as its files finish, so that the parent
    holds no file's findings or replays once they are stored (`store.RunWriter`): what it
    keeps is `RunTotals` and `ReplaySelection`. `recorded` as `store.load_result` takes it.
    The store is loaded only here: an audit without one never imports it."""

    def __init__(self, engine: Engine, run_id: int, paths: list[str],
                 calendar: Calendar = DEFAULT_CALENDAR,
                 recorded: dict[str, RoundEvidence] | None = None) -> None:
        from auditor.store.recording import RunWriter

        super().__init__(paths, RunWriter(engine, run_id, calendar, recorded), calendar)
