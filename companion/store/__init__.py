"""The thin store: a game row (state JSON + version), seats, and an event row per change.

Every change is read-apply-write with compare-and-swap on ``version``: the UPDATE only lands
if nobody else committed since we read, otherwise we read again and re-apply. Two phones
tapping at once therefore never lose an update, and a refused action writes nothing.

Each event keeps what undo needs, compactly: a reverse JSON Patch (RFC 6902) from the state
after the change back to the state before it, over the parts undo restores. The database so
grows by about the size of a change, not the size of the game. Events and log lines are data
(``engine.words``): the web layer puts them into the reader's language, the store writes no
words. (Rows in older forms are brought to these once, by migration 0004.)

Undo never takes back the id counter or the log: player ids and card instance ids are never
reused, and the history stays honest.

What one game stores is bounded (``COMPANION_MAX_GAME_BYTES``, 20 MB by default). Undo needs the
patches of the latest changes only: every ``COMPACT_EVERY`` versions, the events that undo can
no longer reach (below the ``UNDO_KEPT`` latest changes still on undo's stack, and older undos
and undone changes) keep their action and words but lose their patch (``COMPACTED``); undo
still reaches back at least 200 changes. The game
row keeps its log's size (``game.log_bytes``), raised in the same UPDATE as each change, so
the bound costs no query per tap: a change that would cross it is refused (``TooLarge``) and
writes nothing, while undo and removing a house card, which let a full game carry on, are never
refused by it. A real game night (5,000 events) stores a few MB.

Here: ``Store`` and the steps of a commit. Beside it: ``tables`` (the rows and the statements a
tap runs), ``kept`` (what stays in memory between requests), ``errors`` (what the store answers
when it cannot), ``connect`` (opening SQLite or PostgreSQL), ``doorbell`` (waking the live
streams, across processes too) and ``migrations`` (the schema, and old rows brought up once).
"""

from __future__ import annotations

import logging
import os
from datetime import timedelta
import secrets
import time
from dataclasses import dataclass, replace
from typing import Any, Callable

from sqlalchemy import delete, event as sa_event, func, or_, update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError, TimeoutError as PoolTimeout
from sqlmodel import Session, create_engine, select

from companion import engine, jsontext
from companion.engine import Actor, Forbidden, chronicle
from companion.engine.core import SEATING
from companion.engine.errors import TooLarge
from companion.engine.frozen import SharedWrite, cow_root, settle
from companion.engine.undo import Change, reverse_patch, take_back
from companion.engine.words import N_, in_log

from . import migrations
from .connect import _sqlite_pragmas, database_url
from .doorbell import Doorbell, PostgresListener, VersionPoll
from .errors import (Busy, NotFound, StorageFull, StoreError, _address_over_budget, _GuardedSession,
                     _storage_error, _too_large_game)
from .kept import SEATS_KEPT, STATES_KEPT, Lru, _Latest, _not_as_parsed
from .tables import (_COUNT_ADDRESS_BYTES, _INSERT_EVENT, _NOTIFY, _READ_GAME, _READ_STATE, _READ_VERSION,
                     EVENT_ROW_BYTES, AddressDay, Event, Game, Seat, _joined, _now, _split, _write_game,
                     event_bytes, token_hash)

# What others import from the store, whichever of its modules holds it.
__all__ = ["Busy", "Changed", "CODE_ALPHABET", "COMPACTED", "EVENT_ROW_BYTES", "Event", "Game", "Loaded",
           "Lru", "MAX_GAME_BYTES", "MAX_STATE_BYTES", "NotFound", "Seat", "StorageFull", "Store",
           "StoreError", "database_url", "event_bytes", "migrations", "token_hash"]

log = logging.getLogger(__name__)

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud across a table
CODE_LENGTH = 7  # 31**7 (27 billion) codes: guessing a live game is hopeless, and throttled
LOG_KEEP = 50
RETRIES = 200
MAX_STATE_BYTES = 1_000_000  # a long real game is ~50 KB; 300 house cards add ~150 KB
MAX_GAME_BYTES = 20_000_000  # what one game may store: state, house cards and its event log
# What the games made from one address may write in a day (UTC): a café's ten tables behind one
# address write a few MB an evening; one address filling the disk at 2 GB an hour does not.
MAX_BYTES_PER_ADDRESS = 200_000_000
# Undo past the day's budget: it may still take back what was done within it, up to this share
# of the budget past it; an endless change-and-undo stops there.
UNDO_ALLOWANCE = 0.25
GAME_TTL_DAYS = 90  # games nobody changed for this long are deleted (``prune``)
# Compaction keeps the patches of the UNDO_KEPT latest changes on undo's stack, every
# COMPACT_EVERY versions; undos in between use up at most COMPACT_EVERY of them, so a run of
# undos reaches back at least UNDO_KEPT - COMPACT_EVERY (200) changes: further only if the
# table has itself just taken back that many.
UNDO_KEPT = 300
COMPACT_EVERY = 100  # versions between compactions of a game's log (done inside that commit)
COMPACTED = "null"  # an event's patch once compacted: it can no longer be undone
FREES_SPACE = frozenset({"remove_house_card"})  # actions never refused at the bound, nor undo


@dataclass(frozen=True)
class Changed:
    """What a commit's change hands the store: the new state, the event, and the seat rows
    and log row it changes with it."""

    state: dict
    event: dict
    seats: tuple[tuple[int, str], ...] = ()  # (player id, token hash) of seats taken
    dropped_seats: tuple[int, ...] = ()  # player ids whose seats go (an undone join)
    undoes: int | None = None  # the event row an undo takes back


@dataclass(frozen=True)
class _Rows:
    """One change as the store writes it: JSON for the game row and the event row."""

    state: str  # the state without its house cards
    house: str | None  # the house cards, None when unchanged (their column is not written)
    house_bytes: int  # the house cards' size as stored, changed or not
    action: str
    event: str
    patch: str  # the reverse patch undo applies

    @property
    def event_bytes(self) -> int:
        return event_bytes(self.action, self.event, self.patch)


def _next_version(before: dict, changed: Changed, *, kind: str, actor: Actor, version: int) -> dict:
    """The changed state settled as the next version: the chronicle recorded, the version and
    the id counter moved on, the event appended to the log."""
    new, happened = changed.state, changed.event
    if kind != "undo":  # an undo's reverse patch restores the chronicle itself
        chronicle.record(before, new, happened)
    new["version"] = version + 1
    # Ids only ever go up, whatever a change (an undo) restored.
    new["next_id"] = max(new.get("next_id", 1), before.get("next_id", 1))
    if kind != "undo":
        # What an undo would take back now, and who may (its maker, or the host): an undo's
        # reverse patch restores the one before, so it is always the latest change not undone.
        # Its words are the log line of that version (``seq``): the state stays as small.
        new["last_change"] = {"actor": "host" if actor.host else actor.player, "seq": version + 1}
    if in_log(happened):  # a count corrected by hand writes none (engine/words.py)
        new["log"] = (new.get("log", []) + [{
            "seq": version + 1, "actor": "host" if actor.host else actor.player, "event": happened}])[-LOG_KEEP:]
    return new


@dataclass(frozen=True)
class Loaded:
    """A game as read: its frozen state (with ``version``), its row id and host token's hash."""

    state: dict
    game_id: int
    host_token_hash: str


class Store:
    """Games in SQLite (the embedded default) or PostgreSQL (several processes), the same way.

    Opening it brings the schema up to date (``companion.store.migrations``). Its doorbell rings for
    changes committed here and, through a background watcher that runs while streams wait,
    for changes committed by other processes on the same database: PostgreSQL's
    LISTEN/NOTIFY, or on SQLite a version poll every ``poll_interval`` seconds.
    """

    def __init__(self, url: str, *, pool_size: int = 16, poll_interval: float = 1.0,
                 max_game_bytes: int | None = None, check_kept: bool = False):
        url = database_url(url)
        # Tests: each state kept for the next readers is compared with its JSON read back.
        self.check_kept = check_kept
        # What one game may store; COMPANION_MAX_GAME_BYTES, else MAX_GAME_BYTES.
        self.max_game_bytes = int(max_game_bytes or os.environ.get("COMPANION_MAX_GAME_BYTES")
                                  or MAX_GAME_BYTES)
        # What one address's games may write a day; COMPANION_MAX_BYTES_PER_ADDRESS.
        self.max_bytes_per_address = int(os.environ.get("COMPANION_MAX_BYTES_PER_ADDRESS")
                                         or MAX_BYTES_PER_ADDRESS)
        # Days a game may sit unchanged before ``prune`` deletes it; COMPANION_GAME_TTL_DAYS.
        self.game_ttl_days = float(os.environ.get("COMPANION_GAME_TTL_DAYS") or GAME_TTL_DAYS)
        backend = make_url(url).get_backend_name()
        connect_args: dict[str, Any] = {}
        if backend == "sqlite":
            connect_args = {"check_same_thread": False, "timeout": 30}
        elif backend == "postgresql":  # times read back in UTC, as written
            options = str(make_url(url).query.get("options", ""))
            if "timezone" not in options.lower():
                connect_args = {"options": f"{options} -c timezone=UTC".strip()}
        # A request holds at most one connection at a time (undo reuses the commit's session),
        # so the pool covers the requests running at once; when it is empty, a request waits a
        # few seconds and then answers "busy" instead of stalling every table.
        try:
            self.engine = create_engine(url, connect_args=connect_args, pool_size=pool_size,
                                        max_overflow=pool_size * 4, pool_timeout=5,
                                        pool_pre_ping=backend == "postgresql")
        except ModuleNotFoundError as exc:
            if backend != "postgresql":
                raise
            raise RuntimeError("PostgreSQL needs its driver, psycopg 3: pip install "
                               "'munchkin-companion[postgres]' (from a checkout: pip install -e "
                               "'.[postgres]')") from exc
        if backend == "sqlite":
            sa_event.listen(self.engine, "connect", _sqlite_pragmas)
        migrations.upgrade(self.engine)
        self._states = _Latest(STATES_KEPT)
        self._house_bytes = Lru(STATES_KEPT)  # each game's house cards' JSON size, as written
        self._seats = Lru(SEATS_KEPT)
        self.doorbell = Doorbell()
        self._notify = backend == "postgresql"
        if self._notify:
            self.watcher = PostgresListener(self.doorbell, self._versions, self._listen_connection)
        else:
            self.watcher = VersionPoll(self.doorbell, self._versions, interval=poll_interval)

    def _session(self) -> Session:
        return _GuardedSession(self.engine)

    def _listen_connection(self):
        """A new connection of its own (not from the pool) for the doorbell's LISTEN."""
        import psycopg

        args, params = self.engine.dialect.create_connect_args(self.engine.url)
        params.pop("context", None)
        params.setdefault("application_name", "companion-doorbell")
        # A listener waits silently for hours: keepalives notice a peer that vanished.
        for key, value in (("keepalives", 1), ("keepalives_idle", 30), ("keepalives_interval", 10),
                           ("keepalives_count", 3), ("connect_timeout", 10)):
            params.setdefault(key, value)
        return psycopg.connect(*args, autocommit=True, **params)

    def close(self) -> None:
        """Stop the doorbell's watcher and close every pooled connection."""
        self.watcher.close()
        self.engine.dispose()

    # --- reading -------------------------------------------------------------------------

    def _game(self, session: Session, code: str) -> Game:
        game = session.exec(select(Game).where(Game.code == code.upper())).first()
        if game is None:
            raise NotFound(code)
        return game

    def read(self, code: str) -> Loaded:
        """The game as it is now: its state (frozen: shared by every reader of this version,
        parsed once per version in this process), and what tells its seats apart."""
        try:  # a bare connection, not a session: every page and stream of every phone reads
            with self.engine.connect() as connection:
                game_id, _code, _version, host_hash, state = self._latest(connection, code)
        except (OperationalError, PoolTimeout) as exc:
            log.warning("database failure: %s", exc)
            raise _storage_error(exc) from exc
        return Loaded(state=state, game_id=game_id, host_token_hash=host_hash)

    def health(self) -> dict:
        """The database answers: its schema revision and the one this process knows; a
        StoreError (``Unavailable``) when it cannot be reached."""
        try:
            with self.engine.connect() as connection:
                revision = migrations.current(connection)
        except (OperationalError, PoolTimeout) as exc:
            raise _storage_error(exc) from exc
        return {"schema": revision, "schema_known": migrations.head()}

    def load(self, code: str) -> dict:
        """The game's state now (frozen: copy it to change it, as ``engine.apply`` does)."""
        return self.read(code).state

    def version(self, code: str) -> int:
        """The game's version alone (every stream asks on opening and on its heartbeats)."""
        with self._session() as session:
            version = session.connection().execute(_READ_VERSION, {"code": code.upper()}).scalar()
            if version is None:
                raise NotFound(code)
            return version

    def existing(self, codes: list[str]) -> set[str]:
        """Which of these codes name a game, in one query."""
        return set(self._versions([code.upper() for code in codes]))

    def _versions(self, codes: list[str]) -> dict[str, int]:
        """The versions of these games, in one query per 500 (the doorbell's watcher)."""
        found: dict[str, int] = {}
        with self._session() as session:
            for i in range(0, len(codes), 500):
                rows = session.exec(select(Game.code, Game.version).where(Game.code.in_(codes[i:i + 500])))
                found.update({code: version for code, version in rows})
        return found

    def actor_for(self, code: str, token: str | None) -> Actor:
        """Who a bearer token is in this game (an empty Actor for none or unknown)."""
        return self.actor(self.read(code), token)  # an unknown game is a 404 before any 403

    def actor(self, game: Loaded, token: str | None) -> Actor:
        """Who a token is in a game already read: the host, a seated player, or nobody."""
        if not token:
            return Actor()
        digest = token_hash(token)
        if secrets.compare_digest(digest, game.host_token_hash):
            return Actor(host=True)
        pid = self._seats.get(digest)
        if pid is None or pid[0] != game.game_id:
            with self._session() as session:
                pid = session.exec(select(Seat.game_id, Seat.player_id).where(
                    Seat.token_hash == digest, Seat.game_id == game.game_id)).first()
            if pid is None:
                return Actor()
            self._seats.put(digest, tuple(pid))
        if not any(p["id"] == pid[1] for p in game.state["players"]):
            return Actor()  # the host removed that player: the token stops working at once
        return Actor(player=pid[1])

    def history(self, code: str, limit: int = 200) -> list[dict]:
        with self._session() as session:
            game = self._game(session, code)
            rows = session.exec(select(Event).where(Event.game_id == game.id)
                                .order_by(Event.id.desc()).limit(limit)).all()
            return [{"version": e.version, "kind": e.kind, "undone": e.undone, "event": jsontext.loads(e.data),
                     "actor_player": e.actor_player, "actor_host": e.actor_host,
                     "at": e.created_at.isoformat()} for e in rows]

    def with_undo_log(self, code: str) -> tuple[dict, list[tuple[int, str, dict, Any]]]:
        """The game's state and, read in the same transaction, every event up to its version in
        order: (version, kind, event, the reverse patch undo applies) for the
        timeline (``companion.web.timeline``)."""
        with self._session() as session:
            game = self._game(session, code)
            state = _joined(game.state, game.house_cards)
            state["version"] = game.version
            rows = session.exec(
                select(Event.version, Event.kind, Event.data, Event.state_before)
                .where(Event.game_id == game.id, Event.version <= game.version)
                .order_by(Event.version)).all()
        return state, [(version, kind, jsontext.loads(data), jsontext.loads(before))
                       for version, kind, data, before in rows]

    def event_sizes(self, code: str) -> list[int]:
        """Bytes each event row stores (for the growth benchmark)."""
        with self._session() as session:
            game = self._game(session, code)
            rows = session.exec(select(Event).where(Event.game_id == game.id).order_by(Event.id)).all()
            return [event_bytes(e.action, e.data, e.state_before) for e in rows]

    def stored_bytes(self, code: str) -> tuple[int, int]:
        """(what the game stores as its row counts it: state, house cards and ``log_bytes``,
        the same counted afresh from its events), for tests and benchmarks."""
        with self._session() as session:
            game = self._game(session, code)
            rows = session.exec(select(Event.action, Event.data, Event.state_before)
                                .where(Event.game_id == game.id)).all()
            counted = sum(event_bytes(*row) for row in rows)
            held = len(game.state) + len(game.house_cards or "")
            return held + game.log_bytes, held + counted

    # --- writing -------------------------------------------------------------------------

    def create_game(self, edition: str, variants: dict | None = None, *,
                    winning_level: Any = None, created_by: str | None = None) -> tuple[dict, str]:
        """A new game and its host token; ``created_by``: the creating address's key
        (``address_key``), whose daily storage its changes count in."""
        host_token = secrets.token_urlsafe(24)
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            state = engine.new_game(code, edition, variants, dice_seed=secrets.token_hex(8),
                                    winning_level=winning_level)
            with self._session() as session:
                if session.exec(select(Game).where(Game.code == code)).first():
                    continue
                stored, house = _split(state)
                session.add(Game(code=code, edition=edition, state=stored, house_cards=house,
                                 host_token_hash=token_hash(host_token), created_by=created_by))
                session.commit()
                return state, host_token
        raise Busy(N_("Could not find a free game code; try again."))

    def _current(self, session: Session, code: str) -> tuple[int, str, int, dict]:
        """(row id, code, version, frozen state) of a game, inside a commit's session."""
        game_id, game_code, version, _host, state = self._latest(session.connection(), code)
        return game_id, game_code, version, state

    def _latest(self, connection: Any, code: str) -> tuple[int, str, int, str, dict]:
        """(row id, code, version, host token hash, frozen state) of a game: the state kept
        for this version, else read whole (its version then the one read with it)."""
        row = connection.execute(_READ_GAME, {"code": code.upper()}).first()
        if row is None:
            raise NotFound(code)
        game_id, game_code, version, host_hash = row
        state = self._states.get(game_code, version)
        if state is None:
            state = self._parse(connection, game_id, game_code)
            version = state["version"]
        return game_id, game_code, version, host_hash, state

    def _parse(self, connection: Any, game_id: int, game_code: str) -> dict:
        """The game's state read whole and kept as the latest (its version read with it: the
        version read before may be older by now)."""
        version, text_, house = connection.execute(_READ_STATE, {"id": game_id}).one()
        self._house_bytes.put(game_code, len(house or ""))
        return self._states.put(game_code, version, _joined(text_, house) | {"version": version})

    def _commit(self, code: str, change: Callable[[dict, Session], Changed], *,
                kind: str, actor: Actor, action: Any, read: Loaded | None = None) -> tuple[dict, dict]:
        """Read, change, write if nobody else wrote meanwhile; retried on a lost race.

        ``change(state, session)`` gets this commit's own session, so it can read the event log
        without taking a second connection from the pool. ``read``: the game as this request
        read it a moment ago, tried first (the write's version check catches a newer one, and
        the next try reads again).
        """
        for attempt in range(RETRIES):
            with self._session() as session:
                if attempt == 0 and read is not None and read.state["code"] == code.upper():
                    game_id, game_code, version = read.game_id, read.state["code"], read.state["version"]
                    before = read.state
                else:
                    game_id, game_code, version, before = self._current(session, code)
                # ``before`` is frozen and shared: the change works on its own copy.
                changed = change(before, session)  # the action is valid past this line
                # The bound rides on the compare-and-swap: no query of its own.
                bounded = kind != "undo" and not (isinstance(action, dict) and action.get("type") in FREES_SPACE)
                new = _next_version(before, changed, kind=kind, actor=actor, version=version)
                rows = self._rows(game_code, before, new, changed.event, action)
                if not self._swap(session, game_id, version, rows, bounded):
                    session.rollback()
                    if bounded and session.exec(select(Game.version).where(Game.id == game_id)).one() == version:
                        raise _too_large_game(self.max_game_bytes)  # not a lost race: the bound
                    time.sleep(min(0.002 * attempt, 0.05))
                    continue
                self._append(session, game_id, game_code, new["version"], kind, actor, rows, changed)
                self._count_for_address(session, game_id, rows, kind)
                session.commit()
            new = self._keep(game_code, before, new, rows)
            self.doorbell.ring(game_code, new["version"])
            return new, changed.event
        raise Busy(N_("The table is very busy; try again in a moment."))

    def _rows(self, game_code: str, before: dict, new: dict, happened: dict, action: Any) -> _Rows:
        """What the change writes, as JSON; refused (``TooLarge``) past what a state may hold."""
        state_json, house_json = _split(new, before)
        house_bytes = (self._house_bytes.get(game_code) or 0) if house_json is None else len(house_json)
        if len(state_json) + house_bytes > MAX_STATE_BYTES:
            raise TooLarge(N_("That would make this game larger than %(kb)s KB, the most a "
                              "game may hold. Remove some house cards first."), kb=MAX_STATE_BYTES // 1000)
        return _Rows(state_json, house_json, house_bytes, action=jsontext.dumps(action),
                     event=jsontext.dumps(happened), patch=jsontext.dumps(reverse_patch(before, new)))

    def _swap(self, session: Session, game_id: int, version: int, rows: _Rows, bounded: bool) -> bool:
        """The compare-and-swap UPDATE of the game row: False if another change came first (or,
        ``bounded``, if the game would pass what it may store)."""
        added = rows.event_bytes
        result = session.connection().execute(_write_game(rows.house is not None, bounded), {
            "w_id": game_id, "w_version": version, "w_state": rows.state, "w_house": rows.house,
            "w_next": version + 1, "w_at": _now(), "w_added": added,
            "w_room": self.max_game_bytes - added - len(rows.state) - rows.house_bytes})
        return result.rowcount == 1

    def _append(self, session: Session, game_id: int, game_code: str, version: int, kind: str,
                actor: Actor, rows: _Rows, changed: Changed) -> None:
        """In the same transaction as the swap: the event row, the seats the change takes or
        drops, the event an undo takes back, compaction when due, and PostgreSQL's notify."""
        # A plain INSERT (no ORM object to track and flush): an event is written once.
        session.connection().execute(_INSERT_EVENT, dict(
            game_id=game_id, version=version, kind=kind, actor_player=actor.player,
            actor_host=actor.host, action=rows.action, data=rows.event, state_before=rows.patch,
            undone=False, created_at=_now()))
        if version % COMPACT_EVERY == 0 and "chronicle" in changed.state:
            self._compact(session, game_id)
        for pid, token_digest in changed.seats:
            session.add(Seat(game_id=game_id, player_id=pid, token_hash=token_digest))
        for pid in changed.dropped_seats:
            session.exec(delete(Seat).where(Seat.game_id == game_id, Seat.player_id == pid))
        if changed.undoes is not None:  # same transaction: two undos never take back one change twice
            session.exec(update(Event).where(Event.id == changed.undoes).values(undone=True))
        if self._notify:  # delivered to every process's listener when this commits
            session.connection().execute(_NOTIFY, {"payload": f"{game_code}:{version}"})

    def _count_for_address(self, session: Session, game_id: int, rows: _Rows, kind: str) -> None:
        """The change's bytes, counted in its game's creator's day; past the day's budget,
        refused with nothing written. An undo may still pass it once (taking back a change
        made within the budget), but not once the day is past the budget and its allowance."""
        day = _now().strftime("%Y-%m-%d")
        total = session.connection().execute(_COUNT_ADDRESS_BYTES, {
            "id": game_id, "day": day, "added": rows.event_bytes}).scalar()
        if total is None:
            return
        budget = self.max_bytes_per_address
        over = (total - rows.event_bytes > budget * (1 + UNDO_ALLOWANCE)) if kind == "undo" else total > budget
        if over:
            session.rollback()
            raise _address_over_budget(budget)

    def prune(self, days: float | None = None) -> int:
        """Delete the games nobody changed for ``days`` (``COMPANION_GAME_TTL_DAYS``, else
        ``GAME_TTL_DAYS``), with their seats and events, and the address counts of days before
        yesterday; answers how many games went."""
        cutoff = _now() - timedelta(days=self.game_ttl_days if days is None else days)
        with self._session() as session:
            idle = [row for row in session.exec(select(Game.id, Game.code).where(Game.updated_at < cutoff))]
            for start in range(0, len(idle), 500):
                ids = [game_id for game_id, _ in idle[start:start + 500]]
                session.exec(delete(Event).where(Event.game_id.in_(ids)))
                session.exec(delete(Seat).where(Seat.game_id.in_(ids)))
                session.exec(delete(Game).where(Game.id.in_(ids)))
            yesterday = (_now() - timedelta(days=1)).strftime("%Y-%m-%d")
            session.exec(delete(AddressDay).where(AddressDay.day < yesterday))
            session.commit()
        return len(idle)

    def _keep(self, game_code: str, before: dict, new: dict, rows: _Rows) -> dict:
        """The new state as the next readers of its version get it: itself, frozen, sharing
        every part the change did not touch with the last version (not parsed back: the engine
        writes JSON's own types, which ``check_kept`` compares under tests)."""
        if rows.house is None:
            new["house_cards"] = before.get("house_cards", [])
        self._house_bytes.put(game_code, rows.house_bytes)
        new = self._states.put(game_code, new["version"], new)
        if self.check_kept:
            wrong = _not_as_parsed(new, _joined(rows.state, rows.house or jsontext.dumps(new["house_cards"])))
            if wrong is not None:
                raise TypeError(f"the engine wrote a value JSON would read back otherwise, at {wrong}")
        return new

    def apply(self, code: str, action: Any, actor: Actor, **engine_kwargs) -> dict:
        new, _event = self.apply_event(code, action, actor, **engine_kwargs)
        return new

    def apply_event(self, code: str, action: Any, actor: Actor, *, read: Loaded | None = None,
                    **engine_kwargs) -> tuple[dict, dict]:
        """Apply an action; the new state and the event it produced (data, see engine/words.py).
        ``read``: the game as the caller read it just before (``Store.read``), tried first."""
        kind = action.get("type") if isinstance(action, dict) else getattr(action, "type", None)
        if isinstance(kind, str) and kind in SEATING:
            raise engine.BadAction(N_("A seat is taken through POST /api/games/<code>/players, "
                                      "which gives it its token."))
        return self._commit(code, _engine_change(action, actor, engine_kwargs), kind="action",
                            actor=actor, read=read,
                            action=action.model_dump(mode="json") if hasattr(action, "model_dump") else action)

    def join(self, code: str, name: Any, sex: Any, *, phone: bool = True,
             actor: Actor | None = None) -> tuple[dict, int, str]:
        """Seat a player (the engine's ``join``, by its rules) and give the seat its token."""
        token = secrets.token_urlsafe(24)
        seat = _engine_change({"type": "join", "name": name, "sex": sex, "phone": phone}, actor or Actor(), {})

        def change(state: dict, session: Session) -> Changed:
            joined = seat(state, session)
            return replace(joined, seats=((joined.event["player"], token_hash(token)),))

        new, joined = self._commit(code, change, kind="join", actor=actor or Actor(), action={
            "type": "join", "name": name if isinstance(name, str) else None,
            "sex": sex if isinstance(sex, str) else None, "phone": phone})
        return new, joined["player"], token

    def _compact(self, session: Session, game_id: int) -> None:
        """Drop the patches undo can no longer reach, inside the commit that wrote a version
        divisible by COMPACT_EVERY (so one process does it, once, under the game's write).

        Kept: every event among the game's UNDO_KEPT latest, and the UNDO_KEPT latest changes
        still on undo's stack however old (a long run of undos reaches them). Dropped: older
        undos and undone changes (undo never takes them back), and the stack below its kept
        part. What stays is a run of whole patches back from the present, which the log's
        replay (``web/timeline.py``, for games from before the chronicle, which are never
        compacted) walks as far as it goes.
        """
        def nth_latest(*where):
            return session.exec(select(Event.id).where(Event.game_id == game_id, *where)
                                .order_by(Event.id.desc()).offset(UNDO_KEPT - 1).limit(1)).first()

        window = nth_latest()
        if window is None:  # fewer events than undo keeps
            return
        low = session.exec(select(Game.compacted_below).where(Game.id == game_id)).one()
        stack = nth_latest(Event.id >= low, Event.kind != "undo", Event.undone == False)  # noqa: E712
        gone = [Event.game_id == game_id, Event.id >= low, Event.id < window,
                Event.state_before != COMPACTED,
                or_(Event.kind == "undo", Event.undone == True,  # noqa: E712
                    *([Event.id < stack] if stack is not None else []))]
        size, count = session.exec(select(func.coalesce(func.sum(func.length(Event.state_before)), 0),
                                          func.count()).where(*gone)).one()
        if count:
            session.exec(update(Event).where(*gone).values(state_before=COMPACTED))
        session.exec(update(Game).where(Game.id == game_id).values(
            log_bytes=Game.log_bytes - (int(size) - count * len(COMPACTED)),
            compacted_below=max(low, stack or 0)))

    def undo(self, code: str, actor: Actor) -> dict:
        return self.undo_event(code, actor)[0]

    def undo_event(self, code: str, actor: Actor) -> tuple[dict, dict]:
        """Take back the latest change that is not itself undone (``engine.undo``, by its rules)."""
        if not actor.seated:  # before any read: a stranger learns nothing of the log
            raise Forbidden(N_("Join the game first."))

        def change(state: dict, session: Session):
            # The one event it takes back (LIMIT 1, newest first on the game's index): the
            # ORM would otherwise load every event of the game to hand over the first.
            game_id = session.exec(select(Game.id).where(Game.code == code.upper())).one()
            last = session.exec(select(Event).where(Event.game_id == game_id, Event.kind != "undo",
                                                    Event.undone == False)  # noqa: E712
                                .order_by(Event.id.desc()).limit(1)).first()
            taken = None if last is None else Change(
                actor_player=last.actor_player, undo_data=jsontext.loads(last.state_before),
                event=jsontext.loads(last.data))
            restored, happened = take_back(state, taken, actor)
            # Which log line it takes back (its seq): a call that line raised on a phone goes.
            happened = {**happened, "undid": last.version}
            # An undone join takes its seat row, and so its token, with it.
            present = {p["id"] for p in restored["players"]}
            drop = [p["id"] for p in state["players"] if p["id"] not in present] if last.kind == "join" else []
            return Changed(restored, happened, dropped_seats=tuple(drop), undoes=last.id)

        return self._commit(code, change, kind="undo", actor=actor, action={"type": "undo"})


def _engine_change(action: Any, actor: Actor, engine_kwargs: dict):
    """A commit's change that is one engine action (``engine.apply``), worked on a
    copy-on-write view of the frozen state: the change copies only what it touches."""
    def change(state: dict, _session: Session) -> Changed:
        try:
            new, happened = engine.apply(cow_root(state), action, actor, **engine_kwargs)
        except SharedWrite:  # a reducer wrote where the view had not copied: the plain way
            new, happened = engine.apply(state, action, actor, **engine_kwargs)
        return Changed(settle(new), happened)
    return change


