"""`auditor incidents`: a run's findings as incidents, each exported once, with the camera of
the settings file, the round's local times, gaming day and shift, people and currency."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from auditor.cli import main
from tests.helpers.midnight_records import NEXT, RECORD

SETTINGS = '[cameras]\n"RL-9/T4" = "CAM-104"\n"RL-9/T5" = "CAM-105"\n'


def rows(folder: Path) -> list[dict[str, str]]:
    with (folder / "incidents.csv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def audited_ids(out: Path) -> list[str]:
    document = json.loads((out / "findings.json").read_text(encoding="utf-8"))
    return [f["id"] for f in document["findings"]]


def test_each_finding_is_one_incident_once_across_exports(tmp_path, store_url, capsys):
    config = tmp_path / "bjh-auditor.toml"
    config.write_text(SETTINGS, encoding="utf-8")
    first, second = tmp_path / "records" / "t4-1122.bjh", tmp_path / "records" / "t4-1123.bjh"
    first.parent.mkdir()
    first.write_text(RECORD, encoding="utf-8")
    out1 = tmp_path / "out1"
    assert main(["audit", str(first), "--out", str(out1), "--store", store_url, "--quiet",
                 "--jobs", "1"]) == 1
    export = ["incidents", "--store", store_url, "--config", str(config), "--quiet"]
    assert main([*export, "--out", str(tmp_path / "a")]) == 0
    assert capsys.readouterr().out == ""  # --quiet: nothing said
    exported = rows(tmp_path / "a")
    assert [r["finding_id"] for r in exported] == audited_ids(out1)
    report = "../out1/report.html"  # where the audit wrote it, from the export folder
    assert [(r["type"], r["line"], r["licensee"], r["table"], r["camera"], r["occurred_start"],
             r["occurred_end"], r["gaming_day"], r["shift"], r["dealer"], r["player"],
             r["seat"], r["difference"], r["currency"], r["evidence"])
            for r in exported] == [
        ("20:18:15:06", "18", "RL-9", "T4", "CAM-104", "2026-11-22T23:50:00",
         "2026-11-22T23:50:10", "2026-11-22", "grave", "D-1", "P-1", "s1", "10.00", "USD",
         f"{report}#finding-{exported[0]['finding_id']}"),
        ("20:18:15:06", "29", "RL-9", "T4", "CAM-104", "2026-11-23T00:30:00",
         "2026-11-23T00:30:09", "2026-11-22", "grave", "D-1", "P-1", "s1", "10.00", "USD",
         f"{report}#finding-{exported[1]['finding_id']}"),
        ("20:18:15:06", "40", "RL-9", "T4", "CAM-104", "2026-11-23T06:10:00",
         "2026-11-23T06:10:09", "2026-11-23", "day", "D-2", "P-1", "s1", "10.00", "USD",
         f"{report}#finding-{exported[2]['finding_id']}")]
    document = json.loads((tmp_path / "a" / "incidents.json").read_text(encoding="utf-8"))
    assert document["run"] == 1
    assert [i["finding_id"] for i in document["incidents"]] == audited_ids(out1)
    assert document["incidents"][0]["amounts"] == {
        "expected": "20.00", "actual": "30.00", "difference": "10.00", "currency": "USD"}
    assert document["incidents"][0]["synopsis"].startswith("The main wager on s1h1 was paid")

    # Exported again: nothing (said, without --quiet). The next night, audited with the
    # first again: only its own.
    capsys.readouterr()
    assert main([part for part in export if part != "--quiet"] +
                ["--out", str(tmp_path / "b")]) == 0
    assert capsys.readouterr().out == (f"run 1: 0 incident(s) written to {tmp_path / 'b'} "
                                       "(3 exported before)\n")
    assert rows(tmp_path / "b") == []
    second.write_text(NEXT, encoding="utf-8")
    out2 = tmp_path / "out2"
    assert main(["audit", str(first.parent), "--out", str(out2), "--store", store_url,
                 "--quiet", "--jobs", "1"]) == 1
    assert main([*export, "--out", str(tmp_path / "c")]) == 0
    later = rows(tmp_path / "c")
    assert set(audited_ids(out2)) == set(audited_ids(out1)) | {r["finding_id"] for r in later}
    assert [(r["line"], r["occurred_start"], r["occurred_end"], r["gaming_day"], r["shift"],
             r["dealer"], r["player"], r["camera"], r["currency"]) for r in later] == [
        ("18", "2026-11-23T23:59:50", "2026-11-24T00:00:04", "2026-11-23", "grave", "D-3",
         "P-2", "CAM-104", "USD")]
    # An earlier run asked for by number: its incidents are all exported already.
    assert main([*export, "--run", "1", "--out", str(tmp_path / "d")]) == 0
    assert rows(tmp_path / "d") == []
    capsys.readouterr()
    assert main([*export, "--run", "7", "--out", str(tmp_path / "e")]) == 2
    assert capsys.readouterr().err == "auditor: the store has no run 7\n"


def test_a_missing_store_is_refused(tmp_path, capsys) -> None:
    missing = tmp_path / "none.sqlite"
    assert main(["incidents", "--store", str(missing), "--out", str(tmp_path / "x")]) == 2
    assert capsys.readouterr().err == f"auditor: no run store at {missing}\n"
    assert not missing.exists()


def test_migration_0006_down_and_up_keeps_the_exports_table_and_long_shift_names(
        tmp_path, store_url) -> None:
    """A store at 0004 (before incident_exports) is upgraded when incidents are exported;
    shift names longer than eight characters are kept on PostgreSQL too."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import inspect, select

    from auditor.store import open_store, schema
    from auditor.store.engine import MIGRATIONS

    record = tmp_path / "night.bjh"
    record.write_text(RECORD, encoding="utf-8")
    config_file = tmp_path / "bjh-auditor.toml"
    config_file.write_text('[shifts]\ngraveyard = "22:00-06:00"\ndaylight = "06:00-22:00"\n',
                           encoding="utf-8")
    engine = open_store(store_url)
    with engine.begin() as connection:  # back to the schema before 0006
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = connection
        command.downgrade(config, "0004")
    assert "incident_exports" not in inspect(engine).get_table_names()
    engine.dispose()
    assert main(["audit", str(record), "--out", str(tmp_path / "o"), "--store", store_url,
                 "--config", str(config_file), "--quiet", "--jobs", "1"]) == 1
    engine = open_store(store_url)
    with engine.connect() as connection:
        shifts = list(connection.execute(select(schema.findings.c.shift)
                                          .order_by(schema.findings.c.line)).scalars())
    engine.dispose()
    assert shifts == ["graveyard", "graveyard", "daylight"]
    assert main(["incidents", "--store", store_url, "--out", str(tmp_path / "x"),
                 "--quiet"]) == 0
    assert [r["shift"] for r in rows(tmp_path / "x")] == ["graveyard", "graveyard", "daylight"]


def _audited(tmp_path: Path) -> tuple[str, list[str]]:
    """RECORD audited into a SQLite store: the store and its finding IDs."""
    record = tmp_path / "records" / "t4-1122.bjh"
    record.parent.mkdir()
    record.write_text(RECORD, encoding="utf-8")
    store, out = str(tmp_path / "history.sqlite"), tmp_path / "out"
    assert main(["audit", str(record), "--out", str(out), "--store", store, "--quiet",
                 "--jobs", "1"]) == 1
    return store, audited_ids(out)


def test_a_full_disk_exports_nothing_and_remembers_nothing(tmp_path, capsys) -> None:
    """The out folder on a tmpfs too small for incidents.json: nothing is published, the
    store remembers nothing, and the next export, with room, sends each incident once."""
    import os
    import subprocess

    import pytest

    store, ids = _audited(tmp_path)
    small = tmp_path / "small"
    small.mkdir()
    if os.geteuid() != 0:
        pytest.skip("a full disk is made with a tmpfs, which needs root")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4k", "tmpfs", str(small)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"no tmpfs can be mounted here: {mounted.stderr.strip()}")
    try:
        (small / "filler").write_bytes(b"x" * 3000)  # the CSV fits, the JSON does not
        capsys.readouterr()
        assert main(["incidents", "--store", store, "--out", str(small / "inc")]) == 2
        said = capsys.readouterr().err
        assert "No space left on device: no incident was exported or remembered" in said
        assert sorted(p.name for p in (small / "inc").iterdir()) == []
    finally:
        subprocess.run(["umount", str(small)], check=True)
    assert main(["incidents", "--store", store, "--out", str(tmp_path / "room"),
                 "--quiet"]) == 0
    assert [r["finding_id"] for r in rows(tmp_path / "room")] == ids


def _left_pending(folder: Path, mark: str, remembered: int) -> None:
    """The state an export killed after the store's commit leaves: its files whole in the
    pending folder, not yet renamed into place."""
    from auditor.incidents import EXPORT, FILES, PENDING

    pending = folder / PENDING
    pending.mkdir()
    for name in FILES:
        (folder / name).rename(pending / name)
    (pending / EXPORT).write_text(json.dumps({"run": 1, "mark": mark,
                                              "remembered": remembered}), encoding="utf-8")


def test_an_export_killed_after_the_store_remembered_it_is_published_next(tmp_path) -> None:
    from sqlalchemy import create_engine, text

    store, ids = _audited(tmp_path)
    folder = tmp_path / "inc"
    assert main(["incidents", "--store", store, "--out", str(folder), "--quiet"]) == 0
    engine = create_engine(f"sqlite:///{store}")
    with engine.connect() as connection:
        marks = set(connection.execute(text("select exported from incident_exports")).scalars())
    engine.dispose()
    assert len(marks) == 1
    _left_pending(folder, marks.pop(), len(ids))
    assert not (folder / "incidents.csv").exists()
    # the next export to the folder publishes the pending one first, and carries its
    # incidents in its own files (nothing new besides): written over, they would be lost
    assert main(["incidents", "--store", store, "--out", str(folder), "--quiet"]) == 0
    assert [r["finding_id"] for r in rows(folder)] == ids
    assert not (folder / ".incidents-pending").exists()
    # and the export after that, nothing pending: nothing new
    assert main(["incidents", "--store", store, "--out", str(folder), "--quiet"]) == 0
    assert rows(folder) == []


def test_an_export_killed_before_the_store_remembered_it_never_leaves(tmp_path) -> None:
    store, ids = _audited(tmp_path)
    folder = tmp_path / "inc"
    assert main(["incidents", "--store", store, "--out", str(folder), "--quiet"]) == 0
    _left_pending(folder, "2026-11-28T00:00:00.000000+00:00/dead", len(ids))
    # ... and a fresh store that never exported them: the pending files are dropped
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    store2, _ = _audited(fresh)
    assert main(["incidents", "--store", store2, "--out", str(folder), "--quiet"]) == 0
    assert [r["finding_id"] for r in rows(folder)] == ids  # exactly once, by this export


def test_again_exports_a_lost_folder_and_remembers_nothing_more(tmp_path, capsys) -> None:
    store, ids = _audited(tmp_path)
    assert main(["incidents", "--store", store, "--out", str(tmp_path / "a"), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["incidents", "--store", store, "--out", str(tmp_path / "b"), "--again"]) == 0
    assert "3 incident(s) written" in capsys.readouterr().out
    assert [r["finding_id"] for r in rows(tmp_path / "b")] == ids
    document = json.loads((tmp_path / "b" / "incidents.json").read_text(encoding="utf-8"))
    assert document["again"] is True
    assert main(["incidents", "--store", store, "--out", str(tmp_path / "c"), "--quiet"]) == 0
    assert rows(tmp_path / "c") == []
