"""One clean round of the standard game (its licence RL-SIM-01, its max 1000): a record
that an audit reads and finds nothing in, for the tests of what an audit loads."""

CLEAN = """\
bjh 1
casino "Simulated Casino" licence=RL-SIM-01
table T1-01 game=standard decks=6 seats=7 min=10 max=1000 currency=USD
option surrender=late
18:00:20 shoe T1-01-1 date=2026-11-20
18:00:50 dealer D-8009
18:02:22 shuffle
18:02:30 cut
18:02:32 burn Ks
round 1 time=18:02:52 dealer=D-8009
18:03:02 sit s4 player=P-860001
18:03:03 bet s4h1 main 10.50
18:03:04 deal s4h1 4h
18:03:05 deal dealer Jc
18:03:06 deal s4h1 7d
18:03:07 deal dealer 8d
18:03:09 peek
18:03:11 double s4h1 10.50 7c
18:03:13 reveal
18:03:15 settle s4h1 main push 21
end
"""
