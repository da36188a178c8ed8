"""A table's configuration: the header's `table` and `option` statements, validated."""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

MAX_AMOUNT = Decimal(10) ** 15
"""Amounts are read exactly up to 15 digits before the point: past that a value is not
read (record:syntax or record:header), so that no sum or comparison of amounts can overflow
the exact decimal arithmetic (28 significant digits) it is judged with."""

Game = Literal["standard", "switch", "db21", "tensticks", "ladies"]


class HouseRules(BaseModel):
    """The `option` statements; names are the option keys with dots as underscores."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    soft17: Literal["hit", "stand"] = "stand"
    peek: Literal["yes", "no"] = "yes"
    blackjack: Literal["3:2", "6:5", "1:1"] | None = None  # None: the game's default
    double: Literal["any", "9-11", "10-11"] = "any"
    das: Literal["yes", "no"] = "yes"
    splits: int = Field(3, ge=1, le=3)
    surrender: Literal["no", "late"] = "no"
    db21_paytable: int | None = Field(None, ge=1, le=4)
    ladies_paytable: Literal["A", "B", "C"] | None = None
    sidebet_min: Decimal | None = Field(None, ge=0, lt=MAX_AMOUNT)
    sidebet_max: Decimal | None = Field(None, ge=0, lt=MAX_AMOUNT)
    tensticks_trade: Literal["yes", "no"] = "yes"
    tensticks_lights: int = Field(10, ge=1)
    tensticks_prize: Decimal | None = Field(None, ge=0, lt=MAX_AMOUNT)


def option_key(name: str) -> str:
    """The option key a header writes for a HouseRules field (`db21_paytable` is
    `db21.paytable`)."""
    return name.replace("_", ".", 1) if name.startswith(
        ("db21", "sidebet", "tensticks", "ladies")) else name


OPTION_KEYS = {option_key(name) for name in HouseRules.model_fields}


class UnknownRule(BaseModel):
    """A house rule the header does not let anyone know (record:header): an option given two
    different values, or an option or `decks` given a value it cannot take. The rules that
    depend on it are judged under each value it could hold (auditor/unknown_rules.py)."""

    # defer_build: built at first use, by a header that leaves a rule unknown
    model_config = ConfigDict(frozen=True, defer_build=True)

    key: str  # as the header writes it: `das`, `db21.paytable`, `decks`
    field: str  # the HouseRules field, or `decks`
    values: tuple  # what it could hold (for a bad value, one of each kind that judges alike)
    why: str  # `set to yes at line 4 and to no at line 5`
    line: int  # the last line that gives it (the `table` line for `decks` not given)

    def describe(self) -> str:
        return f"{self.key} ({self.why})"


class TableConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    table_id: str = "?"
    # None: the header names no game the format knows, or a value that decides which rules
    # apply cannot be read; no game's rules are judged then (record:header).
    game: Game | None = "standard"
    decks: int = Field(6, ge=1)
    seats: int = Field(7, ge=1, le=9)
    minimum: Decimal | None = Field(None, lt=MAX_AMOUNT)
    maximum: Decimal | None = Field(None, lt=MAX_AMOUNT)
    currency: str | None = None
    casino: str | None = None
    licence: str | None = None
    rules: HouseRules = HouseRules()
    unknown: tuple[UnknownRule, ...] = ()  # house rules that cannot be known; () nearly always
    # The HouseRules fields the header's `option` statements set (each to one value it can
    # take); every other field holds the default the auditor assumes, not the house's word.
    declared: frozenset[str] = frozenset()

    @property
    def blackjack_odds(self) -> str:
        if self.game == "switch":
            return "1:1"  # fixed by 20:18:15:30.09(10)
        return self.rules.blackjack or "3:2"

    @property
    def hits_soft_17(self) -> bool:
        return self.rules.soft17 == "hit"

    def declares(self, name: str) -> bool:
        """Whether the header declares the house rule `name` (a HouseRules field), rather
        than leaving the auditor to assume its default."""
        return name in self.declared

    def assumes_default(self, name: str) -> bool:
        """Whether the house rule `name` is judged at its default because the header never
        gave it: neither declared nor left unknown (an unknown rule is judged at each value
        it could hold, and a finding's message says so)."""
        return name not in self.declared and all(rule.field != name for rule in self.unknown)


def option_field(key: str) -> str | None:
    """The HouseRules field for an option key, or None if the key is unknown."""
    name = key.replace(".", "_")
    return name if key in OPTION_KEYS and name in HouseRules.model_fields else None


def validation_messages(error: ValidationError) -> list[str]:
    return [f"{'.'.join(str(p) for p in item['loc'])}: {item['msg']}" for item in error.errors()]
