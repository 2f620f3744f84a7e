"""The classic monsters whose rules were only in words are conditions the fight applies (or a
choice it offers), one test per card, played through ``engine.apply`` with the catalog's
own cards. Every ``fight_rules`` word of the card files has a check here (as
tests/test_catalog_effects.py does for ``effects``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import rulebase
from companion.catalog import load_catalog
from companion.engine.card_schema import FIGHT_RULES
from companion.engine import combat, editions
from companion.engine.rules import TableRules

from .driver import Game

ROOT = Path(__file__).resolve().parents[2]
CATALOG = load_catalog()
CLASSIC = editions.get("classic")


def card(name: str) -> dict:
    found = CATALOG.search(name, set="classic", limit=1)
    assert found and found[0]["name"] == name, (name, found[:1])
    return found[0]


def cid(name: str) -> str:
    return card(name)["id"]


SWORD = {"kind": "item", "name": "Sword", "bonus": 3, "slot": "1-hand", "gold": 400}
HAT = {"kind": "item", "name": "Hat", "bonus": 1, "slot": "headgear", "gold": 100}


def at_level(g: Game, name: str, level: int) -> None:
    g.level(name, level)


# ---------------------------------------------------------------- Insurance Salesman

def test_insurance_salesman_counts_only_bonuses_not_levels():
    g = Game("classic")
    at_level(g, "Ann", 6)
    at_level(g, "Bob", 5)
    g.play("Ann", SWORD)
    g("Ann", type="fight", player=g.ids["Ann"], monster=cid("Insurance Salesman"))
    assert g.view["level_ignored"] is True
    assert g.view["fighter_strength"] == 3  # the Sword alone; level 6 does not count
    g.helps("Bob")
    assert g.view["players_strength"] == 3  # Bob's level 5 does not count either
    # the same fight against a plain monster counts both levels
    plain = Game("classic")
    at_level(plain, "Ann", 6)
    plain.play("Ann", SWORD)
    plain("Ann", type="fight", player=plain.ids["Ann"],
          monster={"kind": "monster", "name": "Clerk", "level": 14, "treasures": 4})
    assert plain.view["fighter_strength"] == 9 and plain.view["level_ignored"] is False


@settings(max_examples=40, deadline=None)
@given(level=st.integers(1, 9), bonus=st.integers(0, 12))
def test_against_the_insurance_salesman_the_players_strength_is_their_bonus_whatever_the_level(level, bonus):
    fighter = {"id": 1, "name": "A", "level": level, "sex": "male", "gear_adjust": bonus,
               "dead": False, "cards": []}
    view = combat.compute(rules=TableRules.chosen(CLASSIC), fighter=fighter, helper=None,
                          monsters=[{"card": card("Insurance Salesman"), "enhancers": []}], one_shots=[])
    assert view["players_strength"] == bonus
    assert all(line["source"] != {"said": "Level"} for line in view["breakdown"]["fighter"])


# ---------------------------------------------------------------- Gazebo

def test_nobody_may_help_against_the_gazebo():
    g = Game("classic")
    g("Ann", type="fight", player=g.ids["Ann"], monster=cid("Gazebo"))
    refusal = g.refused("Bob", type="help", player=g.ids["Bob"])
    assert refusal.rule == "monster-no-help" and refusal.citation.startswith("Munchkin (classic rules)")
    assert not g.may("Bob", "help", player=g.ids["Bob"])


def test_a_helper_already_in_drops_out_when_the_gazebo_joins():
    g = Game("classic")
    g("Ann", type="fight", player=g.ids["Ann"], monster={"kind": "monster", "name": "Rat", "level": 1})
    g.helps("Bob")
    line = g.line("host", type="add_monster", monster=cid("Gazebo"))
    assert g.stored["helper"] is None and g.view["helper"] is None
    assert "nobody may help against Gazebo" in line


# ---------------------------------------------------------------- Stoned Golem

def test_anyone_but_a_halfling_walks_past_the_stoned_golem_with_no_roll_offered():
    g = Game("classic")
    g("Ann", type="fight", player=g.ids["Ann"], monster=cid("Stoned Golem"))
    line = g.line("Ann", type="resolve")
    assert "Ann escapes Stoned Golem automatically, without a roll" in line
    row = g.view["escape"][0]
    assert row["auto"] is True and row["escaped"] is True and row["roll"] is None
    assert not g.may("Ann", "run_away", player=g.ids["Ann"], monster=0)  # no die to roll
    assert g.p("Ann")["dead"] is False and g.p("Ann")["level"] == 1


def test_a_halfling_must_roll_from_the_stoned_golem_and_is_eaten_on_a_miss():
    g = Game("classic")
    g.play("Ann", card("Halfling"))
    g.lose_to(cid("Stoned Golem"), roll=1)
    assert g.view["escape"][0]["auto"] is False
    assert g.p("Ann")["dead"] is True


# ---------------------------------------------------------------- Pit Bull

def _losing_to_the_pit_bull(*cards):
    g = Game("classic")
    g.play("Ann", *cards)
    g("Ann", type="fight", player=g.ids["Ann"], monster=cid("Pit Bull"), level=9)
    g("Ann", type="resolve")
    return g


def test_dropping_a_pole_gets_you_away_from_the_pit_bull_without_a_roll():
    g = _losing_to_the_pit_bull(card("Eleven-Foot Pole"), HAT)
    assert g.view["escape"][0]["drop_to_escape"] == ["pole", "staff", "wand"]
    line = g.line("Ann", type="discard", player=g.ids["Ann"], instance=g.iid("Ann", "Eleven-Foot Pole"))
    assert "drops Eleven-Foot Pole and gets away from Pit Bull" in line
    assert g.stored["escapes"] == [{"player": g.ids["Ann"], "monster": 0, "roll": None,
                                    "escaped": True, "dropped": True}]
    assert g.p("Ann")["level"] == 1 and g.view["stage"] == "over"


def test_dropping_anything_else_does_not_get_you_away_from_the_pit_bull():
    g = _losing_to_the_pit_bull(card("Eleven-Foot Pole"), HAT)
    g("Ann", type="discard", player=g.ids["Ann"], instance=g.iid("Ann", "Hat"))
    assert g.stored["escapes"] == [] and g.view["stage"] == "running"
    assert "Eleven-Foot Pole" in g.names("Ann")


def test_without_a_wand_pole_or_staff_there_is_no_such_way_out():
    g = _losing_to_the_pit_bull(HAT)
    assert "drop_to_escape" in g.view["escape"][0]  # the card offers it; nothing to drop
    g("Ann", type="discard", player=g.ids["Ann"], instance=g.iid("Ann", "Hat"))
    assert g.stored["escapes"] == []


# ---------------------------------------------------------------- Tongue Demon

def test_the_tongue_demon_takes_an_item_of_the_fighters_choice_before_the_fight_is_decided():
    g = Game("classic")
    at_level(g, "Ann", 9)
    g.play("Ann", SWORD, HAT)
    g("Ann", type="fight", player=g.ids["Ann"], monster=cid("Tongue Demon"), level=1)
    (loss,) = g.state["players"][0]["pending_losses"]
    assert loss["card"] == "Tongue Demon" and len(loss["candidates"]) == 2
    assert g.refused("Ann", type="resolve").rule == "monster-discard-item-first"
    g("Ann", type="discard", player=g.ids["Ann"], instance=g.iid("Ann", "Hat"))
    assert g.names("Ann", "item") == ["Sword"]
    assert "wins" in g.line("Ann", type="resolve")


def test_a_single_item_goes_to_the_tongue_demon_at_once():
    g = Game("classic")
    g.play("Ann", SWORD)
    line = g.line("Ann", type="fight", player=g.ids["Ann"], monster=cid("Tongue Demon"))
    assert g.names("Ann", "item") == [] and "discards Sword before the fight" in line
    assert "pending_losses" not in g.state["players"][0]


# ---------------------------------------------------------------- Large Angry Chicken, Pukachu

def _levels_won(g: Game) -> int:
    before = g.p("Ann")["level"]
    g("Ann", type="resolve")
    return g.p("Ann")["level"] - before


def test_the_large_angry_chicken_gives_a_level_more_when_killed_with_fire():
    fire = Game("classic")
    fire.play("Ann", card("Flaming Armor"))
    fire("Ann", type="fight", player=fire.ids["Ann"], monster=cid("Large Angry Chicken"))
    assert fire.view["monsters"][0]["levels"] == 2
    assert _levels_won(fire) == 2
    plain = Game("classic")
    plain.play("Ann", SWORD)
    plain("Ann", type="fight", player=plain.ids["Ann"], monster=cid("Large Angry Chicken"))
    assert _levels_won(plain) == 1


def test_a_fire_potion_on_the_players_side_counts_as_fire_for_the_chicken():
    g = Game("classic")
    at_level(g, "Ann", 3)
    g("Ann", type="fight", player=g.ids["Ann"], monster=cid("Large Angry Chicken"))
    assert g.view["monsters"][0]["levels"] == 1
    g("Bob", type="one_shot", side="players", card=cid("Flaming Poison Potion"))
    assert g.view["monsters"][0]["levels"] == 2


def test_pukachu_gives_a_level_more_with_no_help_and_no_bonus():
    alone = Game("classic")
    at_level(alone, "Ann", 7)
    alone("Ann", type="fight", player=alone.ids["Ann"], monster=cid("Pukachu"))
    assert _levels_won(alone) == 2
    armed = Game("classic")
    at_level(armed, "Ann", 7)
    armed.play("Ann", SWORD)
    armed("Ann", type="fight", player=armed.ids["Ann"], monster=cid("Pukachu"))
    assert armed.view["monsters"][0]["levels"] == 1
    helped = Game("classic")
    at_level(helped, "Ann", 7)
    helped("Ann", type="fight", player=helped.ids["Ann"], monster=cid("Pukachu"))
    helped.helps("Bob")
    assert helped.view["monsters"][0]["levels"] == 1


# ---------------------------------------------------------------- Floating Nose

def test_nobody_runs_away_from_the_floating_nose_once_they_lose():
    g = Game("classic")
    at_level(g, "Ann", 5)
    g("Ann", type="fight", player=g.ids["Ann"], monster=cid("Floating Nose"))
    g("Ann", type="resolve")
    row = g.view["escape"][0]
    assert row["needs"] == 7 and row["chance"] == 0 and row["rule"] == "monster-no-escape"
    g("Ann", type="run_away", player=g.ids["Ann"], monster=0, roll=6)
    assert g.p("Ann")["level"] == 2  # caught: three levels lost
    assert rulebase.get_ruling(row["rule"])["citations"]


# ---------------------------------------------------------------- the data

def _fight_rules_in_the_data():
    for path in sorted((ROOT / "cards").glob("*.json")):
        for c in json.loads(path.read_text())["cards"]:
            for rule in c.get("fight_rules") or ():
                yield f"{path.name}: {c['name']}", rule


# each word, the test above that shows the engine acting on it
CHECKS = {
    "level_ignored": test_insurance_salesman_counts_only_bonuses_not_levels,
    "no_help": test_nobody_may_help_against_the_gazebo,
    "discard_item_first": test_the_tongue_demon_takes_an_item_of_the_fighters_choice_before_the_fight_is_decided,
    "drop_to_escape": test_dropping_a_pole_gets_you_away_from_the_pit_bull_without_a_roll,
    "extra_levels": test_pukachu_gives_a_level_more_with_no_help_and_no_bonus,
}
# each word, the ruling a player reads about it (rulings/monsters.json)
RULINGS = {"level_ignored": "monster-level-ignored", "no_help": "monster-no-help",
           "discard_item_first": "monster-discard-item-first",
           "drop_to_escape": "monster-drop-to-escape", "extra_levels": "monster-extra-levels"}


def test_every_fight_rule_word_has_a_check_and_a_ruling():
    assert set(CHECKS) == set(FIGHT_RULES) == set(RULINGS)
    used = list(_fight_rules_in_the_data())
    assert {r["rule"] for _, r in used} == set(FIGHT_RULES)
    for where, rule in used:
        assert rule["rule"] in CHECKS, where
    for rid in RULINGS.values():
        ruling = rulebase.get_ruling(rid)
        assert ruling and ruling["editions"] == ["classic"] and ruling["citations"], rid


@pytest.mark.parametrize("bad,message", [
    ({"rule": "drop_to_escape"}, "names the tags"),
    ({"rule": "extra_levels", "value": 1}, "needs a 'value' and 'tags' or 'alone'"),
    ({"rule": "no_help", "value": 2}, "takes no value"),
    ({"rule": "fly_away"}, "rule"),
])
def test_a_fight_rule_that_does_not_fit_is_refused(bad, message):
    from companion.catalog import CatalogError, validate_card

    with pytest.raises(CatalogError, match=message):
        validate_card({"set": "house", "name": "X", "kind": "monster", "level": 1,
                       "fight_rules": [bad]})


def test_the_issues_copy_counts_and_the_old_printing_name():
    assert card("Wandering Monster")["copies"] == 3
    assert card("Magic Lamp")["copies"] == 1
    for name in ("Wandering Monster", "Magic Lamp", "Floating Nose"):
        assert "hawkinscm" in card(name)["disagreement"], name
    found = CATALOG.search("Mutilate the Bodies", limit=1)
    assert found and found[0]["name"] == "Mow the Battlefield"
