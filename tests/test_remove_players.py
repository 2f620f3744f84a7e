"""The host removes a player, whatever part they had in the game: the winner, the fighter, the
helper, a player with an offer out, a cursed one, an anonymous joiner. Every page still answers,
the removed seat's token stops working, the winner is still named as the winner, a fight
without its fighter is cleared, a removal can be undone, and the game goes on. The host may
also lock the table against new seats."""

from __future__ import annotations

import pytest

from .helpers import ApiTable

BOTH_DATABASES = True  # every test here that uses the database runs on SQLite and PostgreSQL

RAT = {"kind": "monster", "name": "Big Rat", "level": 3, "treasures": 1}


def _pages(client, table, who):
    """Every page a phone, the host or the table screen shows, as ``who`` (a seated name,
    "host", or None for a stranger)."""
    code = table.code
    phone = client.application.test_client()
    if who == "host":
        phone.set_cookie(f"host_{code}", table.host_token)
    elif who:
        phone.set_cookie(f"seat_{code}", table.tokens[who])
    for path in (f"/games/{code}", f"/games/{code}?tab=fight", f"/games/{code}?tab=me",
                 f"/games/{code}/table", f"/games/{code}/host", f"/games/{code}/history",
                 f"/games/{code}/summary", "/", f"/api/games/{code}", f"/api/games/{code}/history"):
        if path.endswith("/host") and who != "host":
            continue
        if who is None and not path.endswith(("/table", "/summary", "/")):
            continue  # a stranger is sent to join
        response = phone.get(path)
        yield path, response


def _everything_answers(client, table, who):
    for path, response in _pages(client, table, who):
        assert response.status_code == 200, (who, path, response.status_code, response.get_data(as_text=True)[:300])


@pytest.fixture
def four(client):
    table = ApiTable(client)
    for name, sex in (("Ann", "female"), ("Bob", "male"), ("Cid", "male"), ("Dee", "female")):
        table.join(name, sex)
    return table


def test_removing_the_winner_keeps_every_page_and_the_win(client, four):
    ann = four.ids["Ann"]
    four.act("Ann", {"type": "level", "player": ann, "delta": 8})
    four.act("Ann", {"type": "fight", "player": ann, "monster": RAT})
    four.act("Ann", {"type": "resolve"})
    assert four.state()["winners"] == [ann]
    four.act("host", {"type": "remove_player", "player": ann})
    for who in ("host", "Bob", None):
        _everything_answers(client, four, who)
    # the game is still over, and says who won, by name
    refused = four.act("Bob", {"type": "level", "player": four.ids["Bob"], "delta": 1}, expect=422)
    assert refused["error"]["rule"] == "game-over" and "Ann" in refused["error"]["detail"]
    page = client.get(f"/games/{four.code}/summary").get_data(as_text=True)
    assert "Ann" in page
    phone = client.application.test_client()
    phone.set_cookie(f"seat_{four.code}", four.tokens["Bob"])
    assert "Ann" in phone.get(f"/games/{four.code}").get_data(as_text=True)


@pytest.mark.parametrize("removed", ["fighter", "helper", "offered", "cursed"])
def test_removing_a_player_in_any_part_keeps_every_page(client, four, removed):
    ids = four.ids
    four.act("Dee", {"type": "play", "player": ids["Dee"],
                     "card": {"kind": "curse", "name": "Hex", "duration": "lasting", "bonus": -1}})
    four.act("Ann", {"type": "fight", "player": ids["Ann"], "monster": {**RAT, "level": 6}})
    four.act("Ann", {"type": "offer", "to": ids["Cid"], "treasures": 1})
    four.act("Ann", {"type": "offer", "to": ids["Bob"], "treasures": 1})
    four.act("Bob", {"type": "accept_offer", "player": ids["Bob"]})
    name = {"fighter": "Ann", "helper": "Bob", "offered": "Cid", "cursed": "Dee"}[removed]
    four.act("host", {"type": "remove_player", "player": ids[name]})
    left = next(n for n in ("Ann", "Bob", "Cid", "Dee") if n != name)
    for who in ("host", left, None):
        _everything_answers(client, four, who)
    four.act(left, {"type": "level", "player": ids[left], "delta": 1})  # the game goes on


# --- the host removes a joiner and locks the table; a removal undone --------------------------

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
