"""trends.html: the surveillance signals as one self-contained page (templates/trends.html.j2).

The page is built from the trends.json document and nothing else. Record text (dealer and
player IDs, file names, table IDs) reaches it only through Jinja's autoescaping; the only
`Markup` is the page's own stylesheet, read from the package and allowed by its hash in the
Content-Security-Policy. The charts are SVG drawn here as plain geometry: no script at all.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from auditor.money import rows_text
from auditor.output.html_report import csp_hash, shown_text
from auditor.resources import templates_dir
from auditor.trends.analysis import UNDATED

CHART_WIDTH, BAR_HEIGHT, DAY_CHART_HEIGHT = 640, 16, 180
RANKED_DEALERS = 40  # dealers shown in the ranked chart (the highest rates)


@cache
def _environment() -> Environment:
    environment = Environment(loader=FileSystemLoader(templates_dir()),
                              autoescape=select_autoescape(default=True,
                                                           default_for_string=True),
                              trim_blocks=True, lstrip_blocks=True, auto_reload=False,
                              finalize=shown_text)  # bidi controls made visible
    environment.filters["paid"] = rows_text  # money per currency, never added
    return environment


@cache
def _stylesheet() -> Markup:
    return Markup((templates_dir() / "trends.css").read_text(encoding="utf-8"))


def _day_chart(rows: list[dict[str, Any]], floor_rate: float | None) -> dict[str, Any]:
    """Findings per 1,000 rounds by gaming day: one bar a day, the floor's rate as a line."""
    rows = [r for r in rows if r["findings_per_1000"] is not None and r["key"] != UNDATED]
    top = max([r["findings_per_1000"] for r in rows] + [floor_rate or 0, 1e-9])
    width = CHART_WIDTH / max(len(rows), 1)
    bars = [{"x": round(i * width + 2, 1), "width": round(max(width - 4, 1), 1),
             "height": round(DAY_CHART_HEIGHT * r["findings_per_1000"] / top, 1),
             "label": r["key"], "value": r["findings_per_1000"], "rounds": r["rounds"]}
            for i, r in enumerate(rows)]
    for bar in bars:
        bar["y"] = round(DAY_CHART_HEIGHT - bar["height"], 1)
    line = None if floor_rate is None else round(DAY_CHART_HEIGHT * (1 - floor_rate / top), 1)
    return {"bars": bars, "floor_y": line, "width": CHART_WIDTH, "height": DAY_CHART_HEIGHT,
            "top": round(top, 1)}


def _dealer_chart(rows: list[dict[str, Any]], floor_rate: float | None,
                  flagged: set[str]) -> dict[str, Any]:
    """Dealers ranked by findings per 1,000 rounds, flagged dealers marked."""
    rows = sorted((r for r in rows if r["findings_per_1000"] is not None and r["rounds"]),
                  key=lambda r: -r["findings_per_1000"])[:RANKED_DEALERS]
    top = max([r["findings_per_1000"] for r in rows] + [floor_rate or 0, 1e-9])
    label = 120
    scale = (CHART_WIDTH - label - 60) / top
    bars = [{"y": i * (BAR_HEIGHT + 4), "width": round(r["findings_per_1000"] * scale, 1),
             "label": r["key"], "value": r["findings_per_1000"], "rounds": r["rounds"],
             "flagged": r["key"] in flagged} for i, r in enumerate(rows)]
    height = len(bars) * (BAR_HEIGHT + 4)
    floor_x = None if floor_rate is None else round(label + floor_rate * scale, 1)
    return {"bars": bars, "label": label, "floor_x": floor_x, "width": CHART_WIDTH,
            "height": max(height, BAR_HEIGHT), "bar_height": BAR_HEIGHT}


def to_html(document: dict[str, Any]) -> str:
    rates = document["rates"]
    floor_rate = rates["floor"]["findings_per_1000"]
    flagged_dealers = {e["unit"]["key"] for e in document["outliers"]
                       if e["status"] == "flagged" and e["unit"]["kind"] == "dealer"}
    flags = {name: [e for e in document[name] if e["status"] == "flagged"]
             for name in ("outliers", "pairs", "repeats", "game_math")}
    stylesheet = _stylesheet()
    return _environment().get_template("trends.html.j2").render(
        document=document, head=document["trends"], rates=rates, flags=flags,
        day_chart=_day_chart(rates["day"], floor_rate),
        dealer_chart=_dealer_chart(rates["dealer"], floor_rate, flagged_dealers),
        stylesheet=stylesheet, style_hash=csp_hash(stylesheet))
