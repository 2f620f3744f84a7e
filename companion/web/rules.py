"""The rules arbiter on the web: ask in plain words, browse by topic, read a ruling.

Rulings come in the asker's language (``flask_babel.get_locale()``: ``?lang=``, the ``lang``
cookie, then Accept-Language), marked ``"lang"`` and ``"fallback"`` (True when only the English
text exists yet); a page says so next to a ruling shown in English.

The arbiter knows the table it was opened from: ``?game=<code>`` (or, on the first page, a
same-site Referer that is one of the game's pages). The game gives the edition (unless
``?edition=`` picks another rulebook) and whether the table follows the publisher's official
rulings (``state["variants"]["official_updates"]``): such a table sees a ruling's official answer
first and the printed one second, every other table the reverse. Every link of the rules pages
carries ``game`` on, and each page links back to the game.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode, urlsplit

from flask import Blueprint, abort, jsonify, render_template, request, url_for
from flask_babel import get_locale

from companion import rulebase
from companion.catalog import load_catalog, localized_card
from companion.catalog.mentions import cards_named
from companion.engine import Actor
from companion.engine.editions import EDITIONS
from companion.rulebase import normalize_lang
from companion.rulebase.search import lang_tokens, tokens
from companion.store import NotFound

from . import shared, words
from .errors import is_htmx
from .games import CODE_RE, bearer_token, normal_code
from .limits import count_unknown_code, may_guess
from .security import same_site_referrer

bp = Blueprint("rules", __name__)
bp.after_request(words.vary_by_language)  # rulings are in the asker's language


def N_(text: str) -> str:
    """Marks a string for the translation catalog; the template translates it when shown."""
    return text


#: topic id -> its label (translated by the templates with ``_()``)
TOPIC_LABELS = {
    "allies": N_("Allies"), "bribes": N_("Bribes"), "charity": N_("Charity"),
    "combat": N_("Combat"), "curses": N_("Curses"), "death": N_("Death"),
    "general": N_("General"), "help": N_("Help"), "items": N_("Items"), "levels": N_("Levels"),
    "monsters": N_("Monsters"), "races-classes": N_("Races and classes"),
    "running-away": N_("Running away"), "selling": N_("Selling"), "setup": N_("Setup"),
    "trading": N_("Trading"), "turns": N_("Turns"), "variants": N_("Variants"),
    "official": N_("Official rulings"), "powers": N_("Class and race powers"),
    "sheet-rules": N_("Character sheet"), "sheet_rules": N_("Character sheet"),
}

# A game page the rules were opened from: /games/<code>, /games/<code>/host, /join/<code>, ...
_GAME_PATH = re.compile(r"^/(?:games|join)/([A-Za-z0-9]{3,12})(?:/|$)")


def _table() -> dict | None:
    """The game these rules were opened from, as ``{"code", "edition", "official"}``, or None.

    ``?game=<code>`` names it; without one, a Referer from one of that game's pages does. A
    code that is malformed or names no game is ignored: the rules still answer, without a table.
    """
    code = request.args.get("game")
    if not code:
        referrer = same_site_referrer()
        match = _GAME_PATH.match(urlsplit(referrer).path) if referrer else None
        code = match.group(1) if match else None
    if not code or not CODE_RE.match(code):
        return None
    # ?game= is counted as a guess for every path (limits.py); a Referer is one too.
    from_referrer = not request.args.get("game")
    if from_referrer and not may_guess():
        return None  # this address guessed too often: no table, so the answer tells nothing
    code = normal_code(code)
    try:
        state = shared.request_game(code).state
    except NotFound:
        if from_referrer:
            count_unknown_code()
        return None
    variants = state.get("variants") or {}
    return {"code": code, "edition": state.get("edition"),
            "official": bool(variants.get("official_updates"))}


def _edition(table: dict | None) -> str | None:
    edition = request.args.get("edition")
    if edition in EDITIONS:
        return edition
    if table and table["edition"] in EDITIONS and "edition" not in request.args:
        return table["edition"]
    return None


def _official(table: dict | None) -> bool:
    """Official answers first: the table chose so, or ``?official=1`` asks for it."""
    return bool(table and table["official"]) or request.args.get("official") == "1"


def _lang() -> str:
    return rulebase.normalize_lang(get_locale())


def _shown(ruling: dict, edition: str | None, official: bool, lang: str) -> dict:
    """The ruling as a phone gets it: citation for the edition, both answers in the table's
    order, texts in ``lang``."""
    shown = rulebase.localized(rulebase.ruling_for_edition(ruling, edition, official), lang)
    # Citations as the reader's edition titles the rulebook and its sections.
    shown["citation"] = rulebase.localized_citation(shown.get("citation"), lang)
    for answer in shown.get("answers") or ():
        answer["source"] = rulebase.localized_citation(answer.get("source"), lang)
    for cite in shown.get("citations") or ():
        cite["source"] = rulebase.localized_citation(cite.get("source"), lang)
    return shown


def _context() -> dict:
    """What every rules page needs: the edition, the table, and the way to link on and back."""
    table = _table()
    edition = _edition(table)
    official = _official(table)
    carried = {"game": table["code"]} if table else {}
    if official and not table:
        carried["official"] = "1"

    def rules_url(path: str = "/rules", **params) -> str:
        """A rules-page link that keeps the table (and the edition) it was opened with."""
        query = {**({"edition": edition} if edition else {}), **carried,
                 **{k: v for k, v in params.items() if v is not None}}
        return path + ("?" + urlencode(query) if query else "")

    back = url_for("pages.game", code=table["code"]) if table else None
    return {"table": table, "edition": edition, "official": official, "carried": carried,
            "rules_url": rules_url, "back_to_game": back}


#: A question that asks to do something, by its canonical words (``rulebase.search.tokens``),
#: and the action ``/check`` judges for the asking seat: the plain samples ``allowed`` tries
#: (a sale of 1,000 gold from the hand is one level).
_MOMENT_ACTIONS: tuple[tuple[str, Any], ...] = (
    ("sell", lambda me: {"type": "sell", "player": me, "hand_gold": 1000}),
    ("help", lambda me: {"type": "help", "player": me}),
    ("flee", lambda me: {"type": "run_away", "player": me}),
)


def _seat(table: dict) -> int | None:
    """The asking phone's seat at the table: its bearer token (the API), else its seat
    cookie (the pages); None for a phone not seated there (or the host's)."""
    token = bearer_token()
    actor = shared.token_actor(table["code"], token) if token else None
    if actor is not None and actor.seated and actor.player is not None:
        return actor.player
    return shared.cookie_actor(table["code"])[1]


# The verbs that name each of those actions in the app's other languages (infinitives and
# the forms players type), read by that language's tokenizer, so "kann ich jetzt verkaufen"
# gets the verdict "can i sell now" gets. English is read by the English pipeline above.
_MOMENT_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "sell": {"de": ("verkaufen", "verkaufe"), "fr": ("vendre", "vends"), "es": ("vender", "vendo"),
             "it": ("vendere", "vendo"), "pt": ("vender", "vendo"), "pl": ("sprzedać", "sprzedawać", "sprzedam"),
             "ru": ("продать", "продавать", "продам"), "uk": ("продати", "продавати", "продам")},
    "help": {"de": ("helfen", "helfe"), "fr": ("aider", "aide"), "es": ("ayudar", "ayudo"),
             "it": ("aiutare", "aiuto"), "pt": ("ajudar", "ajudo"), "pl": ("pomóc", "pomagać", "pomogę"),
             "ru": ("помочь", "помогать", "помогу"), "uk": ("допомогти", "допомагати", "допоможу")},
    "flee": {"de": ("weglaufen", "fliehen", "abhauen"), "fr": ("fuir", "déguerpir", "fuite"),
             "es": ("huir", "escapar", "huyo"), "it": ("fuggire", "scappare", "fuga"),
             "pt": ("fugir", "escapar", "fujo"), "pl": ("uciec", "uciekać", "ucieczka"),
             "ru": ("убежать", "сбежать", "смыться", "смываться"), "uk": ("втекти", "утекти", "тікати", "змитися")},
}


@lru_cache(maxsize=16)
def _moment_stems(lang: str) -> tuple[tuple[str, frozenset], ...]:
    return tuple((word, frozenset(t for form in forms.get(lang, ()) for t in lang_tokens(form, lang)))
                 for word, forms in _MOMENT_WORDS.items())


def _moment(q: str, table: dict | None, lang: str = "en") -> dict | None:
    """At a table, a question about doing something ("can i sell now", "kann ich jetzt
    verkaufen") answered for this moment: the engine's verdict (``/check``) on the matching
    action for the asking seat, with the ruling it cites. None when there is no table, no
    seat, no such action, or the question names a race or class (a rule about them)."""
    if not table or not q.strip():
        return None
    # "can an elf help and get a level": a question about a race or a class asks the rule for
    # it, not what this seat may do now (its verdict would answer a question nobody asked).
    lang = normalize_lang(lang)
    edition = shared.request_game(table["code"]).state["edition"]
    if _race_class_stems(lang, edition) & set(lang_tokens(q, lang) if lang != "en" else tokens(q)):
        return None
    asked = set(tokens(q))
    word = next((word for word, _ in _MOMENT_ACTIONS if word in asked), None)
    if word is None and normalize_lang(lang) != "en":
        mine = set(lang_tokens(q, normalize_lang(lang)))
        word = next((word for word, stems in _moment_stems(normalize_lang(lang)) if stems & mine), None)
    make = dict(_MOMENT_ACTIONS).get(word)
    me = _seat(table) if make else None
    if me is None:
        return None
    action = make(me)
    state = shared.request_game(table["code"]).state
    verdict = words.verdict(state, action, Actor(player=me))
    return {"action": action, "verdict": verdict}


@lru_cache(maxsize=64)
def _race_class_stems(lang: str, edition: str) -> frozenset:
    """The words of the edition's race and class names as printed in ``lang`` (the English
    name where that language has none), as that language's tokenizer reads them ("эльф",
    "Zwerg", "elves")."""
    catalog = load_catalog()
    stems: set = set()
    for card in _catalog_cards(catalog):
        if card.get("kind") not in ("race", "class") or card.get("set") != edition:
            continue
        name = (catalog.printed.name(card["id"], lang) if lang != "en" else None) or card["name"]
        stems.update(lang_tokens(name, lang) if lang != "en" else tokens(name))
    return frozenset(stems)


@lru_cache(maxsize=2)
def _catalog_cards(catalog) -> tuple[dict, ...]:
    # the catalog is loaded once; its ``cards`` is a deep copy each time, made once here
    return tuple(catalog.cards)


def _named_cards(q: str, edition: str | None, lang: str) -> list[dict]:
    """The catalog cards the question names, in the reader's language: the table's edition's
    set first (its Wizard before another box's), then every other set, so a card of any
    edition's catalog is found."""
    if not q.strip():
        return []
    cards = _catalog_cards(load_catalog())
    if edition:
        cards = sorted(cards, key=lambda c: c.get("set") != edition)  # stable: catalog order kept
    return [{**localized_card(card, lang), "url": f"/cards/{card['id']}"}
            for card in cards_named(q, cards)]


@bp.get("/api/rules")
def api_search():
    q = request.args.get("q", "")[:200]
    ctx = _context()
    edition, official = ctx["edition"], ctx["official"]
    lang = _lang()
    found = (rulebase.search(q, edition=edition, limit=10, official_updates=official, lang=lang)
             if q.strip() else rulebase.all_rulings())
    moment = _moment(q, ctx["table"], lang)
    found = _verdict_ruling_first(found, moment)
    rulings = [_shown(r, edition, official, lang) for r in found]
    # "cards": the cards the question names, with their catalog facts, beside the rulings;
    # "moment": at a table, the verdict for the asking seat now (null when none applies)
    return jsonify({"rulings": rulings, "edition": edition, "official_updates": official,
                    "game": ctx["table"]["code"] if ctx["table"] else None,
                    "cards": _named_cards(q, edition, lang), "moment": moment})


# Refusals that say nothing about the rule asked for: the game is over for every action, so a
# question about help after a win still ranks the rulings about help first.
NOT_ABOUT_THE_ACTION = frozenset({"game-over"})


def _verdict_ruling_first(found: list[dict], moment: dict | None) -> list[dict]:
    """The ruling a refusal cites goes first, under the verdict: the general rule for it."""
    rule = (moment or {}).get("verdict", {}).get("rule")
    if not rule or rule in NOT_ABOUT_THE_ACTION:
        return found
    cited = rulebase.get_ruling(rule)
    return [cited] + [r for r in found if r["id"] != rule] if cited else found


@bp.get("/api/rules/<rule_id>")
def api_ruling(rule_id):
    ruling = rulebase.get_ruling(rule_id)
    if ruling is None:
        return jsonify({"error": {"message": f"There is no ruling {rule_id!r}."}}), 404
    ctx = _context()
    return jsonify(_shown(ruling, ctx["edition"], ctx["official"], _lang()))


@bp.get("/rules")
def ask():
    q = request.args.get("q", "")[:200]
    ctx = _context()
    edition, official = ctx["edition"], ctx["official"]
    topic = request.args.get("topic")
    lang = _lang()
    moment = _moment(q, ctx["table"], lang)
    if q.strip():
        results = _verdict_ruling_first(
            rulebase.search(q, edition=edition, limit=8, official_updates=official, lang=lang),
            moment)
    elif topic in rulebase.topics():
        results = rulebase.rulings_for_topic(topic)
    else:
        results = []
    results = [_shown(r, edition, official, lang) for r in results]
    cards = _named_cards(q, edition, lang)
    template = "rules/_results.html" if is_htmx() else "rules/ask.html"
    response = render_template(template, q=q, topic=topic, results=results, cards=cards, moment=moment,
                               topics=rulebase.topics(), topic_labels=_topic_labels(),
                               editions=EDITIONS.values(), **ctx)
    return response, 200, {"Vary": "HX-Request"}


@bp.get("/rules/<rule_id>")
def ruling(rule_id):
    found = rulebase.get_ruling(rule_id)
    if found is None:
        abort(404)
    ctx = _context()
    return render_template("rules/ruling.html",
                           ruling=_shown(found, ctx["edition"], ctx["official"], _lang()),
                           editions=EDITIONS, topic_labels=_topic_labels(), **ctx)


def _topic_labels() -> dict[str, str]:
    """A label for every topic, also one a new rulings file brings (its name in words)."""
    return {t: TOPIC_LABELS.get(t) or t.replace("-", " ").replace("_", " ").capitalize()
            for t in rulebase.topics()}
