"""The table through the JSON API: games and their codes, seats and their names, the level
counter, turns, undo (which takes a seat or a card back but never reuses its id), and phones
tapping at once."""

from __future__ import annotations

import json
import threading

import pytest
from sqlmodel import Session

from companion import create_app
from companion.store import CODE_ALPHABET, Game, token_hash

from .helpers import ApiTable, make_app

BOTH_DATABASES = True  # every test here that uses the database runs on SQLite and PostgreSQL


def test_new_game_answers_code_join_url_host_token_and_state(client):
    r = client.post("/api/games", json={"edition": "tails"})
    assert r.status_code == 201
    body = r.get_json()
    assert set(body) >= {"code", "join_url", "host_token", "state"}
    assert body["join_url"].endswith(f"/join/{body['code']}")
    state = body["state"]
    assert state["edition"] == "tails" and state["code"] == body["code"]
    assert state["turn"] is None and state["winner"] is None and state["players"] == []
    assert isinstance(state["version"], int) and isinstance(state["log"], list)


def test_unknown_edition_is_a_clear_400(client):
    r = client.post("/api/games", json={"edition": "munchkin-mars"})
    assert r.status_code == 400
    assert "edition" in r.get_json()["error"]["message"]


def test_a_table_plays_to_level_10_or_chooses_20_at_creation(client):
    assert client.post("/api/games", json={"edition": "oz"}).get_json()["state"]["winning_level"] == 10
    r = client.post("/api/games", json={"edition": "oz", "winning_level": 20})
    assert r.status_code == 201 and r.get_json()["state"]["winning_level"] == 20
    r = client.post("/api/games", json={"edition": "oz", "winning_level": 15})
    assert r.status_code == 400 and "Epic Munchkin" in r.get_json()["error"]["message"]


def test_joining_seats_players_and_the_first_seated_has_the_turn(table):
    ann = table.join("Ann", "female")
    assert ann["player_id"] and len(ann["token"]) >= 30
    table.join("Bob")
    state = table.state()
    assert [p["name"] for p in state["players"]] == ["Ann", "Bob"]
    assert state["turn"] == table.ids["Ann"]
    bob = table.player("Bob")
    assert (bob["level"], bob["sex"], bob["gear_bonus"], bob["combat_strength"]) == (1, "male", 0, 1)


@pytest.mark.parametrize("body, words", [
    ({"name": "", "sex": "male"}, "name"),
    ({"name": "Ann", "sex": "robot"}, "Sex"),
    ({"name": "x" * 41, "sex": "male"}, "40"),
    ({"sex": "male"}, "name"),
])
def test_bad_join_gets_a_clear_message_and_seats_nobody(table, body, words):
    r = table.request("POST", "players", json=body)
    assert r.status_code == 400
    assert words in r.get_json()["error"]["message"]
    assert table.state()["players"] == []


def test_level_counter_moves_levels_and_gear(table):
    table.join("Ann")
    pid = table.ids["Ann"]
    table.act("Ann", {"type": "level", "player": pid, "delta": 1, "source": "adjust"})
    table.act("Ann", {"type": "gear", "player": pid, "delta": 3})
    ann = table.player("Ann")
    assert (ann["level"], ann["gear_bonus"], ann["combat_strength"]) == (2, 3, 5)
    table.act("Ann", {"type": "set_sex", "player": pid, "sex": "female"})
    assert table.player("Ann")["sex"] == "female"


def test_a_level_never_goes_below_one_and_the_refusal_cites_the_rulebook(table):
    table.join("Ann")
    before = table.state()
    body = table.act("Ann", {"type": "level", "player": table.ids["Ann"], "delta": -1}, expect=422)
    error = body["error"]
    assert error["rule"] == "level-minimum"
    assert error["message"] and "Munchkin" in error["citation"]
    assert table.state()["version"] == before["version"]


@pytest.mark.parametrize("source", ["card", "sell", "adjust"])
def test_level_ten_only_by_killing_a_monster(table, source):
    table.join("Ann")
    pid = table.ids["Ann"]
    table.act("Ann", {"type": "level", "player": pid, "delta": 8, "source": "kill"})
    body = table.act("Ann", {"type": "level", "player": pid, "delta": 1, "source": source}, expect=422)
    assert body["error"]["rule"] == "level-ten-needs-kill"
    assert "Munchkin (classic rules)" in body["error"]["citation"]
    assert table.player("Ann")["level"] == 9
    assert table.state()["winner"] is None


def test_first_to_reach_ten_by_a_kill_wins_and_the_game_is_over(table):
    table.join("Ann"), table.join("Bob")
    pid = table.ids["Ann"]
    table.act("Ann", {"type": "level", "player": pid, "delta": 9, "source": "kill"})
    state = table.state()
    assert state["winner"] == pid and table.player("Ann")["level"] == 10
    refused = table.act("Bob", {"type": "level", "player": table.ids["Bob"], "delta": 1}, expect=422)
    assert refused["error"]["rule"] == "game-over"


def test_a_player_token_changes_only_that_player_and_the_host_changes_anyone(table):
    table.join("Ann"), table.join("Bob")
    r = table.act("Ann", {"type": "level", "player": table.ids["Bob"], "delta": 1}, expect=403)
    assert "Bob" in r["error"]["message"]
    table.act("host", {"type": "level", "player": table.ids["Bob"], "delta": 1})
    assert table.player("Bob")["level"] == 2


def test_requests_without_a_valid_token_are_refused(table):
    table.join("Ann")
    action = {"type": "level", "player": table.ids["Ann"], "delta": 1}
    r = table.request("POST", "actions", json=action)
    assert r.status_code == 403
    r = table.request("POST", "actions", json=action, headers={"Authorization": "Bearer not-a-real-token"})
    assert r.status_code == 403
    assert table.player("Ann")["level"] == 1


@pytest.mark.parametrize("action, words", [
    ({"type": "teleport"}, "Unknown action"),
    ({"type": "level", "player": 999, "delta": 1}, "no player"),
    ({"type": "level", "player": "1", "delta": 1}, "player"),
    ({"type": "level", "player": 1, "delta": "lots"}, "delta"),
    ({"type": "level", "player": 1, "delta": 1, "source": "magic"}, "source"),
    ({"type": "set_sex", "player": 1, "sex": "other"}, "Sex"),
])
def test_malformed_actions_get_400_with_a_message_and_change_nothing(table, action, words):
    table.join("Ann")
    before = table.state()["version"]
    body = table.act("Ann", action, expect=400)
    assert words.lower() in body["error"]["message"].lower()
    assert table.state()["version"] == before


def test_non_json_body_is_400(table):
    table.join("Ann")
    r = table.request("POST", "actions", "Ann", data="level up please",
                      headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.get_json()["error"]["message"]


def test_oversized_body_is_refused(table):
    table.join("Ann")
    r = table.request("POST", "actions", "Ann", data=json.dumps({"type": "x" * 100_000}),
                      headers={"Content-Type": "application/json"})
    assert r.status_code == 413


def test_unknown_game_is_404(client):
    assert client.get("/api/games/NOPE9").status_code == 404
    r = client.post("/api/games/NOPE9/actions", json={"type": "level"})
    assert r.status_code == 404


def test_turns_pass_by_the_player_or_the_host(table):
    for name in ("Ann", "Bob", "Cid"):
        table.join(name)
    refused = table.act("Bob", {"type": "set_turn", "player": table.ids["Bob"]}, expect=422)
    assert refused["error"]["rule"] == "turn-pass"
    table.act("Ann", {"type": "end_turn", "player": table.ids["Ann"]})
    assert table.state()["turn"] == table.ids["Bob"]
    table.act("host", {"type": "set_turn", "player": table.ids["Ann"]})
    assert table.state()["turn"] == table.ids["Ann"]


def test_undo_takes_back_the_last_change_and_history_says_who_did_what(table):
    table.join("Ann")
    pid = table.ids["Ann"]
    table.act("Ann", {"type": "level", "player": pid, "delta": 3, "source": "adjust"})
    table.act("Ann", {"type": "level", "player": pid, "delta": 1, "source": "kill"})
    assert table.player("Ann")["level"] == 5
    table.undo("Ann")
    assert table.player("Ann")["level"] == 4
    table.undo("Ann")
    assert table.player("Ann")["level"] == 1
    events = table.history()
    texts = [e["text"] for e in events]
    assert "Ann: level 4 to 5, killed a monster" in texts
    assert any(e["undone"] for e in events)


def test_only_the_author_or_the_host_may_undo(table):
    table.join("Ann"), table.join("Bob")
    table.act("Ann", {"type": "level", "player": table.ids["Ann"], "delta": 1})
    table.undo("Bob", expect=403)
    assert table.player("Ann")["level"] == 2
    table.undo("host")
    assert table.player("Ann")["level"] == 1


def test_twenty_phones_tapping_at_once_lose_no_update(database_url):
    """Twenty threads, each a phone, tap +1 on one shared counter at the same moment."""
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "COMPANION_DATABASE_URL": database_url})
    table = ApiTable(app.test_client())
    table.join("Ann")
    pid = table.ids["Ann"]
    start = threading.Barrier(20)
    results = []

    def phone(delta):
        client = app.test_client()
        start.wait()
        r = client.post(f"/api/games/{table.code}/actions",
                        json={"type": "gear", "player": pid, "delta": delta}, headers=table.auth("host"))
        results.append(r.status_code)

    threads = [threading.Thread(target=phone, args=(1,)) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    accepted = results.count(200)
    assert accepted == 20, results
    assert table.player("Ann")["gear_bonus"] == accepted
    assert table.state()["version"] == 1 + accepted  # one join, then one version per tap
    app.extensions["companion_store"].close()


def test_a_restart_loses_nothing_acknowledged(database_url):
    url = database_url
    first = create_app({"TESTING": True, "SECRET_KEY": "x", "COMPANION_DATABASE_URL": url})
    table = ApiTable(first.test_client())
    table.join("Ann")
    table.act("Ann", {"type": "level", "player": table.ids["Ann"], "delta": 2})
    first.extensions["companion_store"].close()
    second = create_app({"TESTING": True, "SECRET_KEY": "x", "COMPANION_DATABASE_URL": url})
    client = second.test_client()
    state = client.get(f"/api/games/{table.code}").get_json()
    assert state["players"][0]["level"] == 3
    r = client.post(f"/api/games/{table.code}/actions",
                    json={"type": "level", "player": table.ids["Ann"], "delta": 1}, headers=table.auth("Ann"))
    assert r.status_code == 200 and r.get_json()["state"]["players"][0]["level"] == 4
    second.extensions["companion_store"].close()


def test_the_event_stream_rings_with_the_new_version(app, table):
    table.join("Ann")
    version = table.state()["version"]
    response = table.request("GET", f"events?since={version}", buffered=False)
    assert response.mimetype == "text/event-stream"
    chunks = response.response
    table.act("Ann", {"type": "level", "player": table.ids["Ann"], "delta": 1})
    seen = ""
    for chunk in chunks:
        seen += chunk.decode() if isinstance(chunk, bytes) else chunk
        if "event: changed" in seen:
            break
    response.close()
    assert f'"version": {version + 1}' in seen


def test_names_are_escaped_on_pages(client):
    table = ApiTable(client)
    table.join("<script>alert(1)</script>")
    with client.session_transaction():
        pass
    client.set_cookie(f"host_{table.code}", table.host_token)
    html = client.get(f"/games/{table.code}/host").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_a_change_answers_the_log_tail_and_the_house_cards_only_when_it_changed_them(table):
    ann = table.join("Ann")["player_id"]
    added = table.act("host", {"type": "add_house_card", "card": {"kind": "item", "name": "Spork"}})
    assert [c["name"] for c in added["state"]["house_cards"]] == ["Spork"]
    for n in range(25):
        answer = table.act("host", {"type": "level", "player": ann, "delta": 1 if n % 2 == 0 else -1})
    assert "house_cards" not in answer["state"]  # a table may hold hundreds: GET has them
    assert answer["state"]["players"][0]["level"] == 2 and answer["state"]["version"] == table.state()["version"]
    log = table.state()["log"]
    assert answer["state"]["log"] == log[-20:] and len(log) > 20
    assert [c["name"] for c in table.state()["house_cards"]] == ["Spork"]


@pytest.mark.parametrize("lookalike", ["\u0410nn", "\u0391nn", "A\u034fnn", "An\ufe0fn"])
def test_a_lookalike_name_is_refused_naming_the_seat_it_looks_like(table, lookalike):
    table.join("Ann")
    refused = table.join(lookalike, expect=400)
    assert "looks the same as Ann, who is already at the table" in refused["error"]["message"]
    table.join("\u0410\u043d\u044f")  # a really different Cyrillic name sits down
    assert [p["name"] for p in table.state()["players"]] == ["Ann", "\u0410\u043d\u044f"]


def test_undo_does_not_buy_a_new_run_away_roll(table):
    # Rule undo-keeps-rolls: run away with the app's die, undo, run away again: the same roll.
    ann = table.join("Ann")["player_id"]
    table.act("Ann", {"type": "fight", "player": ann,
                      "monster": {"kind": "monster", "name": "Ogre", "level": 8, "treasures": 2}})
    table.act("Ann", {"type": "resolve"})
    run = {"type": "run_away", "player": ann, "monster": 0}
    first = table.act("Ann", run)["event"]
    assert first["kind"] in ("escape", "caught") and 1 <= first["roll"] <= 6
    for _ in range(5):
        assert table.undo("Ann")["event"]["undone"]["roll"] == first["roll"]
        again = table.act("Ann", run)["event"]
        assert (again["kind"], again["roll"], again["text"]) == (first["kind"], first["roll"], first["text"])
    assert "seed" not in table.state()["combat"]  # no phone can read the dice before they roll


def test_a_theft_out_of_any_fight_undone_and_tried_again_rolls_the_same(table):
    ann = table.join("Ann", "female")["player_id"]
    bob = table.join("Bob")["player_id"]
    table.act("host", {"type": "play", "player": ann, "card": "classic/thief"})
    table.act("host", {"type": "set_hand", "player": ann, "count": 4})
    spoon = table.act("host", {"type": "play", "player": bob, "card": {"kind": "item", "name": "Spoon", "slot": "1-hand"}})
    iid = next(c["iid"] for c in spoon["state"]["players"][1]["cards"] if c["card"]["name"] == "Spoon")
    theft = {"type": "use_power", "player": ann, "power": "thief-theft", "target": bob, "item": iid, "from_hand": 1}
    first = table.act("Ann", theft)["event"]["text"]
    for _ in range(4):
        table.undo("Ann")
        assert table.act("Ann", theft)["event"]["text"] == first
    assert "dice_seed" not in table.state()


# --- undo takes a seat or a card back, never its id ------------------------------------------

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


# --- codes ---------------------------------------------------------------------------------

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
