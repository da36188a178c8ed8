"""The report's charts as geometry (inline SVG, drawn by the templates): severity bars of
the summary tables, money by citation, findings by gaming day."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from auditor.findings import SEVERITIES
from auditor.money import currency_label
from auditor.output.formatting import count, in_currency, money
from auditor.report.model import SummaryRow


@dataclass
class Bar:
    label: str
    title: str  # the tooltip: the exact numbers
    y: float
    segments: list[dict[str, Any]] = field(default_factory=list)


CHART_WIDTH, LABEL_WIDTH, VALUE_WIDTH, BAR_HEIGHT, ROW_HEIGHT = 760, 170, 70, 16, 24


def severity_segments(rows: list[SummaryRow]) -> list[list[dict[str, Any]]]:
    """Each row's bar: its findings stacked by severity, in percent of the largest row."""
    largest = max((r.findings for r in rows), default=0) or 1
    bars = []
    for row in rows:
        x, segments = 0.0, []
        for severity in SEVERITIES:
            width = 100 * getattr(row, severity) / largest
            if width:
                segments.append({"severity": severity, "x": round(x, 2), "width": round(width, 2)})
            x += width
        bars.append(segments)
    return bars


def money_bars(rows: list[SummaryRow]) -> dict[str, Any]:
    """Per citation and currency, a diverging bar: what players were under-paid to the left
    of the axis, what they were over-paid (the house's loss) to the right. Each currency is
    drawn to its own scale: amounts of two currencies are never compared or added."""
    parts = [(row, currency) for row in rows for currency in row.money.currencies()]
    largest: dict[str | None, Decimal] = {}
    for row, currency in parts:
        largest[currency] = max(largest.get(currency, Decimal(0)), row.money.under(currency),
                                row.money.over(currency))
    label, top = 190, 22
    half = (CHART_WIDTH - label - 10) / 2 - VALUE_WIDTH
    axis = label + VALUE_WIDTH + half
    bars = []
    for index, (row, currency) in enumerate(parts):
        y = top + index * ROW_HEIGHT
        under, over = row.money.under(currency), row.money.over(currency)
        name = f"{row.label} · {currency_label(currency)}"
        bar = Bar(label=name, y=y, title=(
            f"{row.label}: players under-paid {in_currency(under, currency)}, "
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


def date_columns(rows: list[SummaryRow]) -> dict[str, Any]:
    """Findings per gaming day as columns, by month when there are too many to read."""
    dated = [{"label": r.label, "findings": r.findings, "high": r.high, "medium": r.medium,
              "low": r.low} for r in rows if r.label not in ("(none)", "None", "undated")]
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
