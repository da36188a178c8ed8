"""Auditing inputs: each file streamed round by round through replay and checks.

Files are audited independently (in parallel with `jobs` > 1) and their results merged in
input order, so the output does not depend on the number of jobs. Checks that judge across
files (`collect`/`audit`) see their facts after every file is done.
"""

from __future__ import annotations

import bisect
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal

from pydantic import BaseModel, field_serializer

from auditor import checks as _checks  # noqa: F401  (registers every check)
from auditor import events as ev
from auditor.checks.base import Check, FileView, registry
from auditor.config import TableConfig, UnknownRule
from auditor.findings import Finding
from auditor.identity import normalise_statement
from auditor.parser import parse_lines
from auditor.reader import Header, Problem, RoundRecord, read_body, read_structure
from auditor.replay.engine import replay_round
from auditor.replay.state import TableState
from auditor.replay.trace import RoundEvidence, trace_round
from auditor.source import SourceFile, UnreadableFile
from auditor.tally import Tally
from auditor.unknown_rules import agreed, candidate_configs, depends


class InputSummary(BaseModel):
    path: str
    sha256: str | None = None
    lines: int = 0
    rounds: int = 0  # rounds read
    rounds_audited: int = 0  # rounds whose rules were judged (no unreadable line in them)
    table: str | None = None
    casino: str | None = None
    licence: str | None = None
    game: str | None = None
    first_date: str | None = None
    last_date: str | None = None
    dealers: list[str] = []
    error: str | None = None  # why the file could not be audited at all
    casino: str | None = None
    licence: str | None = None
    # The rest of the table's identity, as its header declared it (None: no header read).
    decks: int | None = None
    seats: int | None = None
    minimum: Decimal | None = None
    maximum: Decimal | None = None
    currency: str | None = None
    house_rules: dict[str, str] = {}  # option key -> value in force, defaults made explicit

    @field_serializer("minimum", "maximum")
    def _limit(self, amount: Decimal | None) -> str | None:
        return None if amount is None else str(amount)

    @property
    def table_key(self) -> str | None:
        """The table's identity across the run: licence (or else casino) and table ID, so
        equal table IDs of two casinos never merge. None when no header was read."""
        return table_key(self.licence or self.casino, self.table)


def table_key(owner: str | None, table: str | None) -> str | None:
    if table is None:
        return None
    return f"{owner}/{table}" if owner else table


def house_rules(config: TableConfig) -> dict[str, str]:
    """The house rules a table was judged under: every option of its game with the value in
    force, a default made explicit (`blackjack` is the game's odds when not declared)."""
    rules: dict[str, str] = {}
    unknown = {rule.field for rule in config.unknown}  # not known, so not shown
    for name, value in config.rules.model_dump().items():
        if name in unknown:
            continue
        key = name.replace("_", ".", 1) if name.startswith(
            ("db21", "sidebet", "tensticks", "ladies")) else name
        game = key.split(".", 1)[0]
        if game in ("db21", "tensticks", "ladies") and game != config.game:
            continue  # another game's option: nothing of this table
        if key == "blackjack":
            value = config.blackjack_odds
        if value is not None:
            rules[key] = str(value)
    return rules


@dataclass
class FileResult:
    summary: InputSummary
    findings: list[Finding] = field(default_factory=list)
    facts: dict[str, list] = field(default_factory=dict)  # citation -> facts for audit()
    applied: Counter = field(default_factory=Counter)  # citation -> rounds judged
    evidence: dict[str, RoundEvidence] = field(default_factory=dict)  # round key -> evidence
    tally: Tally = field(default_factory=Tally)  # denominators and card facts for `trends`


@dataclass
class AuditResult:
    inputs: list[InputSummary]
    findings: list[Finding]
    applied: Counter
    evidence: dict[str, RoundEvidence]
    tallies: list[Tally] = field(default_factory=list)  # one per input, in input order
    # Set after the audit by auditor/waivers.py and auditor/baseline.py.
    waivers: list = field(default_factory=list)  # WaiverStatus, in the waiver file's order
    resolved: list[dict] | None = None  # earlier findings now gone; None without a baseline

    @property
    def unreadable(self) -> list[InputSummary]:
        return [i for i in self.inputs if i.error]


def round_key(file: str, round_id: str | None, line: int) -> str:
    return f"{file}:{line}:{round_id}"


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


REPLAYS_PER_CITATION = 10
"""Rounds of one file replayed step by step for the report, per citation: the first ones in
record order. Every finding is still reported with its lines; the cap keeps memory bounded by
the kinds of fault in a file rather than by how often they recur (a replay holds about
0.15 MiB), and keeps the printed report readable."""


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


class _ReplayPicker:
    """Which rounds with findings get a step-by-step replay (REPLAYS_PER_CITATION).

    Offered the rounds of a file in record order, it takes a round while one of its
    citations has fewer than the cap. A piece of a file (auditor/split.py) picks with a
    picker of its own, which takes every round the whole file's picker would take and
    maybe more (its counts can only be lower); offering the pieces' picks again, in
    order, to one picker gives exactly the whole file's choice."""

    def __init__(self) -> None:
        self.replayed: Counter = Counter()

    def wants(self, citations: frozenset[str]) -> bool:
        if all(self.replayed[c] >= REPLAYS_PER_CITATION for c in citations):
            return False
        self.replayed.update(citations)
        return True


class FileAudit:
    """One file's audit as its lines stream by: header, rounds, then the file's own checks.

    `audit_file` runs it over a whole file. A large file can also be audited in pieces that
    begin at a `shoe` statement (auditor/split.py): each piece starts from the table's state
    handed to it, `close_piece` ends it, and the first piece `absorb`s the others in order
    before `finish` judges the file as a whole, so the result is the whole file's."""

    def __init__(self, path: str, keep_evidence: bool = True, first_line: int = 1) -> None:
        self.path = path
        self.keep_evidence = keep_evidence
        self.summary = InputSummary(path=path)
        self.result = FileResult(self.summary)
        self.state: TableState | None = None
        self.file_view: FileView | None = None
        self.judge = _RoundJudge([], self.result)
        self.candidates: list[TableConfig] | None = None
        self.first_date: str | None = None
        self.last_date: str | None = None
        self.dealers: dict[str, None] = {}
        self.evidence_rounds: list[tuple[RoundRecord, TableState, list[int]]] = []
        self.evidence_lines: dict[int, str] = {}  # the lines of the rounds to replay, as read
        # (round key, citations) of each round replayed, in record order (see _ReplayPicker)
        self.picks: list[tuple[str, frozenset[str]]] = []
        self.picker = _ReplayPicker()
        self.texts = _LineTexts(first_line)

    def begin(self, config: TableConfig, problems: Iterable[Problem],
              state: TableState | None = None) -> None:
        """The table is known: from the header, or handed to a piece of the file."""
        self.state = state if state is not None else TableState(config)
        self.file_view = FileView(self.path, config, list(problems))
        describe_table(self.summary, config)
        self.judge = _RoundJudge(checks_for(config.game, registry().values()), self.result,
                                 judging=config.game is not None)
        # Where the header leaves a house rule unknown, each round is replayed once per
        # table the header could describe (auditor/unknown_rules.py); None nearly always.
        self.candidates = candidate_configs(config) if config.unknown else None
        self.judge.unknown, self.judge.candidates = config.unknown, self.candidates

    def read(self, lines: Iterable[tuple[int, str | None, str | None]],
             config: TableConfig | None = None) -> None:
        """Audit the lines: a whole record, or (with the table's `config`) a piece that
        begins with a body statement."""
        events = parse_lines(lines, self.texts.texts, self.texts.problems)
        items = read_structure(events) if config is None else read_body(events, config)
        # Most items are rounds: they are tested first. Memory stays flat: nothing is kept
        # per round but its findings, and the rounds to replay (bounded per citation).
        for item in items:
            if isinstance(item, RoundRecord):
                self._round(item)
            elif isinstance(item, Header):
                self.begin(item.config, item.problems)
            elif isinstance(item, Problem):
                self.file_view.problems.append(item)
            elif isinstance(item, ev.Event):
                self._between_rounds(item)

    def _round(self, item: RoundRecord) -> None:
        state, result, texts = self.state, self.result, self.texts
        before = state.clone() if self.keep_evidence or self.candidates else None
        view = replay_round(state, item, self.path)
        views = None
        if self.candidates:
            views = [replay_round(before.clone(config=candidate), item, self.path)
                     for candidate in self.candidates[:-1]]
            views.append(view)  # the last candidate is the table as configured
            if not self.keep_evidence:
                before = None
        self.summary.rounds += 1
        date = view.date
        if date:
            if self.first_date is None or date < self.first_date:
                self.first_date = date
            if self.last_date is None or date > self.last_date:
                self.last_date = date
        if view.dealer_id:
            self.dealers[view.dealer_id] = None
        found = len(result.findings)
        if self.judge(view, views):
            texts.attach(result.findings, found)
            citations = frozenset(f.citation for f in result.findings[found:])
            if before is not None and self.picker.wants(citations):
                self.picks.append((round_key(self.path, item.round_id, item.start.line),
                                   citations))
                self.evidence_rounds.append((item, before, [
                    f.line for f in result.findings[found:] if f.line is not None]))
                # Taken from the bytes being read (and hashed), never read again: a file
                # replaced while it is audited cannot put its lines beside this SHA-256.
                self.evidence_lines.update(texts.shown(item.start.line,
                                                       item.end_line or item.last_line))
        texts.forget(item.start.line, item.end_line or item.last_line)
        result.tally.add_round(view, result.findings[found:])

    def _between_rounds(self, item: ev.Event) -> None:
        state = self.state
        state.apply(item)
        self.result.tally.add_event(item)
        if isinstance(item, ev.Burn) and state.counts[item.card] > state.config.decks:
            # a card burned between rounds counts too (record:card-count)
            self.file_view.problems.append(Problem(
                "card-count", item.line, f"burned {item.card} is seen "
                f"{state.counts[item.card]} times {state.counted_since_text()}, more "
                f"than the {state.config.decks}-deck shoe holds"))

    def close_piece(self, trace: bool = True) -> None:
        """The lines are all read: the last shuffle's cards closed, and the replays of the
        rounds picked traced (their rounds' states let go). A piece of a file leaves its
        rounds untraced (`trace=False`): the join traces only those the whole file picks,
        most of a piece's picks being taken already by the pieces before it."""
        self.result.tally.finish()
        if trace:
            self._trace()

    def _trace(self) -> None:
        for record, before, faults in self.evidence_rounds:
            key = round_key(self.path, record.round_id, record.start.line)
            self.result.evidence[key] = trace_round(before, record, self.path,
                                                    self.evidence_lines, faults)
        self.evidence_rounds, self.evidence_lines = [], {}

    def absorb(self, piece: FileAudit) -> None:
        """The next piece of the same file, audited from the state this one ended in."""
        result, other = self.result, piece.result
        self.summary.rounds += piece.summary.rounds
        self.summary.rounds_audited += piece.summary.rounds_audited
        for date in (piece.first_date, piece.last_date):
            if date and (self.first_date is None or date < self.first_date):
                self.first_date = date
            if date and (self.last_date is None or date > self.last_date):
                self.last_date = date
        self.dealers.update(piece.dealers)
        result.findings.extend(other.findings)
        for citation, facts in other.facts.items():
            result.facts.setdefault(citation, []).extend(facts)
        result.evidence.update(other.evidence)
        self.picks.extend(piece.picks)
        self.evidence_rounds.extend(piece.evidence_rounds)
        self.evidence_lines.update(piece.evidence_lines)
        result.tally.absorb(other.tally)
        self.file_view.problems.extend(piece.file_view.problems)
        self.texts.texts.update(piece.texts.texts)
        self.texts.problems.update(piece.texts.problems)
        self.judge.audited += piece.judge.audited
        self.judge.unreadable += piece.judge.unreadable
        self.state = piece.state

    def pick_replays(self) -> None:
        """Of the pieces' replays, the ones the whole file's picker takes (_ReplayPicker)."""
        picker = _ReplayPicker()
        evidence = self.result.evidence
        wanted = set()
        for key, citations in self.picks:
            if picker.wants(citations):
                wanted.add(key)
            else:
                evidence.pop(key, None)
        self.evidence_rounds = [
            (record, before, faults) for record, before, faults in self.evidence_rounds
            if round_key(self.path, record.round_id, record.start.line) in wanted]
        self._trace()

    def finish(self, sha256: str, lines: int) -> FileResult:
        """The file's own checks, its dates and dealers: the result is complete."""
        summary, result, file_view = self.summary, self.result, self.file_view
        summary.sha256, summary.lines = sha256, lines
        if summary.lines == 0:
            file_view.problems.insert(0, Problem("header", 1, "the file is empty"))
        self.judge.count_applied()
        found = len(result.findings)
        for check in self.judge.checks:
            result.findings.extend(check.file(file_view))
        self.texts.attach(result.findings, found)
        summary.first_date, summary.last_date = self.first_date, self.last_date
        summary.dealers = list(self.dealers)
        return result


def audit_file(path: str, keep_evidence: bool = True, data: bytes | None = None) -> FileResult:
    """Audit one record: the file at `path`, or its bytes `data` (named `path`) for a
    worker that cannot read the file itself."""
    source = SourceFile(path, data=data)
    audit = FileAudit(path, keep_evidence)
    try:
        source.open_check()
    except UnreadableFile as error:
        audit.summary.error = str(error)
        return audit.result
    audit.read(source.lines())
    audit.close_piece()
    return audit.finish(source.sha256, source.line_count)


def describe_table(summary: InputSummary, config: TableConfig) -> None:
    """The header's identity of the table: who runs it, its game, shoe, limits and rules."""
    summary.table, summary.game = config.table_id, config.game
    summary.casino, summary.licence = config.casino, config.licence
    summary.decks, summary.seats, summary.currency = config.decks, config.seats, config.currency
    if any(rule.field == "decks" for rule in config.unknown):
        summary.decks = None  # the header does not say (record:header)
    summary.minimum, summary.maximum = config.minimum, config.maximum
    summary.house_rules = house_rules(config)
class _LineTexts:
    """The texts of the lines findings may stand on, kept while the file streams, so that
    each finding carries its statement (for its ID) without reading the file again.

    Every line is kept as it passes (the least work per line); a round's lines are dropped
    once the round is judged, and the blank and comment lines between rounds then too.
    What stays is the few statements between rounds (header, shoes, notes), for the
    findings about the whole file."""

    def __init__(self, first_line: int = 1) -> None:
        self.texts: dict[int, str | None] = {}
        self.problems: dict[int, str] = {}  # why an unreadable line could not be read
        self.after = first_line  # lines before this one are settled (or in another piece)

    # The lines are kept by `parser.parse_lines` as it reads them (FileAudit.read): None for
    # an unreadable line, whose ID uses the message.

    def shown(self, first: int, last: int) -> dict[int, str]:
        """The lines first to last as a replay shows them (an unreadable one as <why>)."""
        shown: dict[int, str] = {}
        for number in range(first, last + 1):
            if number in self.texts:
                text = self.texts[number]
                shown[number] = text if text is not None else f"<{self.problems[number]}>"
        return shown

    def attach(self, findings: list[Finding], start: int) -> None:
        """Give findings[start:] their normalised statement."""
        texts = self.texts
        for index in range(start, len(findings)):
            finding = findings[index]
            if finding.line in texts:
                text = texts[finding.line]
                # An unreadable line has no text: "" says so (its ID uses the message), so
                # the parent does not look for it again.
                statement = normalise_statement(text) if text is not None else ""
                findings[index] = finding.model_copy(update={"statement": statement})

    def forget(self, first: int, last: int) -> None:
        texts = self.texts
        for number in range(self.after, first):
            text = texts.get(number)
            if text is not None and text.lstrip()[:1] in ("", "#"):
                del texts[number]
        pop = texts.pop
        for number in range(first, last + 1):
            pop(number, None)
        self.after = max(self.after, last + 1)


def checks_for(game: str | None, checks: Iterable[Check]) -> list[Check]:
    """The checks that judge a file of this game; with no game known (the header names none
    the format knows, or cannot be read), only the record checks, which judge the record
    itself: never the rules of a guessed game."""
    if game is None:
        return [c for c in checks if c.citation.startswith("record:")]
    return [c for c in checks if c.applies_to(game)]


class _RoundJudge:
    """The checks of one file's game, applied to each replayed round.

    What does not change from round to round is worked out once: which checks look at
    rounds with an unreadable line, and which gather facts across files (`collect`, from
    every round).
    `applied` (rounds judged per citation) is counted once per file, not per check and round.
    """

    def __init__(self, checks: list[Check], result: FileResult, judging: bool = True) -> None:
        self.checks = checks
        self.result = result
        self.judging = judging  # False: no game's rules apply, so no round counts as audited
        self.unreadable_checks = [c for c in checks if c.judges_unreadable_rounds]
        self.unknown: tuple[UnknownRule, ...] = ()  # set by FileAudit.begin
        self.candidates: list[TableConfig] | None = None
        self.collecting = [c for c in checks if type(c).collect is not Check.collect]
        self.audited = 0
        self.unreadable = 0

    def __call__(self, view, views: list | None = None) -> bool:
        """Judge one round; True if it has findings. `views`: the round replayed under each
        candidate table, where the header leaves a house rule unknown."""
        result = self.result
        if view.unreadable:
            self.unreadable += 1
            checks = self.unreadable_checks
        else:
            checks = self.checks  # with no game known, the record checks alone
            self.audited += 1
            if self.judging:
                result.summary.rounds_audited += 1
        found: list[Finding] = []
        if views is None:
            for check in checks:
                found.extend(check.round(view))
        else:
            for check in checks:
                rules = depends(check.options, self.unknown)
                if not rules:
                    found.extend(check.round(view))
                    continue
                versions = [list(check.round(each)) for each in views]
                found.extend(agreed(versions, self.candidates, rules,
                                    declared=check.options is not None))
        for check in self.collecting:  # every round, readable or not (`Check.collect`)
            facts = check.collect(view)
            if facts:
                result.facts.setdefault(check.citation, []).extend(facts)
        if not found:
            return False
        found = one_per_statement(most_specific(found))
        result.findings.extend(found)
        return bool(found)

    def count_applied(self) -> None:
        applied = self.result.applied
        for check in self.checks:
            rounds = self.audited + (self.unreadable if check.judges_unreadable_rounds else 0)
            if rounds:
                applied[check.citation] += rounds


def specificity(citation: str) -> int:
    """A variation's subsection is more specific than the chapter's standard section."""
    if citation.startswith("record:"):
        return 0
    return 2 if "." in citation.removeprefix("20:18:15:") else 1


def most_specific(findings: list[Finding]) -> list[Finding]:
    """One fault, one finding: of findings on the same subject keep the most specific."""
    best: dict[str, int] = {}
    for finding in findings:
        if finding.subject is not None:
            rank = specificity(finding.citation)
            best[finding.subject] = max(best.get(finding.subject, rank), rank)
    return [f for f in findings
            if f.subject is None or specificity(f.citation) == best[f.subject]]


def one_per_statement(findings: list[Finding]) -> list[Finding]:
    """One statement, one finding per citation: the reasons of a check against the same
    statement and hand (a surrender both unoffered and late) are one fault, said in one
    sentence. Payout findings stand alone: each carries its own money."""
    kept: list[Finding] = []
    where: dict[tuple, int] = {}
    for finding in findings:
        key = (finding.citation, finding.line, finding.seat, finding.hand)
        if finding.expected is not None or key not in where:
            if finding.expected is None:
                where[key] = len(kept)
            kept.append(finding)
            continue
        first = kept[where[key]]
        message = f"{first.message.rstrip('.')}; and {finding.message}"
        evidence = tuple(sorted(set(first.evidence) | set(finding.evidence)))
        kept[where[key]] = first.model_copy(update={"message": message, "evidence": evidence})
    return kept


class AuditFailure(Exception):
    """The auditor itself failed on a file (a bug, not a fault of the record): the file is
    named, the cause chained."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path


def audit_each(paths: list[str], jobs: int | None = None,
               meanwhile: Callable[[], None] | None = None
               ) -> Iterator[tuple[int, FileResult]]:
    """Audit every file; yield (its place in `paths`, its result) as each is done.

    With several jobs the largest files go first, and a large file goes in pieces
    (auditor/split.py), so that no file keeps one worker busy while the others wait;
    results come in the order they finish; `meanwhile` is work the parent does while its
    workers audit (loading the output modules, say). A caller that needs input order
    (every output does) sorts by place: `RunTotals` and the run store do.
    """
    from auditor.split import SPLIT_BYTES
    from auditor.tasks import audit_in_pools, file_size  # (they build on this module)

    jobs = max(1, jobs or os.cpu_count() or 1)
    if jobs == 1 or (len(paths) < 2 and file_size(paths[0]) <= SPLIT_BYTES):
        for index, path in enumerate(paths):
            try:
                result = audit_file(path)
            except Exception as error:
                raise AuditFailure(path) from error
            yield index, result
        if meanwhile:
            meanwhile()
        return
    yield from audit_in_pools(paths, jobs, meanwhile)


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


def merge(results: list[FileResult]) -> AuditResult:
    totals = RunTotals([r.summary.path for r in results])
    findings: list[Finding] = []
    evidence: dict[str, RoundEvidence] = {}
    replays = ReplaySelection()
    for index, result in enumerate(results):
        totals.add(index, result)
        findings.extend(result.findings)
        kept, dropped = replays.offer(index, result)
        evidence.update((key, result.evidence[key]) for key in kept)
        for key in dropped:
            del evidence[key]
    findings.extend(totals.cross_file_findings())
    order = totals.place_of()
    findings.sort(key=lambda f: (order.get(f.file, len(order)), *f.sort_key()))
    return AuditResult([r.summary for r in results], findings, totals.applied, evidence,
                       [r.tally for r in results])
