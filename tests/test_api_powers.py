"""A class power through the JSON API and the phone's page: listed by /allowed, shown as a
button, accepted once, refused the second time with its rule and the edition's citation."""

from __future__ import annotations

from .helpers import ApiTable


def test_a_warrior_berserks_once_per_fight_through_the_api_and_the_page(client):
    table = ApiTable(client)
    table.join("Ann")
    table.join("Bob")
    ann = table.ids["Ann"]
    table.act("Ann", {"type": "play", "player": ann, "card": {"kind": "class", "name": "Warrior"}})
    table.act("Ann", {"type": "set_hand", "player": ann, "count": 3})
    table.act("Ann", {"type": "fight", "player": ann, "monster": {"kind": "monster", "name": "Ogre", "level": 6}})

    listed = table.allowed("Ann")["use_power"]
    assert {"player": ann, "power": "warrior-berserking", "from_hand": 2} in listed
    client.set_cookie(f"seat_{table.code}", table.tokens["Ann"])
    page = client.get(f"/games/{table.code}/live").get_data(as_text=True)
    assert "Berserking" in page and 'name="power" value="warrior-berserking"' in page

    # Pressed on the page: the form posts the same action the API takes.
    r = client.post(f"/games/{table.code}/act", data={"type": "use_power", "player": str(ann),
                                                     "power": "warrior-berserking", "from_hand": "2"})
    assert r.status_code in (200, 303), r.status_code
    state = table.state()
    assert state["combat"]["fighter_strength"] == 1 + 2
    assert next(p for p in state["players"] if p["id"] == ann)["hand"] == 1
    assert "Berserking" in table.request("GET", "history").get_data(as_text=True)

    refused = table.act("Ann", {"type": "use_power", "player": ann, "power": "warrior-berserking",
                                "from_hand": 1}, expect=422)["error"]
    assert refused["rule"] == "power-once-per-combat"
    assert refused["citation"] == "Munchkin (classic rules), Asking For Help"
    assert "warrior-berserking" not in client.get(f"/games/{table.code}/live").get_data(as_text=True)

    # Bob has no Warrior card: the rule says why not.
    r = table.send("Bob", {"type": "use_power", "player": table.ids["Bob"], "power": "warrior-berserking",
                           "from_hand": 1})
    assert r.status_code == 422 and r.get_json()["error"]["rule"] == "power-needs-card"


def test_a_power_not_usable_now_is_shown_with_why_and_no_button(client):
    # A hand that shows no cards: the Warrior sees Berserking, told to count the hand, and
    # gets its buttons once the hand holds cards.
    table = ApiTable(client)
    table.join("Ann")
    ann = table.ids["Ann"]
    table.act("Ann", {"type": "play", "player": ann, "card": {"kind": "class", "name": "Warrior"}})
    table.act("Ann", {"type": "set_hand", "player": ann, "count": 0})  # every card played or sold
    table.act("Ann", {"type": "fight", "player": ann, "monster": {"kind": "monster", "name": "Ogre", "level": 6}})
    assert table.player("Ann")["powers"] == ["warrior-berserking"]
    client.set_cookie(f"seat_{table.code}", table.tokens["Ann"])
    page = client.get(f"/games/{table.code}/live").get_data(as_text=True)
    assert "Berserking" in page and "Not now" in page and "Your hand shows no cards" in page
    assert 'value="warrior-berserking"' not in page
    table.act("Ann", {"type": "set_hand", "player": ann, "count": 2})
    page = client.get(f"/games/{table.code}/live").get_data(as_text=True)
    assert 'value="warrior-berserking"' in page and "Not now" not in page
