"""Facts of the replay no verdict of today's checks tells apart, held to exact values on
small records: an order the findings are given in, a field a later check or the evidence
reads. (The verdicts themselves are held by the rule cases, tests/cases/*.toml.)"""

from __future__ import annotations

from auditor.audit import audit_file
from auditor.replay import switch
from auditor.replay.view import RoundView
from tests.helpers.views import views_of

SWITCH_HEADER = """bjh 1
casino "Case Casino" licence=RL-0009
table T09 game=switch decks=6 min=5 max=500
shoe 301 date=2026-11-21
22:00:01 shuffle
22:00:30 cut
"""


def only_view(text: str) -> RoundView:
    views = list(views_of((n, t, None) for n, t in enumerate(text.split("\n"), 1)))
    assert len(views) == 1
    return views[0]


# Third base bets before first base, each seat on one hand only (30.09(1) twice).
SEATS_OUT_OF_ORDER = SWITCH_HEADER + """round 1 time=22:01:00 dealer=D-2001
bet s5h1 main 10
bet s2h2 main 10
deal s5h1 9h
deal s2h2 4c
deal dealer Kd
deal s5h1 9d
deal s2h2 Kc
deal dealer 7s
stand s2h2
stand s5h1
reveal
settle s5h1 main win 10
settle s2h2 main lose 10
end
"""


def test_playing_seats_are_first_base_first_whatever_the_order_of_the_bets() -> None:
    view = only_view(SEATS_OUT_OF_ORDER)
    assert switch.playing_seats(view) == ["s2", "s5"]
    assert [list(w) for w in switch.of(view).seat_wagers.values()] == [["s2h2"], ["s5h1"]]


def test_findings_of_several_seats_come_first_base_first(tmp_path) -> None:
    """The report lists a round's findings of one rule seat by seat, first base first."""
    record = tmp_path / "seats.bjh"
    record.write_text(SEATS_OUT_OF_ORDER, encoding="utf-8")
    found = [(f.citation, f.line, f.seat, f.hand)
             for f in audit_file(str(record), keep_evidence=False).findings]
    assert found == [("20:18:15:30.09(1)", 9, "s2", "s2h2"),
                     ("20:18:15:30.09(1)", 8, "s5", "s5h1")]
