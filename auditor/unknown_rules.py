"""Judging under house rules that cannot be known (the rule catalog's record:header).

Where the header leaves a house rule unknown (an option given two values, an option or
`decks` with a value it cannot take), every rule is still judged, and a rule whose verdict
depends on that house rule is judged under each value it could hold: the round is replayed
once per candidate table, the check runs on each replay, and a finding stands only where
every candidate gives it. A file whose header is fully known never comes here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from itertools import product

from auditor.config import TableConfig, UnknownRule
from auditor.findings import Finding
from auditor.reader import NO_MOST

MAX_CANDIDATES = 64
"""Candidate tables judged at most: beyond (a header that doubts most of its options), the
unknown rules are reduced to their first and last values, which still tell apart what
most rules depend on."""


def candidate_configs(config: TableConfig) -> list[TableConfig]:
    """Every table the header could describe, one per combination of the unknown rules'
    values; the table as configured (each at its last value) comes last."""
    unknown = config.unknown
    choices = [u.values for u in unknown]
    total = 1
    for values in choices:
        total *= len(values)
    if total > MAX_CANDIDATES:
        choices = [tuple(dict.fromkeys((v[0], v[-1]))) for v in choices]
    candidates = []
    for combination in product(*choices):
        rules = {u.field: value for u, value in zip(unknown, combination, strict=True)
                 if u.field != "decks"}
        update: dict = {"rules": config.rules.model_copy(update=rules)}
        for rule, value in zip(unknown, combination, strict=True):
            if rule.field == "decks":
                update["decks"] = value
        candidates.append(config.model_copy(update=update))
    return candidates


def depends(options: frozenset[str] | None, unknown: Sequence[UnknownRule]) -> list[UnknownRule]:
    """The unknown rules a check's verdict may depend on: those it declares, or (a check that
    declares none) every one."""
    if options is None:
        return list(unknown)
    return [u for u in unknown if u.field in options]


def _loose_key(finding: Finding) -> tuple:
    return (finding.citation, finding.line, finding.seat, finding.hand, finding.subject)


def _key(finding: Finding) -> tuple:
    return (*_loose_key(finding), finding.message, finding.expected, finding.actual)


def agreed(versions: list[list[Finding]], configs: Sequence[TableConfig],
           rules: Sequence[UnknownRule], declared: bool) -> list[Finding]:
    """Of one check's findings under each candidate table, those every candidate gives.

    A finding the same under every value is kept as it is (its message names the unknown
    rules where the check declares that it depends on them); one every candidate gives in
    other words or amounts (the owed payout differs) is kept as the candidate that claims
    least gives it, saying under which value."""
    first, others = versions[0], versions[1:]
    exact = [_counts(_key(f) for f in version) for version in others]
    kept: list[Finding] = []
    leftovers: list[list[Finding]] = [[] for _ in versions]
    for finding in first:
        key = _key(finding)
        if all(counts.get(key, 0) > 0 for counts in exact):
            for counts in exact:
                counts[key] -= 1
            kept.append(_named(finding, rules) if declared else finding)
        else:
            leftovers[0].append(finding)
    for index, version in enumerate(others, start=1):
        budget = _counts(_key(f) for f in first)
        for finding in version:
            key = _key(finding)
            if budget.get(key, 0) > 0:
                budget[key] -= 1
            else:
                leftovers[index].append(finding)
    groups = [_grouped(version) for version in leftovers]
    for key in groups[0]:
        matched = min(len(group.get(key, ())) for group in groups)
        for place in range(matched):
            alike = [group[key][place] for group in groups]
            # the least claimed; of equals the last (the table as configured: most decks)
            chosen = min(reversed(range(len(alike))),
                         key=lambda i: abs(alike[i].difference or Decimal(0)))
            kept.append(_named(alike[chosen], rules, configs[chosen]))
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


def value_of(config: TableConfig, rule: UnknownRule) -> object:
    return config.decks if rule.field == "decks" else getattr(config.rules, rule.field)


def _shown(value: object) -> str:
    if value is None:
        return "none"
    return "any number" if value == NO_MOST else str(value)


def _named(finding: Finding, rules: Sequence[UnknownRule],
           under: TableConfig | None = None) -> Finding:
    """The finding, its message saying which house rules were unknown (and, where the
    candidates worded it differently, under which values these words hold)."""
    if not rules:
        return finding
    several = len(rules) > 1
    names = " and ".join(rule.describe() for rule in rules)
    lead = (f"With the house rule{'s' if several else ''} {names} unknown, every value "
            f"{'they' if several else 'it'} could hold gives this finding")
    if under is not None:
        values = ", ".join(f"{rule.key}={_shown(value_of(under, rule))}" for rule in rules)
        lead += f"; under {values}"
    return finding.model_copy(update={"message": f"{lead}: {finding.message}"})
