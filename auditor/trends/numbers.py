"""Numbers as trends.html and the printed summary show them (trends.json keeps them raw):
counts with thousands separators, rates per 1,000 rounds with one decimal, and p-values a
reader can compare at a glance."""

from __future__ import annotations

import math

SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def count(value: int | float | None) -> str:
    """12,000; an expected count with one decimal (10.7); a dash for none."""
    if value is None:
        return "—"
    if isinstance(value, int) or float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.1f}"


def rate(value: float | None) -> str:
    """A rate per 1,000 rounds with one decimal: 35.2; a dash where there were no rounds."""
    return "—" if value is None else f"{value:,.1f}"


def probability(value: float | None, log10: object = None) -> str:
    """A p- or q-value: two significant digits from 0.001 up (0.041, 0.32, 1), below that
    as a power of ten (3.9 × 10⁻⁷); a chance below a float's range by its order of
    magnitude (`log10`), else "< 10⁻³⁰⁰"."""
    if value is None:
        return "—"
    if value == 0:
        if isinstance(log10, int | float) and math.isfinite(log10):
            return "≈ 10" + f"{round(log10):d}".translate(SUPERSCRIPTS)
        return "< 10⁻³⁰⁰"
    if value >= 0.001:
        text = f"{value:.2g}"
        return text if "e" not in text else f"{value:.4f}"
    mantissa, exponent = f"{value:.1e}".split("e")
    return f"{mantissa} × 10" + f"{int(exponent):d}".translate(SUPERSCRIPTS)


def stated(name: str, value: float | None, log10: object = None) -> str:
    """"p = 0.041", "p = 3.9 × 10⁻⁷", "p ≈ 10⁻³⁶¹", "p < 10⁻³⁰⁰": the name and its value."""
    text = probability(value, log10)
    return f"{name} {text}" if text[0] in "≈<" else f"{name} = {text}"
