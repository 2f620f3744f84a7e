"""A fluent reader of each language walks a whole game (docs/TRANSLATING.md, docs/glossary/).

Two casts play the same evening, once four women and once four men, each in every role: the
fighter who bribes a helper and wins the game, the helper who accepts, the player who declines
and is cursed, the player who dies and is looted. At each moment (a fight with an offer out,
the fight won, a body being looted, the game won) every page a phone, the host and the table
screen show is read in each language, and fails on

- an English word outside ``lang="en"`` (names of players and cards are facts and are left
  out; the words looked for are those of the app's own English messages that the language's
  catalog never uses itself);
- a word that refers to a woman in a masculine form, or to a man in a feminine one, as each
  language's fluent reader listed them in ``tests/fluent/<lang>.json`` (every form a reviewer
  met);
- straight or English quotation marks where the language has its own
  (``tests/fluent/<lang>.json``: ``quotes``).

Untranslated and fuzzy messages are ``tests/test_languages.py``'s; pages wider than a phone,
``tests/browser/test_languages_fit_browser.py``'s.
"""

from __future__ import annotations

import html
import json
import re
from functools import cache, lru_cache

import pytest

from companion import ROOT
from companion.catalog import load_catalog
from companion.engine.editions import EDITIONS

from .helpers import TRANSLATED, ApiTable, CompiledTemplates, VisibleText, catalog_po, own_phone

FLUENT = ROOT / "tests" / "fluent"
CASTS = {"women": (("Anna", "female"), ("Clara", "female"), ("Dora", "female"), ("Erika", "female")),
         "men": (("Boris", "male"), ("Carl", "male"), ("David", "male"), ("Emil", "male"))}
RAT = {"kind": "monster", "name": "Big Rat", "level": 3, "treasures": 2}
WORD = re.compile(r"[A-Za-z][A-Za-z'’-]+")


# --- the evening ---------------------------------------------------------------------------

def _evening(client, cast: str):
    """Plays the evening with ``cast`` and yields (moment, page, path-getter) at each moment:
    the getter takes a language and answers the page's HTML."""
    table = ApiTable(client)
    (fighter, _), (helper, _), (dier, _), (decliner, _) = CASTS[cast]
    for name, sex in CASTS[cast]:
        table.join(name, sex)
    ids = table.ids
    code = table.code

    def pages(moment, who_reads):
        for who in who_reads:
            yield moment, who, (lambda lang, who=who: _get(client, table, lang, who, f"/games/{code}"))
        yield moment, "host", lambda lang: _get(client, table, lang, "host", f"/games/{code}/host")
        yield moment, "table screen", lambda lang: _get(client, table, lang, None, f"/games/{code}/table")

    table.act(fighter, {"type": "play", "player": ids[fighter],
                        "card": {"kind": "item", "name": "Club", "bonus": 2, "slot": "1-hand", "gold": 300}})
    table.act(decliner, {"type": "play", "player": ids[decliner],
                         "card": {"kind": "curse", "name": "Hex", "duration": "lasting", "bonus": -1}})
    table.act(fighter, {"type": "fight", "player": ids[fighter], "monster": RAT})
    table.act(fighter, {"type": "offer", "to": ids[decliner], "treasures": 1})
    table.act(decliner, {"type": "decline_offer", "player": ids[decliner]})
    table.act(fighter, {"type": "offer", "to": ids[helper], "treasures": 1, "pick_first": True})
    yield from pages("an offer out", (fighter, helper, decliner))

    table.act(helper, {"type": "accept_offer", "player": ids[helper]})
    yield from pages("helped", (fighter, helper))
    table.act(fighter, {"type": "resolve"})
    yield from pages("fight won", (fighter, helper))
    table.act(fighter, {"type": "close_fight"})

    table.act(dier, {"type": "die", "player": ids[dier]})
    yield from pages("a body looted", (dier, fighter, helper))
    bodies = table.state()["bodies"]
    if bodies and bodies[0].get("next") is not None:
        looter = next(n for n, i in ids.items() if i == bodies[0]["next"])
        card = bodies[0]["cards"][0]["iid"] if bodies[0]["cards"] else None
        if card is not None:
            table.act(looter, {"type": "loot", "player": ids[looter], "body": ids[dier], "instance": card})
    yield from pages("a card looted", (dier, fighter))

    level = table.player(fighter)["level"]
    table.act(fighter, {"type": "level", "player": ids[fighter], "delta": 9 - level})
    table.act(fighter, {"type": "fight", "player": ids[fighter], "monster": {**RAT, "level": 1}})
    table.act(fighter, {"type": "resolve"})
    yield from pages("the game won", (fighter, helper, dier))
    yield "the game won", "summary", lambda lang: _get(client, table, lang, None, f"/games/{code}/summary")
    yield "the game won", "history", lambda lang: _get(client, table, lang, fighter, f"/games/{code}/history")
    yield "the game won", "home", lambda lang: _get(client, table, lang, dier, "/")


def _get(client, table, lang, who, path):
    cookies = {} if who is None else (
        {f"host_{table.code}": table.host_token} if who == "host" else {f"seat_{table.code}": table.tokens[who]})
    response = own_phone(client, lang, **cookies).get(path)
    assert response.status_code == 200, (path, who, response.status_code)
    return response.get_data(as_text=True)


# --- what a fluent reader notices -------------------------------------------------------------

@cache
def _reader(lang) -> dict:
    return json.loads((FLUENT / f"{lang}.json").read_text(encoding="utf-8"))


@cache
def _english_words(lang) -> frozenset[str]:
    """Words of the app's English messages that ``lang``'s own translations never use: such a
    word on a page is English left in ("Half-Breed", "(elf)", "Elf +1")."""
    catalog = catalog_po(lang)
    english, own = set(), set()
    for message in catalog:
        if not message.id:
            continue
        for msgid in (message.id if isinstance(message.id, (list, tuple)) else (message.id,)):
            english |= {w.lower() for w in WORD.findall(re.sub(r"%\(\w+\)\w", " ", msgid))}
        for msgstr in (message.string if isinstance(message.string, (list, tuple)) else (message.string,)):
            own |= {w.lower() for w in WORD.findall(msgstr or "")}
    allowed = {w.lower() for w in _reader(lang).get("not_english", [])}
    return frozenset(w for w in english - own - allowed if len(w) > 2)


@cache
def _names() -> tuple[str, ...]:
    names = {n for cast in CASTS.values() for n, _ in cast} | {"Club", "Hex", "Big Rat", "Munchkin"}
    names |= {e.name for e in EDITIONS.values()}
    names |= {c["name"] for c in load_catalog().search(None)}
    return tuple(sorted(names, key=len, reverse=True))


@lru_cache(maxsize=4)  # each page is read three times in a row (English, sex, quotes)
def _visible_text(page: str) -> str:
    parser = VisibleText()
    parser.feed(page)
    text = html.unescape("\n".join(parser.chunks))
    text = re.sub(r"\S*https?://\S+|/join/\S+", " ", text)  # a link shown as text is no word
    for name in _names():
        text = text.replace(name, " ")
    return text


def english_words(page: str, lang: str) -> list[str]:
    text = _visible_text(page)
    return sorted({w for w in WORD.findall(text) if w.lower() in _english_words(lang)})


def wrong_sex(page: str, lang: str, cast: str) -> list[str]:
    """The forms ``lang``'s reader listed as wrong for this cast found on the page."""
    text = _visible_text(page)
    key = "masculine_for_a_woman" if cast == "women" else "feminine_for_a_man"
    return [m.group(0) for pattern in _reader(lang).get(key, [])
            for m in re.finditer(pattern, text, re.IGNORECASE)]


def wrong_quotes(page: str, lang: str) -> list[str]:
    quotes = _reader(lang).get("quotes")
    if not quotes:
        return []
    text = _visible_text(page)
    return re.findall(r"[“”\"][^“”\"\n]{1,60}[“”\"]", text) if quotes != "“”" else []


@pytest.fixture(scope="module")
def evenings(tmp_path_factory):
    """Both casts' evenings, played once for the module: {cast: [(moment, who, getter)]}."""
    from companion import create_app

    out = {}
    for cast in CASTS:
        app = CompiledTemplates.share(create_app({
            "TESTING": True, "SECRET_KEY": "test-secret", "WTF_CSRF_ENABLED": False,
            "COMPANION_DATABASE_URL": f"sqlite:///{tmp_path_factory.mktemp(cast)}/c.db"}))
        out[cast] = list(_evening(app.test_client(), cast))
    return out


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("cast", CASTS)
def test_a_fluent_reader_finds_nothing_to_mend(evenings, lang, cast):
    found = {}
    for moment, who, page_in in evenings[cast]:
        page = page_in(lang)
        faults = {"English": english_words(page, lang), "sex": wrong_sex(page, lang, cast),
                  "quotes": wrong_quotes(page, lang)}
        faults = {k: v for k, v in faults.items() if v}
        if faults:
            found[f"{moment} / {who}"] = faults
    assert not found, json.dumps(found, ensure_ascii=False, indent=1)


def test_the_reader_notices_english_and_a_wrong_sex(evenings):
    """The checks can fail: an English page is English to every reader, and the women's pages
    read with the men's forms list (every feminine form a reader wrote down) are wrong."""
    moment, who, page_in = evenings["women"][0]
    assert len(english_words(page_in("en"), "de")) > 10
    page = page_in("ru")
    assert any(re.search(p, _visible_text(page), re.IGNORECASE)
               for p in _reader("ru")["feminine_for_a_man"]), "the women's Russian pages name no woman"
