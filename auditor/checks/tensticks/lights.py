"""Ten sticks 21's lights and prize (20:18:15:30.02(5) to (8)): a light per trade, its count, the
prize, and the count restarting after a prize or for a new player.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from auditor.checks.base import Check, register
from auditor.checks.judging import money_text
from auditor.checks.tensticks.common import (
    TENSTICKS,
    in_seat_order,
    lights_required,
    pair_with_lights,
    player_trades,
    trading_allowed,
)
from auditor.findings import Finding
from auditor.replay import tensticks
from auditor.replay.tensticks import ExpectedLight
from auditor.replay.view import RoundView, seat_of


def _carried_from_elsewhere(expected: ExpectedLight) -> bool:
    """A new player's first light that counts lights the player did not bring (30.02(8)):
    the seat's previous count carried over, or lights with no punched card handed in."""
    light = expected.light
    if expected.basis != "new-player" or expected.right:
        return False
    start = light.player_start or 0
    began = light.count - 1
    return (began == light.carried and light.carried > 0) or (start == 0 and began > 0)


def light_count_citation(expected: ExpectedLight) -> str | None:
    """Which subsection a wrong light count falls under, or None if the count is right: (7)
    after a prize (at this seat, or at another seat for a player who keeps their lights),
    (8) for a new player counting lights not theirs, otherwise (5)."""
    if expected.right:
        return None
    if expected.basis == "prize":
        return "(7)"
    if _carried_from_elsewhere(expected):
        return "(8)"
    if expected.other_prize:
        return "(7)"
    return "(5)"


def _why_expected(expected: ExpectedLight) -> str:
    light = expected.light
    if expected.basis == "prize":
        return "the bonus prize was paid at the seat since its last light, so the count starts "\
               "again at zero"
    if expected.basis == "new-player" and light.player_start:
        why = f"the player started with the {light.player_start} punches of the card handed in"
    elif expected.basis == "new-player":
        why = "a new player starts at zero"
    else:
        why = f"{light.seat} held {light.carried} before it"
    if expected.other_prize:
        why += ", and a prize paid at another seat does not change that"
    return why


def _count_sentence(expected: ExpectedLight) -> str:
    light = expected.light
    return (f"The light at {light.seat} showed {light.count}; {_why_expected(expected)}, so it "
            f"should have shown {expected.expected}.")


@register
class LightPerTrade(Check):
    """A trade with no light after it, a light with no trade, or a light count that did not
    rise by exactly one.

    Regulation: "If a player trades a bonus card, that player will receive a bonus light
    which is shown on the disk in front of the player's betting position. The light is
    activated by the dealer from a control switch attached to the gaming table;"
    (20:18:15:30.02(5))
    Violating: `trade s3h1 8d` and no `light s3 …` after it in the round; `light s3 4` with
    no trade; `light s3 6` after `light s3 4`.
    Compliant: `trade s3h1 8d`, then `light s3 5` after `light s3 4` in an earlier round.
    Reading: every recorded trade of a player's hand, lawful or not, earns one light for its
    seat in the same round, after it (a light lit before its trade is one finding, on the
    trade). Where trading is allowed a light needs a trade; where it is not
    (`tensticks.trade=no`), lights come with playable bonus cards and are judged under
    (¶10). The count must show one more than the seat held: the last recorded count, even a
    faulty one (bjh-format.md §5), or what a new player started with. A count wrong after a
    prize is (7); a new player's first count carrying lights the player did not bring is
    (8). An unearned light with a wrong count is one finding. With `tensticks.trade`
    unknown (record:header) a light is unearned only where it is under both values.
    """

    citation = "20:18:15:30.02(5)"
    name = "tensticks.light_per_trade"
    severity = "medium"
    options = frozenset({"tensticks_trade"})
    games = TENSTICKS

    def round(self, view: RoundView) -> Iterator[Finding]:
        unearned: set[int] = set()  # lines of lights that no trade earned
        if trading_allowed(view):
            trades = player_trades(view)
            for seat in in_seat_order([seat_of(t.target) for t in trades] +
                                      [light.seat for light in view.lights]):
                pairing = pair_with_lights(
                    [(t.card.index, t) for t in trades if seat_of(t.target) == seat],
                    [light for light in view.lights if light.seat == seat])
                for trade in pairing.unlit:
                    yield self.finding(view, trade.card.line, f"{trade.target} traded the bonus "
                                       f"card, but no light was lit for {seat} after it in this "
                                       "round.", hand=trade.target)
                for trade, light in pairing.early:
                    yield self.finding(view, trade.card.line, f"{trade.target} traded the bonus "
                                       f"card, but the light for {seat} was lit before the "
                                       f"trade (line {light.line}), not after it.",
                                       hand=trade.target, evidence=[light.line])
                unearned.update(light.line for light in pairing.unearned)
        for expected in tensticks.of(view).lights:
            light = expected.light
            wrong_count = light_count_citation(expected) == "(5)"
            if light.line in unearned:
                message = (f"A light was lit for {light.seat} (count {light.count}) though no "
                           "trade in this round earned it")
                if wrong_count:
                    message += (f", and its count is wrong too: {_why_expected(expected)}, so "
                                f"it would have shown {expected.expected}")
                yield self.finding(view, light.line, message + ".", seat=light.seat)
            elif wrong_count:
                yield self.finding(view, light.line, _count_sentence(expected), seat=light.seat)


@register
class BonusPrize(Check):
    """A bonus prize paid with fewer lights than required, or of another amount than the
    designated prize; or the required lights reached and no prize paid in that round.

    Regulation: "The object of the game is for each player to get all ten bonus lights lit
    during the course of play and receive the designated bonus prize previously determined
    by the casino;" (20:18:15:30.02(6))
    Violating: `light s4 10` and no `prize s4 …` in the round; `prize s4 500` with s4
    holding 7 lights; `prize s4 250` where `option tensticks.prize=500`.
    Compliant: `light s4 10`, then `prize s4 500` in the same round.
    Reading: the required count is `tensticks.lights` (10 by default), the designated prize
    `tensticks.prize` (not judged when the header does not declare it). The lights a player
    holds at the prize are the seat's last recorded count, what the player started with if
    the player has no light yet, and zero after a prize. A light at or over the required
    count needs a prize for that seat in the same round (one finding per seat and round, on
    the first such light); a light whose count is itself wrong owes a prize only if it
    should have shown the required count too, and a prize paid after it is earned if either
    its recorded or its right count reached the required (the wrong count is the one
    finding). A light lit after the prize does not count toward it. A prize paid too early
    is reported with the player's net expected 0 and actual the amount paid; a wrong amount
    with the designated prize as expected. With `tensticks.lights` or `tensticks.prize`
    unknown (record:header) each is judged under every value it could hold (a count that
    cannot be read: one light, or more than any count), so a prize is early only where it
    is early for every value, and an amount is wrong only where it is none of the values
    given (never, where the value cannot be read).
    """

    citation = "20:18:15:30.02(6)"
    name = "tensticks.bonus_prize"
    severity = "high"
    options = frozenset({"tensticks_lights", "tensticks_prize"})
    games = TENSTICKS

    def round(self, view: RoundView) -> Iterator[Finding]:
        required = lights_required(view)
        designated = view.config.rules.tensticks_prize
        prizes = view.markers_of("prize")
        lights = tensticks.of(view).lights
        for prize in prizes:
            held = prize.held or 0
            # a wrong count lit before the prize is its own finding ((5), (7), (8)); the
            # prize is judged on the count that light should have shown, if that is more
            earlier = [e for e in lights if e.light.seat == prize.target
                       and e.light.index < prize.index]
            if earlier:
                held = max(held, earlier[-1].expected)
            amount = prize.amount or Decimal(0)
            if held < required:
                yield self.finding(view, prize.line, f"The bonus prize of {money_text(amount)} "
                                   f"was paid at {prize.target}, whose player held {held} "
                                   f"lights; the prize needs {required}.", seat=prize.target,
                                   expected=Decimal(0), actual=amount)
            elif designated is not None and amount != designated:
                yield self.finding(view, prize.line, f"The bonus prize paid at {prize.target} "
                                   f"was {money_text(amount)}; the designated prize is "
                                   f"{money_text(designated)}.", seat=prize.target,
                                   expected=designated, actual=amount)
        paid = {prize.target for prize in prizes}
        reported: set[str] = set()
        for expected in lights:
            light = expected.light
            # a count that is wrong itself ((5), (7), (8)) does not also owe a prize
            reached = min(light.count, expected.expected) >= required
            if reached and light.seat not in paid and light.seat not in reported:
                reported.add(light.seat)
                yield self.finding(view, light.line, f"{light.seat}'s lights reached "
                                   f"{light.count} of the {required} required, but no bonus "
                                   "prize was paid in this round.", seat=light.seat)


@register
class PrizeRestartsCount(Check):
    """After a prize the winner's lights did not start again at zero, or another seat's
    lights changed.

    Regulation: "Ten sticks 21 winners start back at zero and all other players continue
    with the accumulated bonus lights;" (20:18:15:30.02(7))
    Violating: `prize s4 500`, then s4's next light `light s4 11`; or s2 held 6 and, after a
    prize at s4, `light s2 1`.
    Compliant: `light s4 1` after the prize; `light s2 7`.
    Reading: the winner's next light must show 1 (the reset itself is not a statement); a
    player at another seat keeps the lights held before the prize (also the punches of a
    card handed in, if the player has no light yet), seen at that seat's next light, which
    must show one more. A new player's first light counting lights not theirs stays (8)'s. A
    seat's first light after a prize at another seat is judged here however many rounds
    later it comes (it shows what the seat carried through the prize); the seat's later
    lights are (5)'s. A prize paid with too few lights ((6)'s finding) was still paid: its
    winner's count starts again at zero, and the next light must show 1.
    """

    citation = "20:18:15:30.02(7)"
    name = "tensticks.prize_restarts_count"
    options = frozenset()
    severity = "medium"
    games = TENSTICKS

    def round(self, view: RoundView) -> Iterator[Finding]:
        prizes = [m.line for m in view.markers_of("prize")]
        for expected in tensticks.of(view).lights:
            if light_count_citation(expected) != "(7)":
                continue
            light = expected.light
            yield self.finding(view, light.line, _count_sentence(expected), seat=light.seat,
                               evidence=[p for p in prizes if p < light.line])


@register
class NewPlayerStartsAtZero(Check):
    """A seated player started with lights carried from the seat's previous player, or with
    lights and no punched card.

    Regulation: "A player may not pass bonus lights on to the next player taking that
    player's chair. All new players start at zero;" (20:18:15:30.02(8))
    Violating: P-1 leaves s5 holding 6 lights, P-2 sits at s5 and P-2's first light is
    `light s5 7`; or a new player with no card's first light is `light s5 3`.
    Compliant: P-2's first light is `light s5 1`; or, having handed in a card punched 4,
    `light s5 5`.
    Reading: judged at the player's first light since sitting (a wager on an empty seat
    seats a new player too). It is this subsection's when the count continues the seat's
    previous count, or when a player with no punched card (or one of no punches) starts
    above zero; any other wrong first count is (5)'s. A player a wager seated, with no `sit`
    (an unnamed player), is a new player with no card: a first light that shows 2 started
    above zero, and is this subsection's, not (5)'s.
    """

    citation = "20:18:15:30.02(8)"
    name = "tensticks.new_player_starts_at_zero"
    options = frozenset()
    severity = "medium"
    games = TENSTICKS

    def round(self, view: RoundView) -> Iterator[Finding]:
        for expected in tensticks.of(view).lights:
            if light_count_citation(expected) != "(8)":
                continue
            light = expected.light
            start = light.player_start or 0
            if start == 0 and light.count - 1 != light.carried:
                why = "with no punched card the player starts at zero"
            else:
                why = (f"it continues the seat's count of {light.carried}, which the new player "
                       f"may not take over (the player started with {start})")
            yield self.finding(view, light.line, f"{light.player or 'The new player'}'s first "
                               f"light at {light.seat} showed {light.count}; {why}, so it "
                               f"should have shown {expected.expected}.", seat=light.seat)
