"""A night of table T4 that crosses midnight and a gaming day's start, as the gaming-day,
incidents and night-report tests audit it, and the next night at the same table."""

# Three over-payments (each 20:18:15:06, line 18, 29, 40): at 23:50 on 11-22, at 00:30 on
# 11-23 (the same gaming day, begun 06:00 on 11-22) and at 06:10 on 11-23 (the next one).
NIGHT = """\
bjh 1
casino "Test" licence=RL-9
table T4 game=standard decks=6 min=10 max=500
shoe S1 date=2026-11-22
23:49:00 shuffle
23:49:05 cut
23:49:06 burn 4h
round 1 time=23:50:00 dealer=D-1
23:50:01 sit s1 player=P-1
23:50:02 bet s1h1 main 20
23:50:03 deal s1h1 9c
23:50:04 deal dealer 6d
23:50:05 deal s1h1 7s
23:50:06 deal dealer Td
23:50:07 stand s1h1
23:50:08 reveal
23:50:09 draw 9h
23:50:10 settle s1h1 main win 30
end
round 2 date=2026-11-23 time=00:30:00 dealer=D-1
00:30:01 bet s1h1 main 20
00:30:02 deal s1h1 9d
00:30:03 deal dealer 6h
00:30:04 deal s1h1 7d
00:30:05 deal dealer Tc
00:30:06 stand s1h1
00:30:07 reveal
00:30:08 draw 9s
00:30:09 settle s1h1 main win 30
end
round 3 date=2026-11-23 time=06:10:00 dealer=D-2
06:10:01 bet s1h1 main 20
06:10:02 deal s1h1 9h
06:10:03 deal dealer 6c
06:10:04 deal s1h1 7h
06:10:05 deal dealer Ts
06:10:06 stand s1h1
06:10:07 reveal
06:10:08 draw 8s
06:10:09 settle s1h1 main win 30
end
"""
# The same night, at a table that declares its currency.
RECORD = NIGHT.replace("table T4 game=standard", "table T4 game=standard currency=USD")
# The next night at the same table: one over-payment, in a round that crosses midnight.
NEXT = """\
bjh 1
casino "Test" licence=RL-9
table T4 game=standard decks=6 min=10 max=500 currency=USD
shoe S2 date=2026-11-23
23:58:00 shuffle
23:58:05 cut
23:58:06 burn 4h
round 1 time=23:59:50 dealer=D-3
23:59:51 sit s2 player=P-2
23:59:52 bet s2h1 main 20
23:59:53 deal s2h1 9c
23:59:54 deal dealer 6d
23:59:55 deal s2h1 7s
23:59:56 deal dealer Td
23:59:57 stand s2h1
23:59:58 reveal
23:59:59 draw 9h
00:00:04 settle s2h1 main win 30
end
"""
