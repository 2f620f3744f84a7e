"""The store on SQLite and on PostgreSQL: migrations, compare-and-swap, the doorbell across
processes, database failures answered as StoreErrors, and the first request after PostgreSQL
dropped every connection served.

Two ``Store`` objects on one database stand for two server processes: each has its own
pool and its own doorbell, so a change made through one reaches the other's streams only
the way it would across processes (LISTEN/NOTIFY, or SQLite's version poll).
Every wait is bounded.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, event as sa_event, inspect, text
from sqlalchemy.exc import OperationalError

from companion import engine
from companion.store import migrations
from companion.engine import Actor
from companion.engine.undo import reverse_patch
from companion.store import Busy, StorageFull, Store, _storage_error, token_hash

from .helpers import OLD_SQLITE_SCHEMA

BOTH_DATABASES = True
ROOT = Path(__file__).resolve().parent.parent
WAIT = 15


@pytest.fixture
def stores(database_url):
    """Open stores on ``database_url``, closed after the test."""
    opened = []

    def open_store(**kwargs) -> Store:
        store = Store(database_url, **kwargs)
        opened.append(store)
        return store

    yield open_store
    for store in opened:
        store.close()


def schema(url: str) -> dict:
    eng = create_engine(url)
    try:
        with eng.connect() as connection:
            found = inspect(connection)
            tables = {t: sorted(c["name"] for c in found.get_columns(t)) for t in found.get_table_names()}
            revisions = [r for (r,) in connection.execute(text("SELECT version_num FROM alembic_version"))] \
                if "alembic_version" in tables else []
            indexes = {i["name"] for t in tables for i in found.get_indexes(t)}
        return {"tables": tables, "revisions": revisions, "indexes": indexes}
    finally:
        eng.dispose()


EVENT_COLUMNS = sorted(["id", "game_id", "version", "kind", "actor_player", "actor_host", "action",
                        "data", "state_before", "undone", "created_at"])


# --- migrations ----------------------------------------------------------------------------

def test_a_fresh_database_gets_the_schema_and_a_second_start_changes_nothing(database_url, stores):
    store = stores()
    found = schema(database_url)
    assert set(found["tables"]) == {"alembic_version", "game", "seat", "event", "address_day"}
    assert found["tables"]["event"] == EVENT_COLUMNS
    assert found["revisions"] == [migrations.head()]
    assert {"ix_game_code", "ix_seat_game_id", "ix_seat_token_hash", "ix_event_game_id"} <= found["indexes"]
    state, _host = store.create_game("classic")
    store.join(state["code"], "Ann", "female")

    again = stores()  # a restart: nothing to do, nothing lost
    assert schema(database_url) == found
    assert [p["name"] for p in again.load(state["code"])["players"]] == ["Ann"]


def old_game() -> tuple[dict, dict]:
    """A game as an old version stored it: Ann joined, the join's event holding the whole
    state before it (no patch, no event data)."""
    before = engine.new_game("OLDGAME", "classic")
    del before["chronicle"]  # kept in the state since; an old game has none
    after = json.loads(json.dumps(before))
    pid = engine.add_player(after, "Ann", "female")
    after["version"] = 1
    after["log"] = [{"seq": 1, "actor": None, "text": "Ann joins the table"}]
    return before, after | {"_pid": pid}


def test_an_old_style_sqlite_file_is_stamped_upgraded_and_its_games_keep_working(tmp_path):
    path = tmp_path / "old.db"
    before, after = old_game()
    pid = after.pop("_pid")
    with sqlite3.connect(path) as db:  # what SQLModel.metadata.create_all made, before event.data
        db.executescript(OLD_SQLITE_SCHEMA)
        db.execute("INSERT INTO game VALUES (1, 'OLDGAME', 'classic', 1, ?, ?, '2024-01-01 00:00:00', "
                   "'2024-01-01 00:00:00')", (json.dumps(after), token_hash("old-host")))
        db.execute("INSERT INTO seat VALUES (1, 1, ?, ?)", (pid, token_hash("ann-token")))
        db.execute("INSERT INTO event VALUES (1, 1, 1, 'join', NULL, 0, '{\"type\": \"join\"}', "
                   "'Ann joins the table', ?, 0, '2024-01-01 00:00:00')", (json.dumps(before),))
    db.close()
    url = f"sqlite:///{path}"
    store = Store(url)
    try:
        found = schema(url)
        assert found["revisions"] == [migrations.head()]
        assert found["tables"]["event"] == EVENT_COLUMNS
        _check_old_game_works(store, pid)
    finally:
        store.close()
    again = Store(url)  # and a second start is a no-op
    again.close()
    assert schema(url) == found


def test_old_whole_states_become_patches_that_undo_walks_back_through(tmp_path):
    """Two joins stored as whole states, then a level stored as a patch (as the app wrote them
    before and after patches): after the migration, undo takes all three back in turn."""
    empty = engine.new_game("OLDGAME", "classic")
    with_ann = json.loads(json.dumps(empty))
    ann = engine.add_player(with_ann, "Ann", "female")
    both = json.loads(json.dumps(with_ann))
    bob = engine.add_player(both, "Bob", "male")
    levelled = json.loads(json.dumps(both))
    levelled["players"][1]["level"] = 2
    levelled["version"] = 3
    rows = [(1, "join", "Ann joins the table", None, json.dumps(empty)),
            (2, "join", "Bob joins the table", None, json.dumps(with_ann)),
            (3, "action", "Bob: level 1 to 2", json.dumps({"kind": "level", "player": bob}),
             json.dumps(reverse_patch(both, levelled)))]
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SQLITE_SCHEMA)
        db.execute("INSERT INTO game VALUES (1, 'OLDGAME', 'classic', 3, ?, ?, '2024-01-01 00:00:00', "
                   "'2024-01-01 00:00:00')", (json.dumps(levelled), token_hash("old-host")))
        db.execute("ALTER TABLE event ADD COLUMN data VARCHAR")
        for version, kind, line, data, before in rows:
            db.execute("INSERT INTO event (game_id, version, kind, actor_player, actor_host, action, text, "
                       "state_before, undone, created_at, data) VALUES (1, ?, ?, NULL, 1, '{}', ?, ?, 0, "
                       "'2024-01-01 00:00:00', ?)", (version, kind, line, before, data))
    db.close()
    store = Store(f"sqlite:///{path}")
    try:
        with store.engine.connect() as connection:
            patches = [json.loads(p) for p in connection.execute(
                text("SELECT state_before FROM event ORDER BY version")).scalars()]
        assert all(isinstance(p, list) for p in patches)
        host = Actor(host=True)
        assert [p["level"] for p in store.undo("OLDGAME", host)["players"]] == [1, 1]
        assert [p["id"] for p in store.undo("OLDGAME", host)["players"]] == [ann]
        assert store.undo("OLDGAME", host)["players"] == []
    finally:
        store.close()


def _check_old_game_works(store: Store, pid: int) -> None:
    # Migrated once: the English line is an event, the whole state a patch, the log line data.
    with store.engine.connect() as connection:
        data, patch = connection.execute(text("SELECT data, state_before FROM event")).one()
        stored = json.loads(connection.execute(text("SELECT state FROM game")).scalar())
    assert json.loads(data) == {"kind": "note", "text": "Ann joins the table"}
    assert isinstance(json.loads(patch), list)
    assert stored["log"] == [{"seq": 1, "actor": None, "event": {"kind": "note", "text": "Ann joins the table"}}]
    assert store.stored_bytes("OLDGAME")[0] == store.stored_bytes("OLDGAME")[1]  # log_bytes counted again
    assert store.version("oldgame") == 1
    ann = store.actor_for("OLDGAME", "ann-token")
    assert ann == Actor(player=pid)
    assert store.actor_for("OLDGAME", "old-host") == Actor(host=True)
    new = store.apply("OLDGAME", {"type": "level", "player": pid, "delta": 2}, ann)
    assert new["players"][0]["level"] == 3 and new["version"] == 2
    history = store.history("OLDGAME")
    assert [h["kind"] for h in history] == ["action", "join"]
    assert history[1]["event"] == {"kind": "note", "text": "Ann joins the table"}
    assert store.undo("OLDGAME", ann)["players"][0]["level"] == 1  # a patch event
    assert store.undo("OLDGAME", Actor(host=True))["players"] == []  # the old whole-state event
    assert store.actor_for("OLDGAME", "ann-token") == Actor()  # the undone join took its seat


def test_house_cards_stored_inside_an_old_state_move_to_their_own_column(tmp_path):
    path = tmp_path / "old.db"
    _before, after = old_game()
    pid = after.pop("_pid")
    card = {"id": "house/rubber-chicken", "kind": "item", "name": "Rubber Chicken", "set": "house",
            "bonus": 1, "slot": "other"}
    after["house_cards"] = [card]
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SQLITE_SCHEMA)
        db.execute("INSERT INTO game VALUES (1, 'OLDGAME', 'classic', 1, ?, ?, '2024-01-01 00:00:00', "
                   "'2024-01-01 00:00:00')", (json.dumps(after), token_hash("old-host")))
        db.execute("INSERT INTO seat VALUES (1, 1, ?, ?)", (pid, token_hash("ann-token")))
    db.close()
    store = Store(f"sqlite:///{path}")
    try:
        assert store.load("OLDGAME")["house_cards"] == [card]
        with sqlite3.connect(path) as db:
            state, house = db.execute("SELECT state, house_cards FROM game").fetchone()
        db.close()
        assert "house_cards" not in json.loads(state) and json.loads(house) == [card]
        new = store.apply("OLDGAME", {"type": "level", "player": pid, "delta": 1}, Actor(player=pid))
        assert new["house_cards"] == [card]
        assert Store(f"sqlite:///{path}").load("OLDGAME")["house_cards"] == [card]  # as read afresh
    finally:
        store.close()


def test_an_old_game_is_counted_when_the_database_is_upgraded(tmp_path):
    path = tmp_path / "old.db"
    before, after = old_game()
    pid = after.pop("_pid")
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SQLITE_SCHEMA)
        db.execute("INSERT INTO game VALUES (1, 'OLDGAME', 'classic', 1, ?, ?, '2024-01-01 00:00:00', "
                   "'2024-01-01 00:00:00')", (json.dumps(after), token_hash("old-host")))
        db.execute("INSERT INTO event VALUES (1, 1, 1, 'join', NULL, 0, '{\"type\": \"join\"}', "
                   "'Ann joins the table', ?, 0, '2024-01-01 00:00:00')", (json.dumps(before),))
    db.close()
    store = Store(f"sqlite:///{path}")
    try:
        tracked, counted = store.stored_bytes("OLDGAME")
        assert tracked == counted > len(json.dumps(before))
        store.apply("OLDGAME", {"type": "level", "player": pid, "delta": 1}, Actor(player=pid))
        tracked, counted = store.stored_bytes("OLDGAME")
        assert tracked == counted
    finally:
        store.close()


def test_a_tap_does_not_write_the_house_cards_again_a_change_to_them_does(stores):
    store = stores()
    state, host_token = store.create_game("classic")
    host = Actor(host=True)
    code = state["code"]
    store.apply(code, {"type": "add_house_card", "card": {"kind": "item", "name": "Rubber Chicken"}}, host)
    pid = store.join(code, "Ann", "female")[1]
    written: list[str] = []

    def capture(_conn, _cursor, statement, _params, _context, _many):
        if statement.lstrip().upper().startswith("UPDATE GAME"):
            written.append(statement)

    sa_event.listen(store.engine, "before_cursor_execute", capture)
    try:
        store.apply(code, {"type": "level", "player": pid, "delta": 1}, host)
        assert written and not any("house_cards" in s for s in written)
        written.clear()
        store.apply(code, {"type": "add_house_card", "card": {"kind": "item", "name": "Spork"}}, host)
        assert any("house_cards" in s for s in written)
    finally:
        sa_event.remove(store.engine, "before_cursor_execute", capture)
    fresh = stores()  # another process reads both back
    assert [c["name"] for c in fresh.load(code)["house_cards"]] == ["Rubber Chicken", "Spork"]


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_an_old_style_postgresql_database_is_stamped_and_upgraded(database_url):
    before, after = old_game()
    pid = after.pop("_pid")
    eng = create_engine(database_url)
    with eng.begin() as connection:
        for statement in OLD_SQLITE_SCHEMA.replace("(id INTEGER NOT NULL", "(id SERIAL NOT NULL") \
                .replace("DATETIME", "TIMESTAMP WITH TIME ZONE").split(";"):
            if statement.strip():
                connection.exec_driver_sql(statement)
        connection.execute(text("INSERT INTO game (code, edition, version, state, host_token_hash, created_at, "
                                "updated_at) VALUES ('OLDGAME', 'classic', 1, :state, :host, now(), now())"),
                           {"state": json.dumps(after), "host": token_hash("old-host")})
        connection.execute(text("INSERT INTO seat (game_id, player_id, token_hash) VALUES (1, :pid, :token)"),
                           {"pid": pid, "token": token_hash("ann-token")})
        connection.execute(text("INSERT INTO event (game_id, version, kind, actor_player, actor_host, action, "
                                "text, state_before, undone, created_at) VALUES (1, 1, 'join', NULL, false, "
                                "'{}', 'Ann joins the table', :before, false, now())"), {"before": json.dumps(before)})
    eng.dispose()
    store = Store(database_url)
    try:
        found = schema(database_url)
        assert found["revisions"] == [migrations.head()] and found["tables"]["event"] == EVENT_COLUMNS
        _check_old_game_works(store, pid)
    finally:
        store.close()


STARTER = """
import sys
from companion.store import Store
print("ready", flush=True)
sys.stdin.readline()
Store(sys.argv[1]).close()
"""


def test_processes_starting_at_once_on_a_fresh_database_migrate_it_once(database_url):
    procs = [subprocess.Popen([sys.executable, "-c", STARTER, database_url], cwd=ROOT, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    try:
        for proc in procs:  # all of them past their imports ...
            assert proc.stdout.readline() == b"ready\n", proc.stderr.read().decode()[-2000:]
        for proc in procs:  # ... then all at the same moment
            proc.stdin.write(b"go\n")
            proc.stdin.flush()
        errors = []
        for proc in procs:
            _out, err = proc.communicate(timeout=60)
            if proc.returncode:
                errors.append(err.decode()[-2000:])
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(5)
    assert not errors, errors
    found = schema(database_url)
    assert found["revisions"] == [migrations.head()] and found["tables"]["event"] == EVENT_COLUMNS


# --- compare-and-swap ----------------------------------------------------------------------

def test_two_stores_tapping_at_once_lose_no_update(stores):
    """Two stores (two processes), ten threads each, one counter: every tap lands once."""
    first, second = stores(), stores()
    state, _ = first.create_game("classic")
    code = state["code"]
    _, pid, _ = first.join(code, "Ann", "female")
    start = threading.Barrier(20)
    versions, failures = [], []

    def tap(store):
        start.wait(WAIT)
        try:
            new = store.apply(code, {"type": "gear", "player": pid, "delta": 1}, Actor(host=True))
            versions.append(new["version"])
        except Exception as exc:  # noqa: BLE001 - reported below
            failures.append(repr(exc))

    threads = [threading.Thread(target=tap, args=(first if i % 2 else second,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not failures
    assert sorted(versions) == list(range(2, 22))  # each commit its own version, none twice
    final = second.load(code)
    assert final["players"][0]["gear_adjust"] == 20 and final["version"] == 21
    assert len(first.history(code)) == 21


def test_version_reads_only_the_version_column(stores):
    store = stores()
    state, _ = store.create_game("classic")
    statements = []
    listener = lambda conn, cursor, statement, *rest: statements.append(statement)  # noqa: E731
    sa_event.listen(store.engine, "before_cursor_execute", listener)
    try:
        assert store.version(state["code"].lower()) == 0
    finally:
        sa_event.remove(store.engine, "before_cursor_execute", listener)
    selects = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    assert len(selects) == 1 and "state" not in selects[0].split("FROM")[0], selects


# --- the doorbell across processes ---------------------------------------------------------

def wait_in_thread(store: Store, code: str, seen: int) -> tuple[threading.Thread, list]:
    answers: list = []
    waiter = threading.Thread(target=lambda: answers.append((store.doorbell.wait(code, seen, timeout=WAIT),
                                                             time.monotonic())))
    waiter.start()
    deadline = time.monotonic() + WAIT
    while code not in store.doorbell.waiting() and time.monotonic() < deadline:
        time.sleep(0.01)
    return waiter, answers


def test_a_change_through_one_store_rings_the_streams_of_another(stores):
    here, there = stores(), stores(poll_interval=0.2)
    state, _ = here.create_game("classic")
    code = state["code"]
    _, pid, _ = here.join(code, "Ann", "female")
    # The other process has been listening for a while already (as with streams open).
    waiter, answers = wait_in_thread(there, code, 1)
    deadline = time.monotonic() + WAIT
    while not there.watcher.running and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.3)
    sent = time.monotonic()
    here.apply(code, {"type": "level", "player": pid, "delta": 1}, Actor(player=pid))
    waiter.join(WAIT)
    assert answers and answers[0][0] == 2
    assert answers[0][1] - sent < 5.0  # nothing but the watcher could have told it (bounded)


def test_the_watcher_runs_only_while_streams_wait(stores):
    store = stores(poll_interval=0.05)
    store.watcher.linger = 0.2
    store.watcher.tick = 0.05  # the listener's look at whether it is idle (PostgreSQL)
    state, _ = store.create_game("classic")
    assert not store.watcher.running
    assert store.doorbell.wait(state["code"], 0, timeout=0.3) is None
    assert store.watcher.running  # started by the wait, lingers a moment after it
    deadline = time.monotonic() + WAIT
    while store.watcher.running and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not store.watcher.running
    waiter, answers = wait_in_thread(store, state["code"], 0)  # and it comes back
    assert store.watcher.running
    store.doorbell.ring(state["code"], 1)
    waiter.join(WAIT)
    assert answers[0][0] == 1


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_the_listener_reconnects_and_catches_up_on_what_it_missed(stores, database_url, postgres_admin):
    here, there = stores(), stores()
    state, _ = here.create_game("classic")
    code = state["code"]
    _, pid, _ = here.join(code, "Ann", "female")
    waiter, answers = wait_in_thread(there, code, 1)
    deadline = time.monotonic() + WAIT
    while there.watcher.backend_pid is None and time.monotonic() < deadline:
        time.sleep(0.01)
    first_pid = there.watcher.backend_pid
    assert first_pid
    # A change whose notification is lost (sent by nobody), then the listener's connection drops.
    here._notify = False
    here.apply(code, {"type": "level", "player": pid, "delta": 1}, Actor(player=pid))
    here._notify = True
    time.sleep(0.2)
    assert not answers  # nobody told the other process yet
    with postgres_admin.connect() as connection:
        assert connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": first_pid}).scalar()
    waiter.join(WAIT)
    assert answers and answers[0][0] == 2  # caught up by the recheck after reconnecting
    assert there.watcher.connections >= 2 and there.watcher.backend_pid != first_pid
    # And it listens again: the next change arrives by notification.
    waiter, answers = wait_in_thread(there, code, 2)
    here.apply(code, {"type": "level", "player": pid, "delta": 1}, Actor(player=pid))
    waiter.join(WAIT)
    assert answers and answers[0][0] == 3


# --- failures --------------------------------------------------------------------------------

@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_a_dropped_database_connection_is_replaced_and_the_read_served(stores, database_url, postgres_admin):
    store = stores()
    state, _ = store.create_game("classic")
    store.load(state["code"])  # a pooled connection now exists
    name = store.engine.url.database
    with postgres_admin.connect() as connection:
        connection.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :name "
                                "AND pid <> pg_backend_pid() AND application_name <> 'companion-tests'"),
                           {"name": name})
    # The pool tests a connection before handing it out (pre-ping): the dead one is replaced,
    # and the very first read after the drop is served.
    assert store.load(state["code"])["code"] == state["code"]
    assert store.version(state["code"]) == state["version"]


class _Orig(Exception):
    def __init__(self, message, sqlstate):
        super().__init__(message)
        self.sqlstate = sqlstate


@pytest.mark.parametrize("message, sqlstate, kind", [
    ("database or disk is full", None, StorageFull),  # SQLite
    ('could not extend file "base/16384/16385": No space left on device', "53100", StorageFull),  # PostgreSQL
    ("database is locked", None, Busy),
    ("sorry, too many clients already", "53300", Busy),
])
def test_database_failures_are_told_as_store_errors(message, sqlstate, kind):
    error = OperationalError("SELECT 1", {}, _Orig(message, sqlstate))
    told = _storage_error(error)
    assert type(told) is kind and told.status == 503 and told.retry_after


def test_a_change_tried_on_a_read_gone_stale_is_made_on_the_newer_state(stores):
    store = stores()
    state, _host = store.create_game("classic")
    code, host = state["code"], Actor(host=True)
    pid = store.join(code, "Ann", "female")[1]
    seen = store.read(code)  # what a request read before its change
    store.apply(code, {"type": "level", "player": pid, "delta": 1}, host)  # another phone, meanwhile
    new, _event = store.apply_event(code, {"type": "gear", "player": pid, "delta": 2}, host, read=seen)
    assert new["players"][0]["level"] == 2 and new["players"][0]["gear_adjust"] == 2
    assert new["version"] == seen.state["version"] + 2
    again = stores().load(code)  # as written
    assert again["players"][0]["level"] == 2 and again["version"] == new["version"]


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_the_first_request_after_postgres_drops_its_connections_is_served(client, app, postgres_admin):
    code = client.post("/api/games", json={"edition": "classic"}).json["code"]
    assert client.get(f"/api/games/{code}").status_code == 200  # a pooled connection now exists
    store = app.extensions["companion_store"]
    name = store.engine.url.database
    with postgres_admin.connect() as connection:  # what a restart does to every connection
        killed = connection.execute(text(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = :name "
            "AND pid <> pg_backend_pid() AND application_name <> 'companion-tests'"), {"name": name}).scalar()
    assert killed
    r = client.get(f"/api/games/{code}")
    assert r.status_code == 200, r.data
    r = client.post(f"/api/games/{code}/players", json={"name": "Ann", "sex": "female"})
    assert r.status_code == 201, r.data
