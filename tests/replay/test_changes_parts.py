"""replay.changes compares the table part by part (dealer, hands, seats): what came and
what went must be what comparing the whole table at every step gives, when several parts
change at one step and when keys of two parts go at once (the `gone` keys sorted across
parts)."""

from __future__ import annotations

from auditor.replay.changes import round_changes
from auditor.replay.trace import RoundEvidence
from tests.helpers.plain_changes import changes_made_plainly


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
