"""Card lists that never stop short in silence (a lookup lists every card it finds, or says how
many more there are and links to them all), and cards found by their printed name or a type
word in any language, whatever the asker speaks; every printed name has its sources."""

from __future__ import annotations

import re

import pytest

from companion.catalog import load_catalog

from .helpers import ApiTable

CLASSIC_MONSTERS = [c for c in load_catalog().cards if c["set"] == "classic" and c["kind"] == "monster"]


def _links(page: str, list_id: str) -> list[str]:
    block = re.search(rf'<ul class="search-results" id="{list_id}">(.*?)</ul>', page, re.S)
    return re.findall(r'href="/cards/([^"?]+)', block.group(1)) if block else []


def test_find_the_monster_from_a_classic_game_lists_all_37_classic_monsters(client):
    table = ApiTable(client, "classic")
    page = client.get(f"/cards?game={table.code}&kind=monster").get_data(as_text=True)
    listed = _links(page, "table-cards")
    assert len(CLASSIC_MONSTERS) == 37
    assert sorted(listed) == sorted(c["id"] for c in CLASSIC_MONSTERS)
    for last in ("classic/squidzilla", "classic/wight-brothers", "classic/wannabe-vampire"):
        assert last in listed
    assert "more-results" not in page


def test_a_query_with_more_matches_than_shown_says_how_many_more_and_links_to_them_all(client):
    page = client.get("/cards?q=a").get_data(as_text=True)
    shown = _links(page, "card-list")
    more = re.search(r'class="more-results"><a href="([^"]+)">(\d+) more', page)
    assert more, "the cut list says nothing"
    everything = client.get(more.group(1).replace("&amp;", "&")).get_data(as_text=True)
    listed = _links(everything, "card-list")
    assert len(listed) == len(shown) + int(more.group(2))
    assert "more-results" not in everything


def test_the_search_fragment_says_how_many_more_too(client):
    fragment = client.get("/cards/search?q=a", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "more-results" in fragment and "all=1" in fragment


@pytest.mark.parametrize("query, card", [
    ("Frösche", "classic/flying-frogs"), ("Froesche", "classic/flying-frogs"),
    ("Huhn auf deinem Kopf", "classic/chicken-on-your-head"), ("Sabbernder Schleim", "classic/drooling-slime"),
    ("гарпии", "classic/harpies"), ("Плутониевый дракон", "classic/plutonium-dragon"),
    ("плутониевыи дракон", "classic/plutonium-dragon"), ("бигфут", "classic/bigfoot"),
    ("дракон плутониевый", "classic/plutonium-dragon"), ("Увечный гоблин", "classic/lame-goblin"),
    ("3872 orki", "classic/3872-orcs"), ("Peleryna cienia", "classic/cloak-of-obscurity"),
    ("Dragão de Plutônio", "classic/plutonium-dragon"),
])
def test_the_api_finds_a_card_by_its_printed_name_in_any_language_whatever_the_asker_speaks(client, query, card):
    for lang in ("en", "de", "ru"):
        found = client.get("/api/cards", query_string={"q": query},
                           headers={"Accept-Language": lang}).get_json()["cards"]
        assert found and found[0]["id"] == card, (query, lang, [c["id"] for c in found[:3]])


@pytest.mark.parametrize("word", ["Fluch", "проклятие", "malédiction", "klątwa", "maldición", "curse"])
def test_a_type_word_in_any_language_lists_that_kind(client, word):
    found = client.get("/api/cards", query_string={"q": word}).get_json()["cards"]
    assert len(found) >= 10 and all(c["kind"] == "curse" for c in found[:10]), [c["id"] for c in found[:10]]


def test_zbroja_lists_armor(client):
    found = client.get("/api/cards", query_string={"q": "zbroja"}).get_json()["cards"]
    assert found and all(c.get("slot") == "armor" for c in found[:5])


def test_the_api_gives_the_printed_name_in_the_askers_language_and_every_known_one(client):
    card = client.get("/api/cards/classic/drooling-slime", headers={"Accept-Language": "de"}).get_json()
    assert card["name"] == "Drooling Slime"  # the catalog's key stays English
    assert card["printed_name"] == "Sabbernder Schleim"
    assert card["printed_names"]["ru"] == "Сочащаяся слизь"
    polish = client.get("/api/cards/classic/drooling-slime", headers={"Accept-Language": "pl"}).get_json()
    assert polish["printed_name"] is None  # no source gives it: unknown, and the product says so


def test_every_printed_name_has_two_sources_or_the_publishers_list():
    printed = load_catalog().printed
    assert set(printed.languages()) >= {"de", "ru", "pl", "fr", "es", "it", "pt"}
    for lang in printed.languages():
        for card_id, entry in printed.by_lang[lang].items():
            assert len(set(entry.sources)) >= 2 or any("publisher" in s.lower() for s in entry.sources), \
                (lang, card_id)
