"""What whoever runs the server does besides serving: back up, restore, check
(``companion backup PATH``, ``companion restore PATH``, ``companion check``).

A running server holds a shared lock on ``<database file>.serving`` (SQLite) for as long as it
serves; ``restore`` takes it exclusively, so it refuses while any server uses the file, and no
server can start in the middle of a restore. A backup is SQLite's online backup: a consistent
copy taken while phones keep writing (the ``-wal`` file included, which a plain ``cp`` of the
database file misses). On PostgreSQL the tools are ``pg_dump`` and ``pg_restore``: these
commands print the right invocation for the configured URL.
"""

from __future__ import annotations

import fcntl
import os
import shlex
import sqlite3
from pathlib import Path

from sqlalchemy.engine import make_url


class OperationError(RuntimeError):
    """One line for the operator; the command exits 1."""


def sqlite_file(url: str) -> Path | None:
    """The database file of a SQLite URL, else None."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    if not parsed.database or parsed.database == ":memory:":
        raise OperationError("the configured SQLite database is in memory: nothing to back up")
    return Path(parsed.database)


def _postgres_command(tool: str, url: str, path: str) -> str:
    parsed = make_url(url).set(drivername="postgresql")
    target = parsed.render_as_string(hide_password=True)
    if tool == "pg_dump":
        return f"pg_dump --format=custom --file {shlex.quote(path)} {shlex.quote(target)}"
    return (f"pg_restore --clean --if-exists --no-owner --dbname {shlex.quote(target)} "
            f"{shlex.quote(path)}")


class ServingLock:
    """The lock a server holds while it serves a SQLite file (shared: several workers or
    servers may share one file), and ``restore`` takes alone."""

    def __init__(self, database: Path):
        self.path = database.with_name(database.name + ".serving")
        self._file = None

    def share(self) -> "ServingLock":
        self._take(fcntl.LOCK_SH)
        return self

    def take_alone(self) -> "ServingLock":
        try:
            self._take(fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.release()
            raise OperationError(f"a server is using {self.path.with_suffix('')}: stop every "
                                 "`companion serve` first (systemctl stop companion)") from None
        return self

    def _take(self, how: int) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(self.path, "a+")  # noqa: SIM115 - held for the lock's lifetime
        fcntl.flock(self._file.fileno(), how)

    def release(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def backup(url: str, path: str) -> str:
    """A consistent copy of the database at ``path`` (SQLite), or the pg_dump command; the
    line to print."""
    database = sqlite_file(url)
    if database is None:
        raise OperationError("on PostgreSQL, back up with pg_dump: " + _postgres_command("pg_dump", url, path))
    if not database.exists():
        raise OperationError(f"there is no database at {database} yet: nothing to back up")
    target = Path(path)
    if target.exists() and target.is_dir():
        target = target / f"companion-{_stamp()}.db"
    partial = target.with_name(target.name + ".partial")
    source = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30)
    try:
        copy = sqlite3.connect(partial)
        try:
            source.backup(copy)  # SQLite's online backup: consistent while others write
        finally:
            copy.close()
    finally:
        source.close()
    os.replace(partial, target)  # a backup is there whole, or not at all
    games = _count_games(target)
    return f"backed up {games} game{'s' if games != 1 else ''} to {target}"


def restore(url: str, path: str) -> str:
    """The database replaced by the backup at ``path`` (SQLite), refused while any server uses
    it; or the pg_restore command. The line to print."""
    database = sqlite_file(url)
    if database is None:
        raise OperationError("on PostgreSQL, restore with pg_restore (every server stopped): "
                             + _postgres_command("pg_restore", url, path))
    source_path = Path(path)
    if not source_path.is_file():
        raise OperationError(f"no backup file at {source_path}")
    games = _count_games(source_path)  # refuses a file that is no backup of the companion
    lock = ServingLock(database).take_alone()
    try:
        source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True)
        try:
            live = sqlite3.connect(database, timeout=30)
            try:
                source.backup(live)  # the WAL and the file stay consistent, unlike a copy
            finally:
                live.close()
        finally:
            source.close()
    finally:
        lock.release()
    return f"restored {games} game{'s' if games != 1 else ''} from {source_path} into {database}"


def _count_games(path: Path) -> int:
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return connection.execute("SELECT COUNT(*) FROM game").fetchone()[0]
        finally:
            connection.close()
    except sqlite3.DatabaseError as exc:
        raise OperationError(f"{path} is not a companion database ({exc})") from None


def _stamp() -> str:
    from datetime import datetime, timezone

    return datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")


def check(url: str) -> str:
    """The database answers, with the schema this version knows (migrating it if it is older,
    as a server would); the line to print. ``OperationError`` otherwise."""
    from sqlalchemy import create_engine, text

    from companion.store import database_url, migrations

    engine = create_engine(database_url(url))
    try:
        with engine.connect() as connection:
            at = migrations.current(connection)
            games = connection.execute(text("SELECT COUNT(*) FROM game")).scalar() if at else 0
    except Exception as exc:  # noqa: BLE001 - every failure is one line for the operator
        raise OperationError(f"cannot use the database {safe_url(url)}: {_first_line(exc)}") from None
    finally:
        engine.dispose()
    if at is None:
        return f"database {safe_url(url)} answers; it is empty (the first server start makes its tables)"
    if at != migrations.head() and not migrations.known(at):
        raise OperationError(f"database {safe_url(url)} has schema {at}, newer than this version "
                             f"({migrations.head()}): install the newer version, or restore a backup")
    state = "up to date" if at == migrations.head() else f"at {at}; the next server start upgrades it to {migrations.head()}"
    return f"database {safe_url(url)} answers: schema {state}, {games} game{'s' if games != 1 else ''}"


def safe_url(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
