"""The arbiter's answer at a table: a question that names a card is answered with that card's
catalog facts beside the rulings, in every edition's catalog (the API's "cards" and the rules
page); a question about the moment ("can I sell now?") is judged for the asking seat at this
moment of its game, in the reader's language; after a win a question is still answered about
what it asks."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.catalog import load_catalog
from companion.catalog.mentions import cards_named

from .helpers import boris_won

CATALOG = load_catalog()


def _named(text, edition=None):
    cards = sorted(CATALOG.cards, key=lambda c: c["set"] != edition) if edition else CATALOG.cards
    return [c["id"] for c in cards_named(text, cards)]


def test_a_question_names_its_card():
    assert _named("does the wishing ring stop a curse") == ["classic/wishing-ring"]
    assert _named("is the plutonium dragon undead") == ["classic/plutonium-dragon"]
    assert _named("are the 3872 orcs one monster") == ["classic/3872-orcs"]
    assert _named("pit bulls bad stuff?") == ["classic/pit-bull"]  # plural or possessive s
    assert _named("how do i kill the gazebo") == ["classic/gazebo"]


def test_rule_words_are_not_cards():
    # one-word races, classes and enhancers are the rules' own words
    assert _named("can a thief steal during a fight") == []
    assert _named("does my elf helper get a level") == []
    assert _named("mate and enhancers") == []
    assert _named("what happens if i fail to run away") == []


def test_a_name_inside_a_longer_name_is_not_a_card_of_its_own():
    dragons = [c for c in CATALOG.cards if c["name"].lower().endswith("dragon")]
    assert len(dragons) >= 1
    ids = _named("is the plutonium dragon a dragon")
    assert ids == ["classic/plutonium-dragon"]


@pytest.mark.parametrize("edition", ["classic", "oz", "spell-skool", "russia", "tails"])
def test_every_editions_catalog_is_searched(edition):
    # for each set, a card with a name of two words or more is found by a question naming it
    card = next(c for c in CATALOG.cards if c["set"] == edition and len(c["name"].split()) >= 2)
    ids = _named(f"how does {card['name'].lower()} work", edition)
    assert ids and ids[0] == card["id"], (card["name"], ids)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([c for c in CATALOG.cards if len(c["name"].split()) >= 2]),
       st.text(alphabet="abcdefghij klmnop", max_size=20), st.text(alphabet="qrstuvw xyz", max_size=20))
def test_any_multi_word_name_is_found_wherever_it_stands(card, before, after):
    ids = _named(f"{before} {card['name']} {after}", card["set"])
    assert card["id"] in ids or any(  # unless a longer name around it was found instead
        len(c["name"]) > len(card["name"]) for c in CATALOG.cards if c["id"] in ids)


def test_the_api_gives_the_named_cards_facts_beside_the_rulings(client):
    body = client.get("/api/rules?q=does+the+wishing+ring+stop+a+curse&edition=classic").get_json()
    assert body["rulings"][0]["id"] == "wishing-ring-curse"
    (ring,) = body["cards"]
    assert ring["id"] == "classic/wishing-ring" and ring["kind"] == "one-shot" and ring["gold"] == 500
    assert ring["url"] == "/cards/classic/wishing-ring"
    body = client.get("/api/rules?q=is+the+plutonium+dragon+undead").get_json()
    (dragon,) = body["cards"]
    assert dragon["tags"] == ["dragon"] and "undead" not in dragon["tags"]
    assert client.get("/api/rules?q=charity").get_json()["cards"] == []
    # in Russian, the card's summary comes in Russian
    ru = client.get("/api/rules?q=wishing+ring&lang=ru").get_json()["cards"][0]
    assert re.search("[а-я]", ru["summary"])


def test_the_rules_page_shows_the_card_above_the_rulings(client):
    page = client.get("/rules?q=is+the+plutonium+dragon+undead").get_data(as_text=True)
    assert 'data-card="classic/plutonium-dragon"' in page
    assert page.index('data-card="classic/plutonium-dragon"') < page.index('class="ruling-hit"')
    assert 'href="/cards/classic/plutonium-dragon"' in page
    fragment = client.get("/rules?q=gazebo", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert 'data-card="classic/gazebo"' in fragment


# ---------------------------------------------------------------- the arbiter knows the moment

def _ask(table, who, q):
    return table.request("GET", f"/api/rules?game={table.code}&q={q}", who).get_json()


def test_can_i_sell_now_is_answered_for_this_seat_at_this_moment(client):
    from .helpers import ApiTable

    table = ApiTable(client, "classic")
    table.join("Ann")
    table.join("Bob")
    turn = table.state()["turn"]
    me, other = ("Ann", "Bob") if turn == table.ids["Ann"] else ("Bob", "Ann")
    body = _ask(table, me, "can i sell now")
    assert body["moment"]["verdict"]["allowed"] is True
    assert body["moment"]["action"] == {"type": "sell", "player": table.ids[me], "hand_gold": 1000}
    body = _ask(table, other, "can i sell now")
    assert body["moment"]["verdict"]["allowed"] is False
    assert body["moment"]["verdict"]["rule"] == "sell-own-turn"
    assert body["rulings"][0]["id"] == "sell-own-turn"  # the general ruling under the verdict
    # in a fight, the same question gets the fight's answer
    table.act(me, {"type": "fight", "player": table.ids[me],
                   "monster": {"kind": "monster", "name": "Rat", "level": 1}})
    body = _ask(table, me, "can i sell stuff now")
    assert body["moment"]["verdict"]["rule"] == "sell-not-in-combat"
    assert body["rulings"][0]["id"] == "sell-not-in-combat"
    # nothing to judge: no seat, no table, or a question that asks to do nothing
    assert client.get(f"/api/rules?game={table.code}&q=can+i+sell+now").get_json()["moment"] is None
    assert client.get("/api/rules?q=can+i+sell+now").get_json()["moment"] is None
    assert _ask(table, me, "what is charity")["moment"] is None


@pytest.mark.parametrize("lang, question", [
    ("en", "can an elf help in a fight and get a level"),
    ("ru", "может ли эльф помогать в бою и получить уровень"),
    ("de", "kann ein Zwerg beim Kampf helfen"),
])
def test_a_question_about_a_race_or_class_asks_the_rule_not_this_seats_moment(client, lang, question):
    from .helpers import ApiTable

    table = ApiTable(client, "classic")
    table.join("Ann")
    table.join("Bob")
    client.set_cookie("lang", lang)
    body = _ask(table, "Ann", question)
    assert body["moment"] is None  # no "No: there is no fight" on top of the Elf's rule
    assert _ask(table, "Ann", {"en": "can i help", "ru": "могу ли я помочь", "de": "kann ich helfen"}[lang])["moment"]


@pytest.mark.parametrize("lang, sell, run", [
    ("de", "kann ich jetzt verkaufen", "darf ich weglaufen"),
    ("fr", "je peux vendre maintenant", "je peux fuir"),
    ("es", "puedo vender ahora", "puedo huir"),
    ("it", "posso vendere adesso", "posso scappare"),
    ("pt_BR", "posso vender agora", "posso fugir"),
    ("pl", "czy mogę teraz sprzedać", "czy mogę uciec"),
    ("ru", "можно сейчас продать", "могу ли я сбежать"),
    ("uk", "чи можна зараз продати", "чи можу я втекти"),
])
def test_the_moment_is_judged_for_a_question_in_the_readers_language(client, lang, sell, run):
    from .helpers import ApiTable

    table = ApiTable(client, "classic")
    table.join("Ann")
    table.join("Bob")
    turn = table.state()["turn"]
    me = "Ann" if turn == table.ids["Ann"] else "Bob"
    client.set_cookie("lang", lang)
    body = _ask(table, me, sell)
    assert body["moment"]["action"]["type"] == "sell" and body["moment"]["verdict"]["allowed"] is True
    table.act(me, {"type": "fight", "player": table.ids[me],
                   "monster": {"kind": "monster", "name": "Rat", "level": 1}})
    body = _ask(table, me, run)
    assert body["moment"]["action"]["type"] == "run_away"


def test_the_rules_page_shows_the_verdict_above_the_rulings_for_the_seat_cookie(client):
    from .helpers import ApiTable

    table = ApiTable(client, "classic")
    table.join("Ann")
    table.join("Bob")
    turn = table.state()["turn"]
    other = "Bob" if turn == table.ids["Ann"] else "Ann"
    client.set_cookie(f"seat_{table.code}", table.tokens[other])
    page = client.get(f"/rules?game={table.code}&q=can+i+sell+now").get_data(as_text=True)
    assert 'id="moment" data-allowed="false" data-rule="sell-own-turn"' in page
    first_hit = page.index('class="ruling-hit"')
    assert page.index('id="moment"') < first_hit
    assert page[first_hit:].startswith('class="ruling-hit" data-rule="sell-own-turn"')


def test_after_a_win_a_question_about_help_is_still_answered_about_help(client):
    table = boris_won(client)
    answer = client.get(f"/api/rules?q=does the fighter have to accept help&game={table.code}",
                        headers=table.auth("Eva")).get_json()
    assert answer["rulings"][0]["id"] != "game-over"
    assert "help-needs-fighter" in [r["id"] for r in answer["rulings"][:3]]
