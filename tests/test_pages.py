"""The htmx pages: seats in cookies, forms posting actions, CSRF, refusals, player counts, and
what a finished game or fight shows each phone (the winner's, the others', the host's)."""

from __future__ import annotations

import re

import pytest

from companion import create_app

from .helpers import ApiTable, CompiledTemplates, boris_won


@pytest.fixture
def csrf_app(tmp_path):
    return CompiledTemplates.share(create_app({"TESTING": True, "SECRET_KEY": "x",
                                               "COMPANION_DATABASE_URL": f"sqlite:///{tmp_path / 'csrf.db'}"}))


def _token(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def test_forms_without_the_csrf_token_are_refused_and_change_nothing(csrf_app):
    client = csrf_app.test_client()
    r = client.post("/games", data={"edition": "classic"})
    assert r.status_code == 400
    page = client.get("/").get_data(as_text=True)
    r = client.post("/games", data={"edition": "classic", "csrf_token": _token(page)})
    assert r.status_code == 303 and r.headers["Location"].endswith("/host")


def test_joining_by_form_sets_a_seat_cookie_that_brings_the_phone_back(csrf_app):
    client = csrf_app.test_client()
    table = ApiTable(client)
    join_page = client.get(f"/join/{table.code}").get_data(as_text=True)
    r = client.post(f"/join/{table.code}", data={"name": "Ann", "sex": "female", "csrf_token": _token(join_page)})
    assert r.status_code == 303
    assert client.get_cookie(f"seat_{table.code}") is not None
    again = client.get(f"/join/{table.code}")
    assert again.status_code == 303 and again.headers["Location"].endswith(f"/games/{table.code}")
    game = client.get(f"/games/{table.code}").get_data(as_text=True)
    assert 'id="me-h">Ann' in game


def test_a_form_action_is_the_same_action_as_the_api_and_a_refusal_shows_rule_and_citation(client):
    table = ApiTable(client)
    body = table.join("Ann")
    client.set_cookie(f"seat_{table.code}", body["token"])
    r = client.post(f"/games/{table.code}/act", data={"type": "level", "player": body["player_id"], "delta": "1"},
                    headers={"HX-Request": "true"})
    assert r.status_code == 200 and 'id="my-level" class="value">2<' in r.get_data(as_text=True)
    r = client.post(f"/games/{table.code}/act", data={"type": "level", "player": body["player_id"], "delta": "-5"},
                    headers={"HX-Request": "true"})
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and r.headers["HX-Retarget"] == "#notice"
    assert "Munchkin (classic rules)" in html and "/rules/level-minimum" in html
    assert table.player("Ann")["level"] == 2


def test_spell_skool_seats_at_most_four(client):
    table = ApiTable(client, "spell-skool")
    for name in ("A", "B", "C", "D"):
        table.join(name)
    refused = table.join("E", expect=422)["error"]
    assert refused["rule"] == "player-count"
    assert refused["citation"].startswith("Munchkin Spell Skool")


def test_the_host_adds_a_player_without_a_phone_and_plays_for_them(client):
    table = ApiTable(client)
    client.set_cookie(f"host_{table.code}", table.host_token)
    r = client.post(f"/games/{table.code}/players", data={"name": "Grandpa", "sex": "male"})
    assert r.status_code == 303
    grandpa = next(p for p in table.state()["players"] if p["name"] == "Grandpa")
    assert grandpa["phone"] is False
    r = client.post(f"/games/{table.code}/act", data={"type": "level", "player": grandpa["id"], "delta": "1",
                                                      "_focus": grandpa["id"]})
    assert r.status_code == 303
    assert next(p for p in table.state()["players"] if p["name"] == "Grandpa")["level"] == 2


def test_only_the_host_adds_phoneless_players(client):
    table = ApiTable(client)
    table.join("Ann")
    r = table.request("POST", "players", "Ann", json={"name": "Ghost", "sex": "male", "phone": False})
    assert r.status_code == 403


def test_the_end_turn_button_shows_charity_before_the_player_commits(client):
    table = ApiTable(client)
    ann = table.join("Ann")
    table.join("Bob")
    table.act("Ann", {"type": "level", "player": ann["player_id"], "delta": 2})
    table.act("Ann", {"type": "set_hand", "player": ann["player_id"], "count": 7})
    client.set_cookie(f"seat_{table.code}", ann["token"])
    html = client.get(f"/games/{table.code}").get_data(as_text=True)
    assert "Charity: 2 cards to Bob" in html


def test_redirects_after_a_form_stay_on_this_site(client):
    table = ApiTable(client)
    ann = table.join("Ann")
    client.set_cookie(f"seat_{table.code}", ann["token"])
    r = client.post(f"/games/{table.code}/act", data={"type": "gear", "player": ann["player_id"], "delta": "1",
                                                      "next": "https://evil.example/"})
    assert r.status_code == 303 and r.headers["Location"].startswith("/games/")


def test_the_host_switches_an_optional_rule_on_the_host_screen(client):
    table = ApiTable(client, "tails")
    client.set_cookie(f"host_{table.code}", table.host_token)
    html = client.get(f"/games/{table.code}/host").get_data(as_text=True)
    assert "Shared victory" in html and 'value="shared_victory"' in html
    r = client.post(f"/games/{table.code}/act", data={"type": "set_variant", "variant": "shared_victory",
                                                      "on": "true", "next": f"/games/{table.code}/host"})
    assert r.status_code == 303 and r.headers["Location"].endswith("/host")
    assert table.state()["variants"] == {"shared_victory": True}
    ann = table.join("Ann")
    client.set_cookie(f"host_{table.code}", "")
    client.set_cookie(f"seat_{table.code}", ann["token"])
    r = client.post(f"/games/{table.code}/act", data={"type": "set_variant", "variant": "shared_victory", "on": "false"})
    assert r.status_code == 403 and table.state()["variants"] == {"shared_victory": True}


def test_a_monster_page_asks_the_engine_whether_this_phone_may_fight_it(client):
    table = ApiTable(client)
    table.join("Ann")
    bob = table.join("Bob")
    client.set_cookie(f"seat_{table.code}", bob["token"])
    html = client.get(f"/cards/classic/drooling-slime?game={table.code}").get_data(as_text=True)
    assert "Fight this monster" not in html
    assert 'id="fight-verdict"' in html and "Munchkin (classic rules)" in html
    table.act("host", {"type": "set_turn", "player": bob["player_id"]})
    assert "Fight this monster" in client.get(f"/cards/classic/drooling-slime?game={table.code}").get_data(as_text=True)


def test_a_monster_whose_level_the_catalog_lacks_is_fought_with_the_level_on_the_tables_card(client):
    import html as markup
    import re

    table = ApiTable(client, "tails")
    ann = table.join("Ann")
    client.set_cookie(f"seat_{table.code}", ann["token"])
    page = client.get(f"/cards/tails/chihuahua?game={table.code}").get_data(as_text=True)
    assert 'name="level"' in page and "Level printed on your card" in page
    fields = markup.unescape(re.search(r'name="_fields" value="([^"]*)">Fight this monster', page).group(1))
    r = client.post(f"/games/{table.code}/act", data={"_fields": fields, "level": "3", "source": "door",
                                                      "next": f"/games/{table.code}"})
    assert r.status_code == 303, r.get_data(as_text=True)
    monster = table.state()["combat"]["monsters"][0]
    assert (monster["name"], monster["level"]) == ("Chihuahua", 3)


# --- a finished game and a finished fight --------------------------------------------------

def test_the_winners_phone_says_they_won_and_another_says_who(client):
    table = boris_won(client)
    client.set_cookie(f"seat_{table.code}", table.tokens["Boris"])
    mine = client.get(f"/games/{table.code}").get_data(as_text=True)
    assert "You won!" in mine and "Turn:" not in mine.split('id="turn"')[1][:200]
    client.set_cookie(f"seat_{table.code}", table.tokens["Eva"])
    hers = client.get(f"/games/{table.code}").get_data(as_text=True)
    assert "Winner:" in hers.split('id="turn"')[1][:300] and "Boris" in hers.split('id="turn"')[1][:400]


def test_a_finished_fights_moves_are_labelled_the_hosts_only_on_the_hosts_device(client):
    table = ApiTable(client)
    table.join("Eva", "female")
    table.join("Boris")
    eva = table.ids["Eva"]
    table.act("Eva", {"type": "fight", "player": eva, "monster": {"kind": "monster", "name": "Troll", "level": 20}})
    table.act("Eva", {"type": "resolve"})
    table.act("Eva", {"type": "run_away", "player": eva, "monster": 0, "roll": 1})
    assert table.state()["combat"]["stage"] == "over"
    client.set_cookie(f"seat_{table.code}", table.tokens["Boris"])
    boris_page = client.get(f"/games/{table.code}").get_data(as_text=True)
    assert "Moves in Eva's fight" in boris_page and "Host: moves" not in boris_page
    client.delete_cookie(f"seat_{table.code}")
    client.set_cookie(f"host_{table.code}", table.host_token)
    host_page = client.get(f"/games/{table.code}").get_data(as_text=True)
    assert "Clear the fight" in host_page  # the host's device, on Eva's sheet: her fight's own moves
