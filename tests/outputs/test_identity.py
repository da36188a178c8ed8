"""Who was audited: the licensee, each table's game, limits, currency and house rules in
findings.json and the CSVs; a table known by its licence (or casino) and ID, so equal table
IDs of two casinos never merge; and the command line's summary in a log."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from auditor.cli import main
from tests.helpers.report_records import faulty_record

OTHER = ('casino "Report Casino" licence=RL-0042', 'casino "River Casino" licence=RL-0977')


@pytest.fixture(scope="module")
def audited(tmp_path_factory) -> Path:
    """The same record at two casinos: table T12 of each, and a copy without a licence."""
    folder = tmp_path_factory.mktemp("logs")
    record = faulty_record(note="n", player="P-500")
    (folder / "a.bjh").write_text(record, encoding="utf-8")
    (folder / "b.bjh").write_text(record.replace(*OTHER), encoding="utf-8")
    (folder / "c.bjh").write_text(record.replace(OTHER[0], 'casino "Lodge"'), encoding="utf-8")
    out = tmp_path_factory.mktemp("out")
    assert main(["audit", str(folder), "--out", str(out), "--quiet", "--jobs", "1"]) == 1
    return out


def test_each_input_names_its_licensee_table_and_house_rules(audited) -> None:
    inputs = json.loads((audited / "findings.json").read_text("utf-8"))["inputs"]
    first = inputs[0]
    assert {key: first[key] for key in ("casino", "licence", "table", "table_key", "game",
                                        "decks", "seats", "minimum", "maximum", "currency")} == {
        "casino": "Report Casino", "licence": "RL-0042", "table": "T12",
        "table_key": "RL-0042/T12", "game": "standard", "decks": 6, "seats": 7,
        "minimum": "10", "maximum": "500", "currency": None}
    # Declared rules as declared, the others with the default the auditor applied.
    assert first["house_rules"] == {"soft17": "stand", "peek": "yes", "blackjack": "3:2",
                                    "double": "any", "das": "yes", "splits": "3",
                                    "surrender": "no"}
    assert [i["table_key"] for i in inputs] == ["RL-0042/T12", "RL-0977/T12", "Lodge/T12"]


def test_equal_table_ids_of_two_casinos_never_merge(audited) -> None:
    findings = json.loads((audited / "findings.json").read_text("utf-8"))["findings"]
    per_file = len(findings) // 3
    assert [f["table_key"] for f in findings] == (["RL-0042/T12"] * per_file
                                                  + ["RL-0977/T12"] * per_file
                                                  + ["Lodge/T12"] * per_file)
    rows = list(csv.DictReader(io.StringIO((audited / "summary.csv").read_text("utf-8"))))
    tables = {r["key"]: int(r["findings"]) for r in rows if r["dimension"] == "table"}
    assert tables == {"RL-0042/T12": per_file, "RL-0977/T12": per_file, "Lodge/T12": per_file}
    rows = list(csv.DictReader(io.StringIO((audited / "findings.csv").read_text("utf-8"))))
    assert {(r["casino"], r["licence"], r["table"], r["table_key"]) for r in rows} == {
        ("Report Casino", "RL-0042", "T12", "RL-0042/T12"),
        ("River Casino", "RL-0977", "T12", "RL-0977/T12"),
        ("Lodge", "", "T12", "Lodge/T12")}


def test_the_report_names_the_licensees_and_keeps_the_tables_apart(audited) -> None:
    page = (audited / "report.html").read_text("utf-8")
    masthead = page.split('<header class="masthead">')[1].split("</header>")[0]
    assert "<strong>Report Casino</strong>, licence <strong>RL-0042</strong>" in masthead
    assert "<strong>River Casino</strong>, licence <strong>RL-0977</strong>" in masthead
    assert '<strong>Lodge</strong>, <span class="warn">no licence declared</span>' in masthead
    for key in ("RL-0042/T12", "RL-0977/T12", "Lodge/T12"):
        assert f'<option value="{key}"></option>' in page  # the table filter's list
        assert f'data-filter="table" data-value="{key}"' in page  # the by-table summary
    assert len(re.findall(r'<tr class="in-scope" data-in="\d+"><th scope="row">T12</th>', page)
               ) == 3  # who was audited: three tables


def test_the_summary_in_a_log_gives_totals_and_currency_and_cuts_no_header(audited, capsys,
                                                                           tmp_path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    record = faulty_record(note="n", player="P-500").replace(
        "table T12 game=standard decks=6 min=10 max=500",
        "table T12 game=standard decks=6 min=10 max=500 currency=USD")
    (folder / "a.bjh").write_text(record, encoding="utf-8")
    assert main(["audit", str(folder), "--out", str(tmp_path / "out"), "--jobs", "1"]) == 1
    printed = capsys.readouterr().out.splitlines()
    header = next(line for line in printed if line.startswith("citation"))
    assert header.split() == ["citation", "findings", "high", "medium", "low", "under-paid",
                              "over-paid"]
    total = next(line for line in printed if line.startswith("total"))
    assert total.split() == ["total", "5", "5", "0", "0", "10.00", "USD", "1,240.00", "USD"]
    assert "Amounts in USD." in printed
    assert "…" not in "\n".join(printed)


def test_audit_help_explains_paths_and_exit_codes(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["audit", "--help"])
    printed = capsys.readouterr().out
    assert "every *.bjh file under it" in " ".join(printed.split())  # however it wraps
    for code in ("0  no findings", "1  findings", "2  an input could not be read",
                 "3  the auditor itself failed"):
        assert code in printed


def test_the_report_names_a_house_rule_the_header_leaves_unknown(tmp_path: Path) -> None:
    """A rule given a value it cannot take is judged under each value it could hold: the
    report's table says so with the header's words (escaped), never leaves it out as if
    the table had no such rule (findings.json's `unknown_rules` records it)."""
    from tests.helpers.gaming_day_records import record

    folder = tmp_path / "logs"
    folder.mkdir()
    night = record([("2026-11-20", "21:00")]).replace(
        "option soft17=hit\n", "option soft17=hit\noption blackjack=<b>7:5</b>\n")
    (folder / "night.bjh").write_text(night, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["audit", str(folder), "--out", str(out), "--quiet", "--store",
                 str(tmp_path / "h.sqlite")]) == 1
    (summary,) = json.loads((out / "findings.json").read_text(encoding="utf-8"))["inputs"]
    assert summary["unknown_rules"] == {
        "blackjack": "set to <b>7:5</b> at line 5, a value it cannot take"}
    html = (out / "report.html").read_text(encoding="utf-8")
    cell = re.search(r'<td class="rules">(.*?)</td>', html, re.S).group(1)
    assert "<b>7:5</b>" not in cell
    assert " ".join(re.sub(r"<[^>]+>", " ", cell).split()) == (
        "soft17 hit, surrender late unknown, judged under each value it could hold: "
        "blackjack (set to &lt;b&gt;7:5&lt;/b&gt; at line 5, a value it cannot take) not "
        "declared, judged under the defaults: peek yes, double any, das yes, splits 3")
