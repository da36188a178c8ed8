"""Money in its currency: a night of four currencies (USD, CAD, EUR, MXN) and a table that
declares none. Every finding carries its table's currency, and no output adds two
currencies: every total is per currency, exact."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from auditor.audit import audit_file

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
# The sample logs all declare USD (ten sticks none): four of them are moved to other money.
CURRENCY_OF = {"db21-t07-2026-11-20.bjh": "USD", "db21-t08-2026-11-21.bjh": "CAD",
               "standard-t11-2026-11-20.bjh": "EUR", "standard-t12-2026-11-21.bjh": "MXN",
               "switch-bjs2-evening.bjh": "USD", "switch-bjs5-late.bjh": "CAD",
               "tensticks-t31-2026-11-20.bjh": None, "tensticks-t32-2026-11-21.bjh": None}
# The night's money, each currency apart (the faults the sample logs announce):
# USD: T07 DB21 win over-paid 10, BJS-2 under-paid 10, over-paid 5;
# CAD: T08 under-paid 10 and over-paid 20, BJS-5 over-paid 5 and 50, under-paid 5;
# EUR: T11 surrender under-paid 25, blackjack under-paid 10; MXN: T12 under-paid 25;
# undeclared: T32's ten sticks prize under-paid 250.
TOTALS = {"USD": ("10.00", "15.00", 3), "CAD": ("15.00", "75.00", 5),
          "EUR": ("35.00", "0.00", 2), "MXN": ("25.00", "0.00", 1),
          None: ("250.00", "0.00", 1)}


def four_currency_night(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, currency in CURRENCY_OF.items():
        text = (SAMPLES / name).read_text(encoding="utf-8")
        if currency != "USD":
            text = text.replace("currency=USD", f"currency={currency}" if currency else "")
        (folder / name).write_text(text, encoding="utf-8")
    return folder


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
