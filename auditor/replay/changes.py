"""What each line of a replayed round changed on the table, in raw values: the form in which
the report shows a replay (auditor/report/replays.py). Built once from the round's steps
(`trace.RoundEvidence`), while they are in memory, and stored beside them, so the report
neither decodes every step of a stored replay nor compares them again.

An entity of the table is a key and its state, a tuple (a list once read back from JSON):
    "dealer"      (cards, total, revealed)
    "hand:NAME"   (cards, total, soft, status, wagers, doubled); each wager
                  (kind, tip, amount, settled); a wager's target with no hand dealt yet
                  is a hand with no cards
    "seat:SEAT"   (player,)
A round's changes: the named players seated when it began (`seated`), then for each line
that has a step, the entities that changed or came (in the step's order) and the keys of
those that went (`lines`: [line, [[key, state], ...], [key, ...]]).
"""

from __future__ import annotations

import re
from operator import is_
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from auditor.replay.trace import RoundEvidence

TIME = re.compile(r"^\s*(\d\d:\d\d:\d\d(?:\.\d+)?)\s+(.*)$")  # a line's time stamp


def round_changes(evidence: RoundEvidence) -> dict[str, Any]:
    """The round's changes line by line (see the module's docstring)."""
    previous = seated_before(evidence)
    seated = list(previous.items())
    lines = []
    entities = _Entities()
    for line, _ in evidence.lines:
        step = evidence.steps.get(line)
        if step is None:
            continue
        current = entities(step)
        came = [(key, state) for key, state in current.items()
                if (before := previous.get(key)) is not state and before != state]
        gone = [] if previous.keys() <= current.keys() else sorted(
            previous.keys() - current.keys())
        lines.append((line, came, gone))
        previous = current
    return {"seated": seated, "lines": lines}


def seated_before(evidence: RoundEvidence) -> dict[str, tuple]:
    """The named players seated when the round began: those after its first statement, less
    a seat that statement itself filled."""
    if not evidence.steps:
        return {}
    first = min(evidence.steps)
    players = dict(evidence.steps[first].get("players", {}))
    text = dict(evidence.lines).get(first, "")
    match = TIME.match(text)
    words = (match.group(2) if match else text).split()
    if len(words) > 1 and words[0] == "sit":
        players.pop(words[1], None)
    return {"seat:" + seat: (player,) for seat, player in players.items()}


class _Entities:
    """The table after one statement as comparable entities. A step shares with the step
    before it each hand and wager that did not change (`trace.Snapshots`): their states
    are made once per object, not once per step; while a step's wagers are the same
    entries as the step before's (two steps in three), each hand's state is too."""

    def __init__(self) -> None:
        self.wagers: dict[int, tuple] = {}  # by id: (target, state)
        self.cards: dict[int, tuple] = {}
        # by the id of a shared entry (the steps hold them all): its state, its key
        self.dealers: dict[int, tuple] = {}
        self.hands: dict[int, tuple] = {}
        self.last_wagers: list | None = None  # the step before's wagers
        self.grouped: dict[str, tuple] = {}  # their states by target, in the step's order
        self.states: dict[int, tuple[str, tuple]] = {}  # by hand entry: key, state with them
        self.seats: dict[int, list[tuple[str, tuple]]] = {}  # by the id of `players`

    def __call__(self, step: dict[str, Any]) -> dict[str, tuple]:
        result: dict[str, tuple] = {}
        dealer = step["dealer"]
        if dealer["cards"]:
            state = self.dealers.get(id(dealer))
            if state is None:
                state = self.dealers[id(dealer)] = (self._cards(dealer["cards"]),
                                                    dealer["total"], dealer["revealed"])
            result["dealer"] = state
        wagers, last = step["wagers"], self.last_wagers
        if last is None or len(last) != len(wagers) or not all(map(is_, wagers, last)):
            self.grouped, self.states = self._grouped(wagers), {}
        self.last_wagers = wagers
        grouped, states, made = self.grouped, self.states, self.hands
        for hand in step["hands"]:
            found = states.get(id(hand))
            if found is None:
                entry = made.get(id(hand))
                if entry is None:
                    entry = made[id(hand)] = ("hand:" + hand["hand"], self._cards(hand["cards"]),
                                              hand["total"], hand["soft"], hand["status"],
                                              hand.get("doubled", ""))
                key, cards, total, soft, status, doubled = entry
                found = states[id(hand)] = (key, (cards, total, soft, status,
                                                  grouped.get(key[5:], ()), doubled))
            result[found[0]] = found[1]
        for target, items in grouped.items():  # wagers on a hand with no card yet
            key = "hand:" + target
            if key not in result:
                result[key] = ((), None, False, "", items, "")
        players = step.get("players", {})
        seats = self.seats.get(id(players))
        if seats is None:
            seats = self.seats[id(players)] = [("seat:" + seat, (player,))
                                               for seat, player in players.items()]
        result.update(seats)
        return result

    def _grouped(self, wagers: list[dict[str, Any]]) -> dict[str, tuple]:
        by_target: dict[str, list[tuple]] = {}
        known = self.wagers
        for wager in wagers:
            found = known.get(id(wager))
            if found is None:
                found = known[id(wager)] = (wager["target"], (
                    wager["kind"], wager["tip"], wager["amount"], wager["settled"]))
            items = by_target.get(found[0])
            if items is None:
                by_target[found[0]] = [found[1]]
            else:
                items.append(found[1])
        return {target: tuple(items) for target, items in by_target.items()}

    def _cards(self, cards: list[str]) -> tuple:
        found = self.cards.get(id(cards))
        if found is None or found[0] is not cards:
            found = self.cards[id(cards)] = (cards, tuple(cards))
        return found[1]


def read_back(changes: dict[str, Any]) -> dict[str, Any]:
    """Changes read back from JSON, their states as tuples again and each equal text one
    object: decoded as they are, a report's few hundred replays held their every card code
    and wager word as a string of its own. (Only texts are shared: equal tuples may hold
    unequal values, as (0, False) == (False, 0).)"""
    known: dict[str, str] = {}
    text = known.setdefault

    def shared(value: Any) -> Any:
        """A list as a tuple, each text in it one object, its leaves done in place (one
        call a list, not one a value: a report reads thousands of states)."""
        if type(value) is list:
            return tuple([text(item, item) if type(item) is str else
                          shared(item) if type(item) is list else item for item in value])
        if type(value) is str:
            return text(value, value)
        return value

    return {"seated": [(shared(key), shared(value)) for key, value in changes["seated"]],
            "lines": [(line, [(text(key, key) if type(key) is str else shared(key),
                               shared(value)) for key, value in came],
                       [shared(key) for key in gone]) for line, came, gone in changes["lines"]]}
