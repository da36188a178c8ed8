"""Early detection: a change in a dealer's or a table's rate of findings, and since which
night.

The window's test (auditor/trends/analysis.py, outliers) weighs every night alike: a dealer
careless from the 8th night of a 30-night window is drowned by the 7 nights before and the
nights to come until about half the window is his. This test looks for a *start*: for each
candidate night c among the window's last `change_nights` gaming days (never its first),
the unit's findings on nights c and after are tested twice, and a change is declared only
if both tests say so (an intersection–union test: its level is the larger p):

- **against its own nights before c**: given the unit's findings in the window, those of
  nights ≥ c fall with its share of its rounds dealt on nights ≥ c (the exact binomial
  test; a unit that was always high has no change);
- **against the other kind on nights ≥ c**: as the window's test given the other kind
  (each table's findings of those nights fall at the dealer with its share of that
  table's rounds, the exact convolution), so that a table the careless dealer moved to is
  not flagged for him.

A night on which the unit dealt no round is not a candidate (it would give the same test
as the unit's next night, and name a night it did not work). The night c with the
smallest p is the change's first night ("since"); the unit's p is that
p times the number of candidate nights tested (Bonferroni: the chance that any candidate
gives so small a p by chance is at most that). Benjamini–Hochberg then controls the false
discovery rate (`fdr`) across every dealer and table judged, as the window's test does.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from auditor.store.engine import Engine
from auditor.trends.conditional import conditional_p
from auditor.trends.counts import NO_DEALER, UNDATED, FloorCounts, count_floor
from auditor.trends.distributions import benjamini_hochberg, binomial_at_least

POOLED = "(under the minimum)"
CHANGE_NOT_PROVEN = (
    "It does not prove that the unit changed: a run of bad nights happens by chance (the "
    "false discovery rate is stated), a dealer moved to a harder game or a busier table "
    "errs more, and the first night named is the best guess of where the run begins.")


def add_changes(engine: Engine, floor: FloorCounts, entries: list[dict[str, Any]],
                settings: Any, flagged: str, not_flagged: str, too_few: str) -> None:
    """Each judged dealer's and table's entry of the window's test gets `change`: the test
    above (null where the window has fewer than two dated nights or the unit is not
    judged)."""
    sizeable = [e for e in entries if e["status"] != too_few]
    for entry in entries:
        entry["change"] = None
    nights = [day for day in floor.days if day != UNDATED]
    candidates = nights[1:][-settings.change_nights:]
    if not candidates or not sizeable:
        return
    recent = count_floor(engine, candidates[0], settings.until, by_cell_day=True)
    sizeable_keys = {(e["unit"]["kind"], e["unit"]["key"]) for e in sizeable}
    strata = _strata(recent, sizeable_keys)
    tested = []
    for entry in sizeable:
        kind, key = entry["unit"]["kind"], entry["unit"]["key"]
        change = _change(kind, key, nights, candidates, floor, strata)
        if change is None:
            continue
        change["status"] = not_flagged
        entry["change"] = change
        tested.append(change)
    if tested:
        rejected, q = benjamini_hochberg([c["p"] for c in tested], settings.fdr)
        for change, flag, value in zip(tested, rejected, q, strict=True):
            change["q"] = float(value)
            change["status"] = flagged if flag else not_flagged


def _strata(recent: FloorCounts, sizeable: set[tuple[str, str]]) -> dict[str, Any]:
    """For each kind: the other kind's strata night by night (rounds and findings; units
    under the minimum and rounds with no dealer pooled), and each unit's rounds in each
    stratum night by night."""
    found: dict[str, Any] = {}
    for kind, other in (("dealer", "table"), ("table", "dealer")):
        stratum_days: dict[str, Counter] = defaultdict(Counter)  # (day, "rounds"|"found")
        unit_rounds: dict[str, Counter] = defaultdict(Counter)  # (stratum, day)
        for (dealer, table, day), n in recent.cell_day_rounds.items():
            unit, partner = (dealer, table) if kind == "dealer" else (table, dealer)
            stratum = partner if (other, partner) in sizeable and partner != NO_DEALER \
                else POOLED
            stratum_days[stratum][day, "rounds"] += n
            stratum_days[stratum][day, "found"] += recent.cell_day_found[dealer, table, day]
            unit_rounds[unit][stratum, day] += n
        found[kind] = (stratum_days, unit_rounds)
    return found


def _change(kind: str, key: str, nights: list[str], candidates: list[str],
            floor: FloorCounts, strata: dict[str, Any]) -> dict[str, Any] | None:
    rounds = [floor.day_rounds[kind, key, day] for day in nights]
    found = [floor.day_found[kind, key, day] for day in nights]
    total_rounds, total_found = sum(rounds), sum(found)
    stratum_days, unit_rounds = strata[kind]
    cells_of = unit_rounds.get(key, Counter())
    best = None
    tried = 0
    for first in candidates:
        at = nights.index(first)
        if not rounds[at]:
            continue  # a night the unit did not work begins nothing: its first night after does
        after_rounds, after_found = sum(rounds[at:]), sum(found[at:])
        if not after_rounds or after_rounds == total_rounds:
            continue  # no rounds since, or none before: nothing to compare
        tried += 1
        share = after_rounds / total_rounds
        own = float(binomial_at_least([after_found], [total_found], [share])[0]) \
            if total_found else 1.0
        since = set(nights[at:])
        cells: Counter = Counter()
        for (stratum, day), n in cells_of.items():
            if day in since:
                cells[stratum] += n
        given, expected = conditional_p(after_found, [
            (cells[stratum],
             sum(n for (day, what), n in stratum_days[stratum].items()
                 if what == "rounds" and day in since),
             sum(n for (day, what), n in stratum_days[stratum].items()
                 if what == "found" and day in since))
            for stratum in sorted(cells)])
        p = max(own, given)
        if best is None or p < best[0]:
            best = (p, first, after_rounds, after_found, share * total_found, expected, own,
                    given)
    if best is None:
        return None
    p, first, after_rounds, after_found, expected_own, expected_given, own, given = best
    before_rounds, before_found = total_rounds - after_rounds, total_found - after_found
    adjusted = min(1.0, tried * p)
    other = "tables" if kind == "dealer" else "dealers"
    return {
        "since": first, "candidates": tried,
        "counts": {"rounds_since": after_rounds, "findings_since": after_found,
                   "rounds_before": before_rounds, "findings_before": before_found,
                   "expected_from_before": round(expected_own, 3),
                   "expected_given": round(expected_given, 3)},
        "rates": {"since_per_1000": round(1000 * after_found / after_rounds, 3),
                  "before_per_1000": round(1000 * before_found / before_rounds, 3)},
        "p": adjusted, "q": None, "p_before": own, "p_given": given,
        "tested": (
            f"Findings at {kind} {key} from {first}: {after_found:,} in {after_rounds:,} "
            f"rounds, against {expected_own:.1f} expected from its own rate before "
            f"({before_found:,} in {before_rounds:,} rounds) and {expected_given:.1f} given "
            f"its {other}' findings on those nights. Exact tests, both one-sided; the "
            f"larger p of the two, for the likeliest first night of {tried} tried, times "
            f"{tried} (Bonferroni)."),
        "not_proven": CHANGE_NOT_PROVEN,
    }
