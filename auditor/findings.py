"""The one `Finding` model behind every output format."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_serializer

Severity = Literal["high", "medium", "low"]
SEVERITIES: tuple[Severity, ...] = ("high", "medium", "low")
"""high: money changed hands wrongly or a wager was unlawful; medium: the game was not
conducted as the regulation says; low: the record itself is deficient."""

FINDING_FIELDS = ("citation", "rule", "severity", "file", "line", "round", "table", "seat",
                  "hand", "message", "expected", "actual", "difference")


class Finding(BaseModel):
    model_config = ConfigDict(frozen=True)

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
    # Context beyond the catalog's fields, for summaries and the report.
    column: int | None = None
    game: str | None = None
    dealer: str | None = None
    date: str | None = None
    time: str | None = None
    evidence: tuple[int, ...] = ()  # other lines of the record that show the fault
    # What the fault is about (e.g. the settlement of one wager). Findings of one round on
    # the same subject are one fault: only the most specific citation is kept.
    subject: str | None = Field(default=None, exclude=True)

    @field_serializer("expected", "actual", "difference")
    def _money(self, amount: Decimal | None) -> float | None:
        return None if amount is None else float(amount)

    def sort_key(self) -> tuple:
        return (self.file, self.line or 0, self.citation, self.seat or "", self.hand or "")

    def as_dict(self) -> dict[str, Any]:
        """The JSON form: the catalog's fields first, then the context."""
        return self.model_dump(mode="json")
