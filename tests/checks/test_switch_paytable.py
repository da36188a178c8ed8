"""The super match schedule of 20:18:15:30.09(18), for six and eight decks, over every hand
rank: what the replay expects, and what the audit reports when a win is paid otherwise."""

from __future__ import annotations

from decimal import Decimal

import pytest

from auditor import blackjack
from tests.helpers.audits import audit_record

# The first four cards of s1 (h1's two, then h2's two), by the rank they make.
HANDS = {
    "four of a kind": ("8h", "8c", "8d", "8s"),
    "two pair": ("8h", "3c", "3s", "8d"),
    "three of a kind": ("7h", "7c", "7d", "2s"),
    "pair": ("9h", "4c", "9d", "Kc"),
    None: ("Kh", "4c", "Qd", "7c"),  # a king and a queen are no pair: matched by rank
}
SCHEDULE = {  # (rank, decks) -> odds to 1; None: the wager loses
    ("four of a kind", 6): 40, ("four of a kind", 8): 50,
    ("two pair", 6): 8, ("two pair", 8): 7,
    ("three of a kind", 6): 5, ("three of a kind", 8): 5,
    ("pair", 6): 1, ("pair", 8): 1,
    (None, 6): None, (None, 8): None,
}
WAGER = Decimal(5)


def record(decks: int, cards: tuple[str, ...], outcome: str, amount: Decimal) -> str:
    """One round: s1 wagers 10 on each hand and 5 on the super match, settled as given."""
    first, second, third, fourth = cards
    return f"""bjh 1
table T1 game=switch decks={decks} min=5 max=500
shoe 1 date=2026-11-21
shuffle
cut
round 1 dealer=D-1
bet s1h1 main 10
bet s1h2 main 10
bet s1 supermatch {WAGER}
deal s1h1 {first}
deal s1h2 {second}
deal dealer 9d
deal s1h1 {third}
deal s1h2 {fourth}
deal dealer Ts
settle s1 supermatch {outcome} {amount}
stand s1h1
stand s1h2
reveal
settle s1h1 main {main_outcome(first, third)}
settle s1h2 main {main_outcome(second, fourth)}
end
"""


def main_outcome(*cards: str) -> str:
    """The main wager's settlement against the dealer's 19, so only the super match is judged."""
    total = blackjack.total(cards)[0]
    return f"{'win' if total > 19 else 'lose' if total < 19 else 'push'} 10"


def round_findings(tmp_path, text: str) -> list:
    return audit_record(tmp_path, text, "round.bjh").findings


@pytest.mark.parametrize(("rank", "decks"), list(SCHEDULE), ids=[f"{r}-{d}" for r, d in SCHEDULE])
def test_the_schedule_pays_each_rank(tmp_path, rank: str | None, decks: int) -> None:
    odds = SCHEDULE[(rank, decks)]
    assert blackjack.super_match(list(HANDS[rank])) == rank
    if rank is not None:
        assert blackjack.SUPER_MATCH_SCHEDULE[decks][rank] == odds
    outcome, amount = ("win", WAGER * odds) if odds else ("lose", WAGER)
    assert round_findings(tmp_path, record(decks, HANDS[rank], outcome, amount)) == []


@pytest.mark.parametrize(("rank", "decks"), [k for k, v in SCHEDULE.items() if v],
                         ids=[f"{r}-{d}" for (r, d), v in SCHEDULE.items() if v])
def test_a_win_paid_one_unit_more_is_a_pay_table_finding(tmp_path, rank: str,
                                                        decks: int) -> None:
    owed = WAGER * SCHEDULE[(rank, decks)]
    findings = round_findings(tmp_path, record(decks, HANDS[rank], "win", owed + WAGER))
    assert [(f.citation, f.round, f.line) for f in findings] == [
        ("20:18:15:30.09(18)", "1", 16)]
    assert (findings[0].expected, findings[0].actual, findings[0].difference) == (
        owed, owed + WAGER, WAGER)


@pytest.mark.parametrize("rank", ["four of a kind", "two pair"])
def test_the_other_deck_counts_odds_are_wrong(tmp_path, rank: str) -> None:
    """Four of a kind and two pair differ between the schedules: paying one table's odds
    at the other table is a finding, in both directions."""
    for decks, other in ((6, 8), (8, 6)):
        paid = WAGER * SCHEDULE[(rank, other)]
        findings = round_findings(tmp_path, record(decks, HANDS[rank], "win", paid))
        assert [(f.citation, f.line, f.expected, f.actual) for f in findings] == [
            ("20:18:15:30.09(18)", 16, WAGER * SCHEDULE[(rank, decks)], paid)]


@pytest.mark.parametrize("decks", [6, 8])
def test_only_the_highest_hand_is_paid(tmp_path, decks: int) -> None:
    """Four of a kind also holds pairs, and two pair two pairs: only the highest is paid."""
    four = WAGER * SCHEDULE[("four of a kind", decks)]
    summed = four + WAGER * (SCHEDULE[("two pair", decks)] + SCHEDULE[("pair", decks)])
    findings = round_findings(tmp_path, record(decks, HANDS["four of a kind"], "win", summed))
    assert [(f.citation, f.expected, f.actual) for f in findings] == [
        ("20:18:15:30.09(18)", four, summed)]


@pytest.mark.parametrize("rank", [r for r in HANDS if r is not None])
def test_a_matched_hand_collected_is_an_outcome_finding(tmp_path, rank: str) -> None:
    findings = round_findings(tmp_path, record(6, HANDS[rank], "lose", WAGER))
    assert [(f.citation, f.line, f.expected, f.actual) for f in findings] == [
        ("20:18:15:30.09(6)", 16, WAGER * SCHEDULE[(rank, 6)], -WAGER)]


def test_the_ranking_of_30_09_1() -> None:
    """Four of a kind, two pair, three of a kind, pair: highest to lowest, in both schedules."""
    order = ["four of a kind", "two pair", "three of a kind", "pair"]
    for decks in (6, 8):
        odds = [blackjack.SUPER_MATCH_SCHEDULE[decks][rank] for rank in order]
        assert odds == sorted(odds, reverse=True)
