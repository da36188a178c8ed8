"""Alembic's environment for the run store: always run from `auditor.store.engine`, which
hands over an open connection (no alembic.ini, no URL of its own)."""

from __future__ import annotations

from alembic import context

from auditor.store.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
