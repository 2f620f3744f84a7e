"""Throttling, each limit met the way an attacker would meet it: guessing game codes (on the
game's paths, in ``?game=`` parameters and in a Referer alike, one budget), creating games and
joining them per address, and a seat tapping in a loop (per seat, never per address: the rest
of its table plays on). Each test has an app of its own, with the limit it needs."""

from __future__ import annotations

import pytest

from .helpers import ApiTable, make_app


# --- guessing codes, creating and joining games per address ----------------------------------

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


# --- ?game=<code>: no side door past the code-guessing throttle ----------------------------

GAME_PATHS = ["/api/rules?game={}", "/rules?game={}", "/cards?game={}", "/calculator?game={}",
              "/api/cards?q=elf&game={}", "/cards/search?q=elf&game={}"]


@pytest.mark.parametrize("path", GAME_PATHS)
def test_unknown_codes_in_game_parameters_are_counted_as_guesses(tmp_path, path):
    app = make_app(tmp_path, COMPANION_RATELIMIT_UNKNOWN_CODE="3 per minute")
    client = app.test_client()
    real = ApiTable(client)
    # Asking with a real code, as the game's own links do, is never a guess.
    for _ in range(5):
        assert client.get(path.format(real.code)).status_code == 200
    for i in range(3):
        assert client.get(path.format(f"ZZZZZ{i:02d}")).status_code == 200
    r = client.get(path.format("ZZZZZ99"))
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    assert r.is_json == path.startswith("/api/")
    # The address is refused a real code too, as after guesses on any other path ...
    assert client.get(path.format(real.code)).status_code == 429
    assert real.request("GET").status_code == 429
    # ... and another address is not.
    assert client.get(path.format(real.code), environ_base={"REMOTE_ADDR": "10.9.8.7"}).status_code == 200


def test_guesses_on_the_game_paths_and_in_game_parameters_share_one_budget(tmp_path):
    app = make_app(tmp_path, COMPANION_RATELIMIT_UNKNOWN_CODE="4 per minute")
    client = app.test_client()
    assert client.get("/api/games/ZZZZZ01").status_code == 404
    assert client.get("/cards?game=ZZZZZ02").status_code == 200
    assert client.get("/calculator?game=not a code").status_code == 200
    assert client.get("/api/rules?game=ZZZZZ03").status_code == 200
    assert client.get("/rules?game=ZZZZZ04").status_code == 429


def test_a_referer_naming_a_game_is_a_guess_too(tmp_path):
    app = make_app(tmp_path, COMPANION_RATELIMIT_UNKNOWN_CODE="3 per minute")
    client = app.test_client()
    real = ApiTable(client)
    page = client.get("/rules", headers={"Referer": f"http://localhost/games/{real.code}"})
    assert f"/games/{real.code}" in page.get_data(as_text=True)  # the way back to the table
    for i in range(3):
        r = client.get("/rules", headers={"Referer": f"http://localhost/games/ZZZZZ{i:02d}"})
        assert r.status_code == 200
    assert real.request("GET").status_code == 429
    # Over the budget, the rules still answer, but a real game's Referer no longer shows.
    page = client.get("/rules", headers={"Referer": f"http://localhost/games/{real.code}"})
    assert page.status_code == 200 and f"/games/{real.code}" not in page.get_data(as_text=True)


# --- a seat tapping in a loop (COMPANION_RATELIMIT_ACTIONS) --------------------------------

def test_a_seat_tapping_in_a_loop_meets_the_default_throttle_and_its_table_does_not(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    table = ApiTable(client)
    for name in ("Ann", "Bob"):
        table.join(name)
    ann = table.ids["Ann"]
    # A person tapping fast: ten real changes at once all go through.
    for _ in range(10):
        assert table.send("Ann", {"type": "gear", "player": ann, "delta": 1}).status_code == 200
    # A script tapping as fast as it can (a tap the rules refuse costs the server no write, and
    # counts all the same): it meets the throttle within its first few hundred taps.
    level_down = {"type": "level", "player": ann, "delta": -1}
    answers = []
    for _ in range(400):
        r = table.send("Ann", level_down)
        answers.append(r.status_code)
        if r.status_code == 429:
            break
    assert answers[-1] == 429 and len(answers) <= 300, (len(answers), set(answers))
    assert set(answers[:-1]) == {422}
    assert r.is_json and "seat" in r.get_json()["error"]["message"]
    assert int(r.headers["Retry-After"]) >= 1
    # Throttled, a real change is refused too and changes nothing ...
    before = table.player("Ann")["gear_adjust"]
    assert table.send("Ann", {"type": "gear", "player": ann, "delta": 1}).status_code == 429
    table.undo("Ann", expect=429)
    assert table.player("Ann")["gear_adjust"] == before
    # ... while the other seats at the same table, from the same address, play on.
    assert table.send("Bob", {"type": "gear", "player": table.ids["Bob"], "delta": 1}).status_code == 200
    assert table.send("host", {"type": "gear", "player": ann, "delta": 1}).status_code == 200
    # A made-up token buys no fresh budget: it is not a seat, and may do nothing at all.
    r = table.request("POST", "actions", headers={"Authorization": "Bearer made-up"},
                      json={"type": "gear", "player": ann, "delta": 1})
    assert r.status_code == 403


def test_the_action_throttle_counts_page_posts_and_undo_for_the_seat_not_the_address(tmp_path):
    app = make_app(tmp_path, COMPANION_RATELIMIT_ACTIONS="3 per minute")
    client = app.test_client()
    table = ApiTable(client)
    table.join("Ann")
    table.join("Bob")
    ann = table.ids["Ann"]
    client.set_cookie(f"seat_{table.code}", table.tokens["Ann"])
    gear = {"type": "gear", "player": ann, "delta": 1}
    assert table.send("Ann", gear).status_code == 200  # the API ...
    assert client.post(f"/games/{table.code}/act", data=gear).status_code == 303  # ... a form ...
    assert client.post(f"/games/{table.code}/undo").status_code == 303  # ... and undo share one budget
    # The page's tap (htmx) shows the refusal where notices land, with Retry-After.
    r = client.post(f"/games/{table.code}/act", data=gear, headers={"HX-Request": "true"})
    assert r.status_code == 429 and r.headers["HX-Retarget"] == "#notice"
    assert int(r.headers["Retry-After"]) >= 1 and "Wait" in r.get_data(as_text=True)
    plain = client.post(f"/games/{table.code}/act", data=gear)
    assert plain.status_code == 429 and "<html" in plain.get_data(as_text=True).lower()
    assert table.send("Ann", gear).status_code == 429
    assert table.player("Ann")["gear_adjust"] == 1
    # Bob, at the same table and on the same wifi, is not slowed.
    assert table.send("Bob", {"type": "gear", "player": table.ids["Bob"], "delta": 1}).status_code == 200
