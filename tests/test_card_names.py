"""Card names in the reader's language: races and classes in the rulebooks' terms,
other catalog cards by their printed English name marked ``lang="en"``, and a search that finds
a card by any name it has in any language, in any script."""

from __future__ import annotations

import re

import pytest

from companion.catalog import load_catalog
from companion.catalog.search import normalize_text
from companion.web.languages import LANGUAGES
from companion.web.words import RACE_CLASS_NAMES

TRANSLATED = [code for code in LANGUAGES if code != "en"]


def _ids(cards):
    return [c["id"] for c in cards]


def test_a_cyrillic_query_is_not_reduced_to_nothing():
    assert normalize_text("Эльф") == "эльф"
    assert normalize_text("Niziołek") == "niziołek" and normalize_text("Ladrón") == "ladron"


@pytest.mark.parametrize("query, card", [
    ("Эльф", "classic/elf"), ("эльф", "classic/elf"), ("Ельф", "classic/elf"),
    ("Дварф", "classic/dwarf"), ("Zwerg", "classic/dwarf"), ("nain", "classic/dwarf"),
    ("Krasnolud", "classic/dwarf"), ("anao", "classic/dwarf"), ("Хафлинг", "classic/halfling"),
    ("Niziolek", "classic/halfling"), ("Волшебник", "classic/wizard"), ("Zauberer", "classic/wizard"),
    ("Казак", "russia/cossack"), ("Олигарх", "russia/oligarch"), ("Лис", "tails/fox"),
    ("elf", "classic/elf"), ("dwarf", "classic/dwarf"),
])
def test_a_card_is_found_by_any_name_it_has_in_any_language(query, card):
    found = _ids(load_catalog().search(query, limit=5))
    assert found and found[0] == card, (query, found)


def test_a_query_in_cyrillic_that_names_no_card_lists_nothing():
    assert load_catalog().search("Эльф")[0]["id"] == "classic/elf"
    assert load_catalog().search("ыыыыщщ") == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_race_and_class_names_are_translated_in_every_language(lang):
    from babel.messages.pofile import read_po

    from companion import ROOT

    with (ROOT / "companion" / "translations" / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    for name, msgid in RACE_CLASS_NAMES.items():
        message = catalog.get(msgid)
        assert message is not None and message.string, (lang, name)
    for card in load_catalog().cards:
        if card["kind"] in ("race", "class"):
            assert card["name"] in RACE_CLASS_NAMES, card["id"]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_card_pages_name_races_in_the_readers_words_and_mark_other_names_english(client, lang):
    client.set_cookie("lang", lang)
    page = client.get("/cards/classic/elf").get_data(as_text=True)
    h1 = re.search(r"<h1>(.*?)</h1>", page).group(1)
    assert "lang=" not in h1 and h1 != "Elf" or lang in ("de", "pl"), h1  # "Elf" in German and Polish too
    monster = client.get("/cards/classic/drooling-slime").get_data(as_text=True)
    printed = load_catalog().printed_name("classic/drooling-slime", lang)
    if printed:  # the name printed on that language's card, the English one beside it
        assert f"<h1>{printed}</h1>" in monster
        assert '<span lang="en">Drooling Slime</span>' in monster
    else:  # no source gives it: the English name, marked
        assert '<h1><span lang="en">Drooling Slime</span></h1>' in monster
    found = client.get("/cards", query_string={"q": "Эльф"}).get_data(as_text=True)
    assert "/cards/classic/elf" in found and "/cards/classic/dwarf" not in found


def test_english_pages_show_names_unmarked(client):
    client.set_cookie("lang", "en")
    page = client.get("/cards/classic/drooling-slime").get_data(as_text=True)
    assert "<h1>Drooling Slime</h1>" in page


@pytest.mark.parametrize("lang, word", [("ru", "Эльф"), ("de", "Zwerg"), ("fr", "Nain"), ("pl", "Krasnolud")])
def test_the_sheet_and_the_log_say_the_race_in_the_readers_words(client, table, lang, word):
    table.join("Ann", "female")
    ann = table.ids["Ann"]
    card = "classic/elf" if word in ("Эльф",) else "classic/dwarf"
    table.act("Ann", {"type": "play", "player": ann, "card": card})
    client.set_cookie("lang", lang)
    client.set_cookie(f"seat_{table.code}", table.tokens["Ann"])
    page = client.get(f"/games/{table.code}?tab=me").get_data(as_text=True)
    assert f"<strong>{word}</strong>" in page
    history = client.get(f"/games/{table.code}/history").get_data(as_text=True)
    assert word in history
