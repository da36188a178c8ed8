"""A store as an older auditor left it: the migrations run up to a given revision only."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.helpers import ROOT


def store_at(url: str, revision: str) -> None:
    """Make the store at `url` (an SQLAlchemy URL) and bring it to `revision` exactly."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    from auditor.store.engine import MIGRATIONS

    engine = create_engine(url)
    with engine.begin() as connection:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
    engine.dispose()


FIRST_SCHEMA_STORE = ROOT / "tests" / "fixtures" / "store-0001.sqlite"
"""A store written by the auditor of the first schema itself (commit f6f2bec, one run of
two sample logs; tests/fixtures/make_fixtures.py): not one made by today's migrations up to
0001, which were edited since (0001 gained columns after stores of it were written)."""


def first_schema_store(folder: Path) -> Path:
    """A copy of FIRST_SCHEMA_STORE in `folder`, to open (opening may upgrade it)."""
    copy = folder / "first-schema.sqlite"
    shutil.copyfile(FIRST_SCHEMA_STORE, copy)
    return copy
