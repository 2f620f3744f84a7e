"""What whoever runs the server does besides serving: back up, restore, check
(``companion backup PATH``, ``companion restore PATH``, ``companion check``: whether a server
could use the configured database, tried in a transaction that is rolled back).

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
    if target.is_dir() or path.endswith(os.sep):  # a folder: a dated file in it
        target = target / f"companion-{_stamp()}.db"
    if not target.parent.is_dir():
        raise OperationError(f"there is no folder {target.parent} to write the backup in "
                             f"(sudo install -d -m 0700 {shlex.quote(str(target.parent))})")
    partial = target.with_name(target.name + ".partial")
    try:
        source = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30)
        try:
            copy = sqlite3.connect(partial)
            try:
                source.backup(copy)  # SQLite's online backup: consistent while others write
            finally:
                copy.close()
        finally:
            source.close()
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        raise OperationError(f"cannot back up {database} to {target}: {exc}") from None
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
        _owned_like_its_folder(database)
    finally:
        lock.release()
    return f"restored {games} game{'s' if games != 1 else ''} from {source_path} into {database}"


def _owned_like_its_folder(database: Path) -> None:
    """Root restoring into a new machine's state folder makes the files root's, which the
    service's own user (``DynamicUser``) could then only read (and the lock file not even
    open): give them the folder's owner."""
    if os.geteuid() != 0:
        return
    folder = database.parent.stat()
    for path in (database, *(database.with_name(database.name + end) for end in ("-wal", "-shm", ".serving"))):
        if path.exists() and (path.stat().st_uid, path.stat().st_gid) != (folder.st_uid, folder.st_gid):
            os.chown(path, folder.st_uid, folder.st_gid)


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


CHECK_LOCK_TIMEOUT = "10s"  # PostgreSQL: how long check waits behind a server's lock before it fails
CHECK_CODE = "~CHECK~"  # the trial game's code: no real code has "~" (CODE_ALPHABET)


def check(url: str) -> str:
    """Whether a server could use the database, found out without changing it. It answers;
    its schema is one this version knows; and what a server does there works for this
    role: making or upgrading the tables when they need it, then writing a game with a seat,
    an event and its address's day count, changing it, notifying (PostgreSQL) and deleting
    it. All of that runs in one transaction that is rolled back, so nothing stays; a server
    starting meanwhile waits for it (the migration lock). The line to print; ``OperationError``
    (one line) otherwise.

    It needs nothing a server does not: on PostgreSQL the role the guide makes (the owner of
    its database, no CREATEDB), and no file from the repository."""
    from sqlalchemy import create_engine, inspect, text

    from companion.store import database_url, migrations

    backend = make_url(url).get_backend_name()
    if backend == "sqlite":
        database = make_url(url).database
        if database and database != ":memory:" and not Path(database).exists():
            return (f"there is no database at {database} yet: the first server start makes it "
                    f"(schema {migrations.head()})")
    connect_args: dict = {"timeout": 10} if backend == "sqlite" else {}  # behind a server's write
    if backend == "postgresql" and "connect_timeout" not in make_url(url).query:
        connect_args = {"connect_timeout": 10}  # a database that does not answer: a line, not a hang
    engine = create_engine(database_url(url), connect_args=connect_args)
    who, step = "", "connecting"
    try:
        with engine.connect() as connection:
            if backend == "postgresql":
                who = f" as role {connection.execute(text('SELECT current_user')).scalar()}"
                connection.execute(text(f"SET LOCAL lock_timeout = '{CHECK_LOCK_TIMEOUT}'"))
            step = "taking the migration lock"
            migrations._lock(connection)  # the same lock a starting server takes
            step = "reading the schema"
            at = migrations.current(connection)
            if at is not None and at != migrations.head() and not migrations.known(at):
                connection.rollback()
                raise OperationError(f"database {safe_url(url)} has schema {at}, newer than this version "
                                     f"({migrations.head()}): install the newer version, or restore a backup")
            legacy = at is None and "game" in inspect(connection).get_table_names()  # before migrations
            games = connection.execute(text("SELECT COUNT(*) FROM game")).scalar() if at or legacy else 0
            tried = []
            if at != migrations.head():
                step = ("making the tables" if at is None and not legacy
                        else f"upgrading the schema from {at or 'before migrations'}")
                _migrate(connection, at)
                tried.append(f"making the tables (schema {migrations.head()})" if step == "making the tables"
                             else f"upgrading the schema to {migrations.head()}")
            step = "writing a game"
            _rehearse_a_game(connection, notify=backend == "postgresql")
            tried.append("writing, changing and deleting a game with a seat and an event")
            connection.rollback()  # nothing of the above stays
    except OperationError:
        raise
    except Exception as exc:  # noqa: BLE001 - every failure is one line for the operator
        hint = ""
        if "permission denied" in str(exc).lower() or "must be owner" in str(exc).lower():
            hint = (" (the role must own the database and its tables, as `createdb companion "
                    "--owner companion` makes it: deploy/README.md, section 4)")
        raise OperationError(f"cannot use the database {safe_url(url)}{who}: {step} failed: "
                             f"{_first_line(exc)}{hint}") from None
    finally:
        engine.dispose()
    if at is None and not legacy:
        found, next_start = "empty", " The first server start makes the tables."
    elif at == migrations.head():
        found, next_start = f"schema {at}, up to date, {_games(games)}", ""
    else:
        found, next_start = (f"schema {at or 'from before migrations'}, {_games(games)}",
                             f" The next server start upgrades it to {migrations.head()}.")
    return (f"database {safe_url(url)} answers{who}: {found}; tried, then rolled back: "
            f"{', '.join(tried)}.{next_start}")


def _games(count: int) -> str:
    return f"{count} game{'s' if count != 1 else ''}"


def _migrate(connection, at: str | None) -> None:
    """What ``migrations.upgrade`` does inside its transaction, without the commit."""
    from alembic import command
    from sqlalchemy import inspect

    from companion.store import migrations

    config = migrations._config(connection)
    if at is None and "game" in inspect(connection).get_table_names():
        migrations._adopt_legacy(connection)
        command.stamp(config, migrations.BASELINE)
    command.upgrade(config, "head")


def _rehearse_a_game(connection, *, notify: bool) -> None:
    """A tap's statements on a trial game (the server's own: insert, compare-and-swap update,
    event, seat, the address's day count, notify), then what ``prune`` deletes. The caller
    rolls it all back."""
    from datetime import datetime, timezone

    from sqlalchemy import delete, insert

    from companion.store.tables import (_COUNT_ADDRESS_BYTES, _INSERT_EVENT, _NOTIFY, AddressDay, Event,
                                        Game, Seat, _write_game)

    now = datetime.now(timezone.utc)
    game_id = connection.execute(insert(Game.__table__).values(
        code=CHECK_CODE, edition="classic", version=0, state="{}", house_cards="[]",
        host_token_hash="companion-check", log_bytes=0, compacted_below=0, created_by="companion-check",
        created_at=now, updated_at=now)).inserted_primary_key[0]
    connection.execute(insert(Seat.__table__).values(game_id=game_id, player_id=1,
                                                     token_hash="companion-check"))
    swapped = connection.execute(_write_game(True, True), {
        "w_id": game_id, "w_version": 0, "w_state": "{}", "w_house": "[]", "w_next": 1, "w_at": now,
        "w_added": 1, "w_room": 1_000_000})
    if swapped.rowcount != 1:
        raise RuntimeError("the trial game's compare-and-swap update changed no row")
    connection.execute(_INSERT_EVENT, dict(game_id=game_id, version=1, kind="action", actor_player=1,
                                           actor_host=False, action="{}", data="{}", state_before="[]",
                                           undone=False, created_at=now))
    connection.execute(_COUNT_ADDRESS_BYTES, {"id": game_id, "day": now.strftime("%Y-%m-%d"), "added": 1})
    if notify:  # sent only at commit: this one never is
        connection.execute(_NOTIFY, {"payload": f"{CHECK_CODE}:1"})
    connection.execute(delete(Event.__table__).where(Event.__table__.c.game_id == game_id))
    connection.execute(delete(Seat.__table__).where(Seat.__table__.c.game_id == game_id))
    connection.execute(delete(Game.__table__).where(Game.__table__.c.id == game_id))
    connection.execute(delete(AddressDay.__table__).where(AddressDay.__table__.c.address == "companion-check"))


def safe_url(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
