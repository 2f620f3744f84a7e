"""Every card effect and every Bad Stuff step in cards/*.json is one the engine applies.

The data is walked as written (the JSON files, not the loaded catalog), and each word it uses
must be in a table whose entry shows the engine acting on that word: a check that computes a
fight (or drives one through ``engine.apply``) with and without it and sees the difference.
A new word in the data, or in the vocabulary, without such a check fails here.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from companion import engine
from companion.engine import card_schema as schema
from companion.engine import Actor, character, combat, editions
from companion.engine.bad_stuff import APPLIERS
from companion.engine.rules import TableRules
from companion.engine.vocab import BAD_STUFF_DOS, LOSE_WHICH, PERS, STATS

ROOT = Path(__file__).resolve().parents[1]
CARD_FILES = sorted((ROOT / "cards").glob("*.json"))
CLASSIC, TAILS = editions.get("classic"), editions.get("tails")


def raw_cards() -> list[tuple[str, dict]]:
    return [(f"{path.name}: {card['name']}", card) for path in CARD_FILES
            for card in json.loads(path.read_text())["cards"]]


def used_effects() -> list[tuple[str, dict]]:
    return [(where, eff) for where, card in raw_cards() for eff in card.get("effects") or ()]


def walk_steps(steps, where):
    for step in steps or ():
        yield where, step
        yield from walk_steps(step.get("otherwise"), where)


def used_steps() -> list[tuple[str, dict]]:
    out = []
    for where, card in raw_cards():
        bad = card.get("bad_stuff") or {}
        out += list(walk_steps(bad.get("steps"), where)) + list(walk_steps(bad.get("on_flee"), where))
    return out


# --- small fights --------------------------------------------------------------------------

def player(pid=1, *cards, level=1, sex="male"):
    return {"id": pid, "name": f"P{pid}", "level": level, "sex": sex, "gear_adjust": 0,
            "dead": False, "hand": 0,
            "cards": [{"iid": pid * 100 + i, "card": c, "equipped": c["kind"] == "item"}
                      for i, c in enumerate(cards)]}


def race(name, *effects):
    return {"kind": "race", "name": name, "effects": list(effects)}


def klass(name, *effects):
    return {"kind": "class", "name": name, "effects": list(effects)}


def sword(bonus=3):
    return {"kind": "item", "name": "Sword", "bonus": bonus, "slot": "1-hand", "gold": 400}


def fight(fighter, *effects, helper=None, level=5, edition=CLASSIC, tags=(), **kw):
    card = {"kind": "monster", "name": "M", "level": level, "treasures": 2,
            "effects": list(effects), "tags": list(tags)}
    return combat.compute(rules=TableRules.chosen(edition), fighter=fighter, helper=helper,
                          monsters=[{"card": card, "enhancers": []}], one_shots=[], **kw)


def escape(view):
    return view["escape"][0]


# --- each stat: the engine does something with it -------------------------------------------

def check_strength():
    elf = player(1, race("Elf"))
    assert fight(elf, {"stat": "strength", "value": 4, "if": {"race": "elf"}})["monsters_strength"] == 9
    assert fight(elf)["monsters_strength"] == 5


def check_run_away():
    assert escape(fight(player(), {"stat": "run_away", "value": -1}))["needs"] == 6
    assert escape(fight(player(1, race("Elf", {"stat": "run_away", "value": 1}))))["needs"] == 4


def check_hand_limit():
    dwarf = player(1, race("Dwarf", {"stat": "hand_limit", "value": 6}))
    assert character.hand_limit(dwarf, CLASSIC) == 6 and character.hand_limit(player(), CLASSIC) == 5


def check_big_items():
    dwarf = player(1, race("Dwarf", {"stat": "big_items", "value": 99}))
    assert character.big_allowed(dwarf, CLASSIC) == 99 and character.big_allowed(player(), CLASSIC) == 1


def check_wins_ties():
    warrior = player(1, klass("Warrior", {"stat": "wins_ties"}), level=5)
    assert fight(warrior)["winning"] and not fight(player(level=5))["winning"]


def check_helper_levels():
    elf = player(2, race("Elf", {"stat": "helper_levels", "if": {"role": "helping"}}), level=5)
    assert fight(player(level=5), helper=elf)["rewards"]["helper_levels"] == 1
    assert fight(player(level=5), helper=player(2, level=5))["rewards"]["helper_levels"] == 0


def check_level_only():
    armed = player(1, sword(), level=4)
    assert fight(armed, {"stat": "level_only"})["players_strength"] == 4
    assert fight(armed)["players_strength"] == 7


def check_auto_escape():
    assert escape(fight(player(), {"stat": "auto_escape"}))["auto"] is True
    assert escape(fight(player()))["auto"] is False


def check_treasures():
    elf = player(1, race("Elf"))
    assert fight(elf, {"stat": "treasures", "value": 1, "if": {"race": "elf"}})["rewards"]["treasures"] == 3
    assert fight(player(), {"stat": "treasures", "value": 1, "if": {"race": "elf"}})["rewards"]["treasures"] == 2


def check_levels():
    strong = player(1, level=9)
    assert fight(strong, {"stat": "levels", "value": 1}, level=1)["rewards"]["fighter_levels"] == 2


def check_no_pursuit():
    rule = {"stat": "no_pursuit", "value": 4, "if": {"not_race": "elf"}}
    assert escape(fight(player(level=4), rule)).get("not_pursued") is True
    assert escape(fight(player(level=4), rule))["needs"] == 1
    assert not escape(fight(player(level=5), rule)).get("not_pursued")
    assert not escape(fight(player(1, race("Elf"), level=1), rule)).get("not_pursued")


def check_chase_away():
    state = engine.new_game("EFFX1", "classic")
    ann = engine.add_player(state, "Ann", "male")
    engine.add_player(state, "Bob", "male")
    engine.add_player(state, "Cid", "male")
    vampire = {"kind": "monster", "name": "V", "level": 12, "treasures": 3,
               "effects": [{"stat": "chase_away", "if": {"class": "cleric"}}]}
    host = Actor(host=True)
    plain, _ = engine.apply(state, {"type": "fight", "player": ann, "monster": vampire}, host)
    assert plain["combat"]["monsters"][0]["gone"] is False
    state, _ = engine.apply(state, {"type": "play", "player": ann, "card": "classic/cleric"}, host)
    state, _ = engine.apply(state, {"type": "fight", "player": ann, "monster": vampire}, host,
                            rng=random.Random(1))
    assert state["combat"]["monsters"][0]["gone"] is True


def check_no_escape():
    assert escape(fight(player(), {"stat": "no_escape"}))["needs"] == 7
    assert escape(fight(player(), {"stat": "no_escape"}))["chance"] == 0


STAT_CHECKS = {
    "strength": check_strength, "run_away": check_run_away, "hand_limit": check_hand_limit,
    "big_items": check_big_items, "wins_ties": check_wins_ties,
    "helper_levels": check_helper_levels, "level_only": check_level_only,
    "auto_escape": check_auto_escape, "treasures": check_treasures, "levels": check_levels,
    "no_pursuit": check_no_pursuit, "chase_away": check_chase_away, "no_escape": check_no_escape,
}


# --- each key of an ``if``, ``per`` and ``drawback`` -------------------------------------------

def bonus_if(cond):
    return {"stat": "strength", "value": 3, "if": cond}


def monster_meets(cond, who, **kw) -> bool:
    return fight(who, bonus_if(cond), **kw)["monsters_strength"] == 8


def check_if_race():
    assert monster_meets({"race": "elf"}, player(1, race("Elf")))
    assert not monster_meets({"race": "elf"}, player())


def check_if_class():
    assert monster_meets({"class": "wizard"}, player(1, klass("Wizard")))
    assert not monster_meets({"class": "wizard"}, player())


def check_if_sex():
    assert monster_meets({"sex": "female"}, player(sex="female"))
    assert not monster_meets({"sex": "female"}, player())


def check_if_not_race():
    assert monster_meets({"not_race": "elf"}, player())
    assert not monster_meets({"not_race": "elf"}, player(1, race("Elf")))


def check_if_not_class():
    assert monster_meets({"not_class": "wizard"}, player())
    assert not monster_meets({"not_class": "wizard"}, player(1, klass("Wizard")))


def check_if_not_sex():
    assert monster_meets({"not_sex": "female"}, player())
    assert not monster_meets({"not_sex": "female"}, player(sex="female"))


def check_if_role():
    dog = player(2, race("Dog", bonus_if({"role": "helping"})))
    assert fight(player(), helper=dog, edition=TAILS)["helper_strength"] == 4
    assert fight(dog, edition=TAILS)["fighter_strength"] == 1


def check_if_tag():
    slayer = player(1, klass("Cleric", bonus_if({"tag": "undead"})))
    assert fight(slayer, tags=["undead"])["players_strength"] == 4
    assert fight(slayer)["players_strength"] == 1


CONDITION_CHECKS = {
    "race": check_if_race, "class": check_if_class, "sex": check_if_sex, "role": check_if_role,
    "tag": check_if_tag, "not_race": check_if_not_race, "not_class": check_if_not_class,
    "not_sex": check_if_not_sex,
}


def check_per_empty_hand():
    trees = {"stat": "strength", "value": 2, "per": "empty_hand"}
    assert fight(player(), trees)["monsters_strength"] == 9
    assert fight(player(1, sword()), trees)["monsters_strength"] == 7


def check_drawback():
    halfling = race("Halfling", {"stat": "run_away", "value": -1, "drawback": True})
    alone = player(1, halfling)
    half_breed = player(1, halfling, {"kind": "half-breed", "name": "Half-Breed"})
    assert escape(fight(alone, edition=TAILS))["needs"] == 6
    assert escape(fight(half_breed, edition=TAILS))["needs"] == 5


# --- the walks -----------------------------------------------------------------------------

def test_the_data_is_read_from_every_card_file():
    assert {p.stem for p in CARD_FILES} >= {"classic", "oz", "spell-skool", "russia", "tails"}
    classic = json.loads((ROOT / "cards" / "classic.json").read_text())["cards"]
    assert len([c for c in classic if c["kind"] == "monster"]) == 37


def test_every_stat_of_the_vocabulary_and_of_the_data_has_a_check():
    assert set(STATS) == set(STAT_CHECKS)
    for where, eff in used_effects():
        assert eff["stat"] in STAT_CHECKS, where


def test_every_condition_per_and_drawback_of_the_data_has_a_check():
    assert {f.alias or name for name, f in schema.Condition.model_fields.items()} == set(CONDITION_CHECKS)
    assert set(PERS) == {"empty_hand"}
    for where, eff in used_effects():
        assert set(eff) <= {"stat", "value", "if", "per", "drawback", "choice", "printing"}, where
        assert set(eff.get("if") or {}) <= set(CONDITION_CHECKS), where
    for where, step in used_steps():
        assert set(step.get("if") or {}) <= set(CONDITION_CHECKS), where


@pytest.mark.parametrize("stat", sorted(STAT_CHECKS))
def test_the_engine_applies_each_stat(stat):
    STAT_CHECKS[stat]()


@pytest.mark.parametrize("key", sorted(CONDITION_CHECKS))
def test_the_engine_judges_each_condition_key(key):
    CONDITION_CHECKS[key]()


def test_the_engine_applies_per_empty_hand_and_drawbacks():
    check_per_empty_hand()
    check_drawback()


def test_every_bad_stuff_step_of_the_data_is_one_the_engine_applies_and_tests():
    # Each applier's own test: tests/engine/test_bad_stuff.py checks its STEP_TESTS name them all.
    assert set(BAD_STUFF_DOS) == set(APPLIERS)
    keys = {"do", "value", "which", "tag", "slug", "death_at_most", "shared", "if", "otherwise"}
    for where, step in used_steps():
        assert step["do"] in APPLIERS, where
        assert set(step) <= keys, where
        assert step.get("which") in (None, *LOSE_WHICH), where


def test_every_catalog_monster_with_bad_stuff_has_it_as_steps():
    for where, card in raw_cards():
        if card["kind"] == "monster" and "bad_stuff" in card:
            assert "steps" in card["bad_stuff"], where
            assert set(card["bad_stuff"]) <= {"summary", "steps", "on_flee"}, where


def test_the_monsters_done_by_hand_are_listed_with_a_reason_in_engine_md():
    doc = (ROOT / "docs" / "ENGINE.md").read_text()
    section = doc.split("### Bad Stuff done by hand", 1)[1].split("\n## ", 1)[0]
    manual = {card["name"] for where, card in raw_cards() if any(
        step["do"] == "manual" for _, step in walk_steps((card.get("bad_stuff") or {}).get("steps"), where))}
    assert manual
    listed = set(re.findall(r"^\| ([^|]+?) \|", section, re.M)) - {"monster", "---"}
    assert listed == manual


@pytest.mark.parametrize("bad_stuff, message", [
    ({"steps": [{"do": "lose_levels"}]}, "needs a 'value'"),
    ({"steps": [{"do": "lose_items"}]}, "needs 'which' or 'tag'"),
    ({"steps": [{"do": "death", "value": 2}]}, "takes no value"),
    ({"steps": [{"do": "fly_away"}]}, "do"),
    ({"steps": [{"do": "lose_levels", "value": 2}], "levels": 3}, "the steps lose 2"),
    ({"steps": [{"do": "death"}], "death": False}, "the steps say True"),
])
def test_a_bad_stuff_step_that_does_not_fit_its_kind_is_refused(bad_stuff, message):
    from companion.catalog import CatalogError, validate_card

    with pytest.raises(CatalogError, match=re.escape(message)):
        validate_card({"set": "house", "kind": "monster", "name": "Oddity", "level": 3,
                       "summary": "Odd.", "bad_stuff": bad_stuff})


def test_derived_levels_and_death_round_trip_through_a_house_card_file():
    from companion.catalog import export_cards, import_cards, validate_card

    card = validate_card({"set": "house", "kind": "monster", "name": "Oddity", "level": 3,
                          "summary": "Odd.", "bad_stuff": {"steps": [
                              {"do": "lose_items", "which": "headgear"},
                              {"do": "lose_levels", "value": 2}]}})
    assert (card["bad_stuff"]["levels"], card["bad_stuff"]["death"]) == (2, False)
    assert import_cards(export_cards([card]))[0]["bad_stuff"] == card["bad_stuff"]
