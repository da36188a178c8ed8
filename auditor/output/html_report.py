"""report.html: the inspector's report, one self-contained file (templates/report.html.j2),
laid out from the report's model (auditor/report) by the templates, with the formatting of
formatting.py, the charts of charts.py, the replays of replay_view.py and the page's data of
page_data.py.

Everything from a record (notes, IDs, player names, file names) reaches the page through
Jinja's autoescaping and is never marked safe; the only `Markup` here is the report's own
stylesheet and script, read from the package, and the page's data (`script_json`: JSON whose
<, > and & are escaped, so it cannot leave its element).

The page's data holds every finding in a compact record (what the filters and the
recomputed summaries need, and what drawing it needs). Up to LAZY_OVER findings each one
is markup too and the report reads without JavaScript; past it the findings and replays
are only data, and the page's script draws those shown.
"""

from __future__ import annotations

import base64
import gc
import hashlib
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from itertools import islice
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from auditor.audit import REPLAYS_PER_CITATION
from auditor.findings import Finding
from auditor.gaming_day import time_date
from auditor.output.charts import date_columns, money_bars, severity_segments
from auditor.output.formatting import (
    amounts,
    count,
    coverage_note,
    duration_text,
    games_text,
    in_currency,
    money,
    net_words,
    no_replay_text,
    paid,
    positions,
    signed,
    signed_in,
    utc_text,
    waiver_note,
)
from auditor.output.page_data import PAGE_SIZE, SUMMARY_TOP, _script_text, report_data
from auditor.output.replay_view import (
    display_entity,
    replay_view,
    row_blocks,
    table_state,
)
from auditor.output.template_cache import use_template_cache
from auditor.report.build import LAZY_OVER, build_report
from auditor.report.frames import RunSummary
from auditor.report.groups import table_keys
from auditor.report.model import FindingItem, Report
from auditor.report.replays import REPLAYS_IN_REPORT
from auditor.resources import templates_dir
from auditor.results import AuditResult
from auditor.run import REPLAYS_PER_CITATION_IN_RUN
from auditor.shown import neutral

__all__ = ["_script_text", "display_entity", "environment", "html_parts", "load_templates",
           "report_context", "to_html"]

OPEN_FINDINGS_UP_TO = 60  # smaller audits open their groups and replays (readable without JS)
# LAZY_OVER (report/build.py): past this many findings the page holds the findings and
# replays as compact data (a JSON element) and its script draws only what is shown: 10,000
# findings as markup were 300k elements and 17 s to open. Up to it every finding is markup
# too, read without JavaScript. REPLAYS_IN_REPORT (report/replays.py): replays in all. Both
# are read here when a report is made, so a test may set them on this module.
# Past this many rounds replayed, each replay is one block of aligned text rather than a table:
# a browser then opens a report of thousands of findings in seconds, not minutes.
LEAN_REPLAYS_OVER = 300


def shown_text(value: Any) -> Any:
    """What a template prints: text with its bidi controls shown as markers (the marker
    holds no HTML, so escaped text stays escaped)."""
    if isinstance(value, str):  # Markup too
        shown = neutral(value)
        if shown is value:  # nearly always: no bidi control, nothing to make again
            return value
        return Markup(shown) if isinstance(value, Markup) else shown
    return value


@cache
def environment() -> Environment:
    """One per process, so each template is compiled once (compiling the seven of them costs
    more than rendering a small report), and its bytecode kept between processes in the
    user's private cache (output/template_cache.py). They are package files that do not
    change while the process runs: no reload checks."""
    environment = Environment(loader=FileSystemLoader(templates_dir()),
                              autoescape=select_autoescape(default=True, default_for_string=True),
                              trim_blocks=True, lstrip_blocks=True, auto_reload=False)
    environment.finalize = shown_text  # every `{{ }}`: bidi controls made visible
    environment.filters["money"] = money
    environment.filters["time_date"] = time_date  # the date of a finding's time
    environment.filters["paid"] = paid
    environment.filters["amounts"] = amounts
    environment.filters["in_currency"] = in_currency
    environment.filters["signed_in"] = signed_in
    environment.filters["signed"] = signed
    environment.filters["count"] = count
    environment.filters["table_state"] = table_state
    environment.filters["row_blocks"] = row_blocks
    environment.globals["waiver_note"] = waiver_note
    use_template_cache(environment)  # compiled once per user, not per process
    return environment


def load_templates() -> None:
    """Compile the report's templates (report.html.j2 and its `_` parts) now rather than at
    the first render (about 0.25 s): a parent process can do it while its workers audit.
    trends.html.j2 is trends' own (0.12 s more) and is left to it."""
    templates = environment()
    for name in templates.list_templates(extensions=["j2"]):
        if name == "report.html.j2" or name.startswith("_"):
            templates.get_template(name)


def to_html(result: AuditResult, run: dict[str, Any], summary: RunSummary | None = None, *,
            lean_replays_over: int = LEAN_REPLAYS_OVER) -> str:
    return "".join(html_parts(result, run, summary, lean_replays_over=lean_replays_over))


def html_parts(result: AuditResult, run: dict[str, Any], summary: RunSummary | None = None,
               *, lean_replays_over: int = LEAN_REPLAYS_OVER) -> Iterator[str]:
    """report.html in the parts the template renders one after another: written as they
    come, the page is never one text in memory (a month's report is tens of megabytes).
    `summary`: the run's (auditor/report/frames.py), counted here only when none is given."""
    with collector_paused():
        context = report_context(result, run, summary, lean_replays_over=lean_replays_over)
        data = context["report_data"]
        # The page's data goes where the template puts it, in its parts: a mark no record
        # can hold (new each time) stands in for it while the template renders.
        mark = f"report-data-{secrets.token_hex(16)}"
        context["report_data"] = Markup(mark)
        for chunk in _rendered_in_chunks(context):
            if mark in chunk:  # the mark is one piece of the template's: never split
                before, after = chunk.split(mark, 1)
                yield before
                yield from data.parts()
                yield after
            else:
                yield chunk


RENDERED_PIECES_PER_CHUNK = 4096


def _rendered_in_chunks(context: dict[str, Any]) -> Iterator[str]:
    """report.html.j2 rendered as `Template.generate` renders it, its pieces joined a few
    thousand at a time: the template yields each `{{ }}` and each run of text apart (214,000
    pieces on 7,500 rounds), and passing every one through a generator and a write cost more
    than making them. A chunk is tens of kilobytes: the page is still never one
    text in memory."""
    templates = environment()
    template = templates.get_template("report.html.j2")
    pieces = template.root_render_func(template.new_context(context))
    try:
        while chunk := list(islice(pieces, RENDERED_PIECES_PER_CHUNK)):
            yield "".join(chunk)
    except Exception:  # as `generate` does: the error shown at its line of the template
        templates.handle_exception()


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


def report_context(result: AuditResult, run: dict[str, Any],
                   summary: RunSummary | None = None, *,
                   lean_replays_over: int = LEAN_REPLAYS_OVER) -> dict[str, Any]:
    """Everything the templates show: the report's model (`build_report`) laid out."""
    report = build_report(result, run, summary, lazy_over=LAZY_OVER,
                          replays_in_report=REPLAYS_IN_REPORT)
    keys = table_keys(result.inputs)
    shown = report.replays.shown
    lean = not report.lazy and len(shown) > lean_replays_over
    views = {replay.number: replay_view(replay, report.lazy or lean) for replay in shown}
    summaries = summaries_view(report)
    small = report.scope.findings <= OPEN_FINDINGS_UP_TO
    # Each printed page names the report it belongs to (the fingerprint is hex digits).
    page_style = Markup('@page { @bottom-left { content: "Blackjack compliance audit · report '
                        f'{report.fingerprint}"; font: 8pt sans-serif; color: #555; }} }}')
    return {
        "run": run,
        "scope": scope_view(report),
        "fingerprint": report.fingerprint,
        "summaries": summaries,
        "charts": {"money": money_bars(report.summaries["citation"]),
                   "dates": date_columns(report.summaries["date"])},
        "groups": [group_view(group, views) for group in report.groups],
        "replays": [views[replay.number] for replay in shown],
        "replays_per_citation": REPLAYS_PER_CITATION,
        "coverage": coverage_view(report),
        "provenance": provenance_view(report),
        "facets": report.facets,
        "waivers": report.waivers,
        "waived": report.waived,
        "resolved": report.resolved,
        "baseline": report.resolved is not None,
        "open_groups": small,
        "open_replays": len(shown) <= OPEN_FINDINGS_UP_TO // 2,
        "lean_replays": len(shown) > lean_replays_over,
        "page_size": PAGE_SIZE,
        "lazy": report.lazy,
        "replays_recorded": report.replays.recorded,
        "replays_per_citation_in_run": REPLAYS_PER_CITATION_IN_RUN,
        "replays_in_report": REPLAYS_IN_REPORT,
        "summary_top": SUMMARY_TOP,
        "identity": masthead_view(report),
        "report_data": report_data(report, result.findings, result, views, keys,
                                   REPLAYS_IN_REPORT),
        "stylesheet": _asset("report.css"),
        "script": _asset("report.js"),
        "page_style": page_style,
        "style_hashes": [csp_hash(_asset("report.css")), csp_hash(page_style)],
        "script_hash": csp_hash(_asset("report.js")),
    }


def scope_view(report: Report) -> dict[str, Any]:
    scope = report.scope
    return {**vars(scope), "dealer_inputs": {dealer: positions(inputs) for dealer, inputs
                                             in scope.dealer_inputs.items()}}


def masthead_view(report: Report) -> dict[str, Any]:
    masthead = report.masthead
    return {"licensees": [{**vars(entry), "inputs": positions(entry.inputs)}
                          for entry in masthead.licensees],
            "tables": [{**vars(row), "inputs": positions(row.inputs),
                        **rules_view(row.rules)} for row in masthead.tables],
            "currencies": masthead.currencies,
            "undeclared_currency": masthead.undeclared_currency}


def rules_view(rules: list[tuple[str, str, bool | None]]) -> dict[str, Any]:
    """A table's house rules as the page words them: those the header declares apart from
    the defaults the auditor assumed (`recorded` False: a run that did not tell them apart,
    every rule in `rules`)."""
    def words(chosen) -> str:
        return ", ".join(f"{key} {value}" for key, value, _ in chosen)

    return {"rules": words(rules),
            "declared_rules": words(r for r in rules if r[2]),
            "assumed_rules": words(r for r in rules if r[2] is False),
            "rules_recorded": all(r[2] is not None for r in rules)}


def summaries_view(report: Report) -> dict[str, list[dict[str, Any]]]:
    """Each summary's rows, with its bar (findings by severity, to the largest row's scale)."""
    return {column: [{**vars(row), column: row.key, "bar": bar}
                     for row, bar in zip(rows, severity_segments(rows), strict=True)]
            for column, rows in report.summaries.items()}


def group_view(group: Any, views: dict[int, dict[str, Any]]) -> dict[str, Any]:
    items = [FindingView.of(item, views) for item in group.findings]
    return {**vars(group), "anchor": f"c-{group.index}", "findings": items}


@dataclass(slots=True, frozen=True)
class FindingView:
    """One finding as the report shows it, with the record's line it stands on. Slotted,
    and read as `item.name` or `item["name"]`: a month's report holds tens of thousands."""

    finding: Finding
    number: int
    replay: dict[str, Any] | None
    line_text: Any
    no_replay: str
    table_key: str

    @classmethod
    def of(cls, item: FindingItem, views: dict[int, dict[str, Any]]) -> FindingView:
        finding = item.finding
        replay = views[item.replay.number] if item.replay is not None else None
        line = None
        if replay is not None and finding.line is not None:
            line = replay["text_of"].get(finding.line)
        return cls(finding, item.number, replay, line,
                   no_replay_text(item.no_replay, finding, REPLAYS_IN_REPORT), item.table_key)

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


def coverage_view(report: Report) -> list[dict[str, Any]]:
    return [{**vars(section),
             "rows": [{**vars(row), "games": " ".join(sorted(row.games)),
                       "games_text": games_text(row.games), "note": coverage_note(row)}
                      for row in section.rows]}
            for section in report.coverage]


def provenance_view(report: Report) -> dict[str, Any]:
    provenance = report.provenance
    return {
        **vars(provenance),
        "started": utc_text(provenance.started), "finished": utc_text(provenance.finished),
        "duration": duration_text(provenance.started, provenance.finished),
        # The reader's message names the file; the list already does.
        "unreadable": [{"path": i.path, "reason": (i.error or "").removeprefix(f"{i.path}: "),
                        "position": position} for position, i in provenance.unreadable],
        "positions": {i.path: position for position, i in enumerate(provenance.inputs)},
    }

@cache
def _asset(name: str) -> Markup:
    """The report's own CSS or JS (package files, never record text)."""
    return Markup((templates_dir() / name).read_text(encoding="utf-8"))


def csp_hash(text: str) -> str:
    """The Content-Security-Policy source that allows exactly this inline script or style."""
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()

