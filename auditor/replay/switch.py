"""Blackjack Switch facts derived from a replayed round (20:18:15:30.09).

They say what the record shows (who was misdealt, how many cards each hand was dealt, where
the initial deal ended, which hands hold a switched 21); whether that is a violation is for
`auditor/checks/switch/` to say. `of(view)` derives them on first use and keeps them in
`view.derived["switch"]` (the game's entry in auditor/checks/games.py names it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter

from auditor import events as ev
from auditor.fieldwise import Fieldwise
from auditor.replay.view import Hand, RoundView, Settlement, Wager

KEY = "switch"
INITIAL_HANDS = ("h1", "h2")  # every seat that plays holds these two hands (30.09(1))


@dataclass(slots=True, repr=False, eq=False)
class DealCount(Fieldwise):
    """A seat or the dealer that was not dealt two cards per hand in the initial deal."""

    target: str  # a seat, or `dealer`
    line: int  # the extra card, or the end of the initial deal where cards are missing
    counts: dict[str, int] = field(default_factory=dict)  # hand (or `dealer`) -> cards dealt
    lines: list[int] = field(default_factory=list)  # every `deal` to the target


@dataclass(slots=True, repr=False, eq=False)
class SwitchFacts(Fieldwise):
    """What the Blackjack Switch checks need of a round, recorded by the replay."""

    seat_wagers: dict[str, dict[str, Wager]]  # playing seat -> h1/h2 -> its personal main wager
    misdeals: dict[str, int]  # misdeal target (a seat, or `dealer`) -> line of its `misdeal`
    first_decision_index: int | None  # the first decision or insurance wager
    deal_end_index: int | None  # the last `deal` before the first decision
    wrong_counts: list[DealCount]
    shuffled: bool  # since the shoe came into play, up to the round's first card
    cut_after_shuffle: bool  # the last of those shuffles was followed by a cut
    # Settlements the pay rules judge (30.09(6), (10), (13), (15), (18)): settled once, no
    # misdeal concerned (that is (4)), not a late bet (20:18:15:03 returns it), and for main
    # wagers not a surrender (20:18:15:30), for super match wagers four cards dealt.
    judged_mains: list[tuple[Wager, Hand, Settlement]] = field(default_factory=list)
    judged_super_matches: list[tuple[Wager, Settlement]] = field(default_factory=list)


def derive(view: RoundView) -> None:
    """The round's facts, derived once (`of`)."""
    seat_wagers: dict[str, dict[str, Wager]] = {}
    for wager in view.wagers:
        if (wager.kind == "main" and not wager.tip and wager.initial
                and wager.target[2:] in INITIAL_HANDS):  # is_initial_hand
            wagers = seat_wagers.get(wager.seat)  # (setdefault made a dict each time)
            if wagers is None:
                wagers = seat_wagers[wager.seat] = {}
            wagers[wager.target] = wager
    if len(seat_wagers) > 1:  # first base first: a seat is `s` and one digit (seat_of),
        seat_wagers = dict(sorted(seat_wagers.items(), key=_SEAT_ORDER))  # so in text order
    first = _first_decision_index(view)
    end = _initial_deal_end_index(view, first)
    shuffled, cut = _shuffled_and_cut(view)
    facts = SwitchFacts(seat_wagers, _misdeal_lines(view), first, end, [], shuffled, cut)
    view.derived[KEY] = facts
    # these read the seats and misdeals above, so once the facts are in place
    facts.wrong_counts = _wrong_deal_counts(view, end, facts)
    facts.judged_mains, facts.judged_super_matches = _judged_settlements(view, facts)


_SEAT_ORDER = itemgetter(0)  # seat_number's order: `s1` to `s9` (grammar SEAT), no call


def of(view: RoundView) -> SwitchFacts:
    """The round's Blackjack Switch facts, derived on first use."""
    found = view.derived.get(KEY)
    if found is None:
        derive(view)
        found = view.derived[KEY]
    return found


# ---- seats and hands ----

def is_initial_hand(name: str) -> bool:
    return name[2:] in INITIAL_HANDS


def personal_main_wagers(view: RoundView, seat: str) -> dict[str, Wager]:
    """The seat's own (not tip) main wagers placed by `bet` on h1 and h2, by hand."""
    return of(view).seat_wagers.get(seat, {})


def playing_seats(view: RoundView) -> list[str]:
    """Seats with a personal main wager on h1 or h2, first base first."""
    return list(of(view).seat_wagers)


def switched_two_card_21(hand: Hand) -> bool:
    """A hand of a seat that switched holding 21 in two cards (a hand made by a split of it
    included): a 21, not a blackjack (30.09(10) as the rule catalog words it)."""
    return hand.switched and hand.two_card_21


# ---- misdeals ----

def voided_by_misdeal(view: RoundView, wager: Wager) -> bool:
    """The wager belongs to a misdealt seat, or the dealer was misdealt (30.09(4))."""
    misdeals = of(view).misdeals
    return "dealer" in misdeals or wager.seat in misdeals


def voided_by_neighbour(view: RoundView, wager: Wager) -> bool:
    """The wager was returned as void when only another seat was misdealt.

    Only a wager the rules do not void otherwise: not a late bet (20:18:15:03 returns
    those), and not one whose own outcome is void.
    """
    misdeals = of(view).misdeals
    if not misdeals or "dealer" in misdeals or wager.seat in misdeals:
        return False
    if late_bet(wager):
        return False
    if len(wager.settlements) != 1 or wager.settlements[0].outcome != "void":
        return False
    return wager.expected is not None and wager.expected.outcome != "void"


def misdeal_concerns(view: RoundView, wager: Wager) -> bool:
    """A wager whose settlement 30.09(4) judges rather than the pay rules."""
    return voided_by_misdeal(view, wager) or voided_by_neighbour(view, wager)


def _misdeal_lines(view: RoundView) -> dict[str, int]:
    found: dict[str, int] = {}
    for marker in view.markers_of("misdeal"):
        found.setdefault(marker.target, marker.line)
    return found


def late_bet(wager: Wager) -> bool:
    """A main or super match wager placed after the first card: 20:18:15:03 judges it (void
    is right for it). Insurance is always placed after the first card."""
    return wager.kind in ("main", "supermatch") and wager.initial and wager.after_first_card


def _judged_settlements(view: RoundView, facts: SwitchFacts
                        ) -> tuple[list[tuple[Wager, Hand, Settlement]],
                                   list[tuple[Wager, Settlement]]]:
    mains, supers = [], []
    misdeals = facts.misdeals  # none, nearly always: then no misdeal concerns a wager
    for wager in view.wagers:
        if (len(wager.settlements) != 1 or wager.expected is None
                or (wager.after_first_card and late_bet(wager))  # the test first: rare
                or wager.late_additions or (misdeals and misdeal_concerns(view, wager))):
            continue
        if wager.kind == "main":
            hand = view.hands.get(wager.target)
            if hand is not None and hand.surrendered_line is None:
                mains.append((wager, hand, wager.settlements[0]))
        elif wager.kind == "supermatch" and wager.expected.outcome != "void":
            supers.append((wager, wager.settlements[0]))  # void: not dealt four cards, (4)
    return mains, supers


# ---- the initial deal ----

def _first_decision_index(view: RoundView) -> int | None:
    """The first player decision of the round, insurance wagers included (30.09(8))."""
    # decisions are recorded in order: the first is the earliest
    first = view.first_decision_index
    if "insurance" not in view.wager_marks:  # no insurance wager in the round
        return first
    candidates = [w.index for w in view.wagers_of("insurance", tip=None)]
    if first is not None:
        candidates.append(first)
    return min(candidates)


def _initial_deal_end_index(view: RoundView, first: int | None) -> int | None:
    """The last `deal` up to the first decision (of the round, with no decision)."""
    events = view.events
    index = len(events) - 1 if first is None else min(first, len(events) - 1)
    while index >= 0:  # from the end: the initial deal ends just before the first decision
        if type(events[index]) is ev.Deal:
            return index
        index -= 1
    return None


def _deal_lines(view: RoundView) -> dict[str, list[int]]:
    """The lines of the `deal` statements to each target, in order."""
    found: dict[str, list[int]] = {}
    deal = ev.Deal
    for event in view.events:
        if type(event) is deal:
            target = event.target
            if target in found:
                found[target].append(event.line)
            else:
                found[target] = [event.line]
    return found


def _wrong_deal_counts(view: RoundView, end: int | None, facts: SwitchFacts) -> list[DealCount]:
    """Playing seats not dealt exactly two cards to each wagered hand (and none to any other
    hand), and a dealer not dealt exactly two cards. An unbet h1 or h2 is not counted: it
    may be dealt or not (30.09(1) reading)."""
    if end is None:
        return []
    if view.dealer.dealt == 2 and _dealt_two_each(view, facts):
        return []  # the common round: every count right, told by the counts the replay kept
    end_line = view.events[end].line
    lines = _deal_lines(view)
    found: list[DealCount] = []
    hands = view.hands.values()
    for seat, wagered in facts.seat_wagers.items():  # the playing seats, first base first
        counts: dict[str, int] = {}
        fault_lines: list[int] = []
        for hand in hands:
            if hand.seat != seat:
                continue
            dealt = lines.get(hand.name, [])
            if hand.name in wagered:
                wrong, extra = len(dealt) != 2, dealt[2:]
            elif not is_initial_hand(hand.name):
                wrong, extra = bool(dealt), dealt
            else:
                continue
            if wrong:
                counts[hand.name] = len(dealt)
                fault_lines.append(extra[0] if extra else end_line)
        if counts:
            seat_lines = sorted(n for name, ls in lines.items() if name[:2] == seat for n in ls)
            found.append(DealCount(seat, min(fault_lines), counts, seat_lines))
    dealer_lines = lines.get("dealer", [])
    if len(dealer_lines) != 2:
        line = dealer_lines[2] if len(dealer_lines) > 2 else end_line
        found.append(DealCount("dealer", line, {"dealer": len(dealer_lines)}, dealer_lines))
    return found


def _dealt_two_each(view: RoundView, facts: SwitchFacts) -> bool:
    """Every playing seat's wagered hand dealt two cards and its other hands (but an unbet
    h1 or h2) none, by the `deal` statements the replay counted (`Hand.dealt`)."""
    seats = facts.seat_wagers
    for hand in view.hands.values():
        wagered = seats.get(hand.seat)
        if wagered is None:
            continue
        if hand.name in wagered:
            if hand.dealt != 2:
                return False
        elif hand.dealt and not is_initial_hand(hand.name):
            return False
    return True


# ---- the shoe ----

def _shuffled_and_cut(view: RoundView) -> tuple[bool, bool]:
    """Shuffled, and cut after the last shuffle, since the shoe, up to the first card."""
    shuffled, cut = view.shoe.shuffled, view.shoe.cut_after_shuffle
    if not view.shuffled_in_round and (cut or not shuffled):
        # the common round: no shuffle in it, and a cut could change nothing (a cut sets
        # `cut` to `shuffled`, and the table's cut follows a shuffle: cut implies shuffled)
        return shuffled, cut
    stop = view.first_card_index if view.first_card_index is not None else len(view.events)
    shuffle, cut_type = ev.Shuffle, ev.Cut  # statements of their exact types (no subclass)
    for event in view.events[:stop]:
        kind = type(event)
        if kind is shuffle:
            shuffled, cut = True, False
        elif kind is cut_type:
            cut = shuffled
    return shuffled, cut
