"""What the replay records of a Lucky Ladies round (auditor/replay/ladies.py): each seat's
first two cards and the highest category they meet, and which takes and pays came after
the first card beyond a player's first two. It records; the checks judge."""

from __future__ import annotations

import pytest

from auditor import checks as _checks  # noqa: F401  (registers every check)
from auditor.parser import parse_lines
from auditor.reader import Header, RoundRecord, read_structure
from auditor.replay import ladies
from auditor.replay.engine import replay_round
from auditor.replay.state import TableState

HEADER = """bjh 1
table L1 game=ladies decks={decks} min=5 max=500
option peek={peek}
option ladies.paytable={table}
shoe 1 date=2026-11-20
"""


def replayed(decks: int, body: str, peek: str = "yes"):
    text = HEADER.format(decks=decks, peek=peek, table="C" if decks == 1 else "A") + body
    state = None
    views = []
    lines = [(n, t, None) for n, t in enumerate(text.split("\n"), 1)]
    for item in read_structure(parse_lines(lines)):
        if isinstance(item, Header):
            state = TableState(item.config)
        elif isinstance(item, RoundRecord):
            views.append(replay_round(state, item, "ladies.bjh"))
    [view] = views
    return view


def two_cards(decks: int, first: str, second: str, dealer: tuple[str, str] = ("9c", "8d"),
              peek: str = "yes"):
    body = f"""round 1
bet s3h1 main 10
bet s3 ladies 5
deal s3h1 {first}
deal dealer {dealer[0]}
deal s3h1 {second}
deal dealer {dealer[1]}
stand s3h1
reveal
end
"""
    return ladies.of(replayed(decks, body, peek)).seats["s3"]


@pytest.mark.parametrize(("decks", "first", "second", "dealer", "category", "name"), [
    (6, "Qh", "Qh", ("Ah", "Kd"), "top", "a queen of hearts pair with a dealer blackjack"),
    (6, "Qh", "Qh", ("9c", "8d"), "queens", "a queen of hearts pair"),
    (6, "Qs", "Qs", ("9c", "8d"), "matched", "a matched 20 (two identical cards)"),
    (6, "Qs", "Qh", ("9c", "8d"), "any", "a 20"),  # two queens, not both of hearts
    (6, "Js", "Ts", ("9c", "8d"), "suited", "a suited 20"),
    (6, "As", "9s", ("9c", "8d"), "suited", "a suited 20"),  # an ace and a nine: a 20
    (6, "Ad", "9s", ("9c", "8d"), "any", "a 20"),
    (1, "Qs", "Qh", ("As", "Kd"), "top", "a pair of queens with a dealer blackjack"),
    (1, "Qs", "Qh", ("9c", "8d"), "queens", "a pair of queens"),
    (1, "Ts", "Td", ("9c", "8d"), "matched", "a paired 20 (two tens, two jacks or two kings)"),
    (1, "Jh", "Kh", ("9c", "8d"), "suited", "a suited 20"),
    (1, "Kd", "Tc", ("9c", "8d"), "any", "a 20"),
    (6, "Ah", "Kh", ("9c", "8d"), None, "no 20"),  # 21 is not 20
    (1, "9h", "Kh", ("9c", "8d"), None, "no 20"),
])
def test_the_first_two_cards_are_classified(decks, first, second, dealer, category,
                                            name) -> None:
    seat = two_cards(decks, first, second, dealer)
    assert (seat.cards, seat.category, seat.name) == ([first, second], category, name)


def test_takes_and_pays_after_the_first_additional_card_are_recorded() -> None:
    view = replayed(6, """round 1
bet s2h1 main 10
bet s2 ladies 5
bet s4h1 main 10
bet s4 ladies 5
bet s4 ladies 1 tip
deal s2h1 Kd
deal s4h1 5c
deal dealer 9c
deal s2h1 Ts
deal s4h1 6d
deal dealer 8d
settle s2 ladies win 20
stand s2h1
double s4h1 10 2h
settle s4 ladies lose 5
settle s4 ladies void 1 tip
reveal
settle s2h1 main win 10
settle s4h1 main win 20
end
""")
    facts = ladies.of(view)
    assert (facts.first_extra_line, facts.top_pending) == (20, set())
    assert [(w.seat, w.tip, s.line) for w, s in facts.late_settlements] == [("s4", False, 21)]


def test_the_top_award_waits_where_the_dealer_does_not_peek() -> None:
    body = """round 1
bet s2h1 main 10
bet s2 ladies 5
deal s2h1 Qh
deal dealer {up}
deal s2h1 Qh
deal dealer 7d
stand s2h1
reveal
settle s2 ladies win 625
end
"""
    assert ladies.of(replayed(6, body.format(up="Ah"), peek="no")).top_pending == {"s2"}
    assert ladies.of(replayed(6, body.format(up="Kh"), peek="no")).top_pending == {"s2"}
    assert ladies.of(replayed(6, body.format(up="9h"), peek="no")).top_pending == set()
    assert ladies.of(replayed(6, body.format(up="Ah"), peek="yes")).top_pending == set()


def test_a_split_does_not_change_the_first_two_cards() -> None:
    view = replayed(6, """round 1
bet s2h1 main 10
bet s2 ladies 5
deal s2h1 Ks
deal dealer 6c
deal s2h1 Ks
deal dealer Td
settle s2 ladies win 95
split s2h1 s2h2 10
hit s2h1 5h
stand s2h1
hit s2h2 9c
stand s2h2
reveal
draw 7s
settle s2h1 main win 10
settle s2h2 main win 10
end
""")
    seat = ladies.of(view).seats["s2"]
    assert (seat.cards, seat.category) == (["Ks", "Ks"], "matched")
    assert view.hands["s2h1"].card_codes == ["Ks", "5h"]
