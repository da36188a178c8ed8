"""What an audit returns, shared by every layer above the single-file audit: the pools and
the cluster that move results, the run store that keeps them, identity, waivers and the
outputs that read them. Below all of them, so none of them imports another to know a
result's shape."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from pydantic import BaseModel, field_serializer

from auditor.fieldwise import Fieldwise
from auditor.findings import Finding
from auditor.replay.trace import RoundEvidence
from auditor.tally import Tally


class InputSummary(BaseModel):
    path: str
    sha256: str | None = None
    # The bytes hashed into `sha256` (a manifest names them, so `verify` tells a file of
    # another size without reading it). None: not recorded (an older run or store).
    size: int | None = None
    lines: int = 0
    rounds: int = 0  # rounds read
    rounds_audited: int = 0  # rounds whose rules were judged (no unreadable line in them)
    table: str | None = None
    casino: str | None = None
    licence: str | None = None
    game: str | None = None
    first_date: str | None = None
    last_date: str | None = None
    # The first and last gaming days of its rounds (auditor/gaming_day.py), by the run's
    # calendar: set in the parent as the file is recorded; None in runs made before them.
    first_gaming_day: str | None = None
    last_gaming_day: str | None = None
    dealers: list[str] = []
    error: str | None = None  # why the file could not be audited at all
    # The rest of the table's identity, as its header declared it (None: no header read).
    decks: int | None = None
    seats: int | None = None
    minimum: Decimal | None = None
    maximum: Decimal | None = None
    currency: str | None = None
    house_rules: dict[str, str] = {}  # option key -> value in force, defaults made explicit
    # The keys of `house_rules` the header declares; the others are the defaults the auditor
    # assumed. None: recorded before the auditor told them apart (an older run or store).
    declared_rules: list[str] | None = None
    # The house rules the header leaves unknown (record:header), judged under each value
    # they could hold and so in neither list above: key -> why (`set to 7:5 at line 5, a
    # value it cannot take`). None: recorded before the auditor kept them.
    unknown_rules: dict[str, str] | None = None

    # [dealer, hour stamp ("2026-11-20 21", `gaming_day.hour_stamp`), rounds read, rounds
    # audited] for each dealer and hour: what a report filtered to a dealer, gaming day or
    # shift counts. None: recorded before the auditor kept them (an older run or store).
    round_counts: list[list] | None = None

    # A record not finished (auditor/audit.py): the round the file ends inside, with no
    # `close` read, read but not judged ({"round": ID, "line": its `round` line,
    # "last_line": its last line read}); the last line, not ended by a newline, set aside
    # as not yet written. `finished`: the table closed (`close` read), or the run took
    # every file as finished (`audit --finished`); None in runs made before it was kept.
    open_round: dict[str, Any] | None = None
    unwritten_line: int | None = None
    finished: bool | None = None
    # A record not finished that ends inside its header (no body statement read yet): the
    # header's last line read (0: an empty file), its header not judged; else None.
    open_header: int | None = None

    def gaming_days(self) -> tuple[str | None, str | None]:
        """The first and last gaming days of its rounds, as its run gave them (a run
        recorded before inputs carried them: its calendar dates, all that is known)."""
        if self.first_gaming_day is not None:
            return self.first_gaming_day, self.last_gaming_day
        return self.first_date, self.last_date

    def rule_declared(self, key: str) -> bool | None:
        """Whether the house rule `key` (as `house_rules` names it) was declared by the
        header (True) or assumed by the auditor (False); None when the run did not record
        it."""
        return None if self.declared_rules is None else key in self.declared_rules

    @field_serializer("minimum", "maximum")
    def _limit(self, amount: Decimal | None) -> str | None:
        return None if amount is None else str(amount)

    @property
    def table_key(self) -> str | None:
        """The table's identity across the run: licence (or else casino) and table ID, so
        equal table IDs of two casinos never merge. None when no header was read."""
        return table_key(self.licence or self.casino, self.table)


def table_key(owner: str | None, table: str | None) -> str | None:
    if table is None:
        return None
    return f"{owner}/{table}" if owner else table


@dataclass(repr=False, eq=False)
class FileResult(Fieldwise):
    """One file's audit: its summary, findings, facts for the checks across files, rounds
    judged per citation, evidence and tally."""

    summary: InputSummary
    findings: list[Finding] = field(default_factory=list)
    facts: dict[str, list] = field(default_factory=dict)  # citation -> facts for audit()
    applied: Counter = field(default_factory=Counter)  # citation -> rounds judged
    evidence: dict[str, RoundEvidence] = field(default_factory=dict)  # round key -> evidence
    tally: Tally = field(default_factory=Tally)  # denominators and card facts for `trends`


@dataclass(repr=False, eq=False)
class AuditResult(Fieldwise):
    """A run's audit, merged in input order, with what the waivers and the baseline made of
    it."""

    inputs: list[InputSummary]
    findings: list[Finding]
    applied: Counter
    evidence: dict[str, RoundEvidence]
    tallies: list[Tally] = field(default_factory=list)  # one per input, in input order
    # Set after the audit by auditor/waivers.py and auditor/baseline.py.
    waivers: list = field(default_factory=list)  # WaiverStatus, in the waiver file's order
    resolved: list[dict] | None = None  # earlier findings now gone; None without a baseline
    # Patterns across nights against a baseline run (auditor/baseline_runs.py); None without.
    patterns: list[dict] | None = None
    # What the finding-by-finding comparison left out: the citations one of the two runs did
    # not judge (auditor/baseline.py, `Comparison.not_compared`); None when it left none out.
    not_compared: dict | None = None

    @property
    def unreadable(self) -> list[InputSummary]:
        return [i for i in self.inputs if i.error]


def round_key(file: str, round_id: str | None, line: int) -> str:
    return f"{file}:{line}:{round_id}"


class AuditFailure(Exception):
    """The auditor itself failed on a file (a bug, not a fault of the record): the file is
    named, the cause chained."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path
