"""A standard table's record that the hostile reviews of the second speed pass share: its
header and shoe (lines 1-10), then three rounds that each review pins findings in: three
seats standing against the dealer's 18 (lines 11-34), a double and a bust (lines 35-52),
a split hand doubled and a bust after the dealer draws (lines 53-75). A review adds its own
rounds or notes; the lines its findings name are the lines of these texts."""

HEADER = """\
bjh 1
casino "Review Casino" licence=RL-R4-01
table R4-01 game=standard decks=6 seats=7 min=10 max=1000 currency=USD
option soft17=stand
option surrender=late
18:00:00 shoe R4-01-1 date=2026-11-20
18:00:01 dealer D-1
18:00:02 shuffle
18:00:03 cut
18:00:04 burn 8d
"""

THREE_SEATS = """\
round 1 time=18:01:00 dealer=D-1
18:01:01 sit s1 player=P-1
18:01:02 sit s2 player=P-2
18:01:03 sit s3 player=P-3
18:01:04 bet s1h1 main 10
18:01:05 bet s2h1 main 20
18:01:06 bet s3h1 main 30
18:01:07 deal s1h1 Kc
18:01:08 deal s2h1 9c
18:01:09 deal s3h1 Th
18:01:10 deal dealer Qh
18:01:11 deal s1h1 8c
18:01:12 deal s2h1 9d
18:01:13 deal s3h1 7s
18:01:14 deal dealer 8s
18:01:15 peek
18:01:16 stand s1h1
18:01:17 stand s2h1
18:01:18 stand s3h1
18:01:19 reveal
18:01:20 settle s1h1 main push 10
18:01:21 settle s2h1 main win 30
18:01:22 settle s3h1 main win 25
end
"""

DOUBLE_AND_BUST = """\
round 2 time=18:02:00 dealer=D-1
18:02:04 bet s1h1 main 10
18:02:05 bet s2h1 main 20
18:02:07 deal s1h1 5c
18:02:08 deal s2h1 As
18:02:10 deal dealer 9h
18:02:11 deal s1h1 6c
18:02:12 deal s2h1 5d
18:02:14 deal dealer 7s
18:02:15 peek
18:02:16 double s1h1 10 Kd
18:02:17 hit s2h1 Qd
18:02:18 hit s2h1 9s
18:02:19 tuck s2h1
18:02:20 reveal
18:02:21 settle s2h1 main lose 20
18:02:22 settle s1h1 main win 10
end
"""

SPLIT_AND_DOUBLE = """\
round 3 time=18:03:00 dealer=D-1
18:03:04 bet s1h1 main 10
18:03:05 bet s2h1 main 20
18:03:07 deal s1h1 8c
18:03:08 deal s2h1 Ts
18:03:10 deal dealer 9h
18:03:11 deal s1h1 8h
18:03:12 deal s2h1 5d
18:03:14 deal dealer 7c
18:03:15 peek
18:03:16 split s1h1 s1h2 10
18:03:17 deal s1h1 3c
18:03:18 deal s1h2 4c
18:03:19 double s1h1 10 Kh
18:03:20 hit s1h2 Qc
18:03:21 hit s2h1 8d
18:03:22 reveal
18:03:23 draw 2c
18:03:24 tuck s2h1
18:03:25 settle s2h1 main lose 20
18:03:26 settle s1h1 main win 20
18:03:27 settle s1h2 main lose 10
end
"""

RECORD = HEADER + THREE_SEATS + DOUBLE_AND_BUST + SPLIT_AND_DOUBLE


def with_line(text: str, line: str, instead: str) -> str:
    """`text` with its one line `line` written `instead` (a note added, an amount changed)."""
    lines = text.split("\n")
    assert lines.count(line) == 1, f"{line!r} is not one line of the text"
    lines[lines.index(line)] = instead
    return "\n".join(lines)
