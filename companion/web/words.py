"""Words for the asker: the engine's saids, events and refusals rendered with flask-babel in
the language this request chose (``?lang=``, the ``lang`` cookie, else Accept-Language)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from flask import g, has_request_context, request
from flask_babel import get_locale, get_translations, gettext
from jinja2 import pass_eval_context
from markupsafe import Markup, escape

from companion import engine, rulebase
from companion.catalog import localized_card
from companion.engine import BadAction, EngineError, Forbidden, RuleViolation
from companion.engine.editions import EDITIONS
from companion.engine.frozen import is_frozen_part
from companion.engine.words import N_, SEX_CONTEXTS, render

from . import card_names
from .languages import language_code
from .security import YEAR, cookies_secure
from .shared import per_version


def translations():
    """This request's translations, looked up once per request: flask-babel finds them again
    at every call (locale, domain, cache), and a page says a few thousand words."""
    if not has_request_context():
        return get_translations()
    found = g.get("_companion_translations")
    if found is None:
        found = g._companion_translations = get_translations()
    return found


def install_template_words(app) -> None:
    """Templates' ``_``/``gettext``/``ngettext`` through ``translations()`` (after Babel(app))."""
    app.jinja_env.install_gettext_callables(
        gettext=lambda s: translations().ugettext(s),
        ngettext=lambda s, p, n: translations().ungettext(s, p, n),
        pgettext=lambda c, s: translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: translations().unpgettext(c, s, p, n),
        newstyle=True)
    # The same newstyle semantics (escaped when autoescaping, always %-formatted), one call
    # deep: Jinja's ``_`` goes through an alias and two context calls, and a page says a few
    # hundred words.
    app.jinja_env.globals.update(_=_template_gettext, gettext=_template_gettext,
                                 ngettext=_template_ngettext, gx=_template_gendered,
                                 ngx=_template_ngendered, sex_of=sex_of, colon=colon,
                                 names_list=names_list, names_of=names_of)


@pass_eval_context
def _template_gettext(eval_ctx, string: str, **variables: Any) -> str:
    found = translations().ugettext(string)
    if eval_ctx.autoescape:
        found = Markup(found)
    return found % variables


@pass_eval_context
def _template_ngettext(eval_ctx, singular: str, plural: str, num: int, **variables: Any) -> str:
    variables.setdefault("num", num)
    found = translations().ungettext(singular, plural, num)
    if eval_ctx.autoescape:
        found = Markup(found)
    return found % variables


@pass_eval_context
def _template_gendered(eval_ctx, sex: str | None, string: str, **variables: Any) -> str:
    """A template's own words about a player, agreeing with that player's ``sex`` where the
    language marks it ("мертва", "morte"; ``gendered``): ``{{ gx(p.sex, "dead") }}``."""
    found = _pgettext(sex, string) if sex in SEX_CONTEXTS else translations().ugettext(string)
    if eval_ctx.autoescape:
        found = Markup(found)
    return found % variables


@pass_eval_context
def _template_ngendered(eval_ctx, sex: str | None, singular: str, plural: str, num: int,
                        **variables: Any) -> str:
    variables.setdefault("num", num)
    found = (_npgettext(sex, singular, plural, num) if sex in SEX_CONTEXTS
             else translations().ungettext(singular, plural, num))
    if eval_ctx.autoescape:
        found = Markup(found)
    return found % variables


def names_list(names: Any) -> str:
    """Names joined as the reader's language lists them ("Anna, Boris e Clara")."""
    from babel.lists import format_list

    names = [str(n) for n in names]
    return format_list(names, locale=lang()) if names else ""


def names_of(state: dict, ids: Any) -> str:
    """The players ``ids`` of a (public) state by name, seated or since removed, listed as
    the reader's language lists them."""
    known = {p["id"]: p["name"] for p in (*(state.get("left") or ()), *state.get("players", ()))}
    return names_list(known.get(pid, "?") for pid in ids)


def colon() -> str:
    """The colon after a label in the reader's language: French puts a no-break space before
    it ("Offre : 1 trésor"), the others none."""
    return "\u00a0:" if lang() == "fr" else ":"


def sex_of(who: Any, players: Any = None) -> str:
    """The form words about several players take: the feminine only when every one of them is
    a woman (the rule of French, Spanish, Italian, Portuguese, Polish and the East Slavic
    languages); one player's own sex. ``who``: a player, players, or ids in ``players``."""
    if isinstance(who, dict):
        return who.get("sex") or "male"
    found = [players.get(w) if players is not None and not isinstance(w, dict) else w for w in who]
    sexes = {p.get("sex") for p in found if isinstance(p, dict)}
    return "female" if sexes == {"female"} else "male"


# The engine's vocabulary words (card kinds, slots, curse durations, effect stats and their
# conditions) as pages show them (the ``term`` macro); the stored value stays the engine's word.
# Race and class ids are card names (facts) and stay as printed.
TERM_WORDS = {
    "monster": N_("monster"),
    "curse": N_("curse"),
    "enhancer": N_("enhancer"),
    "item": N_("item"),
    "one-shot": N_("one-shot"),
    "race": N_("race"),
    "class": N_("class"),
    "half-breed": N_("half-breed"),
    "super-munchkin": N_("super munchkin"),
    "ally": N_("ally"),
    "go-up-a-level": N_("go up a level"),
    "other": N_("other"),
    "headgear": N_("headgear"),
    "armor": N_("armor"),
    "footgear": N_("footgear"),
    "1-hand": N_("1 hand"),
    "2-hands": N_("2 hands"),
    "once": N_("once"),
    "next_fight": N_("until the next fight"),
    "lasting": N_("lasting"),
    "strength": N_("strength"),
    "run_away": N_("running away"),
    "hand_limit": N_("hand limit"),
    "big_items": N_("Big items"),
    "wins_ties": N_("wins ties"),
    "helper_levels": N_("levels for the helper"),
    "level_only": N_("level only"),
    "auto_escape": N_("escapes without a roll"),
    "treasures": N_("treasures"),
    "levels": N_("levels"),
    "empty_hand": N_("empty hand"),
    "fighting": N_("fighting"),
    "helping": N_("helping"),
    "helped": N_("helped"),
    "sex": N_("sex"),
    "not_sex": N_("not sex"),
    "tag": N_("tag"),
    "not_race": N_("not race"),
    "not_class": N_("not class"),
    "role": N_("role"),
    "male": N_("male"),
    "female": N_("female"),
    "human": N_("Human"),
    # A monster's tags (catalog facts), as its card page lists them.
    "undead": N_("Undead"),
    "dragon": N_("Dragon"),
    "plant": N_("Plant"),
    # The optional rules a table may choose (engine.vocab.Variant), as the host and every
    # phone name them.
    "listen_at_the_door": N_("Listen At The Door"),
    "shared_victory": N_("Shared victory"),
    "faster_play": N_("Faster play"),
    "official_updates": N_("Current official rulings"),
}
_TERMS_BY_LANG: dict[str, dict[str, str]] = {}


def term_word(word: str | None) -> str:
    """An engine word in the asker's language (the table is made once per language)."""
    if not word:
        return ""
    table = _TERMS_BY_LANG.get(lang())
    if table is None:
        table = _TERMS_BY_LANG[lang()] = {k: _translate(v) for k, v in TERM_WORDS.items()}
    return table.get(word, word)


def set_name(set_id: str | None) -> str:
    """A card set as the reader calls it: its edition's name in the reader's language (the set
    ids are the edition ids), "house cards" for a table's own; an unknown id as it is."""
    if not set_id:
        return ""
    if set_id in EDITIONS:
        return _translate(EDITIONS[set_id].name)
    if set_id == "house":
        return _translate(HOUSE_CARDS)
    return set_id


HOUSE_CARDS = N_("House cards")

# Race and class names are the rulebooks' own terms, so a player reads them in the words of the
# rulebook of their language (translators' notes in the catalogs) where no printed card list
# names them. Every card name is a fact printed on the card: ``card_names`` shows the name
# printed in the reader's language (cards/translations/names), else the English one, marked.
RACE_CLASS_NAMES = {
    # classic and Tails
    "Elf": N_("Elf"), "Dwarf": N_("Dwarf"), "Halfling": N_("Halfling"),
    "Warrior": N_("Warrior"), "Wizard": N_("Wizard"), "Thief": N_("Thief"), "Cleric": N_("Cleric"),
    # Oz
    "Professor": N_("Professor"), "Royalty": N_("Royalty"), "Soldier": N_("Soldier"),
    # Russia
    "Cossack": N_("Cossack"), "Oligarch": N_("Oligarch"), "Athlete": N_("Athlete"),
    "Hacker": N_("Hacker"),
    # Spell Skool: the clubs are its classes
    "Chess Club": N_("Chess Club"), "Forbidden Magic Club": N_("Forbidden Magic Club"),
    "Potions Club": N_("Potions Club"), "Sports Club": N_("Sports Club"),
    # Tails
    "Human": N_("Human"), "Dog": N_("Dog"), "Fox": N_("Fox"), "Mouse": N_("Mouse"),
    "Pony": N_("Pony"),
}


@lru_cache(maxsize=16)
def _names_in(lang: str) -> dict[str, str]:
    """English race or class name -> its name in ``lang`` (made once per language)."""
    if lang == "en":
        return dict((k, k) for k in RACE_CLASS_NAMES)
    table = translations()
    return {name: table.gettext(msgid) for name, msgid in RACE_CLASS_NAMES.items()}


def localized_name(name: str) -> str:
    """A card's name in the reader's language (``card_names``): the name printed on the card
    there, a race's or class's rulebook term, else the English name; any other name as it is."""
    return card_name_parts(name)[0]


def card_name_parts(card: Any) -> tuple[str, bool]:
    """(the name of a card dict, or of an English card name, in the reader's language; whether
    it is English for want of a printed name)."""
    language = lang()
    return card_names.parts(card, language, _names_in(language) if language != "en" else {})


def printed_name_html(card: Any) -> Markup:
    """The template filter ``printed``: a card's name in a page, English ones marked."""
    return card_names.as_html(*card_name_parts(card))


def remember_language(response):
    """``?lang=`` chose this page's language: keep it in the ``lang`` cookie, so the next page
    (a link without ``?lang=``) is in it too. An unknown tag changes nothing; the API (no
    browser, each call says its language) keeps no cookie."""
    chosen = language_code(request.args.get("lang"))
    if chosen and not request.path.startswith("/api/") and request.cookies.get("lang") != chosen:
        response.set_cookie("lang", chosen, max_age=YEAR, httponly=True, samesite="Lax",
                            secure=cookies_secure())
    return response


def vary_by_language(response):
    """An answer in the language the request chose (the ``lang`` cookie or Accept-Language)
    says so to caches."""
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response


def _translate(msgid: str) -> str:
    return translations().gettext(msgid) if msgid else msgid


# Each language's quotation marks (French with its no-break spaces inside).
QUOTES = {"de": ("„", "“"), "fr": ("«\u00a0", "\u00a0»"), "ru": ("«", "»"), "uk": ("«", "»"),
          "pl": ("„", "”"), "es": ("«", "»"), "it": ("«", "»"), "pt_BR": ("“", "”"), "en": ("“", "”")}


def quoted(text_: Any) -> str:
    """The template global: ``text_`` in the reader's language's quotation marks."""
    opening, closing = QUOTES.get(lang(), QUOTES["en"])
    return f"{opening}{text_}{closing}"


def lang() -> str:
    if has_request_context():
        found = g.get("_companion_lang")
        if found is None:
            found = g._companion_lang = str(get_locale() or "en")
        return found
    return str(get_locale() or "en")


def _ngettext(singular: str, plural: str, n: int) -> str:
    return translations().ngettext(singular, plural, n)


def _pgettext(sex: str, msgid: str) -> str:
    """``msgid`` worded for a player of this sex (the context "female" or "male", see
    ``gendered``), else its plain translation: a catalog gives a context only where its
    language agrees with the player (French "morte"), and English and German give none."""
    found = translations().pgettext(sex, msgid)
    return found if found != msgid else _translate(msgid)


def _npgettext(sex: str, singular: str, plural: str, n: int) -> str:
    found = translations().npgettext(sex, singular, plural, n)
    return found if found not in (singular, plural) else _ngettext(singular, plural, n)


# A field a refusal names, as the page's form labels it: a player reads "Name", never the
# field's key "name" (the API's answers keep the key, which is what an API client sent).
FIELD_LABELS = {
    "name": N_("Name"), "treasures": N_("Treasures"), "level": N_("Level"),
    "monster.name": N_("Monster name"), "monster.level": N_("Level"),
    "monster.treasures": N_("Treasures"), "card.name": N_("Card name"), "card.bonus": N_("Bonus"),
    "card.gold": N_("Gold"), "card.treasures": N_("Extra treasures"),
    "hand_gold": N_("Gold of items sold from your hand"),
    "from_hand": N_("How many cards from your hand"),
}


def _field_labels(value: Any) -> Any:
    if isinstance(value, list):
        return [_field_labels(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: _field_labels(v) for k, v in value.items()}
    if isinstance(out.get("field"), str) and out["field"] in FIELD_LABELS:
        out["field"] = _translate(FIELD_LABELS[out["field"]])
    return out


def text(value: Any) -> str:
    """A said, an event, a list of them, or a plain value, in the asker's language; a said
    with a player's ``sex`` agrees with that player where the language says so."""
    if has_request_context() and not request.path.startswith("/api/"):
        value = _field_labels(value)
    if lang() != "en":  # English pages show the cards' texts as they are
        value = _card_texts_localized(value)
    return render(value, _translate, _ngettext, _pgettext, _npgettext)


def _card_texts_localized(value: Any) -> Any:
    """``value`` with every card text (``engine.words.card_text``) of a catalog card in the
    asker's language where the catalog has it translated."""
    if isinstance(value, list):
        return [_card_texts_localized(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "card_text" in value:
        if not value["card_text"]:  # a house or inline card: the table's own words
            return value
        card = localized_card({"id": value["card_text"], value["field"]: {"summary": value["text"]}}, lang())
        return {**value, "text": card[value["field"]]["summary"]}
    return {k: (localized_name(v) if k in _CARD_NAME_KEYS and isinstance(v, str)
                else ", ".join(localized_name(n) for n in card_names.split_names(v)) if k in _CARD_LIST_KEYS and isinstance(v, str)
                else _card_texts_localized(v)) for k, v in value.items()}


# Params of a said that hold one card's name, or a comma-joined list of them: said in the
# reader's language (the printed name, else the English one; a player's typed words as typed).
_CARD_NAME_KEYS = frozenset({"card", "race", "class", "monster", "curse"})
_CARD_LIST_KEYS = frozenset({"cards", "who"})  # who: races or classes, comma-joined
_NOT_WORDS = frozenset({"said", "kind", "plural", "sex"})  # msgids and contexts, not shown


def text_html(value: Any) -> Markup:
    """``text`` for a page: the same words, escaped, with each card name that is English for
    want of a printed one inside ``<span lang="en">``."""
    if lang() == "en":
        return escape(text(value))
    marked = _names_marked(_card_texts_localized(value))

    def escaped(words_of):
        return lambda *args: str(escape(words_of(*args)))
    return Markup(render(marked, escaped(_translate), escaped(_ngettext), escaped(_pgettext),
                         escaped(_npgettext)))


def _names_marked(value: Any) -> Any:
    if isinstance(value, list):
        return [_names_marked(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for k, v in value.items():
        if isinstance(v, str) and k in _CARD_NAME_KEYS:
            out[k] = str(card_names.as_html(*card_name_parts(v)))
        elif isinstance(v, str) and k in _CARD_LIST_KEYS:
            out[k] = ", ".join(str(card_names.as_html(*card_name_parts(n)))
                               for n in card_names.split_names(v))
        elif isinstance(v, str) and k not in _NOT_WORDS:
            out[k] = str(escape(v))
        else:
            out[k] = _names_marked(v)
    return out


def refusal_parts(exc: EngineError) -> dict:
    """A refusal in the asker's language, in parts: the rule's sentence (from the rulings,
    which are in English and Russian; ``answer_lang`` says which one it is in), and what in
    this game broke it (``detail``, translated in every language)."""
    detail = text(exc.said) if exc.said else (exc.message or "")
    if not isinstance(exc, RuleViolation):
        return {"answer": "", "answer_lang": lang(), "detail": detail, "citation": ""}
    answer, answer_lang = exc.message or exc.rule, "en"
    if exc.edition:
        answer, _citation = rulebase.explain(exc.rule, exc.edition, lang=lang(),
                                             official_updates=exc.official_updates)
        want = rulebase.normalize_lang(lang())
        answer_lang = "en" if exc.rule in rulebase.missing_translations(want) else want
    return {"answer": answer, "answer_lang": answer_lang,
            "detail": text(exc.detail_said) if exc.detail_said else "",
            # the rulebook and section as the reader's edition titles them (rulebase)
            "citation": rulebase.localized_citation(exc.citation, lang())}


def error_message(exc: EngineError) -> str:
    """What a refusal or a bad action says, in the asker's language, in one line."""
    parts = refusal_parts(exc)
    if not parts["answer"]:
        return parts["detail"]
    return f"{parts['answer']} ({parts['detail']})" if parts["detail"] else parts["answer"]


def with_text(event: dict | None) -> dict | None:
    """An event as the API answers it: its data plus ``text`` in the asker's language."""
    if event is None:
        return None
    return {**event, "text": text(event)}


def say(value: Any) -> str:
    """The template filter: a log entry, history row, event, said or plain text, in words
    (the engine's words marked up for a page: English card names marked ``lang="en"``)."""
    if isinstance(value, dict) and isinstance(value.get("event"), dict):
        return text_html(value["event"])
    if isinstance(value, dict) and ("said" in value or "kind" in value):
        return text_html(value)
    if isinstance(value, dict):
        return str(value.get("text", ""))
    return text(value)


SKIP = frozenset({"house_cards", "card"})  # cards are facts, never saids: no need to walk them


def localize(value: Any) -> Any:
    """A copy of engine output with every said (and every event of a log entry) put into
    words in the asker's language, so a page or an API answer gets plain strings where the
    engine left data. Fields keep their names; a said becomes its text."""
    return _localize(value, lang())


LOCALIZED_KEPT = 50_000  # frozen parts whose words are remembered, per language
_localized: dict[tuple[int, str], tuple[Any, Any]] = {}  # (id(part), lang) -> (part, words)


def _localize(value: Any, language: str) -> Any:
    if not isinstance(value, (dict, list)):
        return value
    if not is_frozen_part(value):
        return _localize_afresh(value, language)
    # A frozen part (a log line, a player's cards, a sheet) is the same object from one
    # version to the next while it is unchanged (store: freeze_like; engine: the sheets), so
    # its words are worked out once. What is handed out is shared: read it, never change it.
    # A said's words depend on the part alone and the language: a player's sex, which picks
    # the gendered form, is one of its params (a part said before a sex changed keeps it).
    key = (id(value), language)
    found = _localized.get(key)
    if found is not None and found[0] is value:
        return found[1]
    out = _localize_afresh(value, language)
    if len(_localized) >= LOCALIZED_KEPT:
        _localized.clear()
    _localized[key] = (value, out)  # the part is kept with its words: its id names no other
    return out


def _localize_afresh(value: Any, language: str) -> Any:
    if isinstance(value, list):
        return [_localize(v, language) for v in value]
    if "said" in value:
        return text(value)
    out = {k: (v if k in SKIP else _localize(v, language)) for k, v in value.items()}
    if isinstance(value.get("event"), dict) and "seq" in value:  # a log entry
        out["event"] = value["event"]
        out["text"] = text(value["event"])
    return out


def public_state(state: dict) -> dict:
    """``engine.public_state`` with its words in the asker's language (pages and API alike);
    for a state read from the store, made once per version and language and shared: read it,
    never change it."""
    return per_version(state, ("public", lang()), lambda: _public_state(state))


def _public_state(state: dict) -> dict:
    public = localize(engine.public_state(state))
    for player in public["players"]:
        for note in player.get("pending_bad_stuff") or ():
            _localize_bad_stuff_note(note)
    return public


def _localize_bad_stuff_note(note: dict) -> None:
    """A Bad Stuff to do by hand shows its catalog card's text in the reader's language when
    translated; ``lang`` is set when the text shown is in another language than the page's."""
    if not note.get("card"):
        return
    card = localized_card({"id": note["card"], "bad_stuff": {"summary": note.get("summary")}}, lang())
    note["summary"] = card["bad_stuff"]["summary"]
    note["lang"] = card["lang"] if card["fallback"] else None


def verdict(state: dict, action: Any, actor) -> dict:
    """The arbiter's verdict on an action (``engine.check``), in the asker's language."""
    try:
        engine.apply(state, action, actor)
    except RuleViolation as exc:
        parts = refusal_parts(exc)
        return {"allowed": False, **exc.as_dict(), "message": error_message(exc),
                "detail": parts["detail"], "citation": parts["citation"]}
    except (BadAction, Forbidden) as exc:
        return {"allowed": False, "message": error_message(exc), "rule": None, "citation": None}
    return {"allowed": True, "message": gettext("Allowed."), "rule": None, "citation": None}
