"""Ten sticks 21, 20:18:15:30.02 (game=tensticks).

The bonus card is the ten of clubs (`Tc`). Each `trade` has exactly one citation when it is
unlawful: a busting bonus card traded is (3), a card other than the bonus card given up is
(4), the dealer's trade is (9), and a playable bonus card traded where `tensticks.trade=no`
is (¶10). What follows from an unlawful trade in its round (its light, its hand's
settlement) is not reported again. Light counts are judged against what the seat's player
held before the light (`auditor/replay/tensticks.py`); punched player's cards are followed
across every file of the audit in time order (`collect`/`audit`).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import PurePath

from auditor import blackjack
from auditor import events as ev
from auditor.checks.base import Check, register
from auditor.checks.judging import money_text, recorded_text
from auditor.fieldwise import Fieldwise
from auditor.findings import Finding
from auditor.replay import tensticks
from auditor.replay.tensticks import ExpectedLight
from auditor.replay.view import LightEvent, RoundView, Trade, seat_number, seat_of

TENSTICKS = frozenset({"tensticks"})
BONUS = blackjack.BONUS_CARD


def _trading_allowed(view: RoundView) -> bool:
    return view.config.rules.tensticks_trade == "yes"


def _required(view: RoundView) -> int:
    return view.config.rules.tensticks_lights


def _player_trades(view: RoundView) -> list[Trade]:
    return [t for t in view.trades if t.target != "dealer"]


def _bonus_line(view: RoundView, trade: Trade) -> list[int]:
    """The line where the traded bonus card arrived, as evidence."""
    return [b.line for b in tensticks.of(view).bonus_cards if b.traded_line == trade.card.line]


def _seats(items: Iterable[str]) -> list[str]:
    return sorted(set(items), key=seat_number)


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


@dataclass(slots=True, repr=False, eq=False)
class _Pairing(Fieldwise):
    """Trades (or bonus cards) of one seat paired with the lights they earned."""

    unlit: list  # what earned a light and got none
    early: list[tuple[object, LightEvent]]  # earned, but the light came before it
    unearned: list[LightEvent]  # lights with nothing to earn them


def _pair(earners: list[tuple[int, object]], lights: list[LightEvent]) -> _Pairing:
    """Each earner (event index, item) takes the first light after it; what is left over of
    the lights before is paired with what is left of the earners, in order."""
    timeline = sorted([(index, 0, item) for index, item in earners]
                      + [(light.index, 1, light) for light in lights],
                      key=lambda entry: (entry[0], entry[1]))
    pending: list = []
    loose: list[LightEvent] = []
    for _, kind, item in timeline:
        if kind == 0:
            pending.append(item)
        elif pending:
            pending.pop(0)
        else:
            loose.append(item)
    early = list(zip(pending, loose, strict=False))
    return _Pairing(pending[len(early):], early, loose[len(early):])


@register
class BustingBonusCard(Check):
    """A bonus card that took the player's hand over 21 was traded, or the hand was not lost.

    Regulation: "If a player is dealt a bonus card which makes the point count exceed 21,
    the hand is lost just as in regular blackjack;" (20:18:15:30.02(3))
    Violating: s1h1 holds `9h 5d`, `hit s1h1 Tc` (24), then `trade s1h1 6s`; or no trade and
    `settle s1h1 main push 25`.
    Compliant: `hit s1h1 Tc` (24) and `settle s1h1 main lose 25` before play goes on.
    Reading: the bonus card makes the count exceed 21 when the hand, counting it as ten, is
    over 21, whether it came last or a later card took the hand over (a trade cannot bring a
    lost hand back). A trade of it from such a hand is the finding, under this subsection
    whatever the `tensticks.trade` option; the light after it is not unearned ((5)) and its
    hand's settlement is not reported again (subject `settle:<hand>:main`). Without a trade,
    such a hand settled other than `lose` is the finding (the standard 20:18:15:06 twin
    collapses into it); a `lose` of the wrong amount is 20:18:15:06's.
    """

    citation = "20:18:15:30.02(3)"
    name = "tensticks.busting_bonus_card"
    options = frozenset()
    severity = "high"
    games = TENSTICKS

    def round(self, view: RoundView) -> Iterator[Finding]:
        reported: set[str] = set()
        for trade in _player_trades(view):
            if trade.held_bonus and trade.bonus_over_21 and trade.target not in reported:
                reported.add(trade.target)
                yield self.finding(
                    view, trade.card.line, f"{trade.target} traded the bonus card for "
                    f"{trade.card.card} though, counted as ten, it left the hand over 21; the "
                    "hand was lost and the card may not be traded.", hand=trade.target,
                    evidence=_bonus_line(view, trade),
                ).model_copy(update={"subject": f"settle:{trade.target}:main"})
        for hand in view.hands.values():
            if not hand.busted or BONUS not in hand.card_codes or hand.name in reported:
                continue
            wager = hand.main
            if wager is None or len(wager.settlements) != 1:
                continue  # unsettled or settled twice: record:unsettled says so
            settlement = wager.settlements[0]
            if settlement.outcome == "lose":
                continue
            bonus = [c.line for c in hand.cards if c.card == BONUS]
            yield self.finding(
                view, settlement.line, f"The {wager.label} {recorded_text(settlement)}, but "
                f"{hand.name} holds the bonus card (line {bonus[0]}) and, counting it as ten, "
                f"{hand.total}: the hand is lost and should lose {money_text(hand.stake)}.",
                hand=hand.name, expected=-hand.stake, actual=settlement.net, evidence=bonus,
            ).model_copy(update={"subject": f"settle:{hand.name}:main"})


@register
class TradeOfBonusCardOnly(Check):
    """A player's trade gave up a card other than a ten of clubs the hand holds.

    Regulation: "If a player is dealt a playable bonus card or one which does not make the
    point count exceed 21, one of two options may be taken; (a) The player may keep the
    bonus card and play it as a ten; or (b) The player may trade the bonus card for the next
    card dealt;" (20:18:15:30.02(4))
    Violating: s2h1 holds `9h 7d` and `trade s2h1 4c`.
    Compliant: s2h1 holds `9h Tc` and `trade s2h1 4c`; or keeps `Tc` as a ten.
    Reading: only the bonus card may be traded; a hand that holds none gave up the last
    card dealt to it (bjh-format.md §5, "A trade of a card that is not the bonus card"),
    and its cards stand as if the card received had been dealt in that place. The finding
    stands whatever the
    `tensticks.trade` option. The cards are then judged as recorded; its light is not
    judged as unearned.
    """

    citation = "20:18:15:30.02(4)"
    name = "tensticks.trade_bonus_card_only"
    options = frozenset()
    severity = "medium"
    needs = frozenset({ev.Trade})
    games = TENSTICKS

    def round(self, view: RoundView) -> Iterator[Finding]:
        for trade in _player_trades(view):
            if not trade.held_bonus:
                yield self.finding(view, trade.card.line, f"{trade.target} traded "
                                   f"{trade.gave_up} for {trade.card.card}, but the hand held "
                                   "no bonus card: only the ten of clubs may be traded.",
                                   hand=trade.target)


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
        if _trading_allowed(view):
            trades = _player_trades(view)
            for seat in _seats([seat_of(t.target) for t in trades] +
                               [light.seat for light in view.lights]):
                pairing = _pair([(t.card.index, t) for t in trades if seat_of(t.target) == seat],
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
        required = _required(view)
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


@register
class DealerBonusCardIsTen(Check):
    """The dealer traded a bonus card, or did not count the dealer's bonus card as ten.

    Regulation: "A Ten sticks 21 bonus card dealt to the dealer must be played as a
    ten-count card." (20:18:15:30.02(9))
    Violating: `deal dealer Tc` … `trade dealer 6h`; or the dealer holds `Tc 7d` (17) and
    `draw 4s` follows.
    Compliant: the dealer holds `Tc 6d` (16) and draws; or holds `Tc 7d` and stands.
    Reading: a `trade dealer` is the finding, whatever it gave up. A dealer `draw` made
    while the dealer holds a bonus card and a total on which the dealer must not draw,
    counting that card as ten (17 or more, a soft 17 excepted where `soft17=hit`, or over
    21), shows the card was not counted as ten: the finding is this subsection's rather than
    20:18:15:28's (subject `draw:<line>`). Settlements are judged on the cards as recorded
    and, where the dealer drew on a standing total, on the hand without that card too
    (20:18:15:28). The dealer's bonus card is a ten in every respect: with an ace it makes
    the dealer's first two cards a blackjack (settlements under 20:18:15:06), and it counts
    ten in every total the dealer draws to or stands on.
    """

    citation = "20:18:15:30.02(9)"
    name = "tensticks.dealer_bonus_card_is_ten"
    severity = "high"
    options = frozenset({"soft17"})
    games = TENSTICKS

    def round(self, view: RoundView) -> Iterator[Finding]:
        for trade in view.trades:
            if trade.target == "dealer":
                yield self.finding(view, trade.card.line, f"The dealer traded {trade.gave_up} "
                                   f"for {trade.card.card}; the dealer's bonus card must be "
                                   "played as a ten.", evidence=_bonus_line(view, trade))
        hits17 = view.config.hits_soft_17
        for draw in tensticks.of(view).dealer_bonus_draws:
            total, soft = draw.total_before, draw.soft_before
            if total < 17 or (total == 17 and soft and hits17):
                continue
            yield self.finding(view, draw.line, f"The dealer drew {draw.card} holding "
                               f"{'soft ' if soft else ''}{total} with the bonus card (line "
                               f"{draw.bonus_line}) counted as ten, a total on which the dealer "
                               "may not draw, so the bonus card was not played as a ten.",
                               evidence=[draw.bonus_line]
                               ).model_copy(update={"subject": f"draw:{draw.line}"})


@register
class NoTradeOption(Check):
    """Where the casino does not allow trades: a trade took place, or a playable bonus card
    did not earn a light in its round.

    Regulation: "A casino may opt not to allow players to trade cards. A player who receives
    a playable Ten sticks bonus card or one that does not make the count of the player's
    hand exceed 21 automatically receives a bonus light." (20:18:15:30.02(¶10))
    Violating: `option tensticks.trade=no` and `trade s1h1 5d`; or `deal s1h1 Tc` (playable)
    and no `light s1 …` in the round.
    Compliant: `option tensticks.trade=no`, `deal s1h1 Tc`, `light s1 3` in the round.
    Reading: judged only where `tensticks.trade=no`. A trade of a playable bonus card is
    this paragraph's (a busting one is (3)'s, another card (4)'s, the dealer's (9)'s). Each
    bonus card a player's hand receives (dealt, hit, doubled, or received by a trade)
    without going over 21 earns one light for the seat in that round, before or after it;
    a card moved by a split is not received again. A light with no playable bonus card to
    earn it is this paragraph's too (*reading*: where trading is off, lights come only this
    way). Counts are judged under (5), (7) and (8). With `tensticks.trade` unknown
    (record:header) a trade is not a finding here: trading may be allowed.
    """

    citation = "20:18:15:30.02(¶10)"
    name = "tensticks.no_trade_option"
    severity = "medium"
    options = frozenset({"tensticks_trade"})
    games = TENSTICKS

    def round(self, view: RoundView) -> Iterator[Finding]:
        if _trading_allowed(view):
            return
        for trade in _player_trades(view):
            if trade.held_bonus and not trade.bonus_over_21:
                yield self.finding(view, trade.card.line, f"{trade.target} traded the bonus card "
                                   f"for {trade.card.card} at a table that does not allow "
                                   "trades.", hand=trade.target,
                                   evidence=_bonus_line(view, trade))
        playable = [b for b in tensticks.of(view).player_bonus_cards() if not b.over_21]
        for seat in _seats([b.seat for b in playable] + [light.seat for light in view.lights]):
            pairing = _pair([(b.index, b) for b in playable if b.seat == seat],
                            [light for light in view.lights if light.seat == seat])
            # where trading is off the light may stand anywhere in the round
            for bonus in pairing.unlit:
                yield self.finding(view, bonus.line, f"{bonus.target} received a playable bonus "
                                   f"card, but no light was lit for {seat} in this round.",
                                   hand=bonus.target)
            for light in pairing.unearned:
                yield self.finding(view, light.line, f"A light was lit for {seat} (count "
                                   f"{light.count}) though no playable bonus card earned it in "
                                   "this round.", seat=seat)


@dataclass(frozen=True, slots=True, repr=False)
class PunchCardFact(Fieldwise):
    """A punched player's card punched (at a `leave`) or handed in (at a `sit`)."""

    kind: str  # punch or hand-in
    card: str
    punches: int
    player: str | None
    seat: str
    date: str | None
    time: str | None
    file: str
    line: int
    round: str
    table: str
    dealer: str | None
    currency: str | None = None

    @property
    def place(self) -> str:
        return f"table {self.table} ({PurePath(self.file).name} line {self.line}"


def in_time_order(facts: list[PunchCardFact]) -> Iterator[PunchCardFact]:
    """The facts of every file merged by date and time, each file's in record order.

    Line order is event order within a file (bjh-format.md), so only files are interleaved.
    A fact with no date (a round of a shoe without `date=`) takes the date of the fact
    before it in its file, or of the first dated one after it.
    """
    by_file: dict[str, list[PunchCardFact]] = {}
    for fact in facts:  # merged in input order, each file's facts in record order
        by_file.setdefault(fact.file, []).append(fact)
    timelines = []
    for items in by_file.values():
        dated = [f.date for f in items if f.date]
        date = dated[0] if dated else None
        timeline = []
        for fact in items:
            date = fact.date or date
            timeline.append(((date or "", fact.time or ""), fact))
        timelines.append(timeline)
    for _, fact in heapq.merge(*timelines, key=lambda entry: entry[0]):
        yield fact


@register
class PunchedPlayersCard(Check):
    """A player's card punched with other than the lights held, handed in with other than
    its punches, or handed in twice.

    Regulation: "A casino may allow players leaving the game to receive a player's card on
    which the dealer punches a total equaling the number of lights which that player
    accumulated during play. If the player resumes the game at a later time, the player
    would start the game with the same number of bonus lights as punches on the player's
    card. The player must surrender the card at the time the game is resumed. The form of
    the player's card used by a casino under this option must have the prior approval of the
    commission." (20:18:15:30.02(¶11))
    Violating: the player holds 6 lights and `leave s2 punchcard=PC-9 punches=7`; or PC-9
    was punched 6 and `sit s5 player=P-1 punchcard=PC-9 punches=7` at another table; or
    PC-9 is handed in again with no new punch in between.
    Compliant: `leave s2 punchcard=PC-9 punches=6`, then at any table, on any day,
    `sit s5 player=P-1 punchcard=PC-9 punches=6`.
    Reading: the lights held are the seat's last recorded count, what the player started
    with if no light followed, and zero after a prize. Cards are followed across every file
    of the audit in time order (the round's date and the statement's time), from every
    round, even one with an unreadable line; a card handed in that was punched outside the
    audited records is not a finding, but a second hand-in of it is. Handing a card in
    surrenders it; a new punch of the same card makes it good again. The prior approval of
    the card's form is not in a record. A card handed in with the wrong punches is this
    subsection's one finding, at the statement that punched it: the player who hands it in
    starts with the punches as recorded, and the lights count on from them ((5) and (8)
    judge the count from there).
    """

    citation = "20:18:15:30.02(¶11)"
    name = "tensticks.punched_players_card"
    options = frozenset()
    severity = "medium"
    needs = frozenset({ev.Leave})
    games = TENSTICKS

    def round(self, view: RoundView) -> Iterator[Finding]:
        for change in view.seat_changes:
            if (change.kind == "leave" and change.punchcard is not None
                    and change.punches is not None and change.lights_held is not None
                    and change.punches != change.lights_held):
                yield self.finding(view, change.line, f"Card {change.punchcard} was punched "
                                   f"{change.punches} times, but the player leaving "
                                   f"{change.seat} held {change.lights_held} lights.",
                                   seat=change.seat)

    def collect(self, view: RoundView) -> list[PunchCardFact]:
        return [PunchCardFact("punch" if c.kind == "leave" else "hand-in", c.punchcard,
                              c.punches, c.player, c.seat, view.date, view.line_time(c.line),
                              view.file, c.line, view.round_id, view.config.table_id,
                              view.dealer_id, view.config.currency)
                for c in view.seat_changes if c.punchcard is not None and c.punches is not None]

    def audit(self, facts: list[PunchCardFact]) -> Iterator[Finding]:
        punched: dict[str, PunchCardFact] = {}  # card -> its last punch, until handed in
        handed_in: dict[str, PunchCardFact] = {}  # card -> its hand-in, until punched again
        for fact in in_time_order(facts):
            if fact.kind == "punch":
                punched[fact.card] = fact
                handed_in.pop(fact.card, None)
                continue
            earlier = handed_in.get(fact.card)
            punch = punched.pop(fact.card, None)
            handed_in[fact.card] = fact
            if earlier is not None:
                yield self._finding(fact, f"Card {fact.card} was handed in at {fact.seat}, but it "
                                    f"had already been surrendered at {earlier.place}) and not "
                                    "punched since.")
            elif punch is not None and punch.punches != fact.punches:
                yield self._finding(fact, f"Card {fact.card} was handed in at {fact.seat} with "
                                    f"{fact.punches} punches, but it was punched "
                                    f"{punch.punches} at {punch.place}).")

    def _finding(self, fact: PunchCardFact, message: str) -> Finding:
        return Finding(citation=self.citation, rule=self.name, severity=self.severity,
                       file=fact.file, line=fact.line, round=fact.round, table=fact.table,
                       seat=fact.seat, message=message, game="tensticks", dealer=fact.dealer,
                       date=fact.date, time=fact.time, currency=fact.currency)
