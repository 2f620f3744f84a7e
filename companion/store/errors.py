"""What the store answers when it cannot do what was asked; nothing was written then."""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy.exc import OperationalError, ProgrammingError, TimeoutError as PoolTimeout
from sqlmodel import Session

from companion.engine.errors import TooLarge
from companion.engine.words import N_, render, said

log = logging.getLogger("companion.store")

class StoreError(Exception):
    """The store could not do it; nothing was written. ``status`` is the HTTP answer; what to
    say is a said (``engine.words``), so the web layer says it in the asker's language."""

    status = 500
    retry_after: int | None = None

    def __init__(self, message: str = "", **params: Any):
        self.said = said(message, **params)
        self.message = render(self.said)
        super().__init__(self.message)


class NotFound(StoreError):
    status = 404

    def __init__(self, code: str):
        super().__init__(N_("There is no game %(code)s. Check the code."), code=code)
        self.code = code


class Busy(StoreError):
    """Too many writers at once: the change was not applied; try again."""

    status = 503
    retry_after = 1


def _too_large_game(limit: int) -> TooLarge:
    return TooLarge(N_("This game has stored as much as one game may (%(mb)s MB), so it takes no "
                       "more changes. Undo and removing house cards still work; to play on, start "
                       "a new game."), mb=f"{limit / 1_000_000:g}")


def _address_over_budget(limit: int) -> TooLarge:
    return TooLarge(N_("The games made from this network have written as much today as they may "
                       "(%(mb)s MB). Try again tomorrow, or ask whoever runs this server."),
                    mb=f"{limit / 1_000_000:g}")


class StorageFull(StoreError):
    """The disk is full: nothing was written, and nothing acknowledged was lost."""

    status = 503
    retry_after = 30


class Unavailable(StoreError):
    """The database cannot be reached, or holds a schema this process does not know (another
    process upgraded it): nothing was written."""

    status = 503
    retry_after = 10


# What the drivers say when the database is not there (SQLite: the file cannot be opened;
# PostgreSQL: no connection) and when its schema is not the one this process was made for.
_UNREACHABLE = ("unable to open database", "connection refused", "could not connect",
                "connection failed", "server closed the connection", "no such host",
                "the database system is shutting down", "the database system is starting up")
_OTHER_SCHEMA = ("no such column", "no such table", "has no column named", "does not exist")


def _other_schema(exc: BaseException | None) -> bool:
    """A statement that failed because the tables are not the ones this process knows
    (PostgreSQL raises those as ProgrammingError, SQLite as OperationalError)."""
    return isinstance(exc, ProgrammingError) and any(words in str(exc).lower() for words in _OTHER_SCHEMA)


def _storage_error(exc: Exception) -> StoreError:
    """What a phone is told about a database failure (full disk, unreachable, upgraded by
    another process, locked, pool empty)."""
    message = str(exc).lower()
    # SQLite says "database or disk is full"; PostgreSQL has SQLSTATE 53100 (disk_full).
    if "full" in message or "no space left" in message or \
            getattr(getattr(exc, "orig", None), "sqlstate", None) == "53100":
        return StorageFull(N_("The server's disk is full, so nothing more can be saved. Nothing "
                              "acknowledged was lost; tell whoever runs the server."))
    if any(words in message for words in _UNREACHABLE):
        return Unavailable(N_("The server cannot reach its database right now, so nothing was "
                              "saved; try again in a moment, or tell whoever runs the server."))
    if any(words in message for words in _OTHER_SCHEMA):
        return Unavailable(N_("The server is being upgraded, so nothing was saved; reload the "
                              "page in a minute."))
    return Busy(N_("The table is very busy; try again in a moment."))


class _GuardedSession(Session):
    """A session whose database failures leave as StoreErrors (full disk, locked, pool empty)."""

    def __enter__(self):
        try:
            return super().__enter__()
        except (OperationalError, PoolTimeout) as exc:
            raise _storage_error(exc) from exc

    def __exit__(self, kind, exc, tb):
        super().__exit__(kind, exc, tb)
        if isinstance(exc, (OperationalError, PoolTimeout)) or _other_schema(exc):
            log.warning("database failure: %s", exc)
            raise _storage_error(exc) from exc
        return False
