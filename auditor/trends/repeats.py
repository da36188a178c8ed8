"""Shuffles that repeat: every sequence of `window` or more cards that recurs in another
shuffle of the window, found in memory bounded whatever the number of nights.

Each run of `window` cards of every shuffle gets a 64-bit polynomial hash; equal hashes are
then compared card by card. A year of a large floor deals about a hundred million cards,
one run each: their hashes and places (16 bytes a run) are *spilled* to files in a
temporary folder (TMPDIR), split by hash into parts of at most `PART_WINDOWS` runs, and
each part is sorted on its own, so that memory holds one part and one batch of shuffles at
a time. A window that fits in one part stays in memory. Only the shuffles that share a run
are read again, whole, to compare their cards and name their places.
"""

from __future__ import annotations

import json
import math
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import numpy as np

from auditor.store import trend_reads
from auditor.store.engine import Engine
from auditor.store.tallies import lines_of

RANK_SUIT = {f"{rank}{suit}": index for index, (rank, suit) in enumerate(
    (r, s) for r in "A23456789TJQK" for s in "cdhs")}
UNKNOWN_CARD = 52
PART_WINDOWS = 1 << 17  # anchors sorted at once (2 MiB of hashes and places)
ANCHOR_CARDS = 8  # an anchor's cards (runs of 8 cards of two shuffles agree by chance
# about 10⁻¹⁴ of the time: a year of a large floor finds a few dozen, each compared)
BATCH_CHARACTERS = 1 << 17  # characters of cards hashed at once (two a card): the
# arrays of a batch stay in the processor's cache
MOST_PART_BITS = 8  # at most 256 files open at once (past that, larger parts)
SPILL_RECORDS = 1 << 17  # anchors held before they are written to their parts' files
_RECORD = np.dtype([("hash", "<u8"), ("place", "<u8")])  # place: shuffle << 32 | offset
_KEY = np.dtype([("run_id", "<i8"), ("position", "<i8"), ("item", "<i8")])
_MIX = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing: a part from all of a hash's bits

# The card of each two-byte code of ASCII text: 52 where the text is not a card.
_CODE_OF_PAIR = np.full(1 << 16, UNKNOWN_CARD, dtype=np.uint8)
for _text, _code in RANK_SUIT.items():
    _CODE_OF_PAIR[ord(_text[0]) << 8 | ord(_text[1])] = _code

REPEAT_NOT_PROVEN = (
    "It does not prove a stacked shoe: a record copied from another (a clerical error), a "
    "shoe recorded twice, or a simulator or recording system at fault repeat cards as well; "
    "the places say where to look.")


def card_codes(text: str) -> np.ndarray:
    """A shuffle's cards (two characters each) as codes 0–51, 52 for what is not a card
    (an odd last character too)."""
    if text.isascii() and len(text) % 2 == 0:
        raw = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
        return _CODE_OF_PAIR[raw[0::2].astype(np.uint16) << 8 | raw[1::2]]
    return np.array([RANK_SUIT.get(text[i:i + 2], UNKNOWN_CARD)
                     for i in range(0, len(text), 2)], dtype=np.uint8)


def window_hashes(codes: np.ndarray, width: int) -> np.ndarray:
    """The hash of each run of `width` codes: Σ (code + 1)·53^(width − 1 − k), wrapping at
    2**64. Made by doubling (the hash of a run of a + b cards is the first a's times 53^b
    plus the last b's), in a few passes over the cards instead of one a card."""
    count = len(codes) - width + 1
    if count <= 0:
        return np.zeros(0, dtype=np.uint64)
    ones = codes.astype(np.uint64) + np.uint64(1)  # runs of one card
    value, length = None, 0  # the hash of the first `length` cards of each run so far
    block, size = ones, 1  # runs of `size` cards, size a power of two
    remaining = width
    while remaining:
        if remaining & 1:
            if value is None:
                value, length = block, size
            else:
                value = (value[:len(value) - size] * np.uint64(pow(53, size, 1 << 64))
                         + block[length:length + len(value) - size])
                length += size
        remaining >>= 1
        if remaining:
            block = block[:len(block) - size] * np.uint64(pow(53, size, 1 << 64)) \
                + block[size:]
            size *= 2
    return value[:count]


class Spill:
    """Hashed runs of cards with their places, split by hash into parts: in memory when
    one part holds them all, else in files of a temporary folder."""

    def __init__(self, parts: int, folder: Path | None) -> None:
        self.bits = min(MOST_PART_BITS, max(0, (parts - 1).bit_length()))
        self.folder = folder
        self.held: list[np.ndarray] = []
        self.stack = ExitStack()  # the parts' files, open while runs are added
        self.files = ([self.stack.enter_context((folder / f"part{n}").open("wb"))
                       for n in range(1 << self.bits)] if self.bits else [])
        self.waiting = 0  # records held until they are split among the files

    def add(self, hashes: np.ndarray, places: np.ndarray) -> None:
        records = np.empty(len(hashes), dtype=_RECORD)
        records["hash"], records["place"] = hashes, places
        self.held.append(records)
        self.waiting += len(records)
        if self.bits and self.waiting >= SPILL_RECORDS:
            self._write()

    def _write(self) -> None:
        """The records held, split by their hash's part and appended to its file."""
        if not self.held:
            return
        records = np.concatenate(self.held)
        self.held, self.waiting = [], 0
        hashes = records["hash"]
        part = ((hashes * _MIX) >> np.uint64(64 - self.bits)).astype(np.uint16)
        order = np.argsort(part, kind="stable")  # a radix sort for 16-bit keys
        records = records[order]
        bounds = np.concatenate(([0], np.cumsum(np.bincount(part, minlength=len(self.files)))))
        for number, stream in enumerate(self.files):
            if bounds[number + 1] > bounds[number]:
                records[bounds[number]:bounds[number + 1]].tofile(stream)

    def parts(self) -> Iterator[np.ndarray]:
        if not self.bits:
            if self.held:
                yield np.concatenate(self.held)
            self.held = []
            return
        self._write()
        self.stack.close()
        for number in range(len(self.files)):
            path = self.folder / f"part{number}"
            yield np.fromfile(path, dtype=_RECORD)
            path.unlink()

    def close(self) -> None:
        self.stack.close()


def _same_hash(records: np.ndarray) -> Iterator[list[int]]:
    """The places of each hash held by two runs or more."""
    order = np.argsort(records["hash"])
    ranked = records["hash"][order]
    same = np.flatnonzero(ranked[1:] == ranked[:-1])  # p: ranked[p] == ranked[p + 1]
    del ranked
    if not len(same):
        return
    chosen = np.union1d(same, same + 1)  # ranks held by a shared hash
    at = dict(zip(chosen.tolist(), records["place"][order[chosen]].tolist(), strict=True))
    group: list[int] = []
    previous = -2
    for position in same.tolist():
        if position != previous + 1 and group:  # a new run of equal hashes
            yield group
            group = []
        if not group:
            group.append(at[position])
        group.append(at[position + 1])
        previous = position
    if group:
        yield group


class Shuffles:
    """The shuffles hashed: each one's (run, position, item) by its number, in memory or,
    for a spilled window, in a file read back only for the shuffles that matched."""

    def __init__(self, folder: Path | None) -> None:
        self.path = folder / "keys" if folder else None
        self.stack = ExitStack()
        self.stream = self.stack.enter_context(self.path.open("wb")) if self.path else None
        self.held: list[np.ndarray] = []
        self.count = 0

    def add(self, keys: list[tuple[int, int, int]]) -> None:
        array = np.array(keys, dtype=np.int64).view(_KEY).reshape(-1)
        self.count += len(array)
        if self.stream:
            array.tofile(self.stream)
        else:
            self.held.append(array)

    def keys_of(self, numbers: list[int]) -> dict[int, tuple[int, int, int]]:
        self.stack.close()
        self.stream = None
        every = (np.memmap(self.path, dtype=_KEY, mode="r") if self.path and self.count
                 else np.concatenate(self.held) if self.held else np.empty(0, dtype=_KEY))
        return {number: tuple(int(v) for v in every[number]) for number in numbers}

    def close(self) -> None:
        self.stack.close()


def anchor_length(width: int) -> int:
    """The cards of an anchor: `ANCHOR_CARDS`, or the whole run where runs are shorter."""
    return min(width, ANCHOR_CARDS)


def _codes_of(texts: list[str]) -> np.ndarray:
    joined = "".join(texts)
    if joined.isascii() and not any(len(text) & 1 for text in texts):
        return card_codes(joined)  # all at once: each text's pairs stay aligned
    return np.concatenate([card_codes(text) for text in texts])


def _hash_batch(texts: list[str], first: int, width: int, spill: Spill) -> int:
    """The anchors of a batch of shuffles (numbered from `first`) into `spill`; returns
    how many runs of `width` cards the batch holds.

    Winnowing (Schleimer, Wilkerson and Aiken, 2003): of the `width − k + 1` runs of k
    cards inside each run of `width` cards, the one of least hash (the last of equals) is
    its anchor. Which one that is depends on those `width` cards alone, so two equal runs
    of `width` cards choose the same anchor at the same place in each: every repeat
    shares an anchor, and about 2 / (width − k + 2) of the cards are anchors (a third for
    12 cards and anchors of 8)."""
    lengths = np.fromiter(((len(text) + 1) // 2 for text in texts), dtype=np.int64,
                          count=len(texts))
    every = _codes_of(texts)
    k = anchor_length(width)
    count = len(every) - width + 1  # runs of `width` cards from each place
    if count <= 0:
        return 0
    hashes = window_hashes(every, k)  # runs of k cards (across two shuffles: dropped)
    ends = np.cumsum(lengths)
    inside = np.ones(count, dtype=bool)  # runs of `width` cards within one shuffle
    across = (ends[:, None] - width + 1 + np.arange(width - 1)).ravel()
    inside[across[(across >= 0) & (across < count)]] = False
    places = np.arange(count + width - k, dtype=np.int64)
    least = hashes[:count].copy()
    for step in range(1, width - k + 1):
        np.minimum(least, hashes[step:step + count], out=least)
    chosen = places[:count].copy()
    for step in range(1, width - k + 1):  # the last place holding the least hash
        np.copyto(chosen, places[step:step + count], where=hashes[step:step + count] == least)
    anchored = np.zeros(len(every), dtype=bool)
    anchored[chosen[inside]] = True
    at = np.flatnonzero(anchored)
    shuffle = np.searchsorted(ends, at, side="right")
    offsets = (at - (ends - lengths)[shuffle]).astype(np.uint64)
    numbers = (shuffle + first).astype(np.uint64)
    spill.add(hashes[at], (numbers << np.uint64(32)) | offsets)
    return int(np.count_nonzero(inside))


def _candidates(spill: Spill) -> set[tuple[int, int]]:
    """Pairs of anchors of two shuffles with one hash: (place, place), place as spilled."""
    candidates: set[tuple[int, int]] = set()
    for records in spill.parts():
        for group in _same_hash(records):
            members = sorted(set(group))
            for i, first in enumerate(members):
                for second in members[i + 1:]:
                    if first >> 32 != second >> 32:
                        candidates.add((first, second))
    return candidates


def _runs_around(candidates: set[tuple[int, int]], codes: dict[int, np.ndarray],
                 k: int, width: int) -> set[tuple[int, int, int, int]]:
    """Every pair of equal runs of `width` cards through an anchor both share: the anchor's
    cards compared, then the run of equal cards around it found (both ways), and each run
    of `width` cards inside it named (a, x, b, y), a < b."""
    found: set[tuple[int, int, int, int]] = set()
    spans: dict[tuple[int, int, int], list[tuple[int, int]]] = {}  # (a, b, x − y): runs
    low = (1 << 32) - 1
    for first, second in sorted(candidates):
        a, x, b, y = first >> 32, first & low, second >> 32, second & low
        if a > b:
            a, x, b, y = b, y, a, x
        ours, theirs = codes[a], codes[b]
        if any(start <= x and x + k <= end for start, end in spans.get((a, b, x - y), ())):
            continue  # inside a run already found
        if not np.array_equal(ours[x:x + k], theirs[y:y + k]):
            continue  # another run of the same hash
        before = 0
        while x - before > 0 and y - before > 0 and ours[x - before - 1] == theirs[y - before - 1]:
            before += 1
        after = k
        while (x + after < len(ours) and y + after < len(theirs)
               and ours[x + after] == theirs[y + after]):
            after += 1
        start, end = x - before, x + after
        spans.setdefault((a, b, x - y), []).append((start, end))
        for offset in range(start, end - width + 1):
            found.add((a, offset, b, offset - (x - y)))
    return found


def _matches(engine: Engine, settings: Any, folder: Path | None,
             parts: int) -> tuple[set[tuple[int, int, int, int]], dict[int, Any], int, int]:
    """Every pair of equal runs of cards in two shuffles: (a, x, b, y) with a < b the
    shuffles' numbers and x, y the runs' first cards; the matched shuffles' rows by
    number; the runs and the shuffles hashed."""
    width = settings.window
    spill, shuffles = Spill(parts, folder), Shuffles(folder)
    windows = 0
    try:
        texts: list[str] = []
        keys: list[tuple[int, int, int]] = []
        size = 0
        for run_id, position, item, cards in trend_reads.shuffle_cards(
                engine, settings.since, settings.until, 2 * width):
            texts.append(cards)
            keys.append((run_id, position, item))
            size += len(cards)
            if size >= BATCH_CHARACTERS:
                windows += _hash_batch(texts, shuffles.count, width, spill)
                shuffles.add(keys)
                texts, keys, size = [], [], 0
        if texts:
            windows += _hash_batch(texts, shuffles.count, width, spill)
            shuffles.add(keys)
        candidates = _candidates(spill)
        numbers = sorted({place >> 32 for pair in candidates for place in pair})
        keys_of = shuffles.keys_of(numbers)
    finally:
        spill.close()
        shuffles.close()
    rows = trend_reads.shuffles_at(engine, keys_of.values())
    matched = {number: rows[key] for number, key in keys_of.items()}
    codes = {number: card_codes(row.cards) for number, row in matched.items()}
    found = _runs_around(candidates, codes, anchor_length(width), width)
    return found, matched, windows, shuffles.count


def _spaced(cards: str) -> str:
    return " ".join(cards[i:i + 2] for i in range(0, len(cards), 2))


def chance(length: int, decks: int, windows: int) -> tuple[float, float]:
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
    found = float(-math.expm1(-expected))
    if found < 1e-300:  # below a float's exact range: 0, with the logarithm beside it
        return 0.0, log_expected / math.log(10)
    return found, math.log10(found)


def _place(row: Any, index: int, name_table) -> dict[str, Any]:
    lines = lines_of(row.lines)
    marks = json.loads(row.rounds)
    round_id = None
    for start, identifier in marks:
        if start <= index or round_id is None:
            round_id = identifier
        if start > index:
            break
    return {"file": row.path, "round": round_id, "line": lines[index],
            "table": name_table(row.site, row.table_id), "shoe": row.shoe_id,
            "date": row.date}


def _key(row: Any) -> tuple[int, int, int]:
    return (row.run_id, row.position, row.item)


def repeats(engine: Engine, settings: Any, name_table, flagged: str,
            not_flagged: str) -> list[dict[str, Any]]:
    """Every sequence of `settings.window` or more cards that recurs in another shuffle."""
    width = settings.window
    characters = trend_reads.shuffle_characters(engine, settings.since, settings.until,
                                                2 * width)
    share = 2 / (width - anchor_length(width) + 2)  # of the cards, about, that anchor
    parts = max(1, math.ceil(characters / 2 * share / PART_WINDOWS))
    if parts == 1:
        matches, rows, windows, count = _matches(engine, settings, None, 1)
    else:
        with tempfile.TemporaryDirectory(prefix="bjh-trends-") as folder:
            matches, rows, windows, count = _matches(engine, settings, Path(folder), parts)
    if not count:
        return []
    # Each match by the shuffles' places in the store (run, input, shuffle): the earlier
    # first, as the store records them (the shuffles were read in no order).
    placed = set()
    for a, x, b, y in matches:
        first, second = _key(rows[a]), _key(rows[b])
        placed.add((first, x, second, y) if first < second else (second, y, first, x))
    by_key = {_key(row): row for row in rows.values()}
    entries = []
    for a, x, b, y in sorted(placed):
        if (a, x - 1, b, y - 1) in placed:
            continue  # inside a sequence already started
        length = width
        while (a, x + length - width + 1, b, y + length - width + 1) in placed:
            length += 1
        a, b = by_key[a], by_key[b]
        decks = max(a.decks or 8, b.decks or 8)
        odds, log10_odds = chance(length, decks, windows)
        places = sorted([_place(a, x, name_table), _place(b, y, name_table)],
                        key=lambda p: (p["date"] or "", p["file"], p["line"]))
        entries.append({
            "unit": {"kind": "repeat", "cards": length},
            "places": places,
            "cards": _spaced(a.cards[2 * x:2 * (x + length)]),
            "counts": {"cards": length, "shuffles": count, "windows": windows},
            "log10_p": round(log10_odds, 1),
            "statistic": {"name": "cards repeated in order", "value": length},
            "p": odds, "q": odds, "status": flagged if odds <= settings.fdr else not_flagged,
            "tested": (
                f"{length} cards dealt in the same order in two shuffles, among {windows:,} "
                f"runs of {width} cards in {count:,} shuffles. p is the chance of "
                f"any such repeat by chance among them (a bound, already over every pair: "
                "q = p)."),
            "not_proven": REPEAT_NOT_PROVEN,
        })
    return sorted(entries, key=lambda e: (-e["unit"]["cards"], e["places"][0]["file"]))
