"""A throw-away PostgreSQL server for the store's tests, from Debian's `postgresql` package
(scripts/install-postgres.sh installs it): its own cluster in a temporary folder, listening
on a Unix socket only, stopped at the end of the session."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

PORT = 5499  # names the socket file only: the server listens on no network address


def server_binaries() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(os.path.realpath(found)).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(candidates[-1]).parent if candidates else None


def _as_server_user(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: as root, run it as the package's `postgres` user."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


@contextmanager
def running_server() -> Iterator[str]:
    """Start a cluster; yield the folder of its socket."""
    binaries = server_binaries()
    if binaries is None:
        raise FileNotFoundError("no PostgreSQL server: run scripts/install-postgres.sh")
    folder = Path(tempfile.mkdtemp(prefix="bjh-pg-"))
    folder.chmod(0o755)
    data, socket = folder / "data", folder / "socket"
    socket.mkdir()
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
        shutil.chown(socket, "postgres")
    try:
        subprocess.run(_as_server_user([str(binaries / "initdb"), "-D", str(data), "-A", "trust",
                                        "-U", "postgres", "--no-sync", "-E", "UTF8"]),
                       check=True, capture_output=True)
        options = f"-k {socket} -c listen_addresses='' -p {PORT} -F"
        subprocess.run(_as_server_user([str(binaries / "pg_ctl"), "-D", str(data), "-o", options,
                                        "-l", str(folder / "server.log"), "-w", "start"]),
                       check=True, capture_output=True)
        try:
            yield str(socket)
        finally:
            subprocess.run(_as_server_user([str(binaries / "pg_ctl"), "-D", str(data),
                                            "-m", "immediate", "stop"]), capture_output=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def create_database(socket: str, name: str) -> str:
    """A new empty database; its SQLAlchemy URL."""
    import psycopg

    with psycopg.connect(host=socket, port=PORT, user="postgres", dbname="postgres",
                         autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    return f"postgresql+psycopg://postgres@/{name}?host={socket}&port={PORT}"
