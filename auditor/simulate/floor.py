"""`auditor simulate --floor FILE`: a whole floor in one call, described by a TOML file.

A floor is tables of several games (each with its own table IDs), dealt night after night
by one roster of dealers and played by one pool of players, with careless dealers and
colluding dealer–player pairs planted from a given night. docs/surveillance.md gives the
file's format; `FloorFile` reads and checks it. Each night is written to `OUT/YYYY-MM-DD/`
(its gaming date: one folder a night, as `auditor audit` takes them), with the records,
their truth files and the night's `surveillance.truth.json`; `OUT/floor.truth.json` holds
the plan and what was planted, night by night. The same file and seed give the same bytes.

Each night the roster is shuffled (seeded by the floor's seed and the night) and the floor's
tables take two dealers each in turn, the rest resting: a dealer moves between tables and
games from night to night. The pool of players is shuffled the same way and shared out,
each table taking its players in turn from its share, so a player plays at one table a
night and at others on other nights. A colluding player is kept out of the shares on the
nights his collusion runs: he sits only at his dealer's table (at a game whose over-payment
is 20:18:15:06; never at Blackjack Switch, whose rule is its own).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from auditor.simulate.surveillance import DEALERS_PER_TABLE, FIRST_DEALER, OVERPAY_GAMES, Floor

GAME_IDS = {"standard": "ST", "switch": "SW", "db21": "DB", "tensticks": "TS", "ladies": "LL"}
TOP_KEYS = {"seed", "first_night", "nights", "faults", "dealers", "players", "tables",
            "careless", "collude", "repeat_shoe"}
TABLE_KEYS = {"game", "count", "rounds", "hours", "decks", "seats", "min", "max", "options",
              "id"}
MOST_NIGHTS = 3660  # ten years
MOST_TABLES = 500


class FloorFileError(ValueError):
    """The floor file cannot be used: one plain sentence naming the file and the key."""


@dataclass
class TableGroup:
    game: str
    count: int
    rounds: int | None
    hours: float | None
    decks: int | None
    seats: int
    minimum: int
    maximum: int
    options: dict[str, str]
    table_id: str  # the prefix of its tables' IDs


@dataclass
class Planted:
    """A careless dealer (`player` None) or a colluding pair, from a night on."""

    dealer: str
    from_night: int
    multiple: float = 1.0
    player: str | None = None
    rate: float = 0.0


@dataclass
class FloorFile:
    seed: str
    first_night: date
    nights: int
    faults: float
    dealers: list[str]
    players: list[str]
    groups: list[TableGroup]
    careless: list[Planted] = field(default_factory=list)
    collusions: list[Planted] = field(default_factory=list)
    repeat_night: int | None = None
    repeat_game: str | None = None

    @property
    def tables(self) -> int:
        return sum(group.count for group in self.groups)


def _number(document: dict, key: str, name: str, kind: type, low: float,
            high: float | None = None, default: Any = None) -> Any:
    value = document.get(key, default)
    if value is None:
        raise FloorFileError(f"{name}: `{key}` is missing")
    if isinstance(value, bool) or not isinstance(value, (int, float) if kind is float else int):
        raise FloorFileError(f"{name}: `{key}` is {value!r}, not a number")
    if value < low or (high is not None and value > high):
        bounds = f"from {low:g}" + (f" to {high:g}" if high is not None else " up")
        raise FloorFileError(f"{name}: `{key}` is {value!r}: it goes {bounds}")
    return kind(value)


def _night(document: dict, key: str, name: str, nights: int) -> int:
    return _number(document, key, name, int, 1, nights)


def read_floor_file(path: Path) -> FloorFile:
    """The floor the file describes, or FloorFileError saying what is wrong."""
    from auditor.tomlfile import read_toml

    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise FloorFileError(f"{name}: cannot be read ({getattr(error, 'strerror', None) or error})"
                             ) from error
    document = read_toml(text, name, FloorFileError, date_keys=("first_night",))
    unknown = sorted(set(document) - TOP_KEYS)
    if unknown:
        raise FloorFileError(f"{name}: unknown key `{unknown[0]}` (the keys are "
                             f"{', '.join(sorted(TOP_KEYS))})")
    first = document.get("first_night", date(2026, 11, 20))
    if not isinstance(first, date) or hasattr(first, "hour"):
        raise FloorFileError(f"{name}: `first_night` is {first!r}, not a date (YYYY-MM-DD)")
    nights = _number(document, "nights", name, int, 1, MOST_NIGHTS)
    faults = _number(document, "faults", name, float, 0.0, 1.0, default=0.0)
    seed = document.get("seed", "1")
    if not isinstance(seed, str | int) or isinstance(seed, bool):
        raise FloorFileError(f"{name}: `seed` is {seed!r}, not text")
    groups = _groups(document.get("tables"), name)
    tables = sum(g.count for g in groups)
    dealers = _number(document, "dealers", name, int, DEALERS_PER_TABLE * tables,
                      default=DEALERS_PER_TABLE * tables + 2)
    # more players a table a night than it has seats: a player is never seated twice
    players = _number(document, "players", name, int, 10 * tables, default=40 * tables)
    floor = FloorFile(str(seed), first, nights, faults,
                      [f"D-{FIRST_DEALER + n}" for n in range(dealers)],
                      [f"P-{n + 1:05d}" for n in range(players)], groups)
    _planted(document, floor, name)
    return floor


def _groups(entries: Any, name: str) -> list[TableGroup]:
    from auditor.simulate.spec import GAMES

    if not isinstance(entries, list) or not entries:
        raise FloorFileError(f"{name}: no `[[tables]]`: a floor has tables")
    groups, taken = [], set()
    for number, entry in enumerate(entries, 1):
        where = f"{name}: [[tables]] number {number}"
        if not isinstance(entry, dict):
            raise FloorFileError(f"{where} is not a table of keys")
        unknown = sorted(set(entry) - TABLE_KEYS)
        if unknown:
            raise FloorFileError(f"{where}: unknown key `{unknown[0]}`")
        game = entry.get("game")
        if game not in GAMES:
            raise FloorFileError(f"{where}: `game` is {game!r}; choose one of "
                                 f"{', '.join(GAMES)}")
        if ("rounds" in entry) == ("hours" in entry):
            raise FloorFileError(f"{where}: give `rounds` (a table a night) or `hours`")
        rounds = _number(entry, "rounds", where, int, 1, 100_000) if "rounds" in entry else None
        hours = _number(entry, "hours", where, float, 0.01, 24) if "hours" in entry else None
        options = entry.get("options", {})
        if not isinstance(options, dict) or not all(isinstance(v, str | int) and not
                                                    isinstance(v, bool)
                                                    for v in options.values()):
            raise FloorFileError(f"{where}: `options` is a table of KEY = \"VALUE\"")
        default = GAME_IDS[game]
        prefix = entry.get("id", default if default not in taken else f"{default}{number}")
        if not isinstance(prefix, str) or not prefix.isascii() or not prefix.isalnum():
            raise FloorFileError(f"{where}: `id` is {prefix!r}: letters and digits only")
        if prefix in taken:
            raise FloorFileError(f"{where}: `id` {prefix!r} is another group's: each group's "
                                 "tables have their own IDs")
        taken.add(prefix)
        groups.append(TableGroup(
            game, _number(entry, "count", where, int, 1, MOST_TABLES, default=1), rounds,
            hours, _number(entry, "decks", where, int, 1, 8) if "decks" in entry else None,
            _number(entry, "seats", where, int, 1, 9, default=7),
            _number(entry, "min", where, int, 1, default=10),
            _number(entry, "max", where, int, 1, default=1000),
            {str(k): str(v) for k, v in options.items()}, prefix))
    if sum(g.count for g in groups) > MOST_TABLES:
        raise FloorFileError(f"{name}: more than {MOST_TABLES} tables")
    return groups


def _planted(document: dict, floor: FloorFile, name: str) -> None:
    for kind in ("careless", "collude"):
        entries = document.get(kind, [])
        if not isinstance(entries, list):
            raise FloorFileError(f"{name}: `{kind}` is written [[{kind}]]")
        for number, entry in enumerate(entries, 1):
            where = f"{name}: [[{kind}]] number {number}"
            if not isinstance(entry, dict):
                raise FloorFileError(f"{where} is not a table of keys")
            dealer = entry.get("dealer")
            if dealer not in floor.dealers:
                raise FloorFileError(f"{where}: `dealer` {dealer!r} is not on the roster "
                                     f"({floor.dealers[0]} to {floor.dealers[-1]})")
            start = _night(entry, "from_night", where, floor.nights) \
                if "from_night" in entry else 1
            if kind == "careless":
                floor.careless.append(Planted(dealer, start, multiple=_number(
                    entry, "multiple", where, float, 0.0)))
                continue
            player = entry.get("player")
            if player not in floor.players:
                raise FloorFileError(f"{where}: `player` {player!r} is not in the pool "
                                     f"({floor.players[0]} to {floor.players[-1]})")
            floor.collusions.append(Planted(dealer, start, player=player,
                                            rate=_number(entry, "rate", where, float, 0.0, 1.0)))
    if floor.careless and not floor.faults:
        raise FloorFileError(f"{name}: a careless dealer needs a `faults` rate")
    if floor.collusions and not any(g.game in OVERPAY_GAMES for g in floor.groups):
        raise FloorFileError(f"{name}: a collusion plants 20:18:15:06 over-payments: the "
                             f"floor needs a table of {', '.join(OVERPAY_GAMES)}")
    repeat = document.get("repeat_shoe")
    if repeat is not None:
        where = f"{name}: [repeat_shoe]"
        if not isinstance(repeat, dict):
            raise FloorFileError(f"{where} is a table of keys")
        floor.repeat_night = _night(repeat, "night", where, floor.nights)
        games = [g.game for g in floor.groups]
        floor.repeat_game = repeat.get("game", games[0])
        if floor.repeat_game not in games:
            raise FloorFileError(f"{where}: `game` {floor.repeat_game!r} has no tables here")


def _shared(items: list[str], parts: int, size: int | None,
            rng: random.Random) -> list[list[str]]:
    """`items` shuffled and dealt into `parts` shares of `size` (None: as many as go
    evenly); what is left over rests."""
    shuffled = list(items)
    rng.shuffle(shuffled)
    size = size or len(shuffled) // parts
    return [shuffled[k * size:(k + 1) * size] for k in range(parts)]


def simulate_floor(floor: FloorFile, out: Path) -> dict[str, Any]:
    """Every night of the floor written under `out`; returns what `floor.truth.json`
    holds."""
    from auditor.simulate import simulate, table_spec

    out.mkdir(parents=True, exist_ok=True)
    truth: dict[str, Any] = {
        "seed": floor.seed, "first_night": floor.first_night.isoformat(),
        "nights": floor.nights, "faults": floor.faults, "dealers": floor.dealers,
        "players": [floor.players[0], floor.players[-1]],
        "tables": [],
        "careless": [{"dealer": p.dealer, "multiple": p.multiple, "from_night": p.from_night}
                     for p in floor.careless],
        "collusions": [{"dealer": p.dealer, "player": p.player, "rate": p.rate,
                        "from_night": p.from_night} for p in floor.collusions],
        "night_by_night": []}
    specs = []
    for group in floor.groups:
        spec = table_spec(group.game, table_id=group.table_id, decks=group.decks,
                          seats=group.seats, minimum=group.minimum, maximum=group.maximum,
                          options=group.options)
        ids = [group.table_id if group.count == 1 else f"{group.table_id}-{n:02d}"
               for n in range(1, group.count + 1)]
        truth["tables"] += [{"table": table_id, "game": group.game} for table_id in ids]
        specs.append((group, spec, ids))
    rounds = 0
    for night in range(1, floor.nights + 1):
        day = floor.first_night + timedelta(days=night - 1)
        rng = random.Random(f"{floor.seed}:floor:{night}")
        colluders = {p.player for p in floor.collusions if night >= p.from_night}
        assignment = _shared(floor.dealers, floor.tables, DEALERS_PER_TABLE, rng)
        players = _shared([p for p in floor.players if p not in colluders], floor.tables,
                          None, rng)
        careless = {p.dealer: p.multiple for p in floor.careless if night >= p.from_night}
        collusions = [(p.dealer, p.player, p.rate) for p in floor.collusions
                      if night >= p.from_night]
        folder = out / day.isoformat()
        offset, night_truth = 0, {"night": night, "date": day.isoformat(), "tables": {},
                                  "careless": careless, "collusions": [],
                                  "repeated_shoe": None}
        for group, spec, ids in specs:
            planted = Floor(group.count, day.toordinal(), floor.faults, offset=offset,
                            assignment=assignment, players=players, more_careless=careless,
                            more_collusions=collusions, roster_names=floor.dealers,
                            repeat_shoe=(floor.repeat_night == night
                                         and floor.repeat_game == group.game
                                         and group.count > 1),
                            writes_truth=False)
            result = simulate(folder, spec, tables=group.count, rounds=group.rounds,
                              hours=group.hours, seed=f"{floor.seed}:{night}",
                              faults=floor.faults, start=day, floor=planted)
            rounds += result.rounds
            for number, table_id in enumerate(ids):
                night_truth["tables"][table_id] = assignment[offset + number]
            night_truth["collusions"] += planted.truth.get("collusion", {}).get(
                "over_payments", [])
            if "repeated_shoe" in planted.truth:
                night_truth["repeated_shoe"] = planted.truth["repeated_shoe"]
            offset += group.count
        night_truth["collusions"] = {"pairs": [list(c) for c in collusions],
                                     "over_payments": night_truth["collusions"]}
        (folder / "surveillance.truth.json").write_text(
            json.dumps(night_truth, indent=1) + "\n", encoding="utf-8")
        truth["night_by_night"].append({"date": day.isoformat(),
                                        "tables": night_truth["tables"]})
    truth["rounds"] = rounds
    (out / "floor.truth.json").write_text(json.dumps(truth, indent=1) + "\n",
                                          encoding="utf-8")
    return truth
