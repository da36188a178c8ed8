"""replay.trace's parts with exact values: the steps a long round keeps (the table before and
after each line a finding stands on, so the report shows what that line alone changed, and
every step up to the limit), what a step shares with the step before (the dealer's entry,
the players, the lists of hands and wagers: what replay.changes and the store's encoder
know unchanged by identity), a replay's lines (to the round's end, or to its last statement
when the record ends inside it), and a hand's status at the edges of 21 (the words an
inspector reads beside the cards)."""

from __future__ import annotations

from auditor.replay.trace import STEPS_AT_MOST, RoundEvidence, trace_round
from tests.helpers.replaying import HEADER, rounds_of

CARDS = [rank + suit for rank in "A23456789TJQK" for suit in "cdhs"]

# header lines 1 to 5; the round's statements from line 8 (its `round` line)
ROUND_START = HEADER.count("\n") + 3


def _long_round(hits: int) -> str:
    lines = ["shuffle", "cut", "round 1 time=10:00:00 dealer=D-1", "sit s1 player=P-1",
             "bet s1h1 main 20", "deal s1h1 2c", "deal dealer 7d", "deal s1h1 3c",
             "deal dealer 9d", *(f"hit s1h1 {CARDS[i % 52]}" for i in range(hits)),
             "reveal", "settle s1h1 main lose 20", "end"]
    return HEADER + "\n".join(lines) + "\n"


def _traced(text: str, faults: tuple[int, ...]):
    [(before, record)] = list(rounds_of(text))
    source = dict(enumerate(text.splitlines(), start=1))
    return trace_round(before, record, "f.bjh", source, faults)


def test_a_long_round_keeps_its_first_and_last_steps_and_the_two_around_a_fault() -> None:
    text = _long_round(150)  # 158 statements, lines 9 (sit) to 166 (end)
    fault = 120  # `hit s1h1 Ad`, the 112th statement: neither among the first 80 nor the last 30
    assert text.splitlines()[fault - 1] == "hit s1h1 Ad"
    evidence = _traced(text, (fault,))
    first, last = ROUND_START + 1, ROUND_START + 158
    assert STEPS_AT_MOST < 158
    assert sorted(evidence.steps) == [*range(first, first + 80), fault - 1, fault,
                                      *range(last - 29, last + 1)]
    # the report shows what the faulty line alone did: one card, not the line before's too
    by_line = {line: came for line, came, _ in evidence.changes()["lines"]}
    [(key, before)], [(same_key, after)] = by_line[fault - 1], by_line[fault]
    assert key == same_key == "hand:s1h1"
    assert before[0][-1] == "Ac" and after[0] == (*before[0], "Ad")
    assert fault - 2 not in by_line


def test_a_round_of_at_most_the_limit_keeps_every_step() -> None:
    text = _long_round(120 - 8)  # with the round's 8 other statements: the limit exactly
    evidence = _traced(text, (ROUND_START + 50,))
    first = ROUND_START + 1
    assert sorted(evidence.steps) == list(range(first, first + 120))


def test_a_round_one_statement_over_the_limit_keeps_its_first_80_and_last_30_steps() -> None:
    text = _long_round(121 - 8)
    evidence = _traced(text, ())
    first, last = ROUND_START + 1, ROUND_START + 121
    assert sorted(evidence.steps) == [*range(first, first + 80), *range(last - 29, last + 1)]


def test_a_step_shares_what_it_did_not_change_with_the_step_before() -> None:
    text = _long_round(1)
    steps = _traced(text, ()).steps
    line = {statement: number for number, statement in enumerate(text.splitlines(), start=1)}
    bet, first_card, dealer_card = line["bet s1h1 main 20"], line["deal s1h1 2c"], \
        line["deal dealer 7d"]
    # the dealer's card: the hands and the wagers the step before's, lists and all
    assert steps[dealer_card]["hands"] is steps[first_card]["hands"]
    assert steps[dealer_card]["wagers"] is steps[first_card]["wagers"]
    # the hand's first card: a new list of hands, the same list of wagers
    assert steps[first_card]["hands"] is not steps[bet]["hands"]
    assert steps[first_card]["hands"] == [{"hand": "s1h1", "cards": ["2c"], "total": 2,
                                           "soft": False, "status": "", "doubled": ""}]
    assert steps[first_card]["wagers"] is steps[bet]["wagers"]
    # the bet: a new list of wagers
    assert steps[bet]["wagers"] is not steps[line["sit s1 player=P-1"]]["wagers"]
    # the dealer's entry until the dealer's card, the players' until someone sits
    assert steps[first_card]["dealer"] is steps[bet]["dealer"]
    assert steps[dealer_card]["dealer"] is not steps[first_card]["dealer"]
    assert steps[dealer_card]["players"] is steps[bet]["players"] == {"s1": "P-1"}


def test_a_replays_lines_end_at_the_rounds_end() -> None:
    """The report names a replay's lines by its last ("lines 8–20"): the statements after
    the round are not the round's."""
    text = _long_round(1) + "shuffle\ncut\n"
    [(before, record)] = list(rounds_of(text))
    source = dict(enumerate(text.splitlines(), start=1))
    evidence = trace_round(before, record, "f.bjh", source)
    end = len(text.splitlines()) - 2
    assert evidence.lines[-1] == (end, "end")
    assert [line for line, _ in evidence.lines] == list(range(ROUND_START, end + 1))
    assert (evidence.start_line, evidence.last_line) == (ROUND_START, end)
    assert RoundEvidence("f.bjh", "1", ROUND_START, []).last_line is None


def test_a_round_the_record_ends_inside_is_replayed_to_its_last_statement() -> None:
    text = HEADER + "\n".join(["shuffle", "cut", "round 1 time=10:00:00 dealer=D-1",
                               "sit s1 player=P-1", "bet s1h1 main 20", "deal s1h1 2c"]) + "\n"
    evidence = _traced(text, ())
    assert evidence.lines == [(ROUND_START, "round 1 time=10:00:00 dealer=D-1"),
                              (ROUND_START + 1, "sit s1 player=P-1"),
                              (ROUND_START + 2, "bet s1h1 main 20"),
                              (ROUND_START + 3, "deal s1h1 2c")]
    assert evidence.last_line == ROUND_START + 3
    assert evidence.steps[ROUND_START + 3]["hands"] == [
        {"hand": "s1h1", "cards": ["2c"], "total": 2, "soft": False, "status": "",
         "doubled": ""}]


THREE_HANDS = ["shuffle", "cut", "round 1 time=10:00:00 dealer=D-1", "sit s1 player=P-1",
               "sit s2 player=P-2", "sit s3 player=P-3", "bet s1h1 main 20", "bet s2h1 main 10",
               "bet s3h1 main 10", "deal s3h1 7s", "deal s1h1 Tc", "deal s2h1 Ah",
               "deal dealer 7d", "deal s1h1 2c", "deal s2h1 Kh", "deal s3h1 4s", "deal dealer 9d",
               "double s1h1 20 Kd", "hit s3h1 Ks", "stand s3h1", "reveal",
               "settle s1h1 main lose 40", "settle s2h1 main win 15", "leave s2", "end"]


def _hand(name: str, cards: list[str], total: int, soft: bool, status: str,
          doubled: str = "") -> dict:
    return {"hand": name, "cards": cards, "total": total, "soft": soft, "status": status,
            "doubled": doubled}


def test_a_step_shows_each_hands_status_at_the_edges_of_21() -> None:
    """22 is over 21, also for a hand doubled (its reason to be complete: doubled); a 21 of
    two cards is a blackjack, of three cards no status until the hand stands; the dealer's
    cards revealed from the reveal on."""
    text = HEADER + "\n".join(THREE_HANDS) + "\n"
    steps = _traced(text, ()).steps
    line = {statement: number for number, statement in enumerate(text.splitlines(), start=1)}
    busted = _hand("s1h1", ["Tc", "2c", "Kd"], 22, False, "over 21", "20")
    natural = _hand("s2h1", ["Ah", "Kh"], 21, True, "blackjack")
    assert steps[line["hit s3h1 Ks"]]["hands"] == [
        busted, natural, _hand("s3h1", ["7s", "4s", "Ks"], 21, False, "")]
    assert steps[line["stand s3h1"]]["hands"] == [
        busted, natural, _hand("s3h1", ["7s", "4s", "Ks"], 21, False, "stood")]
    assert steps[line["stand s3h1"]]["dealer"] == {"cards": ["7d", "9d"], "total": 16,
                                                   "revealed": False}
    assert steps[line["reveal"]]["dealer"] == {"cards": ["7d", "9d"], "total": 16,
                                               "revealed": True}
    assert steps[line["settle s2h1 main win 15"]]["wagers"] == [
        {"wager": "main wager on s1h1", "amount": "20", "settled": "lose 40", "target": "s1h1",
         "kind": "main", "tip": False},
        {"wager": "main wager on s2h1", "amount": "10", "settled": "win 15", "target": "s2h1",
         "kind": "main", "tip": False},
        {"wager": "main wager on s3h1", "amount": "10", "settled": "", "target": "s3h1",
         "kind": "main", "tip": False}]
    assert steps[line["settle s2h1 main win 15"]]["players"] == {"s1": "P-1", "s2": "P-2",
                                                                 "s3": "P-3"}
    assert steps[line["leave s2"]]["players"] == {"s1": "P-1", "s3": "P-3"}
