"""Lucky Ladies blackjack (20:18:15:30.04) simulated and audited, every pay table.

The simulator deals the game (each seat's first two cards classified, the wager taken or
paid before any player draws, the top award at a `peek=no` table at the reveal) and plants
each clause of 30.04(2)-(5) with the standard rules' and the record's. The audit of its
records must give exactly the planted findings (citation, round, line), and none on clean
records. 20,000 faulty rounds with `BJH_SLOW_TESTS=1`; a smaller run otherwise.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from auditor.audit import audit_file
from auditor.run import merge
from auditor.simulate import simulate, table_spec
from auditor.simulate.faults import INJECTORS

# (decks, options): every pay table, with peek and without (the top award waits)
CONFIGS = [
    (6, {"ladies.paytable": "A"}),
    (8, {"ladies.paytable": "B", "peek": "no", "soft17": "hit", "surrender": "late"}),
    (1, {"ladies.paytable": "C", "blackjack": "6:5"}),
    (2, {"ladies.paytable": "A", "peek": "no", "das": "no", "double": "9-11"}),
    (1, {"ladies.paytable": "C", "peek": "no", "surrender": "late"}),
]
# Rounds per configuration: a smaller run always, 20,000 faulty rounds in all marked slow.
FAULTY_ROUNDS = [600, pytest.param(20_000 // len(CONFIGS), marks=pytest.mark.slow)]
CLEAN_ROUNDS = [400, pytest.param(4_000, marks=pytest.mark.slow)]
LADIES_CLAUSES = {v.__name__ for c, vs in INJECTORS.items() if c.startswith("20:18:15:30.04")
                  for v in vs}

Key = tuple[str, "str | None", str, int]


def _audit(base: Path, rounds: int, faults: float, seed: str
           ) -> tuple[set[Key], dict[Key, str], Counter]:
    planted: set[Key] = set()
    found: dict[Key, str] = {}
    clauses: Counter = Counter()
    for number, (decks, options) in enumerate(CONFIGS, start=1):
        spec = table_spec("ladies", table_id=f"L{number}", decks=decks, options=options)
        result = simulate(base, spec, rounds=rounds, seed=seed, faults=faults,
                          header_fault=faults > 0 and number == 2)
        assert result.rounds == rounds
        for path in result.files:
            truth = json.loads(path.with_suffix(".truth.json").read_text())
            planted |= {(f["file"], f["round"], f["citation"], f["line"])
                        for f in truth["faults"]}
            clauses.update(f["clause"] for f in truth["faults"])
            for finding in merge([audit_file(str(path), keep_evidence=False)]).findings:
                found[(Path(finding.file).name, finding.round, finding.citation,
                       finding.line)] = finding.message
    return planted, found, clauses


def _explain(keys: set[Key], messages: dict[Key, str]) -> str:
    return "\n".join(f"{k[0]} round {k[1]} line {k[3]} {k[2]}: {messages.get(k, '')}"
                     for k in sorted(keys, key=lambda k: (k[0], k[3]))[:20])


@pytest.mark.parametrize("rounds", FAULTY_ROUNDS)
def test_planted_truth_equals_the_findings(tmp_path: Path, rounds: int) -> None:
    planted, found, clauses = _audit(tmp_path, rounds, 0.3, "ladies-faults")
    assert planted - set(found) == set(), "planted, not found:\n" + _explain(
        planted - set(found), {})
    assert set(found) - planted == set(), "found, not planted:\n" + _explain(
        set(found) - planted, found)
    citations = Counter(citation for _, _, citation, _ in planted)
    assert {f"20:18:15:30.04({n})" for n in range(2, 6)} <= set(citations)
    assert LADIES_CLAUSES - set(clauses) == set()
    assert clauses["SideWagerOverLimit"] and clauses["LadiesWithoutPaytable"]


@pytest.mark.parametrize("rounds", CLEAN_ROUNDS)
def test_clean_rounds_give_no_finding(tmp_path: Path, rounds: int) -> None:
    planted, found, _ = _audit(tmp_path, rounds, 0.0, "ladies-clean")
    assert not planted
    assert not found, _explain(set(found), found)


def test_the_game_is_dealt_as_the_regulation_says(tmp_path: Path) -> None:
    """Lucky Ladies wagers are taken or paid between the deal and the first draw, at the
    declared odds: a 20 of another seat's first two cards is paid, anything else taken."""
    spec = table_spec("ladies", decks=8, options={"ladies.paytable": "B"})
    text = simulate(tmp_path, spec, rounds=800, seed="dealt").files[0].read_text()
    rounds = text.split("\nround ")[1:]
    settled = 0
    for body in rounds:
        lines = [line.split(" ", 1)[1] for line in body.splitlines()[1:]
                 if line[:1].isdigit()]
        first_draw = next((i for i, line in enumerate(lines)
                           if line.startswith(("hit ", "double "))), len(lines))
        for index, line in enumerate(lines):
            if line.startswith("settle") and " ladies " in line and "void" not in line:
                settled += 1
                assert index < first_draw, body
    assert settled > 100


@pytest.mark.parametrize(("decks", "table"), [(6, "C"), (1, "A"), (1, "B")])
def test_a_pay_table_for_another_deck_count_is_refused(decks: int, table: str) -> None:
    from auditor.simulate import SpecError

    with pytest.raises(SpecError, match="pay table C"):
        table_spec("ladies", decks=decks, options={"ladies.paytable": table})
