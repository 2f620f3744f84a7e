"""The quick calculator: the fight computation for a table that keeps no game in the app.

Nothing is stored. ``POST /api/combat`` takes issue 5's calculator body; ``/calculator`` is
the same computation as a one-page form on a phone.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template, request

from companion.catalog import load_catalog, resolve_card
from companion.engine import BadAction, combat
from companion.engine.character import slugify
from companion.engine.editions import EDITIONS

bp = Blueprint("calculator", __name__)

MAX_CARDS = 30


def _named_card(edition: str, kind: str, name: str) -> dict | None:
    """A race or class named in words, looked up in the edition's set so its abilities count."""
    catalog = load_catalog()
    card = catalog.get(f"{edition}/{slugify(name)}")
    if card is None:
        hits = [c for c in catalog.search(name, kind=kind, limit=5) if slugify(c["name"]) == slugify(name)]
        card = hits[0] if hits else None
    return card if card and card["kind"] == kind else None


def _cards(specs: Any, field: str) -> list[dict]:
    if specs is None:
        return []
    if not isinstance(specs, list) or len(specs) > MAX_CARDS:
        raise BadAction(f"'{field}' must be a list of at most {MAX_CARDS} cards.")
    return [resolve_card(spec) for spec in specs]


def _person(edition: str, data: Any, role: str) -> dict | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise BadAction(f"'{role}' must be an object with level, gear, items, races, classes, sex.")
    level = data.get("level", 1)
    gear = data.get("gear", 0)
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 10:
        raise BadAction(f"'{role}.level' must be a whole number from 1 to 10.")
    if isinstance(gear, bool) or not isinstance(gear, int) or not -99 <= gear <= 99:
        raise BadAction(f"'{role}.gear' must be a whole number from -99 to 99.")
    if data.get("sex", "male") not in ("male", "female"):
        raise BadAction(f"'{role}.sex' must be 'male' or 'female'.")
    for key in ("races", "classes"):
        if not isinstance(data.get(key, []), list) or len(data.get(key, [])) > 2:
            raise BadAction(f"'{role}.{key}' must be a list of at most two names or cards.")
    clean = dict(data, items=_cards(data.get("items"), f"{role}.items"))
    player = combat.calculator_player(clean, resolve=lambda kind, name: _named_card(edition, kind, name))
    player.update(id=role, name=role.title())
    return player


def compute(body: Any) -> dict:
    if not isinstance(body, dict):
        raise BadAction("The request body must be a JSON object.")
    edition = body.get("edition", "classic")
    if edition not in EDITIONS:
        raise BadAction(f"Unknown edition {edition!r}: choose one of {', '.join(EDITIONS)}.")
    fighter = _person(edition, body.get("fighter") or {}, "fighter")
    helper = _person(edition, body.get("helper"), "helper")
    monsters = []
    raw_monsters = body.get("monsters")
    if not isinstance(raw_monsters, list) or not 1 <= len(raw_monsters) <= 10:
        raise BadAction("'monsters' must be a list of 1 to 10 monsters.")
    for i, entry in enumerate(raw_monsters):
        if not isinstance(entry, dict) or "card" not in entry:
            raise BadAction(f"'monsters[{i}]' must be an object with a 'card'.")
        card = resolve_card(entry["card"])
        if card["kind"] != "monster":
            raise BadAction(f"{card['name']} is not a monster.")
        if card.get("level") is None:
            raise BadAction(f"The catalog does not know {card['name']}'s level: give the monster inline.")
        monsters.append({"card": card, "enhancers": _cards(entry.get("enhancers"), f"monsters[{i}].enhancers"),
                         "gone": False})
    one_shots_in = body.get("one_shots") or {}
    if not isinstance(one_shots_in, dict):
        raise BadAction("'one_shots' must be {\"players\": [...], \"monsters\": [...]}.")
    one_shots = [{"side": side, "card": card}
                 for side in ("players", "monsters")
                 for card in _cards(one_shots_in.get(side), f"one_shots.{side}")]
    return combat.compute(edition=edition, fighter=fighter, helper=helper, monsters=monsters,
                          one_shots=one_shots, variants=body.get("variants") or {})


@bp.post("/api/combat")
def api_combat():
    try:
        return jsonify(compute(request.get_json(silent=True)))
    except BadAction as exc:
        return jsonify({"error": {"message": exc.message}}), 400


def _int(name: str, default: int) -> int:
    try:
        return int(request.args.get(name, default))
    except ValueError:
        return default


@bp.get("/calculator")
def page():
    edition = request.args.get("edition") if request.args.get("edition") in EDITIONS else "classic"
    form = {k: request.args.get(k, "") for k in ("race", "class", "helper_race", "helper_class")}
    body = {
        "edition": edition,
        "fighter": {"level": _int("level", 1), "gear": _int("gear", 0), "sex": request.args.get("sex", "male"),
                    "races": [form["race"]] if form["race"] else [],
                    "classes": [form["class"]] if form["class"] else []},
        "helper": ({"level": _int("helper_level", 1), "gear": _int("helper_gear", 0),
                    "races": [form["helper_race"]] if form["helper_race"] else [],
                    "classes": [form["helper_class"]] if form["helper_class"] else []}
                   if request.args.get("helper") else None),
        "monsters": [{"card": {"kind": "monster", "name": "Monster", "level": _int("monster_level", 1),
                               "treasures": _int("treasures", 1)},
                      "enhancers": ([{"kind": "enhancer", "name": "Enhancers", "bonus": _int("enhancers", 0)}]
                                    if _int("enhancers", 0) else [])}],
        "one_shots": {"players": ([{"kind": "one-shot", "name": "For the players", "bonus": _int("for_players", 0)}]
                                  if _int("for_players", 0) else []),
                      "monsters": ([{"kind": "one-shot", "name": "For the monsters", "bonus": _int("for_monsters", 0)}]
                                   if _int("for_monsters", 0) else [])},
    }
    error, result = None, None
    try:
        result = compute(body)
    except BadAction as exc:
        error = exc.message
    catalog = load_catalog()
    template = "calculator/_result.html" if request.headers.get("HX-Request") == "true" else "calculator/page.html"
    return render_template(template, result=result, error=error, args=request.args, edition=edition,
                           editions=EDITIONS.values(),
                           races=catalog.search(None, set=edition, kind="race"),
                           classes=catalog.search(None, set=edition, kind="class")), 200, {"Vary": "HX-Request"}
