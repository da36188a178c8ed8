"""Judging under house rules that cannot be known (the rule catalog's record:header).

Where the header leaves a house rule unknown (an option given two values, an option or
`decks` with a value it cannot take), every rule is still judged. A finding stands where
every table the header could describe gives it: every combination of the values the
unknown rules could hold. A check's verdict depends only on the house rules it declares
(`Check.options`, held to that by tests/checks/test_check_options.py), so each check is judged
under every combination of the unknown rules *it* declares, the others at any one value:
that is the same verdict as under every combination of them all, at the cost of the
largest such product rather than the product over the header. A check that declares none
of the unknown rules is judged once, as in a fully known table.

The round is replayed once, under the table as configured (each unknown rule at its last
value); the round as each other table sees it is derived from that replay (replay/under.py),
only for a check that found something under the configured table (a finding must stand
under every table, so one table that finds nothing ends the judgement), and only up to the
first table under which it finds nothing. A check whose combinations number more than
MAX_COMBINATIONS is not judged in that file, and a record:header finding says so, naming
the check and the house rules. A file whose header is fully known never comes here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from itertools import product
from typing import Any

from auditor.config import TableConfig, UnknownRule
from auditor.findings import Finding
from auditor.reader import CONTRADICTION_FIELDS, NO_MOST, Problem, contradictory
from auditor.replay.under import option_value, same_view, view_under

MAX_COMBINATIONS = 64
"""The most tables one check is judged under in a file: past this (a header that doubts
most of the house rules one check reads), the check is not judged in that file, and a
record:header finding names it. Every check's own product stays under it for a header that
gives each option two values; only values that cannot be read, on several of the rules of
one check, go past it."""


class UnknownRules:
    """One file's unknown house rules and the tables each check is judged under."""

    def __init__(self, config: TableConfig) -> None:
        self.config = config
        self.unknown = config.unknown
        self._tables: dict[tuple, TableConfig] = {}  # by each unknown rule's value, in order
        self._plans: dict[frozenset[str] | None, _Plan | None] = {}
        self._round: Any = None  # the view of the round the views below are of
        self._views: dict[int, Any] = {}  # id(table) -> the round as it sees it
        self._bases: list[Any] = []  # views with their own expected results

    def depends(self, options: frozenset[str] | None) -> list[UnknownRule]:
        """The unknown rules a check's verdict may depend on: those it declares (a check
        that declares nothing is taken to depend on every one)."""
        if options is None:
            return list(self.unknown)
        return [rule for rule in self.unknown if rule.field in options]

    def combinations(self, options: frozenset[str] | None) -> int:
        """How many tables a check declaring `options` is judged under."""
        total = 1
        for rule in self.depends(options):
            total *= len(rule.values)
        return total

    def not_judged(self, checks: Iterable[Any]) -> list[Any]:
        """The checks judged under more tables than MAX_COMBINATIONS: not judged here."""
        return [c for c in checks if self.combinations(c.options) > MAX_COMBINATIONS]

    def problem(self, check: Any) -> Problem:
        """The record:header finding of a check not judged in this file."""
        rules = self.depends(check.options)
        names = _and([rule.key for rule in rules])
        return Problem("header", max(rule.line for rule in rules),
                       f"{check.citation} ({check.name}) is not judged in this file: it "
                       f"depends on the house rules {names}, which the header leaves "
                       f"unknown, and their values make {self.combinations(check.options)} "
                       f"combinations, more than the {MAX_COMBINATIONS} judged")

    def _plan(self, options: frozenset[str] | None) -> _Plan | None:
        """The tables a check is judged under, the configured one last (None: one table)."""
        if options in self._plans:
            return self._plans[options]
        rules = self.depends(options)
        plan = None
        if rules:
            combinations = [dict(zip((r.field for r in rules), values, strict=True))
                            for values in product(*(rule.values for rule in rules))]
            tables = [self._table(values) for values in combinations]
            # a combination no header could declare is not a table the record is of (a
            # pay table the decks are not dealt with hides its odds); where every one is,
            # the header's contradiction is told and all are judged
            possible = [table for table, values in zip(tables, combinations, strict=True)
                        if self._possible(values)] or tables
            plan = _Plan(rules, possible, configured=possible[-1] is tables[-1])
        self._plans[options] = plan
        return plan

    def _possible(self, values: dict[str, object]) -> bool:
        """Whether a header could declare a table with these values of some unknown rules,
        the others (which the check does not read) at any values they could hold."""
        if not contradictory(self._table(values)):
            return True
        free = [rule for rule in self.unknown
                if rule.field in CONTRADICTION_FIELDS and rule.field not in values]
        return any(
            not contradictory(self._table({**values, **dict(
                zip((rule.field for rule in free), others, strict=True))}))
            for others in product(*(rule.values for rule in free)))

    def _table(self, values: dict[str, object]) -> TableConfig:
        """The configured table with some unknown rules at other values: one object per
        combination, shared by the checks (their views are kept per table)."""
        key = tuple(values.get(rule.field, option_value(self.config, rule.field))
                    for rule in self.unknown)
        table = self._tables.get(key)
        if table is None:
            if all(value == option_value(self.config, rule.field)
                   for value, rule in zip(key, self.unknown, strict=True)):
                table = self.config
            else:
                rules = {f: v for f, v in values.items() if f != "decks"}
                update: dict = {"rules": self.config.rules.model_copy(update=rules)}
                if "decks" in values:
                    update["decks"] = values["decks"]
                table = self.config.model_copy(update=update)
            self._tables[key] = table
        return table

    def judge(self, check: Any, view: Any) -> list[Finding]:
        """The check's findings on a round that every table it depends on gives."""
        plan = self._plan(check.options)
        if plan is None:
            return list(check.round(view))  # judged once
        others = plan.tables
        if plan.configured:  # the round as replayed is judged first, and needs no view
            first = list(check.round(view))
            if not first:
                return []  # nothing under one table, so nothing stands
            others = plan.tables[:-1]
        versions = []
        for table in others:
            found = list(check.round(self._view(view, table)))
            if not found:
                return []
            versions.append(found)
        if plan.configured:
            versions.append(first)
        return agreed(versions, plan.tables, plan.rules)

    def _view(self, view: Any, table: TableConfig) -> Any:
        """The round as `table` sees it, derived once per round and table."""
        if self._round is not view:
            self._round, self._views, self._bases = view, {}, [view]
        seen = self._views.get(id(table))
        if seen is None:
            base = next((b for b in self._bases if same_view(b.config, table)), None)
            seen = view_under(base if base is not None else view, table)
            if base is None:
                self._bases.append(seen)
            self._views[id(table)] = seen
        return seen


class _Plan:
    """The unknown rules one check depends on, and every table of their values that a
    header could declare (`configured`: the table as configured among them, last)."""

    __slots__ = ("configured", "rules", "tables")

    def __init__(self, rules: list[UnknownRule], tables: list[TableConfig], *,
                 configured: bool) -> None:
        self.rules, self.tables, self.configured = rules, tables, configured


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _loose_key(finding: Finding) -> tuple:
    return (finding.citation, finding.line, finding.seat, finding.hand, finding.subject)


def _key(finding: Finding) -> tuple:
    return (*_loose_key(finding), finding.message, finding.expected, finding.actual)


def agreed(versions: list[list[Finding]], tables: Sequence[TableConfig],
           rules: Sequence[UnknownRule]) -> list[Finding]:
    """Of one check's findings under each table, those every table gives.

    A finding the same under every table is kept as it is, its message naming the unknown
    rules; one every table gives in other words or amounts (the owed payout differs) is
    kept as the table that claims least gives it, saying under which values."""
    counts = [_counts(_key(f) for f in version) for version in versions]
    common = counts[0]
    for other in counts[1:]:
        common = {key: min(n, other.get(key, 0)) for key, n in common.items()
                  if other.get(key, 0)}
    kept: list[Finding] = []
    leftovers: list[list[Finding]] = []
    for index, version in enumerate(versions):
        budget = dict(common)  # each table's own copies of what every table gives alike
        rest = []
        for finding in version:
            key = _key(finding)
            if budget.get(key, 0) > 0:
                budget[key] -= 1
                if index == 0:
                    kept.append(_named(finding, rules))
            else:
                rest.append(finding)
        leftovers.append(rest)
    groups = [_grouped(rest) for rest in leftovers]
    for key in groups[0]:
        matched = min(len(group.get(key, ())) for group in groups)
        for place in range(matched):
            alike = [group[key][place] for group in groups]
            # the least claimed; of equals the last (the table as configured: most decks)
            chosen = min(reversed(range(len(alike))),
                         key=lambda i: abs(alike[i].difference or Decimal(0)))
            kept.append(_named(alike[chosen], rules, tables[chosen]))
    return kept


def _counts(keys: Iterable[tuple]) -> dict[tuple, int]:
    counts: dict[tuple, int] = {}
    for key in keys:
        counts[key] = counts.get(key, 0) + 1
    return counts


def _grouped(findings: list[Finding]) -> dict[tuple, list[Finding]]:
    groups: dict[tuple, list[Finding]] = {}
    for finding in findings:
        groups.setdefault(_loose_key(finding), []).append(finding)
    return groups


def _shown(value: object) -> str:
    if value is None:
        return "none"
    return "any number" if value == NO_MOST else str(value)


def _named(finding: Finding, rules: Sequence[UnknownRule],
           under: TableConfig | None = None) -> Finding:
    """The finding, its message saying which house rules were unknown (and, where the
    tables worded it differently, under which values these words hold)."""
    several = len(rules) > 1
    names = " and ".join(rule.describe() for rule in rules)
    lead = (f"With the house rule{'s' if several else ''} {names} unknown, every value "
            f"{'they' if several else 'it'} could hold gives this finding")
    if under is not None:
        values = ", ".join(f"{rule.key}={_shown(option_value(under, rule.field))}"
                           for rule in rules)
        lead += f"; under {values}"
    return finding.model_copy(update={"message": f"{lead}: {finding.message}"})
