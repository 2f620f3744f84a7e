"""The host removes a player, whatever part they had in the game: the winner, the fighter, the
helper, a player with an offer out, a cursed one. Every page still answers, the winner is still
named as the winner, and the game goes on (issue: hardening round four, item 4)."""

from __future__ import annotations

import pytest

from .helpers import ApiTable

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
