"""A new SQLite run store is its owner's alone, whatever the umask: the default store's
folders that the audit makes are 0700 (as the XDG base directory specification asks),
the store file and its -wal and -shm files 0600; a store named by the user is made 0600
too. Folders and files that exist are left as they are. Real audits, real SQLite files."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from auditor.store import open_store
from tests.helpers import ROOT
from tests.helpers.audits import audit

RECORD = ROOT / "sample_logs" / "tensticks-t32-2026-11-21.bjh"


@pytest.fixture(params=[0o022, 0o002, 0o000], ids=["umask022", "umask002", "umask000"])
def umask(request) -> Iterator[int]:
    old = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(old)


def mode(path: Path) -> str:
    return oct(stat.S_IMODE(path.stat().st_mode))




def modes_while_open(store: Path) -> dict[str, str]:
    """The store's files and their modes while a writer holds it (WAL: -wal and -shm
    are there only then)."""
    engine = open_store(str(store))
    try:
        with engine.begin() as connection:
            connection.execute(text("CREATE TABLE IF NOT EXISTS probe (x INTEGER)"))
            connection.execute(text("INSERT INTO probe VALUES (1)"))
            return {p.name: mode(p) for p in sorted(store.parent.glob(store.name + "*"))}
    finally:
        engine.dispose()


def test_the_default_store_is_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      umask: int) -> None:
    data = tmp_path / "home" / "share"  # neither exists: the audit makes both
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    assert audit(RECORD, out=tmp_path / "o") == 1
    store = data / "bjh-auditor" / "floor.sqlite"
    assert [mode(p) for p in (tmp_path / "home", data, data / "bjh-auditor")] == [
        "0o700", "0o700", "0o700"]
    assert mode(store) == "0o600"
    assert modes_while_open(store) == {"floor.sqlite": "0o600", "floor.sqlite-shm": "0o600",
                                       "floor.sqlite-wal": "0o600"}
    assert audit(RECORD, out=tmp_path / "o2") == 1  # the next night's audit uses it as it is
    assert mode(store) == "0o600"


def test_a_named_store_is_private(tmp_path: Path, umask: int) -> None:
    named = tmp_path / "history.sqlite"
    assert audit(RECORD, out=tmp_path / "o", store=str(named)) == 1
    assert mode(named) == "0o600"
    deeper = tmp_path / "new" / "nights" / "history.sqlite"
    assert audit(RECORD, out=tmp_path / "o2", store=str(deeper), more=("--new-store",)) == 1
    assert [mode(tmp_path / "new"), mode(deeper.parent), mode(deeper)] == [
        "0o700", "0o700", "0o600"]


def test_what_exists_is_left_as_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      umask: int) -> None:
    """A folder the user made, and a store file already there (an older auditor's, shared
    on purpose): their modes are the user's."""
    data = tmp_path / "share"
    (data / "bjh-auditor").mkdir(parents=True)
    (data / "bjh-auditor").chmod(0o750)
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    assert audit(RECORD, out=tmp_path / "o") == 1
    assert mode(data / "bjh-auditor") == "0o750"
    assert mode(data / "bjh-auditor" / "floor.sqlite") == "0o600"
    shared = tmp_path / "shared.sqlite"
    assert audit(RECORD, out=tmp_path / "o2", store=str(shared)) == 1
    shared.chmod(0o640)
    assert audit(RECORD, out=tmp_path / "o3", store=str(shared)) == 1
    assert mode(shared) == "0o640"
