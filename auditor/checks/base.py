"""Checks: small registered units, one per citation.

A check carries its citation, a dotted name, a severity, the games it applies to and a
docstring with the sections `Regulation:`, `Violating:`, `Compliant:` and `Reading:`. It
receives a read-only view and returns findings; it never changes the view. Depending on
what it needs, a check implements one or more of:

- `round(view)`: each replayed round (a `RoundView`),
- `file(view)`: once per file, with the problems found outside rounds (a `FileView`),
- `collect(view)` and `audit(facts)`: facts gathered per round, in any process, and
  judged once for the whole audit in time order (for what crosses files and tables).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, ClassVar

from auditor.config import HouseRules, TableConfig
from auditor.fieldwise import Fieldwise
from auditor.findings import SEVERITIES, Finding, Severity
from auditor.reader import Problem
from auditor.replay.view import RoundView

CITATION = re.compile(
    r"20:18:15:\d\d(?:\.\d\d)?(?:\((?:\d{1,2}|¶\d{1,2})\))?"  # a section and its subsection
    r"|record:[a-z]+(?:-[a-z]+)*"  # a problem of the record itself
)
NAME = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+")
DOC_SECTIONS = ("Regulation:", "Violating:", "Compliant:", "Reading:")
GAMES = frozenset({"standard", "switch", "db21", "tensticks", "ladies"})
HOUSE_RULES = frozenset({*HouseRules.model_fields, "decks"})


READING_MARK = "(*reading*)"
"""How the rule catalog marks a reading that goes beyond the regulation's words on file."""
_SECTION = re.compile(r"^\s*(Regulation|Violating|Compliant|Reading):\s*(.*?)"
                      r"(?=^\s*(?:Regulation|Violating|Compliant|Reading):|\Z)", re.S | re.M)


def doc_section(documentation: str, name: str) -> str:
    """The section `name` of a check's docstring, as one paragraph."""
    for match in _SECTION.finditer(documentation):
        if match.group(1) == name:
            return " ".join(match.group(2).split())
    return ""


PROBLEM = "problem"
"""A `Check.needs` mark: the round has a problem (`RoundView.problems`)."""


class RegistrationError(ValueError):
    """A check was declared wrongly: the project does not start with it."""


@dataclass(slots=True, repr=False, eq=False)
class FileView(Fieldwise):
    """What a file-wide check reads of a file: its header, configuration and problems."""

    file: str
    config: TableConfig
    problems: list[Problem] = field(default_factory=list)
    approvals: Any = None  # the commission's approved house rules (auditor/approvals.py)
    statements: dict[int, str | None] = field(default_factory=dict)  # header lines, by number
    house_rules: dict[str, str] = field(default_factory=dict)  # audit.house_rules(config)


class Check:
    citation: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity]
    games: ClassVar[frozenset[str]] = GAMES
    judges_unreadable_rounds: ClassVar[bool] = False  # record checks look at every round
    # A file outside the record the check holds it to (`--approved`): none is simulated, so
    # no simulated record plants the check's faults.
    outside_file: ClassVar[str | None] = None
    # The house rules the check's verdict depends on (HouseRules fields, and `decks`), for
    # a header that leaves one unknown (auditor/unknown_rules.py): the check is judged under
    # every combination of these alone. Every check declares them (frozenset() for none):
    # tests/test_check_options.py holds each to it, over every test case and sample log.
    options: ClassVar[frozenset[str] | None] = None
    # What a round must hold for `round` to find anything in it: any one of these statement
    # types (event classes), wager marks (`RoundView.wager_marks`: a side wager's kind or
    # `tip`) or PROBLEM (the round has a problem). The runner (auditor/checks/runner.py)
    # skips the check in a round that holds none of them; None: every round is judged.
    # Declared only where the check reads nothing else (tests/test_check_needs.py holds it
    # to that).
    needs: ClassVar[frozenset | None] = None

    def applies_to(self, game: str) -> bool:
        return game in self.games

    def round(self, view: RoundView) -> Iterable[Finding]:
        return ()

    def file(self, view: FileView) -> Iterable[Finding]:
        return ()

    def collect(self, view: RoundView) -> list[Any]:
        """Facts for `audit`, from every round, even one with an unreadable line: a fact is
        a statement as recorded (a card punched), not a judgement of the round."""
        return []

    def audit(self, facts: list[Any]) -> Iterable[Finding]:
        return ()

    # ---- building findings ----
    def finding(self, view: RoundView, line: int | None, message: str, *,
                seat: str | None = None, hand: str | None = None,
                expected: Decimal | None = None, actual: Decimal | None = None,
                evidence: Iterable[int] = ()) -> Finding:
        money: dict[str, Decimal] = {}
        if expected is not None and actual is not None:
            money = {"expected": expected, "actual": actual, "difference": actual - expected}
        if hand is not None and seat is None:
            seat = hand[:2]
        return Finding(
            citation=self.citation, rule=self.name, severity=self.severity, file=view.file,
            line=line, round=view.round_id, table=view.config.table_id, seat=seat, hand=hand,
            message=message, game=view.game, dealer=view.dealer_id, date=view.date,
            time=view.line_time(line) if line is not None else None, shoe=view.shoe.shoe_id,
            currency=view.config.currency, round_started=view.clock,
            round_ended=round_end(view),
            evidence=tuple(sorted(set(evidence) - {line})), **money)

    def file_finding(self, view: FileView, problem: Problem) -> Finding:
        """A finding of the record outside a round: with what was in force at its line (the
        shoe's date and ID, the dealer, the time), where the problem was met between rounds."""
        context = problem.context
        return Finding(citation=self.citation, rule=self.name, severity=self.severity,
                       file=view.file, line=problem.line, column=problem.column,
                       table=view.config.table_id, game=view.config.game,
                       seat=problem.seat, hand=problem.hand, message=problem.message,
                       currency=view.config.currency,
                       **({} if context is None else {
                           "date": context.date, "shoe": context.shoe,
                           "dealer": context.dealer, "time": context.time}))

    @classmethod
    def documentation(cls) -> str:
        return (cls.__doc__ or "").strip()

    @classmethod
    def doc_section(cls, name: str) -> str:
        """One section of the docstring (`Regulation`, `Violating`, `Compliant` or
        `Reading`) as one paragraph, its line breaks made spaces; "" if it has none."""
        return doc_section(cls.documentation(), name)

    @classmethod
    def reading(cls) -> str:
        """How the auditor reads its rule: the `Reading:` section, without the catalog's
        `(*reading*)` mark (whoever prints it marks it as the auditor's reading)."""
        text = cls.doc_section("Reading").removeprefix(READING_MARK).lstrip()
        return text[:1].upper() + text[1:]


_REGISTRY: dict[str, Check] = {}
_NAMES: dict[str, str] = {}


def register(cls: type[Check]) -> type[Check]:
    """Class decorator: validate the check's declaration and add it to the registry."""
    citation = getattr(cls, "citation", None)
    if not isinstance(citation, str) or not CITATION.fullmatch(citation):
        raise RegistrationError(f"{cls.__name__}: malformed citation {citation!r}")
    if citation in _REGISTRY:
        raise RegistrationError(f"{cls.__name__}: citation {citation} is already checked by "
                                f"{_REGISTRY[citation].name}")
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise RegistrationError(f"{cls.__name__}: malformed rule name {name!r}")
    if name in _NAMES:
        raise RegistrationError(f"{cls.__name__}: rule name {name} is already used by "
                                f"{_NAMES[name]}")
    if getattr(cls, "severity", None) not in SEVERITIES:
        raise RegistrationError(f"{cls.__name__}: severity must be one of {SEVERITIES}")
    if not cls.games or not cls.games <= GAMES:
        raise RegistrationError(f"{cls.__name__}: games must be a subset of {sorted(GAMES)}")
    doc = cls.documentation()
    missing = [s for s in DOC_SECTIONS if s not in doc]
    if missing:
        raise RegistrationError(f"{cls.__name__}: docstring lacks {', '.join(missing)}")
    options = getattr(cls, "options", None)
    if not isinstance(options, frozenset) or not options <= HOUSE_RULES:
        raise RegistrationError(f"{cls.__name__}: options must be a frozenset of house rules "
                                f"({', '.join(sorted(HOUSE_RULES))}), frozenset() for none")
    _REGISTRY[citation] = cls()
    _NAMES[name] = citation
    return cls


def registry() -> dict[str, Check]:
    """Every registered check by citation (importing auditor.checks registers them all)."""
    return dict(_REGISTRY)


def citation_sort_key(citation: str) -> tuple:
    """Order citations as the regulation numbers them: record problems last."""
    if citation.startswith("record:"):
        return (1, citation)
    match = re.fullmatch(r"20:18:15:(\d\d)(?:\.(\d\d))?(?:\((¶?)(\d+)\))?", citation)
    if match is None:
        return (2, citation)
    section, sub, para, number = match.groups()
    return (0, int(section), int(sub or 0), int(number or 0), para)


def round_end(view: RoundView) -> str | None:
    """The time of the round's last stamped line (its start time if none has one)."""
    for event in reversed(view.events):
        if event.time:
            return event.time
    return view.clock
