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

import json
import math
from collections import Counter, defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np
from scipy.stats import binom, binomtest, norm
from sqlalchemy import Engine
from statsmodels.stats.multitest import multipletests

from auditor import __version__
from auditor.gaming_day import stamped_shift
from auditor.money import CENT, ZERO, MoneyTotals
from auditor.store import schema
from auditor.store.tallies import (
    TalliedInput,
    finding_rows,
    latest_tallied_inputs,
    lines_of,
    tally_rows,
)
from auditor.tally import DEALER_BUST, DEALER_NATURAL, LADIES_WIN, PLAYER_NATURAL
from auditor.trends import odds

FLAGGED, NOT_FLAGGED, TOO_FEW = "flagged", "not flagged", "too few rounds to judge"
EXPLAINED = "explained"  # flagged against the floor only, by a flagged unit of the other kind
NO_DEALER = "(no dealer)"
# Rounds with no gaming date (date= is optional on `shoe` and `round` in BJH 1, and a round
# takes its shoe's): one day of their own, their findings counted with them.
UNDATED = "(undated)"
FLOOR = "(floor)"


@dataclass(frozen=True)
class Settings:
    since: str | None = None
    until: str | None = None
    fdr: float = 0.05  # the false discovery rate controlled within each question
    min_rounds: int = 200  # a dealer or table judged on fewer rounds is not judged
    min_pair_rounds: int = 50  # a dealer–player pair, likewise
    min_variance: float = 10.0  # game math: n·p·(1−p) at least this (the normal z is sound)
    window: int = 12  # cards in a repeated sequence, at least


def amount_of(document: dict[str, Any]) -> Decimal:
    """A finding's difference, exact as in the audit (findings.json's text; the store's
    cents column drops a computed amount's fraction of a cent)."""
    text = document.get("difference")
    return Decimal(text) if text else ZERO


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


def _bh(entries: list[dict[str, Any]], fdr: float) -> None:
    """q-values and flags for the tested entries (those with a p), in place."""
    tested = [e for e in entries if e["p"] is not None]
    if tested:
        reject, q, _, _ = multipletests([e["p"] for e in tested], alpha=fdr, method="fdr_bh")
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


# ---- reading the store ----

@dataclass
class Floor:
    """What the window holds, read once from the store."""

    inputs: list[TalliedInput]
    rounds: list[Any]
    findings: list[tuple[TalliedInput, Any, dict[str, Any]]]
    pairs: list[Any]
    seats: dict[tuple[int, int, int, str], str]  # (run, position, line, seat) -> player
    game: list[Any]
    shuffles: list[tuple[TalliedInput, Any]]
    sites: dict[tuple[int, int], str | None]  # (run, position) -> licence or casino


def read_floor(engine: Engine, settings: Settings) -> Floor:
    inputs = latest_tallied_inputs(engine)
    since, until = settings.since, settings.until
    rounds = list(tally_rows(engine, schema.tally_rounds, inputs, since, until))
    sites = {(r.run_id, r.position): r.site for r in rounds}
    findings = [(place, row, json.loads(row.document))
                for place, row in finding_rows(engine, inputs, since, until)]
    seats = {(r.run_id, r.position, r.line, r.seat): r.player
             for r in _undated_rows(engine, schema.tally_seats, inputs)}
    by_place = {(i.run_id, i.position): i for i in inputs}
    shuffles = [(by_place[r.run_id, r.position], r)
                for r in tally_rows(engine, schema.tally_shuffles, inputs, since, until)]
    return Floor(inputs, rounds,
                 findings,
                 list(tally_rows(engine, schema.tally_pairs, inputs, since, until)),
                 seats,
                 list(tally_rows(engine, schema.tally_game, inputs, since, until)),
                 shuffles, sites)


def _undated_rows(engine: Engine, table, inputs: list[TalliedInput]):
    return tally_rows(engine, table, inputs, None, None, dated=False)


def table_name(site: str | None, table_id: str | None) -> str:
    """A table's identity: its licence (or casino) and its table ID."""
    return f"{site} {table_id}" if site else str(table_id)


# ---- 1. rates ----

def rates(floor: Floor) -> dict[str, Any]:
    rounds: dict[str, Counter] = {d: Counter() for d in ("dealer", "table", "shift", "day")}
    for row in floor.rounds:
        rounds["dealer"][row.dealer or NO_DEALER] += row.rounds
        rounds["table"][table_name(row.site, row.table_id)] += row.rounds
        rounds["shift"][row.shift or "(none)"] += row.rounds
        rounds["day"][row.date or UNDATED] += row.rounds
    total = sum(rounds["day"].values())
    counts: dict[str, dict[str, Counter]] = {
        d: {"findings": Counter()} for d in ("dealer", "table", "shift", "day", "citation")}
    floor_count = 0
    floor_money = MoneyTotals()
    unit_money: dict[tuple[str, Any], MoneyTotals] = defaultdict(MoneyTotals)
    for place, row, document in floor.findings:
        keys = {"dealer": row.dealer or NO_DEALER,
                "table": table_name(floor.sites.get((place.run_id, place.position)),
                                    row.table_id),
                "shift": stamped_shift(document.get("shift"), document.get("gaming_day"),
                                       document.get("date"), document.get("round_started")
                                       or document.get("time")) or "(none)",
                "day": row.date or UNDATED, "citation": row.citation}
        difference, currency = amount_of(document), row.currency
        for dimension, key in keys.items():
            counts[dimension]["findings"][key] += 1
            unit_money[dimension, key].add(currency, difference)
        floor_count += 1
        floor_money.add(currency, difference)
    floor_row = {"rounds": total, "findings": floor_count,
                 "findings_per_1000": per_thousand(floor_count, total),
                 "money": money_rows(floor_money, total)}
    document: dict[str, Any] = {"floor": floor_row}
    for dimension in ("dealer", "table", "citation", "shift", "day"):
        found = counts[dimension]
        keys = set(found["findings"]) | (set(rounds[dimension]) if dimension != "citation"
                                         else set())
        rows = []
        for key in sorted(keys, key=str):
            unit_rounds = total if dimension == "citation" else rounds[dimension][key]
            rows.append({
                "key": key, "rounds": unit_rounds, "findings": found["findings"][key],
                "findings_per_1000": per_thousand(found["findings"][key], unit_rounds),
                "floor_findings_per_1000": floor_row["findings_per_1000"],
                "money": money_rows(unit_money.get((dimension, key), MoneyTotals()),
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


def _unit_counts(floor: Floor) -> tuple[Counter, Counter, Counter, Counter]:
    """Rounds and findings of each (dealer, table) cell and of each (kind, unit, day)."""
    cell_rounds: Counter = Counter()
    day_rounds: Counter = Counter()
    for row in floor.rounds:
        dealer, table = row.dealer or NO_DEALER, table_name(row.site, row.table_id)
        cell_rounds[dealer, table] += row.rounds
        day = row.date or UNDATED
        day_rounds["dealer", dealer, day] += row.rounds
        day_rounds["table", table, day] += row.rounds
    cell_found: Counter = Counter()
    day_found: Counter = Counter()
    for place, row, _ in floor.findings:
        dealer = row.dealer or NO_DEALER
        table = table_name(floor.sites.get((place.run_id, place.position)), row.table_id)
        if (dealer, table) not in cell_rounds:
            continue  # a finding of no tallied round: no rate to put it in
        cell_found[dealer, table] += 1
        day = row.date or UNDATED
        day_found["dealer", dealer, day] += 1
        day_found["table", table, day] += 1
    return cell_rounds, cell_found, day_rounds, day_found


def _conditional_p(found: int, cells: list[tuple[int, int, int]]) -> tuple[float, float]:
    """The exact one-sided p of `found` findings at a unit, and their expected count, given
    each stratum's findings: `cells` are (the unit's rounds in the stratum, the stratum's
    rounds, the stratum's findings); in each stratum the findings fall at the unit with its
    share of the stratum's rounds (a binomial), the strata independent (a convolution)."""
    distribution = np.ones(1)
    expected = 0.0
    for rounds, stratum_rounds, stratum_found in cells:
        if not stratum_found:
            continue
        share = rounds / stratum_rounds
        expected += stratum_found * share
        distribution = np.convolve(distribution, binom.pmf(np.arange(stratum_found + 1),
                                                           stratum_found, share))
    return float(min(1.0, distribution[found:].sum())), expected


def _shrunk(rounds: dict[str, int], found: Counter) -> dict[str, float]:
    """Each unit's rate shrunk toward the floor's (empirical Bayes, Poisson counts with
    gamma-distributed rates, the spread between units by the method of moments): a unit of
    few rounds keeps little more than the floor's rate."""
    total_rounds, total_found = sum(rounds.values()), sum(found[k] for k in rounds)
    if not total_rounds:
        return {}
    floor_rate = total_found / total_rounds
    spread = sum(n * (found[k] / n - floor_rate) ** 2 for k, n in rounds.items() if n)
    between = max(0.0, spread / total_rounds - floor_rate * len(rounds) / total_rounds)
    shrunk = {}
    for key, n in rounds.items():
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


def outliers(floor: Floor, settings: Settings) -> list[dict[str, Any]]:
    """Dealers and tables whose findings exceed the floor's rate given their rounds, each
    judged given the other (a table where a careless dealer dealt is explained by him), in
    the order of the evidence; the units under the minimum last."""
    cell_rounds, cell_found, day_rounds, day_found = _unit_counts(floor)
    days = sorted({day for _, _, day in day_rounds}, key=lambda d: (d == UNDATED, d))
    total_rounds, total_found = sum(cell_rounds.values()), sum(cell_found.values())
    rounds = {kind: Counter() for kind in OTHER}
    found = {kind: Counter() for kind in OTHER}
    for (dealer, table), n in cell_rounds.items():
        rounds["dealer"][dealer] += n
        rounds["table"][table] += n
    for (dealer, table), k in cell_found.items():
        found["dealer"][dealer] += k
        found["table"][table] += k
    judged = {kind: {key for key, n in rounds[kind].items()
                     if n >= settings.min_rounds and key != NO_DEALER} for kind in OTHER}
    shrunk = {kind: _shrunk({k: n for k, n in rounds[kind].items() if k != NO_DEALER},
                            found[kind]) for kind in OTHER}
    entries = []
    for kind, other in OTHER.items():
        # strata: the other kind's units, those under the minimum (and no dealer) pooled
        def stratum(key: str, other: str = other) -> str:
            return key if key in judged[other] else POOLED

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
            if key in judged[kind] and total_found:
                p_given, expected_given = _conditional_p(k, [
                    (count, strata_rounds[s], strata_found[s])
                    for s, count in sorted(unit_cells[key].items())])
                p_floor = float(binomtest(k, total_found, share, alternative="greater").pvalue)
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
    _judge_together(entries, settings.fdr, cell_rounds, cell_found,
                    total_found / total_rounds if total_rounds else 0.0)
    return _rank(entries)


def _judge_together(entries: list[dict[str, Any]], fdr: float, cell_rounds: Counter,
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
        reject, q, _, _ = multipletests([e["floor_test"]["p"] for e in tested], alpha=fdr,
                                        method="fdr_bh")
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


def pairs(floor: Floor, settings: Settings) -> list[dict[str, Any]]:
    """Over-payments to each player at each dealer's rounds against the player's share."""
    rounds: Counter = Counter()
    day_rounds: Counter = Counter()
    for row in floor.pairs:
        rounds[row.dealer or NO_DEALER, row.player] += row.rounds
        day_rounds[row.dealer or NO_DEALER, row.player, row.date or UNDATED] += row.rounds
    days = sorted({day for _, _, day in day_rounds}, key=lambda d: (d == UNDATED, d))
    day_over: Counter = Counter()
    dealer_rounds: Counter = Counter()
    for (dealer, _), count in rounds.items():
        dealer_rounds[dealer] += count
    over: dict[tuple[str, str], list[tuple[str, int]]] = defaultdict(list)
    dealer_over: Counter = Counter()
    for place, row, document in floor.findings:
        difference = amount_of(document)
        if difference <= 0 or not document.get("seat"):
            continue
        player = floor.seats.get((place.run_id, place.position, row.line, document["seat"]))
        if player is None:
            continue
        dealer = row.dealer or NO_DEALER
        over[dealer, player].append((row.finding_id or f"{row.file}:{row.line}",
                                     row.currency, difference))
        day_over[dealer, player, row.date or UNDATED] += 1
        dealer_over[dealer] += 1
    entries = []
    for (dealer, player), n in rounds.items():
        found = over.get((dealer, player), [])
        if n < settings.min_pair_rounds and not found:
            continue  # neither judged nor worth listing
        total, share = dealer_over[dealer], n / dealer_rounds[dealer]
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
            entry["p"] = float(binomtest(k, total, share, alternative="greater").pvalue) \
                if total else 1.0
            entry["history"] = [  # the pair night by night
                {"day": day, "rounds": day_rounds[dealer, player, day],
                 "over_payments": day_over[dealer, player, day]} for day in days]
        entries.append(entry)
    _bh(entries, settings.fdr)
    # Pairs judged with no over-payment at all are counted in the family, not listed.
    return _order([e for e in entries if e["counts"]["over_payments"] or e["p"] is None])


# ---- 4. shuffles that repeat ----

RANK_SUIT = {f"{rank}{suit}": index for index, (rank, suit) in enumerate(
    (r, s) for r in "A23456789TJQK" for s in "cdhs")}
REPEAT_NOT_PROVEN = (
    "It does not prove a stacked shoe: a record copied from another (a clerical error), a "
    "shoe recorded twice, or a simulator or recording system at fault repeat cards as well; "
    "the places say where to look.")


def _spaced(cards: str) -> str:
    return " ".join(cards[i:i + 2] for i in range(0, len(cards), 2))


def _chance(length: int, decks: int, windows: int) -> tuple[float, float]:
    """The chance of two of `windows` windows from independently shuffled shoes agreeing on
    `length` cards: at most pairs × Π d/(52d−k) (each card matches with at most d copies
    left of the 52d−k unseen); and its base-10 logarithm, which stays readable where the
    chance itself is too small for a float."""
    pairs = windows * (windows - 1) / 2
    if not pairs:
        return 0.0, -math.inf
    log_expected = math.log(pairs) + sum(math.log(decks / (52 * decks - k))
                                         for k in range(length))
    expected = math.exp(log_expected)
    chance = float(-math.expm1(-expected))
    if chance < 1e-300:  # below a float's exact range: 0, with the logarithm beside it
        return 0.0, log_expected / math.log(10)
    return chance, math.log10(chance)


def _place(shuffle: tuple[TalliedInput, Any], index: int) -> dict[str, Any]:
    place, row = shuffle
    lines = lines_of(row.lines)
    marks = json.loads(row.rounds)
    round_id = None
    for start, identifier in marks:
        if start <= index or round_id is None:
            round_id = identifier
        if start > index:
            break
    return {"file": place.path, "round": round_id, "line": lines[index],
            "table": table_name(row.site, row.table_id), "shoe": row.shoe_id,
            "date": row.date}


def repeats(floor: Floor, settings: Settings) -> list[dict[str, Any]]:
    """Every sequence of `window` or more cards that recurs in another shuffle."""
    width = settings.window
    shuffles = [s for s in floor.shuffles if len(s[1].cards) // 2 >= width]
    codes, owner, offset = [], [], []
    for number, (_, row) in enumerate(shuffles):
        text = row.cards
        cards = [RANK_SUIT.get(text[i:i + 2], 52) for i in range(0, len(text), 2)]
        codes.append(np.array(cards, dtype=np.uint64))
        owner.append(np.full(len(cards) - width + 1, number, dtype=np.int64))
        offset.append(np.arange(len(cards) - width + 1, dtype=np.int64))
    if not codes:
        return []
    # A polynomial hash of each window (wrapping at 2**64), then equal hashes side by side.
    hashes = []
    for cards in codes:
        value = np.zeros(len(cards) - width + 1, dtype=np.uint64)
        for k in range(width):
            value = value * np.uint64(53) + cards[k:len(cards) - width + 1 + k] + np.uint64(1)
        hashes.append(value)
    every, owners, offsets = np.concatenate(hashes), np.concatenate(owner), np.concatenate(offset)
    windows = len(every)
    order = np.argsort(every, kind="stable")
    ranked = every[order]
    same = np.flatnonzero(ranked[1:] == ranked[:-1])
    matches: set[tuple[int, int, int, int]] = set()
    groups: dict[int, list[int]] = defaultdict(list)
    for position in same:  # equal hashes run together: gather each run
        start = position
        groups[int(ranked[start])].extend((int(order[start]), int(order[start + 1])))
    for members in groups.values():
        members = sorted(set(members))
        for i, first in enumerate(members):
            for second in members[i + 1:]:
                a, b = int(owners[first]), int(owners[second])
                if a == b:
                    continue
                x, y = int(offsets[first]), int(offsets[second])
                if codes[a][x:x + width].tolist() == codes[b][y:y + width].tolist():
                    matches.add((a, x, b, y) if a < b else (b, y, a, x))
    # Consecutive matching windows along one diagonal are one repeated sequence.
    entries = []
    for a, x, b, y in sorted(matches):
        if (a, x - 1, b, y - 1) in matches:
            continue  # inside a sequence already started
        length = width
        while (a, x + length - width + 1, b, y + length - width + 1) in matches:
            length += 1
        decks = max(shuffles[a][1].decks or 8, shuffles[b][1].decks or 8)
        chance, log10_chance = _chance(length, decks, windows)
        places = sorted([_place(shuffles[a], x), _place(shuffles[b], y)],
                        key=lambda p: (p["date"] or "", p["file"], p["line"]))
        entries.append({
            "unit": {"kind": "repeat", "cards": length},
            "places": places,
            "cards": _spaced(shuffles[a][1].cards[2 * x:2 * (x + length)]),
            "counts": {"cards": length, "shuffles": len(shuffles), "windows": windows},
            "log10_p": round(log10_chance, 1),
            "statistic": {"name": "cards repeated in order", "value": length},
            "p": chance, "q": chance, "status": FLAGGED if chance <= settings.fdr
            else NOT_FLAGGED,
            "tested": (
                f"{length} cards dealt in the same order in two shuffles, among {windows:,} "
                f"runs of {width} cards in {len(shuffles):,} shuffles. p is the chance of "
                f"any such repeat by chance among them (a bound, already over every pair: "
                "q = p)."),
            "not_proven": REPEAT_NOT_PROVEN,
        })
    return sorted(entries, key=lambda e: (-e["unit"]["cards"], e["places"][0]["file"]))


# ---- 5. game math ----

GAME_NOT_PROVEN = (
    "It does not prove a fault in the game: a deviation can be chance (the false discovery "
    "rate is stated), and bust counts cover only the hands the dealer played out. A record "
    "whose cards do not behave like shuffled cards is worth a look, whatever its "
    "settlements say.")
UP_NAMES = {1: "A", 10: "T"}


def _exact(statistic: str, up: int | None, decks: int, hits_soft_17: bool) -> float:
    if statistic == DEALER_BUST:
        return float(odds.dealer_bust_without_natural(up, decks, hits_soft_17))
    if statistic == DEALER_NATURAL:
        return float(odds.dealer_natural(up, decks))
    if statistic == LADIES_WIN:
        return float(odds.ladies_win(decks))
    return float(odds.player_natural(decks))


def game_math(floor: Floor, settings: Settings) -> list[dict[str, Any]]:
    counts: dict[tuple, Counter] = defaultdict(Counter)
    for row in floor.game:
        if not row.decks:
            continue
        for dealer in (row.dealer or NO_DEALER, FLOOR):
            key = (dealer, row.decks, row.hits_soft_17, row.statistic, row.up)
            counts[key]["trials"] += row.trials
            counts[key]["hits"] += row.hits
    entries = []
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
            entry["p"] = float(2 * norm.sf(abs(z)))
        entries.append(entry)
    _bh(entries, settings.fdr)
    return _order(entries)


# ---- the document ----

def trends_document(engine: Engine, settings: Settings, store: str) -> dict[str, Any]:
    floor = read_floor(engine, settings)
    rate_tables = rates(floor)
    document = {
        "trends": {
            "version": __version__, "store": store,
            "window": {"since": settings.since, "until": settings.until},
            "runs": sorted({r.run_id for r in floor.rounds}),  # those with rounds in the window
            "inputs": len({(r.run_id, r.position) for r in floor.rounds}),
            "rounds": rate_tables["floor"]["rounds"],
            "findings": rate_tables["floor"]["findings"],
            "fdr": settings.fdr,
            "minimum_rounds": {"dealer_or_table": settings.min_rounds,
                               "pair": settings.min_pair_rounds,
                               "game_math_variance": settings.min_variance},
            "repeat_window": settings.window,
        },
        "rates": rate_tables,
        "outliers": outliers(floor, settings),
        "pairs": pairs(floor, settings),
        "repeats": repeats(floor, settings),
        "game_math": game_math(floor, settings),
    }
    document["not_judged"] = not_judged(document, settings)
    return document


def flags(document: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The flagged entries of each question."""
    return {name: [e for e in document[name] if e["status"] == FLAGGED]
            for name in ("outliers", "pairs", "repeats", "game_math")}
