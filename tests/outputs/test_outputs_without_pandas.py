"""The summaries and the two CSVs are made in plain Python (issue 27: an audit's outputs do
not import pandas). They must be what pandas made before: here pandas' reading, as the
auditor had it, is the oracle, over a night of four currencies and an undeclared one with
hostile casino names, and over amounts of every exponent and sign."""

from __future__ import annotations

import random
import subprocess
import sys
from decimal import Decimal

import pytest

from auditor.checks.base import citation_sort_key
from auditor.money import currency_label, currency_order, exact_text
from auditor.output.tables import CSV_COLUMNS, MONEY_COLUMNS, _row, summary_csv, to_csv
from auditor.report.frames import (
    SUMMARY_DIMENSIONS,
    SUMMARY_FRAME_COLUMNS,
    RunSummary,
    SummaryColumns,
    identities,
    summary_by,
    summary_frame,
)
from auditor.run import audit_paths
from tests.helpers import ROOT
from tests.helpers.currencies import four_currency_night

pd = pytest.importorskip("pandas")



def pandas_summary_by(columns: SummaryColumns, column: str) -> list[dict]:
    """`summary_by` as a pandas groupby made it before issue 27's fifth pass."""
    frame = pd.DataFrame({**columns.columns, "difference": pd.Series(
        columns.columns["difference"], dtype=object)}, columns=SUMMARY_FRAME_COLUMNS)
    if frame.empty:
        return []
    source = "table_key" if column == "table" else column
    difference, severity, zero = frame["difference"], frame["severity"], Decimal(0)
    data = pd.DataFrame({
        "key": frame[source].fillna("(none)"), "currency": frame["currency"].fillna(""),
        "findings": 1, "high": severity == "high", "medium": severity == "medium",
        "low": severity == "low",
        "under_paid": difference.map(lambda d: -d if d is not None and d < 0 else zero,
                                     na_action=None).astype(object),
        "over_paid": difference.map(lambda d: d if d is not None and d > 0 else zero,
                                    na_action=None).astype(object)})
    if column == "currency":
        data = data.drop(columns="key")
    keys = ["currency"] if column == "currency" else ["key", "currency"]
    table = data.groupby(keys, sort=False).sum()
    for name in ("under_paid", "over_paid"):
        table[name] = table[name].map(lambda amount: exact_text(Decimal(amount)))
    table = table.reset_index()
    if column != "currency":
        table = table.rename(columns={"key": column})
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
    return table.reset_index(drop=True).to_dict("records")


def pandas_findings_csv(findings, inputs) -> str:
    """findings.csv as pandas wrote it before (one part)."""
    identity = identities(inputs)
    rows = []
    for finding in findings:
        row = _row(finding)
        known = identity.get(row["file"])
        rows.append({**row, "casino": None, "licence": None, "table_key": row.get("table"),
                     "currency": None} if known is None else
                    {**row, **known, "table_key": known["table_key"] or row.get("table")})
    frame = pd.DataFrame(rows, columns=[*CSV_COLUMNS, "evidence"])
    for name in MONEY_COLUMNS:
        frame[name] = frame[name].map(Decimal, na_action="ignore").astype(object)
    frame["line"] = frame["line"].astype("Int64")
    frame["column"] = frame["column"].astype("Int64")
    from auditor.gaming_day import shift_shown
    frame["shift"] = pd.Series([shift_shown(f) for f in findings], dtype=object)
    frame = frame[CSV_COLUMNS]
    for name in frame.columns:
        if name not in MONEY_COLUMNS and not pd.api.types.is_numeric_dtype(frame[name]):
            frame[name] = frame[name].map(lambda v: "'" + v if isinstance(v, str) and v.startswith(
                ("=", "+", "-", "@", "\t", "\r")) else v)
    from auditor import shown
    return shown.neutral(frame.to_csv(index=False, lineterminator="\n"))


def pandas_summary_csv(columns: SummaryColumns) -> str:
    names = ["dimension", "key", "currency", "findings", "high", "medium", "low",
             "under_paid", "over_paid"]
    parts = []
    for dimension in SUMMARY_DIMENSIONS:
        records = pandas_summary_by(columns, dimension)
        table = pd.DataFrame(records, columns=[
            *dict.fromkeys([dimension, "currency"]), *names[3:]])
        table["currency"] = pd.Series([r["currency"] for r in records], dtype=object)
        if dimension == "currency":
            table = table.assign(dimension="currency",
                                 key=table["currency"].map(currency_label))
        else:
            table = table.rename(columns={dimension: "key"}).assign(dimension=dimension)
        parts.append(table)
    from auditor import shown
    from auditor.output.tables import spreadsheet_safe

    # the key and currency are text: neutralised as findings.csv's cells (the probe R02)
    return shown.neutral(spreadsheet_safe(pd.concat(parts, ignore_index=True)[names]).to_csv(
        index=False, lineterminator="\n"))


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    folder = four_currency_night(tmp_path_factory.mktemp("night") / "in")
    hostile = folder / "standard-t12-2026-11-21.bjh"
    text = hostile.read_text(encoding="utf-8").replace(
        'casino "Deadwood Example Casino"', 'casino "=cmd|\' /C calc, \\"q\\" \u202eevil"', 1)
    hostile.write_text(text, encoding="utf-8")
    return audit_paths(sorted(str(p) for p in folder.iterdir()), jobs=1)


def test_the_summaries_are_pandas_rows_key_for_key(night) -> None:
    columns = summary_frame(night.findings, night.inputs)
    assert {f.currency for f in night.findings} == {"USD", "CAD", "EUR", "MXN", None}
    for dimension in (*SUMMARY_DIMENSIONS, "date", "severity"):
        assert summary_by(columns, dimension) == pandas_summary_by(columns, dimension)
    assert summary_csv(RunSummary.of(columns)) == pandas_summary_csv(columns)


def test_findings_csv_is_what_pandas_wrote(night) -> None:
    written = "".join(to_csv(night.findings, night.inputs))
    assert "'=cmd|' /C calc, \"\"q\"\" ⟦U+202E⟧evil" in written
    assert written == pandas_findings_csv(night.findings, night.inputs)


def test_amounts_of_any_exponent_add_up_as_pandas_added_them() -> None:
    draw = random.Random(27)
    columns = SummaryColumns()
    amounts = ["0", "0.00", "1E+2", "-1E+1", "2.5", "-2.50", "25.05", "-0.001", "37.5", None]
    for _ in range(400):
        columns.columns["citation"].append(draw.choice(["20:18:15:24", "20:18:15:30.09(4)",
                                                        "record:syntax", "20:18:15:03"]))
        columns.columns["table_key"].append(draw.choice(["RL/T1", "RL/T2", None]))
        columns.columns["dealer"].append(draw.choice(["D-1", "D-2", None, "=D"]))
        columns.columns["date"].append(draw.choice(["2026-11-20", None]))
        columns.columns["shift"].append(draw.choice(["day", "grave", None]))
        columns.columns["severity"].append(draw.choice(["high", "medium", "low"]))
        amount = draw.choice(amounts)
        columns.columns["difference"].append(None if amount is None else Decimal(amount))
        columns.columns["currency"].append(draw.choice(["USD", "CAD", None]))
    for dimension in (*SUMMARY_DIMENSIONS, "date"):
        assert summary_by(columns, dimension) == pandas_summary_by(columns, dimension)
    assert summary_csv(RunSummary.of(columns)) == pandas_summary_csv(columns)
    assert summary_csv(RunSummary.of(SummaryColumns())) == pandas_summary_csv(SummaryColumns())


def test_an_audit_with_every_output_imports_no_pandas(tmp_path) -> None:
    code = ("import sys\nfrom auditor.cli import main\n"
            f"code = main(['audit', {str(ROOT / 'sample_logs')!r}, '--out', "
            f"{str(tmp_path / 'out')!r}, '--store', {str(tmp_path / 's.sqlite')!r}, "
            "'--quiet', '--jobs', '1'])\n"
            "print(code, 'pandas' in sys.modules, 'numpy' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path, timeout=300)
    assert done.stdout.split() == ["1", "False", "False"], done.stderr[-2000:]
    assert (tmp_path / "out" / "summary.csv").read_text().startswith("dimension,key,")
