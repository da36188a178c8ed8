"""Findings counted for the summaries: by citation, table, dealer, shift and currency.

What the report, summary.csv and findings.json say of the run's findings as a whole, one
row per key and currency (amounts of two currencies are never added). A finding's table is
known by the file it came from (`table_key`: licence or else casino, "/", table ID), so
equal table IDs of two casinos never merge. The model of what is said; how each output
writes it is in auditor/output/.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import pandas as pd

from auditor.checks.base import citation_sort_key
from auditor.findings import Finding
from auditor.gaming_day import shift_shown
from auditor.money import currency_order, exact_text

if TYPE_CHECKING:
    from auditor.results import InputSummary

SUMMARY_DIMENSIONS = ("citation", "table", "dealer", "shift", "currency")


def identities(inputs: Iterable[InputSummary]) -> dict[str, dict[str, str | None]]:
    """Each file's table identity (casino, licence, table_key, currency), by path."""
    return {i.path: {"casino": i.casino, "licence": i.licence, "table_key": i.table_key,
                     "currency": i.currency} for i in inputs}


def summary_frame(findings: Iterable[Finding], inputs: Iterable[InputSummary] = ()
                  ) -> pd.DataFrame:
    """Only what the summaries count (`summary_by`), the findings walked once: a month's
    findings as whole rows (`findings_frame`) are several times the findings themselves."""
    columns = SummaryColumns(inputs)
    for finding in findings:
        columns.add(finding)
    return columns.frame()


class SummaryColumns:
    """The columns of `summary_frame`, a finding at a time. Their texts repeat (a month's
    findings name a few hundred tables, dealers and dates): one copy of each is kept, as
    findings read from the store each bring their own."""

    def __init__(self, inputs: Iterable[InputSummary] = ()) -> None:
        self.identity = identities(inputs)
        self.columns: dict[str, list] = {name: [] for name in SUMMARY_FRAME_COLUMNS}
        self.texts: dict[str, str] = {}

    def add(self, finding: Finding) -> None:
        columns, known, texts = self.columns, self.identity.get(finding.file), self.texts
        table = (known["table_key"] if known else None) or finding.table
        for name, value in (("citation", finding.citation), ("table_key", table),
                            ("dealer", finding.dealer), ("date", finding.date),
                            ("shift", shift_shown(finding)),
                            ("severity", finding.severity)):
            columns[name].append(value if value is None else texts.setdefault(value, value))
        columns["difference"].append(finding.difference)
        # A run stored before findings carried their currency: the file's.
        columns["currency"].append(finding.currency if finding.currency is not None or not known
                                   else known["currency"])

    def frame(self) -> pd.DataFrame:
        columns = {**self.columns,
                   "difference": pd.Series(self.columns["difference"], dtype=object)}
        return pd.DataFrame(columns, columns=SUMMARY_FRAME_COLUMNS)


SUMMARY_FRAME_COLUMNS = ["citation", "table_key", "dealer", "date", "shift", "severity",
                         "difference", "currency"]


UNDECLARED_KEY = ""  # the group of findings whose table declares no currency (never a code)


# While `summaries_shared`: the summaries made, by content. A context variable, so that two
# sets of outputs made at once (threads, or one within another) never share or end the other's.
_shared: ContextVar[dict[Any, Any] | None] = ContextVar("summaries_shared", default=None)


@contextmanager
def summaries_shared() -> Iterator[None]:
    """Within it, `summary_by` of a frame of the same content and the same column is made
    once: findings.json, summary.csv and the report each count the run's findings by the
    same five columns, fifteen pandas groupbys of which five differ (issue 27). The outputs
    of one run are made within it; nothing changes the findings meanwhile."""
    token = _shared.set({})
    try:
        yield
    finally:
        _shared.reset(token)


def summary_by(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    """Findings counted by `column`, currency and severity, with the money involved: one row
    per key and currency (currency None: undeclared), so no sum adds two currencies. A table
    is counted by its identity (`table_key`), not its ID alone."""
    shared = _shared.get()
    if shared is None:
        return _summary_by(frame, column)
    kept = shared.get(id(frame))  # the frame is kept with its key: its id stays its own
    if kept is None or kept[0] is not frame:
        kept = shared[id(frame)] = (frame, _content(frame))
    key = (column, kept[1])
    table = shared.get(key)
    if table is None:
        table = shared[key] = _summary_by(frame, column)
    return table.copy()  # each caller its own, as when made for it


def _content(frame: pd.DataFrame) -> tuple:
    """What a frame of `summary_frame` holds, comparable: texts as they are, amounts as
    their exact text (1.0 and 1.00 are equal numbers, written apart)."""
    return (tuple(frame.columns), len(frame), *(
        tuple(map(str, frame[name])) if name == "difference" else tuple(frame[name].tolist())
        for name in frame.columns))


def _summary_by(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    source = "table_key" if column == "table" else column
    if frame.empty:
        return pd.DataFrame(columns=[*dict.fromkeys([column, "currency"]), "findings", "high",
                                     "medium", "low", "under_paid", "over_paid"])
    difference = frame["difference"]
    severity = frame["severity"]
    zero = Decimal(0)
    data = pd.DataFrame({
        "key": frame[source].fillna("(none)"),
        "currency": frame["currency"].fillna(UNDECLARED_KEY), "findings": 1,
        "high": severity == "high", "medium": severity == "medium", "low": severity == "low",
        "under_paid": difference.map(lambda d: -d if d is not None and d < 0 else zero,
                                     na_action=None).astype(object),
        "over_paid": difference.map(lambda d: d if d is not None and d > 0 else zero,
                                    na_action=None).astype(object)})
    if column == "currency":
        data = data.drop(columns="key")
    # One sum of every column: the findings, each severity (a count of True), and the
    # money, exactly (Decimal objects), written as exact text (`money.exact_text`).
    keys = ["currency"] if column == "currency" else ["key", "currency"]
    table = data.groupby(keys, sort=False).sum()
    for name in ("under_paid", "over_paid"):
        table[name] = table[name].map(lambda amount: exact_text(Decimal(amount)))
    table = table.reset_index()
    if column != "currency":
        table = table.rename(columns={"key": column})
    # Object, not pandas' text: an undeclared currency stays None (null in JSON), not NaN.
    table["currency"] = pd.Series([c if isinstance(c, str) and c else None
                                   for c in table["currency"]], index=table.index, dtype=object)
    if column == "citation":
        first = table["citation"].map(citation_sort_key)
    elif column == "currency":
        first = pd.Series([()] * len(table), index=table.index)
    else:
        first = table[column].map(lambda key: (key,))
    order = [(*a, *currency_order(b)) for a, b in zip(first, table["currency"], strict=True)]
    table = table.iloc[sorted(range(len(table)), key=order.__getitem__)]
    return table.reset_index(drop=True)
