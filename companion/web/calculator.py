"""The quick calculator: the fight computation for a table that keeps no game in the app.

Nothing is stored. ``POST /api/combat`` takes the calculator's body (below); ``/calculator`` is
the same computation as a one-page form on a phone.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

from flask import Blueprint, jsonify, render_template, request
from pydantic import (BaseModel, ConfigDict, Discriminator, Field, StrictBool, StrictInt, Tag,
                      ValidationError, create_model)

from companion.catalog import load_catalog, resolve_card
from companion.engine import BadAction, combat
from companion.engine.action_models import INLINE_MODELS, CardSpec, explain
from companion.engine.card_schema import UnicodeText
from companion.engine.character import slugify
from companion.engine.editions import EDITIONS
from companion.engine.rules import TableRules
from companion.engine.vocab import EditionId, Sex, Variant
from companion.engine.words import N_

from .json_body import read_json_object
from .words import error_message, localize

bp = Blueprint("calculator", __name__)

MAX_CARDS = 30  # cards in one list (a player's items, a monster's enhancers, a side's one-shots)
# Cards in one request, all lists together, and Mates on one monster (each brings a twin with
# every enhancer on it): a table's fight has a few dozen cards; the bounds keep the anonymous
# calculator's work small whatever its body (it runs on the server's one event loop).
MAX_TOTAL_CARDS = 60
MAX_MATES = 2


# --- the request (the calculator's body) as a model ------------------------------------------

class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


def _typed_card(kind: str) -> type[BaseModel]:
    """A race or class given as facts; its ``kind`` may be left out (the list says it)."""
    base = INLINE_MODELS[kind]
    return create_model(f"Calculator{base.__name__[len('Inline'):]}", __base__=base,
                        __module__=__name__, kind=(Literal[kind], kind),  # type: ignore[valid-type]
                        name=(Annotated[UnicodeText, Field(min_length=1, max_length=80)], ...))


def _name_or_card(value: Any) -> str | None:
    if isinstance(value, str):
        return "name"
    if isinstance(value, (dict, BaseModel)):
        return "card facts"
    return None


def _race_or_class(kind: str) -> Any:
    return Annotated[
        Union[Annotated[Annotated[UnicodeText, Field(min_length=1, max_length=60)], Tag("name")],
              Annotated[_typed_card(kind), Tag("card facts")]],
        Discriminator(_name_or_card, custom_error_type="name_or_card",
                      custom_error_message=f"a {kind} is a name or a card's facts"),
    ]


Cards = Annotated[list[CardSpec], Field(max_length=MAX_CARDS)]


class Person(_Body):
    """The fighter or the helper: level, gear bonus, sex, equipped items, races, classes."""
    level: Annotated[StrictInt, Field(ge=1, le=10)] = 1
    gear: Annotated[StrictInt, Field(ge=-99, le=99)] = 0
    sex: Sex = "male"
    items: Optional[Cards] = None
    races: list[_race_or_class("race")] = Field(default_factory=list, max_length=2)  # type: ignore[valid-type]
    classes: list[_race_or_class("class")] = Field(default_factory=list, max_length=2)  # type: ignore[valid-type]


class MonsterEntry(_Body):
    card: CardSpec
    enhancers: Optional[Cards] = None


class OneShots(_Body):
    players: Optional[Cards] = None
    monsters: Optional[Cards] = None


class CombatRequest(_Body):
    """``POST /api/combat``: a fight described in full; nothing is stored."""
    edition: EditionId = "classic"
    fighter: Optional[Person] = None
    helper: Optional[Person] = None
    monsters: list[MonsterEntry] = Field(min_length=1, max_length=10)
    one_shots: Optional[OneShots] = None
    variants: Optional[dict[Variant, StrictBool]] = None


def parse_request(body: Any) -> CombatRequest:
    """The calculator's body, typed; a ``BadAction`` naming the field otherwise."""
    if not isinstance(body, dict):
        raise BadAction(N_("The request body must be a JSON object."))
    try:
        return CombatRequest.model_validate(body)
    except ValidationError as exc:
        message = explain(exc, body, root=CombatRequest)
        if exc.errors(include_url=False)[0]["type"] == "name_or_card":
            field = ".".join(str(p) for p in exc.errors(include_url=False)[0]["loc"][:-1])
            message = f"'{field}' must list names (like 'elf') or cards' facts."
        raise BadAction(message) from None
    except RecursionError:
        raise BadAction(N_("The request is nested too deeply.")) from None


# --- the computation ---------------------------------------------------------------------

def _named_card(edition: str, kind: str, name: str) -> dict | None:
    """A race or class named in words, looked up in the edition's set so its abilities count."""
    catalog = load_catalog()
    card = catalog.get(f"{edition}/{slugify(name)}")
    if card is None:
        hits = [c for c in catalog.search(name, kind=kind, limit=5) if slugify(c["name"]) == slugify(name)]
        card = hits[0] if hits else None
    return card if card and card["kind"] == kind else None


def _cards(specs: list | None) -> list[dict]:
    return [resolve_card(spec.model_dump(mode="json", by_alias=True, exclude_unset=True)
                         if isinstance(spec, BaseModel) else spec) for spec in specs or ()]


def _person(edition: str, person: Person | None, role: str) -> dict | None:
    if person is None:
        return None
    data = person.model_dump(mode="json", by_alias=True, exclude_unset=True)
    data["items"] = _cards(person.items)
    player = combat.calculator_player(data, resolve=lambda kind, name: _named_card(edition, kind, name))
    player.update(id=role, name=role.title())
    return player


def _check_size(request_: CombatRequest) -> None:
    people = [p for p in (request_.fighter, request_.helper) if p is not None]
    shots = request_.one_shots or OneShots()
    total = (sum(len(p.items or ()) for p in people) + len(request_.monsters)
             + sum(len(m.enhancers or ()) for m in request_.monsters)
             + len(shots.players or ()) + len(shots.monsters or ()))
    if total > MAX_TOTAL_CARDS:
        raise BadAction(N_("A fight here takes at most %(most)s cards in all; this one has %(count)s."),
                        most=MAX_TOTAL_CARDS, count=total)
    for entry in request_.monsters:
        mates = sum(1 for spec in _cards(entry.enhancers) if spec.get("mate"))
        if mates > MAX_MATES:
            raise BadAction(N_("A monster here takes at most %(most)s Mates; this one has %(count)s."),
                            most=MAX_MATES, count=mates)


def compute(body: Any) -> dict:
    request_ = parse_request(body)
    _check_size(request_)
    edition = request_.edition
    fighter = _person(edition, request_.fighter or Person(), "fighter")
    helper = _person(edition, request_.helper, "helper")
    monsters = []
    for entry in request_.monsters:
        card = _cards([entry.card])[0]
        if card["kind"] != "monster":
            raise BadAction(N_("%(card)s is not a monster."), card=card["name"])
        if card.get("level") is None:
            raise BadAction(N_("The catalog does not know the level of %(card)s: give the monster inline."),
                            card=card["name"])
        monsters.append({"card": card, "enhancers": _cards(entry.enhancers), "gone": False})
    shots = request_.one_shots or OneShots()
    one_shots = [{"side": side, "card": card}
                 for side in ("players", "monsters")
                 for card in _cards(getattr(shots, side))]
    return combat.compute(rules=TableRules.chosen(edition, request_.variants), fighter=fighter,
                          helper=helper, monsters=monsters, one_shots=one_shots)


@bp.post("/api/combat")
def api_combat():
    try:
        return jsonify(localize(compute(read_json_object())))
    except BadAction as exc:
        return jsonify({"error": {"message": error_message(exc)}}), 400


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
        error = error_message(exc)
    catalog = load_catalog()
    template = "calculator/_result.html" if request.headers.get("HX-Request") == "true" else "calculator/page.html"
    return render_template(template, result=result, error=error, args=request.args, edition=edition,
                           editions=EDITIONS.values(),
                           races=catalog.search(None, set=edition, kind="race"),
                           classes=catalog.search(None, set=edition, kind="class")), 200, {"Vary": "HX-Request"}
