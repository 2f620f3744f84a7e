"""Every word a player sees, in the player's language (the nine languages the game is published in).

Two checks for each language: its catalog translates every message of the templates and of the
engine (history lines, refusals, fight and bribe texts), compiled; and a walk through every page
of a game in full swing (a fight, an offer, a curse, a refusal, the history) finds no English
sentence. Texts that are English on purpose are marked ``lang="en"`` (a ruling or a card summary
not yet translated, with a note saying so; a citation of the printed rulebook) and skipped;
names (players, cards, editions) are facts and removed before looking.
"""

from __future__ import annotations

import html
import re
from functools import cache

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo

from companion import ROOT
from companion.web.languages import LANGUAGES

from .helpers import CATALOGS, TRANSLATED, VisibleText, catalog_po, every_page, own_phone


# The engine's counted words are plural entries: said_plural(singular, plural, n).
KEYWORDS = {**DEFAULT_KEYWORDS, "said_plural": (1, 2)}


@cache  # the sources' messages, extracted once for the eight languages (0.8 s each time)
def _wanted() -> frozenset:
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    return frozenset(msgid for _, _, msgid, _, _ in extract_from_dir(str(ROOT), method_map, options_map,
                                                                      keywords=KEYWORDS) if msgid)


def test_every_language_the_game_is_published_in_is_offered():
    assert set(LANGUAGES) == {"en", "ru", "de", "fr", "es", "it", "pl", "pt_BR", "uk"}


def _key(msgid):
    """A catalog key: a plural entry's id is its (singular, plural) pair."""
    return tuple(msgid) if isinstance(msgid, (list, tuple)) else msgid


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalog_translates_every_message_and_is_compiled(lang):
    catalog = catalog_po(lang)
    known = {_key(m.id) for m in catalog if m.id}
    missing = [m for m in _wanted() if _key(m) not in known]
    assert not missing, f"{lang}: not in the catalog (pybabel update): {missing[:10]}"
    empty = [m.id for m in catalog if m.id and not all(
        m.string if isinstance(m.string, (tuple, list)) else (m.string,))]
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert not empty, f"{lang}: untranslated: {empty[:10]}"
    assert not fuzzy, f"{lang}: fuzzy: {fuzzy[:10]}"
    with (CATALOGS / lang / "LC_MESSAGES" / "messages.mo").open("rb") as f:
        compiled = {_key(m.id) for m in read_mo(f) if m.id and m.string}
    assert known <= compiled, f"{lang}: messages.mo is stale: pybabel compile -d companion/translations"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_placeholders_survive_translation(lang):
    """A translation that drops or invents a %(name)s would lose a fact or fail to render."""
    pattern = re.compile(r"%\((\w+)\)[sd]")
    wrong = []
    for m in catalog_po(lang):
        if not m.id or not m.string:
            continue
        ids = m.id if isinstance(m.id, (tuple, list)) else (m.id,)
        strings = m.string if isinstance(m.string, (tuple, list)) else (m.string,)
        want = set(pattern.findall(ids[-1]))
        for s in strings:
            got = set(pattern.findall(s))
            # A plural form may leave the count out (Russian "одно сокровище"), nothing else.
            if got - want or (want - got) - {"num", "n"}:
                wrong.append((m.id, s))
    assert not wrong, f"{lang}: placeholders differ: {wrong[:5]}"


# --- the walk ----------------------------------------------------------------------------------

# Words only English glues a sentence with (not "a", "no", "an", "in", "to", "on": Spanish,
# Italian, German and Polish have them too).
ENGLISH_GLUE = {"the", "of", "is", "are", "your", "you", "and", "with", "not", "this", "that",
                "who", "can", "may", "has", "have", "by", "from", "or", "his", "their", "them",
                "what", "how", "there", "picks", "first", "treasure", "treasures", "level", "cards"}
WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def english_sentences(page: str, names: set[str]) -> list[str]:
    parser = VisibleText()
    parser.feed(page)
    text = html.unescape("\n".join(parser.chunks))
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    found = []
    for piece in re.split(r"[.!?;:\n()«»\"“”·—|/,0-9]+", text):
        words = WORD.findall(piece)
        lowered = [w.lower() for w in words]
        # Two or more English words in a row, one of them a word only English glues with.
        if len(words) >= 2 and set(lowered) & ENGLISH_GLUE and \
                " ".join(words) in re.sub(r"\s+", " ", piece):
            found.append(piece.strip())
    return found


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_walk_through_every_page_finds_no_english_sentence(client, game_in_full_swing, lang):
    table, names = game_in_full_swing
    leftovers = {}
    for page, response in every_page(client, table, lang):
        assert response.status_code < 500, page
        assert response.status_code in (200, 400, 404, 422), (page, response.status_code)
        found = english_sentences(response.get_data(as_text=True), names)
        if found:
            leftovers[page] = found[:5]
    assert not leftovers, f"{lang}: English on the pages: {leftovers}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_api_speaks_the_askers_language(client, game_in_full_swing, lang):
    table, names = game_in_full_swing
    headers = {"Accept-Language": lang.replace("_", "-")}
    refused = table.send("Bob", {"type": "level", "player": table.ids["Bob"], "delta": -1},
                         headers=headers).get_json()["error"]
    assert refused["rule"] == "level-minimum" and refused["detail"]
    assert not english_sentences(f"<p>{refused['detail']}</p>", names), refused
    done = table.send("Bob", {"type": "gear", "player": table.ids["Bob"], "delta": 1}, headers=headers).get_json()
    assert done["event"]["kind"] and not english_sentences(f"<p>{done['event']['text']}</p>", names), done["event"]
    history = table.request("GET", "history", "Bob", headers=headers).get_json()["events"]
    lines = "".join(f"<p>{e['text']}</p>" for e in history)
    assert not english_sentences(lines, names), lines


def test_the_detector_finds_english(client, game_in_full_swing):
    """The walk above can fail: an English page is full of English sentences."""
    table, names = game_in_full_swing
    page = own_phone(client, "en", **{f"seat_{table.code}": table.tokens["Bob"]}).get(f"/games/{table.code}")
    assert page.status_code == 200
    assert len(english_sentences(page.get_data(as_text=True), names)) > 5


def test_the_arbiters_check_answers_in_the_askers_language(client, game_in_full_swing):
    table, names = game_in_full_swing
    headers = {"Accept-Language": "de"}
    ok = table.request("POST", "check", "Bob", headers=headers,
                       json={"type": "gear", "player": table.ids["Bob"], "delta": 1}).get_json()
    assert ok["allowed"] and ok["message"] == "Erlaubt."
    no = table.request("POST", "check", "Bob", headers=headers,
                       json={"type": "level", "player": table.ids["Bob"], "delta": -1}).get_json()
    assert not no["allowed"] and no["rule"] == "level-minimum"
    assert not english_sentences(f"<p>{no['detail']}</p>", names), no
