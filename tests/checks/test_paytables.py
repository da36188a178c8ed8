"""Pay tables and house rules across every option value, through the real pipeline.

Each test writes a small record, audits it and asserts the exact findings (citation,
round, line). What is owed is written out here from the regulation, not taken from the
auditor's own tables, so that a wrong table in the code fails a test.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from auditor import blackjack
from auditor.audit import audit_file

# 20:18:15:30.10(12), as printed in the regulation: up-card class -> odds on tables 1..4.
DB21_REGULATION = {
    "A": (10, 15, 2, 4),
    "TJQK": (4, 4, 2, 2),
    "789": (2, 2, 2, 4),
    "23456": (1, 1, 2, 1),
}
RANK_VALUE = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10, **{str(n): n for n in range(2, 10)}}


def reference_total(cards: list[str]) -> tuple[int, bool]:
    """(total, soft), written independently of auditor.blackjack."""
    count = sum(RANK_VALUE[card[0]] for card in cards)
    if any(card[0] == "A" for card in cards) and count + 10 <= 21:
        return count + 10, True
    return count, False


def must_draw(cards: list[str], soft17: str) -> bool:
    total, soft = reference_total(cards)
    return total < 17 or (total == 17 and soft and soft17 == "hit")


class Record:
    """A record built line by line; `mark` remembers the line number of a statement."""

    def __init__(self, game: str = "standard", decks: int = 6, **options: str) -> None:
        self.lines = ["bjh 1", f"table T1 game={game} decks={decks} min=5 max=1000"]
        self.lines += [f"option {key.replace('_', '.')}={value}" for key, value in options.items()]
        self.lines += ["shoe S1", "shuffle", "cut"]
        self.marks: dict[str, int] = {}

    def add(self, *statements: str, mark: str | None = None) -> Record:
        self.lines.extend(statements)
        if mark is not None:
            self.marks[mark] = len(self.lines)
        return self

    def audit(self, tmp_path: Path) -> set[tuple[str, str | None, int]]:
        path = tmp_path / "record.bjh"
        path.write_text("\n".join(self.lines) + "\n", encoding="utf-8")
        result = audit_file(str(path), keep_evidence=False)
        return {(f.citation, f.round, f.line) for f in result.findings}

    def findings(self, tmp_path: Path):
        path = tmp_path / "record.bjh"
        path.write_text("\n".join(self.lines) + "\n", encoding="utf-8")
        return audit_file(str(path), keep_evidence=False).findings


def money(amount: Decimal) -> str:
    return f"{amount:f}"


# ---------------------------------------------------------------- blackjack odds (:06)

@pytest.mark.parametrize(("declared", "decks", "owed"), [
    (None, 6, "1.5"), ("3:2", 1, "1.5"), ("3:2", 2, "1.5"), ("3:2", 6, "1.5"), ("3:2", 8, "1.5"),
    ("6:5", 1, "1.2"), ("6:5", 2, "1.5"), ("6:5", 6, "1.5"), ("6:5", 8, "1.5"),
    ("1:1", 1, "1.2"), ("1:1", 6, "1.5"), ("1:1", 8, "1.5"),
])
@pytest.mark.parametrize("game", ["standard", "db21"])
def test_blackjack_is_paid_the_declared_odds_never_under_the_floor(
        tmp_path: Path, game: str, declared: str | None, decks: int, owed: str) -> None:
    options = {"blackjack": declared} if declared else {}
    if game == "db21":
        options["db21_paytable"] = "1"
    wager = Decimal(20)
    for paid, faulty in ((wager * Decimal(owed), False), (wager, True),
                         (wager * Decimal(owed) + 1, True)):
        record = Record(game, decks, **options).add(
            "round 1", "bet s1h1 main 20", "deal s1h1 Ah", "deal dealer 9c", "deal s1h1 Kd",
            "deal dealer 9s", "peek")
        record.add(f"settle s1h1 main win {money(paid)}", mark="settle")
        record.add("reveal", "end")
        expected = {("20:18:15:06", "1", record.marks["settle"])} if faulty else set()
        assert record.audit(tmp_path) == expected, (paid, declared, decks)


@pytest.mark.parametrize(("declared", "decks", "owed"), [
    ("3:2", 1, "3:2"), ("6:5", 1, "6:5"), ("1:1", 1, "6:5"),
    ("3:2", 6, "3:2"), ("6:5", 6, "3:2"), ("1:1", 8, "3:2"),
])
def test_owed_blackjack_odds(declared: str, decks: int, owed: str) -> None:
    assert blackjack.owed_blackjack_odds(declared, decks) == owed


# ---------------------------------------------------------------- the dealer's rule (:26, :28)

DEALER_HANDS = [
    ["Th", "6c"],              # hard 16
    ["Th", "7c"],              # hard 17
    ["6h", "Ac"],              # soft 17
    ["Ah", "6c"],              # soft 17, ace up
    ["5h", "Ac", "Ad"],        # soft 17 in three cards
    ["Ah", "5c", "Td", "Ac"],  # hard 17 in four cards
    ["Ah", "7c"],              # soft 18
    ["9h", "Kc"],              # hard 19
    ["2h", "4c", "Ad"],        # soft 17 after a draw to 6
]


def _dealer_round(soft17: str, dealer: list[str], extra: str | None = None) -> Record:
    """s1h1 stands on 18; the dealer takes its cards, then maybe one card more."""
    record = Record(soft17=soft17).add(
        "round 1", "bet s1h1 main 10", "deal s1h1 Tc", f"deal dealer {dealer[0]}",
        "deal s1h1 8d", f"deal dealer {dealer[1]}")
    if dealer[0][0] in "ATJQK":
        record.add("peek")
    record.add("stand s1h1")
    record.add("reveal", mark="reveal")
    for card in dealer[2:]:
        record.add(f"draw {card}", mark="last-draw")
    final = list(dealer)
    if extra is not None:
        record.add(f"draw {extra}", mark="extra")
        final.append(extra)
    total, _ = reference_total(final)
    outcome = ("win 10" if total > 21 or total < 18 else "lose 10" if total > 18 else "push 10")
    record.add(f"settle s1h1 main {outcome}", "end")
    return record


@pytest.mark.parametrize("soft17", ["hit", "stand"])
@pytest.mark.parametrize("dealer", DEALER_HANDS, ids=lambda cards: "-".join(cards))
def test_dealer_stops_where_the_house_rule_lets_it(tmp_path: Path, soft17: str,
                                                  dealer: list[str]) -> None:
    record = _dealer_round(soft17, dealer)
    stop = record.marks.get("last-draw", record.marks["reveal"])
    expected = {("20:18:15:26", "1", stop)} if must_draw(dealer, soft17) else set()
    assert record.audit(tmp_path) == expected


@pytest.mark.parametrize("soft17", ["hit", "stand"])
@pytest.mark.parametrize("dealer", [h for h in DEALER_HANDS if reference_total(h)[0] >= 17],
                         ids=lambda cards: "-".join(cards))
def test_a_card_drawn_on_a_standing_total_is_an_irregularity(tmp_path: Path, soft17: str,
                                                             dealer: list[str]) -> None:
    # A ten after any of these leaves a total on which every house stands (or a bust).
    record = _dealer_round(soft17, dealer, extra="Ts")
    expected = set() if must_draw(dealer, soft17) else {("20:18:15:28", "1",
                                                         record.marks["extra"])}
    assert record.audit(tmp_path) == expected


@pytest.mark.parametrize("soft17", ["hit", "stand"])
def test_dealer_must_draw_matches_the_reference(soft17: str) -> None:
    for first in RANK_VALUE:
        for second in RANK_VALUE:
            for third in [None, *RANK_VALUE]:
                cards = [first + "c", second + "d"] + ([third + "h"] if third else [])
                assert blackjack.dealer_must_draw(cards, soft17 == "hit") == must_draw(
                    cards, soft17), cards


# ---------------------------------------------------------------- peek (:06 with :24, :25)

@pytest.mark.parametrize("peek", ["yes", "no"])
@pytest.mark.parametrize(("hand", "settle", "faulty"), [
    ("double", "lose 20", False), ("double", "lose 40", True), ("double", "push 40", True),
    # returning 20 of the 40 staked is the same money as collecting the original 20
    ("double", "push 20", False),
    ("split-first", "lose 20", False), ("split-first", "lose 40", True),
    ("split-new", "push 40", False), ("split-new", "lose 20", True),
    ("split-new", "lose 40", True), ("split-new", "push 20", True),
    ("plain", "lose 20", False), ("plain", "push 20", True),
])
def test_a_dealer_blackjack_collects_only_original_wagers(
        tmp_path: Path, peek: str, hand: str, settle: str, faulty: bool) -> None:
    record = Record(peek=peek).add(
        "round 1", "bet s1h1 main 20", "deal s1h1 8c", "deal dealer Ah", "deal s1h1 8d",
        "deal dealer Kh")
    if peek == "yes":
        record.add("peek")
    if hand == "double":
        record.add("double s1h1 20 3c", "reveal")
        record.add(f"settle s1h1 main {settle}", mark="settle")
    elif hand == "plain":
        record.add("stand s1h1", "reveal")
        record.add(f"settle s1h1 main {settle}", mark="settle")
    else:
        record.add("split s1h1 s1h2 20", "hit s1h1 Tc", "stand s1h1", "hit s1h2 3d",
                   "double s1h2 20 9s", "reveal")
        first, new = (settle, "push 40") if hand == "split-first" else ("lose 20", settle)
        record.add(f"settle s1h2 main {new}", mark="settle" if hand == "split-new" else None)
        record.add(f"settle s1h1 main {first}", mark="settle" if hand == "split-first" else None)
    record.add("end")
    expected = {("20:18:15:06", "1", record.marks["settle"])} if faulty else set()
    assert record.audit(tmp_path) == expected


def test_the_short_collection_is_reported_with_its_difference(tmp_path: Path) -> None:
    record = Record(peek="no").add(
        "round 1", "bet s1h1 main 20", "deal s1h1 6c", "deal dealer Ah", "deal s1h1 5d",
        "deal dealer Kh", "double s1h1 20 3c", "reveal", "settle s1h1 main lose 40", "end")
    [finding] = record.findings(tmp_path)
    assert (finding.citation, finding.expected, finding.actual, finding.difference) == (
        "20:18:15:06", Decimal(-20), Decimal(-40), Decimal(-20))


# ---------------------------------------------------------------- doubling (:24)

TWO_CARD_HANDS = {
    "hard-8": ("5c", "3d", 8), "hard-9": ("5c", "4d", 9), "hard-10": ("6c", "4d", 10),
    "hard-11": ("6c", "5d", 11), "hard-12": ("7c", "5d", 12), "soft-13": ("Ac", "2d", 13),
    "soft-19": ("Ac", "8d", 19), "hard-20": ("Tc", "Kd", 20),
}
DOUBLE_ALLOWED = {"any": set(range(4, 22)), "9-11": {9, 10, 11}, "10-11": {10, 11}}


@pytest.mark.parametrize("option", ["any", "9-11", "10-11"])
@pytest.mark.parametrize("hand", TWO_CARD_HANDS)
def test_doubles_are_held_to_the_house_totals(tmp_path: Path, option: str, hand: str) -> None:
    first, second, total = TWO_CARD_HANDS[hand]
    record = Record(double=option).add(
        "round 1", "bet s1h1 main 20", f"deal s1h1 {first}", "deal dealer 7h",
        f"deal s1h1 {second}", "deal dealer Ts")
    record.add("double s1h1 20 2h", mark="double")
    final, _ = reference_total([first, second, "2h"])
    outcome = ("lose 40" if final > 21 or final < 17 else "win 40" if final > 17
               else "push 40")
    record.add("reveal", f"settle s1h1 main {outcome}", "end")
    allowed = total in DOUBLE_ALLOWED[option]
    expected = set() if allowed else {("20:18:15:24", "1", record.marks["double"])}
    assert record.audit(tmp_path) == expected


@pytest.mark.parametrize("das", ["yes", "no"])
@pytest.mark.parametrize("which", ["first", "new", "unsplit"])
def test_double_after_split_follows_das(tmp_path: Path, das: str, which: str) -> None:
    record = Record(das=das).add("round 1", "bet s1h1 main 20", "bet s2h1 main 20",
                                 "deal s1h1 8c", "deal s2h1 6c", "deal dealer 7h",
                                 "deal s1h1 8d", "deal s2h1 5c", "deal dealer Ts",
                                 "split s1h1 s1h2 20", "hit s1h1 2h")
    if which == "first":
        record.add("double s1h1 20 Ts", mark="double")
    else:
        record.add("hit s1h1 Ts", "stand s1h1")
    record.add("hit s1h2 3h")
    if which == "new":
        record.add("double s1h2 20 Th", mark="double")
    else:
        record.add("hit s1h2 Th")
    if which == "unsplit":
        record.add("double s2h1 20 9d", mark="double")
    else:
        record.add("hit s2h1 9d")
    doubled = {"first": "s1h1", "new": "s1h2", "unsplit": "s2h1"}[which]
    record.add("reveal")
    for name in ("s2h1", "s1h2", "s1h1"):
        record.add(f"settle {name} main win {40 if name == doubled else 20}")
    record.add("end")
    faulty = das == "no" and which != "unsplit"
    expected = {("20:18:15:24", "1", record.marks["double"])} if faulty else set()
    assert record.audit(tmp_path) == expected


# ---------------------------------------------------------------- splitting (:25)

@pytest.mark.parametrize("limit", [1, 2, 3])
@pytest.mark.parametrize("splits", [1, 2, 3, 4])
def test_splits_are_held_to_the_house_limit(tmp_path: Path, limit: int, splits: int) -> None:
    record = Record(splits=str(limit)).add(
        "round 1", "bet s1h1 main 20", "deal s1h1 8c", "deal dealer 7h", "deal s1h1 8d",
        "deal dealer Ts")
    split_lines = []
    for number in range(2, splits + 2):
        record.add(f"split s1h1 s1h{number} 20", mark=f"split{number}")
        split_lines.append(record.marks[f"split{number}"])
        # the next card makes a pair again while splits remain, else a ten (18)
        record.add(f"hit s1h1 {'8h' if number < splits + 1 else 'Tc'}")
    record.add("stand s1h1")
    for number in range(splits + 1, 1, -1):
        record.add(f"hit s1h{number} Jc", f"stand s1h{number}")
    record.add("reveal")
    for number in range(splits + 1, 0, -1):
        record.add(f"settle s1h{number} main win 20")
    record.add("end")
    expected = {("20:18:15:25", "1", line) for line in split_lines[limit:]}
    assert record.audit(tmp_path) == expected


# ---------------------------------------------------------------- surrender (:30)

@pytest.mark.parametrize("option", ["no", "late"])
@pytest.mark.parametrize(("collected", "short"), [("10", False), ("20", True), ("5", True)])
def test_surrender_follows_the_house_rule_and_collects_half(
        tmp_path: Path, option: str, collected: str, short: bool) -> None:
    record = Record(surrender=option).add(
        "round 1", "bet s1h1 main 20", "deal s1h1 Tc", "deal dealer Th", "deal s1h1 6d",
        "deal dealer 9s", "peek")
    record.add("surrender s1h1", mark="surrender")
    record.add(f"settle s1h1 main lose {collected}", mark="settle")
    record.add("reveal", "end")
    expected = set()
    if option == "no":
        expected.add(("20:18:15:30", "1", record.marks["surrender"]))
    if short:
        expected.add(("20:18:15:30", "1", record.marks["settle"]))
    assert record.audit(tmp_path) == expected


# ---------------------------------------------------------------- DB21 pay tables (30.10(12))

def _bust_from(up: str) -> list[str]:
    """A hole card and draws with which the dealer, showing `up`, must draw and then busts."""
    hole = {"A": "5", "T": "6", "J": "6", "Q": "6", "K": "6"}.get(up)
    if hole is None:
        hole = "T" if RANK_VALUE[up] <= 6 else str(16 - RANK_VALUE[up])
    cards = [up + "s", hole + "d"]
    while reference_total(cards)[0] <= 21:
        assert must_draw(cards, "stand")
        cards.append("Tc")
    return cards


UP_CARDS = "A23456789TJQK"


def _odds(table: int, up: str) -> int:
    return next(odds[table - 1] for ranks, odds in DB21_REGULATION.items() if up in ranks)


def _db21_round(table: int, decks: int, up: str, db21_settle: str) -> Record:
    dealer = _bust_from(up)
    record = Record("db21", decks, db21_paytable=str(table)).add(
        "round 1", "bet s1h1 main 10", "bet s1 db21 10", "deal s1h1 Tc",
        f"deal dealer {dealer[0]}", "deal s1h1 7d", f"deal dealer {dealer[1]}")
    if up in "ATJQK":
        record.add("peek")
    record.add("stand s1h1", "reveal", *(f"draw {card}" for card in dealer[2:]),
               "settle s1h1 main win 10")
    record.add(f"settle s1 db21 {db21_settle}", mark="db21")
    return record.add("end")


@pytest.mark.parametrize("decks", [6, 8])
@pytest.mark.parametrize("table", [1, 2, 3, 4])
@pytest.mark.parametrize("up", UP_CARDS)
def test_db21_pays_the_declared_table_by_the_up_card(tmp_path: Path, decks: int, table: int,
                                                     up: str) -> None:
    owed = 10 * _odds(table, up)
    assert _db21_round(table, decks, up, f"win {owed}").audit(tmp_path) == set()
    for paid in (owed - 10, owed + 10):
        if paid <= 0:
            continue
        record = _db21_round(table, decks, up, f"win {paid}")
        assert record.audit(tmp_path) == {("20:18:15:30.10(12)", "1", record.marks["db21"])}
    record = _db21_round(table, decks, up, "lose 10")
    assert record.audit(tmp_path) == {("20:18:15:30.10(5)", "1", record.marks["db21"])}


@pytest.mark.parametrize("table", [1, 2, 3, 4])
@pytest.mark.parametrize("up", UP_CARDS)
def test_db21_odds_function_matches_the_regulation(table: int, up: str) -> None:
    assert blackjack.db21_odds(table, up + "h") == _odds(table, up)


@pytest.mark.parametrize("table", [1, 2, 3, 4])
def test_db21_loses_on_every_table_when_the_dealer_stands(tmp_path: Path, table: int) -> None:
    for settle, faulty in (("lose 10", False), ("win 10", True), (f"win {10 * _odds(table, 'A')}",
                                                                 True)):
        record = Record("db21", 6, db21_paytable=str(table)).add(
            "round 1", "bet s1h1 main 10", "bet s1 db21 10", "deal s1h1 Tc", "deal dealer Ah",
            "deal s1h1 7d", "deal dealer 8d", "peek", "stand s1h1", "reveal")
        record.add(f"settle s1 db21 {settle}", mark="db21")
        record.add("settle s1h1 main lose 10", "end")
        expected = {("20:18:15:30.10(5)", "1", record.marks["db21"])} if faulty else set()
        assert record.audit(tmp_path) == expected


# ---------------------------------------------------------------- deck counts

@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_a_card_seen_more_often_than_the_decks_hold(tmp_path: Path, decks: int) -> None:
    record = Record(decks=decks, blackjack="6:5" if decks == 1 else "3:2").add(
        "round 1", "bet s1h1 main 10")
    for copy in range(1, decks + 3):
        record.add("burn Qh", mark=f"burn{copy}")
    record.add("deal s1h1 Tc", "deal dealer 9h", "deal s1h1 8d", "deal dealer Ts",
               "stand s1h1", "reveal", "settle s1h1 main lose 10", "end")
    # one finding per card and round, where the count is first exceeded
    assert record.audit(tmp_path) == {("record:card-count", "1",
                                       record.marks[f"burn{decks + 1}"])}
