"""`auditor trends` over long histories: summed in the store, memory that does not grow
with the nights, and the pieces that make it so held to what they replace.

Floors here are written straight into a store by auditor/simulate/tallies.py (tallies
and findings, no records), which takes a second where dealing and auditing them would
take minutes; tests/floor/test_trends.py holds the verdicts on floors dealt by the simulator.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import select, update

from auditor.cli import main
from auditor.simulate.tallies import FloorPlan, write_floor
from auditor.store import open_store, schema
from auditor.trends import repeats as repeats_module
from auditor.trends.analysis import Settings, table_name, trends_document
from tests.helpers import ROOT

# ---- the distributions, as scipy.stats and statsmodels give them ----

def test_the_distributions_are_scipys_to_the_last_bit() -> None:
    from scipy.stats import binom, binomtest, norm, poisson
    from statsmodels.stats.multitest import multipletests

    from auditor.trends.distributions import (
        benjamini_hochberg,
        binomial_at_least,
        binomial_pmf,
        normal_above,
        poisson_at_most,
        poisson_quantile,
    )

    rng = np.random.default_rng(7)
    for trials in (1, 2, 17, 300, 5000):
        for chance in (0.0, 1e-6, 0.013, 0.5, 0.97, 1.0):
            counts = np.arange(trials + 1)
            assert np.array_equal(binomial_pmf(counts, trials, chance),
                                  binom.pmf(counts, trials, chance))
            for found in {0, 1, trials // 3, trials - 1, trials}:
                assert binomial_at_least([found], [trials], [chance])[0] == \
                    binomtest(found, trials, chance, alternative="greater").pvalue
    z = np.concatenate([rng.normal(0, 3, 200), [0.0, 8.5, 40.0]])
    assert np.array_equal(normal_above(np.abs(z)), norm.sf(np.abs(z)))
    for mean in (0.01, 0.7, 3.0, 41.5, 900.0):
        for probability in (0.001, 0.025, 0.5, 0.975, 0.999):
            quantile = poisson_quantile(probability, mean)
            assert quantile == poisson.ppf(probability, mean)
            assert poisson_at_most(quantile, mean) == poisson.cdf(quantile, mean)
            assert poisson_at_most(quantile - 1, mean) == poisson.cdf(quantile - 1, mean)
    for size in (1, 2, 30, 1000):
        values = np.concatenate([rng.uniform(0, 1, size) ** 4, [1.0, 1.0]])
        for fdr in (0.05, 0.2):
            rejected, q = benjamini_hochberg(values, fdr)
            expected_rejected, expected_q, _, _ = multipletests(values, alpha=fdr,
                                                                method="fdr_bh")
            assert np.array_equal(rejected, expected_rejected)
            assert np.array_equal(q, expected_q)


def test_the_tilted_tail_agrees_with_the_direct_convolution() -> None:
    """A large unit's test (tilted, trimmed) against the direct convolution it replaces,
    down to tails of 10⁻¹⁰⁰: the same to 10⁻⁹ of the p-value."""
    from auditor.trends.conditional import _direct, _tilted

    rng = np.random.default_rng(11)
    for _ in range(200):
        binomials = [(int(rng.integers(1, 300)), float(rng.uniform(0.001, 0.6)))
                     for _ in range(int(rng.integers(1, 40)))]
        if rng.random() < 0.2:
            binomials.append((5, 1.0))
        mean = sum(n * p for n, p in binomials)
        spread = sum(n * p * (1 - p) for n, p in binomials) ** 0.5
        found = max(0, int(mean + rng.uniform(-3, 25) * spread))
        exact, tilted = _direct(found, binomials), _tilted(found, binomials)
        if exact > 1e-290:
            assert tilted == pytest.approx(exact, rel=1e-9, abs=0), (found, binomials)
        else:
            assert tilted < 1e-280
    assert _tilted(10**6, [(10, 0.5)]) == 0.0 and _tilted(0, [(10, 0.5)]) == 1.0


def test_a_unit_of_a_year_is_judged_by_the_tilted_tail_in_milliseconds() -> None:
    """A dealer who worked 60 tables of 830 findings each, with the same share of each:
    the direct convolution would cost about 10⁹ operations; the tilt keeps the tail's
    digits down to 10⁻²⁵⁴ (the sum is then one binomial, whose tail scipy gives)."""
    import time

    from scipy.stats import binom

    from auditor.trends.conditional import DIRECT_WORK, conditional_p

    cells = [(60, 11_000, 830)] * 60  # 60 tables: the dealer's rounds, theirs, findings
    assert sum(range(60)) * 830 * 831 > DIRECT_WORK
    for found in (200, 400, 700, 1000):
        started = time.process_time()
        p, expected = conditional_p(found, cells)
        assert time.process_time() - started < 1.0
        assert expected == pytest.approx(60 * 830 * 60 / 11_000)
        assert p == pytest.approx(binom.sf(found - 1, 60 * 830, 60 / 11_000), rel=1e-9)


# ---- shuffles that repeat, against every run of cards compared by hand ----

def _store_with_repeats(path: Path, seed: int) -> list[tuple]:
    """A small floor whose shuffles are given repeats of 11 to 100 cards: across shuffles,
    at their ends, within one shuffle (never reported), three times, and shuffles whose
    text is not all cards (odd, not ASCII). Returns each shuffle's key."""
    import random

    engine = open_store(str(path), new_store=True)
    write_floor(engine, FloorPlan(tables=4, nights=3, rounds=120, seed=f"repeats{seed}"))
    rng = random.Random(seed)
    table = schema.tally_shuffles
    with engine.begin() as connection:
        cards = {(r.run_id, r.position, r.item): r.cards for r in connection.execute(
            select(table.c.run_id, table.c.position, table.c.item, table.c.cards))}
        keys = sorted(cards)
        for _ in range(25):
            a, b = rng.sample(keys, 2)
            if rng.random() < 0.2:
                b = a
            length = rng.choice([11, 12, 12, 13, 15, 20, 40, 100])
            a_cards, b_cards = len(cards[a]) // 2, len(cards[b]) // 2
            if length > min(a_cards, b_cards):
                continue
            x = rng.choice([0, a_cards - length, rng.randrange(a_cards - length + 1)])
            y = rng.choice([0, b_cards - length, rng.randrange(b_cards - length + 1)])
            cards[b] = cards[b][:2 * y] + cards[a][2 * x:2 * (x + length)] + \
                cards[b][2 * (y + length):]
        piece = cards[keys[1]][10:60]
        for key in (keys[5], keys[9]):
            cards[key] = cards[key][:20] + piece + cards[key][70:]
        cards[keys[12]] += "Q"
        cards[keys[13]] = cards[keys[13]][:30] + "é?" + cards[keys[13]][32:]
        for key in (keys[14], keys[15]):
            cards[key] = cards[key][:40] + "X" * 30 + cards[key][70:]
        for (run_id, position, item), text in cards.items():
            connection.execute(update(table).where(
                table.c.run_id == run_id, table.c.position == position,
                table.c.item == item).values(cards=text))
    engine.dispose()
    return keys


def _by_hand(path: Path, width: int) -> list[tuple]:
    """Every maximal run of `width` or more equal cards (two characters each, as the
    tally keeps them) in two shuffles, found by comparing every run: (cards, the two
    places by store key and first card)."""
    engine = open_store(str(path), read_only=True)
    table = schema.tally_shuffles
    with engine.connect() as connection:
        shuffles = {(r.run_id, r.position, r.item): [r.cards[i:i + 2] for i in
                                                     range(0, len(r.cards), 2)]
                    for r in connection.execute(select(table))}
    engine.dispose()
    seen: dict[tuple, list] = {}
    for key, cards in shuffles.items():
        for start in range(len(cards) - width + 1):
            seen.setdefault(tuple(cards[start:start + width]), []).append((key, start))
    equal = set()
    for places in seen.values():
        for i, (a, x) in enumerate(places):
            for b, y in places[i + 1:]:
                if a != b:
                    equal.add((a, x, b, y) if a < b else (b, y, a, x))
    found = []
    for a, x, b, y in sorted(equal):
        if (a, x - 1, b, y - 1) in equal:
            continue
        length = width
        while (a, x + length - width + 1, b, y + length - width + 1) in equal:
            length += 1
        found.append((length, (a, x), (b, y)))
    return sorted(found)


def _reported(document_repeats: list[dict], path: Path) -> list[tuple]:
    """The repeats trends reported, as (cards, the two places by store key and card)."""
    engine = open_store(str(path), read_only=True)
    table, inputs = schema.tally_shuffles, schema.run_inputs
    with engine.connect() as connection:
        where = {}
        for row in connection.execute(select(table, inputs.c.path).join(
                inputs, (inputs.c.run_id == table.c.run_id)
                & (inputs.c.position == table.c.position))):
            steps, line = json.loads(row.lines), 0
            for index, step in enumerate(steps):
                line += step
                where[row.path, row.shoe_id, line] = ((row.run_id, row.position, row.item),
                                                      index)
    engine.dispose()
    return sorted((e["unit"]["cards"], *sorted(where[p["file"], p["shoe"], p["line"]]
                                               for p in e["places"]))
                  for e in document_repeats)


@pytest.mark.parametrize("spilled", [False, True])
def test_every_repeat_is_found_and_nothing_else(tmp_path, monkeypatch, spilled) -> None:
    """Anchors of 8 cards (winnowing) find every run of 12 or more equal cards in two
    shuffles that comparing every run of 12 finds, and none other; the same with the
    runs spilled to files in parts of 300 (and a run of 8, which anchors every card)."""
    path = tmp_path / "repeats.sqlite"
    _store_with_repeats(path, seed=3)
    if spilled:
        monkeypatch.setattr(repeats_module, "PART_WINDOWS", 300)
        monkeypatch.setattr(repeats_module, "SPILL_RECORDS", 500)
        monkeypatch.setattr(repeats_module, "BATCH_CHARACTERS", 3000)
    engine = open_store(str(path), read_only=True)
    for width in (12, 8, 15):
        found = repeats_module.repeats(engine, Settings(window=width), table_name, "flagged",
                                       "not flagged")
        assert _reported(found, path) == _by_hand(path, width), width
        if width == 12:
            assert len(found) >= 10
    engine.dispose()


def test_spilled_files_are_removed_and_a_full_folder_is_one_line(tmp_path, monkeypatch,
                                                                 capsys) -> None:
    import tempfile

    path = tmp_path / "repeats.sqlite"
    _store_with_repeats(path, seed=5)
    monkeypatch.setattr(repeats_module, "PART_WINDOWS", 300)
    spill = tmp_path / "spill"
    spill.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spill))
    assert main(["trends", "--store", str(path), "--out", str(tmp_path / "t"),
                 "--quiet"]) == 1
    assert list(spill.iterdir()) == []
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "gone"))
    capsys.readouterr()
    assert main(["trends", "--store", str(path), "--out", str(tmp_path / "t"),
                 "--quiet"]) == 2
    assert capsys.readouterr().err == (
        f"auditor: trends could not keep its temporary files in {tmp_path / 'gone'} (No "
        "such file or directory); set TMPDIR to a folder with room\n")


# ---- the same floor, five nights and sixty ----

_PEAK = """
import sys
from auditor.cli import main
main(["trends", "--store", sys.argv[1], "--out", sys.argv[2], "--quiet"])
with open("/proc/self/status") as status:
    print(next(int(l.split()[1]) for l in status if l.startswith("VmHWM:")))
"""


# The floor a night: 12 tables and about 4,650 rounds (here 12 tables of 390).
TABLES, ROUNDS = 12, 390


def _floor(path: Path, nights: int) -> Path:
    engine = open_store(str(path), new_store=True)
    write_floor(engine, FloorPlan(tables=TABLES, nights=nights, rounds=ROUNDS, players=400,
                                  first=date(2026, 1, 1), seed="same-floor",
                                  fault_rate=0.02))
    engine.dispose()
    return path


def test_memory_does_not_grow_with_the_nights(tmp_path) -> None:
    """Trends' peak memory (its process's own, VmHWM) on the first 5 and on the first 60
    nights of one floor (the same nights: write_floor draws each night from the seed and
    the night alone), of the issue's size a night (12 tables, 4,680 rounds: 23,400 and
    280,800 rounds), differs by less than a fifth. Measured on this floor: about 102 and
    114 MiB (the units judged, dealer–player pairs most, grow with the nights until every
    pair has played); trends before the store summed the tallies (46ea7c6^) took 202 and
    661 MiB, holding every round's rows."""
    peaks = {}
    for nights in (5, 60):
        store = _floor(tmp_path / f"{nights}.sqlite", nights)
        done = subprocess.run([sys.executable, "-c", _PEAK, str(store),
                               str(tmp_path / f"out{nights}")], capture_output=True,
                              text=True, check=True, cwd=ROOT,
                              env={**os.environ, "PYTHONHASHSEED": "0"})
        peaks[nights] = int(done.stdout.split()[-1])
        document = json.loads((tmp_path / f"out{nights}" / "trends.json").read_text())
        assert document["trends"]["rounds"] == TABLES * ROUNDS * nights
        assert len(document["rates"]["day"]) == nights  # every night judged
    assert abs(peaks[60] - peaks[5]) < 0.2 * peaks[5], peaks


def test_sqlite_and_postgresql_sum_the_same_floor(store_url, tmp_path) -> None:
    """The sums made in SQL (the chosen inputs' window function, grouped dealers with no
    name, integer sums) give the same document on either store."""
    engine = open_store(store_url, new_store=True)
    write_floor(engine, FloorPlan(tables=5, nights=6, rounds=200, players=60,
                                  seed="both-stores", fault_rate=0.03,
                                  careless=("D-1004", 5.0, 3), repeat_night=2))
    document = trends_document(engine, Settings(min_rounds=100, min_pair_rounds=20),
                               "store")
    engine.dispose()
    reference = tmp_path / "reference.sqlite"
    engine = open_store(str(reference), new_store=True)
    write_floor(engine, FloorPlan(tables=5, nights=6, rounds=200, players=60,
                                  seed="both-stores", fault_rate=0.03,
                                  careless=("D-1004", 5.0, 3), repeat_night=2))
    expected = trends_document(engine, Settings(min_rounds=100, min_pair_rounds=20),
                               "store")
    engine.dispose()
    assert document == expected
    assert [e["unit"]["key"] for e in document["outliers"] if e["status"] == "flagged"] == \
        ["D-1004"]
    assert len(document["repeats"]) == 1 and document["pairs"]


def test_json_is_written_a_piece_at_a_time_and_escaped_for_the_terminal(tmp_path,
                                                                        capsys) -> None:
    """`--json` prints trends.json's very text (written in pieces, never joined whole
    first), the characters a terminal obeys escaped: here a store named with a bidi
    control and a C1 control, which trends.json keeps as they are."""
    from auditor.trends.command import write_json

    store = _floor(tmp_path / "floor\u202e\u0085.sqlite", 3)
    out = tmp_path / "t"
    capsys.readouterr()
    assert main(["trends", "--store", str(store), "--out", str(out), "--json"]) in (0, 1)
    printed = capsys.readouterr().out
    kept = (out / "trends.json").read_text(encoding="utf-8")
    assert "floor\u202e\u0085.sqlite" in kept and "\u202e" not in printed
    assert "floor\\u202e\\u0085.sqlite" in printed
    assert printed == kept.replace("\u202e", "\\u202e").replace("\u0085", "\\u0085")
    assert json.loads(printed) == json.loads(kept)
    pieces = []

    class Pieces:
        def write(self, piece: str) -> None:
            pieces.append(piece)

    write_json(json.loads(kept), Pieces())
    assert "".join(pieces) == kept and len(pieces) > 100
