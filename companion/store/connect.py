"""Opening a database: PostgreSQL's driver named, SQLite's pragmas set on each connection."""

from __future__ import annotations

import sqlite3
import time

from sqlalchemy.engine import make_url

def database_url(url: str) -> str:
    """``url`` with PostgreSQL's driver made explicit: psycopg 3 (the ``postgres`` extra)."""
    parsed = make_url(url)
    if parsed.drivername in ("postgres", "postgresql"):
        return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    return url


SQLITE_WAL_WAIT = 30.0  # seconds a process starting with others waits to switch a fresh file


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    # WAL lets readers (live streams, page renders) run while one writer commits; the busy
    # timeout makes concurrent writers wait instead of failing.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout=30000")
    # Switching a fresh file to WAL needs it to itself, and SQLite answers "locked" at once,
    # without its busy wait, while another process starting together is switching it: retry.
    deadline = time.monotonic() + SQLITE_WAL_WAIT
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            break
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    cursor.execute("PRAGMA synchronous=FULL")  # an acknowledged change survives a crash
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
