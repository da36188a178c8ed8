"""Which run store a command uses: one floor history, whatever `--out` folder each night has.

In order, the first given wins: `--store`; the environment's `BJH_STORE`; the settings
file's `store`; else the default, `$XDG_DATA_HOME/bjh-auditor/floor.sqlite`
(`~/.local/share/bjh-auditor/floor.sqlite` when XDG_DATA_HOME is unset, empty or not an
absolute path, as the XDG base directory specification says). Every command that reads or
writes the store (audit, runs, report, diff, trends, incidents, case) chooses it here.

The default's folder is made on the first audit, as is the audit's own `--out` folder when
the store is named in it; a store named by `--store`, `BJH_STORE` or the settings is used
elsewhere only in a folder that exists, or with `--new-store` (a typo never starts a new,
empty history). Auditors before this one kept the store in each audit's
`--out` folder (`OUT/history.sqlite`) and read `reports/history.sqlite`: such a file is
named in one line where it is passed over (`old_store_note`, `missing_store_hint`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from auditor.fieldwise import Fieldwise

ENVIRONMENT = "BJH_STORE"
FOLDER, FILE = "bjh-auditor", "floor.sqlite"
OLD_NAME = "history.sqlite"  # in --out, where auditors before 2026-11 kept the store
OLD_READ_DEFAULT = Path("reports") / OLD_NAME  # what their `runs`, `trends`, … read


@dataclass(frozen=True, repr=False)
class StoreChoice(Fieldwise):
    """The run store chosen, and what chose it."""

    location: str  # a SQLite path or a database URL (may hold a password: print `shown`)
    source: str  # "--store", "BJH_STORE", "settings" or "default"

    @property
    def is_default(self) -> bool:
        return self.source == "default"


def default_store() -> str:
    """`$XDG_DATA_HOME/bjh-auditor/floor.sqlite`, else under `~/.local/share`."""
    data = os.environ.get("XDG_DATA_HOME", "")
    if not data or not os.path.isabs(data):
        try:
            data = str(Path.home() / ".local" / "share")
        except RuntimeError as error:  # no HOME and no password entry to find one in
            from auditor.store.engine import StoreError

            raise StoreError("no home folder to keep the run store in: give --store, or set "
                             f"{ENVIRONMENT} or the settings file's `store`") from error
    return str(Path(data) / FOLDER / FILE)


def choose_store(flag: str | None, settings_store: str | None = None) -> StoreChoice:
    """The store a command uses (see the module's docstring for the order)."""
    if flag:
        return StoreChoice(flag, "--store")
    environment = os.environ.get(ENVIRONMENT, "")
    if environment.strip():
        return StoreChoice(environment, ENVIRONMENT)
    if settings_store:
        return StoreChoice(settings_store, "settings")
    return StoreChoice(default_store(), "default")


def command_store(flag: str | None, config: str | None = None) -> str:
    """The store of a command that reads it (runs, report, diff, trends, incidents, case):
    the settings file (`config`, else the working folder's) is read only when neither
    `--store` nor BJH_STORE decides; it raises settings.SettingsError if it cannot be used."""
    if flag or os.environ.get(ENVIRONMENT, "").strip():
        return choose_store(flag).location
    from auditor.settings import find_settings

    return choose_store(None, find_settings(config).store).location


def old_store_note(choice: StoreChoice, out: Path) -> str | None:
    """For an audit on the default store: one line naming a store an older auditor kept in
    this --out folder, which this run is not recorded in; None when there is none."""
    old = out / OLD_NAME
    if not choice.is_default or not old.is_file() or _same_file(old, Path(choice.location)):
        return None
    return (f"auditor: {old} is a run store an older auditor kept in --out; this run is "
            f"recorded in the floor history {choice.location} instead (give --store {old}, "
            f"or set `store` in the settings, to go on adding to the old one)")


def missing_store_hint(location: str) -> str:
    """For a command that reads the store: when the default store does not exist but an
    older auditor's `reports/history.sqlite` does, the words that name it; else ""."""
    try:
        if location != default_store() or Path(location).exists():
            return ""
    except Exception:  # no home folder: nothing to hint at
        return ""
    if not OLD_READ_DEFAULT.is_file():
        return ""
    return (f" (an older auditor's store is at {OLD_READ_DEFAULT}: give --store "
            f"{OLD_READ_DEFAULT}, or set {ENVIRONMENT} or the settings' `store`)")


def in_folder(location: str, folder: Path) -> bool:
    """Whether `location` is a plain SQLite path directly in `folder` (an audit's --out,
    which the audit makes anyway: `--out o --store o/history.sqlite` keeps the old layout)."""
    if "://" in location:
        return False
    return Path(location).resolve().parent == folder.resolve()


def _same_file(one: Path, other: Path) -> bool:
    try:
        return other.exists() and one.samefile(other)
    except OSError:
        return False
