"""Fault injectors, keyed by the citation of the check that must find them.

An injector plants one fault in one round. It either bends the play through a hook that
the round builder (game.py) consults at the right moment (a double for too much, a dealer
who stops early: hooks.py lists them), or edits the finished round (a wrong payout, a
statement moved out of order). Either way it marks the statement that shows the fault, and
the rest of the round stays consistent with it: settlements are made on the cards as dealt,
so one fault gives exactly one finding, under its own citation (rule-catalog.md: "one
fault, one finding").

The injectors are kept by game: faults of the record itself (record.py), of the rules
every game keeps (standard.py), and of each game's own rules (db21.py, ladies.py,
switch.py, tensticks.py); wagers.py holds the ways of breaking a wager that several games
share. To cover a new check, write an `Injector` subclass with its `citation` in the
module of its game and decorate it with `@injector`; several variants may share a citation.
The modules are imported below in the order a faulty round tries a citation's variants:
keep it, or the simulator's records change.
"""

# isort: off
from auditor.simulate.faults import record, standard, db21, ladies, switch, tensticks  # noqa: F401
# isort: on
from auditor.simulate.faults.base import ALL_GAMES, Injector
from auditor.simulate.faults.registry import (
    FILE_LEVEL,
    INJECTORS,
    InjectorTable,
    clause_words,
    injector,
)

__all__ = ["ALL_GAMES", "FILE_LEVEL", "INJECTORS", "Injector", "InjectorTable",
           "clause_words", "injector"]
