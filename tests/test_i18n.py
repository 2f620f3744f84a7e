"""Russian: a complete catalog, compiled, and Russian pages for a Russian phone."""

from __future__ import annotations


from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from companion import ROOT

PO = ROOT / "companion" / "translations" / "ru" / "LC_MESSAGES" / "messages.po"
MO = PO.with_suffix(".mo")
UPDATE = ("pybabel extract -F babel.cfg -k said_plural:1,2 -o /tmp/messages.pot . && pybabel update -i /tmp/messages.pot "
          "-d companion/translations, translate, then pybabel compile -d companion/translations")


def catalog():
    with PO.open("rb") as f:
        return read_po(f, locale="ru")


def test_the_russian_catalog_has_no_empty_or_fuzzy_translation():
    empty, fuzzy = [], []
    for message in catalog():
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        if not all(strings):
            empty.append(message.id)
        if message.fuzzy:
            fuzzy.append(message.id)
    assert not empty, f"untranslated: {empty}"
    assert not fuzzy, f"fuzzy (check and clear the flag): {fuzzy}"


def test_every_string_of_the_templates_is_in_the_catalog():
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    keywords = {**DEFAULT_KEYWORDS, "said_plural": (1, 2)}  # the engine's counted words
    wanted = {msgid for _, _, msgid, _, _ in extract_from_dir(str(ROOT), method_map, options_map,
                                                               keywords=keywords) if msgid}
    wanted = {tuple(m) if isinstance(m, (list, tuple)) else m for m in wanted}
    known = {tuple(m.id) if isinstance(m.id, (list, tuple)) else m.id for m in catalog() if m.id}
    missing = [m for m in wanted if m not in known]
    assert not missing, f"not in the Russian catalog: {missing}; run {UPDATE}"


def _pairs(messages) -> dict:
    tup = lambda v: tuple(v) if isinstance(v, (list, tuple)) else v  # noqa: E731 (plurals)
    return {tup(m.id): tup(m.string) for m in messages if m.id}


def test_the_compiled_catalog_matches_the_po_file():
    with MO.open("rb") as f:
        compiled = _pairs(read_mo(f))
    assert compiled == _pairs(catalog()), "messages.mo is stale: run pybabel compile -d companion/translations"


def test_a_russian_phone_gets_russian_pages(client):
    page = client.get("/", headers={"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"}).get_data(as_text=True)
    assert '<html lang="ru">' in page and "Начать игру" in page and "Новая игра" in page
    english = client.get("/", headers={"Accept-Language": "en-GB,en;q=0.9"}).get_data(as_text=True)
    assert '<html lang="en">' in english and "Start a game" in english


def test_the_language_switch_cookie_and_query_win_over_the_phone(client):
    client.set_cookie("lang", "ru")
    assert "Начать игру" in client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Start a game" in client.get("/?lang=en").get_data(as_text=True)


def test_a_fight_reads_naturally_in_russian(client, table):
    table.join("Ann", "female")
    table.join("Bob")
    ann = table.ids["Ann"]
    table.act("Ann", {"type": "fight", "player": ann,
                      "monster": {"kind": "monster", "name": "Plutonium Dragon", "level": 20, "treasures": 5}})
    client.set_cookie(f"seat_{table.code}", table.tokens["Ann"])
    page = client.get(f"/games/{table.code}", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    for words in ("Уровень", "Шмотки", "Монстры побеждают", "5 сокровищ", "Игрокам не хватает",
                  '<b id="needed">20</b>', "Кто может помочь", "Сдаться: смываемся"):
        assert words in page, words
    assert "Players need" not in page and "Level up" not in page
