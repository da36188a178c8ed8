"""The injectors by citation, and the table a faulty round draws them from. Imports nothing
of the table or the game: `auditor.simulate.simulate` hands an `InjectorTable` to each
`Session` (table.py), which asks it for candidates."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from auditor.simulate.faults.base import Injector

if TYPE_CHECKING:
    from auditor.simulate.table import Session

FILE_LEVEL = frozenset({"record:header"})  # planted in the header, see table.Session.header
# citation -> its injectors, in the order they were written (a faulty round draws among
# them in this order: changing it changes every simulated record)
INJECTORS: dict[str, list[type[Injector]]] = {}


def injector(cls: type[Injector]) -> type[Injector]:
    INJECTORS.setdefault(cls.citation, []).append(cls)
    return cls


def clause_words(name: str) -> str:
    """An injector's name as words: MainWagerUnderMinimum -> main wager under minimum."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).lower()


class InjectorTable:
    """The injectors for the checks the auditor has, in the order a faulty round tries them."""

    def __init__(self) -> None:
        from auditor import checks as _checks  # noqa: F401  (registers every check)
        from auditor.checks.base import registry

        # A check held to a file outside the record (--approved) has no fault to plant.
        self.checks = {c: check for c, check in registry().items() if not check.outside_file}

    def citations(self, game: str) -> list[str]:
        return [c for c, check in self.checks.items()
                if check.applies_to(game) and c not in FILE_LEVEL
                and any(game in v.games for v in INJECTORS.get(c, ()))]

    def missing(self, game: str) -> list[str]:
        """Checks of the game that no injector covers."""
        return [c for c, check in self.checks.items() if check.applies_to(game)
                and c not in FILE_LEVEL
                and not any(game in v.games for v in INJECTORS.get(c, ()))]

    def candidates(self, session: Session, rng: random.Random) -> Iterator[Injector]:
        """The least planted citations first, so that every check gets its faults."""
        spec = session.spec
        # The least planted clause first (then the least planted citation): a fault with a
        # rare occasion (the bonus card dealt, a split) is planted when the occasion comes.
        variants = [(session.clause_count[v.__name__], session.planted_count[c], rng.random(), v)
                    for c in self.citations(spec.game) for v in INJECTORS[c]
                    if spec.game in v.games]
        for *_, variant in sorted(variants, key=lambda entry: entry[:3]):
            made = variant()
            if made.suits(spec):
                yield made

