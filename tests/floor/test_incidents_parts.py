"""The parts of the incident export (auditor/incidents.py) at their edges, with exact values:
the run chosen, a round's time span, the store's memory of exports past its query chunks,
a pending export published only whole and remembered, and the JSON written as UTF-8."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from sqlalchemy import insert, select

from auditor.incidents import (
    EXPORT,
    FILES,
    PENDING,
    IncidentError,
    _write,
    chosen_run,
    occurred,
    publish_pending,
)
from auditor.store import open_store, schema
from auditor.store.incidents import exported_before


@pytest.fixture
def store(tmp_path: Path):
    engine = open_store(str(tmp_path / "history.sqlite"), new_store=True)
    with engine.begin() as connection:
        for run_id, status in ((1, "finished"), (2, "finished"), (3, "running")):
            connection.execute(insert(schema.runs).values(
                id=run_id, tool_version="test", rule_base="test", command="audit",
                started=f"2026-11-2{run_id}T06:00:00+00:00", status=status, settings="{}",
                document="{}", extras="{}"))
    yield engine
    engine.dispose()


def test_the_run_asked_for_is_the_one_exported(store) -> None:
    assert chosen_run(store, 1) == 1  # an earlier finished run, not the latest
    assert chosen_run(store, None) == 2
    with pytest.raises(IncidentError, match="run 3 did not finish"):
        chosen_run(store, 3)
    with pytest.raises(IncidentError, match="the store has no run 9"):
        chosen_run(store, 9)


def test_a_store_with_no_finished_run_has_none_to_export(tmp_path) -> None:
    engine = open_store(str(tmp_path / "empty.sqlite"), new_store=True)
    try:
        with pytest.raises(IncidentError, match=r"^the store has no finished run to export$"):
            chosen_run(engine, None)
    finally:
        engine.dispose()


def test_an_export_needs_its_folder(tmp_path, capsys) -> None:
    from auditor.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(["incidents", "--store", str(tmp_path / "history.sqlite")])
    assert stopped.value.code == 2
    assert "the following arguments are required: --out" in capsys.readouterr().err


def test_a_round_with_no_date_or_no_time_has_no_span() -> None:
    assert occurred({}) == (None, None)
    assert occurred({"date": "2026-11-20"}) == (None, None)
    assert occurred({"time": "20:00:00"}) == (None, None)
    assert occurred({"date": "2026-11-20", "round_started": "23:59:00",
                     "round_ended": "00:01:00"}) == ("2026-11-20T23:59:00",
                                                     "2026-11-21T00:01:00")


def test_a_round_across_the_repeated_hour_ends_the_same_day() -> None:
    # Denver falls back at 02:00 MDT on 2026-11-01: 01:55 MDT, then 01:05 MST 10 minutes later
    across = {"date": "2026-11-01", "round_started": "01:55:00", "round_ended": "01:05:00"}
    assert occurred(across) == ("2026-11-01T01:55:00", "2026-11-01T01:05:00")
    # the same clock times on another day: the clock put right, never a round of 23 hours
    # (the export said the next day there, and with no zone named on the fall-back date too,
    # where the case's exhibit said the same date)
    assert occurred({**across, "date": "2026-10-31"}) == (
        "2026-10-31T01:55:00", "2026-10-31T01:05:00")
    # a round across midnight of the fall-back day still ends on the next day
    assert occurred({"date": "2026-10-31", "round_started": "23:59:00",
                     "round_ended": "00:01:00"}) == (
        "2026-10-31T23:59:00", "2026-11-01T00:01:00")
    # back more than an hour (01:55, then 00:50) is past midnight: the next day
    assert occurred({**across, "round_ended": "00:50:00"}) == (
        "2026-11-01T01:55:00", "2026-11-02T00:50:00")
    # back exactly an hour is the hour set back; a second more is past midnight
    assert occurred({**across, "round_ended": "00:55:00"})[1] == "2026-11-01T00:55:00"
    assert occurred({**across, "round_ended": "00:54:59"})[1] == "2026-11-02T00:54:59"


def test_every_id_exported_before_is_found_past_the_query_chunks(store) -> None:
    ids = [f"BJH-{number:016X}" for number in range(1203)]
    with store.begin() as connection:
        connection.execute(insert(schema.incident_exports), [
            {"finding_id": i, "run_id": 1, "exported": "mark"} for i in ids])
    with store.connect() as connection:
        # each ID at a chunk's edge (the 500th, 501st, 1001st) among them
        assert exported_before(connection, [*ids, "BJH-NEVER"]) == set(ids)


def _pending(out: Path, files: tuple[str, ...], mark: str, remembered: int) -> Path:
    pending = out / PENDING
    pending.mkdir(parents=True)
    for name in files:
        (pending / name).write_text(f"{name} of the export\n", encoding="utf-8")
    (pending / EXPORT).write_text(json.dumps({"run": 1, "mark": mark,
                                              "remembered": remembered}), encoding="utf-8")
    return pending


def test_a_pending_export_is_published_only_when_remembered(store, tmp_path) -> None:
    with store.begin() as connection:
        connection.execute(insert(schema.incident_exports), [
            {"finding_id": "BJH-1", "run_id": 1, "exported": "remembered-mark"}])
    # whole but never remembered (the store's transaction rolled back): dropped
    out = tmp_path / "never"
    pending = _pending(out, FILES, "another-mark", 1)
    publish_pending(store, out)
    assert not pending.exists() and sorted(p.name for p in out.iterdir()) == []
    # remembered, one file left: the other was published before the cut, this one is now
    out = tmp_path / "half"
    pending = _pending(out, FILES[1:], "remembered-mark", 1)
    publish_pending(store, out)
    assert not pending.exists() and sorted(p.name for p in out.iterdir()) == [FILES[1]]
    assert (out / FILES[1]).read_text(encoding="utf-8") == f"{FILES[1]} of the export\n"
    # neither remembered nor whole: dropped
    out = tmp_path / "torn"
    pending = _pending(out, FILES[:1], "another-mark", 1)
    publish_pending(store, out)
    assert not pending.exists() and sorted(p.name for p in out.iterdir()) == []
    # whole and remembered: published
    out = tmp_path / "whole"
    _pending(out, FILES, "remembered-mark", 1)
    publish_pending(store, out)
    assert sorted(p.name for p in out.iterdir()) == sorted(FILES)
    assert (out / "incidents.json").read_text(encoding="utf-8") == \
        "incidents.json of the export\n"


def test_incidents_json_keeps_the_records_text_as_written(tmp_path) -> None:
    _write(tmp_path, [], {"run": 1, "casino": "Café Ünïcode"})
    text = (tmp_path / "incidents.json").read_text(encoding="utf-8")
    assert '"casino": "Café Ünïcode"' in text
    assert json.loads(text) == {"run": 1, "casino": "Café Ünïcode", "incidents": []}
    # one space a level, as every export before it (a diff of two exports stays a diff)
    assert text == '{\n "run": 1,\n "casino": "Café Ünïcode",\n "incidents": []\n}\n'


def _many_findings(store, run_id: int, count: int) -> list[str]:
    """`count` findings of run `run_id`, as a run records them (their documents as
    findings.json shows them); their IDs."""
    ids = [f"BJH-{number:016X}" for number in range(count)]
    rows = []
    for position, finding_id in enumerate(ids):
        document = {"id": finding_id, "citation": "20:18:15:09", "rule": "payout",
                    "severity": "high", "file": "t1.bjh", "line": position + 1,
                    "message": f"paid wrongly, round {position + 1}"}
        rows.append({"run_id": run_id, "position": position, "input_position": 0,
                     "order_key": position.to_bytes(4, "big"), "finding_id": finding_id,
                     "citation": "20:18:15:09", "severity": "high", "file": "t1.bjh",
                     "line": position + 1, "waived": False, "document": json.dumps(document)})
    with store.begin() as connection:
        connection.execute(insert(schema.findings), rows)
    return ids


def test_more_findings_than_a_chunk_are_each_remembered_once(store, tmp_path) -> None:
    """1001 findings: the store remembers them in chunks of 1000, each once (a row
    remembered twice would break the table's key and lose the export)."""
    from sqlalchemy import select

    from auditor.incidents import Floor, export_incidents

    ids = _many_findings(store, 2, 1001)
    assert export_incidents(store, 2, tmp_path / "out", Floor(), "history") == (1001, 0)
    with store.connect() as connection:
        remembered = connection.execute(select(schema.incident_exports.c.finding_id)
                                        ).scalars().all()
    assert sorted(remembered) == ids
    exported = json.loads((tmp_path / "out" / "incidents.json").read_text(encoding="utf-8"))
    assert [item["incident_id"] for item in exported["incidents"]] == ids
    # exported again to another folder: nothing new
    assert export_incidents(store, 2, tmp_path / "again", Floor(), "history") == (0, 1001)


def test_a_pending_folder_that_cannot_be_removed_does_not_stop_the_export(
        store, tmp_path) -> None:
    """Out/.incidents-pending left as a link to a folder (not removable as a folder): the
    leftover is dropped where it can be and the export goes on, published whole."""
    from auditor.incidents import Floor, export_incidents

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / PENDING).symlink_to(elsewhere, target_is_directory=True)
    ids = _many_findings(store, 2, 2)
    assert export_incidents(store, 2, out, Floor(), "history") == (2, 0)
    exported = json.loads((out / "incidents.json").read_text(encoding="utf-8"))
    assert [item["incident_id"] for item in exported["incidents"]] == ids
    assert (out / "incidents.csv").is_file()


def test_an_export_whose_publication_fails_waits_pending_and_says_so(
        store, tmp_path, capsys) -> None:
    """incidents.json of the folder is a directory: the store remembers the export, the CSV
    is published, the JSON cannot be. The line says the export waits (not that none was
    made), and the JSON is published by the next export to the folder, never dropped."""
    from auditor.cli import main

    ids = _many_findings(store, 2, 2)
    out = tmp_path / "out"
    (out / "incidents.json").mkdir(parents=True)
    (out / "incidents.json" / "keep").write_text("", encoding="utf-8")
    store_path = str(tmp_path / "history.sqlite")
    arguments = ["incidents", "--store", store_path, "--run", "2", "--out", str(out)]
    assert main(arguments) == 2
    pending = out / PENDING
    assert capsys.readouterr().err.splitlines() == [
        f"auditor: {out / 'incidents.json'}: Is a directory: the export is remembered "
        f"and waits in {pending}; the next export to this folder publishes it"]
    with store.connect() as connection:
        assert sorted(exported_before(connection, ids)) == ids
    assert (out / "incidents.csv").is_file() and sorted(p.name for p in pending.iterdir()) \
        == ["export.json", "incidents.json"]
    (out / "incidents.json" / "keep").unlink()
    (out / "incidents.json").rmdir()
    # the next export: nothing new, and the pending one published in its files, not over
    assert main(arguments) == 0
    exported = json.loads((out / "incidents.json").read_text(encoding="utf-8"))
    assert [item["incident_id"] for item in exported["incidents"]] == ids
    assert (out / "incidents.csv").read_text(encoding="utf-8").count("\nBJH-") == 2
    assert not pending.exists()


def test_a_pending_export_goes_into_the_next_exports_files(store, tmp_path) -> None:
    """An export the store remembers, left pending by a kill after the store's commit: the
    next export publishes it and carries its incidents in its own files (which replace the
    folder's), beside the new ones, each once, also with --again."""
    from auditor.incidents import Floor, export_incidents

    first = _many_findings(store, 2, 2)
    out = tmp_path / "out"
    assert export_incidents(store, 2, out, Floor(), "history") == (2, 0)
    exported = (out / "incidents.json").read_text(encoding="utf-8")
    # as a kill between the commit and the renames leaves it
    pending = out / PENDING
    pending.mkdir()
    for name in FILES:
        os.replace(out / name, pending / name)
    with store.connect() as connection:
        mark = connection.execute(select(schema.incident_exports.c.exported)).scalars().first()
    (pending / EXPORT).write_text(json.dumps({"run": 2, "mark": mark, "remembered": 2}),
                                  encoding="utf-8")
    assert json.loads(exported)["incidents"][0]["incident_id"] == first[0]
    assert export_incidents(store, 2, out, Floor(), "history") == (2, 2)
    kept = json.loads((out / "incidents.json").read_text(encoding="utf-8"))
    assert [item["incident_id"] for item in kept["incidents"]] == first
    assert not pending.exists()
    # with --again the run's findings are all written, the recovered ones not twice
    pending.mkdir()
    for name in FILES:
        os.replace(out / name, pending / name)
    (pending / EXPORT).write_text(json.dumps({"run": 2, "mark": mark, "remembered": 2}),
                                  encoding="utf-8")
    assert export_incidents(store, 2, out, Floor(), "history", again=True) == (2, 2)
    kept = json.loads((out / "incidents.json").read_text(encoding="utf-8"))
    assert [item["incident_id"] for item in kept["incidents"]] == first
