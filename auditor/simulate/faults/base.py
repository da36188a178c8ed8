"""The fault injector: the no-fault hooks (hooks.py) with the citation of the check that
must find its fault and the games and tables it suits."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from auditor.simulate.hooks import Hooks

if TYPE_CHECKING:
    from auditor.simulate.spec import TableSpec

ALL_GAMES = frozenset({"standard", "switch", "db21", "tensticks", "ladies"})


class Injector(Hooks):
    """One way of breaking one rule: it overrides the hooks it needs. Its class name is
    the clause recorded with every fault it plants (`*.truth.json`)."""

    games: ClassVar[frozenset[str]] = ALL_GAMES

    def suits(self, spec: TableSpec) -> bool:
        """Whether the table's rules allow this fault at all (e.g. surrender offered)."""
        return True

    def allows_misdeals(self) -> bool:
        return False  # a lawful misdeal could take the wager an edit is meant for
