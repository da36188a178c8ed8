"""The registry of games: every game the auditor judges, and what the audit adds for it.

This is the one place a game is registered. Each game names the regulation's section of its
own rules, the function that derives its facts from a replayed round (None: its checks
read the round as replayed), and the modules of its own checks. The checks of the record
and of the chapter's standard rules (`EVERY_GAME`) are judged on the games each check's
`games` names.

Nothing registers itself out of sight: a check is registered (`@register`,
auditor/checks/base.py) when its module is imported, and the modules imported are the ones
listed here; a game's facts are derived on first use by the function named here, never by
a hook of the replay. The check runner (auditor/checks/runner.py) takes its checks from
this registry, and tests/house/test_house.py holds every check module to being listed here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from auditor.checks import approval, db21, ladies, record
from auditor.checks.base import Check, registry
from auditor.checks.standard import dealer, player, wagers
from auditor.checks.switch import payouts as switch_payouts
from auditor.checks.switch import play as switch_play
from auditor.checks.switch import super_match as switch_super_match
from auditor.checks.switch import table as switch_table
from auditor.checks.tensticks import bonus_card as tensticks_bonus_card
from auditor.checks.tensticks import lights as tensticks_lights
from auditor.checks.tensticks import punch_card as tensticks_punch_card
from auditor.replay import ladies as ladies_facts
from auditor.replay import switch as switch_facts
from auditor.replay import tensticks as tensticks_facts
from auditor.replay.view import RoundView


@dataclass(frozen=True, slots=True)
class Game:
    name: str  # as a header's `table` statement names it (`game=switch`)
    title: str
    section: str | None  # the regulation's section of its own rules; None: the chapter's
    facts: Callable[[RoundView], Any] | None  # a round's facts, derived on first use
    checks: tuple[ModuleType, ...]  # the modules of its own checks


EVERY_GAME: tuple[ModuleType, ...] = (approval, record, wagers, player, dealer)
"""The checks of the record and of the chapter's standard rules, for the games each names."""

GAMES: tuple[Game, ...] = (
    Game("standard", "Standard blackjack", None, None, ()),
    Game("switch", "Blackjack Switch", "20:18:15:30.09", switch_facts.of,
         (switch_table, switch_super_match, switch_payouts, switch_play)),
    Game("db21", "Dealer Bust 21", "20:18:15:30.10", db21.judged_db21, (db21,)),
    Game("tensticks", "Ten sticks 21", "20:18:15:30.02", tensticks_facts.of,
         (tensticks_bonus_card, tensticks_lights, tensticks_punch_card)),
    Game("ladies", "Lucky Ladies blackjack", "20:18:15:30.04", ladies_facts.of, (ladies,)),
)


def game(name: str) -> Game:
    """The registered game of this name (KeyError: the auditor judges no such game)."""
    for each in GAMES:
        if each.name == name:
            return each
    raise KeyError(name)


def check_modules() -> tuple[ModuleType, ...]:
    """Every module of checks the registry lists: those of every game, then each game's."""
    return EVERY_GAME + tuple(module for each in GAMES for module in each.checks)


def every_check() -> list[Check]:
    """Every registered check, in the order registered (the modules above imported)."""
    return list(registry().values())
