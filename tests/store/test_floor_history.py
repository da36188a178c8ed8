"""One floor history (auditor/store_location.py): with no --store, every command reads and
writes one store outside --out: $BJH_STORE, else the settings' `store`, else
$XDG_DATA_HOME/bjh-auditor/floor.sqlite (XDG_DATA_HOME is a folder of the test's own:
tests/conftest.py). A store an older auditor kept in --out is named, never used silently."""

from __future__ import annotations

import json
from pathlib import Path

from auditor.cli import main
from tests.helpers import ROOT
from tests.helpers.audits import audit

RECORD = ROOT / "sample_logs" / "standard-t11-2026-11-20.bjh"
OTHER = ROOT / "sample_logs" / "standard-t12-2026-11-21.bjh"


def default_of(floor_history: Path) -> Path:
    return floor_history / "bjh-auditor" / "floor.sqlite"




def runs(capsys, *more: str) -> list[dict]:
    capsys.readouterr()
    assert main(["runs", "--json", *more]) == 0
    return json.loads(capsys.readouterr().out)


def test_dated_out_folders_share_the_default_store(floor_history, tmp_path, capsys):
    """Two nights into two dated --out folders, no --store: one history, made on first
    use, each audit saying its run number; every reading command finds it unasked."""
    store = default_of(floor_history)
    assert not floor_history.exists()
    for night, record in enumerate((RECORD, OTHER), start=1):
        capsys.readouterr()
        assert audit(record, out=tmp_path / f"2026-11-2{night}", quiet=False) == 1
        assert f"auditor: run {night} recorded in {store}" in \
            capsys.readouterr().err.splitlines()
        assert not (tmp_path / f"2026-11-2{night}" / "history.sqlite").exists()
    assert store.is_file()
    assert [(r["id"], r["status"]) for r in runs(capsys)] == [(1, "finished"), (2, "finished")]
    assert main(["diff", "1", "2", "--json"]) == 0
    patterns = json.loads(capsys.readouterr().out)["patterns"]
    assert patterns and all(set(p["counts"]) == {"1", "2"} for p in patterns)
    assert main(["report", "2", "--out", str(tmp_path / "again")]) == 0
    assert (tmp_path / "again" / "findings.json").read_bytes() == \
        (tmp_path / "2026-11-22" / "findings.json").read_bytes()
    assert main(["trends", "--out", str(tmp_path / "trends"), "--quiet"]) in (0, 1)
    assert json.loads((tmp_path / "trends" / "trends.json").read_text())
    assert main(["incidents", "--out", str(tmp_path / "incidents"), "--quiet"]) == 0
    exported = json.loads((tmp_path / "incidents" / "incidents.json").read_text())
    night2 = json.loads((tmp_path / "2026-11-22" / "findings.json").read_text())["findings"]
    assert exported["run"] == 2 and exported["store"] == str(store)
    assert sorted(i["incident_id"] for i in exported["incidents"]) == sorted(
        f["id"] for f in night2)


def test_bjh_store_then_the_settings_then_the_default(floor_history, tmp_path, capsys,
                                                      monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "floor").mkdir()
    (tmp_path / "bjh-auditor.toml").write_text('store = "floor/settings.sqlite"\n',
                                               encoding="utf-8")
    capsys.readouterr()
    assert audit(RECORD, out=tmp_path / "o1") == 1
    assert (tmp_path / "floor" / "settings.sqlite").is_file()
    assert not floor_history.exists()
    monkeypatch.setenv("BJH_STORE", str(tmp_path / "floor" / "env.sqlite"))
    assert audit(RECORD, out=tmp_path / "o2") == 1  # the environment wins
    assert [r["id"] for r in runs(capsys)] == [1]
    assert (tmp_path / "floor" / "env.sqlite").is_file()
    assert audit(RECORD, out=tmp_path / "o3",  # --store wins over both
                 store=tmp_path / "floor" / "flag.sqlite") == 1
    assert [r["id"] for r in runs(capsys, "--store", str(tmp_path / "floor" / "flag.sqlite"))
            ] == [1]
    monkeypatch.delenv("BJH_STORE")
    assert [r["id"] for r in runs(capsys)] == [1]  # the settings' store, read by `runs`
    assert [r["id"] for r in runs(capsys, "--config", str(tmp_path / "bjh-auditor.toml"))
            ] == [1]
    assert not floor_history.exists()  # no command fell back to the default


def test_a_named_store_in_a_missing_folder_is_refused_the_default_is_made(
        floor_history, tmp_path, capsys, monkeypatch):
    missing = tmp_path / "no-such-folder" / "floor.sqlite"
    monkeypatch.setenv("BJH_STORE", str(missing))
    capsys.readouterr()
    assert audit(RECORD, out=tmp_path / "out") == 2
    error = capsys.readouterr().err
    assert error == (f"auditor: store {missing}: the folder {missing.parent} does not exist "
                     "(give --new-store to start a new store there)\n")
    assert not missing.parent.exists()
    monkeypatch.delenv("BJH_STORE")
    assert audit(RECORD, out=tmp_path / "out") == 1  # the default's folder is made
    assert default_of(floor_history).is_file()


def test_a_store_named_in_the_audits_own_out_folder_is_made_with_it(
        floor_history, tmp_path, capsys, monkeypatch):
    """`--out o` with the store named `o/history.sqlite` (by --store or BJH_STORE, relative
    to the working folder: the older layout, kept by scripts) needs no --new-store: the audit
    makes o/ anyway. A sibling folder is still refused."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BJH_STORE", "o/history.sqlite")
    capsys.readouterr()
    assert main(["audit", str(RECORD), "--out", "o", "--jobs", "1", "--quiet"]) == 1
    assert (tmp_path / "o" / "history.sqlite").is_file()
    assert not default_of(floor_history).exists()
    assert [r["id"] for r in runs(capsys, "--store", "o/history.sqlite")] == [1]
    capsys.readouterr()
    assert main(["audit", str(RECORD), "--out", "p", "--store", "q/history.sqlite",
                 "--jobs", "1", "--quiet"]) == 2
    assert capsys.readouterr().err == (
        f"auditor: store q/history.sqlite: the folder {tmp_path / 'q'} does not exist "
        "(give --new-store to start a new store there)\n")
    assert not (tmp_path / "q").exists()


def test_xdg_data_home_not_absolute_means_the_home_folder(tmp_path, monkeypatch):
    from auditor.store_location import default_store

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for value in ("", "relative/data"):
        monkeypatch.setenv("XDG_DATA_HOME", value)
        assert default_store() == str(tmp_path / "home" / ".local" / "share" / "bjh-auditor"
                                      / "floor.sqlite")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_store() == str(tmp_path / "data" / "bjh-auditor" / "floor.sqlite")


def test_an_old_store_in_out_is_named_and_left_alone(floor_history, tmp_path, capsys):
    """An older auditor kept OUT/history.sqlite: the audit says, in one line, even with
    --quiet, that this run goes to the floor history instead, and how to keep the old."""
    out = tmp_path / "reports"
    out.mkdir()
    old = out / "history.sqlite"
    assert audit(RECORD, out=out, store=str(old)) == 1
    before = old.read_bytes()
    capsys.readouterr()
    assert audit(OTHER, out=out) == 1
    store = default_of(floor_history)
    assert capsys.readouterr().err.splitlines() == [
        f"auditor: {old} is a run store an older auditor kept in --out; this run is recorded "
        f"in the floor history {store} instead (give --store {old}, or set `store` in the "
        "settings, to go on adding to the old one)"]
    assert old.read_bytes() == before
    assert [r["inputs"] for r in runs(capsys)] == [1]
    capsys.readouterr()
    assert audit(OTHER, out=out, store=str(old)) == 1  # named: no word
    assert capsys.readouterr().err == ""


def test_reading_the_missing_default_names_the_old_reports_store(floor_history, tmp_path,
                                                                 capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    store = default_of(floor_history)
    capsys.readouterr()
    assert main(["runs"]) == 2
    assert capsys.readouterr().err == f"auditor: no run store at {store}\n"
    (tmp_path / "reports").mkdir()
    assert audit(RECORD, out=tmp_path / "reports", store="reports/history.sqlite") == 1
    hint = (f"auditor: no run store at {store} (an older auditor's store is at "
            "reports/history.sqlite: give --store reports/history.sqlite, or set BJH_STORE or "
            "the settings' `store`)\n")
    for command in (["runs"], ["diff", "1", "1"], ["trends", "--out", "t", "--quiet"],
                    ["incidents", "--out", "i", "--quiet"]):
        capsys.readouterr()
        assert main(command) == 2, command
        assert capsys.readouterr().err == hint, command
    capsys.readouterr()
    assert main(["case", "1", "--licensee", "RL-0412", "--out", "case"]) == 2
    assert capsys.readouterr().err == hint
    assert not store.exists()  # reading never makes a store


def test_a_broken_settings_file_is_one_line_for_the_reading_commands(tmp_path, capsys,
                                                                     monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bjh-auditor.toml").write_text('store = ""\n', encoding="utf-8")
    capsys.readouterr()
    assert main(["runs"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("auditor: settings: ") and "`store`: must not be empty" in error
    assert len(error.splitlines()) == 1
    monkeypatch.setenv("BJH_STORE", str(tmp_path / "none.sqlite"))  # decides: no settings read
    assert main(["runs"]) == 2
    assert capsys.readouterr().err == f"auditor: no run store at {tmp_path / 'none.sqlite'}\n"


def test_make_audit_keeps_its_store_in_reports():
    """`make audit` (the README's try-it command) never writes the user's floor history."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if "auditor audit sample_logs" in line)
    assert "--store reports/history.sqlite" in line
