"""A simulated table as it is dealt and as its header declares it: the game, decks, seats,
limits and house rules validated (`table_spec`: the simulator deals only what the rules
allow), the record's shape beyond what is dealt (`RecordShape`), and the header's planted
faults (`header_clause`, `as_declared`)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from auditor.config import HouseRules

ALL_GAMES_NAMES = frozenset({"standard", "switch", "db21", "tensticks", "ladies"})

GAMES = ("standard", "switch", "db21", "tensticks", "ladies")
DECKS = {"standard": (1, 2, 6, 8), "switch": (6, 8), "db21": (6, 8), "tensticks": (6, 8),
         "ladies": (1, 2, 6, 8)}


class SpecError(ValueError):
    """A table the simulator will not deal: the records would not be compliant."""


@dataclass(frozen=True)
class TableSpec:
    game: str
    table_id: str = "T01"
    decks: int = 6
    seats: int = 7
    minimum: int = 1000  # cents
    maximum: int = 100000
    rules: HouseRules = field(default_factory=HouseRules)
    options: tuple[tuple[str, str], ...] = ()  # as written in the header

    @property
    def blackjack_odds(self) -> str:
        return "1:1" if self.game == "switch" else self.rules.blackjack or "3:2"

    @property
    def side_limits(self) -> tuple[int, int]:
        low = self.rules.sidebet_min if self.rules.sidebet_min is not None else 5
        high = self.rules.sidebet_max if self.rules.sidebet_max is not None else 100
        return int(low * 100), int(high * 100)


def table_spec(game: str, *, table_id: str = "T01", decks: int | None = None,
               seats: int = 7, minimum: int = 10, maximum: int = 1000,
               options: dict[str, str] | None = None) -> TableSpec:
    """A validated table: the game, whole-unit limits and `option` key=value pairs."""
    if game not in GAMES:
        raise SpecError(f"unknown game {game!r}; choose one of {', '.join(GAMES)}")
    decks = decks or 6
    if decks not in DECKS[game]:
        raise SpecError(f"{game} is dealt from {' or '.join(map(str, DECKS[game]))} decks, "
                        f"not {decks}")
    if not 1 <= seats <= 9:
        raise SpecError("a table has 1 to 9 seats")
    if not 0 < minimum <= maximum:
        raise SpecError("the table minimum must be positive and not above the maximum")
    given = dict(options or {})
    defaults = {"db21": {"db21.paytable": "1", "sidebet.min": "5", "sidebet.max": "100"},
                "switch": {"sidebet.min": "5", "sidebet.max": "100"},
                "tensticks": {"tensticks.prize": "500"},
                "ladies": {"ladies.paytable": "C" if decks == 1 else "A", "sidebet.min": "1",
                           "sidebet.max": "100"}}.get(game, {})
    for key, value in defaults.items():
        given.setdefault(key, value)
    try:
        rules = HouseRules(**{key.replace(".", "_"): value for key, value in given.items()})
    except Exception as error:  # pydantic names the bad option
        raise SpecError(f"bad option: {error}") from error
    if game == "switch" and rules.blackjack not in (None, "1:1"):
        raise SpecError("Blackjack Switch pays blackjack 1 to 1")
    if game != "switch" and rules.blackjack == "1:1":
        raise SpecError("blackjack pays at least 3 to 2 (6 to 5 with one deck)")
    if game == "ladies" and (rules.ladies_paytable == "C") != (decks == 1):
        raise SpecError("Lucky Ladies pay table C is dealt with one deck, A and B with more")
    if rules.blackjack == "6:5" and decks != 1:
        raise SpecError("6 to 5 blackjack is allowed with one deck only")
    if rules.sidebet_min is not None and rules.sidebet_max is not None and (
            rules.sidebet_min > rules.sidebet_max or rules.sidebet_min <= 0):
        raise SpecError("sidebet.min must be positive and not above sidebet.max")
    written = _header_options(game, rules, given)
    return TableSpec(game, table_id, decks, seats, minimum * 100, maximum * 100, rules,
                     written)


def _header_options(game: str, rules: HouseRules, given: dict[str, str]) -> tuple:
    """Every house rule of the table, spelled out: an inspector should not need defaults."""
    written = [("soft17", rules.soft17), ("peek", rules.peek)]
    if game != "switch" or rules.blackjack:
        written.append(("blackjack", rules.blackjack or "3:2"))
    written += [("double", rules.double), ("das", rules.das), ("splits", str(rules.splits)),
                ("surrender", rules.surrender)]
    for key in ("db21.paytable", "ladies.paytable", "sidebet.min", "sidebet.max", "tensticks.trade",
                "tensticks.lights", "tensticks.prize"):
        if key in given or (key.startswith("tensticks.") and game == "tensticks"):
            value = getattr(rules, key.replace(".", "_"))
            written.append((key, str(value)))
    return tuple(written)


class RecordShape:
    """How a table's record is written beyond what is dealt: the forms the format allows
    and a careful writer may never use (bjh-format.md §1). Drawn per table from its own
    random stream, so the play is the same whatever the shape."""

    def __init__(self, rng: random.Random) -> None:
        self.newline = "\r\n" if rng.random() < 0.25 else "\n"
        self.fractions = rng.random() < 0.3  # HH:MM:SS.fff time stamps
        self.remarks = rng.choice((0.0, 0.0, 0.04, 0.1))  # comments, blank lines, notes
        self.currency = rng.choice(("USD", "USD", "USD", "EUR", "CAD", "MXN"))
        self.cents = rng.random() < 0.3  # some players wager in halves of a unit
        # a header with only the options that differ from the format's defaults, and no
        # side-bet limits or Ten sticks prize (which then are not judged)
        self.terse = rng.random() < 0.3
        self.rng = rng


# What `option` statements a header may leave out (bjh-format.md §3): their defaults,
# and the options with no default, whose absence leaves what they post unjudged.
_DEFAULTS = {"soft17": "stand", "peek": "yes", "blackjack": "3:2", "double": "any",
             "das": "yes", "splits": "3", "surrender": "no", "tensticks.trade": "yes",
             "tensticks.lights": "10"}
_OPTIONAL = ("sidebet.min", "sidebet.max", "tensticks.prize")

# The header's faults (`--header-fault`): the clause and the games it suits.
HEADER_CLAUSES = {
    "UnknownHeaderOption": ALL_GAMES_NAMES,
    "CasinoAfterTable": ALL_GAMES_NAMES,
    "MissingVersionLine": ALL_GAMES_NAMES,
    "DeckCountNotSixOrEight": frozenset({"switch"}),  # 20:18:15:30.09(1)
    "Db21WithoutPaytable": frozenset({"db21"}),
    "LadiesWithoutPaytable": frozenset({"ladies"}),
}
HEADER_CITATIONS = {"DeckCountNotSixOrEight": "20:18:15:30.09(1)"}


def terse_options(options: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    return tuple((key, value) for key, value in options
                 if key not in _OPTIONAL and _DEFAULTS.get(key) != value)


def header_clause(spec: TableSpec, chosen: bool | str, rng: random.Random) -> str | None:
    """The header fault to plant: the one named, or (True) one of those suiting the game."""
    if not chosen:
        return None
    suited = [c for c, games in HEADER_CLAUSES.items() if spec.game in games]
    if chosen is True:
        return rng.choice(suited)
    if chosen not in suited:
        raise SpecError(f"the header fault {chosen} is not planted at {spec.game} tables; "
                        f"choose one of {', '.join(suited)}")
    return chosen


def as_declared(spec: TableSpec, clause: str | None, shape: RecordShape) -> TableSpec:
    """The table as its header will declare it: a header fault or a terse header change
    what the auditor is told (the rounds are dealt as before)."""
    options = terse_options(spec.options) if shape.terse else spec.options
    if clause == "Db21WithoutPaytable":
        options = tuple(o for o in options if o[0] != "db21.paytable")
    if clause == "LadiesWithoutPaytable":
        options = tuple(o for o in options if o[0] != "ladies.paytable")
    decks = 4 if clause == "DeckCountNotSixOrEight" else spec.decks
    return replace(spec, options=options, decks=decks)
