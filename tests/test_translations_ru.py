"""Rulings and card summaries in Russian, with an honest fallback to English.

``companion/rulebase/translations/ru.json`` and ``cards/translations/ru.json`` hold our own
Russian words for every ruling and every catalog card summary; a text with no translation is
shown in English and marked ``"fallback": True`` (and a page says so).
"""

from __future__ import annotations

import json
import re

import pytest

from companion import rulebase
from companion.catalog import (CatalogError, load_card_translations, load_catalog,
                               localized_card, missing_card_translations)
from companion.rulebase import RulebaseError, localized

CYRILLIC = re.compile(r"[А-Яа-яЁё]")
FALLBACK_NOTE_RU = "Этот текст пока есть только на английском."
RULING_TEXTS = ("question", "answer", "reasoning", "differs")


def _catalog_cards():
    return load_catalog().cards


# ------------------------------------------------------------------ coverage and quality

def test_every_ruling_has_a_russian_text():
    assert rulebase.missing_translations("ru") == []
    for ruling in rulebase.all_rulings():
        ru = localized(ruling, "ru")
        assert ru["lang"] == "ru" and ru["fallback"] is False, ruling["id"]
        assert ru["keywords"] and all(CYRILLIC.search(k) for k in ru["keywords"]), ruling["id"]


def test_russian_rulings_are_russian_and_not_copies_of_the_english():
    for ruling in rulebase.all_rulings():
        ru = localized(ruling, "ru")
        for key in RULING_TEXTS:
            if ruling[key] is None:
                assert ru[key] is None, (ruling["id"], key)
                continue
            assert ru[key] != ruling[key], (ruling["id"], key)
            assert CYRILLIC.search(ru[key]), (ruling["id"], key)
        assert ru["question"].rstrip().endswith("?"), ruling["id"]
        # what is not text stays as it is
        assert {k: ru[k] for k in ("id", "topic", "editions", "citations")} == \
            {k: ruling[k] for k in ("id", "topic", "editions", "citations")}


def test_every_catalog_card_has_a_russian_summary():
    assert missing_card_translations("ru") == []
    for card in _catalog_cards():
        ru = localized_card(card, "ru")
        assert ru["lang"] == "ru" and ru["fallback"] is False, card["id"]
        assert ru["summary"] != card["summary"] and CYRILLIC.search(ru["summary"]), card["id"]
        assert ru["name"] == card["name"], "card names stay as printed"
        english_bad = (card.get("bad_stuff") or {}).get("summary")
        if english_bad:
            russian_bad = ru["bad_stuff"]["summary"]
            assert russian_bad != english_bad and CYRILLIC.search(russian_bad), card["id"]


def test_localized_copies_do_not_change_the_originals():
    ruling = rulebase.get_ruling("level-ten-needs-kill")
    localized(ruling, "ru")
    assert rulebase.get_ruling("level-ten-needs-kill") == ruling
    card = load_catalog().get("classic/bullrog")
    localized_card(card, "ru")
    assert load_catalog().get("classic/bullrog") == card
    assert "lang" not in card and "fallback" not in card


# ------------------------------------------------------------------ the fallback

def test_a_language_without_translations_falls_back_to_english():
    # Every language of the app has its texts: Dutch, which it does not speak, has none.
    ruling = rulebase.get_ruling("helper-no-level")
    de = localized(ruling, "nl")
    assert de["lang"] == "en" and de["fallback"] is True
    assert all(de[k] == ruling[k] for k in RULING_TEXTS + ("keywords",))
    en = localized(ruling, "en")
    assert en["lang"] == "en" and en["fallback"] is False
    # a babel locale or a region tag works like the bare language
    assert localized(ruling, "ru_RU")["lang"] == localized(ruling, "ru-RU")["lang"] == "ru"

    card = load_catalog().get("classic/drooling-slime")
    de_card = localized_card(card, "nl")
    assert de_card["lang"] == "en" and de_card["fallback"] is True
    assert de_card["summary"] == card["summary"]
    assert localized_card(card, "en")["fallback"] is False


def test_a_house_card_is_in_the_tables_own_words():
    house = {"id": "house/grumpy-cat", "set": "house", "name": "Grumpy Cat", "kind": "monster",
             "summary": "Шипит на всех."}
    out = localized_card(house, "ru")
    assert out["lang"] is None and out["fallback"] is False and out["summary"] == house["summary"]


def test_explain_answers_in_the_language_asked_for():
    en_answer, en_citation = rulebase.explain("level-ten-needs-kill", "tails")
    ru_answer, ru_citation = rulebase.explain("level-ten-needs-kill", "tails", lang="ru")
    assert en_answer == rulebase.get_ruling("level-ten-needs-kill")["answer"]
    assert CYRILLIC.search(ru_answer) and ru_answer != en_answer
    assert ru_citation == en_citation
    assert rulebase.explain("level-ten-needs-kill", "tails", lang="nl")[0] == en_answer  # no Dutch texts
    de_answer = rulebase.explain("level-ten-needs-kill", "tails", lang="de")[0]
    assert de_answer not in (en_answer, ru_answer) and "Stufe" in de_answer


# ------------------------------------------------------------------ validation at load time

def test_a_translation_for_an_unknown_ruling_is_an_error(tmp_path):
    entry = {"question": "Что?", "answer": "Ничего.", "reasoning": "Так."}
    (tmp_path / "ru.json").write_text(json.dumps({"no-such-rule": entry}), encoding="utf-8")
    with pytest.raises(RulebaseError, match="no-such-rule"):
        rulebase.load_translations("ru", tmp_path)


@pytest.mark.parametrize("change, message", [
    ({"answer": ""}, "answer"),
    ({"question": "Без вопросительного знака"}, "question"),
    ({"colour": "синий"}, "unknown key"),
    ({"differs": "Лишнее примечание."}, "differs"),
])
def test_a_malformed_ruling_translation_is_an_error(tmp_path, change, message):
    entry = {"question": "Сколько союзников?", "answer": "Один.", "reasoning": "Так.", **change}
    (tmp_path / "ru.json").write_text(json.dumps({"ally-limit": entry}), encoding="utf-8")
    with pytest.raises(RulebaseError, match=message):
        rulebase.load_translations("ru", tmp_path)


def test_a_missing_ruling_translation_is_allowed(tmp_path):
    entry = {"question": "Сколько союзников?", "answer": "Один.", "reasoning": "Так."}
    (tmp_path / "ru.json").write_text(json.dumps({"ally-limit": entry}), encoding="utf-8")
    assert set(rulebase.load_translations("ru", tmp_path)) == {"ally-limit"}
    assert rulebase.load_translations("de", tmp_path) == {}


def test_a_card_translation_for_an_unknown_card_is_an_error(tmp_path):
    (tmp_path / "ru.json").write_text(json.dumps({"classic/no-such-card": {"summary": "Ой."}}),
                                      encoding="utf-8")
    with pytest.raises(CatalogError, match="no-such-card"):
        load_card_translations("ru", tmp_path)


def test_a_card_translation_must_cover_the_bad_stuff_it_has(tmp_path):
    (tmp_path / "ru.json").write_text(json.dumps({"classic/bullrog": {"summary": "Бык."}}),
                                      encoding="utf-8")
    with pytest.raises(CatalogError, match="bad_stuff"):
        load_card_translations("ru", tmp_path)
    (tmp_path / "ru.json").write_text(
        json.dumps({"classic/bullrog": {"summary": "Бык.", "bad_stuff": "Смерть."}}),
        encoding="utf-8")
    assert load_card_translations("ru", tmp_path)["classic/bullrog"]["summary"] == "Бык."


# ------------------------------------------------------------------ pages and API

def test_the_rules_page_in_russian_shows_the_russian_answer(client):
    ruling = rulebase.get_ruling("level-ten-needs-kill")
    ru = localized(ruling, "ru")
    page = client.get("/rules/level-ten-needs-kill?lang=ru").get_data(as_text=True)
    assert ru["answer"] in page and ru["question"] in page
    assert ruling["answer"] not in page
    assert FALLBACK_NOTE_RU not in page
    english = client.get("/rules/level-ten-needs-kill?lang=en").get_data(as_text=True)
    assert ruling["answer"] in english and ru["answer"] not in english


def test_the_rules_search_page_answers_in_the_language_of_the_cookie(client):
    client.set_cookie("lang", "ru")
    page = client.get("/rules", query_string={"q": "помощник получает уровень"}).get_data(as_text=True)
    assert localized(rulebase.get_ruling("helper-no-level"), "ru")["answer"] in page
    assert "Благотворительность" in client.get("/rules").get_data(as_text=True)  # topic labels


def test_a_card_page_in_russian_shows_the_russian_summary(client):
    card = load_catalog().get("classic/bullrog")
    ru = localized_card(card, "ru")
    client.set_cookie("lang", "ru")
    page = client.get("/cards/classic/bullrog").get_data(as_text=True)
    assert ru["summary"] in page and ru["bad_stuff"]["summary"] in page
    assert card["summary"] not in page and card["name"] in page
    assert FALLBACK_NOTE_RU not in page


def test_the_rules_api_answers_russian_with_lang_ru(client):
    body = client.get("/api/rules/level-ten-needs-kill?lang=ru&edition=tails").get_json()
    english = client.get("/api/rules/level-ten-needs-kill?lang=en&edition=tails").get_json()
    assert body["lang"] == "ru" and body["fallback"] is False
    assert body["answer"] == localized(rulebase.get_ruling("level-ten-needs-kill"), "ru")["answer"]
    assert CYRILLIC.search(body["answer"])
    assert english["lang"] == "en" and english["fallback"] is False
    assert set(english) <= set(body), "the fields the API had stay"
    # The citation names the same book and sections, as the Russian edition titles them.
    assert body["citation"] == rulebase.localized_citation(english["citation"], "ru")
    assert body["citation"].startswith("Munchkin Tails, ") and CYRILLIC.search(body["citation"])


def test_the_rules_api_honours_accept_language_and_searches_in_russian(client):
    body = client.get("/api/rules", query_string={"q": "сколько надо выбросить чтобы смыться"},
                      headers={"Accept-Language": "ru-RU,ru;q=0.9"}).get_json()
    assert body["rulings"][0]["id"] == "run-away-roll"
    assert all(r["lang"] == "ru" and not r["fallback"] for r in body["rulings"])
    everything = client.get("/api/rules?lang=ru").get_json()["rulings"]
    assert len(everything) == len(rulebase.all_rulings())


def test_the_card_api_answers_russian(client):
    card = client.get("/api/cards/classic/drooling-slime?lang=ru").get_json()
    assert card["lang"] == "ru" and card["fallback"] is False and CYRILLIC.search(card["summary"])
    assert card["name"] == "Drooling Slime"
    found = client.get("/api/cards?q=slime&lang=ru").get_json()["cards"]
    assert found and all(c["lang"] == "ru" for c in found)
    english = client.get("/api/cards/classic/drooling-slime").get_json()
    assert english["lang"] == "en" and english["fallback"] is False


def test_a_page_says_when_a_text_is_only_in_english(client, monkeypatch):
    # Pretend no ruling and no card is translated yet.
    monkeypatch.setattr(rulebase, "_translations", lambda lang: {})
    monkeypatch.setattr("companion.catalog._TRANSLATIONS", {"ru": {}})
    ruling = rulebase.get_ruling("level-ten-needs-kill")
    page = client.get("/rules/level-ten-needs-kill?lang=ru").get_data(as_text=True)
    assert ruling["answer"] in page and FALLBACK_NOTE_RU in page
    body = client.get("/api/rules/level-ten-needs-kill?lang=ru").get_json()
    assert body["lang"] == "en" and body["fallback"] is True
    card_page = client.get("/cards/classic/bullrog?lang=ru").get_data(as_text=True)
    assert load_catalog().get("classic/bullrog")["summary"] in card_page
    assert FALLBACK_NOTE_RU in card_page
    # an English page needs no such note
    assert "only in English" not in client.get("/rules/level-ten-needs-kill?lang=en").get_data(as_text=True)


# ------------------------------------------------------------------ asking in Russian

RUSSIAN_QUESTIONS = [
    ("можно продать шмотки чтобы выйти на 10 уровень", "level-ten-needs-kill", None),
    ("помощник получает уровень?", "helper-no-level", None),
    ("помошник получит лвл?", "helper-no-level", "oz"),
    ("сколько надо выкинуть на кубике чтобы смыться", "run-away-roll", None),
    ("две большие шмотки у дварфа", "big-item-limit", "classic"),
    ("что будет если ничья с монстром", "monsters-win-ties", None),
    ("можно ли надеть два шлема", "equip-slot-limit", None),
    ("что остаётся после смерти", "dead-keeps", None),
    ("можно продавать шмотки в чужой ход", "sell-own-turn", None),
    ("сколько человек могут помогать в бою", "helper-limit", None),
    ("можно ли быть эльфом и дварфом сразу", "race-limit", "classic"),
    ("монстр сильнее меня что делать", "cant-win-options", None),
    ("можно меняться шмотками во время боя", "no-trade-in-combat", None),
    ("проклятие снять броник а броника нет", "curse-nothing-to-affect", None),
    ("сдачу с 1500 голдов дают?", "sell-no-change", None),
    ("сколько союзников можно", "ally-limit", "oz"),
    ("лишние карты кому отдавать", "charity", None),
    ("вор может красть в бою?", "thief-no-steal-in-combat", "classic"),
    ("мы поспорили кто прав", "owner-last-word", None),
    ("Half-Breed без расы", "half-breed-needs-race", None),
]


@pytest.mark.parametrize("q, expected, edition", RUSSIAN_QUESTIONS)
def test_a_russian_question_finds_its_ruling_in_the_top_three(q, expected, edition):
    found = [r["id"] for r in rulebase.search(q, edition=edition, limit=3)]
    assert expected in found, (q, found)


def test_every_russian_question_of_the_rulebase_finds_its_own_ruling():
    misses = []
    for ruling in rulebase.all_rulings():
        q = localized(ruling, "ru")["question"]
        if ruling["id"] not in [r["id"] for r in rulebase.search(q, limit=3)]:
            misses.append(ruling["id"])
    assert not misses


@pytest.mark.parametrize("lang, words, marked", [
    ("ru", "Каждый игрок с самым высоким уровнем забирает у тебя по одной шмотке.", False),
    ("de", "Jeder Spieler mit der höchsten Stufe nimmt dir einen Gegenstand weg.", False),
])
def test_a_catalog_cards_bad_stuff_text_is_shown_in_the_readers_language(client, lang, words, marked):
    # Net Troll's Bad Stuff is done by hand: the log line and the note on the sheet quote the
    # card, in the reader's language where the catalog has it, else in English marked as such.
    from .helpers import ApiTable

    table = ApiTable(client)
    table.join("Ann")
    ann = table.ids["Ann"]
    table.act("Ann", {"type": "fight", "player": ann, "monster": "classic/net-troll"})
    table.act("Ann", {"type": "resolve"})
    table.act("Ann", {"type": "run_away", "player": ann, "monster": 0, "roll": 1})
    client.set_cookie("lang", lang)
    history = table.history()
    assert words in history[0]["text"]
    client.set_cookie(f"seat_{table.code}", table.tokens["Ann"])
    page = client.get(f"/games/{table.code}?tab=me").get_data(as_text=True)
    assert (f'<span lang="en">{words}</span>' in page) is marked and words in page
