import os
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.helpers import ROOT
from tests.helpers.browser import launched

_SESSION_DATA: str | None = None


def pytest_configure(config) -> None:
    """No test, fixture or subprocess writes the real floor history: the default store
    (auditor/store_location.py) is under XDG_DATA_HOME, here a folder of the session's
    (each test gets its own, `floor_history`), and a BJH_STORE of the environment is
    dropped. Nor the user's cache (auditor/cache.py): XDG_CACHE_HOME is the session's too,
    shared by its tests as a user's runs share it."""
    global _SESSION_DATA
    _SESSION_DATA = tempfile.mkdtemp(prefix="bjh-xdg-")
    os.environ["XDG_DATA_HOME"] = _SESSION_DATA
    os.environ["XDG_CACHE_HOME"] = os.path.join(_SESSION_DATA, "cache")
    os.environ.pop("BJH_STORE", None)


def pytest_collection_modifyitems(config, items) -> None:
    """The markers by what a test needs, so `-m "not browser"` or `-m postgresql` chooses
    by need: `browser` for a test of the `browser` fixture (playwright's Chromium),
    `postgresql` for one on the session's PostgreSQL server. `slow` is put by hand and
    runs only with BJH_SLOW_TESTS=1 (said in the skip's reason)."""
    slow_wanted = os.environ.get("BJH_SLOW_TESTS") == "1"
    for item in items:
        names = getattr(item, "fixturenames", ())
        if "browser" in names:
            item.add_marker(pytest.mark.browser)
        parameters = getattr(getattr(item, "callspec", None), "params", {})
        if "postgres_socket" in names or parameters.get("store_url") == "postgresql":
            item.add_marker(pytest.mark.postgresql)
        if item.get_closest_marker("slow") and not slow_wanted:
            item.add_marker(pytest.mark.skip(reason="slow: runs with BJH_SLOW_TESTS=1"))


def pytest_unconfigure(config) -> None:
    if _SESSION_DATA:
        shutil.rmtree(_SESSION_DATA, ignore_errors=True)


@pytest.fixture(autouse=True)
def floor_history(tmp_path, monkeypatch) -> Path:
    """The default store's data folder for this test alone: XDG_DATA_HOME in tmp_path."""
    data = tmp_path / "xdg-data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.delenv("BJH_STORE", raising=False)
    return data


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared beside the checkout (the specs and regulations); skipped where absent."""
    for candidate in (ROOT.parent / "shared", ROOT.parent.parent / "shared"):
        if (candidate / "spec").is_dir():
            return candidate
    pytest.skip("../shared is not beside the checkout")


@pytest.fixture(scope="session")
def postgres_socket():
    """A PostgreSQL server of the session's own (tests/helpers/postgres.py); skipped with the reason
    where none can be had, failed instead under CI, which installs one."""
    import os

    from tests.helpers.postgres import running_server, server_binaries

    if server_binaries() is None:
        reason = "no PostgreSQL server: scripts/install-postgres.sh installs Debian's package"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    with running_server() as socket:
        yield socket


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    """An empty run store of each kind: a SQLite file, and a database on the session's
    PostgreSQL server."""
    if request.param == "sqlite":
        return str(tmp_path / "history.sqlite")
    from tests.helpers.postgres import create_database

    socket = request.getfixturevalue("postgres_socket")
    return create_database(socket, f"bjh_{abs(hash(request.node.nodeid)) % 10**12}")


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium through playwright, one per test module (tests/helpers/browser.py);
    a test that asks for it is marked `browser`."""
    yield from launched()
