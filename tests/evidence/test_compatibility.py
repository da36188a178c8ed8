"""Folders and stores of earlier versions, checked in (tests/fixtures/, made by
tests/fixtures/make_fixtures.py), read by this auditor: a run folder and a signed case of
manifest format bjh-manifest/1 are verified (as made; this auditor named apart when it is
another build), the run's findings.json makes a case, and a store written by the auditor
of the first schema is upgraded (migration 0001a, then the rest) and read back."""

from __future__ import annotations

import json
import shutil
import sqlite3
from decimal import Decimal
from pathlib import Path

from auditor.cli import main
from auditor.rulebase import rule_base_version
from auditor.verify import verify_folder
from tests.helpers import ROOT
from tests.helpers.old_stores import FIRST_SCHEMA_STORE, first_schema_store

FIXTURES = ROOT / "tests" / "fixtures"
RUN = FIXTURES / "run-manifest-1"
CASE = FIXTURES / "case-manifest-1"
LADIES = "inputs/ladies-t22-2026-11-21.bjh"
STANDARD = "sample_logs/standard-t11-2026-11-20.bjh"  # the first schema store's inputs
DB21 = "sample_logs/db21-t07-2026-11-20.bjh"
# What this auditor, if it is another build, may say of a folder as made: about itself only.
ABOUT_THE_AUDITOR = ("auditor build: ", "rule base: ", "findings: audited again",
                     "  found now: ", "  not found now: ")


def copied(fixture: Path, tmp_path: Path) -> Path:
    copy = tmp_path / fixture.name
    shutil.copytree(fixture, copy, symlinks=True)
    return copy


def recorded_build(folder: Path) -> str:
    return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["build"]["sha256"]


def expected_status(folder: Path, signed: bool) -> int:
    """0 (4 unsigned) from the build that made the fixture; 1 from any other."""
    from auditor.build import build_fingerprint

    if recorded_build(folder) != build_fingerprint():
        return 1
    return 0 if signed else 4


def test_a_run_folder_of_manifest_format_1_verifies_as_made(tmp_path, monkeypatch,
                                                            capsys) -> None:
    folder = copied(RUN, tmp_path)
    monkeypatch.chdir(folder)  # its inputs are named relative to the folder they were audited in
    verdict = verify_folder(Path("."))
    assert verdict.differences == []
    assert all(line.startswith(ABOUT_THE_AUDITOR) for line in verdict.auditor), verdict.auditor
    capsys.readouterr()
    assert main(["verify", "."]) == expected_status(folder, signed=False)
    printed = capsys.readouterr().out.splitlines()
    assert [line for line in printed if line.startswith("DIFFERS")] == [
        f"DIFFERS {line}" for line in verdict.auditor]


def test_an_input_edited_in_an_old_run_folder_is_named(tmp_path, monkeypatch) -> None:
    folder = copied(RUN, tmp_path)
    monkeypatch.chdir(folder)
    record = folder / LADIES
    record.write_bytes(record.read_bytes().replace(b"settle s5 ladies win 60",
                                                   b"settle s5 ladies win 80"))
    verdict = verify_folder(Path("."))
    assert verdict.differences[0] == (f"input {LADIES}: SHA-256 differs (the record was "
                                      "edited)")
    assert main(["verify", "."]) == 1


def test_a_signed_case_of_manifest_format_1_verifies_with_its_key(tmp_path, capsys) -> None:
    folder = copied(CASE, tmp_path)
    key = FIXTURES / "case-manifest-1.pub"
    verdict = verify_folder(folder, key)
    assert (verdict.signature, verdict.differences) == ("good", [])
    assert all(line.startswith(ABOUT_THE_AUDITOR) for line in verdict.auditor), verdict.auditor
    assert main(["verify", str(folder), "--key", str(key)]) == expected_status(CASE, True)
    # One byte of the old manifest changed: the signature no longer holds.
    manifest = folder / "manifest.json"
    manifest.write_bytes(manifest.read_bytes().replace(b'"kind": "case"', b'"kind":  "case"'))
    changed = verify_folder(folder, key)
    assert changed.signature == "bad"
    assert changed.differences[0].startswith("manifest.sig: the signature does not match")


def test_a_case_is_made_from_an_old_findings_json(tmp_path, monkeypatch, capsys) -> None:
    folder = copied(RUN, tmp_path)
    monkeypatch.chdir(folder)
    run = json.loads((folder / "findings.json").read_text(encoding="utf-8"))
    status = main(["case", ".", "--licensee", "RL-0412", "--out", str(tmp_path / "case")])
    if run["auditor"]["rule_base"] != rule_base_version():
        # Another rule base may judge otherwise: the case is refused in one line.
        assert status == 2
        assert capsys.readouterr().err.strip() == (
            f"auditor: the run was audited under rule base {run['auditor']['rule_base']}; "
            f"this auditor's is {rule_base_version()}: audit the inputs again")
        return
    assert status == 0
    case = json.loads((tmp_path / "case" / "findings.json").read_text(encoding="utf-8"))
    assert [(f["line"], f["citation"], f["id"]) for f in case["findings"]] == [
        (f["line"], f["citation"], f["id"]) for f in run["findings"] if f["file"] == LADIES]
    assert [(f["line"], f["citation"]) for f in case["findings"]] == [
        (178, "20:18:15:30.04(4)"), (257, "20:18:15:30.04(3)"), (407, "20:18:15:30.04(5)"),
        (485, "20:18:15:30.04(2)")]


def _schema_of(url: str, tables: tuple[str, ...] = ("findings", "replays")) -> dict:
    """What a store's tables are, column order aside: columns (type, nullable), key,
    indexes and foreign keys."""
    from sqlalchemy import create_engine, inspect

    engine = create_engine(url)
    try:
        inspector = inspect(engine)
        return {table: (
            sorted((c["name"], str(c["type"]), c["nullable"])
                   for c in inspector.get_columns(table)),
            inspector.get_pk_constraint(table)["constrained_columns"],
            sorted((i["name"], tuple(i["column_names"]), bool(i["unique"]))
                   for i in inspector.get_indexes(table)),
            sorted((tuple(k["constrained_columns"]), k["referred_table"],
                    k["options"].get("ondelete")) for k in inspector.get_foreign_keys(table)),
        ) for table in tables}
    finally:
        engine.dispose()


def _sqlite_schema_text(path: Path) -> list[tuple[str, str]]:
    connection = sqlite3.connect(path)
    try:
        return connection.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall()
    finally:
        connection.close()


FIRST_FINDINGS = [  # (file, line, citation, seat, hand, expected, actual, statement)
    (STANDARD, 424, "20:18:15:26", None, None, None, None, None),
    (STANDARD, 455, "20:18:15:30", "s3", "s3h1", Decimal("-25.0"), Decimal("-50.0"), None),
    (STANDARD, 524, "20:18:15:06", "s3", "s3h1", Decimal("30.0"), Decimal("20.0"), None),
    (STANDARD, 567, "20:18:15:23", "s4", "s4h1", None, None, None),
    (STANDARD, 720, "record:syntax", None, None, None, None, None),
    (DB21, 239, "20:18:15:30.10(12)", "s5", None, Decimal("10.0"), Decimal("20.0"), None),
    (DB21, 555, "20:18:15:30.10(8)", "s7", "s7h1", None, None, None),
    (DB21, 559, "20:18:15:30.10(9)", "s5", None, None, None, None),
]


def test_a_store_of_the_first_schema_is_upgraded_and_reads_back_its_run(tmp_path,
                                                                        capsys) -> None:
    """The store as the first schema's auditor wrote it (before 0001 was edited) is brought
    to this auditor's schema (0001a, then the rest) and reads back its run, its findings in
    their order with their money, and its replays, as they were recorded."""
    from auditor.store.engine import HEAD_REVISION, open_store, schema_revision
    from auditor.store.runs import list_runs, load_result

    store = first_schema_store(tmp_path)
    assert main(["runs", "--store", str(store), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(r["id"], r["status"], r["exit_code"], r["inputs"], r["rounds"], r["findings"],
             r["high"], r["medium"], r["low"]) for r in listed] == [
        (1, "finished", 1, 2, 62, 8, 5, 2, 1)]
    assert main(["runs", "show", "1", "--store", str(store), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [i["path"] for i in shown["inputs"]] == [STANDARD, DB21]
    assert (shown["started"], shown["finished"], shown["auditor"]["rule_base"]) == (
        "2026-11-28T02:16:12+00:00", "2026-11-28T02:16:14+00:00", "a527ec811c70")

    engine = open_store(str(store), read_only=True)
    try:
        assert schema_revision(engine) == HEAD_REVISION
        assert [row.id for row in list_runs(engine)] == [1]
        result, _run = load_result(engine, 1)
        assert [(f.file, f.line, f.citation, f.seat, f.hand, f.expected, f.actual, f.statement)
                for f in result.findings] == FIRST_FINDINGS
        # Every replay kept, in input and line order, read back whole as it was recorded.
        original = sqlite3.connect(FIRST_SCHEMA_STORE)
        recorded = {key: json.loads(text) for key, text in original.execute(
            "SELECT round_key, document FROM replays ORDER BY position")}
        original.close()
        assert list(result.evidence) == [
            f"{STANDARD}:391:12", f"{STANDARD}:431:13", f"{STANDARD}:505:15",
            f"{STANDARD}:549:16", f"{DB21}:209:6", f"{DB21}:521:14"]
        assert set(result.evidence) == set(recorded)
        for key, replay in result.evidence.items():
            whole = replay.whole()
            document = recorded[key]
            assert (replay.file, replay.start_line, replay.round_id) == (
                document["file"], document["start_line"], document["round_id"])
            assert whole.lines == [tuple(line) for line in document["lines"]]
            assert sorted(whole.steps) == sorted(int(line) for line in document["steps"])
    finally:
        engine.dispose()
    assert FIRST_SCHEMA_STORE.read_bytes() != store.read_bytes()  # the copy, not the fixture


def test_the_first_schema_store_is_made_as_today_s_first_schema_makes_one(tmp_path) -> None:
    """0001a brings the store the first schema's auditor wrote to the tables today's 0001
    makes (column order aside), with each finding's input, order key and shift filled as
    the recorder fills them."""
    from tests.helpers.old_stores import store_at

    old = first_schema_store(tmp_path)
    store_at(f"sqlite:///{old}", "0001a")
    made = tmp_path / "made.sqlite"
    store_at(f"sqlite:///{made}", "0001a")
    assert _schema_of(f"sqlite:///{old}") == _schema_of(f"sqlite:///{made}")
    connection = sqlite3.connect(old)
    rows = connection.execute("SELECT line, input_position, hex(order_key), shift, statement "
                              "FROM findings ORDER BY position").fetchall()
    connection.close()
    assert rows[:3] == [
        (424, 0, "00000000000001A8" + "32303A31383A31353A3236" + "000000", "swing", None),
        (455, 0, "00000000000001C7" + "32303A31383A31353A3330" + "00" + "7333" + "00"
         + "73336831" + "00", "swing", None),
        (524, 0, "000000000000020C" + "32303A31383A31353A3036" + "00" + "7333" + "00"
         + "73336831" + "00", "swing", None)]
    assert [(line, place, shift) for line, place, _, shift, _ in rows] == [
        (424, 0, "swing"), (455, 0, "swing"), (524, 0, "swing"), (567, 0, "swing"),
        (720, 0, None), (239, 1, "swing"), (555, 1, "swing"), (559, 1, "swing")]


def test_0001a_leaves_a_store_of_today_s_first_schema_as_it_is(tmp_path) -> None:
    from tests.helpers.old_stores import store_at

    store = tmp_path / "today.sqlite"
    store_at(f"sqlite:///{store}", "0001")
    before = [(name, sql) for name, sql in _sqlite_schema_text(store)]
    store_at(f"sqlite:///{store}", "0001a")
    assert _sqlite_schema_text(store) == before


def test_a_store_of_the_first_schema_on_postgresql_is_upgraded(postgres_socket) -> None:
    """The same store on PostgreSQL (its tables and rows as the first schema's auditor left
    them, copied over): 0001a reshapes its replays there too (the old table's key renamed
    out of the way) and the run reads back."""
    from sqlalchemy import MetaData, create_engine

    from auditor.store.engine import HEAD_REVISION, open_store, schema_revision
    from auditor.store.runs import load_result
    from tests.helpers.postgres import create_database

    url = create_database(postgres_socket, "bjh_first_schema")
    old = create_engine(f"sqlite:///{FIRST_SCHEMA_STORE}")
    target = create_engine(url)
    tables = MetaData()
    tables.reflect(old)
    tables.create_all(target)
    with old.connect() as source, target.begin() as connection:
        for table in tables.sorted_tables:
            rows = [dict(row._mapping) for row in source.execute(table.select())]
            if rows:
                connection.execute(table.insert(), rows)
    old.dispose()
    target.dispose()
    engine = open_store(url)
    try:
        assert schema_revision(engine) == HEAD_REVISION
        result, _run = load_result(engine, 1)
        assert [(f.file, f.line, f.citation, f.seat, f.hand, f.expected, f.actual, f.statement)
                for f in result.findings] == FIRST_FINDINGS
        assert [(key, replay.whole().lines[0]) for key, replay in result.evidence.items()] == [
            (f"{STANDARD}:391:12", (391, "round 12 time=20:17:13 dealer=D-2207")),
            (f"{STANDARD}:431:13", (431, "round 13 time=20:19:09 dealer=D-2207")),
            (f"{STANDARD}:505:15", (505, "round 15 time=20:22:26 dealer=D-2207")),
            (f"{STANDARD}:549:16", (549, "round 16 time=20:25:03 dealer=D-2207")),
            (f"{DB21}:209:6", (209, "round 6 time=20:39:04 dealer=D-1188")),
            (f"{DB21}:521:14", (521, "round 14 time=20:51:10 dealer=D-1188"))]
    finally:
        engine.dispose()


def test_0001a_places_a_finding_of_no_input_of_its_run_after_them(tmp_path) -> None:
    """A finding whose file is none of its run's inputs (one made across files) is placed
    after them, as the recorder places it, with the shift of its time."""
    from tests.helpers.old_stores import store_at

    store = first_schema_store(tmp_path)
    connection = sqlite3.connect(store)
    document = {"citation": "20:18:15:30.02(6)", "file": "elsewhere.bjh", "line": 3,
                "seat": None, "hand": None, "time": "23:30:00"}
    with connection:
        connection.execute(
            "INSERT INTO findings (run_id, position, citation, severity, file, line, waived, "
            "document) VALUES (1, 8, '20:18:15:30.02(6)', 'high', 'elsewhere.bjh', 3, 0, ?)",
            (json.dumps(document),))
    connection.close()
    store_at(f"sqlite:///{store}", "0001a")
    connection = sqlite3.connect(store)
    row = connection.execute("SELECT input_position, order_key, shift FROM findings "
                             "WHERE position = 8").fetchone()
    connection.close()
    assert row == (2, (3).to_bytes(8, "big") + b"20:18:15:30.02(6)\0\0\0", "grave")
