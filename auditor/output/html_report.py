"""report.html: the inspector's report, one self-contained file (templates/report.html.j2).

Python builds a plain model of the report (who was audited, scope, summaries and chart
geometry, findings grouped by citation, one replay per round, coverage, provenance); the
templates only lay it out. Everything from a record (notes, IDs, player names, file names)
reaches the page through Jinja's autoescaping and is never marked safe; the only `Markup`
here is the report's own stylesheet and script, read from the package, and the page's data
(`script_json`: JSON whose <, > and & are escaped, so it cannot leave its element).

The page's data holds every finding in a compact record (what the filters and the
recomputed summaries need, and what drawing it needs). Up to LAZY_OVER findings each one
is markup too and the report reads without JavaScript; past it the findings and replays
are only data, and the page's script draws those shown.
"""

from __future__ import annotations

import base64
import gc
import hashlib
import json
import re
import secrets
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from decimal import Decimal
from functools import cache, lru_cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from auditor.audit import REPLAYS_PER_CITATION
from auditor.checks.base import GAMES, citation_sort_key, registry
from auditor.findings import SEVERITIES, Finding
from auditor.money import UNDECLARED, MoneyTotals, currency_label, grouped_text, with_currency
from auditor.output.report_totals import FindingsTotals, key_of
from auditor.output.tables import shift_of, summary_by
from auditor.replay.trace import RoundEvidence
from auditor.resources import templates_dir
from auditor.results import AuditResult
from auditor.rulebase import effective_dates, load_rule_base, rule_entries
from auditor.rules_cli import coverage_rows
from auditor.shown import neutral

PAGE_SIZE = 25  # findings shown at once in a citation's group (JS pagination)
OPEN_FINDINGS_UP_TO = 60  # smaller audits open their groups and replays (readable without JS)
# Past this many findings the page holds the findings and replays as compact data (a JSON
# element) and its script draws only what is shown: 10,000 findings as markup were 300k
# elements and 17 s to open. Up to it every finding is markup too, read without JavaScript.
LAZY_OVER = 500
# The report replays at most this many rounds of one citation across the run, and this many
# in all (audit.py already keeps REPLAYS_PER_CITATION per file): every other round is named
# with the command that replays it.
REPLAYS_PER_CITATION_IN_RUN = 25
REPLAYS_IN_REPORT = 400
SUMMARY_TOP = 15  # rows of a long summary table shown (and printed) before "show all"
# Past this many rounds replayed, each replay is one block of aligned text rather than a table:
# a browser then opens a report of thousands of findings in seconds, not minutes.
LEAN_REPLAYS_OVER = 300
SHIFT_ORDER = ("day", "swing", "grave", "(none)")
_TIME = re.compile(r"^\s*(\d\d:\d\d:\d\d(?:\.\d+)?)\s+(.*)$")
_SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def shown_text(value: Any) -> Any:
    """What a template prints: text with its bidi controls shown as markers (the marker
    holds no HTML, so escaped text stays escaped)."""
    if isinstance(value, Markup):
        return Markup(neutral(str(value)))
    return neutral(value) if isinstance(value, str) else value


@cache
def environment() -> Environment:
    """One per process, so each template is compiled once (compiling the seven of them costs
    more than rendering a small report). They are package files that do not change while the
    process runs: no reload checks."""
    environment = Environment(loader=FileSystemLoader(templates_dir()),
                              autoescape=select_autoescape(default=True, default_for_string=True),
                              trim_blocks=True, lstrip_blocks=True, auto_reload=False)
    environment.finalize = shown_text  # every `{{ }}`: bidi controls made visible
    environment.filters["money"] = money
    environment.filters["paid"] = paid
    environment.filters["amounts"] = amounts
    environment.filters["in_currency"] = in_currency
    environment.filters["signed_in"] = signed_in
    environment.filters["signed"] = signed
    environment.filters["count"] = count
    environment.globals["waiver_note"] = waiver_note
    return environment


def load_templates() -> None:
    """Compile every template of the report now rather than at the first render (about
    85 ms): a parent process can do it while its workers audit."""
    templates = environment()
    for name in templates.list_templates(extensions=["j2"]):
        templates.get_template(name)


def to_html(result: AuditResult, run: dict[str, Any], *,
            lean_replays_over: int = LEAN_REPLAYS_OVER) -> str:
    return "".join(html_parts(result, run, lean_replays_over=lean_replays_over))


def html_parts(result: AuditResult, run: dict[str, Any], *,
               lean_replays_over: int = LEAN_REPLAYS_OVER) -> Iterator[str]:
    """report.html in the parts the template renders one after another: written as they
    come, the page is never one text in memory (a month's report is tens of megabytes)."""
    with collector_paused():
        context = report_context(result, run, lean_replays_over=lean_replays_over)
        data = context["report_data"]
        # The page's data goes where the template puts it, in its parts: a mark no record
        # can hold (new each time) stands in for it while the template renders.
        mark = f"report-data-{secrets.token_hex(16)}"
        context["report_data"] = Markup(mark)
        for chunk in environment().get_template("report.html.j2").generate(**context):
            if mark in chunk:
                before, after = chunk.split(mark, 1)
                yield before
                yield from data.parts()
                yield after
            else:
                yield chunk


def render(context: dict[str, Any]) -> str:
    return environment().get_template("report.html.j2").render(**context)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while the report is built. The report's model
    is hundreds of thousands of small objects that all live until the page is rendered, so
    each full collection they trigger walks them and the audit's whole evidence again and
    frees nothing: for a report of 700 findings that was half its time. The model is freed by
    reference counting before the collector resumes, which so never walks it at all; the
    few cycles the rendering leaves are collected once it runs again."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def report_context(result: AuditResult, run: dict[str, Any], *,
                   lean_replays_over: int = LEAN_REPLAYS_OVER) -> dict[str, Any]:
    """Everything the templates show, computed once. The findings are walked, never held
    (they may be read from the run store as they are walked): once for every total
    (`FindingsTotals`), then by `report_data` for the page's records."""
    findings = result.findings
    keys = table_keys(result)
    totals = FindingsTotals.of(findings, result, keys)
    lazy = totals.count > LAZY_OVER
    replays, replay_of, replayed = build_replays(result, totals,
                                                 0 if lazy else lean_replays_over)
    groups = build_groups(totals, None if lazy else findings, replay_of, replayed, keys)
    summaries = build_summaries(totals.frame())
    scope = build_scope(result, totals)
    small = totals.count <= OPEN_FINDINGS_UP_TO
    print_mark = fingerprint(result, run)
    # Each printed page names the report it belongs to (the fingerprint is hex digits).
    page_style = Markup('@page { @bottom-left { content: "Blackjack compliance audit · report '
                        f'{print_mark}"; font: 8pt sans-serif; color: #555; }} }}')
    return {
        "run": run,
        "scope": scope,
        "fingerprint": print_mark,
        "summaries": summaries,
        "charts": build_charts(summaries),
        "groups": groups,
        "replays": replays,
        "replays_per_citation": REPLAYS_PER_CITATION,
        "coverage": build_coverage(result, totals.found(), run.get("judging")),
        "provenance": build_provenance(result, run, totals.syntax_rounds),
        "facets": totals.facets(),
        "waivers": result.waivers,
        "waived": totals.waived,
        "resolved": result.resolved,
        "baseline": result.resolved is not None,
        "open_groups": small,
        "open_replays": len(replays) <= OPEN_FINDINGS_UP_TO // 2,
        "lean_replays": len(replays) > lean_replays_over,
        "page_size": PAGE_SIZE,
        "lazy": lazy,
        "replays_recorded": replayed["recorded"],
        "replays_per_citation_in_run": REPLAYS_PER_CITATION_IN_RUN,
        "replays_in_report": REPLAYS_IN_REPORT,
        "summary_top": SUMMARY_TOP,
        "identity": build_identity(result),
        "report_data": report_data(findings, groups, replays, replay_of, replayed, keys, lazy,
                                   result),
        "stylesheet": _asset("report.css"),
        "script": _asset("report.js"),
        "page_style": page_style,
        "style_hashes": [csp_hash(_asset("report.css")), csp_hash(page_style)],
        "script_hash": csp_hash(_asset("report.js")),
    }


@cache
def _asset(name: str) -> Markup:
    """The report's own CSS or JS (package files, never record text)."""
    return Markup((templates_dir() / name).read_text(encoding="utf-8"))


def csp_hash(text: str) -> str:
    """The Content-Security-Policy source that allows exactly this inline script or style."""
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()


# ---- formatting -------------------------------------------------------------------------

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


def fingerprint(result: AuditResult, run: dict[str, Any]) -> str:
    """A short digest of what was audited and by what: the same inputs give the same one."""
    digest = hashlib.sha256()
    for part in (run.get("version"), run.get("rule_base")):
        digest.update(str(part).encode() + b"\0")
    if run.get("judging"):  # a report judged in part is not the full audit's
        digest.update(json.dumps(run["judging"], sort_keys=True).encode())
    for summary in result.inputs:
        digest.update(f"{summary.path}\0{summary.sha256}\0".encode())
    return digest.hexdigest()[:16]


# ---- scope and summaries ----------------------------------------------------------------

def build_scope(result: AuditResult, totals: FindingsTotals) -> dict[str, Any]:
    inputs = result.inputs
    dates = sorted({d for i in inputs for d in (i.first_date, i.last_date) if d})
    dealer_inputs: dict[str, list[int]] = defaultdict(list)  # dealer -> inputs (positions)
    for position, summary in enumerate(inputs):
        for dealer in summary.dealers:
            dealer_inputs[dealer].append(position)
    dealers = sorted(dealer_inputs)
    rounds = sum(i.rounds for i in inputs)
    audited = sum(i.rounds_audited for i in inputs)
    return {
        "files": len(inputs),
        "readable_files": sum(1 for i in inputs if not i.error),
        "unreadable_files": [i for i in inputs if i.error],
        "tables": sorted({i.table_key for i in inputs if i.table_key}),
        "games": sorted({i.game for i in inputs if i.game}),
        "first_date": dates[0] if dates else None,
        "last_date": dates[-1] if dates else None,
        "rounds": rounds,
        "audited": audited,
        "not_audited": rounds - audited,
        "dealers": dealers,
        "dealer_inputs": {d: " ".join(map(str, p)) for d, p in dealer_inputs.items()},
        "findings": totals.count,
        "severities": {s: totals.severities.get(s, 0) for s in SEVERITIES},
        "rounds_with_findings": len(totals.rounds),
        "money": totals.money,  # under- and over-paid per currency
    }


def build_summaries(frame) -> dict[str, list[dict[str, Any]]]:
    """Findings counted by citation, table, dealer, shift and date, with the money involved:
    a row per key, its money one amount per currency (`money`), never added."""
    entries = rule_entries()
    summaries: dict[str, list[dict[str, Any]]] = {}
    for column in ("citation", "table", "dealer", "shift", "date"):
        rows: dict[Any, dict[str, Any]] = {}
        for part in summary_by(frame, column).to_dict("records"):  # by key and currency
            row = rows.get(part[column])
            if row is None:
                row = rows[part[column]] = {column: part[column], "findings": 0, "high": 0,
                                            "medium": 0, "low": 0, "money": MoneyTotals()}
            for name in ("findings", "high", "medium", "low"):
                row[name] += int(part[name])
            row["money"].add_totals(part["currency"], Decimal(part["under_paid"]),
                                    Decimal(part["over_paid"]))
        ordered = list(rows.values())
        if column == "shift":
            ordered.sort(key=lambda r: SHIFT_ORDER.index(r["shift"])
                         if r["shift"] in SHIFT_ORDER else len(SHIFT_ORDER))
        for row in ordered:
            row["label"] = str(row[column])
            if column == "date" and row["label"] in ("(none)", "None"):
                row["label"] = "undated"  # a shoe without date=: kept, and said so
            if column == "citation":
                entry = entries.get(row["citation"])
                row["title"] = entry.title if entry else ""
        summaries[column] = ordered
    return summaries


# ---- charts (inline SVG, drawn by the template from this geometry) ----------------------

@dataclass
class Bar:
    label: str
    title: str  # the tooltip: the exact numbers
    y: float
    segments: list[dict[str, Any]] = field(default_factory=list)


CHART_WIDTH, LABEL_WIDTH, VALUE_WIDTH, BAR_HEIGHT, ROW_HEIGHT = 760, 170, 70, 16, 24


def severity_segments(rows: list[dict[str, Any]]) -> None:
    """Each row's bar: its findings stacked by severity, in percent of the largest row."""
    largest = max((r["findings"] for r in rows), default=0) or 1
    for row in rows:
        x, segments = 0.0, []
        for severity in SEVERITIES:
            width = 100 * row[severity] / largest
            if width:
                segments.append({"severity": severity, "x": round(x, 2), "width": round(width, 2)})
            x += width
        row["bar"] = segments


def money_bars(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per citation and currency, a diverging bar: what players were under-paid to the left
    of the axis, what they were over-paid (the house's loss) to the right. Each currency is
    drawn to its own scale: amounts of two currencies are never compared or added."""
    parts = [(row, currency) for row in rows for currency in row["money"].currencies()]
    largest: dict[str | None, Decimal] = {}
    for row, currency in parts:
        money_of = row["money"]
        largest[currency] = max(largest.get(currency, Decimal(0)), money_of.under(currency),
                                money_of.over(currency))
    label, top = 190, 22
    half = (CHART_WIDTH - label - 10) / 2 - VALUE_WIDTH
    axis = label + VALUE_WIDTH + half
    bars = []
    for index, (row, currency) in enumerate(parts):
        y = top + index * ROW_HEIGHT
        under, over = row["money"].under(currency), row["money"].over(currency)
        name = f"{row['label']} · {currency_label(currency)}"
        bar = Bar(label=name, y=y, title=(
            f"{row['label']}: players under-paid {in_currency(under, currency)}, "
            f"over-paid {in_currency(over, currency)}"))
        for kind, amount in (("under", under), ("over", over)):
            if not amount:
                continue
            width = max(half * float(amount / largest[currency]), 1.0)
            left = kind == "under"
            bar.segments.append({
                "kind": kind, "x": round(axis - width if left else axis, 2), "y": y,
                "width": round(width, 2), "text": money(amount),
                "text_x": round(axis - width - 5 if left else axis + width + 5, 2),
                "anchor": "end" if left else "start"})
        bars.append(bar)
    return {"bars": bars, "height": top + len(bars) * ROW_HEIGHT + 6, "width": CHART_WIDTH,
            "label_width": label, "axis": round(axis, 2), "scales": len(largest) > 1}


def date_columns(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Findings per date as columns, by month when there are too many dates to read."""
    dated = [r for r in rows if r["label"] not in ("(none)", "None", "undated")]
    if len(dated) > 62:
        months: dict[str, dict[str, Any]] = {}
        for row in dated:
            month = months.setdefault(row["label"][:7], {"label": row["label"][:7], "findings": 0,
                                                         "high": 0, "medium": 0, "low": 0})
            for key in ("findings", "high", "medium", "low"):
                month[key] += row[key]
        dated = list(months.values())
    height, top, bottom = 160, 16, 34
    step = min(56.0, (CHART_WIDTH - 40) / max(len(dated), 1))
    width = max(240, 40 + step * len(dated) + 10)
    largest = max((r["findings"] for r in dated), default=0) or 1
    columns = []
    for index, row in enumerate(dated):
        y = float(height - bottom)
        segments = []
        for severity in SEVERITIES:
            size = (height - top - bottom) * row[severity] / largest
            if size:
                y -= size
                segments.append({"severity": severity, "y": round(y, 2), "height": round(size, 2)})
        x = 30 + index * step
        columns.append({"x": round(x + step * 0.15, 2), "width": round(step * 0.7, 2),
                        "segments": segments, "label": row["label"],
                        "short": row["label"][5:] if len(row["label"]) == 10 else row["label"],
                        "label_x": round(x + step / 2, 2), "value": row["findings"],
                        "value_y": round(y - 4, 2),
                        "title": f"{row['label']}: {count(row['findings'], 'finding')}"})
    return {"columns": columns, "width": round(width), "height": height,
            "axis_y": height - bottom, "every": max(1, round(len(dated) / 16))}


def build_charts(summaries: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    for rows in summaries.values():
        severity_segments(rows)
    return {"money": money_bars(summaries["citation"]), "dates": date_columns(summaries["date"])}


# ---- findings grouped by citation -------------------------------------------------------

def check_reading(citation: str) -> str:
    """The `Reading:` section of the check's docstring: how the auditor reads the rule."""
    check = registry().get(citation)
    if check is None:
        return ""
    text = check.documentation()
    match = re.search(r"^\s*Reading:\s*(.*?)(?=^\s*(?:Regulation|Violating|Compliant):|\Z)",
                      text, re.S | re.M)
    return " ".join(match.group(1).split()) if match else ""


def build_groups(totals: FindingsTotals, findings: Iterable[Finding] | None,
                 replay_of: dict[int, dict[str, Any]], replayed: dict[str, Any],
                 keys: dict[str, str]) -> list[dict[str, Any]]:
    """The findings by citation, in the order of the regulation: each group's counts and
    money, and, given `findings` (a report small enough to be markup), its items."""
    entries = rule_entries()
    groups = []
    for index, citation in enumerate(sorted(totals.citations, key=citation_sort_key)):
        counted = totals.citations[citation]
        entry = entries.get(citation)
        check = registry().get(citation)
        groups.append({
            "index": index, "anchor": f"c-{index}", "citation": citation,
            "title": entry.title if entry else "",
            "words": entry.text.strip() if entry else "",
            "rule": check.name if check else counted.rule,
            "reading": check_reading(citation),
            "severity": counted.severity,
            "severities": counted.severities,
            "money": counted.money,
            "count": counted.count,
            "findings": [],
        })
    if findings is not None:
        place = {group["citation"]: group for group in groups}
        for number, finding in enumerate(findings, start=1):
            place[finding.citation]["findings"].append(finding_item(
                finding, number, replay_of.get(number),
                no_replay_text(finding, number, replay_of, replayed), key_of(finding, keys)))
    return groups


def no_replay_text(finding: Finding, number: int, replay_of: dict[int, dict[str, Any]],
                   replayed: dict[str, Any]) -> str:
    """Why a finding has no replay in the report, and how to get one: never silently."""
    if number in replay_of:
        return ""
    if number in replayed["cut"]:
        return (f"This round's replay is left out of the report, which replays at most "
                f"{REPLAYS_PER_CITATION_IN_RUN} rounds of each citation and "
                f"{REPLAYS_IN_REPORT} in all ({replayed['recorded']:,} were recorded). "
                f"To replay it, audit its file alone: auditor audit {finding.file}")
    if finding.round and (finding.file, finding.citation) in replayed["full"]:
        return (f"This round is not replayed: the audit replays the first "
                f"{REPLAYS_PER_CITATION} rounds of each citation in a file. The file's "
                f"record holds it at line {finding.line}.")
    if finding.round:
        return "No replay of this round was recorded."
    return "This finding concerns the file, not one round."


@dataclass(slots=True, frozen=True)
class FindingItem:
    """One finding as the report shows it, with the record's line it stands on. Slotted,
    and read as `item.name` or `item["name"]`: a month's report holds tens of thousands."""

    finding: Finding
    number: int
    replay: dict[str, Any] | None
    line_text: Any
    no_replay: str
    table_key: str

    def __getitem__(self, name: str) -> Any:
        return getattr(self, name)

    @property
    def ref(self) -> str:
        return f"F-{self.number:04d}"

    @property
    def id(self) -> str:
        return f"f-{self.number}"

    @property
    def finding_id(self) -> str | None:
        return self.finding.id

    @property
    def expected_words(self) -> str:
        return net_words(self.finding.expected)

    @property
    def actual_words(self) -> str:
        return net_words(self.finding.actual)


def finding_item(finding: Finding, number: int, replay: dict[str, Any] | None,
                 no_replay: str = "", table_key: str = "") -> FindingItem:
    line = None
    if replay is not None and finding.line is not None:
        line = replay["text_of"].get(finding.line)
    return FindingItem(finding, number, replay, line, no_replay, table_key)


def table_keys(result: AuditResult) -> dict[str, str]:
    """Each file's table identity (licence or casino, and table ID), by path."""
    return {i.path: i.table_key for i in result.inputs if i.table_key}


def build_identity(result: AuditResult) -> dict[str, Any]:
    """Who was audited and under which house rules: the licensees, and each table (by its
    identity) with its game, shoe, seats, limits, currency and the rules in force."""
    licensees: dict[tuple, dict[str, Any]] = {}
    tables: dict[tuple, dict[str, Any]] = {}
    for position, summary in enumerate(result.inputs):
        if summary.error or summary.table is None:
            continue
        owner = (summary.casino, summary.licence)
        licensee = licensees.setdefault(owner, {"casino": summary.casino,
                                                "licence": summary.licence, "tables": set(),
                                                "inputs": []})
        licensee["tables"].add(summary.table_key)
        licensee["inputs"].append(position)
        rules = ", ".join(f"{key} {value}" for key, value in summary.house_rules.items())
        identity = (summary.table_key, summary.game, summary.decks, summary.seats,
                    summary.minimum, summary.maximum, summary.currency, rules)
        row = tables.setdefault(identity, {
            "key": summary.table_key, "table": summary.table, "casino": summary.casino,
            "licence": summary.licence, "game": summary.game, "decks": summary.decks,
            "seats": summary.seats, "minimum": summary.minimum, "maximum": summary.maximum,
            "currency": summary.currency, "rules": rules, "files": 0, "rounds": 0,
            "inputs": []})
        row["inputs"].append(position)
        row["files"] += 1
        row["rounds"] += summary.rounds
    rows = sorted(tables.values(), key=lambda r: (r["key"], r["game"] or ""))
    keyed = Counter(r["key"] for r in rows)
    for row in rows:  # one table declared two ways in its files: say so on each row
        row["varies"] = keyed[row["key"]] > 1
    named = sorted(licensees.values(), key=lambda e: (e["casino"] or "", e["licence"] or ""))
    for entry in [*named, *rows]:  # which inputs each stands for: a filtered view's scope
        entry["inputs"] = " ".join(map(str, entry["inputs"]))
    for licensee in named:
        licensee["tables"] = len(licensee["tables"])
    currencies = sorted({r["currency"] for r in rows if r["currency"]})
    return {"licensees": named, "tables": rows, "currencies": currencies,
            "undeclared_currency": any(r["currency"] is None for r in rows)}


def waiver_note(waiver: Any) -> str:
    """The sentence that says why a finding is waived, by whom, and until when."""
    name = f" ({waiver.name})" if waiver.name else ""
    return (f"Waived by waiver {waiver.index}{name}: {waiver.justification} — approved by "
            f"{waiver.approved_by}; holds until the end of {waiver.expires} (UTC).")


def script_json(document: Any) -> Markup:
    """JSON for a <script type="application/json"> element: <, > and & are written as
    \\u003c, \\u003e and \\u0026, so no text of a record can close the element or open
    another; JSON.parse reads them back as the characters they were."""
    return Markup(_script_text(document))


def _script_text(document: Any) -> str:
    # ASCII (other characters as \\u escapes, U+2028 and U+2029 included, which a script
    # must not hold raw): a text holding one card suit takes two bytes a character in
    # Python, and a month's findings are megabytes of it.
    text = json.dumps(document, separators=(",", ":"))
    if "\\u20" in text or "\\u061" in text:  # bidi controls drawn by the script: markers
        text = _SCRIPT_BIDI.sub(_script_marker, text)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


# A bidi control as JSON writes it (ASCII): `\u202e` not itself preceded by a backslash
# (an even run of backslashes before it is escaped backslashes, not its own escape).
_SCRIPT_BIDI = re.compile(r"(?<!\\)((?:\\\\)*)\\u(061c|200e|200f|202[a-e]|206[6-9])")


def _script_marker(match: re.Match) -> str:
    return f"{match.group(1)}\\u27e6U+{match.group(2).upper()}\\u27e7"


def _put(record: dict[str, Any], key: str, value: Any) -> None:
    if value is not None and value != "" and value != ():
        record[key] = value


def finding_record(item: dict[str, Any], group: int, key: str, file: int,
                   replay: int | None, texts: dict[str, int]) -> dict[str, Any]:
    """One finding as the page's script reads it: what the filters and the summary count
    (group, severity, table key, dealer, game, date, gaming day, shift, money) and what it
    shows.
    An object of short keys, absent when empty, so more fields (a waiver, a baseline) are
    added without changing the others."""
    f: Finding = item["finding"]
    record: dict[str, Any] = {"n": item["number"], "g": group, "s": f.severity}
    for name, value in (("k", key), ("d", f.dealer), ("m", f.game), ("a", f.date),
                        ("h", f.shift or shift_of(f.time)), ("r", f.round), ("t", f.table),
                        ("p", f.player), ("gd", f.gaming_day),
                        ("o", f.hand or f.seat), ("tm", f.time), ("l", f.line),
                        ("c", f.column), ("msg", f.message), ("id", item["finding_id"]),
                        ("ev", list(f.evidence)), ("rp", replay), ("b", f.baseline),
                        ("w", waiver_note(f.waiver) if f.waiver else None)):
        _put(record, name, value)
    record["f"] = file
    for name, amount in (("e", f.expected), ("u", f.actual), ("x", f.difference)):
        if amount is not None:
            record[name] = str(amount)
    _put(record, "cu", f.currency)  # absent: the table declares no currency
    line = item["line_text"]
    if line is not None:
        record["lt"] = [line.time, line.text]
    if item["no_replay"]:
        record["nr"] = texts.setdefault(item["no_replay"], len(texts))
    return record


def replay_record(replay: dict[str, Any], file: int) -> dict[str, Any]:
    """A lean replay as data: the summary's facts, and each row as aligned text with the
    findings on it (fault rows with the whole table after them) and the evidence it shows."""
    rows = []
    for row in replay["rows"]:
        entry: list[Any] = [row.line, row.plain]
        if row.faults or row.supports:
            entry.append(list(row.supports))
        if row.faults:
            entry.append([[ref["ref"], ref["id"], ref["severity"], ref["citation"],
                           ref["message"]] for ref in row.faults])
            entry.append(list(row.state_lines))
        rows.append(entry)
    return {"n": replay["number"], "f": file, "rd": replay["round"],
            "a": replay["first_line"], "z": replay["last_line"], "k": replay["table"],
            "dt": replay["date"], "dl": replay["dealer"],
            "refs": [[ref["ref"], ref["id"], ref["severity"]] for ref in replay["findings"]],
            "rows": rows}


def report_data(findings: Iterable[Finding], groups: list[dict[str, Any]],
                replays: list[dict[str, Any]], replay_of: dict[int, dict[str, Any]],
                replayed: dict[str, Any], keys: dict[str, str], lazy: bool,
                result: AuditResult) -> ReportData:
    """The compact data behind the page's script: every finding (filters, recomputed
    summaries, and, in a large report, drawing the shown ones), the citations, the files,
    and in a large report the replays (drawn when opened). The findings are walked twice:
    to number the files and texts the records refer to (in the groups' order), then to
    make each record as it is written."""
    files = [i.path for i in result.inputs]
    file_index = {path: index for index, path in enumerate(files)}
    group_of = {group["citation"]: group["index"] for group in groups}
    replay_index = {replay["id"]: index for index, replay in enumerate(replays)}
    first_file: dict[str, tuple[int, int]] = {}  # where each is first met, in the groups
    first_text: dict[str, tuple[int, int]] = {}
    for number, finding in enumerate(findings, start=1):
        place = (group_of[finding.citation], number)
        file = finding.file
        if file not in file_index and (file not in first_file or place < first_file[file]):
            first_file[file] = place
        text = no_replay_text(finding, number, replay_of, replayed)
        if text and (text not in first_text or place < first_text[text]):
            first_text[text] = place
    for file in sorted(first_file, key=first_file.__getitem__):
        file_index[file] = len(files)
        files.append(file)
    texts = {text: index for index, text in
             enumerate(sorted(first_text, key=first_text.__getitem__))}
    head = _script_text({
        "pageSize": PAGE_SIZE, "lazy": lazy, "summaryTop": SUMMARY_TOP,
        "groups": [{"citation": g["citation"], "title": g["title"]} for g in groups],
        "files": files, "texts": list(texts),
        # Each input (by position, as in `files`): what a filtered view's scope is made of.
        "inputs": [[i.table_key or i.table or "", i.game or "", i.first_date or "",
                    i.last_date or "", i.rounds, i.rounds_audited, i.casino or "",
                    i.licence or "", 1 if i.error else 0, i.currency or ""]
                   for i in result.inputs]})
    tail = _script_text([replay_record(r, file_index.get(r["file"], 0)) for r in replays]
                        if lazy else [])

    def records() -> Iterator[str]:
        for number, finding in enumerate(findings, start=1):
            replay = replay_of.get(number)
            item = finding_item(finding, number, replay,
                                no_replay_text(finding, number, replay_of, replayed),
                                key_of(finding, keys))
            yield _script_text(finding_record(
                item, group_of[finding.citation], item.table_key, file_index[finding.file],
                replay_index[replay["id"]] if replay is not None else None, texts))

    return ReportData(head, records, tail)


@dataclass
class ReportData:
    """The page's data as the text `script_json` gives the whole document (same keys, same
    order), made in parts: each finding's record is made as it is written (`parts`), so a
    month's findings are never one text, nor that text again as markup, in memory."""

    head: str
    records: Callable[[], Iterator[str]]  # each finding's record, in the run's order
    tail: str

    def parts(self) -> Iterator[str]:
        yield self.head[:-1] + ',"findings":['
        for place, record in enumerate(self.records()):
            yield ("," if place else "") + record
        yield '],"replays":' + self.tail + "}"

    def __html__(self) -> str:  # rendered whole (a template given the data itself)
        return "".join(self.parts())


# ---- replays: one per round that holds a finding ----------------------------------------
# Plain slotted objects, not dicts: the template reads their attributes hundreds of thousands
# of times in a large audit, and Jinja reads an attribute much faster than a missing one.

@dataclass(slots=True, frozen=True)
class Card:
    text: str  # 10♥
    css: str  # "r" for a red suit, "d" for a hole card still face down


@dataclass(slots=True)
class Entity:
    name: str  # a hand, a seat, or "Dealer"
    dealer: bool
    cards: list[Card]
    total: int | None
    soft: bool
    status: str
    wagers: list[str]
    player: str = ""  # the player in the seat (a seat's entity; a hand's in the whole table)
    seat: bool = False  # the entity is a seat's player, not a hand or wagers


@dataclass(slots=True)
class ReplayRow:
    line: int
    time: str
    text: str
    changes: list[Entity]
    faults: list[dict[str, Any]]
    supports: list[str]
    state: list[Entity] | None  # the whole table, on a fault's line
    plain: str = ""  # the row as one line of aligned text (lean replays)
    state_lines: list[str] = field(default_factory=list)  # the whole table, as text lines

@cache
def card_parts(code: str) -> Card:
    """`Th` -> 10♥, red: the replay shows cards as a person writes them."""
    if len(code) != 2 or code[1] not in _SUITS:
        return Card(code, "")
    rank = "10" if code[0] == "T" else code[0]
    return Card(rank + _SUITS[code[1]], "r" if code[1] in "dh" else "")


def build_replays(result: AuditResult, totals: FindingsTotals,
                  lean_over: int = LEAN_REPLAYS_OVER
                  ) -> tuple[list[dict[str, Any]], dict[int, dict[str, Any]], dict[str, Any]]:
    """The replay of every round with a finding, made once per round, and each finding's
    (by its number).

    Across the run at most REPLAYS_PER_CITATION_IN_RUN rounds of each citation and
    REPLAYS_IN_REPORT in all, in record order: a bad night records thousands of rounds'
    evidence, and a report of them all was 40 MB. The third value says how many rounds had
    a recorded replay, which findings lost theirs to this cap (`cut`, their numbers), and
    which (file, citation) pairs reached the per-file cap of audit.py (`full`)."""
    members = totals.members
    order = {summary.path: position for position, summary in enumerate(result.inputs)}
    rounds = sorted(totals.replayable.values(),
                    key=lambda e: (order.get(e.file, len(order)), e.start_line))
    per_file: Counter = Counter()
    for evidence in rounds:
        for citation in {f.citation for _, f in members[id(evidence)]}:
            per_file[(evidence.file, citation)] += 1
    full = {key for key, number in per_file.items() if number >= REPLAYS_PER_CITATION}
    in_run: Counter = Counter()
    kept, cut = [], set()
    for evidence in rounds:
        citations = {f.citation for _, f in members[id(evidence)]}
        if len(kept) < REPLAYS_IN_REPORT and any(
                in_run[c] < REPLAYS_PER_CITATION_IN_RUN for c in citations):
            kept.append(evidence)
            in_run.update(citations)
        else:
            cut.update(number for number, _ in members[id(evidence)])
    replays: list[dict[str, Any]] = []
    replay_of: dict[int, dict[str, Any]] = {}
    lean = len(kept) > lean_over
    for position, evidence in enumerate(kept):
        replay = replay_model(evidence.whole(), members[id(evidence)], position + 1, lean)
        replays.append(replay)
        for number, _ in members[id(evidence)]:
            replay_of[number] = replay
    return replays, replay_of, {"recorded": len(rounds), "cut": cut, "full": full}


def replay_model(evidence: RoundEvidence, findings: list[tuple[int, Finding]], number: int,
                 lean: bool = False) -> dict[str, Any]:
    """The round's lines, each with what it changed on the table (only the hands, dealer or
    seat wagers that changed, so the markup stays lean), and the whole table at each fault.
    `lean` also sets each row as one line of aligned text (`plain`)."""
    faults: dict[int, list[dict[str, Any]]] = defaultdict(list)
    supports: dict[int, list[str]] = defaultdict(list)
    for counted, finding in findings:
        reference = {"ref": f"F-{counted:04d}", "id": f"f-{counted}",
                     "citation": finding.citation, "severity": finding.severity,
                     "message": finding.message}
        if finding.line is not None:
            faults[finding.line].append(reference)
        for line in finding.evidence:
            supports[line].append(reference["ref"])
    rows = []
    previous = seated_before(evidence)
    shown = {key: display_entity(key, raw) for key, raw in previous.items()}
    for line, text in evidence.lines:
        match = _TIME.match(text)
        time, statement = (match.group(1), match.group(2)) if match else ("", text.strip())
        step = evidence.steps.get(line)
        changes = []
        if not rows:  # the round's first line: who was seated when it began
            changes = list(shown.values())
        if step is not None:
            current = raw_entities(step)
            for key, raw in current.items():
                if previous.get(key) != raw:
                    shown[key] = display_entity(key, raw)
                    changes.append(shown[key])
            for key in sorted(previous.keys() - current.keys()):
                gone = shown.pop(key, None)
                if gone is not None and gone.seat:  # a player left
                    changes.append(Entity(gone.name, False, [], None, False, "left", [],
                                          gone.player, True))
            previous = current
        rows.append(ReplayRow(line, time, statement, changes, faults.get(line, []),
                              supports.get(line, []),
                              table_order(shown) if line in faults else None))
    if lean:
        set_plain_text(rows)
    lines = evidence.lines
    context = findings[0][1] if findings else None
    return {"id": f"r-{number}", "number": number, "file": evidence.file,
            "round": evidence.round_id,
            "first_line": lines[0][0] if lines else evidence.start_line,
            "last_line": lines[-1][0] if lines else evidence.start_line,
            "table": context.table if context else None,
            "date": context.date if context else None,
            "dealer": context.dealer if context else None,
            "rows": rows,
            "text_of": {row.line: row for row in rows},
            "findings": [{"ref": f"F-{counted:04d}", "id": f"f-{counted}",
                          "citation": f.citation, "severity": f.severity, "line": f.line}
                         for counted, f in findings]}


def seated_before(evidence: RoundEvidence) -> dict[str, tuple]:
    """The named players seated when the round began: those after its first statement, less
    a seat that statement itself filled."""
    if not evidence.steps:
        return {}
    first = min(evidence.steps)
    players = dict(evidence.steps[first].get("players", {}))
    text = dict(evidence.lines).get(first, "")
    match = _TIME.match(text)
    words = (match.group(2) if match else text).split()
    if len(words) > 1 and words[0] == "sit":
        players.pop(words[1], None)
    return {"seat:" + seat: (player,) for seat, player in players.items()}


def set_plain_text(rows: list[ReplayRow]) -> None:
    """Each row as one line of aligned text: line, time, statement, what changed."""
    line_width = max((len(str(r.line)) for r in rows), default=1)
    time_width = max((len(r.time) for r in rows), default=0)
    text_width = min(max((len(r.text) for r in rows), default=0), 44)
    for row in rows:
        changes = "   ".join(entity_text(e) for e in row.changes)
        row.plain = (f"{row.line:>{line_width}}  {row.time:<{time_width}}  "
                     f"{row.text:<{text_width}}  {changes}").rstrip()
        if row.state is not None:
            name_width = max((len(e.name) for e in row.state), default=0)
            row.state_lines = [f"{e.name:<{name_width}}  {entity_text(e, named=False)}"
                               for e in row.state]


def entity_text(entity: Entity, named: bool = True) -> str:
    """A hand, the dealer or a seat as text: a face-down card in parentheses."""
    parts = [entity.name] if named else []
    if entity.player:
        parts.append(f"({entity.player})" if not entity.seat else entity.player)
    parts += [f"({c.text})" if "d" in c.css.split() else c.text for c in entity.cards]
    if entity.total is not None:
        parts.append(f"{'soft ' if entity.soft else ''}{entity.total}")
    if entity.status:
        parts.append(entity.status)
    parts += [f"[{w}]" for w in entity.wagers]
    return " ".join(parts)


def raw_entities(step: dict[str, Any]) -> dict[str, tuple]:
    """The table after one statement as comparable entities: the dealer, each hand with its
    wagers, and the wagers of a seat (or of a hand not dealt yet)."""
    wagers: dict[str, list[tuple]] = {}
    for wager in step["wagers"]:
        item = (wager["kind"], wager["tip"], wager["amount"], wager["settled"])
        wagers.setdefault(wager["target"], []).append(item)
    result: dict[str, tuple] = {}
    dealer = step["dealer"]
    if dealer["cards"]:
        result["dealer"] = (tuple(dealer["cards"]), dealer["total"], dealer["revealed"])
    for hand in step["hands"]:
        name = hand["hand"]
        result["hand:" + name] = (tuple(hand["cards"]), hand["total"], hand["soft"],
                                  hand["status"], tuple(wagers.pop(name, ())),
                                  hand.get("doubled", ""))
    for target, items in wagers.items():
        result["hand:" + target] = ((), None, False, "", tuple(items), "")
    for seat, player in step.get("players", {}).items():
        result["seat:" + seat] = (player,)
    return result


def display_entity(key: str, raw: tuple) -> Entity:
    """An entity as the replay shows it: a name, cards, total, status and wagers."""
    if key.startswith("seat:"):
        return Entity(key[5:], False, [], None, False, "", [], raw[0], True)
    if key == "dealer":
        codes, total, revealed = raw
        cards = [card_parts(code) for code in codes]
        down = not revealed and len(cards) > 1
        if down:
            cards[1] = Card(cards[1].text, (cards[1].css + " d").strip())
        return Entity("Dealer", True, cards, total, False, "hole card down" if down else "", [])
    codes, total, soft, status, wagers, doubled = raw
    # A hand's double is added to its player's main wager, never to the dealer's tip on
    # it: a tip's stake is its own amount (judging.stake_of, the auditor's reading).
    texts = [_wager_text(*wager, doubled=doubled if wager[0] == "main" and not wager[1] else "")
             for wager in wagers]
    return Entity(key.split(":", 1)[1], False, [card_parts(code) for code in codes],
                  total if codes else None, soft, status, texts)


def table_order(shown: dict[str, Entity]) -> list[Entity]:
    """The whole table: the dealer first, then seat by seat each hand with its player, seat
    wagers, and a seated player with no hand."""
    players = {e.name: e.player for e in shown.values() if e.seat}
    entities = [e for e in shown.values() if not e.seat]
    held = {e.name[:2] for e in entities if not e.dealer}
    entities += [e for e in shown.values() if e.seat and e.name not in held]
    ordered = []
    for entity in sorted(entities, key=lambda e: (not e.dealer, e.name)):
        if not entity.dealer and not entity.seat:
            entity = replace(entity, player=players.get(entity.name[:2], ""))
        ordered.append(entity)
    return ordered


@lru_cache(maxsize=4096)
def _wager_text(kind: str, tip: bool, amount: str, settled: str, doubled: str = "") -> str:
    """`main 25.00 + double 25.00 · lose 50.00`: the wager, and its settlement once made.
    Cached: a replay shows the same few wagers thousands of times (216 distinct in 25,000)."""
    text = f"{'tip ' if tip else ''}{kind} {money(amount)}"
    if doubled:
        text += f" + double {money(doubled)}"
    if settled:
        outcome, _, paid = settled.partition(" ")
        text += f" · {outcome} {money(paid) if paid else ''}".rstrip()
    return text


# ---- coverage and provenance ------------------------------------------------------------

def build_coverage(result: AuditResult, found: Counter,
                   judging: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Every subsection of the rule base, section by section: what checks it, how often.

    The standard rules come first, then the variations, then the record's own rules. A
    check the run's selection left out (`judging`, auditor/selection.py) is "not
    selected"; one whose text came in force after every audited round, "not yet in force".
    """
    unselected = set((judging or {}).get("not_judged", ()))
    effective = effective_dates()
    last_date = max((i.last_date for i in result.inputs if i.last_date), default=None)
    audited_games = {i.game for i in result.inputs if i.game}
    rows_by_citation = {row["citation"]: row for row in coverage_rows()}
    checks = {check.name: check for check in registry().values()}
    sections = []
    for section in sorted(load_rule_base(), key=_section_order):
        rows = []
        for entry in sorted(section.entries, key=lambda e: citation_sort_key(e.citation)):
            check = checks.get(entry.check or "")
            applied = result.applied.get(entry.citation, 0)
            games = set(check.games) if check else set()
            rows.append({**rows_by_citation.get(entry.citation, {}),
                         "citation": entry.citation, "title": entry.title,
                         "checked": check is not None, "applied": applied,
                         "findings": found.get(entry.citation, 0),
                         "games_text": games_text(games),
                         "games": " ".join(sorted(games)),
                         "unreadable": bool(check) and check.judges_unreadable_rounds,
                         "game_absent": bool(check) and not games & audited_games})
        checked = [r for r in rows if r["checked"]]
        # Where no check of a section could apply (its game was not audited), say it once.
        absent = bool(checked) and all(r["game_absent"] for r in checked)
        for row in rows:
            row["note"] = ""
            since = effective.get(row["citation"])
            if row["citation"] in unselected:
                row["note"] = "not selected"
            elif row["checked"] and not row["applied"] and since and last_date and (
                    last_date < since):
                row["note"] = f"not yet in force (in force from {since})"
            elif row["checked"] and row.get("rule") in checks and checks[
                    row["rule"]].outside_file and not (judging or {}).get("approved"):
                row["note"] = f"no {checks[row['rule']].outside_file} file was given"
            elif row["checked"] and not row["applied"] and not absent:
                row["note"] = ("no table of its game was audited" if row["game_absent"]
                               else "no round was audited")
        sections.append({"section": section.section, "title": section.title,
                         "source": section.source, "rows": rows,
                         "checked": len(checked), "not_checkable": len(rows) - len(checked),
                         "applied": sum(r["applied"] for r in checked),
                         "absent_games": sorted({g for r in checked for g in
                                                 (checks[r["rule"]].games if r.get("rule")
                                                  in checks else ())}) if absent else []})
    return sections


def _section_order(section) -> tuple:
    if section.section.startswith("record"):
        return (2, section.section)
    return (0 if section.section == "20:18:15" else 1, citation_sort_key(section.section))


def games_text(games: set[str]) -> str:
    """Which games a check runs for, shortly: every game says nothing."""
    if not games or games >= GAMES:
        return ""
    if len(games) == 1:
        return f"{next(iter(games))} only"
    missing = GAMES - games
    if len(missing) == 1:
        return f"not {next(iter(missing))}"
    return ", ".join(sorted(games))


def build_provenance(result: AuditResult, run: dict[str, Any],
                     syntax_rounds: set[tuple[str, str, int | None]]) -> dict[str, Any]:
    """Who audited what, when, and what was left out, so a clean report can be trusted."""
    unreadable_rounds = sorted(syntax_rounds, key=lambda r: (r[0], r[2] or 0))
    seen: set[tuple[str, str]] = set()
    rounds_not_audited = []
    for file, round_id, line in unreadable_rounds:
        if (file, round_id) not in seen:
            seen.add((file, round_id))
            rounds_not_audited.append({"file": file, "round": round_id, "line": line})
    partial = [i for i in result.inputs if not i.error and i.rounds != i.rounds_audited]
    return {
        "version": run.get("version", ""), "rule_base": run.get("rule_base", ""),
        "command": run.get("command", ""),
        "started": utc_text(run.get("started")), "finished": utc_text(run.get("finished")),
        "duration": duration_text(run.get("started"), run.get("finished")),
        "inputs": result.inputs,
        # The reader's message names the file; the list already does.
        "unreadable": [{"path": i.path, "reason": i.error.removeprefix(f"{i.path}: "),
                        "position": position}
                       for position, i in enumerate(result.inputs) if i.error],
        "positions": {i.path: position for position, i in enumerate(result.inputs)},
        "partial": partial,
        "rounds_not_audited": rounds_not_audited,
        # Derived from the syntax findings; shown only where it accounts for every round.
        "rounds_listed": len(rounds_not_audited) == sum(i.rounds - i.rounds_audited
                                                        for i in partial),
    }
