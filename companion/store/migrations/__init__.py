"""The database's schema, brought up to date whenever the store opens it (Alembic, from code).

``upgrade(engine)`` is what ``Store.__init__`` calls; there is no alembic.ini at run time. It
runs the same on SQLite and PostgreSQL:

- a fresh database gets every revision (``versions/``), revision 0001 being the schema as it
  was when migrations began (game, seat, event with ``event.data``);
- a database made by an older version of the app (``SQLModel.metadata.create_all``: the
  tables but no ``alembic_version``, perhaps no ``event.data``) gets what 0001 has that it
  lacks, is stamped 0001, then upgraded like any other;
- an up-to-date database costs one look at ``alembic_version``.

All of it happens in one transaction under a lock, so processes starting together on one
database (``companion serve --workers``, or several servers) migrate it once and never see
it half done: PostgreSQL takes a transaction-level advisory lock (and its DDL is
transactional); SQLite takes its write lock up front (``BEGIN IMMEDIATE``).

A new revision: add ``versions/NNNN_what.py`` with ``down_revision`` set to the latest one
(copy 0001's shape; ``script.py.mako`` is the template ``alembic revision`` uses with a config
whose ``script_location`` is this folder). Write the schema out by hand, never from the
models, and keep it runnable on both databases (SQLite alters tables in batch mode:
``with op.batch_alter_table(...)``).
"""

from __future__ import annotations

import logging
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

log = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
BASELINE = "0001"  # the schema that ``create_all`` made before migrations
LOCK_KEY = 7_310_575_183_440_109_933  # pg_advisory_xact_lock key: "companion schema"

_head: str | None = None


def _config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(HERE).replace("%", "%%"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head() -> str:
    """The newest revision."""
    global _head
    if _head is None:
        _head = ScriptDirectory.from_config(_config()).get_current_head()
    return _head


def current(connection: Connection) -> str | None:
    """The revision a database is at (None: not stamped)."""
    return MigrationContext.configure(connection).get_current_revision()


def _lock(connection: Connection) -> None:
    """Begin the migration's transaction holding a lock no other migrating process can get."""
    name = connection.dialect.name
    if name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
    elif name == "sqlite":
        # pysqlite begins transactions only before DML; begin ourselves, taking the write lock
        # at once (a second process waits here, up to the busy timeout).
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def _adopt_legacy(connection: Connection) -> None:
    """Give a database made by ``create_all`` what revision 0001 has and it may lack."""
    columns = {c["name"] for c in inspect(connection).get_columns("event")}
    if "data" not in columns:
        connection.execute(text("ALTER TABLE event ADD COLUMN data VARCHAR"))


class SchemaTooNew(RuntimeError):
    """The database was upgraded by a newer version of the app than this one."""

    def __init__(self, at: str, known: str):
        self.at, self.known = at, known
        super().__init__(
            f"this database was upgraded by a newer version of the companion (schema {at}); this "
            f"version knows the schema up to {known}. Install the newer version again, or restore "
            "the backup taken before the upgrade (deploy/README.md, Upgrading).")


def known(revision: str) -> bool:
    """Whether this version of the app has ``revision`` among its migrations."""
    try:
        return ScriptDirectory.from_config(_config()).get_revision(revision) is not None
    except Exception:  # noqa: BLE001 - alembic raises several kinds for an unknown id
        return False


def upgrade(engine: Engine) -> None:
    """Bring the database to the newest revision (a no-op when it is there already); a
    database from a newer version of the app is refused (``SchemaTooNew``), never touched."""
    with engine.connect() as connection:
        _lock(connection)
        at = current(connection)
        if at is not None and at != head() and not known(at):
            connection.rollback()
            raise SchemaTooNew(at, head())
        if at != head():
            config = _config(connection)
            if at is None and "game" in inspect(connection).get_table_names():
                log.info("database made before migrations: stamping it %s", BASELINE)
                _adopt_legacy(connection)
                command.stamp(config, BASELINE)
            command.upgrade(config, "head")
            log.info("database schema upgraded from %s to %s", at or "nothing", head())
        connection.commit()
