"""Money in its currency: a night of four currencies (USD, CAD, EUR, MXN) and a table that
declares none. Every finding carries its table's currency, and no output adds two
currencies: every total is per currency, exact."""

from __future__ import annotations

import shutil
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest

from auditor.audit import audit_file
from tests.helpers.currencies import CURRENCY_OF, four_currency_night

# The night's money, each currency apart (the faults the sample logs announce):
# USD: T07 DB21 win over-paid 10, BJS-2 under-paid 10, over-paid 5;
# CAD: T08 under-paid 10 and over-paid 20, BJS-5 over-paid 5 and 50, under-paid 5;
# EUR: T11 surrender under-paid 25, blackjack under-paid 10; MXN: T12 under-paid 25;
# undeclared: T32's ten sticks prize under-paid 250.
TOTALS = {"USD": ("10.00", "15.00", 3), "CAD": ("15.00", "75.00", 5),
          "EUR": ("35.00", "0.00", 2), "MXN": ("25.00", "0.00", 1),
          None: ("250.00", "0.00", 1)}  # under-paid, over-paid, findings with money
FINDINGS = {"USD": 9, "CAD": 12, "EUR": 5, "MXN": 5, None: 6}  # every finding, by currency


@pytest.fixture(scope="module")
def night(tmp_path_factory) -> Path:
    return four_currency_night(tmp_path_factory.mktemp("night") / "in")


def test_every_finding_carries_its_tables_currency(night) -> None:
    for name, currency in CURRENCY_OF.items():
        findings = audit_file(str(night / name), keep_evidence=False).findings
        assert findings, name
        assert {f.currency for f in findings} == {currency}, name
        assert all(f.as_dict()["currency"] == currency for f in findings)


def test_a_finding_without_a_header_has_no_currency(tmp_path) -> None:
    path = tmp_path / "bare.bjh"
    path.write_text("bjh 1\nround 1\n", encoding="utf-8")
    findings = audit_file(str(path), keep_evidence=False).findings
    assert findings and {f.currency for f in findings} == {None}


def test_copying_a_night_keeps_it_apart(tmp_path) -> None:  # the fixture's own check
    folder = four_currency_night(tmp_path / "n")
    assert "currency=MXN" in (folder / "standard-t12-2026-11-21.bjh").read_text("utf-8")
    assert "currency=" not in (folder / "tensticks-t32-2026-11-21.bjh").read_text("utf-8")
    shutil.rmtree(folder)


# ---- every output of the night: per currency, exact, never added ----

def money_holders(value, path="$"):
    """Every object of a JSON document that holds an amount of money, with where it is."""
    if isinstance(value, dict):
        if {"under_paid", "over_paid", "difference"} & set(value):
            yield path, value
        for key, item in value.items():
            yield from money_holders(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from money_holders(item, f"{path}[{index}]")


def per_currency(rows: list[dict], count: str = "money_findings") -> dict:
    return {r["currency"]: (r["under_paid"], r["over_paid"], r[count]) for r in rows}


@pytest.fixture(scope="module")
def audited(night, tmp_path_factory) -> dict:
    """The night audited twice into one store (the second time without the ten sticks
    tables, for `diff`), with its trends."""
    import json

    from auditor.cli import main

    work = tmp_path_factory.mktemp("audited")
    store = str(work / "history.sqlite")
    assert main(["audit", str(night), "--out", str(work / "out"), "--store", store,
                 "--jobs", "1"]) == 1
    later = work / "later"
    shutil.copytree(night, later)
    for path in later.glob("tensticks-*.bjh"):
        path.unlink()
    assert main(["audit", str(later), "--out", str(work / "out2"), "--store", store,
                 "--quiet", "--jobs", "1"]) == 1
    assert main(["trends", "--store", store, "--out", str(work / "trends"), "--quiet"]) in (0, 1)
    return {"work": work, "store": store,
            "json": json.loads((work / "out" / "findings.json").read_text("utf-8")),
            "trends": json.loads((work / "trends" / "trends.json").read_text("utf-8"))}


def test_findings_json_totals_each_currency_apart(audited) -> None:
    document = audited["json"]
    assert per_currency(document["summary"]["currency"], "findings") == {
        c: (u, o, FINDINGS[c]) for c, (u, o, _) in TOTALS.items()}
    # No object of the document holds money without naming its currency.
    holders = list(money_holders(document))
    assert len(holders) > 37
    assert [path for path, holder in holders if "currency" not in holder] == []
    by_citation = {(r["citation"], r["currency"]): (r["under_paid"], r["over_paid"])
                   for r in document["summary"]["citation"]}
    # One citation, two currencies: two rows, never 55.00.
    assert by_citation[("20:18:15:30.09(13)", "CAD")] == ("0.00", "50.00")
    assert by_citation[("20:18:15:30.09(13)", "USD")] == ("0.00", "5.00")
    for dimension in ("table", "dealer", "shift"):
        totals: dict = {}
        for row in document["summary"][dimension]:
            under, over = totals.get(row["currency"], (Decimal(0), Decimal(0)))
            totals[row["currency"]] = (under + Decimal(row["under_paid"]),
                                       over + Decimal(row["over_paid"]))
        assert {c: (f"{u:.2f}", f"{o:.2f}") for c, (u, o) in totals.items()} == {
            c: (u, o) for c, (u, o, _) in TOTALS.items()}, dimension


def test_the_csvs_hold_the_currency_of_every_row(audited) -> None:
    import csv

    out = audited["work"] / "out"
    rows = list(csv.DictReader((out / "summary.csv").open(encoding="utf-8")))
    assert {r["key"]: (r["currency"], r["under_paid"], r["over_paid"])
            for r in rows if r["dimension"] == "currency"} == {
        (c or "undeclared"): (c or "", u, o) for c, (u, o, _) in TOTALS.items()}
    assert [(r["currency"], r["over_paid"]) for r in rows
            if r["dimension"] == "citation" and r["key"] == "20:18:15:30.09(13)"] == [
        ("CAD", "50.00"), ("USD", "5.00")]
    findings = list(csv.DictReader((out / "findings.csv").open(encoding="utf-8")))
    assert {(Path(r["file"]).name, r["currency"]) for r in findings} == {
        (name, currency or "") for name, currency in CURRENCY_OF.items()}


def test_the_terminal_summary_totals_each_currency(audited, night, tmp_path, capsys) -> None:
    from auditor.cli import main

    assert main(["audit", str(night), "--out", str(tmp_path / "o"), "--jobs", "1"]) == 1
    printed = capsys.readouterr().out.splitlines()
    totals = {line.split()[1]: line.split()[2:] for line in printed
              if line.startswith("total ") and not line.split()[1].isdigit()}
    assert totals == {
        "CAD": ["12", "9", "3", "0", "15.00", "CAD", "75.00", "CAD"],
        "EUR": ["5", "4", "0", "1", "35.00", "EUR", "0.00"],
        "MXN": ["5", "2", "3", "0", "25.00", "MXN", "0.00"],
        "USD": ["9", "5", "4", "0", "10.00", "USD", "15.00", "USD"],
        "undeclared": ["6", "3", "3", "0", "250.00", "(undeclared)", "0.00"]}
    total = next(line for line in printed if line.startswith("total "))
    assert total.split() == ["total", "37", "23", "13", "1"]  # counts only: no money sum
    line = next(line for line in printed if line.startswith("20:18:15:30.09(13)"))
    assert line.split()[-4:] == ["50.00", "CAD,", "5.00", "USD"]
    assert "never added across currencies" in "\n".join(printed)


def test_the_report_shows_each_currency_apart(audited) -> None:
    import html
    import re

    page = (audited["work"] / "out" / "report.html").read_text("utf-8")
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page.split(
        '<script type="application/json"')[0])).split())
    assert ("Players were under-paid 15.00 CAD, 35.00 EUR, 25.00 MXN, 10.00 USD, 250.00 "
            "(undeclared) and over-paid 75.00 CAD, 15.00 USD in 12 wrong settlements.") in text
    assert "2 findings over-paid 50.00 CAD, 5.00 USD" in text  # 20:18:15:30.09(13)
    assert "player over-paid 50.00 CAD" in text and "player under-paid 250.00 (undeclared)" in text


def test_trends_total_each_currency_apart(audited) -> None:
    trends = audited["trends"]
    holders = list(money_holders(trends))
    assert [path for path, holder in holders if "currency" not in holder] == []
    # The latest run of each input: the night's tables, the ten sticks ones from the first.
    # Undated findings count on the "(undated)" day (probe P02): T32's undeclared prize too.
    assert per_currency(trends["rates"]["floor"]["money"]) == TOTALS
    page = (audited["work"] / "trends" / "trends.html").read_text("utf-8")
    assert ("over-paid 75.00 CAD, 15.00 USD" in page
            and "under-paid 15.00 CAD, 35.00 EUR, 25.00 MXN, 10.00 USD" in page)


def test_diff_totals_each_currency_apart(audited, capsys) -> None:
    import json

    from auditor.cli import main

    assert main(["diff", "1", "2", "--store", audited["store"], "--json"]) == 0
    difference = json.loads(capsys.readouterr().out)
    assert difference["money"] == {
        "new": [], "persisting": [
            {"currency": c, "money_findings": TOTALS[c][2], "under_paid": TOTALS[c][0],
             "over_paid": TOTALS[c][1]} for c in ("CAD", "EUR", "MXN", "USD")],
        "resolved": [{"currency": None, "money_findings": 1, "under_paid": "250.00",
                      "over_paid": "0.00"}]}
    assert [path for path, holder in money_holders(difference) if "currency" not in holder] == []
    assert main(["diff", "1", "2", "--store", audited["store"]]) == 0
    printed = capsys.readouterr().out
    assert "resolved: players under-paid 250.00 (undeclared), over-paid none" in printed
    assert "(under-paid 250.00 (undeclared))" in printed


def test_trends_money_is_exact_as_in_the_audit(tmp_path) -> None:
    """P16: four blackjacks of 5.05 paid even money owe 7.575 each: under-paid 10.10 in the
    audit and in trends (the store's cents column would give 10.08)."""
    import json

    from auditor.cli import main

    folder = tmp_path / "in"
    folder.mkdir()
    rounds = "".join(f"""\
round {number} time=10:0{number}:00 dealer=D-1
10:0{number}:00 sit s1 player=P-1
10:0{number}:01 bet s1h1 main 5.05
10:0{number}:02 deal s1h1 Ah
10:0{number}:03 deal dealer Td
10:0{number}:04 deal s1h1 Kd
10:0{number}:05 deal dealer 9s
10:0{number}:06 peek
10:0{number}:07 settle s1h1 main win 5.05
10:0{number}:08 reveal
10:0{number}:09 leave s1
end
""" for number in range(1, 5))
    (folder / "t.bjh").write_text(
        'bjh 1\ncasino "Subcent" licence=RL-5\ntable T5 game=standard decks=6 min=5 max=500 '
        "currency=USD\nshoe 1 date=2026-11-21\n09:58:00 shuffle\n09:58:30 cut\n" + rounds,
        encoding="utf-8")
    store = str(tmp_path / "s.sqlite")
    assert main(["audit", str(folder), "--out", str(tmp_path / "o"), "--store", store,
                 "--quiet", "--jobs", "1"]) == 1
    audit = json.loads((tmp_path / "o" / "findings.json").read_text("utf-8"))
    owed = [f for f in audit["findings"] if f["citation"] == "20:18:15:06"]
    assert [f["difference"] for f in owed] == ["-2.525"] * 4
    assert [r["under_paid"] for r in audit["summary"]["citation"]
            if r["citation"] == "20:18:15:06"] == ["10.10"]
    assert main(["trends", "--store", store, "--out", str(tmp_path / "t"), "--quiet"]) in (0, 1)
    trends = json.loads((tmp_path / "t" / "trends.json").read_text("utf-8"))
    citation = next(r for r in trends["rates"]["citation"] if r["key"] == "20:18:15:06")
    assert per_currency(citation["money"]) == {"USD": ("10.10", "0.00", 4)}


def test_a_store_from_before_currencies_takes_each_findings_from_its_input(
        night, store_url, tmp_path) -> None:
    """Migration 0004: a store at revision 0002 (no currency column) opened by this auditor
    gets each finding's currency from its input, and every output of it is per currency."""
    import json

    from alembic import command
    from alembic.config import Config
    from sqlalchemy import select

    from auditor.cli import main
    from auditor.store import open_store, schema
    from auditor.store.engine import MIGRATIONS

    assert main(["audit", str(night), "--out", str(tmp_path / "o"), "--store", store_url,
                 "--quiet", "--jobs", "1"]) == 1
    engine = open_store(store_url)
    with engine.begin() as connection:  # back to the schema before the column
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = connection
        command.downgrade(config, "0002")
    engine.dispose()
    engine = open_store(store_url)  # upgraded again, the column filled from the inputs
    with engine.connect() as connection:
        stored = Counter(connection.execute(select(schema.findings.c.currency)).scalars())
    engine.dispose()
    assert stored == Counter({c: n for c, n in FINDINGS.items()})
    assert main(["trends", "--store", store_url, "--out", str(tmp_path / "t"),
                 "--quiet"]) in (0, 1)
    trends = json.loads((tmp_path / "t" / "trends.json").read_text("utf-8"))
    assert per_currency(trends["rates"]["floor"]["money"]) == TOTALS
