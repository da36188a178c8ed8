"""The records of the report tests: a standard table with known faults whose note and
player may carry hostile text, a clean one, and the run's record they are shown under."""

SCRIPT = "<script>alert(1)</script>"
ATTRIBUTE = '"><img src=x onerror=alert(1)>'

# A standard table, mostly compliant, with faults whose citations, lines and amounts the
# tests know: a blackjack paid even money (line 22), a wager over the maximum (30), a draw
# on 18 (42), two hands paid that should have lost (43, 44).
FAULTY = """\
bjh 1
casino "Report Casino" licence=RL-0042
table T12 game=standard decks=6 min=10 max=500
option soft17=stand
option blackjack=3:2
shoe 7 date=2026-11-21
09:58:00 shuffle
09:58:30 cut
dealer D-2001
round 1 time=10:00:00 dealer=D-2001
10:00:00 sit s1 player=P-100
10:00:01 sit s4 player=P-400
10:00:02 bet s1h1 main 20
10:00:02 bet s4h1 main 50
10:00:05 deal s1h1 Ah
10:00:06 deal s4h1 9c
10:00:07 deal dealer Td
10:00:08 deal s1h1 Kd
10:00:09 deal s4h1 8s
10:00:10 deal dealer 9s
10:00:11 peek
10:00:12 settle s1h1 main win 20
10:00:15 stand s4h1
10:00:20 reveal
10:00:21 settle s4h1 main lose 50
note "NOTE_PAYLOADS"
end
round 2 time=15:02:00 dealer=D-2002
15:02:01 bet s1h1 main 20
15:02:02 bet s4h1 main 600
15:02:05 deal s1h1 Th
15:02:06 deal s4h1 7c
15:02:07 deal dealer 6d
15:02:08 deal s1h1 7d
15:02:09 deal s4h1 Ts
15:02:10 deal dealer Ts
15:02:11 peek
15:02:12 stand s1h1
15:02:13 stand s4h1
15:02:20 reveal
15:02:21 draw 2c
15:02:22 draw 3h
15:02:25 settle s1h1 main win 20
15:02:26 settle s4h1 main win 600
end
round 3 time=15:04:00 dealer=D-2002
15:04:00 sit s5 player=PLAYER_PAYLOAD
15:04:01 bet s1h1 main 20
15:04:02 deal s1h1 9h
15:04:03 deal dealer 7c
15:04:04 deal s1h1 9d
15:04:05 deal dealer Kh
15:04:06 stand s1h1
15:04:07 reveal
15:04:08 settle s1h1 main win 20
15:04:09 leave s1
end
"""

CLEAN = """\
bjh 1
table T3 game=standard decks=6 min=10 max=500
shoe 1 date=2026-11-22
08:00:00 shuffle
08:00:10 cut
round 1 time=08:01:00 dealer=D-9
08:01:00 bet s2h1 main 25
08:01:01 deal s2h1 9c
08:01:02 deal dealer 7d
08:01:03 deal s2h1 9s
08:01:04 deal dealer Kd
08:01:05 stand s2h1
08:01:06 reveal
08:01:07 settle s2h1 main win 25
end
"""

RUN = {"version": "9.9.9", "rule_base": "abcdef012345", "command": "auditor audit logs --out r",
       "started": "2026-11-21T23:00:00+00:00", "finished": "2026-11-21T23:00:07+00:00"}


def faulty_record(note: str = f"{SCRIPT} {ATTRIBUTE}", player: str = "P-500") -> str:
    """FAULTY with the note's text (escaped for a BJH quoted string) and round 3's player."""
    quoted = note.replace("\\", "\\\\").replace('"', '\\"')
    return FAULTY.replace("NOTE_PAYLOADS", quoted).replace("PLAYER_PAYLOAD", player)
