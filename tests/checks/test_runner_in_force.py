"""The check runner's rules in force by date (auditor/checks/runner.py): a rule with an
effective date does not judge rounds dated before it, and is counted as applied only to
the rounds it judged; a round dated after every effective date is judged by the file's own
lists of checks, not by copies made for its date."""

from __future__ import annotations

from pathlib import Path

from auditor.audit import audit_file
from auditor.checks.runner import runner_for
from auditor.config import TableConfig
from auditor.results import FileResult, InputSummary
from tests.helpers import ROOT

STANDARD = ROOT / "sample_logs" / "standard-t11-2026-11-20.bjh"
BURN = "20:18:15:28"  # in force from 2022-01-01 (rulebase.effective_dates)


def _runner():
    return runner_for(TableConfig(game="standard"), FileResult(InputSummary(path="f.bjh")),
                      None, None)


def test_a_date_after_every_effective_date_gets_the_file_lists() -> None:
    runner = _runner()
    every, unreadable, collecting, not_yet = runner._in_force("2026-11-20")
    assert every is runner.checks and unreadable is runner.unreadable_checks
    assert collecting is runner.collecting and not_yet == []


def test_a_date_before_an_effective_date_leaves_that_rule_out() -> None:
    runner = _runner()
    every, _, _, not_yet = runner._in_force("2021-06-01")
    assert BURN in {c.citation for c in runner.checks}
    assert not_yet == [BURN]
    assert [c.citation for c in every] == [
        c.citation for c in runner.checks if c.citation != BURN]
    assert runner._in_force("2021-06-01")[0] is every  # made once per date


def test_applied_counts_only_the_rounds_a_rule_was_in_force_for(tmp_path: Path) -> None:
    text = STANDARD.read_text(encoding="utf-8")
    first_shoe = text.index("shoe 611 date=2026-11-20")
    second_shoe = text.index("shoe 612 date=2026-11-20")
    # the first shoe's rounds dated before 20:18:15:28 came into force, the second's after
    mixed = (text[:first_shoe] + text[first_shoe:second_shoe].replace(
        "date=2026-11-20", "date=2021-11-20") + text[second_shoe:])
    path = tmp_path / "mixed.bjh"
    path.write_text(mixed, encoding="utf-8")
    whole, split = audit_file(str(STANDARD)), audit_file(str(path))
    rounds = whole.summary.rounds_audited
    assert split.summary.rounds_audited == rounds
    second = text[second_shoe:].count("\nround ")
    assert 0 < second < rounds
    assert whole.applied[BURN] == rounds
    assert split.applied[BURN] == second
    assert {c: n for c, n in split.applied.items() if c != BURN} == {
        c: n for c, n in whole.applied.items() if c != BURN}
