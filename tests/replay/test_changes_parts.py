"""replay.changes compares the table part by part (dealer, hands, seats): what came and
what went must be what comparing the whole table at every step gives, when several parts
change at one step and when keys of two parts go at once (the `gone` keys sorted across
parts), and where its shortcuts must not be taken (a hand in another's place, two hands of
one name, a hand dealt with no wager); changes read back from JSON are as made."""

from __future__ import annotations

import json

from auditor.replay.changes import read_back, round_changes
from auditor.replay.trace import RoundEvidence, trace_round
from tests.helpers.plain_changes import changes_made_plainly
from tests.helpers.replaying import HEADER, rounds_of


def _hand(name: str, cards: list[str], total: int) -> dict:
    return {"hand": name, "cards": cards, "total": total, "soft": False, "status": "",
            "doubled": ""}


def _wager(target: str, amount: str, settled: str = "") -> dict:
    return {"wager": f"{target} main", "amount": amount, "settled": settled,
            "target": target, "kind": "main", "tip": False}


def _evidence(steps: list[dict]) -> RoundEvidence:
    lines = [(10, "12:00:00 sit 2 Ann"), *[(10 + n, f"12:00:0{n} x")
                                                for n in range(1, len(steps))]]
    return RoundEvidence("f.bjh", "R1", 10, lines,
                         {line: step for (line, _), step in zip(lines, steps, strict=True)})


def test_keys_of_several_parts_gone_at_one_step_are_listed_sorted() -> None:
    seats = {"1": "Bob", "2": "Ann", "3": "Cy"}
    dealer = {"cards": ["Ks"], "total": 10, "revealed": False}
    ann = _hand("2", ["9h", "7d"], 16)
    bob = _hand("1", ["Tc"], 10)
    cy = _hand("3", ["2c"], 2)
    bet_ann, bet_bob = _wager("2", "10"), _wager("1", "5")
    steps = [
        {"hands": [], "dealer": {"cards": [], "total": None, "revealed": False},
         "wagers": [bet_bob], "players": seats},
        {"hands": [bob, ann, cy], "dealer": dealer, "wagers": [bet_bob, bet_ann], "players": seats},
        # one statement: the dealer's cards taken back, Bob's and Cy's hands and seats gone
        {"hands": [ann], "dealer": {"cards": [], "total": None, "revealed": False},
         "wagers": [bet_ann], "players": {"2": "Ann"}},
    ]
    evidence = _evidence(steps)
    changes = round_changes(evidence)
    assert changes == changes_made_plainly(evidence)
    # Ann sits at the first statement
    assert changes["seated"] == [("seat:1", ("Bob",)), ("seat:3", ("Cy",))]
    assert changes["lines"] == [
        (10, [("hand:1", ((), None, False, "", (("main", False, "5", ""),), "")),
              ("seat:2", ("Ann",))], []),
        (11, [("dealer", (("Ks",), 10, False)),
              ("hand:1", (("Tc",), 10, False, "", (("main", False, "5", ""),), "")),
              ("hand:2", (("9h", "7d"), 16, False, "", (("main", False, "10", ""),), "")),
              ("hand:3", (("2c",), 2, False, "", (), ""))], []),
        (12, [], ["dealer", "hand:1", "hand:3", "seat:1", "seat:3"]),
    ]


def test_a_part_made_again_with_equal_states_changes_nothing() -> None:
    seats = {"1": "Bob"}
    steps = [
        {"hands": [_hand("1", ["Tc"], 10)], "dealer": {"cards": ["Ks"], "total": 10,
                                                       "revealed": False},
         "wagers": [_wager("1", "5")], "players": seats},
        # every entry a new object, each equal to the step before's
        {"hands": [_hand("1", ["Tc"], 10)], "dealer": {"cards": ["Ks"], "total": 10,
                                                       "revealed": False},
         "wagers": [_wager("1", "5")], "players": dict(seats)},
        {"hands": [_hand("1", ["Tc", "9d"], 19)], "dealer": {"cards": ["Ks"], "total": 10,
                                                             "revealed": False},
         "wagers": [_wager("1", "5", "win 5")], "players": dict(seats)},
    ]
    evidence = _evidence(steps)
    changes = round_changes(evidence)
    assert changes == changes_made_plainly(evidence)
    assert changes["lines"][1] == (11, [], [])
    assert changes["lines"][2] == (12, [("hand:1", (("Tc", "9d"), 19, False, "",
                                                    (("main", False, "5", "win 5"),), ""))], [])


def test_a_round_with_no_step_changes_nothing() -> None:
    """A round of no statement (its `round` line, then `end`) has no step to compare."""
    evidence = RoundEvidence("f.bjh", "R1", 10, [(10, "round 1"), (11, "end")])
    assert round_changes(evidence) == {"seated": [], "lines": []}


def test_two_hands_gone_at_one_step_are_listed_sorted() -> None:
    """The keys a part loses come from a set difference, in the order of their hashes:
    each pair is listed sorted (twenty pairs, so an unsorted listing cannot pass by the
    chance of one process's hashes)."""
    for number in range(20):
        first, second = f"a{number}", f"b{number}"
        steps = [
            {"hands": [_hand(first, ["Tc"], 10), _hand(second, ["9c"], 9)],
             "dealer": {"cards": [], "total": None, "revealed": False}, "wagers": [],
             "players": {}},
            {"hands": [], "dealer": {"cards": [], "total": None, "revealed": False},
             "wagers": [], "players": {}},
        ]
        changes = round_changes(_evidence(steps))
        assert changes["lines"][1] == (11, [], [f"hand:{first}", f"hand:{second}"])


def test_a_hand_in_the_place_of_another_is_one_gone_and_one_come() -> None:
    """A step whose list of wagers is the step before's and whose hands are as many, one of
    them another hand in the same place: not the same hand changed."""
    wagers = [_wager("1", "5")]
    dealer = {"cards": [], "total": None, "revealed": False}
    bob, cy = _hand("1", ["Tc"], 10), _hand("3", ["2c"], 2)
    steps = [
        {"hands": [bob, _hand("2", ["9h"], 9)], "dealer": dealer, "wagers": wagers,
         "players": {}},
        {"hands": [bob, cy], "dealer": dealer, "wagers": wagers, "players": {}},
    ]
    evidence = _evidence(steps)
    changes = round_changes(evidence)
    assert changes == changes_made_plainly(evidence)
    assert changes["lines"][1] == (11, [("hand:3", (("2c",), 2, False, "", (), ""))],
                                   ["hand:2"])


def test_two_hands_of_one_name_show_the_last_of_them() -> None:
    """A step with two hands of one name (no replay makes one; a step read from elsewhere
    may hold one): the hand's state is the last hand's, as when the table is made whole,
    also when only the first of them changes."""
    dealer = {"cards": [], "total": None, "revealed": False}
    second = _hand("1", ["9c"], 9)
    steps = [
        {"hands": [_hand("1", ["Tc"], 10), second], "dealer": dealer, "wagers": [],
         "players": {}},
        {"hands": [_hand("1", ["Tc", "2d"], 12), second], "dealer": dealer, "wagers": [],
         "players": {}},
    ]
    steps[1]["wagers"] = steps[0]["wagers"]  # the wagers unchanged, as a replay shares them
    evidence = _evidence(steps)
    changes = round_changes(evidence)
    assert changes == changes_made_plainly(evidence)
    assert changes["lines"] == [(10, [("hand:1", (("9c",), 9, False, "", (), ""))], []),
                                (11, [], [])]


def test_a_round_begun_by_a_statement_on_a_seat_keeps_that_seats_player_seated() -> None:
    """Only a `sit` fills a seat at the round's first statement; a `light` (or `switch`,
    `prize`) names a seat whose player was seated before."""
    steps = [{"hands": [], "dealer": {"cards": [], "total": None, "revealed": False},
              "wagers": [], "players": {"1": "Bob", "2": "Ann"}}]
    evidence = RoundEvidence("f.bjh", "R1", 10, [(10, "12:00:00 light 1 3")],
                             {10: steps[0]})
    assert round_changes(evidence) == {"seated": [("seat:1", ("Bob",)), ("seat:2", ("Ann",))],
                                       "lines": [(10, [], [])]}


def test_changes_read_back_are_tuples_with_each_equal_text_one_object() -> None:
    stored = json.loads(json.dumps({
        "seated": [["seat:1", ["Bob"]]],
        "lines": [[10, [["hand:1", [["Tc"], 10, False, "", [["main", False, "5", ""]], ""]],
                        ["seat:1", ["Bob"]]], []],
                  [11, [], ["hand:1", "seat:1"]]]}))
    changes = read_back(stored)
    assert changes == {"seated": [("seat:1", ("Bob",))],
                       "lines": [(10, [("hand:1", (("Tc",), 10, False, "",
                                                   (("main", False, "5", ""),), "")),
                                       ("seat:1", ("Bob",))], []),
                                 (11, [], ["hand:1", "seat:1"])]}
    (_, came, _), (_, _, gone) = changes["lines"]
    assert gone[0] is came[0][0] and gone[1] is came[1][0] is changes["seated"][0][0]
    assert came[1][1][0] is changes["seated"][0][1][0]  # "Bob", read three times


def test_a_hand_dealt_with_no_wager_comes_though_the_wagers_are_the_step_befores() -> None:
    """A card dealt to a hand nobody bet on (a bad record) adds a hand while the list of
    wagers stays the step before's: the new hand is shown coming."""
    text = HEADER + "\n".join([
        "shuffle", "cut", "round 1 time=10:00:00 dealer=D-1", "sit s1 player=P-1",
        "bet s1h1 main 20", "deal s1h1 2c", "deal s2h1 5c", "deal dealer 7d", "end"]) + "\n"
    [(before, record)] = list(rounds_of(text))
    source = dict(enumerate(text.splitlines(), start=1))
    evidence = trace_round(before, record, "f.bjh", source)
    unbet = next(number for number, line in source.items() if line == "deal s2h1 5c")
    assert evidence.steps[unbet]["wagers"] is evidence.steps[unbet - 1]["wagers"]
    changes = evidence.changes()
    assert changes == changes_made_plainly(evidence)
    assert changes["lines"][3] == (unbet, [("hand:s2h1", (("5c",), 5, False, "", (), ""))], [])
