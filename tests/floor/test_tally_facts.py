"""The tally's facts pinned on short records with counts worked out by hand: rounds per
dealer and hour, where each hour begins, dealer-player pairs, the players behind
findings' seats, the game math (naturals, dealer busts by up card, Lucky Ladies wins) and
the shuffled cards with their lines. Fast (a few records), so that a wrong change to
auditor/tally.py goes red here before the slow trends tests run."""

from __future__ import annotations

import sqlite3
from array import array
from pathlib import Path

import pytest

from auditor.audit import audit_file
from auditor.gaming_day import DEFAULT as DEFAULT_CALENDAR
from auditor.gaming_day import Calendar
from auditor.store.tallies import _in_gaming_days
from auditor.tally import ClosedShuffle, Tally, _stamp_and_hour, line_steps
from tests.helpers.audits import audit, findings_of, written

# Rounds 1-2: D-1 at 13:59 (day) and 14:00 (swing), players seated before the first round;
# round 1's s2 is paid 5 for 10 (a finding on s2). Round 3 (D-2, 14:30:00.250): s2 changes
# player before its wager, s3 sits between two wagers, s1's player leaves after hers and
# P-E takes the seat (she counts for this round, P-E from the next); s3 collected on a push
# (a finding on a seat sat in this round). Round 4 (22:10): ace up, soft 17 drawn under
# soft17=hit, busts. Round 5: no time (the shoe's date alone, no hour). Round 6 (next
# day 05:30): shuffled mid-round, a burn after it. Round 7: a plain round after it, in
# the new sequence. Round 8: a line that cannot be read (cards not counted, the sequence
# broken). Round 9 (D-3, 06:05): cards dealt to a seat (a problem: the deals are read from
# the statements, the seat's ace and king a natural). Round 10: a shuffle after the last
# card. Round 11: a problem and no card. Then a new shoe: a lone burn (not a sequence), two
# burns (a sequence of their own), a burn and round 12.
RECORD = """\
bjh 1
casino "Tally Casino" licence=TL-1
table T1 game=standard decks=6 seats=7 min=10 max=1000 currency=USD
option soft17=hit
shoe S1 date=2026-11-20
13:58:00 dealer D-1
13:58:01 shuffle
13:58:02 cut
13:58:03 burn 8d
round 1 time=13:59:10 dealer=D-1
13:59:10 sit s1 player=P-A
13:59:10 sit s2 player=P-B
13:59:11 bet s1h1 main 10
13:59:11 bet s2h1 main 10
13:59:12 deal s1h1 Ah
13:59:12 deal s2h1 9c
13:59:12 deal dealer Ts
13:59:12 deal s1h1 Kd
13:59:12 deal s2h1 7c
13:59:12 deal dealer 6h
13:59:13 peek
13:59:14 settle s1h1 main win 15
13:59:15 stand s2h1
13:59:16 reveal
13:59:17 draw 9d
13:59:18 settle s2h1 main win 5
end
round 2 time=14:00:05 dealer=D-1
14:00:05 bet s1h1 main 10
14:00:05 bet s2h1 main 10
14:00:06 deal s1h1 5h
14:00:06 deal s2h1 8c
14:00:06 deal dealer Ac
14:00:06 deal s1h1 5d
14:00:06 deal s2h1 Tc
14:00:06 deal dealer Kh
14:00:07 peek
14:00:08 reveal
14:00:09 settle s1h1 main lose 10
14:00:09 settle s2h1 main lose 10
end
round 3 time=14:30:00.250 dealer=D-2
14:30:00 leave s2
14:30:00 sit s2 player=P-D
14:30:01 bet s1h1 main 10
14:30:01 sit s3 player=P-C
14:30:01 bet s3h1 main 10
14:30:01 bet s2h1 main 10
14:30:01 leave s1
14:30:01 sit s1 player=P-E
14:30:02 deal s1h1 Th
14:30:02 deal s2h1 Ts
14:30:02 deal s3h1 Td
14:30:02 deal dealer 5c
14:30:02 deal s1h1 8h
14:30:02 deal s2h1 9h
14:30:02 deal s3h1 7d
14:30:02 deal dealer 6c
14:30:03 stand s1h1
14:30:03 stand s2h1
14:30:03 stand s3h1
14:30:04 reveal
14:30:05 draw 6d
14:30:06 settle s1h1 main win 10
14:30:06 settle s2h1 main win 10
14:30:06 settle s3h1 main lose 10
end
round 4 time=22:10:00 dealer=D-2
22:10:01 bet s1h1 main 10
22:10:02 deal s1h1 Tc
22:10:02 deal dealer As
22:10:02 deal s1h1 8c
22:10:02 deal dealer 6s
22:10:03 peek
22:10:04 stand s1h1
22:10:05 reveal
22:10:06 draw 5s
22:10:07 draw Th
22:10:08 settle s1h1 main win 10
end
round 5 dealer=D-2
bet s1h1 main 10
deal s1h1 2c
deal dealer 9s
deal s1h1 3c
deal dealer 8s
hit s1h1 Jc
stand s1h1
reveal
settle s1h1 main lose 10
end
round 6 date=2026-11-21 time=05:30:00 dealer=D-2
05:30:01 bet s1h1 main 10
05:30:02 deal s1h1 9c
05:30:02 deal dealer 7c
05:30:02 deal s1h1 2d
05:30:02 deal dealer Td
05:30:03 shuffle
05:30:04 cut
05:30:05 burn 4h
05:30:06 hit s1h1 9s
05:30:07 stand s1h1
05:30:08 reveal
05:30:09 settle s1h1 main win 10
end
round 7 date=2026-11-21 time=05:35:00 dealer=D-2
05:35:01 bet s1h1 main 10
05:35:02 deal s1h1 Tc
05:35:02 deal dealer 8c
05:35:02 deal s1h1 9c
05:35:02 deal dealer 9d
05:35:03 stand s1h1
05:35:04 reveal
05:35:05 settle s1h1 main win 10
end
round 8 date=2026-11-21 time=05:40:00 dealer=D-2
05:40:01 bet s1h1 main 10
05:40:02 deal s1h1 3s
05:40:02 frobnicate s1h1
05:40:02 deal dealer 4s
05:40:02 deal s1h1 5c
05:40:02 deal dealer 6s
05:40:03 stand s1h1
05:40:04 reveal
05:40:05 draw 9h
05:40:06 settle s1h1 main lose 10
end
round 9 date=2026-11-21 time=06:05:00 dealer=D-3
06:05:00 sit s5 player=P-X
06:05:01 bet s1h1 main 10
06:05:02 deal s1h1 Tc
06:05:02 deal s5 Ac
06:05:02 deal dealer Kc
06:05:02 deal s1h1 7h
06:05:02 deal s5 Kd
06:05:02 deal dealer 5d
06:05:03 peek
06:05:04 stand s1h1
06:05:05 reveal
06:05:06 draw 9c
06:05:07 settle s1h1 main win 10
end
round 10 date=2026-11-21 time=06:20:00 dealer=D-3
06:20:01 bet s1h1 main 10
06:20:02 deal s1h1 9s
06:20:02 deal dealer Ts
06:20:02 deal s1h1 9h
06:20:02 deal dealer 8s
06:20:03 peek
06:20:04 stand s1h1
06:20:05 reveal
06:20:06 settle s1h1 main lose 10
06:20:07 shuffle
06:20:08 cut
end
round 11 date=2026-11-21 time=07:00:00 dealer=D-3
07:00:01 bet s1h1 main 10
07:00:02 stand s6h1
07:00:03 settle s1h1 main void 10
end
shoe S2 date=2026-11-21
07:10:00 shuffle
07:10:01 burn 3h
07:10:02 shuffle
07:10:03 burn 4d
07:10:04 burn 5d
07:10:05 shuffle
07:10:06 burn 6d
round 12 date=2026-11-21 time=07:15:00 dealer=D-3
07:15:01 bet s1h1 main 10
07:15:02 deal s1h1 7s
07:15:02 deal dealer 7d
07:15:02 deal s1h1 7h
07:15:02 deal dealer Ad
07:15:03 peek
07:15:04 stand s1h1
07:15:05 reveal
07:15:06 settle s1h1 main lose 10
end
"""

SOFT17_STAND = """\
bjh 1
table T2 game=standard decks=6 min=10 max=1000
option soft17=stand
shoe S1 date=2026-11-20
round 1 time=10:00:00 dealer=soft17-stood
bet s1h1 main 10
deal s1h1 Tc
deal dealer Ac
deal s1h1 8c
deal dealer 6c
peek
stand s1h1
reveal
settle s1h1 main win 10
end
round 2 time=10:01:00 dealer=soft17-drew
bet s1h1 main 10
deal s1h1 Td
deal dealer Ad
deal s1h1 8d
deal dealer 6d
peek
stand s1h1
reveal
draw 5d
draw 9d
settle s1h1 main win 10
end
round 3 time=10:02:00 dealer=stood-on-15
bet s1h1 main 10
deal s1h1 Th
deal dealer Th
deal s1h1 8h
deal dealer 5h
peek
stand s1h1
reveal
settle s1h1 main win 10
end
round 4 time=10:03:00 dealer=drew-on-hard-17
bet s1h1 main 10
deal s1h1 Ts
deal dealer Ts
deal s1h1 8s
deal dealer 7s
peek
stand s1h1
reveal
draw 5s
settle s1h1 main win 10
end
round 5 time=10:04:00 dealer=six-up-busts
bet s1h1 main 10
deal s1h1 Kc
deal dealer 6c
deal s1h1 8c
deal dealer Kd
stand s1h1
reveal
draw 8d
settle s1h1 main win 10
end
round 6 time=10:05:00 dealer=ten-up-natural
bet s1h1 main 10
deal s1h1 Kh
deal dealer Kh
deal s1h1 8h
deal dealer Ah
peek
reveal
settle s1h1 main lose 10
end
round 7 time=10:06:00 dealer=no-live-hand
bet s1h1 main 10
deal s1h1 Ks
deal dealer 9s
deal s1h1 6s
deal dealer 7s
hit s1h1 Qs
settle s1h1 main lose 10
reveal
end
round 8 time=10:07:00 dealer=two-up-drew-thrice
bet s1h1 main 10
deal s1h1 Jc
deal dealer 2c
deal s1h1 8c
deal dealer 3c
stand s1h1
reveal
draw 4c
draw 5c
draw 9c
settle s1h1 main win 10
end
round 9 time=10:08:00 dealer=nine-up-drew-to-21
bet s1h1 main 10
deal s1h1 Jd
deal dealer 9d
deal s1h1 8d
deal dealer 7d
stand s1h1
reveal
draw 5d
settle s1h1 main lose 10
end
"""

SOFT17_HIT = """\
bjh 1
table T3 game=standard decks=6 min=10 max=1000
option soft17=hit
shoe S1 date=2026-11-20
round 1 time=10:00:00 dealer=soft17-stood
bet s1h1 main 10
deal s1h1 Tc
deal dealer Ac
deal s1h1 8c
deal dealer 6c
peek
stand s1h1
reveal
settle s1h1 main win 10
end
round 2 time=10:01:00 dealer=hard17-stood
bet s1h1 main 10
deal s1h1 Td
deal dealer 7d
deal s1h1 8d
deal dealer Kd
stand s1h1
reveal
settle s1h1 main win 10
end
round 3 time=10:02:00 dealer=drew-on-hard-17
bet s1h1 main 10
deal s1h1 Th
deal dealer Th
deal s1h1 8h
deal dealer 7h
peek
stand s1h1
reveal
draw 5h
settle s1h1 main win 10
end
round 4 time=10:03:00 dealer=soft17-drew-to-18
bet s1h1 main 10
deal s1h1 Ts
deal dealer As
deal s1h1 8s
deal dealer 6s
peek
stand s1h1
reveal
draw Ad
settle s1h1 main push 10
end
"""

TEN_STICKS = """\
bjh 1
table T31 game=tensticks decks=6 min=5 max=500
option tensticks.trade=yes
shoe 401 date=2026-11-20
round 1 time=22:01:00 dealer=player-traded
sit s2 player=P-7
bet s2h1 main 25
deal s2h1 9h
deal dealer 8s
deal s2h1 Tc
deal dealer 8d
trade s2h1 Jh
light s2 1
stand s2h1
reveal
draw Kc
settle s2h1 main win 25
end
round 2 time=22:02:00 dealer=dealer-traded
bet s2h1 main 25
deal s2h1 9d
deal dealer Tc
deal s2h1 9s
deal dealer 6d
trade dealer 5h
stand s2h1
reveal
draw Ts
settle s2h1 main lose 25
end
"""

# A hand dealt a third card by `deal`, in a round shuffled in and in a round with a problem
# (both read their deals from the statements): the hand is one trial
THIRD_DEAL = """\
bjh 1
table T4 game=standard decks=6 min=10 max=1000
shoe S1 date=2026-11-20
round 1 time=10:00:00 dealer=shuffled-third-deal
bet s1h1 main 10
deal s1h1 5c
deal dealer 9c
deal s1h1 6c
deal dealer 8c
deal s1h1 Tc
shuffle
cut
stand s1h1
reveal
settle s1h1 main win 10
end
round 2 time=10:01:00 dealer=problem-third-deal
bet s1h1 main 10
deal s1h1 5d
deal s4 Ad
deal dealer 9d
deal s1h1 6d
deal s4 Kd
deal dealer 8d
deal s1h1 Td
stand s1h1
reveal
settle s1h1 main win 10
end
"""

LADIES = """\
bjh 1
table T21 game=ladies decks=8 min=10 max=1000
option soft17=hit
option ladies.paytable=B
shoe T21-1 date=2026-11-20
round 1 time=18:03:14 dealer=D-1
sit s1 player=P-1
sit s2 player=P-2
sit s3 player=P-3
bet s1h1 main 10
bet s1 ladies 10
bet s2h1 main 10
bet s2 ladies 10
bet s3h1 main 10
deal s1h1 Tc
deal s2h1 5h
deal s3h1 4h
deal dealer 6c
bet s3 ladies 10
deal s1h1 Kc
deal s2h1 3s
deal s3h1 3h
deal dealer 6h
settle s1 ladies win 40
settle s2 ladies lose 10
settle s3 ladies void 10
stand s1h1
stand s2h1
stand s3h1
reveal
draw Tc
settle s1h1 main win 10
settle s2h1 main win 10
settle s3h1 main win 10
end
round 2 time=18:04:22 dealer=D-1
bet s1h1 main 10
bet s1 ladies 10
bet s2h1 main 10
bet s2 ladies 10
bet s3h1 main 10
bet s3 ladies 10
deal s1h1 9c
deal s2h1 Jd
deal s3h1 7h
deal dealer 9h
deal s1h1 7c
deal s2h1 Qd
deal s3h1 7d
deal dealer 8h
settle s1 ladies lose 10
settle s2 ladies win 40
settle s3 ladies push 10
stand s1h1
stand s2h1
stand s3h1
reveal
settle s1h1 main lose 10
settle s2h1 main win 10
settle s3h1 main lose 10
end
"""


def tally_of(tmp_path: Path, text: str) -> Tally:
    path = tmp_path / "record.bjh"
    path.write_text(text, encoding="utf-8")
    return audit_file(str(path), keep_evidence=False).tally


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Tally:
    return tally_of(tmp_path_factory.mktemp("tally"), RECORD)


def test_the_table_the_rule_and_the_rounds_by_dealer_and_hour(record: Tally) -> None:
    assert (record.site, record.table_id, record.decks, record.hits_soft_17) == (
        "TL-1", "T1", 6, True)
    # the local hour: the parent names the shift by the run's calendar
    assert list(record.rounds.items()) == [
        (("D-1", "2026-11-20 13", 13), 1),
        (("D-1", "2026-11-20 14", 14), 1),
        (("D-2", "2026-11-20 14", 14), 1),
        (("D-2", "2026-11-20 22", 22), 1),
        (("D-2", "2026-11-20", None), 1),  # no time: the date alone, no hour
        (("D-2", "2026-11-21 05", 5), 3),  # the unreadable round counts
        (("D-3", "2026-11-21 06", 6), 2),
        (("D-3", "2026-11-21 07", 7), 2)]
    # each hour's first round and last: its `round` line, ID and time (none for round 5)
    assert record.spans == {
        "2026-11-20 13": [10, "1", "13:59:10", 10, "1", "13:59:10"],
        "2026-11-20 14": [28, "2", "14:00:05", 42, "3", "14:30:00.250"],
        "2026-11-20 22": [68, "4", "22:10:00", 68, "4", "22:10:00"],
        "2026-11-20": [81, "5", None, 81, "5", None],
        "2026-11-21 05": [92, "6", "05:30:00", 116, "8", "05:40:00"],
        "2026-11-21 06": [128, "9", "06:05:00", 143, "10", "06:20:00"],
        "2026-11-21 07": [156, "11", "07:00:00", 169, "12", "07:15:00"]}


def test_pairs_count_the_player_seated_when_each_main_wager_was_placed(record: Tally
                                                                        ) -> None:
    assert list(record.pairs.items()) == [
        (("D-1", "P-A", "2026-11-20 13"), 1), (("D-1", "P-B", "2026-11-20 13"), 1),
        (("D-1", "P-A", "2026-11-20 14"), 1), (("D-1", "P-B", "2026-11-20 14"), 1),
        # round 3: in wager order s1, s3, s2; P-E sat at s1 after P-A's wager
        (("D-2", "P-A", "2026-11-20 14"), 1), (("D-2", "P-C", "2026-11-20 14"), 1),
        (("D-2", "P-D", "2026-11-20 14"), 1),
        (("D-2", "P-E", "2026-11-20 22"), 1), (("D-2", "P-E", "2026-11-20"), 1),
        (("D-2", "P-E", "2026-11-21 05"), 3), (("D-3", "P-E", "2026-11-21 06"), 2),
        (("D-3", "P-E", "2026-11-21 07"), 2)]


def test_the_player_behind_each_finding_on_a_seat(record: Tally) -> None:
    # P-C sat in round 3 itself; the findings on s5 (no player with a wager there) and on
    # s6 (nobody seated) and those on no seat name no player
    assert record.seats == [(26, "s2", "P-B"), (66, "s3", "P-C"), (152, "s1", "P-E")]


def test_the_game_math_of_the_record(record: Tally) -> None:
    assert list(record.game_counts()) == [
        # round 1: s1's ace and king a natural; ten up, 16, drew 9: a bust
        ("D-1", "2026-11-20 13", "player natural", None, 2, 1),
        ("D-1", "2026-11-20 13", "dealer natural", 10, 1, 0),
        ("D-1", "2026-11-20 13", "dealer bust", 10, 1, 1),
        # round 2: the dealer's ace and king, a natural (no bust counted)
        ("D-1", "2026-11-20 14", "player natural", None, 2, 0),
        ("D-1", "2026-11-20 14", "dealer natural", 1, 1, 1),
        # round 3: five up, 11, drew to 17
        ("D-2", "2026-11-20 14", "player natural", None, 3, 0),
        ("D-2", "2026-11-20 14", "dealer bust", 5, 1, 0),
        # round 4: ace up, soft 17 hit (the house rule), 12, then 22
        ("D-2", "2026-11-20 22", "player natural", None, 1, 0),
        ("D-2", "2026-11-20 22", "dealer natural", 1, 1, 0),
        ("D-2", "2026-11-20 22", "dealer bust", 1, 1, 1),
        ("D-2", "2026-11-20", "player natural", None, 1, 0),
        ("D-2", "2026-11-20", "dealer bust", 9, 1, 0),
        # rounds 6 and 7 (round 8 unreadable: not counted)
        ("D-2", "2026-11-21 05", "player natural", None, 2, 0),
        ("D-2", "2026-11-21 05", "dealer bust", 7, 1, 0),
        ("D-2", "2026-11-21 05", "dealer bust", 8, 1, 0),
        # round 9: s1h1 and the cards dealt to s5 (ace, king: a natural); round 10
        ("D-3", "2026-11-21 06", "player natural", None, 3, 1),
        ("D-3", "2026-11-21 06", "dealer natural", 10, 2, 0),
        ("D-3", "2026-11-21 06", "dealer bust", 10, 2, 1),
        ("D-3", "2026-11-21 07", "player natural", None, 1, 0),
        ("D-3", "2026-11-21 07", "dealer bust", 7, 1, 0)]


def test_the_shuffled_cards_in_shoe_order_with_their_lines(record: Tally) -> None:
    assert [(s.shoe_id, s.date, s.cards, s.lines, s.rounds) for s in record.shuffles] == [
        # the burn, then rounds 1-5 and round 6 up to its shuffle
        ("S1", "2026-11-20 13",
         "8dAh9cTsKd7c6h9d5h8cAc5dTcKhThTsTd5c8h9h7d6c6dTcAs8c6s5sTh2c9s3c8sJc9c7c2dTd",
         "[9,6,1,1,1,1,1,5,6,1,1,1,1,1,15,1,1,1,1,1,1,1,5,7,1,1,1,4,1,5,1,1,1,1,7,1,1,1]",
         '[[0,"1"],[8,"2"],[14,"3"],[23,"4"],[29,"5"],[34,"6"]]'),
        # round 6 after its shuffle (a burn and a hit), round 7; broken by round 8
        ("S1", "2026-11-21 05", "4h9sTc8c9c9d", "[100,1,7,1,1,1]", '[[0,"6"],[2,"7"]]'),
        # rounds 9 and 10, up to round 10's shuffle
        ("S1", "2026-11-21 06", "TcAcKc7hKd5d9c9sTs9h8s", "[131,1,1,1,1,1,4,5,1,1,1]",
         '[[0,"9"],[7,"10"]]'),
        # two burns between two shuffles (a lone burn before them is no sequence)
        (None, None, "4d5d", "[165,1]", "[]"),
        ("S2", "2026-11-21 07", "6d7s7d7hAd", "[168,3,1,1,1]", '[[0,"12"]]')]


@pytest.mark.parametrize(("text", "expected"), [
    (SOFT17_STAND, [
        # soft 17 stood on (the rule): counted, no bust
        ("soft17-stood", "2026-11-20 10", "player natural", None, 1, 0),
        ("soft17-stood", "2026-11-20 10", "dealer natural", 1, 1, 0),
        ("soft17-stood", "2026-11-20 10", "dealer bust", 1, 1, 0),
        # soft 17 drawn to against the rule: the end says nothing of the cards
        ("soft17-drew", "2026-11-20 10", "player natural", None, 1, 0),
        ("soft17-drew", "2026-11-20 10", "dealer natural", 1, 1, 0),
        # stopped at 15: not counted
        ("stood-on-15", "2026-11-20 10", "player natural", None, 1, 0),
        ("stood-on-15", "2026-11-20 10", "dealer natural", 10, 1, 0),
        # drew on a hard 17: not counted
        ("drew-on-hard-17", "2026-11-20 10", "player natural", None, 1, 0),
        ("drew-on-hard-17", "2026-11-20 10", "dealer natural", 10, 1, 0),
        ("six-up-busts", "2026-11-20 10", "player natural", None, 1, 0),
        ("six-up-busts", "2026-11-20 10", "dealer bust", 6, 1, 1),
        # a dealer natural with a ten up: no bust counted
        ("ten-up-natural", "2026-11-20 10", "player natural", None, 1, 0),
        ("ten-up-natural", "2026-11-20 10", "dealer natural", 10, 1, 1),
        # no live hand: the dealer did not have to play
        ("no-live-hand", "2026-11-20 10", "player natural", None, 1, 0),
        ("two-up-drew-thrice", "2026-11-20 10", "player natural", None, 1, 0),
        ("two-up-drew-thrice", "2026-11-20 10", "dealer bust", 2, 1, 1),
        ("nine-up-drew-to-21", "2026-11-20 10", "player natural", None, 1, 0),
        ("nine-up-drew-to-21", "2026-11-20 10", "dealer bust", 9, 1, 0)]),
    (SOFT17_HIT, [
        # soft 17 stood on where the house hits it: stopped short, not counted
        ("soft17-stood", "2026-11-20 10", "player natural", None, 1, 0),
        ("soft17-stood", "2026-11-20 10", "dealer natural", 1, 1, 0),
        ("hard17-stood", "2026-11-20 10", "player natural", None, 1, 0),
        ("hard17-stood", "2026-11-20 10", "dealer bust", 7, 1, 0),
        ("drew-on-hard-17", "2026-11-20 10", "player natural", None, 1, 0),
        ("drew-on-hard-17", "2026-11-20 10", "dealer natural", 10, 1, 0),
        # soft 17 drawn to by the rule, to a soft 18: counted
        ("soft17-drew-to-18", "2026-11-20 10", "player natural", None, 1, 0),
        ("soft17-drew-to-18", "2026-11-20 10", "dealer natural", 1, 1, 0),
        ("soft17-drew-to-18", "2026-11-20 10", "dealer bust", 1, 1, 0)]),
    (TEN_STICKS, [
        # a player's trade leaves the dealer's cards alone: counted
        ("player-traded", "2026-11-20 22", "player natural", None, 1, 0),
        ("player-traded", "2026-11-20 22", "dealer bust", 8, 1, 1),
        # the dealer traded: the up card as dealt counts, the end does not
        ("dealer-traded", "2026-11-20 22", "player natural", None, 1, 0),
        ("dealer-traded", "2026-11-20 22", "dealer natural", 10, 1, 0)]),
    (LADIES, [
        ("D-1", "2026-11-20 18", "player natural", None, 6, 0),
        ("D-1", "2026-11-20 18", "dealer bust", 6, 1, 1),
        ("D-1", "2026-11-20 18", "dealer bust", 9, 1, 0),
        # placed before the first card and won or lost: s1 and s2 of both rounds (s3's
        # wager placed after the first card, then pushed, is not a trial)
        ("D-1", "2026-11-20 18", "ladies win", None, 4, 2)]),
    (THIRD_DEAL, [
        ("shuffled-third-deal", "2026-11-20 10", "player natural", None, 1, 0),
        ("shuffled-third-deal", "2026-11-20 10", "dealer bust", 9, 1, 0),
        # s1h1 and the ace and king dealt to s4
        ("problem-third-deal", "2026-11-20 10", "player natural", None, 2, 1),
        ("problem-third-deal", "2026-11-20 10", "dealer bust", 9, 1, 0)]),
], ids=["soft17-stand", "soft17-hit", "tensticks", "ladies", "third-deal"])
def test_the_dealer_s_end_counts_only_by_the_drawing_rule(tmp_path: Path, text: str,
                                                          expected: list) -> None:
    assert list(tally_of(tmp_path, text).game_counts()) == expected


def test_the_default_shift_of_each_hour() -> None:
    """The default calendar names the run store's `findings.shift` column until the run's
    calendar does."""
    shift_of = DEFAULT_CALENDAR.shift
    shifts = {f"{hour:02d}:30:00": shift_of(f"{hour:02d}:30:00") for hour in range(24)}
    assert shifts == {f"{hour:02d}:30:00": "grave" if hour < 6 or hour >= 22
                      else "day" if hour < 14 else "swing" for hour in range(24)}
    assert [shift_of(text) for text in (None, "", "7", "ab:00", "05:59", "06:00", "13:59",
                                        "14:00", "21:59", "22:00")] == [
        None, None, None, None, "grave", "day", "day", "swing", "swing", "grave"]


def test_a_round_s_hour_stamp_and_local_hour() -> None:
    assert _stamp_and_hour("2026-11-20", "13:59:10") == ("2026-11-20 13", 13)
    assert _stamp_and_hour("2026-11-20", "13:00:00.500") == ("2026-11-20 13", 13)
    assert _stamp_and_hour("2026-11-21", "13:30:00") == ("2026-11-21 13", 13)
    assert _stamp_and_hour("2026-11-20", "00:10:00") == ("2026-11-20 00", 0)
    assert _stamp_and_hour("2026-11-20", None) == ("2026-11-20", None)
    assert _stamp_and_hour(None, "23:10:00") == (None, 23)  # no date: the hour alone
    assert _stamp_and_hour(None, None) == (None, None)


def test_line_steps_are_the_steps_from_the_line_before() -> None:
    assert line_steps(array("i", [9, 15, 16, 40])) == "[9,6,1,24]"
    assert line_steps(array("i", [7])) == "[7]"
    assert line_steps(array("i")) == "[]"


def test_a_piece_absorbed_adds_its_counts_and_joins_the_spans() -> None:
    first = Tally(site="TL-1", table_id="T1", decks=6, hits_soft_17=True)
    first.seats = [(26, "s2", "P-B")]
    first.spans = {"2026-11-20 13": [10, "1", "13:10:00", 60, "6", "13:40:00"]}
    first.game = {("D-1", "2026-11-20 13"): [2, 1, 1, 0, *[0] * 24]}
    first.shuffles = [ClosedShuffle("S1", "2026-11-20 13", "8dAh", "[9,6]", '[[0,"1"]]')]
    second = Tally(site="TL-1", table_id="T1", decks=6, hits_soft_17=True)
    second.seats = [(80, "s1", "P-A")]
    second.spans = {"2026-11-20 13": [70, "7", "13:45:00", 80, "8", "13:50:00"],
                    "2026-11-20 14": [90, "9", "14:00:00", 90, "9", "14:00:00"]}
    second.game = {("D-1", "2026-11-20 13"): [3, 1, 0, 0, 1, 1, *[0] * 22],
                   ("D-2", "2026-11-20 14"): [1, 0, *[0] * 24, 2, 1]}
    second.shuffles = [ClosedShuffle("S2", "2026-11-20 13", "5c6c", "[71,1]", '[[0,"7"]]')]
    first.absorb(second)
    assert first.seats == [(26, "s2", "P-B"), (80, "s1", "P-A")]
    # a span begins at the first piece's first round and ends at the later piece's last
    assert first.spans == {"2026-11-20 13": [10, "1", "13:10:00", 80, "8", "13:50:00"],
                           "2026-11-20 14": [90, "9", "14:00:00", 90, "9", "14:00:00"]}
    assert list(first.game_counts()) == [
        ("D-1", "2026-11-20 13", "player natural", None, 5, 2),
        ("D-1", "2026-11-20 13", "dealer natural", 1, 1, 0),
        ("D-1", "2026-11-20 13", "dealer natural", 10, 1, 1),
        ("D-2", "2026-11-20 14", "player natural", None, 1, 0),
        ("D-2", "2026-11-20 14", "ladies win", None, 2, 1)]
    assert [s.cards for s in first.shuffles] == ["8dAh", "5c6c"]
    assert (first.site, first.table_id, first.decks, first.hits_soft_17) == (
        "TL-1", "T1", 6, True)


def test_a_piece_without_rounds_leaves_the_table_and_an_empty_tally_takes_it() -> None:
    """A last piece may hold no round (a shoe, a shuffle, the close): its tally has no
    table, which must not replace the table of the pieces before it."""
    first = Tally(site="TL-1", table_id="T1", decks=6, hits_soft_17=True)
    first.absorb(Tally())
    assert (first.site, first.table_id, first.decks, first.hits_soft_17) == (
        "TL-1", "T1", 6, True)
    empty = Tally()
    empty.absorb(Tally(site="TL-2", table_id="T2", decks=8, hits_soft_17=True))
    assert (empty.site, empty.table_id, empty.decks, empty.hits_soft_17) == (
        "TL-2", "T2", 8, True)


UNDATED = """\
bjh 1
casino "Tally Casino" licence=TL-1
table T9 game=standard decks=6 min=10 max=1000
shoe S1
round 1 time=13:10:00 dealer=D-1
13:10:00 sit s1 player=P-A
13:10:01 bet s1h1 main 10
13:10:02 deal s1h1 Tc
13:10:02 deal dealer 9c
13:10:02 deal s1h1 8c
13:10:02 deal dealer 8d
13:10:03 stand s1h1
13:10:04 reveal
13:10:05 settle s1h1 main win 20
end
round 2 time=19:40:00 dealer=D-1
19:40:01 bet s1h1 main 10
19:40:02 deal s1h1 Td
19:40:02 deal dealer 9d
19:40:02 deal s1h1 8d
19:40:02 deal dealer 8h
19:40:03 stand s1h1
19:40:04 reveal
19:40:05 settle s1h1 main push 10
end
round 3 dealer=D-1
bet s1h1 main 10
deal s1h1 Th
deal dealer 9h
deal s1h1 8h
deal dealer 8s
stand s1h1
reveal
settle s1h1 main push 10
end
"""
TWO_SHIFTS = {"early": "06:00-18:00", "late": "18:00-06:00"}


def test_rounds_without_a_date_take_the_shift_of_the_run_s_calendar() -> None:
    """A round with a time but no date has no hour stamp: its shift comes from its hour,
    named by the run's shifts as its findings' are (it was the default spans' name, so
    that `trends` put such rounds under "day" and their findings under "early")."""
    tally = Tally()
    tally.rounds = {("D-1", None, 13): 2, ("D-1", None, 19): 1, ("D-1", None, None): 1,
                    ("D-1", "2026-11-20 13", 13): 4, ("D-1", "2026-11-21 01", 1): 8,
                    ("D-1", "2026-11-20", None): 16}
    rounds = _in_gaming_days(tally, Calendar.of(shifts=TWO_SHIFTS))[0]
    assert rounds == {("D-1", None, "early"): 2, ("D-1", None, "late"): 1,
                      ("D-1", None, None): 1, ("D-1", "2026-11-20", "early"): 4,
                      ("D-1", "2026-11-20", "late"): 8, ("D-1", "2026-11-20", None): 16}
    # the default calendar names the same hours as before
    rounds = _in_gaming_days(tally, Calendar.of())[0]
    assert rounds == {("D-1", None, "day"): 2, ("D-1", None, "swing"): 1,
                      ("D-1", None, None): 1, ("D-1", "2026-11-20", "day"): 4,
                      ("D-1", "2026-11-20", "grave"): 8, ("D-1", "2026-11-20", None): 16}


def test_an_undated_record_s_rounds_and_findings_share_the_run_s_shifts(tmp_path: Path
                                                                        ) -> None:
    settings = tmp_path / "settings.toml"
    settings.write_text('[shifts]\nearly = "06:00-18:00"\nlate = "18:00-06:00"\n',
                        encoding="utf-8")
    store = tmp_path / "store.sqlite"
    audit(written(tmp_path, UNDATED), out=tmp_path / "out", store=store,
          more=["--config", str(settings), "--fail-on", "never"])
    with sqlite3.connect(store) as connection:
        rounds = connection.execute(
            "select dealer, date, shift, rounds from tally_rounds order by item").fetchall()
    assert rounds == [("D-1", None, "early", 1), ("D-1", None, "late", 1),
                      ("D-1", None, None, 1)]
    found = [(f["line"], f["shift"]) for f in findings_of(tmp_path / "out")["findings"]]
    # s1's 18 against the dealer's 17: paid 20 for 10, then twice pushed
    assert found == [(14, "early"), (24, "late"), (34, None)]
