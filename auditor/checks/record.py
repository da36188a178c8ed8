"""Problems of the record itself (no regulation governs them): the `record:` citations."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from auditor.checks.base import PROBLEM, Check, FileView, register
from auditor.events import Shuffle
from auditor.findings import Finding
from auditor.replay.view import RoundView, counted_since_text


class _ProblemCheck(Check):
    """Turns the reader's and the replay's problems of one kind into findings."""

    kind = ""
    judges_unreadable_rounds = True
    needs = frozenset({PROBLEM})

    def round(self, view: RoundView) -> Iterator[Finding]:
        for problem in view.problems:
            if problem.kind == self.kind:
                found = self.finding(view, problem.line, problem.message, seat=problem.seat,
                                     hand=problem.hand)
                yield found.model_copy(update={"column": problem.column})

    def file(self, view: FileView) -> Iterator[Finding]:
        for problem in view.problems:
            if problem.kind == self.kind:
                yield self.file_finding(view, problem)


@register
class SyntaxCheck(_ProblemCheck):
    """A statement that does not parse.

    Regulation: none; BJH 1 (bjh-format.md §1-§5, §7) says what a statement is.
    Violating: `deal s3h1 10h` (a ten is `T`): the finding names column 15 and what was expected.
    Compliant: `deal s3h1 Th`.
    Reading: the rest of the file is still read; outside rounds, consecutive unreadable
    lines are one finding naming their range (every line still counted). A round holding
    an unreadable line is replayed, so that seats and card counts stay right, but its rules
    are not judged: a missing statement would make every later judgement of that round
    unsafe. The input summary counts it as read, not audited.
    """

    citation = "record:syntax"
    name = "record.syntax"
    severity = "low"
    options = frozenset()
    kind = "syntax"

    def file(self, view: FileView) -> Iterator[Finding]:
        """Outside rounds, a run of consecutive unreadable lines (a stretch of binary data,
        a corrupted export) is one finding naming the range, every line of it counted:
        200,000 such lines are not 200,000 findings to hold and print."""
        run: list = []
        for problem in view.problems:
            if problem.kind != self.kind:
                continue
            if run and problem.line is not None and run[-1].line is not None \
                    and problem.line == run[-1].line + 1:
                run.append(problem)
                continue
            yield from self._run_finding(view, run)
            run = [problem]
        yield from self._run_finding(view, run)

    def _run_finding(self, view: FileView, run: list) -> Iterator[Finding]:
        if len(run) == 1:
            yield self.file_finding(view, run[0])
        elif run:
            first, last = run[0], run[-1]
            found = self.file_finding(view, first)
            yield found.model_copy(update={"message": (
                f"Lines {first.line}–{last.line} ({len(run):,} lines in a row) cannot be "
                f"read; the first: {first.message}")})


@register
class HeaderCheck(_ProblemCheck):
    """The header is missing, out of order, or holds an unknown or contradictory option.

    Regulation: none; bjh-format.md §2-§3.
    Violating: `option soft17=sometimes`; a file that does not begin with `bjh 1`.
    Compliant: `bjh 1`, `table T1 game=standard decks=6`, `option soft17=hit`.
    Reading: a db21 table without `db21.paytable`, a switch table whose blackjack odds
    are not 1:1, a table minimum above its maximum, `sidebet.min` above `sidebet.max` and
    one option set twice to different values are contradictions; a header statement after
    the body has begun is out of order. Never guess, and judge all that can be judged:
    where the game cannot be known (a `game=` the format does not know, no `game=`, no
    readable `table` line, or a `table` value other than `decks=` that cannot be used), the
    rounds are read and their record findings reported, but no game's rules are judged.
    Where only a house rule cannot be known (an option given two different values, an
    option or `decks=` with a value it cannot take, `decks=` given twice two ways or not at
    all), every rule is still judged on every round, and a rule whose verdict depends on it
    is judged under each value it could hold (the values given; for a value it cannot
    take, every value: an amount limit as none, a count with no most as the least and
    past any count; `decks` as one, six, eight and the most the game allows, Blackjack
    Switch eight, the others none, so that there no card count is ever over it; at a Lucky
    Ladies table only the counts its declared pay table is dealt with, A or B more than
    one deck, C one). `decks=0` is a count `decks` cannot take (a shoe holds one deck at
    least): unknown, as if not given, never a shoe of no cards. An option given twice with
    the same value contradicts nothing: the house rule is known and there is no finding. An
    option given one value it can take and one it cannot is unknown, and every value it
    can take remains possible, not the readable one alone: the unreadable statement might
    have meant any of them. With several house rules unknown, a finding stands only where
    every combination of their values gives it; a rule is judged under every combination
    of the unknown house rules it reads (each check declares them), which is the same
    verdict, so a house rule it does not read never hides its finding. Its
    message names those house rules and what the header said of each, and, where the
    combinations word it differently, under which values the words hold (the ones that
    claim least). Thus with `das` unknown a double after a split is never flagged, and
    with `soft17` and `surrender` unknown a dealer's stand on a hard 16 still is. A rule
    whose unknown house rules make more than 64 combinations is not judged in that file:
    one finding here names it and them, and its subsection counts no round. The table's
    `house_rules` and `decks` in the outputs leave out what is unknown. An unknown option
    key is reported once and otherwise ignored. A house rule that the regulation forbids
    (such as 6 to 5 at a six-deck table) is no header problem: the payouts are judged
    under 20:18:15:06.
    """

    citation = "record:header"
    name = "record.header"
    severity = "low"
    options = frozenset()
    kind = "header"


@register
class ReferenceCheck(_ProblemCheck):
    """A statement names a seat, hand or wager that does not exist at that point.

    Regulation: none; bjh-format.md §5 ("Seats") and §7.
    Violating: `hit s4h1 7c` in a round where s4h1 was neither dealt nor wagered on; a round
    with no `end`; `sit s2 player=P-2` where a wager with no `sit` seated a player on s2 in
    an earlier round, and no `leave s2` followed.
    Compliant: `bet s4h1 main 10` and `deal s4h1 9d` before the `hit`.
    Reading: an unclosed round ends at the next `round`, `shoe`, `dealer` or `close`
    statement, or at the end of the file, and is still audited; the finding stands on its
    `round` line. But a record not finished is still being written: when the file ends
    inside a round and no `close` was read, that round is the open round, read and not
    judged (no finding of any check for it or its statements), and the outputs name it
    (`open_round`); a last line with no newline in such a record is not yet written and
    not read, unless it is a whole `end` or `close`. A table that closed, an unclosed
    round followed by another statement, a round dated before yesterday (an older night's
    record cut short, not one being written), or `audit --finished` (every file taken as
    finished): judged as above. Round statements outside a round, and a `sit` on an
    occupied seat, are reference problems too: occupied by a named player, or by the
    unnamed player a wager seated there (a wager on a seat with no `sit`), until a
    `leave`; the new player then replaces the old.
    """

    citation = "record:reference"
    name = "record.reference"
    severity = "low"
    options = frozenset()
    kind = "reference"


@register
class CardCountCheck(Check):
    """A card appears more often since the shoe came into play than the decks hold.

    Regulation: none; bjh-format.md §4 (`shoe`); each deck holds each card once.
    Violating: at a one-deck table, `deal s1h1 Kh` and later `hit s2h1 Kh` with no
    `shoe` or `shuffle` between them.
    Compliant: the same two cards at a two-deck table.
    Reading: counts start again at `shoe` and, because a shuffle brings the discards back
    into play, at `shuffle` too; a shuffle inside a round (the cards ran out, 20:18:15:28)
    starts them again from the cards on the layout, which are not in the shuffled stack
    (bjh-format.md §5, "Running out of cards"). The message says where the count started:
    since the shoe came into play, or since the shuffle at its line. Burned and traded
    cards count, a card burned between rounds included. One finding per card and round, at
    the line where the count is first exceeded in the round; between rounds, one finding
    per `burn` over the count. With `decks` unknown (record:header) a card is counted
    against the most decks the game allows: eight at Blackjack Switch (20:18:15:30.09(1));
    the other games' rules name no most, so there no count is over it.
    """

    citation = "record:card-count"
    name = "record.card_count"
    severity = "low"
    options = frozenset({"decks"})
    judges_unreadable_rounds = True

    def round(self, view: RoundView) -> Iterable[Finding]:
        if max(view.card_seen, default=0) <= view.config.decks:
            return ()  # the common case, found without a Python-level loop (nor a generator)
        return self._over(view)

    def _over(self, view: RoundView) -> Iterator[Finding]:
        decks = view.config.decks
        reported: set[str] = set()
        # a shuffle inside the round starts the counts again (bjh-format.md §5)
        shuffles = [e.line for e in view.events if type(e) is Shuffle]
        for card, count, line in zip(view.card_codes, view.card_seen, view.card_lines,
                                     strict=True):
            if count > decks and card not in reported:
                reported.add(card)
                times = "once" if decks == 1 else f"{decks} times"
                since = max((s for s in shuffles if s < line), default=view.shoe.counted_since)
                yield self.finding(view, line, f"{card} is seen for the {_ordinal(count)} time "
                                               f"{counted_since_text(since)}, but the "
                                               f"{decks}-deck shoe holds it {times}")

    def file(self, view: FileView) -> Iterator[Finding]:
        for problem in view.problems:
            if problem.kind == "card-count":
                yield self.file_finding(view, problem)


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(
        number % 10, "th")
    return f"{number}{suffix}"


@register
class UnsettledCheck(Check):
    """A live wager reaches `end` without a settlement, or is settled twice.

    Regulation: none; bjh-format.md §5 (`settle`).
    Violating: `bet s2h1 main 25` and no `settle s2h1 main …` before `end`.
    Compliant: `settle s2h1 main lose 25` before `end`.
    Reading: every wager, tips and side wagers included, is settled exactly once. A
    round that was not closed by `end` is judged at its last statement.
    """

    citation = "record:unsettled"
    name = "record.unsettled"
    severity = "medium"
    options = frozenset()

    def round(self, view: RoundView) -> Iterable[Finding]:
        for wager in view.wagers:
            if len(wager.settlements) != 1:
                return self._unsettled(view)
        return ()  # every wager settled once: the common round, without a generator

    def _unsettled(self, view: RoundView) -> Iterator[Finding]:
        end = view.end_line or view.last_line
        for wager in view.wagers:
            if len(wager.settlements) == 1:
                continue  # settled once, as it should be
            if not wager.settlements:
                yield self.finding(view, end, f"the {wager.label} (line {wager.line}) reaches "
                                              "the end of the round without a settlement",
                                   seat=wager.seat, hand=wager.hand, evidence=[wager.line])
            for extra in wager.settlements[1:]:
                yield self.finding(view, extra.line, f"the {wager.label} is settled again "
                                                     f"(first at line {wager.settlements[0].line})",
                                   seat=wager.seat, hand=wager.hand,
                                   evidence=[wager.settlements[0].line])
