"""The hardening issue: each attack an attacker tried against 127.0.0.1, as a test.

Seats and ids survive undo, a busy table answers JSON, bad input never reaches a 500, the
database grows by the size of a change, guessing codes is throttled, the host can remove a
player and lock the table, and names cannot impersonate each other.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading

import pytest
from sqlalchemy import event as sa_event

from companion import create_app
from companion.store import CODE_ALPHABET, Game, token_hash
from sqlmodel import Session

from .helpers import ApiTable


BOTH_DATABASES = True  # every test here that uses the database runs on SQLite and PostgreSQL


def make_app(where, **config):
    """An app on ``where``: a database URL, or a folder for a SQLite file."""
    url = where if isinstance(where, str) else f"sqlite:///{where / 'hard.db'}"
    return create_app({"TESTING": True, "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False,
                       "COMPANION_DATABASE_URL": url, **config})


HOUSE_MONSTER = {"kind": "monster", "name": "Tax Collector", "level": 4, "treasures": 1}


def house_cards(count, prefix="Card"):
    return [dict(HOUSE_MONSTER, name=f"{prefix} {i}") for i in range(count)]


# --- seats and ids across undo -------------------------------------------------------------

def test_an_undone_join_leaves_no_token_that_controls_the_next_player(table):
    table.join("Ann")
    # Ann takes a second seat with her own token, then undoes that join.
    second = table.request("POST", "players", "Ann", json={"name": "Shadow", "sex": "male"}).get_json()
    table.undo("Ann")
    bob = table.join("Bob")
    assert bob["player_id"] != second["player_id"], "a player id was reused after undo"
    # The undone seat's token is dead: it cannot act, not even for the newcomer.
    r = table.request("POST", "actions", headers={"Authorization": f"Bearer {second['token']}"},
                      json={"type": "die", "player": bob["player_id"]})
    assert r.status_code == 403
    assert not table.player("Bob")["dead"]


def test_card_instance_ids_are_never_reused_across_undo(table):
    table.join("Ann")
    pid = table.ids["Ann"]
    table.act("Ann", {"type": "play", "player": pid, "card": {"kind": "item", "name": "Club", "bonus": 1}})
    first = table.player("Ann")["cards"][0]["iid"]
    table.undo("Ann")
    table.act("Ann", {"type": "play", "player": pid, "card": {"kind": "item", "name": "Club", "bonus": 1}})
    again = table.player("Ann")["cards"][0]["iid"]
    assert again != first


def test_undo_restores_the_state_before_and_keeps_log_and_counter(table):
    table.join("Ann")
    pid = table.ids["Ann"]
    table.act("Ann", {"type": "level", "player": pid, "delta": 2})
    table.act("Ann", {"type": "gear", "player": pid, "delta": 3})
    table.undo("Ann")
    table.undo("Ann")
    ann = table.player("Ann")
    assert (ann["level"], ann["gear_adjust"]) == (1, 0)
    state = table.state()
    assert len(state["log"]) == 5  # join, level, gear, two undos: the history is not taken back


# --- concurrency ---------------------------------------------------------------------------

def test_thirty_undos_at_once_answer_json_and_never_500(database_url):
    # A small pool makes the old bug (undo opening a second session inside the commit's
    # own) deadlock at once; now each undo uses one connection.
    app = make_app(database_url, COMPANION_DB_POOL_SIZE=3)
    table = ApiTable(app.test_client())
    table.join("Ann")
    for _ in range(30):  # one more event than undos (the join), so Ann stays seated
        table.act("host", {"type": "gear", "player": table.ids["Ann"], "delta": 1})
    other = ApiTable(app.test_client())
    other.join("Zed")
    start = threading.Barrier(30)
    answers = []

    def host_taps_undo():
        client = app.test_client()
        start.wait()
        r = client.post(f"/api/games/{table.code}/undo", headers=table.auth("host"))
        answers.append((r.status_code, r.is_json, r.headers.get("Retry-After")))

    threads = [threading.Thread(target=host_taps_undo) for _ in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(answers) == 30
    assert all(is_json for _, is_json, _ in answers)
    assert not [a for a in answers if a[0] >= 500 and not (a[0] == 503 and a[2])], answers
    undone = sum(1 for status, _, _ in answers if status == 200)
    assert undone >= 1
    assert table.player("Ann")["gear_adjust"] == 30 - undone
    # The other table was never stalled.
    other.act("Zed", {"type": "gear", "player": other.ids["Zed"], "delta": 1})
    app.extensions["companion_store"].close()


# --- bad input and failures answer JSON ----------------------------------------------------

def test_a_bug_answers_json_500_with_an_incident_id_that_is_logged(table, monkeypatch, caplog):
    table.join("Ann")
    from companion import engine

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(engine, "apply", broken)
    with caplog.at_level(logging.ERROR, logger="companion.errors"):
        r = table.send("Ann", {"type": "gear", "player": table.ids["Ann"], "delta": 1})
    assert r.status_code == 500 and r.is_json
    incident = r.get_json()["error"]["incident"]
    assert incident in r.get_json()["error"]["message"]
    assert any(incident in rec.getMessage() and rec.exc_info for rec in caplog.records)


@pytest.mark.parametrize("path", ["/api/nowhere", "/api/games/ABCDEFG", "/api/rules/no-such-rule"])
def test_every_api_answer_is_json_even_a_404(client, path):
    r = client.get(path)
    assert r.status_code == 404 and r.is_json and r.get_json()["error"]["message"]


def test_a_wrong_method_under_api_is_json(client):
    r = client.delete("/api/games")
    assert r.status_code == 405 and r.is_json


@pytest.mark.parametrize("body", [
    "[" * 1000 + "]" * 1000,
    '{"type": ' + "[" * 1000 + "]" * 1000 + "}",
    '{"type": "rename", "player": 1, "name": "\\ud800"}',
])
def test_deep_nesting_and_broken_text_are_a_clear_400(table, body):
    table.join("Ann")
    r = table.request("POST", "actions", "Ann", data=body, content_type="application/json")
    assert r.status_code == 400 and r.is_json, r.data[:200]
    assert table.player("Ann")["name"] == "Ann"


def test_a_full_disk_answers_json_503_and_loses_nothing(tmp_path):  # SQLite: fills its file
    app = make_app(tmp_path)
    table = ApiTable(app.test_client())
    table.join("Ann")
    table.act("Ann", {"type": "level", "player": table.ids["Ann"], "delta": 1})
    store = app.extensions["companion_store"]

    def disk_full(dbapi_connection, _record):  # SQLite's own "database or disk is full"
        pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
        dbapi_connection.execute(f"PRAGMA max_page_count={pages}")

    store.engine.dispose()
    sa_event.listen(store.engine, "connect", disk_full)
    r = table.send("host", {"type": "import_house_cards", "cards": house_cards(200)})
    assert r.status_code == 503 and r.is_json
    assert "disk" in r.get_json()["error"]["message"] and r.headers["Retry-After"]
    page = table.client.post(f"/games/{table.code}/act", headers={"Cookie": ""},
                             data={"type": "level", "player": table.ids["Ann"], "delta": 1})
    assert page.status_code in (403, 503) and not page.is_json
    sa_event.remove(store.engine, "connect", disk_full)
    store.engine.dispose()
    state = table.state()
    assert table.player("Ann")["level"] == 2 and state["house_cards"] == []


def test_a_busy_table_answers_503_json_with_retry_after(table, monkeypatch):
    table.join("Ann")
    from companion import store as store_module

    def always_lose(self, *args, **kwargs):
        raise store_module.Busy("The table is very busy; try again in a moment.")

    monkeypatch.setattr(store_module.Store, "_commit", always_lose)
    r = table.send("Ann", {"type": "gear", "player": table.ids["Ann"], "delta": 1})
    assert r.status_code == 503 and r.is_json and r.headers["Retry-After"] == "1"


# --- growth --------------------------------------------------------------------------------

def test_an_ordinary_action_adds_about_the_size_of_the_change(table):
    table.join("Ann")
    table.act("host", {"type": "import_house_cards", "cards": house_cards(300)})
    store = table.client.application.extensions["companion_store"]
    before = len(store.event_sizes(table.code))
    table.act("Ann", {"type": "level", "player": table.ids["Ann"], "delta": 1})
    table.act("Ann", {"type": "gear", "player": table.ids["Ann"], "delta": 2})
    sizes = store.event_sizes(table.code)[before:]
    assert sizes and max(sizes) <= 2000, sizes
    table.undo("Ann")
    table.undo("Ann")
    assert table.player("Ann")["level"] == 1 and len(table.state()["house_cards"]) == 300


def test_undo_of_a_house_card_import_takes_the_cards_back(table):
    table.act("host", {"type": "import_house_cards", "cards": house_cards(3)})
    table.undo("host")
    assert table.state()["house_cards"] == []


def test_house_cards_per_game_are_limited_with_a_clear_413(table):
    table.act("host", {"type": "import_house_cards", "cards": house_cards(500)})
    body = table.act("host", {"type": "add_house_card", "card": dict(HOUSE_MONSTER, name="One more")},
                     expect=413)
    assert "500" in body["error"]["message"]
    assert len(table.state()["house_cards"]) == 500


def test_a_game_cannot_grow_past_its_size_limit(table, monkeypatch):
    from companion import store as store_module

    monkeypatch.setattr(store_module, "MAX_STATE_BYTES", 20_000)
    body = table.act("host", {"type": "import_house_cards", "cards": house_cards(200)}, expect=413)
    assert "KB" in body["error"]["message"]
    assert table.state()["house_cards"] == []


# --- codes and throttling ------------------------------------------------------------------

def test_new_codes_have_seven_unambiguous_characters(client):
    code = client.post("/api/games", json={"edition": "classic"}).get_json()["code"]
    assert len(code) >= 7 and set(code) <= set(CODE_ALPHABET)
    assert not set(code) & set("0O1IL")


def test_an_old_five_character_code_still_works(app, client):
    store = app.extensions["companion_store"]
    state = {"code": "AB2CD"} | {k: v for k, v in __import__("companion").engine.new_game("AB2CD", "classic").items()
                                  if k != "code"}
    with Session(store.engine) as session:
        session.add(Game(code="AB2CD", edition="classic", state=json.dumps(state),
                         host_token_hash=token_hash("old-host")))
        session.commit()
    r = client.post("/api/games/ab2cd/players", json={"name": "Ann", "sex": "female"})
    assert r.status_code == 201
    assert client.get("/api/games/AB2CD").get_json()["players"][0]["name"] == "Ann"


def test_guessing_codes_is_throttled_with_429_and_retry_after(tmp_path):
    app = make_app(tmp_path, COMPANION_RATELIMIT_UNKNOWN_CODE="5 per minute")
    client = app.test_client()
    real = ApiTable(client)
    answers = [client.get(f"/api/games/ZZZZZ{i:02d}").status_code for i in range(5)]
    assert answers == [404] * 5
    r = client.get("/api/games/ZZZZZ99")
    assert r.status_code == 429 and r.is_json and int(r.headers["Retry-After"]) >= 1
    # Even a real code is refused to that address now, so a lucky guess cannot join ...
    real.join("Eve", "female", expect=429)
    page = client.get(f"/join/{real.code}")
    assert page.status_code == 429 and "Retry-After" in page.headers and not page.is_json
    # ... while another address is not affected.
    other = real.request("GET", environ_base={"REMOTE_ADDR": "10.9.8.7"})
    assert other.status_code == 200


def test_joins_and_game_creation_are_throttled_per_address(tmp_path):
    app = make_app(tmp_path, COMPANION_RATELIMIT_CREATE="3 per minute", COMPANION_RATELIMIT_JOIN="4 per minute")
    client = app.test_client()
    made = [client.post("/api/games", json={"edition": "classic"}) for _ in range(4)]
    assert [r.status_code for r in made] == [201, 201, 201, 429]
    assert made[-1].is_json and made[-1].headers["Retry-After"]
    code = made[0].get_json()["code"]
    joins = [client.post(f"/api/games/{code}/players", json={"name": f"P{i}", "sex": "male"}).status_code
             for i in range(5)]
    assert joins == [201, 201, 201, 201, 429]
    page = client.post("/games", data={"edition": "classic"})
    assert page.status_code == 429 and not page.is_json


# --- the host removes players and locks the table ------------------------------------------

def test_the_host_removes_an_anonymous_joiner_and_locks_the_table(table):
    table.join("Ann")
    for name in ("Troll1", "Troll2", "Troll3", "Troll4", "Troll5"):
        table.join(name)
    table.join("Friend", "female", expect=422)  # classic seats six at most: the trolls took the seats
    troll = table.ids["Troll1"]
    body = table.act("Troll2", {"type": "remove_player", "player": troll}, expect=403)
    assert "host" in body["error"]["message"]
    table.act("host", {"type": "remove_player", "player": troll})
    # The removed player's token stops working at once.
    table.act("Troll1", {"type": "gear", "player": troll, "delta": 1}, expect=403)
    assert troll not in [p["id"] for p in table.state()["players"]]
    assert any("removes Troll1" in line["text"] for line in table.state()["log"])
    table.act("host", {"type": "lock_table", "locked": True})
    locked = table.join("Troll6", expect=403)
    assert "locked" in locked["error"]["message"]
    page = table.client.post(f"/join/{table.code}", data={"name": "Troll6", "sex": "male"})
    assert page.status_code == 403 and b"locked" in page.data
    table.act("host", {"type": "lock_table", "locked": False})
    table.join("Friend", "female")


def test_removing_the_fighter_clears_the_fight_and_passes_the_turn(table):
    table.join("Ann")
    table.join("Bob")
    table.act("Ann", {"type": "play", "player": table.ids["Ann"], "card": {"kind": "item", "name": "Club", "bonus": 1}})
    table.act("Ann", {"type": "fight", "player": table.ids["Ann"],
                      "monster": {"kind": "monster", "name": "Rat", "level": 1}})
    table.act("host", {"type": "remove_player", "player": table.ids["Ann"]})
    state = table.state()
    assert state["combat"] is None and state["turn"] == table.ids["Bob"]
    assert all(p["name"] != "Ann" for p in state["players"])


def test_removing_a_player_can_be_undone_and_gives_the_seat_back(table):
    table.join("Ann")
    table.act("host", {"type": "remove_player", "player": table.ids["Ann"]})
    table.undo("host")
    table.act("Ann", {"type": "gear", "player": table.ids["Ann"], "delta": 1})


# --- names ---------------------------------------------------------------------------------

def test_invisible_characters_are_stripped_from_names(table):
    table.join("A\u200bn\u202en\u2066")
    assert table.state()["players"][0]["name"] == "Ann"


@pytest.mark.parametrize("lookalike", ["ANN", "Ａｎｎ", "Ann\u200b", "\u200fAnn", "ａnn"])
def test_two_seats_cannot_have_names_that_look_the_same(table, lookalike):
    table.join("Ann")
    refused = table.join(lookalike, expect=400)
    assert "already" in refused["error"]["message"]


def test_a_rename_cannot_take_a_lookalike_name(table):
    table.join("Ann")
    table.join("Bob")
    table.act("Bob", {"type": "rename", "player": table.ids["Bob"], "name": "Ａnn"}, expect=400)


def test_house_cards_import_from_the_page_takes_a_file_and_refuses_junk_clearly(table):
    table.join("Ann")
    client = table.client
    client.set_cookie("host_" + table.code, table.host_token)
    good = json.dumps({"cards": [dict(HOUSE_MONSTER, name="Page Monster")]})
    r = client.post(f"/games/{table.code}/house/import", data={"text": good})
    assert r.status_code == 303
    assert [c["name"] for c in table.state()["house_cards"]] == ["Page Monster"]
    for junk in ("not json", json.dumps({"cards": [{"kind": "monster", "name": "\ud800"}]})):
        r = client.post(f"/games/{table.code}/house/import", data={"text": junk})
        assert r.status_code == 400 and b"<html" in r.data.lower()
    assert len(table.state()["house_cards"]) == 1


def test_processes_starting_together_share_one_secret_key(tmp_path):
    from companion import _secret_key

    start, keys = threading.Barrier(8), []

    def process_starts():
        start.wait()
        keys.append(_secret_key(tmp_path))

    threads = [threading.Thread(target=process_starts) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(keys) == 8 and len(set(keys)) == 1 and len(keys[0]) > 40
