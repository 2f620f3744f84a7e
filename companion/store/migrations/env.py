"""Alembic's environment: runs on the connection the store hands over (no alembic.ini).

``companion.store.migrations.upgrade`` puts an open connection, inside its transaction and under
the migration lock, into ``config.attributes["connection"]``; every revision runs on it.
"""

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None,
                  # SQLite cannot alter most of a table in place: later revisions use batch mode.
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
