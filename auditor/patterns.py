"""Patterns across nights: what a surveillance director follows from one night to the next.

A finding is one event, so its stable ID carries its gaming day: between two nights every
finding is "new" and every earlier one "resolved", which is true and says nothing. A
pattern is a unit and a rule: a table × citation, a dealer × citation, a player × citation,
with how many findings it had in each run. Between two runs a pattern is `new` (none in the
earlier run), `recurring` (some in both), `gone` (none in the later run, which audited a
table where the earlier findings of it were made) or `not audited` (none in the later run,
which audited none of those tables: a table left out tonight is not a mistake that stopped).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

KINDS = ("table", "dealer", "player")  # the units a pattern is about, in the order listed
STATUSES = ("new", "recurring", "gone", "not audited")

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
                   places: dict[PatternKey, set[str]] | None = None) -> Counter:
    """How many findings each pattern has among `findings` (as findings.json shows them);
    `tables` from `table_keys`. A finding without a dealer or player is in no such pattern.
    With `places`, each pattern's tables are added to it (where its findings were made)."""
    counts: Counter = Counter()
    for finding in findings:
        citation = finding["citation"]
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
                     audited: set[str] | None = None) -> list[dict[str, Any]]:
    """Every pattern of either run, with its count in each and its status, ordered by
    status (new, recurring, gone, not audited), kind, unit and citation. With `places` (the
    earlier run's tables of each pattern, from `pattern_counts`) and `audited` (the later
    run's tables), a pattern missing from the later run is `gone` only where the later run
    audited one of its tables, else `not audited`."""
    patterns = []
    for key in set(earlier) | set(later):
        kind, unit, citation = key
        before, after = earlier[key], later[key]
        status = "new" if not before else "gone" if not after else "recurring"
        if (status == "gone" and places is not None and audited is not None
                and places.get(key) and not places[key] & audited):
            status = "not audited"
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


SHOWN_PER_STATUS = 10  # patterns of each status an audit's summary lists (--verbose: all)


def summary_lines(patterns: list[dict[str, Any]], every: bool = False) -> list[str]:
    """An audit's patterns against its baseline run, for the terminal: how many of each
    status, then each status's patterns, the most findings first (up to
    SHOWN_PER_STATUS of each unless `every`), with their counts in the two runs."""
    if not patterns:
        return ["Patterns (table, dealer, player × citation) against the baseline run: none "
                "in either run."]
    runs = list(patterns[0]["counts"])  # the baseline run, then this one
    statuses = Counter(p["status"] for p in patterns)
    lines = [f"Patterns (table, dealer, player × citation) against run {runs[0]}: "
             + ", ".join(f"{statuses[s]} {s}" for s in STATUSES) + "."]
    for status in STATUSES:
        chosen = sorted((p for p in patterns if p["status"] == status),
                        key=lambda p: -max(p["counts"].values()))  # stable: kind, unit
        shown = chosen if every else chosen[:SHOWN_PER_STATUS]
        for pattern in shown:
            counts = ", ".join(f"run {run}: {count}" for run, count in pattern["counts"].items())
            lines.append(f"  {status:11} {describe(pattern)}  {counts}")
        if len(chosen) > len(shown):
            lines.append(f"  … and {len(chosen) - len(shown)} more {status} (--verbose lists "
                         "them all; findings.json `patterns`)")
    return lines
