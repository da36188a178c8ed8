"""How the report writes its values: money, counts, nets, times, and the sentences that
explain a waiver, a missing replay or a check not applied. Plain text; the templates escape
it (`html_report.environment` makes these its filters)."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from markupsafe import Markup

from auditor.audit import REPLAYS_PER_CITATION
from auditor.checks.base import GAMES
from auditor.money import UNDECLARED, MoneyTotals, grouped_text, with_currency
from auditor.report.model import CoverageRow, NoReplay
from auditor.run import REPLAYS_PER_CITATION_IN_RUN


def money(amount: Decimal | float | int | None) -> str:
    """An amount, exact, with thousands separators (`money.grouped_text`)."""
    if amount is None:
        return ""
    return grouped_text(Decimal(str(amount)))


def paid(totals: MoneyTotals, kind: str, empty: str = "none") -> str:
    """Under- or over-paid (`kind`) in words, one amount per currency, never added."""
    return totals.text(kind, empty)


def amounts(totals: MoneyTotals, kind: str) -> Markup:
    """A table cell's money: each currency's amount in a span kept whole (the cell wraps
    between currencies, never inside an amount). Escaped: a currency code is record text."""
    place = 0 if kind == "under" else 1
    return Markup(", ").join(
        Markup('<span class="amt">{}</span>').format(with_currency(totals.amounts[c][place], c))
        for c in totals.currencies() if totals.amounts[c][place])


def in_currency(amount: Decimal | None, currency: str | None) -> str:
    """An amount with its currency, exact ("50.00 USD", "7.575 CAD")."""
    return "" if amount is None else with_currency(amount, currency)


def signed_in(amount: Decimal | None, currency: str | None) -> str:
    """A player's net with its currency: "+30.00 USD", "−20.00 (undeclared)"."""
    if amount is None:
        return ""
    return f"{signed(amount)} {currency if currency else '(' + UNDECLARED + ')'}"


def signed(amount: Decimal | float | None) -> str:
    """A player's net: + paid to the player, − collected from the player."""
    if amount is None:
        return ""
    value = Decimal(str(amount))
    if value > 0:
        return "+" + money(value)
    if value < 0:
        return "−" + money(-value)
    return money(value)


def count(number: int, noun: str, plural: str | None = None) -> str:
    return f"{number:,} {noun if number == 1 else (plural or noun + 's')}"


def net_words(amount: Decimal | None) -> str:
    """What a player's net means: paid, collected, or nothing changed hands."""
    if amount is None:
        return ""
    if amount > 0:
        return "paid to the player"
    if amount < 0:
        return "collected from the player"
    return "returned (push or void)"


def utc_text(stamp: str | None) -> str:
    if not stamp:
        return "not recorded"
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC")


def duration_text(started: str | None, finished: str | None) -> str:
    try:
        seconds = (datetime.fromisoformat(finished or "")
                   - datetime.fromisoformat(started or "")).total_seconds()
    except ValueError:
        return ""
    if seconds < 60:
        return f"{seconds:.0f} s"
    return f"{int(seconds // 60)} min {int(seconds % 60)} s"


def positions(inputs: list[int]) -> str:
    """Which inputs an entry stands for, as a page attribute: a filtered view's scope."""
    return " ".join(map(str, inputs))


def waiver_note(waiver: Any) -> str:
    """The sentence that says why a finding is waived, by whom, and until when."""
    name = f" ({waiver.name})" if waiver.name else ""
    return (f"Waived by waiver {waiver.index}{name}: {waiver.justification} — approved by "
            f"{waiver.approved_by}; holds until the end of {waiver.expires} (UTC).")


def no_replay_text(reason: NoReplay | None, finding: Any, in_report: int) -> str:
    """Why a finding has no replay in the report, and how to get one (`in_report`: the
    report's cap of replays in all)."""
    if reason is None:
        return ""
    if reason.kind == "cut":
        return (f"This round's replay is left out of the report, which replays at most "
                f"{REPLAYS_PER_CITATION_IN_RUN} rounds of each citation and "
                f"{in_report} in all ({reason.recorded:,} were recorded). "
                f"To replay it, audit its file alone: auditor audit {finding.file}")
    if reason.kind == "beyond_file_cap":
        return (f"This round is not replayed: the audit replays the first "
                f"{REPLAYS_PER_CITATION} rounds of each citation in a file. The file's "
                f"record holds it at line {finding.line}.")
    if reason.kind == "beyond_run_cap":
        return (f"This round's replay was made and not kept: a run keeps the replays of at "
                f"most {REPLAYS_PER_CITATION_IN_RUN} rounds of each citation, its first in "
                f"input and record order ({reason.recorded:,} kept in all). "
                f"To replay it, audit its file alone: auditor audit {finding.file}")
    if reason.kind == "not_recorded":
        return "No replay of this round was recorded."
    return "This finding concerns the file, not one round."


def games_text(games: frozenset[str] | set[str]) -> str:
    """Which games a check runs for, shortly: every game says nothing."""
    if not games or games >= GAMES:
        return ""
    if len(games) == 1:
        return f"{next(iter(games))} only"
    missing = GAMES - games
    if len(missing) == 1:
        return f"not {next(iter(missing))}"
    return ", ".join(sorted(games))


def coverage_note(row: CoverageRow) -> str:
    """Why a checked subsection was not applied, in words ("" when it was)."""
    return {"not_selected": "not selected",
            "not_in_force": f"not yet in force (in force from {row.since})",
            "no_outside_file": f"no {row.outside_file} file was given",
            "game_absent": "no table of its game was audited",
            "no_round": "no round was audited"}.get(row.note, "")
