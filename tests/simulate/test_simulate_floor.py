"""`auditor simulate --floor FILE`: a whole floor in one call (auditor/simulate/floor.py):
tables of several games with their own IDs, one roster of dealers and one pool of players
who move between tables and nights, careless dealers and colluding pairs from a given
night; the same file gives the same bytes."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

from auditor.cli import main

FLOOR = """\
seed = "floor-test"
first_night = 2026-11-01
nights = 3
faults = 0.03
dealers = 16
players = 120

[[tables]]
game = "standard"
count = 3
rounds = 120

[[tables]]
game = "switch"
count = 2
rounds = 100

[[tables]]
game = "ladies"
rounds = 100

[[careless]]
dealer = "D-1004"
multiple = 5
from_night = 2

[[collude]]
dealer = "D-1007"
player = "P-00042"
rate = 0.5
from_night = 2

[repeat_shoe]
night = 3
game = "standard"
"""
NIGHTS = ("2026-11-01", "2026-11-02", "2026-11-03")
TABLES = {"ST-01": "standard", "ST-02": "standard", "ST-03": "standard",
          "SW-01": "switch", "SW-02": "switch", "LL": "ladies"}


def simulated(folder: Path, text: str = FLOOR) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "floor.toml").write_text(text, encoding="utf-8")
    assert main(["simulate", "--floor", str(folder / "floor.toml"), "--out",
                 str(folder / "out"), "--quiet"]) == 0
    return folder / "out"


@pytest.fixture(scope="module")
def floor(tmp_path_factory) -> Path:
    return simulated(tmp_path_factory.mktemp("floor"))


def every_file(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def rounds_by(record: Path) -> list[tuple[str, set[str]]]:
    """Each round's dealer and the players seated in it (a player sits until `leave`)."""
    seated: dict[str, str] = {}
    found = []
    dealer = None
    for line in record.read_text(encoding="utf-8").splitlines():
        if line.startswith("round "):
            dealer = re.search(r"dealer=(\S+)", line).group(1)
        elif " sit " in line:
            seat, player = re.search(r" sit (s\d) player=(\S+)", line).groups()
            seated[seat] = player
        elif " leave " in line:
            seated.pop(re.search(r" leave (s\d)", line).group(1), None)
        elif line == "end":
            found.append((dealer, set(seated.values())))
    return found


def test_the_same_floor_file_gives_the_same_bytes(floor, tmp_path) -> None:
    again = simulated(tmp_path / "again")
    assert every_file(again) == every_file(floor)
    other = simulated(tmp_path / "other", FLOOR.replace('"floor-test"', '"another"'))
    assert every_file(other).keys() == every_file(floor).keys()
    assert every_file(other) != every_file(floor)


def test_a_night_a_folder_each_table_its_own_id(floor) -> None:
    assert sorted(p.name for p in floor.iterdir()) == [*NIGHTS, "floor.truth.json"]
    for night in NIGHTS:
        records = sorted((floor / night).glob("*.bjh"))
        assert {p.stem.split("-", 1)[1]: p.stem.split("-", 1)[0] for p in records} == TABLES
        for record in records:
            text = record.read_text(encoding="utf-8")
            table = re.search(r"^table (\S+) game=(\S+)", text, re.M).groups()
            assert table == (record.stem.split("-", 1)[1], TABLES[table[0]])
            assert f"date={night}" in text


def test_one_roster_and_one_pool_move_between_tables_and_nights(floor) -> None:
    truth = json.loads((floor / "floor.truth.json").read_text(encoding="utf-8"))
    roster = {f"D-{n}" for n in range(1001, 1017)}
    assert set(truth["dealers"]) == roster
    where: dict[str, set[tuple[str, str]]] = defaultdict(set)  # unit -> {(night, table)}
    for night in NIGHTS:
        for record in (floor / night).glob("*.bjh"):
            table = record.stem.split("-", 1)[1]
            for dealer, players in rounds_by(record):
                where[dealer].add((night, table))
                for player in players:
                    where[player].add((night, table))
    dealers = {u for u in where if u.startswith("D-")}
    players = {u for u in where if u.startswith("P-")}
    assert dealers <= roster and len(dealers) >= 12
    assert players <= {f"P-{n:05d}" for n in range(1, 121)}
    # a dealer at tables of two games, a player at two tables, on different nights
    assert any(len({TABLES[t] for _, t in places}) > 1 for u, places in where.items()
               if u in dealers)
    assert any(len({t for _, t in places}) > 1 and len({n for n, _ in places}) > 1
               for u, places in where.items() if u in players)
    # a player at one table a night (the colluder goes where his dealer deals)
    for player in players - {"P-00042"}:
        by_night = defaultdict(set)
        for night, table in where[player]:
            by_night[night].add(table)
        assert all(len(tables) == 1 for tables in by_night.values()), player
    # each night's two dealers a table, as floor.truth.json says
    for night_truth, night in zip(truth["night_by_night"], NIGHTS, strict=True):
        for table, dealers_there in night_truth["tables"].items():
            record = next((floor / night).glob(f"*-{table}.bjh"))
            assert {d for d, _ in rounds_by(record)} <= set(dealers_there)


def test_careless_dealers_and_pairs_are_planted_from_their_night(floor) -> None:
    nights = [json.loads((floor / n / "surveillance.truth.json").read_text("utf-8"))
              for n in NIGHTS]
    assert [n["careless"] for n in nights] == [{}, {"D-1004": 5.0}, {"D-1004": 5.0}]
    assert [n["collusions"]["pairs"] for n in nights] == [
        [], [["D-1007", "P-00042", 0.5]], [["D-1007", "P-00042", 0.5]]]
    planted = [(night, fault) for night in NIGHTS
               for truth in (floor / night).glob("*.truth.json")
               if truth.name != "surveillance.truth.json"
               for fault in json.loads(truth.read_text("utf-8"))["faults"]
               if "P-00042" in fault["what"]]
    assert all(night != NIGHTS[0] for night, _ in planted)
    # over-paid only at D-1007's rounds, never at Blackjack Switch
    for night, fault in planted:
        record = floor / night / fault["file"]
        assert TABLES[record.stem.split("-", 1)[1]] != "switch"
        dealer = None
        for number, line in enumerate(record.read_text("utf-8").splitlines(), 1):
            if line.startswith("round "):
                dealer = re.search(r"dealer=(\S+)", line).group(1)
            if number == fault["line"]:
                break
        assert dealer == "D-1007"
    assert nights[2]["repeated_shoe"]["source"]["file"].startswith("standard-ST-01")


@pytest.mark.parametrize(("text", "message"), [
    (FLOOR.replace("nights = 3", "nights = 3\ncolour = 1"),
     "unknown key `colour` (the keys are careless, collude, dealers, faults, first_night, "
     "nights, players, repeat_shoe, seed, tables)"),
    (FLOOR.replace("dealers = 16", "dealers = 11"),
     "`dealers` is 11: it goes from 12 up"),
    (FLOOR.replace('dealer = "D-1004"', 'dealer = "D-2004"'),
     "[[careless]] number 1: `dealer` 'D-2004' is not on the roster (D-1001 to D-1016)"),
    (FLOOR.replace('player = "P-00042"', 'player = "P-99999"'),
     "[[collude]] number 1: `player` 'P-99999' is not in the pool (P-00001 to P-00120)"),
    (FLOOR.replace("first_night = 2026-11-01", "first_night = 2026-13-01"),
     "line 2: `first_night`: '2026-13-01' is not a date; write YYYY-MM-DD"),
    (FLOOR.replace('game = "switch"', 'game = "poker"'),
     "[[tables]] number 2: `game` is 'poker'; choose one of"),
    (FLOOR.replace("count = 2\nrounds = 100", "count = 2\nrounds = 100\nid = \"ST\""),
     "[[tables]] number 2: `id` 'ST' is another group's"),
    (FLOOR.replace("from_night = 2\n\n[[collude]]", "from_night = 9\n\n[[collude]]"),
     "[[careless]] number 1: `from_night` is 9: it goes from 1 to 3"),
])
def test_a_floor_file_that_cannot_be_used_is_one_line(tmp_path, capsys, text,
                                                      message) -> None:
    path = tmp_path / "floor.toml"
    path.write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert main(["simulate", "--floor", str(path), "--out", str(tmp_path / "out")]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"auditor: {path}: ") and message in error, error
    assert len(error.splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_floor_options_come_from_the_file_alone(tmp_path, capsys) -> None:
    path = tmp_path / "floor.toml"
    path.write_text(FLOOR, encoding="utf-8")
    capsys.readouterr()
    assert main(["simulate", "--floor", str(path), "--game", "standard", "--rounds", "5",
                 "--seed", "x", "--out", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err == (
        "auditor: --floor takes the floor from its file: --game, --rounds, --seed cannot "
        "be given with it\n")
    assert main(["simulate", "--rounds", "5", "--out", str(tmp_path / "out")]) == 2
    assert "needs --game and --rounds or --hours (or --floor FILE)" in capsys.readouterr().err
