"""The card pages: a game's lookup lists the table's rulebook (and house cards)
first and the other sets below a divider; a card page says every effect and requirement in
words, never as raw data. The wordings are tables keyed by the engine's vocabulary, so a stat,
condition or requirement added without its wording fails here."""

from __future__ import annotations

import html as html_module
import re
from html.parser import HTMLParser

import pytest
from pydantic import BaseModel

from companion.catalog import load_catalog
from companion.engine.card_schema import Condition, Requires
from companion.engine.vocab import PERS, ROLES, SEXES, STATS
from companion.web import card_words

from .helpers import ApiTable


class _Sections(HTMLParser):
    """Text of the elements with the given ids (and of their descendants), by id."""

    def __init__(self, *ids: str):
        super().__init__()
        self.want, self.text, self._open = set(ids), {i: "" for i in ids}, []

    def handle_starttag(self, tag, attrs):
        if tag in ("br", "hr", "input", "img", "meta", "link"):
            return
        self._open.append(dict(attrs).get("id"))

    def handle_endtag(self, tag):
        if self._open and tag not in ("br", "hr", "input", "img", "meta", "link"):
            self._open.pop()

    def handle_data(self, data):
        for i in self.want & set(self._open):
            self.text[i] += data + " "


def sections(html: str, *ids: str) -> dict[str, str]:
    parser = _Sections(*ids)
    parser.feed(html)
    return {i: " ".join(t.split()) for i, t in parser.text.items()}


def card_ids(html: str, list_id: str) -> list[str]:
    """The card ids linked from one list of the lookup's results."""
    match = re.search(rf'<ul class="search-results" id="{list_id}">(.*?)</ul>', html, re.S)
    return re.findall(r'href="/cards/([a-z0-9-]+/[a-z0-9-]+)', match.group(1)) if match else []


# --- the lookup in a game's context -----------------------------------------------------------

def test_a_game_lookup_lists_its_rulebook_and_house_cards_first_and_other_sets_below(client):
    table = ApiTable(client, "classic")
    table.act("host", {"type": "add_house_card", "card": {"kind": "monster", "name": "Super Munchkin Slayer",
                                                          "level": 3, "treasures": 1}})
    for url in (f"/cards?game={table.code}&q=super+munchkin", f"/cards/search?game={table.code}&q=super+munchkin"):
        html = client.get(url).get_data(as_text=True)
        first, others = card_ids(html, "table-cards"), card_ids(html, "other-cards")
        assert "classic/super-munchkin" in first and any(c.startswith("house/") for c in first), url
        assert {c.split("/")[0] for c in first} <= {"classic", "house"}, first
        assert {"oz/super-munchkin", "russia/super-munchkin", "tails/super-munchkin"} <= set(others)
        assert not {c.split("/")[0] for c in others} & {"classic", "house"}, others
        text = sections(html, "card-results")["card-results"]
        assert text.index("This table's cards") < text.index("Other sets")
        assert "<hr>" in html  # the visible divider between the two lists

    # A set chosen by hand: that set only, in one list.
    html = client.get(f"/cards/search?game={table.code}&q=super+munchkin&set=oz").get_data(as_text=True)
    assert card_ids(html, "card-list") == ["oz/super-munchkin"] and "Other sets" not in html

    # A Tails table sees its own cards first.
    tails = ApiTable(client, "tails")
    html = client.get(f"/cards/search?game={tails.code}&q=wizard").get_data(as_text=True)
    assert card_ids(html, "table-cards")[0] == "tails/wizard"
    assert all(c.startswith("tails/") for c in card_ids(html, "table-cards"))


def test_without_a_game_the_lookup_is_one_list_of_every_set(client):
    html = client.get("/cards/search?q=super+munchkin").get_data(as_text=True)
    ids = card_ids(html, "card-list")
    assert {"classic/super-munchkin", "oz/super-munchkin", "tails/super-munchkin"} <= set(ids)
    assert "Other sets" not in html and not card_ids(html, "table-cards")


# --- card facts in words -----------------------------------------------------------------------

def _aliases(model: type[BaseModel]) -> set[str]:
    return {f.alias or name for name, f in model.model_fields.items()}


def test_every_word_of_the_vocabulary_has_a_wording_in_both_voices():
    assert set(STATS) <= set(card_words.EFFECT_WORDS), set(STATS) - set(card_words.EFFECT_WORDS)
    assert set(ROLES) <= set(card_words.ROLE_WORDS)
    assert set(PERS) <= set(card_words.PER_WORDS)
    assert _aliases(Condition) - {"role"} <= set(card_words.CONDITION_WORDS)
    assert _aliases(Requires) <= set(card_words.REQUIRES_WORDS)
    assert set(SEXES) <= set(card_words.SEX_WORDS)
    tables = (card_words.EFFECT_WORDS, card_words.ROLE_WORDS, card_words.PER_WORDS,
              card_words.CONDITION_WORDS, {"any Big items": card_words.ANY_BIG_ITEMS})
    for table in tables:
        for key, voices in table.items():
            assert set(voices) == set(card_words.VOICES), key


# One condition per key of ``if`` (the schema's, so a new key is tried too), then a pair.
CONDITION_VALUES = {"race": "elf", "class": "sports-club", "sex": "female", "tag": "undead",
                    "not_race": "human", "not_class": "wizard", "not_sex": "male"}
CONDITIONS = [{}, *({key: CONDITION_VALUES.get(key, "x")} for key in _aliases(Condition) - {"role"}),
              *({"role": r} for r in ROLES), {"race": "human", "role": "helping"}]


@pytest.mark.parametrize("stat", STATS)
def test_every_stat_reads_as_a_sentence_in_every_voice_with_every_condition(app, stat):
    with app.test_request_context("/"):
        for voice in card_words.VOICES:
            for value in (1, 3, -2, *([card_words.ANY_NUMBER] if stat == "big_items" else [])):
                for cond in CONDITIONS:
                    for per in (None, *PERS):
                        effect = {"stat": stat, "value": value, "if": cond, "per": per, "drawback": value < 0}
                        text = card_words.effect_sentence(effect, voice, "classic")
                        assert_sentence(text, f"{stat} {voice} {effect}")


def assert_in_words(text: str, where: str) -> None:
    raw_words = "|".join(map(re.escape, {*STATS, *PERS, *_aliases(Requires), *_aliases(Condition)}))
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), f"{where}: a raw key in {text!r}"
    assert not re.search(rf"\b(?:{raw_words})\s*:?\s*[+-]?\d", text), f"{where}: raw data in {text!r}"
    assert not re.search(r"\b99\b", text), f"{where}: 99 in {text!r}"


def assert_sentence(text: str, where: str) -> None:
    assert_in_words(text, where)
    assert not re.search(r"\b[a-z]+-[a-z]+\b", text), f"{where}: a slug in {text!r}"
    assert text.endswith(".") and (text[0] in "+-" or text[0].isupper()), f"{where}: not a sentence: {text!r}"


def test_every_card_page_says_its_effects_and_requirements_in_words(client):
    cards = load_catalog().cards
    assert len(cards) > 200
    for card in cards:
        html = client.get(f"/cards/{card['id']}").get_data(as_text=True)
        text = sections(html, "card-page")["card-page"]
        assert_in_words(text.replace(card.get("summary") or "", "").replace(card["name"], ""), card["id"])
        effects = re.findall(r'<dd class="effect">(.*?)</dd>', html)
        requirements = re.findall(r'<dd class="requirement">(.*?)</dd>', html)
        assert len(effects) == len(card.get("effects") or ()), card["id"]
        assert len(requirements) == len(card.get("requires") or {}), card["id"]
        for line in effects + requirements:
            assert_sentence(html_module.unescape(line), card["id"])


@pytest.mark.parametrize("card_id,says", [
    ("classic/dwarf", ["You may carry any number of Big items.", "You may keep 6 cards in your hand."]),
    ("classic/3872-orcs", ["+6 to its combat strength when a player facing it has the race Dwarf."]),
    ("oz/fighting-trees", ["+2 to its combat strength for each empty hand of the players facing it."]),
    ("spell-skool/computer-mouse", ["when a player facing it has the class Sports Club."]),
    ("classic/halfling", ["Drawback: -1 to your Run Away rolls."]),
    ("tails/dog", ["+4 to your combat strength while you help someone fight."]),
    ("classic/broad-sword", ["Only for a female character."]),
    ("classic/mithril-armor", ["Not for a character whose class is Wizard."]),
])
def test_card_pages_say_what_a_player_would(client, card_id, says):
    text = sections(client.get(f"/cards/{card_id}").get_data(as_text=True), "card-page")["card-page"]
    for sentence in says:
        assert sentence in text, text


def test_a_stat_without_a_wording_is_caught(app, monkeypatch):
    """The guard itself: a stat the engine adds without a row shows raw, and the checks see it."""
    monkeypatch.delitem(card_words.EFFECT_WORDS, "big_items")
    with app.test_request_context("/"):
        with pytest.raises(card_words.MissingWording):
            card_words.effect_sentence({"stat": "big_items", "value": 3}, "holder")
        shown = card_words.effects_in_words({"kind": "race", "effects": [{"stat": "big_items", "value": 3}]})
    with pytest.raises(AssertionError):
        assert_in_words(shown[0], "fallback")


@pytest.mark.parametrize("lang,undead", [("en", "Undead"), ("de", "Untot"), ("ru", "Андед")])
def test_a_monsters_tags_are_said_in_the_readers_language(client, lang, undead):
    client.set_cookie("lang", lang)
    html = client.get("/cards/classic/undead-horse").get_data(as_text=True)
    tags = re.findall(r"<dt>[^<]*</dt><dd>([^<]*)</dd>", html)  # the facts without markup inside
    assert undead in tags, tags
    assert "undead" not in tags


def test_a_bad_stuff_is_said_once(client):
    # The card's Bad Stuff in our words, in the reader's language; the short fact ("lose 2
    # levels") is not said again beside them.
    for lang, words in (("en", "lose 2 levels"), ("de", "2 stufen"), ("ru", "2 уровня")):
        client.set_cookie("lang", lang)
        html = client.get("/cards/classic/undead-horse").get_data(as_text=True)
        said = re.findall(r"<dt>[^<]*</dt><dd>(.*?)</dd>", html, re.S)
        bad = [d for d in said if words in d.lower()]
        assert len(bad) == 1 and bad[0].lower().count(words) == 1, (lang, bad)
