"""Words that agree with the player: a said or event whose words agree with a
player carries that player's sex, and the reader's language picks the form from the gettext
context "female"/"male", falling back to the plain translation where it has none
(``companion.web.words``, ``companion.web.gendered``, docs/TRANSLATING.md)."""

from __future__ import annotations

import re

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from companion import ROOT
from companion.engine import EngineError
from companion.engine.frozen import freeze
from companion.engine.words import said
from companion.web import words
from companion.web.gendered import GENDERED, MSGIDS
from tests.engine.driver import Game
from tests.engine.words_check import MARKED

OGRE = {"kind": "monster", "name": "Ogre", "level": 8, "treasures": 2}
LANGS = ("de", "es", "fr", "it", "pl", "pt_BR", "ru", "uk")


# --- a game in memory, its words in a language ------------------------------------------------

def _game(*players: tuple[str, str]) -> Game:
    """A classic game (the engine tests' driver) with these (name, sex) seated in order."""
    (first, sex), *others = players
    g = Game("classic", first, sex=sex)
    for name, sex in others:
        g.join(name, sex)
    return g


def _in(app, lang, value) -> str:
    """A said or an event in ``lang``, as a page says it."""
    with app.test_request_context(f"/?lang={lang}"):
        return words.text(value)


def _refusal_in(app, lang, exc: EngineError) -> str:
    with app.test_request_context(f"/?lang={lang}"):
        return words.refusal_parts(exc)["detail"]


def _dead_until_next_turn(*players):
    """Each player dies and is then refused a level: the refusal names them as dead."""
    g = _game(*players)
    out = {}
    for name, pid in g.ids.items():
        g(name, type="die", player=pid)
        out[name] = g.refused(name, EngineError, type="level", player=pid, delta=1)
    return out


# --- each sex its form -------------------------------------------------------------------------

def test_french_says_morte_of_a_woman_and_mort_of_a_man(app):
    refusals = _dead_until_next_turn(("Anne", "female"), ("Bruno", "male"))
    assert refusals["Anne"].said["sex"] == "female"  # the engine says whom the words agree with
    assert _refusal_in(app, "fr", refusals["Anne"]) == "Anne est morte jusqu'au prochain tour"
    assert _refusal_in(app, "fr", refusals["Bruno"]) == "Bruno est mort jusqu'au prochain tour"
    assert _refusal_in(app, "it", refusals["Anne"]) == "Anne è morta fino al prossimo turno"
    assert _refusal_in(app, "it", refusals["Bruno"]) == "Bruno è morto fino al prossimo turno"
    # English and German need no form: both read alike
    assert _refusal_in(app, "en", refusals["Anne"]) == "Anne is dead until the next turn"
    assert _refusal_in(app, "de", refusals["Anne"]).replace("Anne", "Bruno") == \
        _refusal_in(app, "de", refusals["Bruno"])


def test_russian_and_ukrainian_say_pogibla_of_a_woman_and_pogib_of_a_man(app):
    refusals = _dead_until_next_turn(("Анна", "female"), ("Борис", "male"))
    assert _refusal_in(app, "ru", refusals["Анна"]) == "Анна погибла и ждёт следующего хода"
    assert _refusal_in(app, "ru", refusals["Борис"]) == "Борис погиб и ждёт следующего хода"
    assert _refusal_in(app, "uk", refusals["Анна"]) == "Анна загинула і чекає наступного ходу"
    assert _refusal_in(app, "uk", refusals["Борис"]) == "Борис загинув і чекає наступного ходу"


def test_a_dead_players_sheet_agrees_with_her_counted_words_too(app):
    """The sheet of the dead (engine.character.death_view) in French: "morte", "devant elle",
    and a counted sentence (npgettext) "elle pioche 2 cartes"."""
    g = _game(("Anne", "female"), ("Bruno", "male"))
    for name, pid in g.ids.items():
        g(name, type="die", player=pid)
    with app.test_request_context("/?lang=fr"):
        deaths = {p["name"]: p["death"] for p in words.public_state(g.state)["players"]}
    assert deaths["Anne"]["text"].startswith("Anne est morte\u00a0:")
    assert deaths["Bruno"]["text"].startswith("Bruno est mort\u00a0:")
    assert "devant elle" in deaths["Anne"]["may_not"][0]["text"]
    assert "devant lui" in deaths["Bruno"]["may_not"][0]["text"]
    assert deaths["Anne"]["next_turn"] == "à son prochain tour, elle pioche 2 cartes de chaque pile"
    assert deaths["Bruno"]["next_turn"] == "à son prochain tour, il pioche 2 cartes de chaque pile"


def test_spanish_says_obligada_of_a_woman_made_to_help(app):
    for helper, fighter, form in (("Ana", "Luis", "obligada"), ("Luis", "Ana", "obligado")):
        sexes = {"Ana": "female", "Luis": "male"}
        g = _game((fighter, sexes[fighter]), (helper, sexes[helper]))
        g(fighter, type="fight", player=g.ids[fighter], monster=OGRE)
        happened = g(helper, type="help", player=g.ids[helper], forced=True)
        assert happened["kind"] == "help_forced" and happened["sex"] == sexes[helper]
        assert _in(app, "es", happened) == f"{helper} ayuda a {fighter} ({form} por una carta)"


def test_polish_says_dodala_of_a_woman_and_dodal_of_a_man(app):
    g = _game(("Ewa", "female"), ("Jan", "male"))
    for owner, other in (("Ewa", "Jan"), ("Jan", "Ewa")):
        card = {"kind": "curse", "name": f"Deszcz {owner}", "lose_levels": 1}
        g(owner, type="add_house_card", card=card)
        refusal = g.refused(other, EngineError, type="remove_house_card",
                            card=g.state["house_cards"][-1]["id"])
        verb = "dodała" if owner == "Ewa" else "dodał"
        assert _refusal_in(app, "pl", refusal) == (
            f"{owner} {verb} Deszcz {owner}: zdjąć ją ze stołu może tylko {owner} albo gospodarz")
        assert "(a)" not in _refusal_in(app, "pl", refusal)


def test_a_lost_fight_ends_in_her_words(app):
    """Each runner's outcome in the fight's closing line is a said of its own, with its sex;
    so is the catch itself."""
    dragon = {"kind": "monster", "name": "Dragon", "level": 20, "treasures": 5}
    for sex, got_away, caught in (("female", "Anne s'est échappée", "rattrapée"),
                                  ("male", "Anne s'est échappé.", "rattrapé")):
        g = _game(("Anne", sex), ("Bruno", "male"))
        anne = g.ids["Anne"]
        g("Anne", type="fight", player=anne, monster=dragon)
        g("Anne", type="resolve")
        g("Anne", type="run_away", player=anne, roll=6)
        assert got_away in _in(app, "fr", g.stored["result"]["text"])
        g = _game(("Anne", sex), ("Bruno", "male"))
        g("Anne", type="fight", player=anne, monster=dragon)
        g("Anne", type="resolve")
        happened = g("Anne", type="run_away", player=anne, roll=1)
        assert happened["kind"] == "caught"
        assert f"(il faut 5)\u00a0: {caught}\u00a0!" in _in(app, "fr", happened)


# --- the fallback ------------------------------------------------------------------------------

def test_without_a_context_translation_the_plain_one_is_said(app):
    # a said with a sex whose msgid has no gendered form anywhere
    helping = said("%(name)s is already helping", name="Anne", sex="female")
    assert _in(app, "fr", helping) == "Anne aide déjà"
    # a gendered msgid in a language with no form for that sex: its plain translation
    dead = said("%(name)s is dead until the next turn", name="Ana", sex="female")
    assert _in(app, "es", dead) == "Ana ha muerto y espera al próximo turno"
    assert _in(app, "pl", dead) == "Ana nie żyje aż do następnej tury"
    assert _in(app, "fr", {**dead, "sex": "male"}) == "Ana est mort jusqu'au prochain tour"
    assert _in(app, "en", dead) == "Ana is dead until the next turn"
    # counted words alike
    draws = {**said("on their next turn they draw %(n)s card from each deck", n=2, sex="male"),
             "plural": "on their next turn they draw %(n)s cards from each deck"}
    assert _in(app, "fr", draws) == "à son prochain tour, il pioche 2 cartes de chaque pile"
    assert _in(app, "de", {**draws, "sex": "female"}) == _in(app, "de", draws)


def test_an_event_without_a_sex_reads_as_before(app):
    """Events recorded before they carried the sex keep their plain, unagreed words."""
    old = said("%(name)s is dead until the next turn", name="Олена")
    assert _in(app, "uk", old) == "Персонаж гравця Олена загинув і чекає наступного ходу"
    assert _in(app, "ru", old) == "Персонаж игрока Олена погиб и ждёт следующего хода"
    assert _in(app, "fr", {**old, "sex": "unknown"}) == "Олена est mort jusqu'au prochain tour"


def test_the_per_part_memo_keeps_each_players_form(app):
    """``localize`` remembers a frozen part's words by the part: two lines alike but for the
    sex get each their own, however often they are read."""
    dead = "%(name)s is dead until the next turn"
    part = freeze({"lines": [said(dead, name="Anne", sex="female"),
                             said(dead, name="Anne", sex="male")]})
    with app.test_request_context("/?lang=fr"):
        first = words.localize(part)
        again = words.localize(part)
    assert first["lines"] == ["Anne est morte jusqu'au prochain tour",
                              "Anne est mort jusqu'au prochain tour"]
    assert again is first
    with app.test_request_context("/?lang=ru"):
        assert words.localize(part)["lines"] == ["Anne погибла и ждёт следующего хода",
                                                 "Anne погиб и ждёт следующего хода"]


# --- the list of gendered messages, the catalogs and extraction ------------------------------

def _catalog(lang):
    with (ROOT / "companion" / "translations" / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=lang)


CATALOGS = {lang: _catalog(lang) for lang in LANGS}


def _key(msgid):
    return msgid[0] if isinstance(msgid, (tuple, list)) else msgid


def _forms(message) -> tuple:
    return tuple(message.string) if isinstance(message.string, (tuple, list)) else (message.string,)


def test_every_listed_gendered_form_is_in_the_catalogs_that_need_it():
    placeholder = re.compile(r"%\((\w+)\)s")
    wrong = []
    for (context, msgid), langs in GENDERED.items():
        for lang in langs.split():
            catalog = CATALOGS[lang]
            found = next((m for m in catalog if m.id and m.context == context and _key(m.id) == msgid), None)
            plain = catalog.get(msgid if found is None else found.id)
            if found is None or not all(_forms(found)) or found.fuzzy:
                wrong.append((lang, context, msgid, "missing, empty or fuzzy"))
            elif {p for s in _forms(found) for p in placeholder.findall(s)} != \
                    {p for s in _forms(plain) for p in placeholder.findall(s)}:
                wrong.append((lang, context, msgid, "placeholders differ from the plain translation"))
            elif any(re.search(r"\w\((a|e|ла|а)\)", s) for s in _forms(found)):
                wrong.append((lang, context, msgid, "a slash form: write the one form"))
    assert not wrong, wrong


def test_every_context_entry_of_a_catalog_is_listed():
    """A catalog's gendered form that the list does not name would be lost to extraction.
    (After ``pybabel update`` a language that needs no form may hold a copy of the plain
    translation in the entry: that changes nothing, docs/TRANSLATING.md.)"""
    unlisted = [(lang, m.context, _key(m.id)) for lang, catalog in CATALOGS.items() for m in catalog
                if m.id and m.context and lang not in GENDERED.get((m.context, _key(m.id)), "").split()
                and _forms(m) != _forms(catalog.get(m.id))]
    assert not unlisted, unlisted


def test_a_male_form_goes_with_a_female_one():
    """"male" is written only where the plain translation is not the masculine one (Polish,
    Russian, Ukrainian past tenses), and then "female" is too."""
    for (context, msgid), langs in GENDERED.items():
        assert context in ("female", "male")
        if context == "male":
            assert set(langs.split()) <= set(GENDERED[("female", msgid)].split()), msgid


def test_no_player_of_known_sex_reads_a_slash_form():
    """Where the plain translation of an engine message hedges ("загинув(ла)", "dodał(a)"),
    it is only the fallback for an event recorded without the sex: both forms exist."""
    hedged = [(lang, m.id) for lang in ("pl", "ru", "uk") for m in CATALOGS[lang]
              if m.id and not m.context and any(p.startswith("companion/engine") for p, _ in m.locations)
              and any(re.search(r"\w\((a|ла|а)\)", s) for s in _forms(m))]
    assert hedged  # the Ukrainian catalog has such fallbacks: the check finds them
    missing = [(lang, msgid) for lang, msgid in hedged
               if not all(lang in GENDERED.get((sex, _key(msgid)), "").split() for sex in ("female", "male"))]
    assert not missing, missing


def _template_gendered() -> set[str]:
    """The msgids templates say about a player with ``gx``/``ngx`` (babel.cfg's keywords)."""
    with (ROOT / "babel.cfg").open() as f:
        _method_map, options_map = parse_mapping_cfg(f)
    options = options_map["templates/**.html"]
    return {_key(msgid) for _, _, msgid, _, _ in extract_from_dir(
        str(ROOT / "templates"), [("**.html", "jinja2")], {"**.html": options},
        keywords={"gx": (2,), "ngx": (2, 3)})}


def test_the_gendered_msgids_are_the_engines_or_the_templates():
    """Each listed msgid is one the engine says with a player's sex (an N_ msgid or a counted
    pair) or one a template says about a player with ``gx``/``ngx``."""
    said = MARKED | _template_gendered()
    assert MSGIDS <= said, sorted(MSGIDS - said)


def test_extraction_keeps_the_gendered_forms():
    """babel.cfg's keywords make ``pybabel extract`` find every listed context entry, so
    ``pybabel update`` keeps them in the catalogs."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    found = {(context, _key(msgid))
             for _, _, msgid, _, context in extract_from_dir(str(ROOT / "companion"), [("**.py", "python")],
                                                             {"**.py": options_map["companion/**.py"]},
                                                             keywords=DEFAULT_KEYWORDS)
             if context}
    assert found == set(GENDERED)
