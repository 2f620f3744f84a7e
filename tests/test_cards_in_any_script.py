"""A Russian or Ukrainian table types its own monsters and items in Cyrillic: the quick fight
form's own default name ("Монстр" on a Russian phone) starts a fight, an item named "Шлем
отваги" goes on the sheet, and a house card named in Cyrillic gets a Latin id."""

from __future__ import annotations

import re

from companion.engine.card_schema import slugify

from .helpers import ApiTable

FIELD = re.compile(r'<input(?: type="hidden")? (?:id="[^"]*" )?name="([^"]+)"[^>]*?value="([^"]*)"')


def test_a_name_in_cyrillic_has_a_latin_slug():
    assert slugify("Шлем отваги") == "shlem-otvagi"
    assert slugify("Ґудзик") == "gudzik"
    assert slugify("3,872 Orcs") == "3872-orcs"  # as before


def test_a_russian_phone_starts_a_fight_with_the_quick_forms_own_name(client):
    table = ApiTable(client)
    table.join("Клара", "female")
    phone = client.application.test_client()
    phone.set_cookie(f"seat_{table.code}", table.tokens["Клара"])
    page = phone.get(f"/games/{table.code}?lang=ru").get_data(as_text=True)
    form = re.search(r'<section class="card" id="start-fight".*?</form>', page, re.S).group(0)
    fields = dict(FIELD.findall(form))
    assert fields["monster.name"] == "Монстр"
    answer = phone.post(f"/games/{table.code}/act", data={**fields, "source": "door"},
                        headers={"HX-Request": "true"})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert table.state()["combat"]["monsters"][0]["name"] == "Монстр"


def test_an_item_and_a_house_card_named_in_cyrillic_are_taken(client):
    table = ApiTable(client)
    table.join("Клара", "female")
    klara = table.ids["Клара"]
    played = table.act("Клара", {"type": "play", "player": klara,
                                 "card": {"kind": "item", "name": "Шлем отваги", "slot": "headgear", "bonus": 1}})
    assert [c["card"]["name"] for c in played["state"]["players"][0]["cards"]] == ["Шлем отваги"]
    house = table.act("host", {"type": "add_house_card",
                               "card": {"kind": "monster", "name": "Бешеный гусь", "level": 3}})
    assert any(c["id"] == "house/beshenyy-gus" for c in house["state"]["house_cards"])
