"""The typed action vocabulary: every action parses once at the boundary, or is refused with
one short English sentence that names the field."""

from __future__ import annotations

import random
import re
import typing

import jsonschema
import pytest
from werkzeug.datastructures import MultiDict

from companion import engine
from companion.engine import card_schema
from companion.engine import Actor, BadAction, action_models, editions, vocab
from companion.engine.action_models import ACTION_TYPES, action_json_schema, parse_action
from companion.web.forms import action_from_form

HOST = Actor(host=True)
VALIDATOR = jsonschema.Draft202012Validator(action_json_schema())

# One well-formed example of every action type (what a phone or the API sends).
VALID = {
    "level": {"type": "level", "player": 1, "delta": -2, "source": "kill"},
    "gear": {"type": "gear", "player": 1, "delta": 3},
    "set_sex": {"type": "set_sex", "player": 1, "sex": "female"},
    "set_turn": {"type": "set_turn", "player": 2},
    "end_turn": {"type": "end_turn", "player": 1, "bigger_share": [3, 2]},
    "set_hand": {"type": "set_hand", "player": 1, "count": 7},
    "set_variant": {"type": "set_variant", "variant": "shared_victory", "on": True},
    "rename": {"type": "rename", "player": 1, "name": "Anna Ü"},
    "set_winning_level": {"type": "set_winning_level", "level": 20},
    "join": {"type": "join", "name": "Dana", "sex": "female", "phone": False},
    "remove_player": {"type": "remove_player", "player": 2},
    "lock_table": {"type": "lock_table", "locked": False},
    "play": {"type": "play", "player": 1, "card": {"kind": "item", "name": "Sword", "bonus": 2,
                                                   "slot": "1-hand", "big": True, "gold": 400,
                                                   "requires": {"race": "elf"}}},
    "discard": {"type": "discard", "player": 1, "instance": 4},
    "equip": {"type": "equip", "player": 1, "instance": 4, "equipped": False},
    "sell": {"type": "sell", "player": 1, "instances": [4, 5], "hand_gold": 300},
    "give": {"type": "give", "player": 1, "instance": 4, "to": 2},
    "die": {"type": "die", "player": 1},
    "accept_help": {"type": "accept_help", "player": 2},
    "chase_away": {"type": "chase_away", "player": 1, "monster": 0},
    "decline_help": {"type": "decline_help", "player": 2},
    "draw": {"type": "draw", "player": 1, "count": 1, "deck": "door"},
    "loot": {"type": "loot", "player": 2, "body": 1, "from_hand": True},
    "end_looting": {"type": "end_looting", "body": 1},
    "fight": {"type": "fight", "player": 1, "monster": {"kind": "monster", "name": "Blob", "level": 8,
                                                       "treasures": 2}},
    "add_monster": {"type": "add_monster", "monster": "classic/drooling-slime", "level": 3},
    "enhance": {"type": "enhance", "monster": 0, "card": {"kind": "enhancer", "name": "Big", "bonus": 5,
                                                         "treasures": 1}},
    "remove_monster": {"type": "remove_monster", "monster": 1},
    "one_shot": {"type": "one_shot", "side": "monsters", "card": {"kind": "one-shot", "name": "Potion",
                                                                 "bonus": 2}},
    "help": {"type": "help", "player": 2, "forced": True},
    "stop_helping": {"type": "stop_helping"},
    "resolve": {"type": "resolve"},
    "run_away": {"type": "run_away", "player": 1, "monster": 0, "roll": 5},
    "sacrifice_ally": {"type": "sacrifice_ally", "player": 1, "helper_too": True},
    "close_fight": {"type": "close_fight"},
    "confirm_bad_stuff": {"type": "confirm_bad_stuff", "player": 1, "pending": 7},
    "offer": {"type": "offer", "to": 2, "treasures": 1, "pick_first": True, "items": [4]},
    "accept_offer": {"type": "accept_offer", "player": 2},
    "decline_offer": {"type": "decline_offer", "player": 2},
    "add_house_card": {"type": "add_house_card", "card": {"kind": "monster", "name": "Uncle Bob",
                                                         "level": 6, "summary": "Eats homework."}},
    "import_house_cards": {"type": "import_house_cards", "cards": [
        {"kind": "curse", "name": "Rain", "lose_levels": 1},
        {"kind": "item", "name": "Umbrella", "bonus": 1, "effects": [
            {"stat": "strength", "value": 2, "if": {"class": "wizard"}}]}]},
    "remove_house_card": {"type": "remove_house_card", "card": "house/uncle-bob"},
    "use_power": {"type": "use_power", "player": 1, "power": "wizard-flight", "from_hand": 2, "monster": 0, "roll": 3},
}


def deep(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def test_every_action_type_has_an_example_and_a_reducer():
    assert set(VALID) == set(ACTION_TYPES)
    assert set(engine.REDUCERS) <= set(ACTION_TYPES), "a reducer without a model"
    assert set(ACTION_TYPES) <= set(engine.REDUCERS), "a model without a reducer"


@pytest.mark.parametrize("kind", sorted(VALID))
def test_valid_actions_of_every_type_parse_and_keep_their_fields(kind):
    action = VALID[kind]
    model = parse_action(action)
    assert model.type == kind
    assert model.data() == action  # the reducers get the same field names back
    assert parse_action(model) is model  # an already parsed action passes through


@pytest.mark.parametrize("kind", sorted(VALID))
def test_valid_actions_fit_the_published_json_schema(kind):
    VALIDATOR.validate(VALID[kind])


def test_the_schema_is_one_of_every_action_type():
    schema = action_json_schema()
    branches = schema.get("oneOf") or schema.get("anyOf")
    assert branches and len(branches) == len(ACTION_TYPES)
    consts = {schema["$defs"][b["$ref"].rsplit("/", 1)[1]]["properties"]["type"]["const"] for b in branches}
    assert consts == set(ACTION_TYPES)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert not VALIDATOR.is_valid({"type": "level", "player": 1, "delta": 99})
    assert not VALIDATOR.is_valid({"type": "level", "player": 1, "delta": 1, "ammount": 1})


def test_loose_card_words_still_parse_and_come_out_canonical():
    model = parse_action({"type": "play", "player": 1, "card": {
        "kind": "Monster Enhancer", "name": "Huge", "bonus": 10}})
    assert model.data()["card"]["kind"] == "enhancer"
    model = parse_action({"type": "play", "player": 1, "card": {
        "kind": "item", "name": "Bow", "slot": "2 Hands", "requires": {"class": "Wizard"}}})
    assert model.data()["card"] == {"kind": "item", "name": "Bow", "slot": "2-hands",
                                    "requires": {"class": "wizard"}}


# --- malformed input: one clear sentence naming the field ----------------------------------

MALFORMED = [
    # not an object / no usable type
    ([1, 2], "JSON object"),
    ("level", "JSON object"),
    ({}, "needs a 'type'"),
    ({"type": {"x": 1}}, "'type' must be a string"),
    ({"type": ["level"]}, "'type' must be a string"),
    ({"type": deep(1000)}, "'type' must be a string"),
    ({"type": "teleport"}, "Unknown action type 'teleport'"),
    ({"type": "x" * 5000}, "Unknown action type."),
    # numbers
    ({"type": "level", "player": 1, "delta": 10}, "'delta' must be a whole number between -9 and 9"),
    ({"type": "level", "player": 1, "delta": "1"}, "'delta' must be a whole number between -9 and 9"),
    ({"type": "level", "player": 1, "delta": True}, "'delta' must be a whole number"),
    ({"type": "level", "player": 1, "delta": 1.5}, "'delta' must be a whole number"),
    ({"type": "level", "player": 10 ** 40, "delta": 1}, "'player' must be a player id"),
    ({"type": "level", "player": "1", "delta": 1}, "'player' must be a player id"),
    ({"type": "level", "player": 1}, "'delta' is required"),
    ({"type": "set_hand", "player": 1, "count": -1}, "'count' must be a whole number between 0 and 60"),
    ({"type": "run_away", "player": 1, "roll": 7}, "'roll' must be a whole number between 1 and 6"),
    # words
    ({"type": "level", "player": 1, "delta": 1, "source": "magic"}, "'source' must be one of"),
    ({"type": "set_sex", "player": 1, "sex": "other"}, "'sex' must be one of 'male' or 'female'"),
    ({"type": "one_shot", "side": ["players"], "card": "classic/x"}, "'side' must be one of"),
    ({"type": "set_variant", "variant": "wild", "on": True}, "'variant' must be one of"),
    ({"type": "set_variant", "variant": "shared_victory", "on": "yes"}, "'on' must be true or false"),
    # junk keys and nesting
    ({"type": "level", "player": 1, "delta": 1, "ammount": 2}, "'ammount' is not a field of a 'level' action"),
    ({"type": "level", "player": 1, "delta": 1, "x": deep(1000)}, "'x' is not a field"),
    ({"type": "level", "player": deep(1000), "delta": 1}, "'player' must be a player id"),
    # the bribe
    ({"type": "offer", "to": [2]}, "'to' must be a player id"),
    ({"type": "offer", "to": 2, "items": [[4]]}, "'items[0]' must be a card instance id"),
    ({"type": "offer", "to": 2, "items": {"4": 1}}, "'items' must be a list"),
    ({"type": "offer", "to": 2, "treasures": -1}, "'treasures' must be a whole number between 0 and 99"),
    # Charity
    ({"type": "end_turn", "player": 1, "bigger_share": 2}, "'bigger_share' must be a list"),
    ({"type": "end_turn", "player": 1, "bigger_share": [{"id": 2}]}, "'bigger_share[0]' must be a player id"),
    # lists
    ({"type": "sell", "player": 1, "instances": list(range(1, 500))}, "'instances' may hold at most 100"),
    ({"type": "import_house_cards", "cards": []}, "'cards' needs at least 1 entry"),
    # lone surrogates anywhere a text goes
    ({"type": "rename", "player": 1, "name": "Ann\ud800"}, "'name' has a broken character"),
    ({"type": "add_house_card", "card": {"kind": "item", "name": "Sw\udfffrd"}}, "'card.name' has a broken character"),
    ({"type": "play", "player": 1, "card": {"kind": "item", "name": "S", "summary": "\ud83d"}},
     "'card.summary' has a broken character"),
    ({"type": "play", "player": 1, "card": "classic/\ud800"}, "'card' has a broken character"),
    # cards
    ({"type": "play", "player": 1, "card": 7}, "'card' must be a catalog id"),
    ({"type": "play", "player": 1, "card": ["classic/elf"]}, "'card' must be a catalog id"),
    ({"type": "play", "player": 1, "card": {"name": "Sword"}}, "'card.kind' is required"),
    ({"type": "play", "player": 1, "card": {"kind": "sword", "name": "Sword"}}, "'card.kind': 'sword' is not a kind"),
    ({"type": "play", "player": 1, "card": {"kind": "item", "name": "S", "bonus": "2"}},
     "'card.bonus' must be a whole number between -99 and 99"),
    ({"type": "play", "player": 1, "card": {"kind": "item", "name": "S", "requires": {"race": 5}}},
     "'card.requires.race' must be a string"),
    ({"type": "play", "player": 1, "card": {"kind": "item", "name": "S", "treasure": 1}},
     "'card.treasure' is not a field of 'card'"),
    ({"type": "fight", "player": 1, "monster": {"kind": "monster", "name": "M", "level": {"a": 1}}},
     "'monster.level' must be a whole number between 0 and 99"),
    ({"type": "enhance", "monster": "classic/drooling-slime", "card": "classic/x"},
     "'monster' must be the index of a monster in the fight"),
    ({"type": "add_house_card", "card": "classic/elf"}, "'card' must be a card's facts"),
    ({"type": "import_house_cards", "cards": [{"kind": "item", "name": "A"}, {"kind": "item", "name": 3}]},
     "'cards[1].name' must be a string"),
    ({"type": "play", "player": 1, "card": {"kind": "item", "name": "x" * 500}}, "'card.name' may have at most 80"),
]


@pytest.mark.parametrize("action, words", MALFORMED, ids=lambda v: str(v)[:60] if isinstance(v, str) else None)
def test_malformed_actions_are_refused_with_one_clear_sentence(action, words):
    with pytest.raises(BadAction) as caught:
        parse_action(action)
    message = caught.value.message
    assert words in message
    assert "\n" not in message and len(message) < 240, message
    assert not re.search(r"pydantic|Input should|errors\.pydantic|type=", message), message


@pytest.mark.parametrize("action, words", MALFORMED[:12], ids=lambda v: str(v)[:60] if isinstance(v, str) else None)
def test_apply_refuses_malformed_actions_and_changes_nothing(action, words):
    state = engine.new_game("TEST1", "classic")
    engine.add_player(state, "Ann", "male")
    before = repr(state)
    with pytest.raises(BadAction, match=re.escape(words)):
        engine.apply(state, action, HOST)
    assert repr(state) == before


def test_apply_takes_a_dict_or_a_parsed_model():
    state = engine.new_game("TEST1", "classic")
    pid = engine.add_player(state, "Ann", "male")
    new, _ = engine.apply(state, {"type": "level", "player": pid, "delta": 1}, HOST)
    assert new["players"][0]["level"] == 2
    model = parse_action({"type": "level", "player": pid, "delta": 2})
    new, _ = engine.apply(new, model, HOST, rng=random.Random(1))
    assert new["players"][0]["level"] == 4


# --- forms: the same actions from HTML form fields -----------------------------------------

def as_form(action: dict) -> MultiDict:
    """The form fields a page would post for ``action`` (dotted names for a card's facts)."""
    pairs: list[tuple[str, str]] = []

    def text(value):
        return ("true" if value else "false") if isinstance(value, bool) else str(value)

    def add(prefix, value):
        if isinstance(value, dict):
            for key, inner in value.items():
                add(f"{prefix}.{key}", inner)
        elif isinstance(value, list):
            pairs.extend((prefix, text(v)) for v in value)
        else:
            pairs.append((prefix, text(value)))

    for key, value in action.items():
        add(key, value)
    return MultiDict(pairs + [("csrf_token", "x"), ("_focus", "1"), ("next", "/games/X")])


FORM_TYPES = sorted(set(VALID) - {"import_house_cards"})  # a file upload, not a form


@pytest.mark.parametrize("kind", FORM_TYPES)
def test_form_fields_round_trip_to_the_same_action(kind):
    action = VALID[kind]
    assert action_from_form(as_form(action)) == action


def test_monster_is_an_index_or_a_card_as_the_action_type_says():
    assert action_from_form(MultiDict([("type", "enhance"), ("monster", "1"), ("card", "classic/x")])) == {
        "type": "enhance", "monster": 1, "card": "classic/x"}
    assert action_from_form(MultiDict([("type", "run_away"), ("player", "3"), ("monster", "0")])) == {
        "type": "run_away", "player": 3, "monster": 0}
    assert action_from_form(MultiDict([("type", "fight"), ("player", "3"), ("monster", "classic/1")])) == {
        "type": "fight", "player": 3, "monster": "classic/1"}
    assert action_from_form(MultiDict([("type", "fight"), ("player", "3"), ("monster.kind", "monster"),
                                       ("monster.name", "42"), ("monster.level", "7")])) == {
        "type": "fight", "player": 3, "monster": {"kind": "monster", "name": "42", "level": 7}}


def test_form_text_that_is_not_a_number_reaches_the_model_and_is_refused_there():
    action = action_from_form(MultiDict([("type", "level"), ("player", "1"), ("delta", "lots"),
                                         ("card.big", "")]))
    assert action == {"type": "level", "player": 1, "delta": "lots"}
    with pytest.raises(BadAction, match="'delta' must be a whole number"):
        parse_action(action)


# --- one vocabulary ------------------------------------------------------------------------

def test_the_vocabulary_tuples_come_from_their_literals():
    for literal, values in [(vocab.Sex, vocab.SEXES), (vocab.CardKind, vocab.KINDS), (vocab.Slot, vocab.SLOTS),
                            (vocab.LevelSource, vocab.LEVEL_SOURCES), (vocab.Side, vocab.SIDES),
                            (vocab.EditionId, vocab.EDITION_IDS), (vocab.Variant, vocab.VARIANTS),
                            (vocab.Stage, vocab.STAGES), (vocab.CardSet, vocab.SETS)]:
        assert values == typing.get_args(literal)
    assert set(vocab.SLOTS) < set(vocab.LOSE_SLOTS)


def test_card_schema_engine_and_editions_share_the_vocabulary():
    assert card_schema.KINDS is vocab.KINDS and card_schema.SLOTS is vocab.SLOTS
    assert card_schema.SETS is vocab.SETS and tuple(card_schema.MODELS) == vocab.KINDS
    assert set(vocab.EDITION_IDS) == set(editions.EDITIONS)
    assert set(vocab.EDITION_IDS) < set(vocab.SETS)
    for edition in editions.EDITIONS.values():
        assert set(edition.variants) <= set(vocab.VARIANTS), edition.id
    assert set(action_models.INLINE_MODELS) == set(vocab.KINDS)


# --- the calculator's body -----------------------------------------------------------------

MONSTER = [{"card": {"kind": "monster", "name": "X", "level": 3}}]


@pytest.mark.parametrize("body, words", [
    ({"edition": {"id": "classic"}, "monsters": MONSTER}, "'edition' must be one of"),
    ({"edition": "nope", "monsters": MONSTER}, "'edition' must be one of"),
    ({"fighter": {"races": [5]}, "monsters": MONSTER}, "'fighter.races'"),
    ({"fighter": {"races": [{"junk": 1}]}, "monsters": MONSTER}, "'fighter.races[0]"),
    ({"fighter": {"classes": ["a", "b", "c"]}, "monsters": MONSTER}, "'fighter.classes' may hold at most 2"),
    ({"fighter": {"level": "5"}, "monsters": MONSTER}, "'fighter.level' must be a whole number between 1 and 10"),
    ({"fighter": {"sex": ["male"]}, "monsters": MONSTER}, "'fighter.sex' must be one of"),
    ({"fighter": {"items": "classic/x"}, "monsters": MONSTER}, "'fighter.items' must be a list"),
    ({"fighter": {"items": [{"kind": "item", "name": "\ud800"}]}, "monsters": MONSTER}, "broken character"),
    ({"helper": [], "monsters": MONSTER}, "'helper' must be a JSON object"),
    ({"monsters": MONSTER, "one_shots": ["x"]}, "'one_shots' must be a JSON object"),
    ({"monsters": MONSTER, "variants": {"x": True}}, "'variants' has an unknown key 'x'"),
    ({"monsters": [{"card": {"kind": "monster", "name": "X", "level": 3}, "enhancers": 5}]},
     "'monsters[0].enhancers' must be a list"),
    ({"monsters": [{"card": 3}]}, "'monsters[0].card' must be a catalog id"),
    ({"monsters": [1]}, "'monsters[0]' must be a JSON object"),
    ({"monsters": MONSTER, "extra": 1}, "'extra' is not a field of the request"),
])
def test_the_calculator_answers_bad_bodies_with_a_clear_400(client, body, words):
    r = client.post("/api/combat", json=body)
    assert r.status_code == 400, r.get_data(as_text=True)[:300]
    message = r.get_json()["error"]["message"]
    assert words in message and len(message) < 240, message


def test_the_calculator_takes_names_and_facts_for_races():
    from companion.web.calculator import compute

    out = compute({"edition": "classic", "fighter": {"level": 2, "races": ["Elf", {"name": "Gnome"}]},
                   "monsters": MONSTER})
    assert out["players_strength"] == 2 and out["monsters_strength"] == 3


def test_get_api_schema_lists_every_action(client):
    r = client.get("/api/schema")
    assert r.status_code == 200
    assert r.get_json()["actions"] == action_json_schema()
