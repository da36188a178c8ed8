"""The check runner: which checks judge a file, and the checks run over each replayed round.

The audit of a file (auditor/audit.py) hands each round's read-only view to a
`RoundRunner`, which runs the checks the round can hold findings for (`Check.needs`) and
in force on its date, gathers the facts for the checks that judge across files
(`Check.collect`), and keeps one finding per fault (`most_specific`, `one_per_statement`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from itertools import chain
from typing import Any

from auditor.checks import games
from auditor.checks.base import PROBLEM, Check, FileView
from auditor.config import TableConfig
from auditor.findings import Finding
from auditor.reader import Problem
from auditor.replay.engine import UNRECORDED_KINDS
from auditor.replay.view import RoundView
from auditor.results import FileResult
from auditor.rulebase import effective_dates
from auditor.selection import Judging
from auditor.unknown_rules import UnknownRules


def checks_for(game: str | None, checks: Iterable[Check],
               judging: Judging | None = None) -> list[Check]:
    """The checks that judge a file of this game; with no game known (the header names none
    the format knows, or cannot be read), only the record checks, which judge the record
    itself: never the rules of a guessed game. With a selection (`judging`), only the
    checks it selects: the others do no work."""
    if judging is not None and judging.citations is not None:
        checks = [c for c in checks if judging.judges(c)]
    if judging is None or judging.approvals is None:  # no file to hold the record to
        checks = [c for c in checks if not c.outside_file]
    if game is None:
        return [c for c in checks if c.citation.startswith("record:")]
    return [c for c in checks if c.applies_to(game)]


_HAS_PROBLEM = frozenset({PROBLEM})


def round_holds(view: RoundView) -> frozenset:
    """What a replayed round holds, as `Check.needs` names it: its statement types, the
    marks of its wagers (side wagers' kinds, `tip`) and PROBLEM if it has a problem."""
    holds = frozenset(chain(map(type, view.events), view.wager_marks))
    return holds | _HAS_PROBLEM if view.problems else holds


def runner_for(config: TableConfig, result: FileResult, judging: Judging | None,
               problems: list[Problem] | None) -> RoundRunner:
    """The runner of a table's checks: its game's checks in the registry of games, as
    selected.

    Where the header leaves a house rule unknown, each check is judged under every table
    of the unknown rules it depends on (auditor/unknown_rules.py); None nearly always. A
    check with too many such tables is not judged, and the header says so: a problem for
    each is added to `problems` (None for a piece of a file, whose first piece says so)."""
    checks = checks_for(config.game, games.every_check(), judging)
    unknown = UnknownRules(config) if config.unknown else None
    if unknown is not None:
        left_out = unknown.not_judged(checks)
        if problems is not None:
            problems.extend(unknown.problem(c) for c in left_out)
        checks = [c for c in checks if c not in left_out]
    # A round counts as audited where a rule of the regulation judged it: a known game,
    # and a rule of it selected (`--select record`, or a selection of another game's
    # rules, judges the record alone: no round of this file is audited then).
    regulation = any(not c.citation.startswith("record:") for c in checks)
    facts = games.game(config.game).facts if config.game is not None else None
    runner = RoundRunner(checks, result, regulation=config.game is not None and regulation,
                         facts=facts)
    runner.unknown = unknown
    return runner


class RoundRunner:
    """The checks of one file's game, run over each replayed round (`run`) and then once
    over the file (`run_file`).

    What does not change from round to round is worked out once: which checks look at
    rounds with an unreadable line, and which gather facts across files (`collect`, from
    every round).
    `applied` (rounds judged per citation) is counted once per file, not per check and round.
    """

    def __init__(self, checks: list[Check], result: FileResult, regulation: bool = True,
                 facts: Callable[[RoundView], Any] | None = None) -> None:
        self.checks = checks
        # The game's facts (auditor/checks/games.py), derived for each round before its
        # checks read it: the checks then share them and change nothing of the view.
        self.facts = facts
        self.result = result
        # False: no rule of the regulation applies (no game known, or only record checks
        # selected), so no round counts as audited
        self.regulation = regulation
        self.unreadable_checks = [c for c in checks if c.judges_unreadable_rounds]
        self.unknown: UnknownRules | None = None  # set by `runner_for`
        self.collecting = [c for c in checks if type(c).collect is not Check.collect]
        self.audited = 0
        self.judged = 0  # readable rounds judged by a game's checks, not yet in the summary
        self.unreadable = 0
        # Rules in force from a day (rulebase.effective_dates): a round dated earlier is not
        # judged by them. Nearly always a round's date is later, and the lists are kept.
        dates = effective_dates()
        self.effective = {c.citation: dates[c.citation] for c in checks if c.citation in dates}
        # date -> the three lists in force then, and the citations not yet in force
        self.in_force: dict[str, tuple[list[Check], list[Check], list[Check], list[str]]] = {}
        self.not_in_force: Counter = Counter()  # citation -> readable rounds not judged
        # Per list and kind of round (what it holds), the checks that judge it and their
        # `round` methods, bound once per file rather than once per round (the lists are
        # kept, so their ids stay theirs for the file's life).
        self.bound: dict[tuple[int, frozenset], tuple[list[Check], list]] = {}
        # Every statement type and mark some check `needs`: a round's holdings are taken
        # among these only (a smaller key, and fewer kinds of round to pick checks for)
        self.relevant = frozenset().union(*(c.needs for c in checks if c.needs is not None))
        # The relevant statement types are among those the replay records in
        # `RoundView.kinds` (always, unless a check comes to need a deal, bet, stand or
        # settle): the round's holdings are read there, not from a pass over its statements
        self.by_kinds = self.relevant.isdisjoint(UNRECORDED_KINDS)

    def _in_force(self, date: str | None
                  ) -> tuple[list[Check], list[Check], list[Check], list[str]]:
        """The checks, the unreadable rounds' checks and the collecting checks in force on a
        round's gaming date (an undated round: every check), and the citations of the checks
        not yet in force then. A date on which every check is in force (nearly every one)
        gets the file's own lists."""
        lists = (self.checks, self.unreadable_checks, self.collecting, [])
        if not self.effective or not date:
            return lists
        known = self.in_force.get(date)
        if known is None:
            later = {c for c, day in self.effective.items() if day > date}
            if later:
                every, unreadable, collecting = (
                    [c for c in each if c.citation not in later] for each in lists[:3])
                known = (every, unreadable, collecting,
                         [c.citation for c in self.checks if c.citation in later])
            else:
                known = lists
            self.in_force[date] = known
        return known

    def run(self, view: RoundView) -> list[Finding]:
        """The round's findings, after the checks judged it (also added to the file's
        result, and the facts gathered for the checks across files)."""
        result = self.result
        if self.facts is not None:
            self.facts(view)
        if self.effective and view.date:
            every, unreadable, collecting, not_yet = self._in_force(view.date)
        else:  # the common case, without the call
            every, unreadable, collecting = self.checks, self.unreadable_checks, self.collecting
            not_yet = ()
        if view.unreadable:
            self.unreadable += 1
            checks = unreadable
        else:
            checks = every  # with no game known, the record checks alone
            self.audited += 1
            if self.regulation:
                self.judged += 1
            if not_yet:
                self.not_in_force.update(not_yet)
        found: list[Finding] = []
        # What the round holds (its statement types, side wagers, problems) picks the checks
        # that can find anything in it (`Check.needs`); the pick is kept per kind of round.
        # round_holds, among the relevant statement types and marks
        relevant = self.relevant
        if self.by_kinds:
            holds = relevant & view.kinds
        else:
            holds = relevant.intersection(map(type, view.events))
        if view.wager_marks:
            holds |= relevant & view.wager_marks
        if view.problems:
            holds |= _HAS_PROBLEM
        picked = self.bound.get((id(checks), holds))
        if picked is None:
            judged = [c for c in checks if c.needs is None or not c.needs.isdisjoint(holds)]
            picked = self.bound[(id(checks), holds)] = (judged, [c.round for c in judged])
        unknown = self.unknown
        if unknown is None:
            for judge in picked[1]:
                judged = judge(view)
                if judged:  # most checks return () for a compliant round: nothing to extend
                    found.extend(judged)
        else:  # the header leaves a house rule unknown (auditor/unknown_rules.py)
            for check in picked[0]:
                found.extend(unknown.judge(check, view))
        for check in collecting:  # every round, readable or not (`Check.collect`)
            facts = check.collect(view)
            if facts:
                result.facts.setdefault(check.citation, []).extend(facts)
        if not found:
            return found
        found = one_per_statement(most_specific(found))
        result.findings.extend(found)
        return found

    def run_file(self, view: FileView) -> list[Finding]:
        """The file's own findings (`Check.file`), once every round is read: also added to
        the file's result."""
        found = [finding for check in self.checks for finding in check.file(view)]
        self.result.findings.extend(found)
        return found

    def count_applied(self) -> None:
        applied = self.result.applied
        for check in self.checks:
            rounds = self.audited + (self.unreadable if check.judges_unreadable_rounds else 0)
            rounds -= self.not_in_force[check.citation]
            if rounds > 0:
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


