"""The lookup APIs: cards, rulings, the arbiter's check, and the stateless calculator."""

from __future__ import annotations

import pytest

from .helpers import ApiTable


def test_card_search_forgives_typos_and_filters(client):
    cards = client.get("/api/cards?q=plutonim dragn").get_json()["cards"]
    assert cards[0]["id"] == "classic/plutonium-dragon"
    cards = client.get("/api/cards?q=drooling slim&set=classic&kind=monster").get_json()["cards"]
    assert cards[0]["name"] == "Drooling Slime"
    assert all(c["set"] == "classic" and c["kind"] == "monster" for c in cards)
    every_tails_race = client.get("/api/cards?set=tails&kind=race").get_json()["cards"]
    assert {c["name"] for c in every_tails_race} >= {"Dog", "Pony", "Mouse", "Fox"}


def test_card_by_id_and_unknown_card(client):
    card = client.get("/api/cards/russia/smashing-bear").get_json()
    assert (card["name"], card["level"], card["treasures"]) == ("Smashing Bear", 8, 2)
    assert client.get("/api/cards/russia/no-such-bear").status_code == 404


def test_catalog_ids_are_accepted_wherever_an_action_takes_a_card(table):
    table.join("Ann")
    pid = table.ids["Ann"]
    table.act("Ann", {"type": "play", "player": pid, "card": "classic/elf"})
    table.act("Ann", {"type": "fight", "player": pid, "monster": "classic/drooling-slime"})
    combat = table.state()["combat"]
    slime = combat["monsters"][0]
    assert slime["name"] == "Drooling Slime" and slime["strength"] == slime["level"] + 4
    body = table.act("Ann", {"type": "enhance", "monster": 0, "card": "classic/nope"}, expect=400)
    assert "no card" in body["error"]["message"].lower()


def test_house_cards_are_saved_with_the_table_and_fought_like_catalog_cards(table):
    table.join("Ann")
    table.act("host", {"type": "add_house_card", "card": {"kind": "monster", "name": "Tax Collector",
                                                          "level": 7, "treasures": 2}})
    assert table.client.get(f"/api/cards?q=tax colector&game={table.code}").get_json()["cards"][0]["id"] == "house/tax-collector"
    table.act("Ann", {"type": "fight", "player": table.ids["Ann"], "monster": "house/tax-collector"})
    assert table.state()["combat"]["monsters_strength"] == 7
    exported = table.request("GET", "house-cards")
    assert exported.status_code == 200 and "Tax Collector" in exported.get_data(as_text=True)
    other = ApiTable(table.client, "classic")
    other.act("host", {"type": "import_house_cards", "cards": exported.get_json()["cards"]})
    assert [c["name"] for c in other.state()["house_cards"]] == ["Tax Collector"]


@pytest.mark.parametrize("q, expected", [
    ("can i sell stuff to hit level 10", "level-ten-needs-kill"),
    ("does my helper get a level", "helper-no-level"),
    ("2 big items as dwarf?", "big-item-limit"),
])
def test_rules_api_finds_the_ruling_players_mean(client, q, expected):
    rulings = client.get("/api/rules", query_string={"q": q, "edition": "classic"}).get_json()["rulings"]
    assert expected in [r["id"] for r in rulings[:3]]
    assert {"id", "question", "answer", "citations"} <= set(rulings[0])


def test_a_ruling_by_id(client):
    ruling = client.get("/api/rules/level-ten-needs-kill?edition=tails").get_json()
    assert ruling["id"] == "level-ten-needs-kill" and ruling["citation"].startswith("Munchkin Tails")
    assert client.get("/api/rules/not-a-rule").status_code == 404


def test_check_gives_the_verdict_the_action_would_get_and_changes_nothing(table):
    table.join("Ann")
    pid = table.ids["Ann"]
    table.act("Ann", {"type": "level", "player": pid, "delta": 8, "source": "kill"})
    before = table.state()["version"]
    verdict = table.request("POST", "check", "Ann",
                            json={"type": "level", "player": pid, "delta": 1, "source": "card"}).get_json()
    assert verdict["allowed"] is False and verdict["rule"] == "level-ten-needs-kill"
    assert verdict["citation"].startswith("Munchkin (classic rules)") and verdict["message"]
    refused = table.act("Ann", {"type": "level", "player": pid, "delta": 1, "source": "card"}, expect=422)
    assert refused["error"]["rule"] == verdict["rule"] and refused["error"]["message"] == verdict["message"]
    ok = table.request("POST", "check", "Ann",
                       json={"type": "level", "player": pid, "delta": 1, "source": "kill"}).get_json()
    assert ok["allowed"] is True
    assert table.state()["version"] == before and table.player("Ann")["level"] == 9


def test_calculator_reproduces_the_tails_example_and_stores_nothing(client):
    body = {"edition": "tails",
            "fighter": {"level": 4, "items": ["tails/saddle-shoes"], "races": ["pony"], "sex": "male"},
            "helper": {"level": 3, "races": ["dog"]},
            "monsters": [{"card": "tails/corral-snake", "enhancers": ["tails/rabid"]}],
            "one_shots": {"players": ["tails/tactical-plushie"], "monsters": []}}
    combat = client.post("/api/combat", json=body).get_json()
    assert (combat["players_strength"], combat["monsters_strength"], combat["winning"]) == (22, 21, True)
    assert combat["needed"] == 0
    assert {e["player"] for e in combat["escape"]} == {"fighter", "helper"}
    body["helper"] = None
    alone = client.post("/api/combat", json=body).get_json()
    assert (alone["players_strength"], alone["winning"], alone["needed"]) == (12, False, 10)


@pytest.mark.parametrize("body", [None, {"monsters": []}, {"fighter": {"level": 0}, "monsters": [{"card": {"kind": "monster", "name": "X", "level": 1}}]}])
def test_calculator_rejects_bad_input_clearly(client, body):
    r = client.post("/api/combat", json=body)
    assert r.status_code == 400 and r.get_json()["error"]["message"]


def test_pages_render(client):
    for url in ("/", "/cards?q=slime", "/cards/classic/drooling-slime", "/rules?q=helper", "/rules/helper-limit",
                "/calculator?level=5&gear=3&monster_level=10", "/static/manifest.webmanifest"):
        assert client.get(url).status_code == 200, url
