"""Card lookup: the JSON API, search-as-you-type on a phone, a card page with the buttons a
player needs right there, and a table's house cards (add, export, import).

Card names stay as printed; a catalog card's summary (and Bad Stuff line) comes in the asker's
language (``flask_babel.get_locale()``) when translated, marked ``"lang"`` and ``"fallback"``.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, jsonify, render_template, request

from companion import engine
from companion.engine import Actor, looting
from companion.engine.reducers import divine
from companion.catalog import (CatalogError, export_cards, import_cards, load_catalog,
                               localized_card)
from companion.store import NotFound

from . import card_names, shared
from .games import normal_code, store
from .pages import _after_change, _allowed_context

from . import words  # words in the asker's language
from .card_words import effects_in_words, requirements_in_words

bp = Blueprint("cards", __name__)
bp.add_app_template_filter(effects_in_words, "effects_in_words")
bp.add_app_template_filter(requirements_in_words, "requirements_in_words")
bp.after_request(words.vary_by_language)  # summaries are in the asker's language

KINDS = ("monster", "curse", "enhancer", "item", "one-shot", "race", "class", "half-breed",
         "super-munchkin", "ally", "go-up-a-level", "other")
SEARCH_LIMIT = 30


def _game_state(code: str | None) -> dict | None:
    if not code:
        return None
    try:
        return store().load(normal_code(code))
    except NotFound:
        return None


def _search(q: str | None, set_: str | None, kind: str | None, state: dict | None, limit: int | None):
    catalog = load_catalog()
    # A game's house cards become search entries once per version (a game may hold hundreds).
    entries = shared.per_version(state, ("house-entries",), lambda: catalog.house_entries(
        state["house_cards"])) if state and state.get("house_cards") else ()
    return catalog.search(q or None, set=set_ or None, kind=kind or None,
                          limit=limit or 10_000, extra_entries=entries)


def _results(q: str | None, set_: str | None, kind: str | None, state: dict | None,
             show_all: bool = False) -> dict:
    """The lookup's lists. Opened from a game (and no set chosen), the table's rulebook and
    its house cards come first; the other sets follow in a second list, below a divider.

    A list never stops short in silence: browsing (no query) shows every card that passes the
    filters; a query shows its best ``SEARCH_LIMIT`` and says how many more there are
    (``table_more``, ``others_more``), with a link to all of them (``all=1``)."""
    cap = None if show_all or not (q or "").strip() else SEARCH_LIMIT
    if state is None or set_:
        found = _search(q, set_, kind, state, None)
        table, others, edition = found, [], None
    else:
        edition = state["edition"]
        found = _search(q, None, kind, state, None)
        table = [c for c in found if c.get("set") in (edition, "house")]
        others = [c for c in found if c.get("set") not in (edition, "house")]
    return {"table": table[:cap], "others": others[:cap], "edition": edition,
            "table_more": max(0, len(table) - cap) if cap else 0,
            "others_more": max(0, len(others) - cap) if cap else 0}


def _query_args() -> tuple:
    args = request.args
    return (args.get("q", "")[:100], args.get("set"), args.get("kind"))


@bp.get("/api/cards")
def api_search():
    q = request.args.get("q", "")[:100]
    cards = _search(q, request.args.get("set"), request.args.get("kind"),
                    _game_state(request.args.get("game")), None if not q else 50)
    lang = words.lang()
    return jsonify({"cards": [localized_card(c, lang) for c in cards]})


@bp.get("/api/cards/<set_>/<name_id>")
def api_card(set_, name_id):
    card = load_catalog().get(f"{set_}/{name_id}")
    if card is None:
        state = _game_state(request.args.get("game"))
        card = next((c for c in (state or {}).get("house_cards", []) if c["id"] == f"{set_}/{name_id}"), None)
    if card is None:
        return jsonify({"error": {"message": f"No card {set_}/{name_id} in the catalog."}}), 404
    return jsonify(localized_card(card, words.lang()))


@bp.get("/cards")
def lookup():
    code = request.args.get("game")
    state = _game_state(code)
    catalog = load_catalog()
    return render_template("cards/lookup.html", state=words.public_state(state) if state else None,
                           sets=catalog.sets, set_names=catalog.set_names, kinds=KINDS,
                           q=request.args.get("q", ""), set_=request.args.get("set", ""),
                           kind=request.args.get("kind", ""),
                           **_results(*_query_args(), state, request.args.get("all") == "1"))


@bp.get("/cards/search")
def search_fragment():
    """The results list, re-fetched as the player types (htmx active search)."""
    state = _game_state(request.args.get("game"))
    results = _results(*_query_args(), state, request.args.get("all") == "1")
    response = Response(render_template("cards/_results.html", **results, set_names=load_catalog().set_names,
                                        state=state, q=request.args.get("q", "")))
    response.headers["Vary"] = "HX-Request"
    return response


@bp.get("/cards/<set_>/<name_id>")
def card_page(set_, name_id):
    card_id = f"{set_}/{name_id}"
    code = request.args.get("game")
    state = _game_state(code)
    card = load_catalog().get(card_id) or next(
        (c for c in (state or {}).get("house_cards", []) if c["id"] == card_id), None)
    if card is None:
        abort(404)
    card = localized_card(card, words.lang())
    # Cards whose move the generic buttons would misname: the page says what they do. The
    # engine knows Divine Intervention; a card played through another action says so in its
    # data (``played_as``: the Wandering Monster, ``add_monster``).
    special = ("divine-intervention" if divine.is_divine_intervention(card)
               else card.get("played_as") if card.get("kind") == "other" else None)
    context = {"card": card, "special": special, "card_names": card_names.other_names(card), "state": None, "me": None, "actor": None, "players": {}, "focus": None,
               "fight_verdict": None, "fight_with_level": False, "allowed": {}, "refused": {}}
    if state:
        actor, me = shared.cookie_actor(state["code"])
        public = words.public_state(state)
        context.update(state=public, me=me, actor=actor, focus=me,
                       players={p["id"]: p for p in public["players"]})
        # What this phone may do with this very card: the engine's list, nothing decided here.
        context.update(_allowed_context(state, actor, card=card_id))
        # Where the card most likely came from, and the bodies this seat loots next: the
        # engine's (engine/looting.py), shown as the one-tap choice above the moves.
        context.update(likely_source=looting.likely_source(state, me, card),
                       loot_bodies=looting.bodies_for(state, me))
        if me is not None and card["kind"] == "monster":
            # Whether this phone may start a fight with it is the engine's call, with its reason
            # (a monster whose level the catalog lacks cannot be fought from here: it says so).
            context["fight_verdict"] = words.verdict(
                state, {"type": "fight", "player": me, "monster": card_id}, Actor(player=me))
            # A monster whose level the catalog lacks (its printings differ): fought here with
            # the level printed on the table's card, when the engine would take one.
            context["fight_with_level"] = card.get("level") is None and words.verdict(
                state, {"type": "fight", "player": me, "monster": card_id, "level": 1}, Actor(player=me))["allowed"]
    return render_template("cards/card.html", **context)


@bp.get("/games/<code>/house")
def house_cards(code):
    code = normal_code(code)
    actor, me = shared.cookie_actor(code)
    state = shared.request_game(code).state
    # Who may take a card off the table (the host, or the seat that added it) is the engine's.
    return render_template("cards/house.html", state=words.public_state(state), actor=actor, me=me,
                           focus=me, kinds=KINDS, error=None, players={},
                           can=shared.options(state, actor).can)


@bp.get("/api/games/<code>/house-cards")
def export_house_cards(code):
    """A table's house cards as a data file another table can import."""
    code = normal_code(code)
    state = store().load(code)
    response = Response(export_cards(state["house_cards"]), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="house-cards-{code}.json"'
    return response


@bp.post("/games/<code>/house/import")
def import_house_cards(code):
    code = normal_code(code)
    actor, _ = shared.cookie_actor(code)
    upload = request.files.get("file")
    text = upload.read().decode("utf-8", "replace") if upload else request.form.get("text", "")
    try:
        cards = import_cards(text)
    except CatalogError as exc:  # shown as a notice or the error page by web/errors.py
        raise engine.BadAction(str(exc)) from None
    store().apply(code, {"type": "import_house_cards", "cards": cards}, actor)
    return _after_change(code)
