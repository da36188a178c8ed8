"""What a case says, apart from how it is printed (auditor/templates/case.html.jinja): who was
audited, when, under which house rules, by which auditor and rule base; the totals per
currency and per citation; one exhibit per finding; the provenance of the inputs in scope.

Everything here is of the licensee's inputs in scope only: no other table, dealer or input
of the run is read into the model.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from auditor.case import EXHIBITS_AT_MOST
from auditor.case.basis import Basis, HouseRule, basis_of, house_rules_of, rules_applied
from auditor.case.scope import Scope
from auditor.checks.base import citation_sort_key
from auditor.findings import Finding
from auditor.gaming_day import time_date
from auditor.money import UNDECLARED, currency_label
from auditor.replay.trace import RoundEvidence
from auditor.results import InputSummary
from auditor.rulebase import rule_entries


def currency_of(finding: Finding, summary: InputSummary | None) -> str:
    """The currency of a finding's amounts: its own (`Finding.currency`, its table's), else,
    for a run recorded before findings carried one, its table's header's; a table that
    declares none is "undeclared", kept apart like a currency of its own."""
    return currency_label(finding.currency
                          or (summary.currency if summary is not None else None))


def gaming_days_of(summary: InputSummary) -> tuple[str | None, str | None]:
    """The first and last gaming days of an input's rounds (`InputSummary.gaming_days`)."""
    return summary.gaming_days()


@dataclass
class MoneyTotal:
    currency: str
    findings: int = 0
    with_money: int = 0
    under_paid: Decimal = Decimal(0)
    over_paid: Decimal = Decimal(0)

    def add(self, finding: Finding) -> None:
        self.findings += 1
        difference = finding.difference
        if difference is None:
            return
        self.with_money += 1
        if difference < 0:
            self.under_paid -= difference
        elif difference > 0:
            self.over_paid += difference


@dataclass
class CitationRow:
    citation: str
    title: str
    findings: int = 0
    severities: Counter = field(default_factory=Counter)
    money: dict[str, MoneyTotal] = field(default_factory=dict)  # by currency


@dataclass
class TableRow:
    """One input in scope: its table as the header declared it."""

    name: str  # the input's file name as the run gave it
    copy: str  # its copy in the case folder
    summary: InputSummary

    @property
    def rules(self) -> list[HouseRule]:
        return house_rules_of(self.summary)

    @property
    def unknown(self) -> list[tuple[str, str]]:
        """The rules the header leaves unknown, judged under each value: (key, why)."""
        return list((self.summary.unknown_rules or {}).items())

    @property
    def gaming_days(self) -> tuple[str | None, str | None]:
        return gaming_days_of(self.summary)

    @property
    def declared(self) -> list[HouseRule]:
        return [rule for rule in self.rules if rule.declared]

    @property
    def assumed(self) -> list[HouseRule]:
        return [rule for rule in self.rules if rule.declared is False]

    @property
    def recorded(self) -> bool:
        """The run recorded which options the header declared (older runs did not)."""
        return self.summary.declared_rules is not None


@dataclass
class Exhibit:
    number: int
    finding: Finding
    currency: str
    basis: Basis  # the regulation's words (where on file) and the auditor's reading
    rules: list[HouseRule] | None  # the house rules its verdict depends on; None: all
    input_copy: str
    record_lines: list[tuple[int, str, bool]]  # (line, text, the finding stands on it)
    replay: list[tuple[int, str, bool]] | None  # the round's lines up to the fault
    table_at_fault: dict[str, Any] | None  # the replayed table after the fault's line
    replay_missing: str | None = None  # why the round is not replayed here

    @property
    def title(self) -> str:
        return self.basis.title

    @property
    def time_date(self) -> str | None:
        """The date of the finding's time: its round's date, or the next where the clock
        passed midnight since the round began (auditor/clock.py `date_after`, the rule
        every output dates a time by: back more than an hour; the fall-back hour set back
        inside a round is the same date)."""
        return time_date(self.finding)

    @property
    def table(self) -> str:
        return self.finding.table or "?"


@dataclass
class CaseModel:
    scope: Scope
    licence: str | None
    casino: str | None
    tables: list[TableRow]
    first_date: str | None
    last_date: str | None
    run: dict[str, Any]  # version, rule base, when the run was made
    run_label: str
    rule_base_sha256: str
    made: str  # UTC, when the case was made
    totals: list[MoneyTotal]
    citations: list[CitationRow]
    exhibits: list[Exhibit]
    findings_in_scope: int
    exhibit_limit: int
    by_table: list[tuple[str, int]]  # findings per table, to narrow an over-long case
    by_date: list[tuple[str, int]]
    # Of the findings in scope: those under the regulation and those about the record's
    # format (`record:…`); those resting on the auditor's reading alone, by citation.
    violations: int = 0
    record_findings: int = 0
    reading_alone: list[tuple[Basis, int]] = field(default_factory=list)
    waived: int = 0  # findings in scope accepted under a waiver (still counted everywhere)
    # What the run judged (its selection) and the approvals the headers were held to, in
    # words for page 1 (None: no approval file)
    judged: str = ""
    approved: str | None = None
    # Who made the case (--preparer, --agency; None: not named), and the signer's key: the
    # SHA-256 of the raw Ed25519 public key (None: not signed).
    preparer: str | None = None
    agency: str | None = None
    signer: str | None = None
    fingerprint: str = ""
    build: str = ""  # the build that made the case and audited its inputs again

    @property
    def reading_alone_count(self) -> int:
        return sum(count for _, count in self.reading_alone)

    def attestation_document(self) -> dict[str, Any]:
        """Who made the case, for its findings.json (`case`)."""
        return {"preparer": self.preparer, "agency": self.agency, "signer": self.signer}

    @property
    def left_out(self) -> int:
        return self.findings_in_scope - len(self.exhibits)

    @property
    def time_zone(self) -> str | None:
        """The tables' clocks' zone, as the run's settings named it (auditor/clock.py)."""
        calendar = self.run.get("calendar")
        zone = calendar.get("time_zone") if isinstance(calendar, dict) else None
        return zone if isinstance(zone, str) else None

    @property
    def currencies(self) -> list[str]:
        return [total.currency for total in self.totals]


def case_fingerprint(scope: Scope, rule_base: str, version: str,
                     inputs: list[InputSummary], ids: list[str | None]) -> str:
    """16 hex digits of the SHA-256 of what the case is: auditor, rule base, scope, its
    inputs' SHA-256 and its findings' IDs. Printed on every page; verify recomputes it."""
    canonical = json.dumps({"auditor": version, "rule_base": rule_base,
                            "scope": scope.as_document(),
                            "inputs": sorted(s.sha256 or "" for s in inputs),
                            "findings": [i or "" for i in ids]}, sort_keys=True)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16].upper()


def build_case(scope: Scope, run: dict[str, Any], run_label: str, rule_base_sha256: str,
               made: str, inputs: list[InputSummary], copies: dict[str, str],
               findings: list[Finding], evidence: dict[str, RoundEvidence],
               sources: dict[str, list[str]], limit: int = EXHIBITS_AT_MOST, *,
               preparer: str | None = None, agency: str | None = None,
               signer: str | None = None,
               conditions: dict[str, Any] | None = None) -> CaseModel:
    """The case of `findings` (in scope, in the run's order) of `inputs` (in scope), with
    `evidence` (replays by round key) and `sources` (each input's lines) of a fresh audit;
    `copies` names each input's copy in the case folder; `preparer`, `agency` and `signer`
    (the signing key's fingerprint) for its attestation."""
    by_path = {summary.path: summary for summary in inputs}
    entries = rule_entries()
    bases: dict[str, Basis] = {}
    totals: dict[str, MoneyTotal] = {}
    citations: dict[str, CitationRow] = {}
    per_table: Counter = Counter()
    per_date: Counter = Counter()
    for finding in findings:
        summary = by_path.get(finding.file)
        currency = currency_of(finding, summary)
        totals.setdefault(currency, MoneyTotal(currency)).add(finding)
        entry = entries.get(finding.citation)
        row = citations.setdefault(finding.citation, CitationRow(
            finding.citation, entry.title if entry else finding.rule))
        row.findings += 1
        row.severities[finding.severity] += 1
        row.money.setdefault(currency, MoneyTotal(currency)).add(finding)
        per_table[summary.table if summary else finding.table or "?"] += 1
        per_date[scope.gaming_day(finding) or "no date"] += 1
        if finding.citation not in bases:
            bases[finding.citation] = basis_of(finding.citation, entry)
    exhibits = []
    if len(findings) <= limit:
        rounds = _rounds_by_id(evidence)
        for number, finding in enumerate(findings, start=1):
            exhibits.append(_exhibit(number, finding, by_path.get(finding.file), copies,
                                     bases[finding.citation], rounds,
                                     sources.get(finding.file, [])))
    record_findings = sum(row.findings for row in citations.values()
                          if bases[row.citation].record)
    licences = {s.licence for s in inputs if s.licence}
    casinos = {s.casino for s in inputs if s.casino}
    # The case's gaming dates: its inputs' gaming days, within the dates asked for (a night
    # run past midnight is of the gaming day it began on, not of the calendar date).
    dates = [d for s in inputs for d in gaming_days_of(s) if d]
    dates = [max(d, scope.date_from) if scope.date_from else d for d in dates]
    dates = [min(d, scope.date_until) if scope.date_until else d for d in dates]
    model = CaseModel(
        scope=scope, licence=", ".join(sorted(licences)) or None,
        casino=", ".join(sorted(casinos)) or None,
        tables=[TableRow(s.path, copies[s.path], s) for s in inputs],
        first_date=min(dates) if dates else None, last_date=max(dates) if dates else None,
        run=run, run_label=run_label, rule_base_sha256=rule_base_sha256, made=made,
        totals=sorted(totals.values(), key=lambda t: (t.currency == UNDECLARED, t.currency)),
        citations=[citations[c] for c in sorted(citations, key=citation_sort_key)],
        exhibits=exhibits, findings_in_scope=len(findings), exhibit_limit=limit,
        by_table=sorted(per_table.items()), by_date=sorted(per_date.items()),
        violations=len(findings) - record_findings, record_findings=record_findings,
        waived=sum(1 for finding in findings if finding.waiver is not None),
        reading_alone=[(bases[c], citations[c].findings)
                       for c in sorted(citations, key=citation_sort_key)
                       if bases[c].reading_alone],
        preparer=preparer, agency=agency, signer=signer,
        judged=judged_words(conditions or {}), approved=approved_words(conditions or {}))
    from auditor.build import build_fingerprint

    model.build = build_fingerprint()
    model.fingerprint = case_fingerprint(scope, rule_base_sha256, str(run.get("version")),
                                         inputs, [f.id for f in findings])
    return model


def judged_words(conditions: dict[str, Any]) -> str:
    """What the run judged, as page 1 says it: every subsection, or its selection with the
    subsections it left out named (a finding of those cannot be in the case, whatever the
    records show)."""
    from auditor.checks.base import registry

    checks = [c for c in registry() if not c.startswith("record:")]
    citations = conditions.get("citations")
    if citations is None:
        return f"all {len(checks)} subsections the auditor checks, and the record's format"
    chosen = set(citations)
    judged = [c for c in checks if c in chosen]
    left_out = sorted((c for c in checks if c not in chosen), key=citation_sort_key)
    how = "; ".join(part for part in (
        "selected " + ", ".join(conditions.get("select") or []) if conditions.get("select")
        else "", "ignored " + ", ".join(conditions.get("ignore") or [])
        if conditions.get("ignore") else "") if part)
    return (f"in part, by the run's selection ({how}): {len(judged)} of the {len(checks)} "
            "subsections the auditor checks, and the record's format; not judged, so absent "
            f"from this case whatever the records show: {', '.join(left_out) or 'none'}")


def approved_words(conditions: dict[str, Any]) -> str | None:
    """The commission's approvals the headers were held to (`--approved`), of the case's
    licensee only (the conditions are narrowed to it); None without an approval file."""
    approvals = conditions.get("approvals")
    if not isinstance(approvals, dict):
        return None
    entries = [f"{e.get('reference')} of {e.get('date')} ({e.get('licence')}"
               + (f"/{e['table']})" if e.get("table") else ", every table)")
               for e in approvals.get("entries") or [] if isinstance(e, dict)]
    return (f"the headers were held to the commission's approvals in {approvals.get('path')} "
            f"(SHA-256 {approvals.get('sha256')}): "
            + ("; ".join(entries) if entries else "none of this licensee's (each table is "
               "one record:approval finding)"))


def _rounds_by_id(evidence: dict[str, RoundEvidence]) -> dict[tuple[str, str], list]:
    rounds: dict[tuple[str, str], list[RoundEvidence]] = defaultdict(list)
    for replay in evidence.values():
        rounds[replay.file, replay.round_id].append(replay)
    return rounds


def _round_of(finding: Finding, rounds: dict[tuple[str, str], list]) -> RoundEvidence | None:
    for replay in rounds.get((finding.file, finding.round or ""), ()):
        last = replay.last_line or replay.start_line
        if finding.line is not None and replay.start_line <= finding.line <= last:
            return replay
    return None


def _exhibit(number: int, finding: Finding, summary: InputSummary | None,
             copies: dict[str, str], basis: Basis, rounds: dict,
             source: list[str]) -> Exhibit:
    faults = {line for line in (finding.line, *finding.evidence) if line is not None}
    record_lines = [(line, source[line - 1] if 0 < line <= len(source) else "",
                     line == finding.line) for line in sorted(faults)]
    replay = _round_of(finding, rounds)
    exhibit = Exhibit(number, finding, currency_of(finding, summary), basis,
                      rules_applied(finding.citation, summary),
                      copies.get(finding.file, finding.file), record_lines, None, None)
    if replay is None:
        exhibit.replay_missing = (
            "This finding is about the record, not a round's play: no replay." if
            finding.round is None or finding.line is None else
            "The audit keeps the replays of the first rounds of each citation in each "
            "record; this round is not among them. Its lines are in the copied input.")
        return exhibit
    replay = replay.whole()
    until = finding.line if finding.line is not None else replay.last_line or 0
    exhibit.replay = [(line, text, line in faults) for line, text in replay.lines
                      if line <= until]
    steps = [line for line in replay.steps if line <= until]
    if steps:
        exhibit.table_at_fault = {"line": max(steps), **_table_words(replay.steps[max(steps)])}
    return exhibit


def _table_words(step: dict[str, Any]) -> dict[str, Any]:
    """The replayed table after a statement, as lines of words."""
    dealer = step.get("dealer") or {}
    cards = " ".join(dealer.get("cards") or []) or "no card"
    total = dealer.get("total")
    hands = []
    for hand in step.get("hands") or []:
        state = f"{hand.get('total')}{' soft' if hand.get('soft') else ''}"
        status = hand.get("status") or ""
        if hand.get("doubled"):  # "doubled" as a status says it once, with the amount
            status = ", ".join(part for part in (
                "" if status == "doubled" else status, f"doubled {hand['doubled']}") if part)
        if status:
            state += f", {status}"
        hands.append(f"{hand.get('hand')}: {' '.join(hand.get('cards') or [])} ({state})")
    wagers = []
    for wager in step.get("wagers") or []:
        text = f"{wager.get('target')} {wager.get('kind')} {wager.get('amount')}"
        if wager.get("tip"):
            text += " (tip)"
        text += f" — settled {wager['settled']}" if wager.get("settled") else " — open"
        wagers.append(text)
    return {"dealer": f"{cards}" + (f" ({total})" if total is not None else "")
                      + ("" if dealer.get("revealed") else ", hole card not revealed"),
            "hands": hands, "wagers": wagers}
