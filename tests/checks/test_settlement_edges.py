"""Hostile review of the checks' second pass (issue 44, checks4): MainPayout judging every
wager in one pass (a push then a wrong payout, two wrong payouts, a split and a double),
Dealer Bust 21's judged wagers found once a round (a DB21 wager settled twice, a player at
two seats) and TuckBustedHand's bust card taken from the hand's cards (a bust on a double
card and on a split hand's card, a tuck after a later hit). The findings pinned are those
52bdaf6, before the pass, gives for the same records, with one job and with two."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.finding_rows import finding_rows
from tests.helpers.review_record import RECORD

STANDARD = RECORD

STANDARD_FINDINGS = [
    ('20:18:15:06', '1', 32,
     'The main wager on s2h1 was paid 30.00; it should be returned in '
     "full (push): 18 against the dealer's 18 pushes."),
    ('20:18:15:06', '1', 33,
     'The main wager on s3h1 was paid 25.00; it should lose 30.00: 17 '
     "loses to the dealer's 18."),
    ('20:18:15:26', '2', 49,
     'The dealer stopped at 16 with live wagers on the table; read as '
     'dealer procedure (the text of 20:18:15:26 is not on file), the '
     'dealer draws to 17 or more.'),
    ('20:18:15:06', '2', 51,
     'The main wager on s1h1 was paid 10.00; it should be paid 20.00: 21'
     " beats the dealer's 16."),
]

DB21 = """\
bjh 1
casino "Simulated Casino" licence=RL-SIM-01
table T01-01 game=db21 decks=6 seats=7 min=10 max=1000 currency=USD
option soft17=stand
option peek=yes
option blackjack=3:2
option double=any
option das=yes
option splits=3
option surrender=late
option db21.paytable=1
option sidebet.min=5
18:00:00 shoe D4-1 date=2026-11-20
18:00:01 dealer D-7
18:00:02 shuffle
18:00:03 cut
18:00:04 burn 8d
round 1 time=18:01:00 dealer=D-7
18:01:01 sit s1 player=P-1
18:01:02 sit s2 player=P-1
18:01:03 sit s3 player=P-3
18:01:04 bet s1h1 main 10
18:01:05 bet s1 db21 10
18:01:06 bet s2h1 main 20
18:01:07 bet s2 db21 5
18:01:08 bet s3h1 main 30
18:01:09 deal s1h1 6c
18:01:10 deal s2h1 8c
18:01:11 deal s3h1 Th
18:01:12 deal dealer 6h
18:01:13 deal s1h1 5c
18:01:14 deal s2h1 8d
18:01:15 deal s3h1 4s
18:01:16 deal dealer Ts
18:01:17 double s1h1 10 Kd
18:01:18 split s2h1 s2h2 20
18:01:19 deal s2h1 5h
18:01:20 deal s2h2 6d
18:01:21 hit s2h1 9d
18:01:22 settle s2h1 main lose 20
18:01:23 hit s2h2 Kc
18:01:24 hit s3h1 Qc
18:01:25 tuck s2h1
18:01:26 settle s3h1 main lose 30
18:01:27 tuck s3h1
18:01:28 reveal
18:01:29 draw 9c
18:01:30 settle s1 db21 win 10
18:01:31 settle s1 db21 win 10
18:01:32 settle s2 db21 lose 5
18:01:33 settle s1h1 main win 40
18:01:34 settle s2h2 main push 20
end
round 2 time=18:02:00 dealer=D-7
18:02:04 bet s1h1 main 10
18:02:05 bet s1 db21 10
18:02:07 deal s1h1 9c
18:02:10 deal dealer 5h
18:02:11 deal s1h1 3c
18:02:14 deal dealer Td
18:02:16 double s1h1 10 Kd
18:02:17 settle s1h1 main lose 20
18:02:18 reveal
18:02:19 draw 8c
18:02:20 tuck s1h1
18:02:21 settle s1 db21 win 10
end
"""

DB21_FINDINGS = [
    ('20:18:15:30.10(8)', '1', 41,
     's2h2 busted with a DB21 wager on s2, and its cards were never '
     'tucked under the DB21 wager.'),
    ('20:18:15:30.10(8)', '1', 43,
     "s2h1's cards were tucked only after play went on (line 41)."),
    ('record:unsettled', '1', 49,
     'the DB21 wager on s1 is settled again (first at line 48)'),
    ('20:18:15:30.10(10)', '1', 50,
     's2 was resolved after s1: the remaining wagers were not resolved '
     'counter-clockwise, read as from the highest seat (third base) '
     'down.'),
    ('20:18:15:30.10(5)', '1', 50,
     'The DB21 wager on s2 was collected 5.00; it should be paid 5.00: '
     'the dealer busted with 6h up: pay table 1 pays 1 to 1.'),
    ('20:18:15:06', '1', 51,
     'The main wager on s1h1 was paid 40.00; it should be paid 20.00: '
     'the dealer went over 21 (25).'),
    ('20:18:15:06', '1', 52,
     'The main wager on s2h2 was pushed (20.00 returned); it should lose'
     ' 20.00: the hand went over 21 (24).'),
    ('20:18:15:30.10(8)', '2', 65,
     "s1h1's cards were tucked only after play went on (line 63)."),
]


@pytest.mark.parametrize("jobs", [1, 2])
def test_standard_pushes_and_wrong_payouts_are_each_judged(tmp_path: Path, jobs: int) -> None:
    assert finding_rows(tmp_path, STANDARD, jobs) == STANDARD_FINDINGS


@pytest.mark.parametrize("jobs", [1, 2])
def test_db21_twice_settled_wager_and_busts_on_double_and_split_cards(tmp_path: Path,
                                                                        jobs: int) -> None:
    assert finding_rows(tmp_path, DB21, jobs) == DB21_FINDINGS
