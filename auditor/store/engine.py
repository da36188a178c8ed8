"""Opening a run store: an SQLAlchemy engine for a URL or a path, brought to the current
schema by the migrations, or refused when a newer auditor wrote it."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, text

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
SQLITE_BUSY_MILLISECONDS = 60_000  # how long a writer waits for another one to finish


class StoreError(Exception):
    """The store cannot be used; the message says why, plainly."""


def store_url(location: str) -> str:
    """A URL as given (`postgresql+psycopg://…`, `sqlite:///…`), or a file path made into an
    SQLite URL."""
    if "://" in location:
        return location
    return "sqlite:///" + str(Path(location).expanduser().resolve())


def open_store(location: str) -> Engine:
    """The store at `location`, created or upgraded to this auditor's schema."""
    url = store_url(location)
    if url.startswith("sqlite:///"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    try:
        engine = create_engine(url)
    except Exception as error:  # a malformed URL or a driver that is not installed
        raise StoreError(f"store {location}: {error}") from error
    if engine.dialect.name == "sqlite":
        _sqlite_for_many_writers(engine)
    try:
        _migrate(engine)
    except StoreError:
        engine.dispose()
        raise
    except Exception as error:
        engine.dispose()
        raise StoreError(f"store {location}: cannot be opened ({error})") from error
    return engine


def _sqlite_for_many_writers(engine: Engine) -> None:
    """Several audits may write one SQLite file at once: write-ahead logging lets readers go on
    while one writes, and each transaction takes the write lock at its start (BEGIN
    IMMEDIATE), waiting up to a minute for another writer, so none fails half-way."""

    @event.listens_for(engine, "connect")
    def _connect(connection, _record) -> None:
        connection.isolation_level = None  # SQLAlchemy's begin below decides the transaction
        cursor = connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_MILLISECONDS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def _migrate(engine: Engine) -> None:
    scripts = ScriptDirectory(str(MIGRATIONS))
    heads = set(scripts.get_heads())
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # One migration at a time across every process that opens the store.
            connection.execute(text("SELECT pg_advisory_xact_lock(420181530)"))
        current = set(MigrationContext.configure(connection).get_current_heads())
        unknown = {r for r in current if not _known(scripts, r)}
        if unknown:
            raise StoreError(
                f"the store was written by a newer auditor (schema revision "
                f"{', '.join(sorted(unknown))}; this auditor knows up to "
                f"{', '.join(sorted(heads))}): upgrade the auditor to read it")
        if current != heads:
            config = Config()
            config.set_main_option("script_location", str(MIGRATIONS))
            config.attributes["connection"] = connection
            command.upgrade(config, "head")


def _known(scripts: ScriptDirectory, revision: str) -> bool:
    try:
        return scripts.get_revision(revision) is not None
    except Exception:  # alembic raises its own errors for an unknown revision
        return False


def schema_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        heads = MigrationContext.configure(connection).get_current_heads()
    return heads[0] if heads else None
