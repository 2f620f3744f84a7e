"""The thin store: a game row (state JSON + version), seats, and an event row per change.

Every change is read-apply-write with compare-and-swap on ``version``: the UPDATE only lands
if nobody else committed since we read, otherwise we read again and re-apply. Two phones
tapping at once therefore never lose an update, and a refused action writes nothing.
Each event keeps the state before it, which is all undo needs.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from datetime import datetime, timezone
from typing import Any, Callable

from sqlalchemy import event as sa_event, update
from sqlmodel import Field, Session, SQLModel, create_engine, select

from companion import engine
from companion.doorbell import Doorbell
from companion.engine import Actor, Forbidden

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud across a table
CODE_LENGTH = 5
LOG_KEEP = 50
RETRIES = 200


def _now() -> datetime:
    return datetime.now(timezone.utc)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Game(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    code: str = Field(index=True, unique=True, max_length=12)
    edition: str
    version: int = 0
    state: str  # JSON
    host_token_hash: str
    created_at: datetime = Field(default_factory=_now)
    updated_at: datetime = Field(default_factory=_now)


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
    text: str
    state_before: str  # JSON
    undone: bool = False
    created_at: datetime = Field(default_factory=_now)


class NotFound(Exception):
    pass


class Busy(Exception):
    """Too many writers at once: the change was not applied; try again."""


class Store:
    def __init__(self, url: str):
        connect_args = {}
        if url.startswith("sqlite"):
            connect_args = {"check_same_thread": False, "timeout": 30}
        self.engine = create_engine(url, connect_args=connect_args)
        if url.startswith("sqlite"):
            sa_event.listen(self.engine, "connect", _sqlite_pragmas)
        SQLModel.metadata.create_all(self.engine)
        self.doorbell = Doorbell()

    # --- reading -------------------------------------------------------------------------

    def _game(self, session: Session, code: str) -> Game:
        game = session.exec(select(Game).where(Game.code == code.upper())).first()
        if game is None:
            raise NotFound(code)
        return game

    def load(self, code: str) -> dict:
        with Session(self.engine) as session:
            game = self._game(session, code)
            state = json.loads(game.state)
            state["version"] = game.version
            return state

    def version(self, code: str) -> int:
        with Session(self.engine) as session:
            return self._game(session, code).version

    def actor_for(self, code: str, token: str | None) -> Actor:
        """Who a bearer token is in this game (an empty Actor for none or unknown)."""
        with Session(self.engine) as session:
            game = self._game(session, code)  # an unknown game is a 404 before any 403
            if not token:
                return Actor()
            digest = token_hash(token)
            if secrets.compare_digest(digest, game.host_token_hash):
                return Actor(host=True)
            seat = session.exec(select(Seat).where(Seat.token_hash == digest,
                                                   Seat.game_id == game.id)).first()
            if seat is None:
                return Actor()
            state = json.loads(game.state)
            if not any(p["id"] == seat.player_id for p in state["players"]):
                return Actor()  # that player's seat was taken back by an undo
            return Actor(player=seat.player_id)

    def history(self, code: str, limit: int = 200) -> list[dict]:
        with Session(self.engine) as session:
            game = self._game(session, code)
            rows = session.exec(select(Event).where(Event.game_id == game.id)
                                .order_by(Event.id.desc()).limit(limit)).all()
            return [{"version": e.version, "kind": e.kind, "text": e.text, "undone": e.undone,
                     "actor_player": e.actor_player, "actor_host": e.actor_host,
                     "at": e.created_at.isoformat()} for e in rows]

    # --- writing -------------------------------------------------------------------------

    def create_game(self, edition: str) -> tuple[dict, str]:
        host_token = secrets.token_urlsafe(24)
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            state = engine.new_game(code, edition)
            with Session(self.engine) as session:
                if session.exec(select(Game).where(Game.code == code)).first():
                    continue
                session.add(Game(code=code, edition=edition, state=json.dumps(state),
                                 host_token_hash=token_hash(host_token)))
                session.commit()
                return state, host_token
        raise Busy("could not find a free game code")

    def _commit(self, code: str, change: Callable[[dict], tuple[dict, str, dict]], *,
                kind: str, actor: Actor, action: Any) -> tuple[dict, dict]:
        """Read, change, write if nobody else wrote meanwhile; retried on a lost race."""
        for attempt in range(RETRIES):
            with Session(self.engine) as session:
                game = self._game(session, code)
                game_id, game_code = game.id, game.code
                before_json, version = game.state, game.version
                before = json.loads(before_json)
                before["version"] = version
                new, text, extra = change(before)
                new["version"] = version + 1
                new["log"] = (new.get("log", []) + [{
                    "seq": version + 1, "actor": "host" if actor.host else actor.player,
                    "text": text}])[-LOG_KEEP:]
                result = session.exec(
                    update(Game).where(Game.id == game_id, Game.version == version)
                    .values(state=json.dumps(new), version=version + 1, updated_at=_now()))
                if result.rowcount != 1:
                    session.rollback()
                    time.sleep(min(0.002 * attempt, 0.05))
                    continue
                session.add(Event(game_id=game_id, version=version + 1, kind=kind,
                                  actor_player=actor.player, actor_host=actor.host,
                                  action=json.dumps(action), text=text, state_before=before_json))
                for seat in extra.pop("_seats", []):
                    session.add(Seat(game_id=game_id, **seat))
                undone = extra.pop("_undo", None)
                if undone is not None:  # same transaction: two undos can never take back one change twice
                    session.exec(update(Event).where(Event.id == undone).values(undone=True))
                session.commit()
            self.doorbell.ring(game_code, version + 1)
            return new, extra
        raise Busy("the table is very busy; try again")

    def apply(self, code: str, action: Any, actor: Actor, **engine_kwargs) -> dict:
        def change(state: dict):
            new, text = engine.apply(state, action, actor, **engine_kwargs)
            return new, text, {}
        new, _ = self._commit(code, change, kind="action", actor=actor, action=action)
        return new

    def join(self, code: str, name: Any, sex: Any, *, phone: bool = True,
             actor: Actor | None = None) -> tuple[dict, int, str]:
        token = secrets.token_urlsafe(24)

        def change(state: dict):
            new = json.loads(json.dumps(state))
            pid = engine.add_player(new, name, sex, phone=phone)
            player = new["players"][-1]
            text = f"{player['name']} joins the table" + ("" if phone else " (no phone; the host plays for them)")
            return new, text, {"pid": pid, "_seats": [{"player_id": pid, "token_hash": token_hash(token)}]}

        new, extra = self._commit(code, change, kind="join", actor=actor or Actor(), action={
            "type": "join", "name": name if isinstance(name, str) else None, "sex": sex})
        return new, extra["pid"], token

    def undo(self, code: str, actor: Actor) -> dict:
        """Take back the latest change that is not itself undone (a strict stack)."""
        if not actor.seated:
            raise Forbidden("Join the game first.")

        def change(state: dict):
            with Session(self.engine) as session:
                game = self._game(session, code)
                last = session.exec(select(Event).where(Event.game_id == game.id,
                                                        Event.kind != "undo",
                                                        Event.undone == False)  # noqa: E712
                                    .order_by(Event.id.desc())).first()
            if last is None:
                raise engine.BadAction("There is nothing to undo.")
            if not actor.host and last.actor_player != actor.player:
                raise Forbidden("Only the player who made the last change, or the host, can undo it.")
            restored = json.loads(last.state_before)
            # The history itself is not taken back: keep the log, say what was undone.
            restored["log"] = state.get("log", [])
            return restored, f"Undo: {last.text}", {"_undo": last.id}

        new, _ = self._commit(code, change, kind="undo", actor=actor, action={"type": "undo"})
        return new


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    # WAL lets readers (live streams, page renders) run while one writer commits; the busy
    # timeout makes concurrent writers wait instead of failing.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA synchronous=FULL")  # an acknowledged change survives a crash
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
