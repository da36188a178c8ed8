"""The check runner skips a check in a round that holds nothing the check looks at
(`Check.needs`): such a check must find nothing there, or the skip would hide a finding."""

from __future__ import annotations

from auditor import checks as _checks  # noqa: F401  (registers every check)
from auditor import events as ev
from auditor.checks.base import PROBLEM, registry
from auditor.checks.runner import round_holds
from tests.helpers.views import every_view, views_of

MARKS = {PROBLEM, "insurance", "supermatch", "db21", "ladies", "tip"}


def test_needs_name_statements_or_marks() -> None:
    declared = [c for c in registry().values() if c.needs is not None]
    assert len(declared) >= 20
    for check in declared:
        assert check.needs, check.name
        for need in check.needs:
            assert need in MARKS or (isinstance(need, type) and issubclass(need, ev.Event)), (
                check.name, need)


def test_a_skipped_check_finds_nothing() -> None:
    """Over every test case and sample log, each check that declares `needs`, run on the
    rounds that hold none of them, finds nothing; and the cases do reach every such check
    with rounds that hold what it needs, and with findings (so the skip is tested on rounds
    of its game)."""
    declared = [c for c in registry().values() if c.needs is not None]
    skipped = dict.fromkeys((c.citation for c in declared), 0)
    finding = dict.fromkeys((c.citation for c in declared), 0)
    for view in every_view():
        if view.game is None:
            continue
        holds = round_holds(view)
        for check in declared:
            if not check.applies_to(view.game):
                continue
            found = list(check.round(view))
            if check.needs.isdisjoint(holds):
                skipped[check.citation] += 1
                assert found == [], (check.name, view.round_id, found)
            elif found:
                finding[check.citation] += 1
    assert all(skipped.values()), [c for c, n in skipped.items() if not n]
    # a header problem stands outside rounds in every case: record:header finds it by file
    assert [c for c, n in finding.items() if not n] == ["record:header"]


def test_round_holds_its_statements_side_wagers_and_problems() -> None:
    text = """bjh 1
table T1 game=standard decks=6 seats=7 min=10 max=1000 currency=USD
shoe S1 date=2026-11-20
round 1
bet s1h1 main 20
bet s1h1 main 5 tip
deal s1h1 Ah
deal dealer 9c
deal s1h1 7d
deal dealer 8d
double s1h1 20 2c
settle s1h1 main win 40
settle s1h1 main win 5 tip
end
round 2
bet s1h1 main 20
deal s1h1 Th
deal dealer Ac
deal s1h1 9d
deal dealer 7d
bet s1h1 insurance 10
hit s9h1 4c
settle s1h1 insurance lose 10
settle s1h1 main lose 20
end
"""
    first, second = views_of((n, t, None) for n, t in enumerate(text.split("\n"), 1))
    assert round_holds(first) == {ev.Bet, ev.Deal, ev.Double, ev.Settle, "tip"}
    assert round_holds(second) == {ev.Bet, ev.Deal, ev.Hit, ev.Settle, "insurance", PROBLEM}
