"""Opening a run store: an SQLAlchemy engine for a URL or a path, brought to the current
schema by the migrations, or refused when a newer auditor wrote it.

Alembic (half a second to import) is imported only when a store must be upgraded: the
stored revision is read with SQLAlchemy alone (the `alembic_version` table), and a new,
empty store is made from the tables of schema.py and stamped at HEAD_REVISION (Alembic's
"create_all, then stamp"); tests/store/test_store.py holds a store made so to one migrated from
nothing, on SQLite and PostgreSQL, and HEAD_REVISION and KNOWN_REVISIONS to the scripts.

Every refusal is a `StoreError` whose message is one plain line naming the store (its
password hidden, `urls.shown`) and the cause."""

from __future__ import annotations

import logging
import os
import sqlite3
import weakref
from pathlib import Path
from urllib.parse import quote

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    create_engine,
    event,
    inspect,
    select,
    text,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import QueuePool

from auditor.store.urls import SUPPORTED, hide_secrets, shown

# Only auditor/store/ imports SQLAlchemy (tests/house/test_house.py): the rest of the auditor names
# a store's handle `Engine` and any error of the database under it `DatabaseFault` from here.
DatabaseFault = SQLAlchemyError

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
# The newest revision of migrations/versions, and every revision there (a store at any other
# was written by a newer auditor): tests/store/test_store.py holds both to the scripts.
HEAD_REVISION = "0009"
KNOWN_REVISIONS = frozenset({"0001", "0001a", "0002", "0003", "0004", "0006", "0007", "0008",
                             "0009"})
# Alembic's own version table, as Alembic makes it (alembic/ddl/impl.py `version_table_impl`).
VERSION_TABLE = Table("alembic_version", MetaData(),
                      Column("version_num", String(32), nullable=False),
                      PrimaryKeyConstraint("version_num", name="alembic_version_pkc"))
SQLITE_BUSY_MILLISECONDS = 60_000  # how long a writer waits for another one to finish
# Revisions older than the head whose tables this auditor reads unchanged: a store on
# read-only media at one of them is read without upgrading it: 0004 (0006 only widened the
# shift columns and added incident_exports, which only `incidents` uses), 0006 (0007 added
# trend_flags, which `trends` reads only where it is), 0007 (0008 added table_nights, which
# `trends` and `incidents` read only where it is), 0008 (0009 added the table-nights'
# spans, read only where they are). Not 0002 or 0003: the readers select
# each finding's currency, a column those stores lack.
READABLE_WITHOUT_UPGRADE = frozenset({"0004", "0006", "0007", "0008"})
_STORE_TABLES = frozenset({"runs", "inputs", "run_inputs", "findings", "coverage", "replays"})


# Every engine this process opened: a process forked from it (a pool's worker, the second
# process writing an output) must never use the connections it inherits.
_ENGINES: weakref.WeakSet[Engine] = weakref.WeakSet()
_READS = "store_reads"


def reading(engine: Engine) -> Engine:
    """`engine` for a read: on SQLite its transaction is a plain BEGIN, which under
    write-ahead logging neither waits for a writer nor holds one (or another reader) up.
    Writes (`engine.begin()`) take the write lock at their start (`_sqlite_for_many_writers`)."""
    return engine.execution_options(**{_READS: True})


def _forget_inherited_connections() -> None:
    """In a forked child: each engine's pool is replaced, its connections left unclosed,
    so the child opens its own and never uses (or closes) a socket or an SQLite handle of
    its parent (SQLAlchemy's advice for os.fork: `Engine.dispose(close=False)`)."""
    for engine in list(_ENGINES):
        engine.dispose(close=False)


os.register_at_fork(after_in_child=_forget_inherited_connections)

# psycopg logs a warning when a pipeline cannot be ended on a connection already lost
# ("error ignored terminating <psycopg.Pipeline [BAD]>"): with no logging set up, Python
# prints it on standard error, beside the one line that says the store failed and why
# (`StoreFailure`). A handler that drops it keeps it from there; a program that sets up
# logging still receives it through its own handlers.
logging.getLogger("psycopg").addHandler(logging.NullHandler())


class StoreError(Exception):
    """The store cannot be used; the message says why, plainly, on one line."""


class StoreNotMade(StoreError):
    """A reader that does not upgrade (read_only, upgrade False) met a store with no schema
    at all: a file its first run has opened and not yet written its tables to."""


class StoreFailure(StoreError):
    """The store failed while a run was being recorded (a full disk, a server gone): the
    run, if it was begun, stays unfinished."""

    def __init__(self, run_id: int | None, cause: str) -> None:
        super().__init__(cause)
        self.run_id, self.cause = run_id, cause


def store_url(location: str) -> str:
    """A URL as given (`postgresql+psycopg://…`, `sqlite:///…`), or a file path made into an
    SQLite URL."""
    if "://" in location:
        return location
    return "sqlite:///" + str(Path(location).expanduser().resolve())


def cause_of(error: BaseException) -> str:
    """What went wrong, on one line: the database's own message (not SQLAlchemy's SQL and
    links), any password hidden."""
    orig = getattr(error, "orig", None) or error.__cause__ or error
    lines = [line.strip() for line in str(orig).splitlines() if line.strip()]
    found = lines[0] if lines else type(orig).__name__
    return hide_secrets(found)


def is_store_fault(error: BaseException) -> bool:
    """Whether a database error is the store's (a full disk, a server gone, a damaged file),
    not the auditor's: data that does not fit its column or breaks a key is a bug."""
    from sqlalchemy.exc import DataError, IntegrityError, SQLAlchemyError

    return isinstance(error, SQLAlchemyError) and not isinstance(error,
                                                                  (DataError, IntegrityError))


def sqlite_path(location: str) -> Path | None:
    """The file of an SQLite store (None for another database, or SQLite in memory)."""
    try:
        url = make_url(store_url(location))
    except Exception:
        return None
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    return Path(url.database)


def open_store(location: str, read_only: bool = False, new_store: bool = False,
               upgrade: bool = True) -> Engine:
    """The store at `location`, created or upgraded to this auditor's schema.

    `read_only` (the commands that only read a store): an existing store opened for
    reading, with no write of any kind when its schema is current, so a store on read-only
    media or an archive can be read. `new_store`: an SQLite store's missing folders are
    made; without it a path whose folder does not exist is refused (a typo never starts a
    new, empty history). `upgrade` False (with `read_only`: a reader that must never write,
    the live page's trend flags): a store that cannot be read as it is, an older schema,
    is refused (StoreError), not upgraded."""
    name = shown(location)
    url = store_url(location)
    try:
        parsed = make_url(url)
    except Exception as error:
        raise StoreError(f"store {name}: not a store URL ({cause_of(error)}); "
                         f"{SUPPORTED}") from error
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        hint = " (PostgreSQL is spelled postgresql+psycopg://)" if backend == "postgres" else ""
        raise StoreError(f"store {name}: {backend} is not a supported database{hint}; "
                         f"{SUPPORTED}")
    if backend == "sqlite":
        path = sqlite_path(location)
        if path is None:
            raise StoreError(f"store {name}: names no file; {SUPPORTED}")
        _check_sqlite_path(path, name, read_only, new_store)
        if not read_only:
            _private_file(path)
        if read_only:
            engine = _read_only_sqlite(path)
            if _readable_as_is(engine, name):
                return engine
            made = _stamped(engine, name)
            engine.dispose()
            if not upgrade:
                if not made:
                    raise StoreNotMade(f"store {name}: has no schema yet (being made)")
                raise StoreError(_NOT_UPGRADED.format(name=name))
    try:
        engine = _opened(create_engine(url))
    except Exception as error:  # a driver that is not installed, a bad option
        raise StoreError(f"store {name}: cannot be used ({cause_of(error)}); "
                         f"{SUPPORTED}") from error
    if engine.dialect.name == "sqlite":
        _sqlite_for_many_writers(engine)
    try:
        if read_only and engine.dialect.name != "sqlite" and _readable_as_is(engine, name):
            return engine
        if read_only and not upgrade:
            raise StoreError(_NOT_UPGRADED.format(name=name))
        _migrate(engine, name)
    except StoreError:
        engine.dispose()
        raise
    except Exception as error:
        engine.dispose()
        raise StoreError(f"store {name}: cannot be opened ({cause_of(error)})") from error
    return engine


_NOT_UPGRADED = ("store {name}: of an older schema, not read here (a reader does not "
                 "upgrade it; the next audit recorded in it does)")


def _check_sqlite_path(path: Path, name: str, read_only: bool, new_store: bool) -> None:
    if path.is_dir():
        raise StoreError(f"store {name}: is a folder, not a file")
    if read_only:
        if not path.exists():
            raise StoreError(f"no run store at {name}")
        return
    folder = path.parent
    if folder.is_dir():
        return
    if folder.exists() or any(p.exists() and not p.is_dir() for p in folder.parents):
        raise StoreError(f"store {name}: its folder {folder} cannot be made "
                         "(a file stands in the way)")
    if not new_store:
        raise StoreError(f"store {name}: the folder {folder} does not exist (give --new-store "
                         "to start a new store there)")
    try:
        _private_folders(folder)
    except OSError as error:
        raise StoreError(f"store {name}: its folder {folder} cannot be made "
                         f"({error.strerror or error})") from error


def _private_folders(folder: Path) -> None:
    """`folder` and its missing parents made the owner's alone (0700, whatever the umask),
    as the XDG base directory specification asks of a data folder it makes: a store holds
    every night's findings, dealers and players. Folders that exist are left as they are."""
    missing = []
    for level in (folder, *folder.parents):
        if level.is_dir():
            break
        missing.append(level)
    for level in reversed(missing):
        try:
            os.mkdir(level, 0o700)
        except FileExistsError:  # made meanwhile by another audit: theirs, left as it is
            if not level.is_dir():
                raise
            continue
        os.chmod(level, 0o700)  # a umask such as 0o177 takes more than it should


def _private_file(path: Path) -> None:
    """A new SQLite store's file made, empty, the owner's alone (0600) before SQLite opens
    it: SQLite would make it 0644 less the umask, and makes its -wal and -shm files with the
    database file's mode. An existing file is left as it is; a file that cannot be made
    here is left for SQLite to make, or to say why it cannot."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        descriptor = os.open(path, flags, 0o600)
    except OSError:  # there already (another audit made it meanwhile), or not allowed
        return
    try:
        os.fchmod(descriptor, 0o600)
    finally:
        os.close(descriptor)


def _read_only_sqlite(path: Path) -> Engine:
    """An engine that only reads the file: no journal switch, no write lock. On media that
    cannot be written (not even SQLite's shared-memory file beside it) the file is opened
    as immutable."""
    writable = os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)
    target = f"file:{quote(str(path))}?mode=ro" + ("" if writable else "&immutable=1")

    def connect() -> sqlite3.Connection:
        connection = sqlite3.connect(target, uri=True, check_same_thread=False)
        connection.isolation_level = None  # reads only: each statement its own snapshot
        connection.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_MILLISECONDS}")
        return connection

    # A pool of its own connections, as for any SQLite file (not the one-connection pool
    # SQLAlchemy gives a URL without a file): a report reads replays while it walks findings.
    return _opened(create_engine("sqlite://", creator=connect, poolclass=QueuePool))


def _opened(engine: Engine) -> Engine:
    _ENGINES.add(engine)
    return engine


def _readable_as_is(engine: Engine, name: str) -> bool:
    """Whether a reader can use the store without changing it: its schema is this
    auditor's, or an older one read unchanged. A newer schema is refused."""
    try:
        with reading(engine).connect() as connection:
            current = stored_revisions(connection)
    except Exception as error:
        engine.dispose()
        raise StoreError(f"store {name}: cannot be read ({cause_of(error)})") from error
    _refuse_newer(current)
    return bool(current) and (current == {HEAD_REVISION} or current <= READABLE_WITHOUT_UPGRADE)


def _stamped(engine: Engine, name: str) -> bool:
    """Whether the store holds a schema revision (an older one, when not readable as is)."""
    try:
        with reading(engine).connect() as connection:
            return bool(stored_revisions(connection))
    except Exception as error:
        raise StoreError(f"store {name}: cannot be read ({cause_of(error)})") from error


def stored_revisions(connection: Connection) -> set[str]:
    """The schema revisions the store is stamped with (none for a new store), read as
    Alembic reads them."""
    if not inspect(connection).has_table(VERSION_TABLE.name):
        return set()
    return set(connection.execute(select(VERSION_TABLE.c.version_num)).scalars())


def _refuse_newer(current: set[str]) -> None:
    unknown = current - KNOWN_REVISIONS
    if unknown:
        raise StoreError(
            f"the store was written by a newer auditor (schema revision "
            f"{', '.join(sorted(unknown))}; this auditor knows up to "
            f"{HEAD_REVISION}): upgrade the auditor to read it")


def _sqlite_for_many_writers(engine: Engine) -> None:
    """Several audits may write one SQLite file at once: write-ahead logging lets readers go on
    while one writes, and each transaction that may write takes the write lock at its start
    (BEGIN IMMEDIATE), waiting up to a minute for another writer, so none fails half-way. A
    read (`reading`) begins plainly: it never waits for the lock, nor holds it."""

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
        reads = connection.get_execution_options().get(_READS, False)
        connection.exec_driver_sql("BEGIN" if reads else "BEGIN IMMEDIATE")


# The PostgreSQL advisory locks of the store's read-then-write transactions (the migration's
# is 420181530), by what they keep.
_ONE_AT_A_TIME = {"incident exports": 420181531, "trend flags": 420181532}


def one_at_a_time(connection: Connection, what: str) -> None:
    """Make the rest of this transaction wait for any other transaction of the store that
    asked this for `what`, until it ends: a transaction that reads what is kept and then
    adds what is not. On PostgreSQL a read does not see another transaction's rows not yet
    committed, so two at once both added the same rows and the second failed on the
    first's keys: an advisory lock of the transaction orders them. SQLite needs none: a
    transaction that may write takes the write lock at its start."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                           {"key": _ONE_AT_A_TIME[what]})


def _migrate(engine: Engine, name: str = "") -> None:
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # One migration at a time across every process that opens the store.
            connection.execute(text("SELECT pg_advisory_xact_lock(420181530)"))
        current = stored_revisions(connection)
        _refuse_newer(current)
        if not current:
            foreign = sorted(_STORE_TABLES & set(inspect(connection).get_table_names()))
            if foreign:
                raise StoreError(
                    f"store {name}: is not an auditor's run store (it holds a table "
                    f"{', '.join(foreign)} but no schema revision); give another --store")
            _create(connection)
        elif current != {HEAD_REVISION}:
            _upgrade(connection)


def _create(connection: Connection) -> None:
    """A new store: the tables of schema.py, stamped at the head revision (the schema the
    migrations build, with no Alembic). A table of ours already there is an error, as it
    is for the first migration."""
    from auditor.store.schema import metadata

    metadata.create_all(connection, checkfirst=False)
    VERSION_TABLE.create(connection, checkfirst=True)
    connection.execute(VERSION_TABLE.insert().values(version_num=HEAD_REVISION))


def _upgrade(connection: Connection) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def schema_revision(engine: Engine) -> str | None:
    with reading(engine).connect() as connection:
        heads = sorted(stored_revisions(connection))
    return heads[0] if heads else None
