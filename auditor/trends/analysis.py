"""Surveillance signals across nights, from the run store: the trends.json document.

Everything is read from the store (the finished runs' findings and tallies; for each input
content only its latest tallied run, so a night audited twice counts once) within a window
of gaming dates, and worked out here; trends.html and the printed summary only lay it out.

Four questions, each answered with a stated test, its counts, p and q (Benjamini–Hochberg
across the units of the question, at `fdr`):
- outliers: dealers and tables whose findings exceed the floor's rate given their rounds;
- pairs: dealer–player pairs with more over-payments than the player's share of the
  dealer's rounds predicts;
- repeats: sequences of cards that recur in another shuffle;
- game math: each dealer's bust and natural frequencies (and Lucky Ladies wins) against
  their exact values.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from typing import Any

from auditor import __version__
from auditor.money import CENT, MoneyTotals
from auditor.store import trend_reads
from auditor.store.engine import Engine
from auditor.tally import DEALER_BUST, DEALER_NATURAL, LADIES_WIN, PLAYER_NATURAL
from auditor.trends import odds
from auditor.trends.changes import add_changes
from auditor.trends.conditional import conditional_p as _conditional_p
from auditor.trends.counts import (
    NO_DEALER,
    UNDATED,
    FloorCounts,
    amount_of,
    count_floor,
    table_name,
)
from auditor.trends.distributions import benjamini_hochberg, binomial_at_least, normal_above
from auditor.trends.repeats import repeats as shuffles_that_repeat

FLAGGED, NOT_FLAGGED, TOO_FEW = "flagged", "not flagged", "too few rounds to judge"
EXPLAINED = "explained"  # flagged against the floor only, by a flagged unit of the other kind
FLOOR = "(floor)"
__all__ = ["NO_DEALER", "UNDATED", "amount_of", "table_name"]  # (also read from here)


@dataclass(frozen=True)
class Settings:
    since: str | None = None
    until: str | None = None
    fdr: float = 0.05  # the false discovery rate controlled within each question
    min_rounds: int = 200  # a dealer or table judged on fewer rounds is not judged
    min_pair_rounds: int = 50  # a dealer–player pair, likewise
    min_variance: float = 10.0  # game math: n·p·(1−p) at least this (the normal z is sound)
    window: int = 12  # cards in a repeated sequence, at least
    change_nights: int = 7  # the last nights a change in a unit's rate may start on


def money_rows(totals: MoneyTotals, rounds: int | None = None) -> list[dict[str, Any]]:
    """Money per currency, never added across: each currency's findings with money, what
    players were under- and over-paid (exact), and per 1,000 rounds (to the cent)."""
    rows = totals.rows()
    for row in rows:
        for kind in ("under_paid", "over_paid"):
            row[f"{kind}_per_1000"] = str((1000 * Decimal(row[kind]) / rounds).quantize(CENT)) \
                if rounds else None
    return rows


def paid_to(found: list[tuple[str, str | None, Decimal]]) -> MoneyTotals:
    totals = MoneyTotals()
    for _, currency, amount in found:
        totals.add(currency, amount)
    return totals


def per_thousand(count: float, rounds: int) -> float | None:
    return round(1000 * count / rounds, 3) if rounds else None


def _bh(entries: list[dict[str, Any]], fdr: float, untested_ones: int = 0) -> None:
    """q-values and flags for the tested entries (those with a p), in place;
    `untested_ones`: more tests of the family, not listed, each with p = 1."""
    tested = [e for e in entries if e["p"] is not None]
    if tested:
        reject, q = benjamini_hochberg([e["p"] for e in tested] + [1.0] * untested_ones,
                                       fdr)
        reject, q = reject[:len(tested)], q[:len(tested)]
        for entry, flag, value in zip(tested, reject, q, strict=True):
            entry["q"] = float(value)
            entry["status"] = FLAGGED if flag else NOT_FLAGGED
    for entry in entries:
        if entry["p"] is None:
            entry["q"], entry["status"] = None, TOO_FEW


def _order(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rank = {FLAGGED: 0, NOT_FLAGGED: 1, TOO_FEW: 2}
    return sorted(entries, key=lambda e: (rank[e["status"]], e["q"] if e["q"] is not None
                                          else 2.0, e["p"] if e["p"] is not None else 2.0))


# ---- 1. rates ----

def rates(floor: FloorCounts) -> dict[str, Any]:
    total = sum(floor.rounds["day"].values())
    floor_row = {"rounds": total, "findings": floor.floor_found,
                 "findings_per_1000": per_thousand(floor.floor_found, total),
                 "money": money_rows(floor.floor_money, total)}
    document: dict[str, Any] = {"floor": floor_row}
    for dimension in ("dealer", "table", "citation", "shift", "day"):
        found = floor.found[dimension]
        keys = set(found) | (set(floor.rounds[dimension]) if dimension != "citation"
                             else set())
        rows = []
        for key in sorted(keys, key=str):
            unit_rounds = total if dimension == "citation" else floor.rounds[dimension][key]
            rows.append({
                "key": key, "rounds": unit_rounds, "findings": found[key],
                "findings_per_1000": per_thousand(found[key], unit_rounds),
                "floor_findings_per_1000": floor_row["findings_per_1000"],
                "money": money_rows(floor.money.get((dimension, key), MoneyTotals()),
                                    unit_rounds)})
        document[dimension] = rows
    return document


# ---- 2. outliers: dealers and tables judged together ----

OUTLIER_NOT_PROVEN = (
    "It does not prove misconduct, nor even more mistakes than the records show: findings "
    "count what the records show (a deficient record counts too), the unit is compared with "
    "this floor's own rate (not with a standard), and a unit that deals harder games or "
    "busier tables may err more without fault.")
OTHER = {"dealer": "table", "table": "dealer"}
POOLED = "(under the minimum)"  # the other factor's units too small to judge, one stratum


def _shrunk(rounds: dict[str, int], found: Counter) -> dict[str, float]:
    """Each unit's rate shrunk toward the floor's (empirical Bayes, Poisson counts with
    gamma-distributed rates, the spread between units by the method of moments): a unit of
    few rounds keeps little more than the floor's rate."""
    total_rounds, total_found = sum(rounds.values()), sum(found[k] for k in rounds)
    if not total_rounds:
        return {}
    floor_rate = total_found / total_rounds
    # summed exactly (fsum): the same in whatever order the store gives the units
    spread = math.fsum(n * (found[k] / n - floor_rate) ** 2 for k, n in rounds.items() if n)
    between = max(0.0, spread / total_rounds - floor_rate * len(rounds) / total_rounds)
    shrunk = {}
    for key, n in sorted(rounds.items()):
        noise = floor_rate / n if n else math.inf
        weight = between / (between + noise) if between else 0.0  # the unit's own rate's
        shrunk[key] = weight * (found[key] / n if n else 0.0) + (1 - weight) * floor_rate
    return shrunk


def _history(kind: str, key: str, days: list[str], day_rounds: Counter,
             day_found: Counter) -> list[dict[str, Any]]:
    """The unit night by night: every gaming day of the window, with its rounds, findings
    and rate (none on a day the unit had no round)."""
    return [{"day": day, "rounds": day_rounds[kind, key, day],
             "findings": day_found[kind, key, day],
             "findings_per_1000": per_thousand(day_found[kind, key, day],
                                               day_rounds[kind, key, day])}
            for day in days]


def outliers(floor: FloorCounts, settings: Settings) -> list[dict[str, Any]]:
    """Dealers and tables whose findings exceed the floor's rate given their rounds, each
    judged given the other (a table where a careless dealer dealt is explained by him), in
    the order of the evidence; the units under the minimum last."""
    cell_rounds, cell_found = floor.cell_rounds, floor.cell_found
    day_rounds, day_found = floor.day_rounds, floor.day_found
    days = floor.days
    total_rounds, total_found = sum(cell_rounds.values()), sum(cell_found.values())
    rounds = {kind: Counter() for kind in OTHER}
    found = {kind: Counter() for kind in OTHER}
    for (dealer, table), n in cell_rounds.items():
        rounds["dealer"][dealer] += n
        rounds["table"][table] += n
    for (dealer, table), k in cell_found.items():
        found["dealer"][dealer] += k
        found["table"][table] += k
    sizeable = {kind: {key for key, n in rounds[kind].items()
                       if n >= settings.min_rounds and key != NO_DEALER} for kind in OTHER}
    shrunk = {kind: _shrunk({k: n for k, n in rounds[kind].items() if k != NO_DEALER},
                            found[kind]) for kind in OTHER}
    entries = []
    for kind, other in OTHER.items():
        # strata: the other kind's units, those under the minimum (and no dealer) pooled
        def stratum(key: str, other: str = other) -> str:
            return key if key in sizeable[other] else POOLED

        strata_rounds: Counter = Counter()
        strata_found: Counter = Counter()
        unit_cells: dict[str, Counter] = defaultdict(Counter)
        for cell, n in cell_rounds.items():
            unit, partner = (cell if kind == "dealer" else cell[::-1])
            strata_rounds[stratum(partner)] += n
            strata_found[stratum(partner)] += cell_found[cell]
            unit_cells[unit][stratum(partner)] += n
        for key in sorted(rounds[kind]):
            if key == NO_DEALER:
                continue
            n, k = rounds[kind][key], found[kind][key]
            share = n / total_rounds
            expected = total_found * share
            p_given = expected_given = p_floor = None
            if key in sizeable[kind] and total_found:
                p_given, expected_given = _conditional_p(k, [
                    (count, strata_rounds[s], strata_found[s])
                    for s, count in sorted(unit_cells[key].items())])
                p_floor = float(binomial_at_least([k], [total_found], [share])[0])
            given = (f"{expected_given:.1f} expected given its {other}s' findings and "
                     if expected_given is not None else "")
            entry: dict[str, Any] = {
                "unit": {"kind": kind, "key": key},
                "counts": {"rounds": n, "findings": k, "expected": round(expected, 3),
                           "expected_given": None if expected_given is None
                           else round(expected_given, 3),
                           "floor_rounds": total_rounds, "floor_findings": total_found},
                "rates": {"findings_per_1000": per_thousand(k, n),
                          "shrunk_per_1000": round(1000 * shrunk[kind][key], 3),
                          "floor_per_1000": per_thousand(total_found, total_rounds)},
                "statistic": {"name": f"findings / expected given the {other}s",
                              "value": round(k / expected_given, 3)
                              if expected_given else None},
                "p": p_given,
                "floor_test": {"statistic": round(k / expected, 3) if expected else None,
                               "p": p_floor, "q": None},
                "explained_by": [],
                "tested": (
                    f"Findings at {kind} {key}: {k:,} in {n:,} rounds, against {given}"
                    f"{expected:.1f} expected at the floor's rate ({total_found:,} findings "
                    f"in {total_rounds:,} rounds). One-sided exact binomial tests, twice: "
                    f"given each {other}'s findings, each falls at this {kind} with its "
                    f"share of that {other}'s rounds (p, q: judged with the {other}s), and "
                    f"given the floor's findings, with its share of the floor's rounds "
                    f"({share:.4f})."),
                "not_proven": OUTLIER_NOT_PROVEN,
            }
            if p_given is not None:
                entry["history"] = _history(kind, key, days, day_rounds, day_found)
            entries.append(entry)
    _flag_together(entries, settings.fdr, cell_rounds, cell_found,
                   total_found / total_rounds if total_rounds else 0.0)
    return _rank(entries)


def _flag_together(entries: list[dict[str, Any]], fdr: float, cell_rounds: Counter,
                   cell_found: Counter, floor_rate: float) -> None:
    """Statuses, in place, from two tests each controlled by Benjamini–Hochberg across
    every dealer and table judged. Flagged: the unit stands out against the floor's rate
    and given the other kind's units (in its own right); or against the floor's rate with
    no unit of the other kind flagged in its own right to account for it. Explained: it
    stands out against the floor's rate only because units of the other kind flagged in
    their own right worked with it (`explained_by`, the most excess findings first). A unit
    not above the floor's rate is not flagged, whatever the other test says."""
    _bh(entries, fdr)  # the test given the other kind: p, q
    tested = [e for e in entries if e["floor_test"]["p"] is not None]
    if tested:
        reject, q = benjamini_hochberg([e["floor_test"]["p"] for e in tested], fdr)
        for entry, against_floor, value in zip(tested, reject, q, strict=True):
            entry["floor_test"]["q"] = float(value)
            entry["floor_test"]["flagged"] = bool(against_floor)
    own_right = {(e["unit"]["kind"], e["unit"]["key"]) for e in tested
                 if e["status"] == FLAGGED and e["floor_test"]["flagged"]}
    for entry in tested:
        kind, key = entry["unit"]["kind"], entry["unit"]["key"]
        if (kind, key) in own_right:
            continue
        if not entry["floor_test"]["flagged"]:
            entry["status"] = NOT_FLAGGED
            continue
        other = OTHER[kind]
        partners = []
        for (dealer, table), n in cell_rounds.items():
            unit, partner = (dealer, table) if kind == "dealer" else (table, dealer)
            if unit != key or (other, partner) not in own_right:
                continue
            excess = cell_found[dealer, table] - n * floor_rate
            if excess > 0:
                partners.append({"kind": other, "key": partner,
                                 "rounds": n, "findings": cell_found[dealer, table],
                                 "excess": round(excess, 3)})
        if partners:
            entry["status"] = EXPLAINED
            entry["explained_by"] = sorted(partners, key=lambda p: (-p["excess"], p["key"]))
        else:
            entry["status"] = FLAGGED  # on the floor's rate: nothing flagged accounts for it


def _rank(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """By the evidence: flagged, explained, not flagged, then by the larger of the two p
    (the evidence that the unit stands out in its own right: against the floor and given
    the other kind), then the p given the other kind; a unit too small to judge never
    leads (it is not ranked)."""
    order = {FLAGGED: 0, EXPLAINED: 1, NOT_FLAGGED: 2, TOO_FEW: 3}
    ranked = sorted(entries, key=lambda e: (
        order[e["status"]],
        max(e["p"], e["floor_test"]["p"]) if e["p"] is not None else 2.0,
        e["p"] if e["p"] is not None else 2.0,
        -e["counts"]["rounds"], e["unit"]["kind"], e["unit"]["key"]))
    for rank, entry in enumerate(ranked, 1):
        entry["rank"] = rank if entry["status"] != TOO_FEW else None
    return ranked


def not_judged(document: dict[str, Any], settings: Settings) -> list[dict[str, Any]]:
    """What each question did not judge, folded into one line a kind."""
    lines = []
    for kind in OTHER:
        small = [e for e in document["outliers"]
                 if e["unit"]["kind"] == kind and e["status"] == TOO_FEW]
        if small:
            lines.append({"question": "outliers", "kind": kind, "units": len(small),
                          "rounds": sum(e["counts"]["rounds"] for e in small),
                          "findings": sum(e["counts"]["findings"] for e in small),
                          "minimum_rounds": settings.min_rounds})
    small = [e for e in document["pairs"] if e["status"] == TOO_FEW]
    if small:
        lines.append({"question": "pairs", "kind": "pair", "units": len(small),
                      "rounds": sum(e["counts"]["rounds"] for e in small),
                      "findings": sum(e["counts"]["over_payments"] for e in small),
                      "minimum_rounds": settings.min_pair_rounds})
    small = [e for e in document["game_math"] if e["status"] == TOO_FEW]
    if small:
        lines.append({"question": "game_math", "kind": "test", "units": len(small),
                      "rounds": None, "findings": None,
                      "minimum_variance": settings.min_variance})
    return lines


# ---- 3. where the money goes ----

PAIR_NOT_PROVEN = (
    "It does not prove collusion: the over-payments may be honest mistakes that happened to "
    "favour this player, a player who plays larger or more complex hands draws more chances "
    "of error, and the test compares the player only with the other players at this "
    "dealer's rounds.")


def pairs(engine: Engine, floor: FloorCounts, settings: Settings,
          pair_nights: dict[tuple[str, str], set[tuple[str, int]]] | None = None,
          ) -> list[dict[str, Any]]:
    """Over-payments to each player at each dealer's rounds against the player's share.

    The store sums each pair's rounds a night, a pair at a time; only the pairs with an
    over-payment are kept (the pairs listed), in the order of their first run, then of
    dealer and player. A judged pair with none has p = 1 (at least none, for certain): it
    is counted in the family Benjamini–Hochberg controls, not held. `pair_nights`, if
    given, gets each listed pair's nights (gaming day, run): what its links are made of."""
    dealer_rounds: Counter = Counter()
    rounds: dict[tuple[str, str], int] = {}  # the pairs listed
    nights: dict[tuple[str, str], Counter] = defaultdict(Counter)  # theirs, night by night
    first: dict[tuple[str, str], int] = {}  # their first run
    quiet_pairs = 0  # pairs with enough rounds and no over-payment
    pair, n, listed = None, 0, False

    def close() -> None:  # the pair whose rows just ended
        nonlocal quiet_pairs
        if pair is None:
            return
        dealer_rounds[pair[0]] += n
        if listed:
            rounds[pair] = n
        elif n >= settings.min_pair_rounds:
            quiet_pairs += 1

    for dealer, player, day, run_id, count in trend_reads.pair_nights(
            engine, settings.since, settings.until, NO_DEALER):  # a pair's rows together
        if pair is None or dealer != pair[0] or player != pair[1]:
            close()
            pair, n = (dealer, player), 0
            listed = pair in floor.over
        n += count
        if listed:
            nights[pair][day or UNDATED] += count
            first[pair] = min(first.get(pair, run_id), run_id)
            if pair_nights is not None:
                pair_nights.setdefault(pair, set()).add((day or UNDATED, run_id))
    close()
    entries: list[dict[str, Any]] = []
    tested: list[tuple[dict[str, Any], int, int, float]] = []
    for dealer, player in sorted(rounds, key=lambda pair: (first[pair], pair)):
        n = rounds[dealer, player]
        found = floor.over[dealer, player]
        total, share = floor.dealer_over[dealer], n / dealer_rounds[dealer]
        expected = total * share
        k = len(found)
        entry = {
            "unit": {"kind": "pair", "dealer": dealer, "player": player},
            "counts": {"rounds": n, "dealer_player_rounds": dealer_rounds[dealer],
                       "over_payments": k, "dealer_over_payments": total,
                       "expected": round(expected, 3),
                       "money": money_rows(paid_to(found))},
            "statistic": {"name": "over-payments / expected",
                          "value": round(k / expected, 3) if expected else None},
            "p": None,
            "findings": [finding for finding, _, _ in found],
            "tested": (
                f"Over-payments to {player} at {dealer}'s rounds: {k} of the dealer's {total}, "
                f"against {expected:.2f} expected from the player's share of the dealer's "
                f"player-rounds ({n} of {dealer_rounds[dealer]:,}). One-sided exact binomial "
                "test given the dealer's over-payments."),
            "not_proven": PAIR_NOT_PROVEN,
        }
        if n >= settings.min_pair_rounds:
            entry["p"] = 1.0  # (with no over-payment at the dealer's; else below)
            if total:
                tested.append((entry, k, total, share))
            entry["history"] = _pair_history(nights[dealer, player],
                                             floor.day_over[dealer, player])
        entries.append(entry)
    if tested:  # the exact binomial test, P(X ≥ k) (scipy's binomtest), all at once
        values = binomial_at_least([k for _, k, _, _ in tested], [n for _, _, n, _ in tested],
                                   [share for _, _, _, share in tested])
        for (entry, *_), value in zip(tested, values.tolist(), strict=True):
            entry["p"] = float(value)
    _bh(entries, settings.fdr, untested_ones=quiet_pairs)
    return _order(entries)


def _pair_history(rounds: Counter, over_payments: Counter) -> list[dict[str, Any]]:
    """The pair night by night: each gaming day the player played at the dealer's rounds
    (or was over-paid there), undated last. Only those: a year's window would otherwise
    list every pair on 365 days, nearly all of them empty."""
    days = sorted(set(rounds) | set(over_payments), key=lambda d: (d == UNDATED, d))
    return [{"day": day, "rounds": rounds[day], "over_payments": over_payments[day]}
            for day in days]


# ---- 4. shuffles that repeat: auditor/trends/repeats.py ----


# ---- 5. game math ----

GAME_NOT_PROVEN = (
    "It does not prove a fault in the game: a deviation can be chance (the false discovery "
    "rate is stated), and bust counts cover only the hands the dealer played out. A record "
    "whose cards do not behave like shuffled cards is worth a look, whatever its "
    "settlements say.")
UP_NAMES = {1: "A", 10: "T"}


@cache
def _exact(statistic: str, up: int | None, decks: int, hits_soft_17: bool) -> float:
    if statistic == DEALER_BUST:
        return float(odds.dealer_bust_without_natural(up, decks, hits_soft_17))
    if statistic == DEALER_NATURAL:
        return float(odds.dealer_natural(up, decks))
    if statistic == LADIES_WIN:
        return float(odds.ladies_win(decks))
    return float(odds.player_natural(decks))


def game_math(engine: Engine, settings: Settings) -> list[dict[str, Any]]:
    counts: dict[tuple, Counter] = defaultdict(Counter)
    for row in trend_reads.game_totals(engine, settings.since, settings.until, NO_DEALER):
        for dealer in (row.dealer, FLOOR):
            key = (dealer, row.decks, row.hits_soft_17, row.statistic, row.up)
            counts[key]["trials"] += row.trials
            counts[key]["hits"] += row.hits
    entries = []
    tested: list[tuple[dict[str, Any], float]] = []
    for (dealer, decks, hits_soft_17, statistic, up), found in sorted(
            counts.items(), key=lambda item: tuple(str(v) for v in item[0])):
        n, k = found["trials"], found["hits"]
        exact = _exact(statistic, up, decks, hits_soft_17)
        spread = math.sqrt(n * exact * (1 - exact))
        z = (k - n * exact) / spread if spread else 0.0
        what = {DEALER_BUST: "went over 21 (hands played out, no natural)",
                DEALER_NATURAL: "had a two-card 21",
                PLAYER_NATURAL: "player hands were dealt a natural",
                LADIES_WIN: "Lucky Ladies wagers won (a 20 in the first two cards)"}[statistic]
        up_text = f" with {UP_NAMES.get(up, up)} up" if up else ""
        entry = {
            "unit": {"kind": "dealer" if dealer != FLOOR else "floor", "key": dealer,
                     "statistic": statistic, "up": UP_NAMES.get(up, str(up)) if up else None,
                     "decks": decks, "soft17": "hit" if hits_soft_17 else "stand"},
            "counts": {"trials": n, "hits": k, "expected": round(n * exact, 3)},
            "exact": round(exact, 6), "observed": round(k / n, 6) if n else None,
            "statistic": {"name": "z", "value": round(z, 3)},
            "p": None,
            "tested": (
                f"{dealer}{up_text}: {k} of {n} {what}, against {exact:.4f} exactly for "
                f"{decks} decks, soft 17 {'hit' if hits_soft_17 else 'stood'}; z = {z:.2f}, "
                f"two-sided normal p (used where n·p·(1−p) ≥ {settings.min_variance:g})."),
            "not_proven": GAME_NOT_PROVEN,
        }
        if spread ** 2 >= settings.min_variance:
            tested.append((entry, abs(z)))
        entries.append(entry)
    if tested:  # two-sided normal p, all at once
        values = 2 * normal_above([z for _, z in tested])
        for (entry, _), value in zip(tested, values.tolist(), strict=True):
            entry["p"] = float(value)
    _bh(entries, settings.fdr)
    return _order(entries)


# ---- the document ----

def trends_document(engine: Engine, settings: Settings, store: str,
                    pair_nights: dict[tuple[str, str], set[tuple[str, int]]] | None = None,
                    ) -> dict[str, Any]:
    """The trends.json document; `pair_nights` as `pairs` fills it. Every read takes
    the store as it was when the first began (`trend_reads.as_of_now`)."""
    engine = trend_reads.as_of_now(engine)
    # the repeats first: their large arrays are freed before the floor's sums are held
    repeated = shuffles_that_repeat(engine, settings, table_name, FLAGGED, NOT_FLAGGED)
    floor = count_floor(engine, settings.since, settings.until)
    rate_tables = rates(floor)
    units = outliers(floor, settings)
    add_changes(engine, floor, units, settings, FLAGGED, NOT_FLAGGED, TOO_FEW)
    dated = [day for day in floor.days if day != UNDATED]
    document = {
        "trends": {
            "version": __version__, "store": store,
            "window": {"since": settings.since, "until": settings.until},
            "runs": floor.runs,  # those with rounds in the window
            "inputs": floor.inputs,
            # table-nights recorded again, the recording left out (another counted instead)
            "superseded": trend_reads.superseded_recordings(engine, settings.since,
                                                            settings.until),
            "rounds": rate_tables["floor"]["rounds"],
            "findings": rate_tables["floor"]["findings"],
            "fdr": settings.fdr,
            "minimum_rounds": {"dealer_or_table": settings.min_rounds,
                               "pair": settings.min_pair_rounds,
                               "game_math_variance": settings.min_variance},
            "repeat_window": settings.window,
            "change_nights": settings.change_nights,
            "night": dated[-1] if dated else None,  # the last gaming day judged
        },
        "rates": rate_tables,
        "outliers": units,
        "pairs": pairs(engine, floor, settings, pair_nights),
        "repeats": repeated,
        "game_math": game_math(engine, settings),
    }
    document["not_judged"] = not_judged(document, settings)
    return document


QUESTIONS = ("outliers", "pairs", "repeats", "game_math")


def flags(document: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The flagged entries of each question; `changes`: the dealers and tables whose
    change in rate is flagged (their entries in `outliers`)."""
    raised = {name: [e for e in document[name] if e["status"] == FLAGGED]
              for name in QUESTIONS}
    raised["changes"] = [e for e in document["outliers"]
                         if (e.get("change") or {}).get("status") == FLAGGED]
    return raised
