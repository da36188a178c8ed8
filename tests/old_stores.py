"""A store as an older auditor left it: the migrations run up to a given revision only."""

from __future__ import annotations


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
