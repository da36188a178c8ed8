"""Two tables of Ten sticks 21 on two days whose players' punched cards go from one to the
other (tests/checks/test_tensticks_cross_file.py says what each holds)."""

HEADER = """bjh 1
casino "Case Casino" licence=RL-0001
table {table} game=tensticks decks=6 min=5 max=500
option tensticks.prize=500
shoe {shoe} date={date}
{hour}:00:00 shuffle
{hour}:00:30 cut
"""

FIRST_TABLE = HEADER.format(table="T31", shoe="401", date="2026-11-20", hour="22") + """\
round 1 time=22:01:00 dealer=D-3101
22:01:00 sit s2 player=P-7 punchcard=PC-7 punches=2
22:01:00 sit s5 player=P-9
22:01:01 bet s2h1 main 25
22:01:01 bet s5h1 main 25
22:01:05 deal s2h1 9h
22:01:05 deal s5h1 8h
22:01:06 deal dealer 7s
22:01:07 deal s2h1 Tc
22:01:07 deal s5h1 Tc
22:01:08 deal dealer Kd
22:01:10 trade s2h1 Qd
22:01:11 light s2 3
22:01:12 stand s2h1
22:01:13 trade s5h1 Jd
22:01:14 light s5 1
22:01:15 stand s5h1
22:01:20 reveal
22:01:25 settle s5h1 main win 25
22:01:25 settle s2h1 main win 25
22:01:30 leave s2 punchcard=PC-7 punches=3
22:01:31 leave s5 punchcard=PC-9 punches=1
end
close
"""

SECOND_TABLE = HEADER.format(table="T32", shoe="502", date="2026-11-21", hour="14") + """\
round 1 time=14:01:00 dealer=D-3202
14:01:00 sit s4 player=P-7 punchcard=PC-7 punches=3
14:01:00 sit s6 player=P-9 punchcard=PC-9 punches=4
14:01:01 bet s4h1 main 25
14:01:01 bet s6h1 main 25
14:01:05 deal s4h1 9h
14:01:05 deal s6h1 9d
14:01:06 deal dealer 7s
14:01:07 deal s4h1 Tc
14:01:07 deal s6h1 8d
14:01:08 deal dealer Kd
14:01:10 trade s4h1 Qd
14:01:11 light s4 4
14:01:12 stand s4h1
14:01:13 stand s6h1
14:01:20 reveal
14:01:25 settle s6h1 main push 25
14:01:25 settle s4h1 main win 25
end
round 2 time=14:03:00 dealer=D-3202
14:03:00 sit s1 player=P-8 punchcard=PC-7 punches=3
14:03:01 bet s1h1 main 25
14:03:05 deal s1h1 9c
14:03:06 deal dealer 7h
14:03:07 deal s1h1 Ks
14:03:08 deal dealer Kh
14:03:12 stand s1h1
14:03:20 reveal
14:03:25 settle s1h1 main win 25
14:03:30 leave s4 punchcard=PC-7 punches=4
end
round 3 time=14:05:00 dealer=D-3202
14:05:00 sit s4 player=P-7 punchcard=PC-7 punches=5
14:05:01 bet s4h1 main 25
14:05:05 deal s4h1 9s
14:05:06 deal dealer 7d
14:05:07 deal s4h1 Kc
14:05:08 deal dealer Qh
14:05:12 stand s4h1
14:05:20 reveal
14:05:25 settle s4h1 main win 25
end
"""
