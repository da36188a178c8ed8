"""Two recorded runs compared (`auditor diff`, and the patterns of `--baseline`): their
findings matched by stable ID, and their patterns weighed against chance. Read from the
store (auditor/store/), judged here.

Only the citations both runs judged are compared (auditor/baseline.py): a finding of a
citation either run left unjudged (`--select`/`--ignore`) is `not_compared`, never new or
resolved, and so is a pattern of it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import Any

from auditor.money import MoneyTotals
from auditor.patterns import (
    compare_patterns,
    pattern_counts,
    table_keys,
    unit_rates,
    weigh_patterns,
)
from auditor.store.engine import Engine
from auditor.store.runs import finding_documents, run_inputs_documents, run_not_judged
from auditor.store.trend_reads import run_unit_rounds


def diff_runs(engine: Engine, earlier: int, later: int) -> dict[str, Any]:
    """Findings of `later` that are new or persisting against `earlier`, and those of
    `earlier` that are resolved, matched by stable ID with multiplicity; and the money of
    each (`money`: per status, one row per currency, never added across currencies). The
    findings of a citation either run did not judge are in `not_compared` (`earlier` and
    `later`, with the citations each run did not judge), never in the three."""
    unjudged = [run_not_judged(engine, run_id) for run_id in (earlier, later)]
    either = unjudged[0] | unjudged[1]
    left_out: dict[str, list[dict[str, Any]]] = {"earlier": [], "later": []}

    def compared(run: str, documents: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        for document in documents:
            if document.get("citation") in either:
                left_out[run].append(document)
            else:
                yield document

    remaining = Counter(d.get("id") for d in finding_documents(engine, earlier)
                        if d.get("citation") not in either)
    new, persisting = [], []
    for document in compared("later", _with_currency(engine, later,
                                                     finding_documents(engine, later))):
        key = document.get("id")
        if key is not None and remaining[key] > 0:
            remaining[key] -= 1
            persisting.append(document)
        else:
            new.append(document)
    resolved = []
    for document in compared("earlier", _with_currency(engine, earlier,
                                                       finding_documents(engine, earlier))):
        key = document.get("id")
        if remaining[key] > 0:
            remaining[key] -= 1
            resolved.append(document)
    found = {"new": new, "persisting": persisting, "resolved": resolved}
    money = {}
    for status, documents in found.items():
        totals = MoneyTotals()
        for document in documents:
            if document.get("difference"):
                totals.add(document["currency"], Decimal(document["difference"]))
        money[status] = totals.rows()
    not_compared = {**left_out,
                    "not_judged_by_earlier": in_citation_order(unjudged[0] - unjudged[1]),
                    "not_judged_by_later": in_citation_order(unjudged[1] - unjudged[0])}
    return {**found, "money": money, "not_compared": not_compared,
            "patterns": run_patterns(engine, earlier, later)}


def in_citation_order(citations: Iterable[str]) -> list[str]:
    """The citations in the regulation's order (record problems last)."""
    from auditor.checks.base import citation_sort_key

    return sorted(citations, key=citation_sort_key)


def run_patterns(engine: Engine, earlier: int, later: int) -> list[dict[str, Any]]:
    """The patterns (auditor/patterns.py) new, recurring, gone, not audited and not
    compared from `earlier` to `later`: table, dealer and player × citation, with their
    counts in each run, weighed against chance (`notable`). A pattern of tables the later
    run did not audit is `not audited`, never `gone`; one of a citation either run did not
    judge is `not compared`."""
    places: dict = {}
    tables = [table_keys(run_inputs_documents(engine, run_id)) for run_id in (earlier, later)]
    citations: list[Counter] = [Counter(), Counter()]
    before = pattern_counts(finding_documents(engine, earlier), tables[0], places,
                            citations[0])
    after = pattern_counts(finding_documents(engine, later), tables[1], None, citations[1])
    patterns = compare_patterns(before, after, earlier, later, places,
                                set(tables[1].values()),
                                run_not_judged(engine, earlier) | run_not_judged(engine, later))
    # each weighed against chance: its unit's rounds times the floor's rate, each night
    weigh_patterns(patterns, *(unit_rates(run_unit_rounds(engine, run_id), found)
                               for run_id, found in zip((earlier, later), citations,
                                                        strict=True)))
    return patterns


def _with_currency(engine: Engine, run_id: int, documents: Iterable[dict[str, Any]]
                   ) -> Iterator[dict[str, Any]]:
    """Findings with their currency: a run stored before findings carried one gives each
    its input's (the table header's)."""
    currencies: dict[str, str | None] | None = None
    for document in documents:
        if "currency" not in document:
            if currencies is None:
                currencies = {i["path"]: i.get("currency")
                              for i in run_inputs_documents(engine, run_id)}
            document["currency"] = currencies.get(document.get("file"))
        yield document
