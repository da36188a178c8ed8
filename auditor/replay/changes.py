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
from collections.abc import Iterable
from itertools import compress, count
from operator import is_, is_not
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from auditor.replay.trace import RoundEvidence

TIME = re.compile(r"^\s*(\d\d:\d\d:\d\d(?:\.\d+)?)\s+(.*)$")  # a line's time stamp


def round_changes(evidence: RoundEvidence) -> dict[str, Any]:
    """The round's changes line by line (see the module's docstring)."""
    before = seated_before(evidence)
    entities = _Entities(before)
    steps = evidence.steps
    lines = []
    for line, _ in evidence.lines:
        step = steps.get(line)
        if step is not None:
            lines.append((line, *entities(step)))
    return {"seated": list(before.items()), "lines": lines}


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


def _compared(before: dict[str, tuple], candidates: Iterable[tuple[str, tuple]],
              after: dict[str, tuple] | None, came: list[tuple[str, tuple]],
              gone: list[str]) -> None:
    """Of `candidates`, a part's entities that may have changed, those whose state is not
    the one `before` held, onto `came`; the keys of `before` not in `after` (the part
    whole; None: the same keys), onto `gone`."""
    get = before.get
    came += [(key, state) for key, state in candidates
             if (known := get(key)) is not state and known != state]
    if after is not None and not before.keys() <= after.keys():
        gone += before.keys() - after.keys()


class _Entities:
    """The table after one statement as comparable entities. A step shares with the step
    before it each hand and wager that did not change (`trace.Snapshots`): their states
    are made once per object, not once per step; while a step's wagers are the same
    entries as the step before's (two steps in three), each hand's state is too."""

    def __init__(self, seated: dict[str, tuple]) -> None:
        self.wagers: dict[int, tuple] = {}  # by id: (target, state)
        self.cards: dict[int, tuple] = {}
        # by the id of a shared entry (the steps hold them all): its state, its key
        self.dealers: dict[int, tuple] = {}
        self.hands: dict[int, tuple] = {}
        self.last_wagers: list | None = None  # the step before's wagers
        self.grouped: dict[str, tuple] = {}  # their states by target, in the step's order
        self.states: dict[int, tuple[str, tuple]] = {}  # by hand entry: key, state with them
        self.seats: dict[int, dict[str, tuple]] = {}  # by the id of `players`
        # the step before's parts (`__call__`), their entities and what they were made of
        self.dealer_part: dict[str, tuple] = {}
        self.hands_part: dict[str, tuple] = {}
        self.seats_part = seated  # before the first step: the players seated then
        self.last_dealer: dict[str, Any] | None = None
        self.last_hands: list | None = None
        self.last_players: dict[str, str] | None = None
        self.phantoms: list[tuple[str, tuple]] = []  # the wagers' hands with no card yet
        self.unique = False  # the step before's hands are of distinct names

    def __call__(self, step: dict[str, Any]) -> tuple[list[tuple[str, tuple]], list[str]]:
        """What the step changed since the step before: the entities that changed or came,
        in the step's order, and the keys of those that went. The table is kept in three
        parts (dealer, hands, seats; their keys never meet), each compared with the same
        part of the step before only when it is not that step's. A statement changes one
        part, most often one hand of it: a part of the same entries as the step before's
        is that step's, its states the same."""
        came: list[tuple[str, tuple]] = []
        gone: list[str] = []
        dealer = step["dealer"]
        if dealer is not self.last_dealer:
            self.last_dealer = dealer
            part: dict[str, tuple] = {}
            if dealer["cards"]:
                state = self.dealers.get(id(dealer))
                if state is None:
                    state = self.dealers[id(dealer)] = (self._cards(dealer["cards"]),
                                                        dealer["total"], dealer["revealed"])
                part["dealer"] = state
            if part != self.dealer_part:
                _compared(self.dealer_part, part.items(), part, came, gone)
            self.dealer_part = part
        hands, wagers = step["hands"], step["wagers"]
        if hands is not self.last_hands or wagers is not self.last_wagers:
            before = self.hands_part
            found = self._hands_changed(hands, wagers)
            if found is None:
                part = self._hands(hands, wagers)
                _compared(before, part.items(), part, came, gone)
            else:  # the same hands in their places: no key comes or goes
                part, pairs = found
                _compared(before, pairs, None, came, gone)
            self.last_hands, self.hands_part = hands, part
        players = step.get("players", {})
        if players is not self.last_players:
            self.last_players = players
            seats = self.seats.get(id(players))
            if seats is None:
                seats = self.seats[id(players)] = {"seat:" + seat: (player,)
                                                   for seat, player in players.items()}
            if seats is not self.seats_part:
                _compared(self.seats_part, seats.items(), seats, came, gone)
                self.seats_part = seats
        if len(gone) > 1:
            gone.sort()
        return came, gone

    def _hands_changed(self, hands: list[dict[str, Any]], wagers: list[dict[str, Any]]
                       ) -> tuple[dict[str, tuple], list[tuple[str, tuple]]] | None:
        """The hands' entities when only some hands' entries changed, in their places, and
        the wagers did not (a card, a stand): the step before's with theirs replaced, and
        those; None where they must be made whole (`_hands`)."""
        last = self.last_hands
        if (wagers is not self.last_wagers or last is None or len(last) != len(hands)
                or not self.unique):
            return None
        pairs = []
        for place in compress(count(), map(is_not, hands, last)):
            hand = hands[place]
            if hand["hand"] != last[place]["hand"]:
                return None
            pairs.append(self._state(hand)[:2])
        part = self.hands_part.copy()
        part.update(pairs)
        return part, pairs

    def _state(self, hand: dict[str, Any]) -> tuple[str, tuple]:
        """A hand's key and state, with the wagers on it (`grouped`): made again only when
        the hand's entry or the wagers on it are not those it was made with."""
        found = self.states.get(id(hand))
        if found is None or found[2] is not self.grouped.get(found[3], ()):
            entry = self.hands.get(id(hand))
            if entry is None:
                entry = self.hands[id(hand)] = ("hand:" + hand["hand"], self._cards(hand["cards"]),
                                                hand["total"], hand["soft"], hand["status"],
                                                hand.get("doubled", ""), hand["hand"])
            key, cards, total, soft, status, doubled, name = entry
            wagers = self.grouped.get(name, ())
            found = self.states[id(hand)] = (key, (cards, total, soft, status, wagers, doubled),
                                             wagers, name)
        return found

    def _hands(self, hands: list[dict[str, Any]], wagers: list[dict[str, Any]]
               ) -> dict[str, tuple]:
        result: dict[str, tuple] = {}
        last = self.last_wagers
        if last is None or len(last) != len(wagers) or not all(map(is_, wagers, last)):
            self.grouped = self._grouped(wagers)
            self.phantoms = [("hand:" + target, ((), None, False, "", items, ""))
                             for target, items in self.grouped.items()]
        self.last_wagers = wagers
        state, states, grouped = self._state, self.states, self.grouped
        for hand in hands:  # `_state`'s look-up written out: it finds nearly every one
            found = states.get(id(hand))
            if found is None or found[2] is not grouped.get(found[3], ()):
                found = state(hand)
            result[found[0]] = found[1]
        self.unique = len(result) == len(hands)  # no two hands of one name (a bad record)
        for key, found in self.phantoms:  # wagers on a hand with no card yet
            if key not in result:
                result[key] = found
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
        # a target's wagers the same as before: the same tuple, and its hand's state too
        before = self.grouped
        grouped = {}
        for target, items in by_target.items():
            made = tuple(items)
            old = before.get(target)
            grouped[target] = old if old == made else made
        return grouped

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
