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


STANDARD_HEADER = """bjh 1
casino "Case Casino" licence=RL-0001
table T01 game=standard decks=6 min=10 max=500
shoe S1 date=2026-11-20
shuffle
cut
"""

# Two seats, s3 splitting its hand: every kind of part a view holds but lights and seats.
SPLIT_ROUND = STANDARD_HEADER + """round 1
sit s3 player=P-1
bet s3h1 main 25
bet s5h1 main 10
deal s3h1 8h
deal s5h1 Kd
deal dealer Tc
deal s3h1 8d
deal s5h1 9s
deal dealer 6s
peek
split s3h1 s3h2 25
hit s3h1 2c
stand s3h1
hit s3h2 Kh
stand s3h2
stand s5h1
reveal
draw 2h
settle s5h1 main win 10
settle s3h2 main push 25
settle s3h1 main lose 25
end
"""


def test_hands_of_a_seat_are_its_hands_in_the_order_they_came() -> None:
    view = only_view(SPLIT_ROUND)
    assert [hand.name for hand in view.hands_of("s3")] == ["s3h1", "s3h2"]
    assert [hand.name for hand in view.hands_of("s5")] == ["s5h1"]
    assert view.hands_of("s1") == []


def test_the_parts_of_a_view_take_no_field_they_do_not_declare() -> None:
    """Every part of a view is slotted: a field the replay misspells fails at once rather
    than becoming a fact no check reads (and the parts of every round's view carry no
    dictionary each)."""
    view = only_view(SPLIT_ROUND)
    hand = view.hands["s3h2"]
    wager = view.wagers[0]
    parts = [view, view.dealer, *view.dealer.cards, *view.dealer.draws, hand, *hand.cards,
             wager, *wager.settlements, *view.decisions, view.shoe, *view.seat_changes]
    assert {type(part).__name__ for part in parts} == {
        "RoundView", "DealerHand", "DealerDraw", "Card", "Hand", "Wager", "Settlement",
        "Decision", "ShoeStatus", "SeatChange"}
    for part in parts:
        assert not hasattr(part, "__dict__"), type(part).__name__
        try:
            part.complete_reasn = "stood"  # a misspelt field
        except AttributeError:
            continue
        raise AssertionError(f"{type(part).__name__} took an undeclared field")


def test_every_dataclass_of_the_replay_is_slotted() -> None:
    """As above, for every part the replay records, whether or not a small round makes it:
    the view's, the table's state and each game's derived facts."""
    import dataclasses
    import inspect

    from auditor.replay import ladies, state, switch, tensticks, view

    found = []
    for module in (view, state, switch, ladies, tensticks):
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and dataclasses.is_dataclass(cls):
                found.append(name)
                assert cls.__dictoffset__ == 0, name  # no __dict__ in its instances
                assert not hasattr(object.__new__(cls), "__dict__"), name
    assert {"Marker", "Trade", "LightEvent", "LateCard", "TableState", "SwitchFacts",
            "DealCount", "LadiesFacts", "SeatCards", "BonusCard"} <= set(found)


# The cutting card comes out in round 1 and is recorded again in round 2, which is dealt
# from the same cards, as is round 3: the shoe has been due for a reshuffle since line 11.
CUTTING_CARD_TWICE = STANDARD_HEADER + """round 1
bet s1h1 main 10
deal s1h1 9h
deal dealer Kd
deal s1h1 9d
deal dealer 8s
cutcard
stand s1h1
reveal
settle s1h1 main push 10
end
round 2
bet s1h1 main 10
deal s1h1 Th
deal dealer 7d
cutcard
deal s1h1 Qd
deal dealer Ks
stand s1h1
reveal
settle s1h1 main win 10
end
round 3
bet s1h1 main 10
deal s1h1 5h
deal dealer 9c
deal s1h1 Kc
deal dealer Jc
stand s1h1
reveal
settle s1h1 main lose 10
end
"""


def test_the_cutting_card_is_where_it_first_came_out(tmp_path) -> None:
    views = list(views_of((n, t, None) for n, t in enumerate(CUTTING_CARD_TWICE.split("\n"), 1)))
    assert [(v.shoe.cutcard_pending, v.shoe.cutcard_line) for v in views] == [
        (False, None), (True, 13), (True, 13)]
    record = tmp_path / "cutcard.bjh"
    record.write_text(CUTTING_CARD_TWICE, encoding="utf-8")
    found = [(f.citation, f.round, f.line, f.evidence, f.message)
             for f in audit_file(str(record), keep_evidence=False).findings]
    assert found == [
        ("20:18:15:10", "2", 20, (13,), "Round 2 was dealt after the cutting card came out "
         "(line 13) without a reshuffle."),
        ("20:18:15:10", "3", 31, (13,), "Round 3 was dealt after the cutting card came out "
         "(line 13) without a reshuffle.")]


# s2's hand h1 is dealt a third card in the initial deal and play goes on (30.09(4)); s3,
# dealt alongside, is not at fault.
THIRD_CARD_BESIDE_ANOTHER_SEAT = SWITCH_HEADER + """round 1 time=22:01:00 dealer=D-2001
bet s2h1 main 10
bet s2h2 main 10
bet s3h1 main 10
bet s3h2 main 10
deal s2h1 9h
deal s2h2 4c
deal s3h1 7c
deal s3h2 Th
deal dealer Kd
deal s2h1 8d
deal s2h2 Kc
deal s3h1 Tc
deal s3h2 9s
deal s2h1 2c
deal dealer 8s
stand s2h1
hit s2h2 2d
stand s2h2
stand s3h1
stand s3h2
reveal
settle s3h2 main win 10
settle s3h1 main lose 10
settle s2h2 main lose 10
settle s2h1 main win 10
end
"""


def test_a_seat_dealt_a_wrong_count_is_shown_its_own_deals(tmp_path) -> None:
    view = only_view(THIRD_CARD_BESIDE_ANOTHER_SEAT)
    (fault,) = switch.of(view).wrong_counts
    assert (fault.target, fault.line, fault.counts, fault.lines) == (
        "s2", 21, {"s2h1": 3}, [12, 13, 17, 18, 21])
    record = tmp_path / "third.bjh"
    record.write_text(THIRD_CARD_BESIDE_ANOTHER_SEAT, encoding="utf-8")
    found = [(f.citation, f.line, f.seat, f.evidence)
             for f in audit_file(str(record), keep_evidence=False).findings]
    assert found == [("20:18:15:30.09(4)", 21, "s2", (12, 13, 17, 18))]  # less its own line


TENSTICKS_HEADER = """bjh 1
casino "Case Casino" licence=RL-0001
table T21 game=tensticks decks=6 min=5 max=500
option tensticks.prize=500
shoe 301 date=2026-11-20
20:00:02 shuffle
20:00:40 cut
"""

# The bonus card hit at line 15 takes s1h1 over 21 and is traded at line 16 (30.02(3)).
BUSTING_BONUS_CARD_TRADED = TENSTICKS_HEADER + """round 1 time=20:01:00 dealer=D-2101
20:01:00 sit s1 player=P-1001
20:01:01 bet s1h1 main 25
20:01:05 deal s1h1 9h
20:01:06 deal dealer 7s
20:01:07 deal s1h1 5d
20:01:08 deal dealer Kd
20:01:10 hit s1h1 Tc
20:01:12 trade s1h1 6s
20:01:13 light s1 1
20:01:15 stand s1h1
20:01:20 reveal
20:01:25 settle s1h1 main lose 25
end
"""


def test_a_traded_bonus_card_knows_its_trade_and_the_finding_shows_where_it_came(
        tmp_path) -> None:
    from auditor.replay import tensticks

    view = only_view(BUSTING_BONUS_CARD_TRADED)
    assert [(b.target, b.line, b.how, b.total, b.traded_line)
            for b in tensticks.of(view).bonus_cards] == [("s1h1", 15, "hit", 24, 16)]
    record = tmp_path / "traded.bjh"
    record.write_text(BUSTING_BONUS_CARD_TRADED, encoding="utf-8")
    found = [(f.citation, f.line, f.hand, f.evidence)
             for f in audit_file(str(record), keep_evidence=False).findings]
    assert found == [("20:18:15:30.02(3)", 16, "s1h1", (15,))]


def test_the_dealer_natural_written_out_is_blackjack_is_two_card_21() -> None:
    """DealerHand.natural writes out blackjack.is_two_card_21 of the first two cards (with
    two dealt and nothing drawn): the two agree on every case and sample log."""
    from auditor import blackjack
    from tests.helpers.views import every_view

    naturals = 0
    for view in every_view():
        dealer = view.dealer
        told = (dealer.dealt >= 2 and not dealer.draws
                and blackjack.is_two_card_21(dealer.card_codes[:2]))
        assert dealer.natural is told, view.round_id
        naturals += told
    assert naturals > 10
    assert blackjack.is_two_card_21(["Ah", "Kd"]) is True
    assert blackjack.is_two_card_21(["Ah", "5d", "5c"]) is False


def test_a_wager_on_the_dealer_is_a_problem_of_no_seat_nor_hand() -> None:
    view = only_view(STANDARD_HEADER + """round 1
bet dealer main 10
bet s1h1 main 10
deal s1h1 9h
deal dealer Kd
deal s1h1 9d
deal dealer 8s
stand s1h1
reveal
settle s1h1 main win 10
end
""")
    assert [(p.kind, p.line, p.seat, p.hand) for p in view.problems] == [
        ("reference", 8, None, None)]


def test_since_when_a_card_is_counted() -> None:
    from auditor.replay.view import counted_since_text

    assert counted_since_text(None) == "since the shoe came into play"
    assert counted_since_text(7) == "since the shuffle at line 7"
