"""trends.html: the surveillance signals as one self-contained page (templates/trends.html.j2).

The page is built from the trends.json document and nothing else. Record text (dealer and
player IDs, file names, table IDs) reaches it only through Jinja's autoescaping; the only
`Markup` is the page's own stylesheet, read from the package and allowed by its hash in the
Content-Security-Policy. The charts are SVG drawn here as plain geometry: no script at all.
Numbers are formatted for reading here (`auditor/trends/numbers.py`); trends.json keeps them
raw.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from auditor.money import rows_text
from auditor.output.html_report import csp_hash, shown_text
from auditor.resources import templates_dir
from auditor.trends import numbers
from auditor.trends.analysis import EXPLAINED, FLAGGED, TOO_FEW, UNDATED
from auditor.trends.analysis import flags as raised_flags
from auditor.trends.distributions import poisson_at_most, poisson_quantile
from auditor.trends.flags import first_raised

CHART_WIDTH, DAY_CHART_HEIGHT = 640, 180


@cache
def _environment() -> Environment:
    environment = Environment(loader=FileSystemLoader(templates_dir()),
                              autoescape=select_autoescape(default=True,
                                                           default_for_string=True),
                              trim_blocks=True, lstrip_blocks=True, auto_reload=False,
                              finalize=shown_text)  # bidi controls made visible
    environment.filters["paid"] = rows_text  # money per currency, never added
    # the page's number formats (auditor/trends/numbers.py)
    environment.globals.update(count=numbers.count, rate=numbers.rate,
                               probability=numbers.probability, stated=numbers.stated)
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


FUNNEL_WIDTH, FUNNEL_HEIGHT = 640, 300
FUNNEL_MARGIN = {"left": 52, "right": 20, "top": 12, "bottom": 40}
LIMITS = {"95%": (0.025, 0.975), "99.8%": (0.001, 0.999)}  # two-sided control limits


def _poisson_limit(probability: float, expected: float) -> float:
    """The count below which a share `probability` of a Poisson(`expected`) count falls,
    interpolated between whole counts (Spiegelhalter, "Funnel plots for comparing
    institutional performance", 2005): the limits are smooth curves, not steps."""
    if expected <= 0:
        return 0.0
    quantile = poisson_quantile(probability, expected)
    at = poisson_at_most(quantile, expected)
    below = poisson_at_most(quantile - 1, expected)
    step = (at - probability) / (at - below) if at > below else 0.0
    return max(0.0, quantile - step)


def _funnel(entries: list[dict[str, Any]], kind: str, floor_rate: float | None,
            minimum: int) -> dict[str, Any] | None:
    """A funnel plot of one kind of unit: each unit's findings per 1,000 rounds against the
    rounds it dealt (log scale), with the 95 % and 99.8 % control limits around the floor's
    rate (drawn from the rounds in which one finding is expected); a unit inside the
    funnel errs within chance of the floor's rate."""
    units = [e for e in entries if e["unit"]["kind"] == kind and e["counts"]["rounds"]]
    if not units or floor_rate is None:
        return None
    left, right = FUNNEL_MARGIN["left"], FUNNEL_WIDTH - FUNNEL_MARGIN["right"]
    top, bottom = FUNNEL_MARGIN["top"], FUNNEL_HEIGHT - FUNNEL_MARGIN["bottom"]
    most = max(e["counts"]["rounds"] for e in units)
    first = math.floor(math.log10(min(e["counts"]["rounds"] for e in units)))
    decades = max(first + 1, math.ceil(math.log10(most * 1.05)))
    per_round = floor_rate / 1000

    def x_of(rounds: float) -> float:
        return round(left + (right - left) * (math.log10(rounds) - first) / (decades - first), 1)

    judged = [e["rates"]["findings_per_1000"] for e in units if e["status"] != TOO_FEW]
    highest = max([*judged, 2 * floor_rate, 1.0,
                   1000 * _poisson_limit(0.999, per_round * minimum) / minimum])
    step = _nice_step(highest * 1.1 / 5)
    y_top = step * math.ceil(highest * 1.1 / step)

    def y_of(value: float) -> float:
        return round(bottom - (bottom - top) * min(value, y_top) / y_top, 1)

    # The limits from one finding expected on: below that a single finding is beyond them,
    # and the curves only jump between zero and the top of the scale.
    start = max(first, math.log10(1 / per_round)) if per_round else first
    grid = [10 ** (start + (decades - start) * i / 80) for i in range(81)] \
        if start < decades else []
    curves = []
    for name, (low, high) in LIMITS.items() if grid else ():
        for side, probability in (("lower", low), ("upper", high)):
            points = " ".join(
                f"{x_of(n)},{y_of(1000 * _poisson_limit(probability, per_round * n) / n)}"
                for n in grid)
            curves.append({"name": name, "side": side, "points": points})
    classes = {FLAGGED: "flagged", EXPLAINED: "explained", TOO_FEW: "small"}
    dots = []
    for entry in sorted(units, key=lambda e: e["status"] != TOO_FEW):  # judged on top
        value = entry["rates"]["findings_per_1000"]
        dots.append({"x": x_of(entry["counts"]["rounds"]), "y": y_of(value),
                     "clipped": value > y_top, "key": entry["unit"]["key"],
                     "rounds": entry["counts"]["rounds"],
                     "findings": entry["counts"]["findings"], "rate": value,
                     "status": entry["status"],
                     "class": classes.get(entry["status"], "judged"),
                     "labelled": entry["status"] in (FLAGGED, EXPLAINED)})
    return {"kind": kind, "width": FUNNEL_WIDTH, "height": FUNNEL_HEIGHT, "left": left,
            "right": right, "top": top, "bottom": bottom, "curves": curves, "dots": dots,
            "floor_y": y_of(floor_rate), "floor_rate": floor_rate,
            "x_ticks": [{"x": x_of(10 ** d), "label": f"{10 ** d:,}"}
                        for d in range(first, decades + 1)],
            "y_ticks": [{"y": y_of(step * i), "label": f"{step * i:,.0f}" if step >= 1
                         else f"{step * i:g}"}
                        for i in range(round(y_top / step) + 1)],
            "y_top": y_top}


def _nice_step(raw: float) -> float:
    """1, 2 or 5 times a power of ten, at least `raw`: the y axis's tick spacing."""
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def _folded(rows: list[dict[str, Any]], minimum: int) -> tuple[list, dict[str, int] | None]:
    """A rate table's rows from `minimum` rounds on, and the rest as one line's counts."""
    kept = [r for r in rows if r["rounds"] >= minimum]
    small = [r for r in rows if r["rounds"] < minimum]
    if not small:
        return kept, None
    return kept, {"units": len(small), "rounds": sum(r["rounds"] for r in small),
                  "findings": sum(r["findings"] for r in small)}


def _flag_history(document: dict[str, Any]) -> list[dict[str, Any]]:
    """Each unit's flags of the window's nights: a row a unit and question (and change's
    first night), by the night first raised."""
    rows: dict[tuple, dict[str, Any]] = {}
    for entry in [*document["outliers"], *document["pairs"]]:
        unit = entry["unit"]
        kind, key = unit["kind"], unit.get("key", unit.get("dealer"))
        for record in entry.get("flag_history", []):
            row = rows.setdefault(
                (kind, key, unit.get("player", ""), record["question"], record["since"]),
                {"kind": kind, "unit": key, "partner": unit.get("player", ""),
                 "question": record["question"], "since": record["since"],
                 "first": record["night"], "nights": []})
            row["nights"].append(record["night"])
    return sorted(rows.values(), key=lambda r: (r["first"], r["kind"], r["unit"],
                                                r["partner"], r["question"]))


def to_html(document: dict[str, Any]) -> str:
    rates = document["rates"]
    floor_rate = rates["floor"]["findings_per_1000"]
    minimum = document["trends"]["minimum_rounds"]["dealer_or_table"]
    folded = {dimension: _folded(rates[dimension], minimum) for dimension in ("dealer", "table")}
    flags = raised_flags(document)
    # a unit flagged by both tests is one item: its change said within its outlier's
    flags["changes"] = [e for e in flags["changes"] if e["status"] != FLAGGED]
    stylesheet = _stylesheet()
    return _environment().get_template("trends.html.j2").render(
        document=document, head=document["trends"], rates=rates, flags=flags,
        day_chart=_day_chart(rates["day"], floor_rate),
        funnels=[f for f in (_funnel(document["outliers"], kind, floor_rate, minimum)
                             for kind in ("dealer", "table")) if f],
        folded=folded,
        explained=[e for e in document["outliers"] if e["status"] == EXPLAINED],
        flag_history=_flag_history(document), first_raised=first_raised,
        stylesheet=stylesheet, style_hash=csp_hash(stylesheet))
