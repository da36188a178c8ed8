"""Patterns across nights: what a surveillance director follows from one night to the next.

A finding is one event, so its stable ID carries its gaming day: between two nights every
finding is "new" and every earlier one "resolved", which is true and says nothing. A
pattern is a unit and a rule: a table × citation, a dealer × citation, a player × citation,
with how many findings it had in each run. Between two runs a pattern is `new` (none in the
earlier run), `recurring` (some in both), `gone` (none in the later run, which audited a
table where the earlier findings of it were made) or `not audited` (none in the later run,
which audited none of those tables: a table left out tonight is not a mistake that stopped)
or `not compared` (its citation one of the two runs did not judge, `--select`/`--ignore`:
neither new nor gone, whatever its counts, and not weighed).

**Ranked by evidence.** At a real error rate most patterns are chance: a dealer who deals
300 rounds a night at a floor that errs once in 200 rounds has a finding or two of some
citation most nights. Each pattern is therefore weighed (`weigh_patterns`) against what
chance gives its unit at the floor's rate: in each run, given the floor's findings of the
citation that night, each falls at the unit with its share of the night's rounds (the
exact binomial test; `expected` is that share of them). A `new` pattern's p is the chance
of at least its findings in the later run; a `recurring` one's the chance of at least its
findings in both runs (the product: two nights are independent); a `gone` one's that of its
findings in the earlier run (a notable pattern that stopped). Benjamini–Hochberg across the patterns
weighed, at a false discovery rate of 5 %, says which are `notable`: only those are listed;
the others are counted ("… and 40 more new within chance"). A pattern whose unit's rounds
the store does not know (a run recorded before tallies) is not weighed, and listed.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from typing import Any

KINDS = ("table", "dealer", "player")  # the units a pattern is about, in the order listed
STATUSES = ("new", "recurring", "gone", "not audited", "not compared")

PatternKey = tuple[str, str, str]  # (kind, unit, citation)


def table_keys(inputs: Iterable[dict[str, Any]]) -> dict[str, str]:
    """Each input's table identity (licence, else casino, "/" table ID) by its path, from
    the inputs as findings.json shows them: equal table IDs of two casinos never merge."""
    keys = {}
    for summary in inputs:
        owner, table = summary.get("licence") or summary.get("casino"), summary.get("table")
        if table:
            keys[summary["path"]] = f"{owner}/{table}" if owner else table
    return keys


def pattern_counts(findings: Iterable[dict[str, Any]], tables: dict[str, str],
                   places: dict[PatternKey, set[str]] | None = None,
                   citations: Counter | None = None) -> Counter:
    """How many findings each pattern has among `findings` (as findings.json shows them);
    `tables` from `table_keys`. A finding without a dealer or player is in no such pattern.
    With `places`, each pattern's tables are added to it (where its findings were made);
    with `citations`, every finding is counted by its citation (the floor's)."""
    counts: Counter = Counter()
    for finding in findings:
        citation = finding["citation"]
        if citations is not None:
            citations[citation] += 1
        table = tables.get(finding.get("file")) or finding.get("table")
        units = {"table": table, "dealer": finding.get("dealer"),
                 "player": finding.get("player")}
        for kind in KINDS:
            if units[kind]:
                counts[kind, units[kind], citation] += 1
                if places is not None and table:
                    places.setdefault((kind, units[kind], citation), set()).add(table)
    return counts


def compare_patterns(earlier: Counter, later: Counter, earlier_run: int, later_run: int,
                     places: dict[PatternKey, set[str]] | None = None,
                     audited: set[str] | None = None,
                     not_compared: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """Every pattern of either run, with its count in each and its status, ordered by
    status (new, recurring, gone, not audited, not compared), kind, unit and citation.
    With `places` (the earlier run's tables of each pattern, from `pattern_counts`) and
    `audited` (the later run's tables), a pattern missing from the later run is `gone` only
    where the later run audited one of its tables, else `not audited`. A pattern of a
    citation in `not_compared` (one of the runs did not judge it) is `not compared`."""
    patterns = []
    for key in set(earlier) | set(later):
        kind, unit, citation = key
        before, after = earlier[key], later[key]
        status = "new" if not before else "gone" if not after else "recurring"
        if (status == "gone" and places is not None and audited is not None
                and places.get(key) and not places[key] & audited):
            status = "not audited"
        if citation in not_compared:
            status = "not compared"
        patterns.append({"kind": kind, "key": {kind: unit, "citation": citation},
                         "counts": {str(earlier_run): before, str(later_run): after},
                         "status": status})
    patterns.sort(key=lambda p: (STATUSES.index(p["status"]), KINDS.index(p["kind"]),
                                 p["key"][p["kind"]], p["key"]["citation"]))
    return patterns


def describe(pattern: dict[str, Any]) -> str:
    """One pattern on one line: "dealer D-1003 × 20:18:15:06"; record text with a control
    character (an escape sequence in an ID) is shown as \\uXXXX, never sent to a terminal."""
    kind = pattern["kind"]
    return printable(f"{kind} {pattern['key'][kind]} × {pattern['key']['citation']}")


def printable(text: str) -> str:
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text)


# ---- weighed against chance ----

FDR = 0.05  # the false discovery rate of the patterns called notable
WEIGHED = ("new", "recurring", "gone")


def unit_rates(rounds: dict[str, Counter], citations: Counter) -> dict[str, Any]:
    """What chance is weighed with in one run: each unit's rounds (`rounds`: kind -> unit
    -> rounds, "floor" -> {"rounds": total}) and the floor's findings of each citation."""
    return {"rounds": rounds, "total": rounds.get("floor", Counter()).get("rounds", 0),
            "findings": citations}


def at_least(count: int, trials: int, share: float) -> float:
    """P(X ≥ count), X ~ Binomial(trials, share), summed term by term from `count` up in
    logarithms (a tail's digits kept however small; trials are a night's findings of one
    citation)."""
    if count <= 0:
        return 1.0
    if count > trials or share <= 0.0:
        return 0.0
    if share >= 1.0:
        return 1.0
    log_share, log_rest = math.log(share), math.log1p(-share)
    terms = [math.lgamma(trials + 1) - math.lgamma(j + 1) - math.lgamma(trials - j + 1)
             + j * log_share + (trials - j) * log_rest for j in range(count, trials + 1)]
    top = max(terms)
    return min(1.0, math.exp(top) * math.fsum(math.exp(t - top) for t in terms))


def _rounds_of(pattern: dict[str, Any], rates: dict[str, Any] | None) -> int | None:
    """The pattern's unit's rounds in one run: None where the run's tallies are unknown."""
    if not rates or not rates["total"]:
        return None
    kind = pattern["kind"]
    return rates["rounds"].get(kind, Counter()).get(pattern["key"][kind], 0)


def weigh_patterns(patterns: list[dict[str, Any]], earlier_rates: dict[str, Any] | None,
                   later_rates: dict[str, Any] | None, fdr: float = FDR) -> None:
    """Each pattern, in place, gets `expected` (its findings by chance in each run: null
    where its unit's rounds are not known), `p`, `q` and `notable` (listed).

    The chance is the floor's rate of the pattern's citation over both nights: given the
    floor's findings of it on the two nights, each falls on the unit's rounds of a night
    with their share of the two nights' rounds (the exact binomial test). Its p: of at
    least the unit's findings on the later night (`new`), the earlier (`gone`), or both
    (`recurring`)."""
    weighed = []
    both = [r for r in (earlier_rates, later_rates) if r and r["total"]]
    total = sum(r["total"] for r in both) if len(both) == 2 else None
    for pattern in patterns:
        runs = list(pattern["counts"])
        runs = runs * 2 if len(runs) == 1 else runs  # a run compared with itself
        counts = [pattern["counts"][run] for run in runs]
        units = [_rounds_of(pattern, rates) for rates in (earlier_rates, later_rates)]
        citation = pattern["key"]["citation"]
        found = sum(r["findings"].get(citation, 0) for r in both) if total else 0
        pattern["expected"] = {
            run: None if total is None or unit is None else round(found * unit / total, 3)
            for run, unit in zip(runs, units, strict=True)}  # (one run with itself: once)
        status, p = pattern["status"], None
        if total is not None:
            chosen = {"new": [1], "gone": [0], "recurring": [0, 1]}.get(status, [])
            if chosen and all(units[i] for i in chosen):
                share = sum(units[i] for i in chosen) / total
                count = sum(counts[i] for i in chosen)
                p = at_least(count, max(found, count), min(1.0, share))
        pattern["p"], pattern["q"] = p, None
        # not weighed: a pattern no longer audited, or one whose rounds are not known
        pattern["notable"] = status in WEIGHED and p is None
        if p is not None:
            weighed.append(pattern)
    ranked = sorted(weighed, key=lambda p: p["p"])
    m, running = len(ranked), 1.0
    for rank in range(m, 0, -1):  # q: the step-up minimum of p·m/rank
        running = min(running, ranked[rank - 1]["p"] * m / rank)
        ranked[rank - 1]["q"] = running
    for pattern in ranked:
        pattern["notable"] = pattern["q"] <= fdr


SHOWN_PER_STATUS = 10  # notable patterns of each status an audit's summary lists


def pattern_lines(patterns: list[dict[str, Any]], every: bool = False,
                  limit: int | None = SHOWN_PER_STATUS) -> list[str]:
    """Each status's notable patterns (all with `every`), the strongest evidence first,
    with their counts in the two runs (up to `limit` of each), then how many more."""
    lines = []
    for status in STATUSES:
        chosen = [p for p in patterns if p["status"] == status]
        listed = sorted((p for p in chosen if every or p.get("notable", True)),
                        key=lambda p: (p["p"] if p.get("p") is not None else -1.0,
                                       -max(p["counts"].values())))
        shown = listed if every or limit is None else listed[:limit]
        for pattern in shown:
            counts = ", ".join(f"run {run}: {count}" for run, count in pattern["counts"].items())
            lines.append(f"  {status:11} {describe(pattern)}  {counts}")
        if len(listed) > len(shown):
            lines.append(f"  … and {len(listed) - len(shown)} more notable {status} "
                         "(--verbose lists them all; findings.json `patterns`)")
        quiet = len(chosen) - len(listed)
        if quiet:
            why = {"not audited": "of tables this run did not audit",
                   "not compared": "of citations one of the two runs did not judge"}.get(
                       status, "within chance at their units' rounds")
            lines.append(f"  … and {quiet} more {status} {why}: not listed "
                         "(findings.json `patterns` has them all)")
    return lines


def every_pattern_lines(patterns: list[dict[str, Any]]) -> list[str]:
    """Every pattern, in its order (status, kind, unit, citation), with its counts in the
    two runs; a notable one says so and gives its q (`auditor diff`)."""
    lines = []
    for pattern in patterns:
        counts = ", ".join(f"run {run}: {count}" for run, count in pattern["counts"].items())
        mark = ""
        if pattern.get("notable") and pattern.get("q") is not None:
            mark = f"  notable: q = {pattern['q']:.2g}"
        lines.append(f"  {pattern['status']:11} {describe(pattern)}  {counts}{mark}")
    return lines


def summary_lines(patterns: list[dict[str, Any]], every: bool = False) -> list[str]:
    """An audit's patterns against its baseline run, for the terminal: how many of each
    status, then each status's notable ones (`pattern_lines`)."""
    if not patterns:
        return ["Patterns (table, dealer, player × citation) against the baseline run: none "
                "in either run."]
    runs = list(patterns[0]["counts"])  # the baseline run, then this one
    return [f"Patterns (table, dealer, player × citation) against run {runs[0]}: "
            + status_counts(patterns) + ".", *pattern_lines(patterns, every)]


def status_counts(patterns: list[dict[str, Any]]) -> str:
    """How many patterns of each status: "2 new, 0 recurring, 1 gone, 0 not audited", and
    "3 not compared" where there are any."""
    statuses = Counter(p["status"] for p in patterns)
    return ", ".join(f"{statuses[s]} {s}" for s in STATUSES
                     if s != "not compared" or statuses[s])
