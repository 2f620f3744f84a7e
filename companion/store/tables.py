"""The store's rows: a game, its seats, its events; and the statements a tap runs on them,
built once as SQLAlchemy Core."""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import bindparam, insert, text, update
from sqlmodel import Field, SQLModel, select

from companion import jsontext

from .doorbell import CHANNEL

EVENT_ROW_BYTES = 48  # an event row's fixed columns (ids, flags, time), counted in log_bytes


def _now() -> datetime:
    return datetime.now(timezone.utc)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Game(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    code: str = Field(index=True, unique=True, max_length=12)
    edition: str
    version: int = 0
    state: str  # JSON, without the house cards
    house_cards: str = "[]"  # JSON: the table's house cards, written only when they change
    host_token_hash: str
    log_bytes: int = 0  # bytes its events store (event_bytes), kept with each change
    compacted_below: int = 0  # event id below which every event's patch is compacted
    # A keyed hash of the address that made the game (never the address): whose daily
    # storage its changes count in (``address_day``). None for games older than the count.
    created_by: str | None = Field(default=None, max_length=64)
    created_at: datetime = Field(default_factory=_now)
    updated_at: datetime = Field(default_factory=_now, index=True)


class AddressDay(SQLModel, table=True):
    """The bytes the changes of one address's games wrote on one day (UTC)."""
    __tablename__ = "address_day"
    address: str = Field(primary_key=True, max_length=64)
    day: str = Field(primary_key=True, max_length=10)  # YYYY-MM-DD
    bytes: int = 0


class Seat(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(index=True, foreign_key="game.id")
    player_id: int
    token_hash: str = Field(index=True, unique=True)


class Event(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(index=True, foreign_key="game.id")
    version: int  # the version this event produced
    kind: str  # "action", "join", "undo"
    actor_player: int | None = None
    actor_host: bool = False
    action: str  # JSON
    data: str  # JSON: the event as data (engine/words.py); words are made when read
    # JSON: what undo needs: a reverse JSON Patch (a list), or ``null`` (COMPACTED) once undo
    # can no longer reach it. The name is the column's since the first schema.
    state_before: str
    undone: bool = False
    created_at: datetime = Field(default_factory=_now)


def event_bytes(action: str, data: str, patch: str) -> int:
    """What an event row stores, as ``game.log_bytes`` counts it."""
    return len(action) + len(data) + len(patch) + EVENT_ROW_BYTES


# The statements every tap runs, built once as SQLAlchemy Core (the ORM's select builds and
# keys a new statement each time: three times the cost of a read).
_GAME = Game.__table__
_READ_GAME = select(_GAME.c.id, _GAME.c.code, _GAME.c.version, _GAME.c.host_token_hash) \
    .where(_GAME.c.code == bindparam("code"))
_READ_VERSION = select(_GAME.c.version).where(_GAME.c.code == bindparam("code"))
_READ_STATE = select(_GAME.c.version, _GAME.c.state, _GAME.c.house_cards).where(_GAME.c.id == bindparam("id"))
_INSERT_EVENT = insert(Event.__table__)
# In a change's transaction: the bytes it writes, added to its game's creator's day; the day's
# total answered (one statement; SQLite 3.35+ and PostgreSQL alike). No row for a game that
# has no creator.
_COUNT_ADDRESS_BYTES = text(
    "INSERT INTO address_day (address, day, bytes) SELECT created_by, :day, :added FROM game "
    "WHERE id = :id AND created_by IS NOT NULL "
    "ON CONFLICT (address, day) DO UPDATE SET bytes = address_day.bytes + excluded.bytes "
    "RETURNING bytes")

_WRITES: dict[tuple[bool, bool], Any] = {}


def _write_game(house: bool, bounded: bool):
    """The compare-and-swap UPDATE of a game row (built once: a tap does not build it anew),
    with its house cards or not, and bounded or not: ``game.log_bytes`` grows by the event's
    size, and a bounded change lands only if the game then stays within its bound."""
    statement = _WRITES.get((house, bounded))
    if statement is None:
        game = Game.__table__
        where = [game.c.id == bindparam("w_id"), game.c.version == bindparam("w_version")]
        if bounded:
            where.append(game.c.log_bytes <= bindparam("w_room"))
        values = {"state": bindparam("w_state"), "version": bindparam("w_next"),
                  "updated_at": bindparam("w_at"), "log_bytes": game.c.log_bytes + bindparam("w_added")}
        if house:
            values["house_cards"] = bindparam("w_house")
        statement = _WRITES[(house, bounded)] = update(game).where(*where).values(**values)
    return statement


def _split(state: dict, before: dict | None = None) -> tuple[str, str | None]:
    """(the state's JSON without its house cards, the house cards' JSON, or None when they are
    those of ``before``: then their column is not written again)."""
    house = state.get("house_cards", [])
    if before is not None:
        held = before.get("house_cards", [])
        if house is held or house == held:
            house = None
    return (jsontext.dumps({k: v for k, v in state.items() if k != "house_cards"}),
            None if house is None else jsontext.dumps(house))


def _joined(state_json: str, house_json: str | None) -> dict:
    """A game's state as stored: its JSON with the house cards from their column."""
    state = jsontext.loads(state_json)
    state["house_cards"] = jsontext.loads(house_json or "[]")
    return state


_NOTIFY = text(f"SELECT pg_notify('{CHANNEL}', :payload)")
