"""The one `Finding` model behind every output format."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_serializer

from auditor.money import exact_text

CENT = Decimal("0.01")
Severity = Literal["high", "medium", "low"]
SEVERITIES: tuple[Severity, ...] = ("high", "medium", "low")
"""high: money changed hands wrongly or a wager was unlawful; medium: the game was not
conducted as the regulation says; low: the record itself is deficient."""

FINDING_FIELDS = ("id", "citation", "rule", "severity", "file", "line", "round", "table", "seat",
                  "hand", "message", "expected", "actual", "difference")


class Waiver(BaseModel):
    """The waiver a finding is accepted under, as the outputs show it (auditor/waivers.py)."""

    model_config = ConfigDict(frozen=True)

    index: int  # the waiver's position in its file, 1 for the first [[waiver]]
    name: str | None = None
    justification: str
    approved_by: str
    expires: str  # YYYY-MM-DD; the waiver holds until the end of that day, UTC
    matched_on: dict[str, str]  # what the waiver names: id, citation, table, dealer, file…


class Finding(BaseModel):
    model_config = ConfigDict(frozen=True)

    # The stable ID (auditor/identity.py), set in the parent once every file is merged.
    id: str | None = None
    citation: str
    rule: str
    severity: Severity
    file: str
    line: int | None
    round: str | None = None
    table: str | None = None
    seat: str | None = None
    hand: str | None = None
    message: str
    expected: Decimal | None = None
    actual: Decimal | None = None
    difference: Decimal | None = None
    # The currency of every amount above: the one the table's header declares
    # (`currency=CODE`), None when it declares none ("undeclared"). Amounts of two currencies
    # are never added: every total is per currency (`money_totals`).
    currency: str | None = None
    # Context beyond the catalog's fields, for summaries and the report.
    column: int | None = None
    game: str | None = None
    dealer: str | None = None
    date: str | None = None
    time: str | None = None
    # The casino's calendar (auditor/gaming_day.py), set in the parent when the run is
    # judged, from the round's date and start time: a round at 01:30 belongs to the gaming
    # day begun the evening before.
    round_started: str | None = None  # the round's local start and end times (HH:MM:SS)
    round_ended: str | None = None
    gaming_day: str | None = None
    shift: str | None = None
    player: str | None = None  # who sat at the finding's seat, when the record names one
    shoe: str | None = None  # the shoe's ID (its `shoe` statement), part of the stable ID
    evidence: tuple[int, ...] = ()  # other lines of the record that show the fault
    # What the fault is about (e.g. the settlement of one wager). Findings of one round on
    # the same subject are one fault: only the most specific citation is kept.
    subject: str | None = Field(default=None, exclude=True)
    # The text of the line the finding stands on, normalised (auditor/identity.py), taken in
    # the worker while the file streams: an input to the ID, not an output (the file and
    # line already say where the statement is).
    statement: str | None = Field(default=None, exclude=True)
    waiver: Waiver | None = None  # set when an unexpired waiver covers the finding
    baseline: Literal["new", "persisting", "not compared"] | None = None  # with --baseline

    @field_serializer("expected", "actual", "difference")
    def _money(self, amount: Decimal | None) -> str | None:
        """Exact decimal text ("-0.01", "30.00"), never a float: a float of a large amount
        is not the amount. Two decimals, as amounts are written, unless a computed amount
        (a blackjack at 3 to 2 on 25.05) has more: it is never rounded here."""
        return None if amount is None else exact_text(amount)

    def sort_key(self) -> tuple:
        return (self.file, self.line or 0, self.citation, self.seat or "", self.hand or "")

    def as_dict(self) -> dict[str, Any]:
        """The JSON form: the catalog's fields first, then the context."""
        return self.model_dump(mode="json")


_GIVEN_FIELDS: dict[frozenset[str], set[str]] = {}


def compact(finding: Finding) -> Finding:
    """`finding`, made to share its set of given fields with every finding that has the
    same set (pydantic keeps one set for each model; on a month's tens of thousands of
    findings those sets were a third of their memory). A frozen model never adds to its
    set, and `model_copy` copies it before changing it."""
    given = finding.__pydantic_fields_set__
    object.__setattr__(finding, "__pydantic_fields_set__",
                       _GIVEN_FIELDS.setdefault(frozenset(given), given))
    return finding


def changed(finding: Finding, **update: Any) -> Finding:
    """A copy of `finding` with `update` (`model_copy`), compact."""
    return compact(finding.model_copy(update=update))
