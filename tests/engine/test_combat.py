"""The fight: strengths, monster effects, Mate, ties, rewards and running away."""

import pytest

from companion.engine import combat, editions
from companion.engine.rules import TableRules
from companion.engine.words import render

CLASSIC, OZ, SKOOL, RUSSIA, TAILS = (editions.get(e) for e in
                                     ("classic", "oz", "spell-skool", "russia", "tails"))


def player(pid, *cards, level=1, sex="male", gear_adjust=0):
    return {"id": pid, "name": f"P{pid}", "level": level, "sex": sex,
            "gear_adjust": gear_adjust, "dead": False,
            "cards": [{"iid": pid * 100 + i, "card": c, "equipped": c["kind"] == "item"}
                      for i, c in enumerate(cards)]}


def monster(name="Thing", level=1, treasures=1, *effects, **extra):
    return {"kind": "monster", "name": name, "level": level, "treasures": treasures,
            "effects": list(effects), **extra}


def enhancer(name, bonus, treasures=0, **extra):
    return {"kind": "enhancer", "name": name, "bonus": bonus, "treasures": treasures, **extra}


def item(name, bonus, slot="other", **extra):
    return {"kind": "item", "name": name, "bonus": bonus, "slot": slot, "gold": 100, **extra}


def shot(name, bonus, side="players", **extra):
    return {"side": side, "card": {"kind": "one-shot", "name": name, "bonus": bonus}, **extra}


def fight(fighter, *monsters, helper=None, one_shots=(), edition=CLASSIC, variants=None, **kw):
    ms = [m if "card" in m else {"card": m, "enhancers": []} for m in monsters]
    return combat.compute(rules=TableRules.chosen(edition, variants), fighter=fighter,
                          helper=helper, monsters=ms, one_shots=list(one_shots), **kw)


ELF = {"kind": "race", "name": "Elf", "effects": [
    {"stat": "run_away", "value": 1},
    {"stat": "helper_levels", "value": True, "if": {"role": "helping"}}]}
HALFLING = {"kind": "race", "name": "Halfling",
            "effects": [{"stat": "run_away", "value": -1, "drawback": True}]}
WARRIOR = {"kind": "class", "name": "Warrior", "effects": [{"stat": "wins_ties", "value": True}]}
WIZARD = {"kind": "class", "name": "Wizard"}
CLERIC = {"kind": "class", "name": "Cleric"}
HALF_BREED = {"kind": "half-breed", "name": "Half-Breed"}
SUPER = {"kind": "super-munchkin", "name": "Super Munchkin"}
SLIME = monster("Drooling Slime", 1, 1, {"stat": "strength", "value": 4, "if": {"race": "elf"}})


# ---------------------------------------------------------------- both sides


def test_fighter_strength_is_level_plus_equipped_usable_gear():
    p = player(1, item("Sword", 3, "1-hand"), item("Staff", 5, "2-hands",
                                                    requires={"class": "wizard"}), level=4)
    view = fight(p, monster(level=1))
    assert view["fighter_strength"] == 7
    # "Level" is a word (a said, in the reader's language); "Sword" is a card name (a fact).
    assert [(render(b["source"]), b["value"]) for b in view["breakdown"]["fighter"]] == [
        ("Level", 4), ("Sword", 3)]


def test_monster_bonus_against_elves_applies_once_even_with_two_elves():
    view = fight(player(1, ELF), SLIME, helper=player(2, ELF))
    assert view["monsters"][0]["strength"] == 1 + 4


def test_an_elf_helper_makes_the_slime_stronger_when_the_fighter_is_not_an_elf():
    assert fight(player(1), SLIME)["monsters_strength"] == 1
    assert fight(player(1), SLIME, helper=player(2, ELF))["monsters_strength"] == 5


def test_monster_penalty_against_a_class_applies_to_a_class_helper():
    bear = monster("Bear", 8, 2, {"stat": "strength", "value": -3, "if": {"class": "cossack"}})
    cossack = {"kind": "class", "name": "Cossack"}
    assert fight(player(1), bear, helper=player(2, cossack),
                 edition=RUSSIA)["monsters_strength"] == 5


@pytest.mark.parametrize("edition", [OZ, RUSSIA, TAILS], ids=lambda e: e.id)
def test_lone_class_with_super_munchkin_gives_no_monster_bonus_but_suffers_its_penalties(edition):
    wizard = {"kind": "class", "name": "Wizard"}
    hates = monster("Hater", 5, 1, {"stat": "strength", "value": 4, "if": {"class": "wizard"}})
    fears = monster("Fearful", 5, 1, {"stat": "strength", "value": -2, "if": {"class": "wizard"}})
    assert fight(player(1, wizard), hates, edition=edition)["monsters_strength"] == 9
    assert fight(player(1, wizard, SUPER), hates, edition=edition)["monsters_strength"] == 5
    assert fight(player(1, wizard, SUPER), fears, edition=edition)["monsters_strength"] == 3
    two = player(1, wizard, {"kind": "class", "name": "Thief"}, SUPER)
    assert fight(two, hates, edition=edition)["monsters_strength"] == 9


def test_lone_race_with_half_breed_gives_no_monster_bonus_in_tails_nor_in_classic():
    # Tails by its rulebook, classic by its Half-Breed card (ruling half-breed-single-race-classic)
    mouse = {"kind": "race", "name": "Mouse"}
    chihuahua = monster("Chihuahua", 6, 2, {"stat": "strength", "value": 4,
                                            "if": {"race": "mouse"}})
    assert fight(player(1, mouse, HALF_BREED), chihuahua, edition=TAILS)["monsters_strength"] == 6
    assert fight(player(1, ELF, HALF_BREED), SLIME, edition=CLASSIC)["monsters_strength"] == 1
    assert fight(player(1, ELF), SLIME, edition=CLASSIC)["monsters_strength"] == 5


def test_a_sex_condition_on_a_monster():
    m = monster("Flirt", 4, 1, {"stat": "strength", "value": 3, "if": {"sex": "female"}})
    assert fight(player(1, sex="female"), m)["monsters_strength"] == 7
    assert fight(player(1), m)["monsters_strength"] == 4


def test_per_empty_hand_counts_the_empty_hands_of_every_player_facing_the_monster():
    trees = monster("Trees", 10, 3, {"stat": "strength", "value": 2, "per": "empty_hand"})
    pole = item("Pole", 3, "2-hands")
    unusable = item("Staff", 4, "1-hand", requires={"class": "wizard"})
    assert fight(player(1, pole), trees)["monsters_strength"] == 10
    assert fight(player(1, unusable), trees)["monsters_strength"] == 14
    assert fight(player(1, pole), trees, helper=player(2, item("Dagger", 1, "1-hand")),
                 edition=OZ)["monsters_strength"] == 12


def test_level_only_monster_ignores_item_bonuses_for_the_whole_fight():
    strict = monster("Strict", 3, 1, {"stat": "level_only", "value": True})
    p = player(1, WARRIOR, item("Sword", 5, "1-hand"), level=4, gear_adjust=2)
    view = fight(p, strict, monster("Other", 2))
    assert view["level_only"]
    assert view["fighter_strength"] == 4
    assert view["monsters_strength"] == 5
    assert fight(p, monster("Other", 2))["fighter_strength"] == 11


def test_monsters_win_ties():
    view = fight(player(1, level=5), monster(level=5))
    assert not view["winning"] and view["needed"] == 1


@pytest.mark.parametrize("who", ["fighter", "helper"])
def test_a_warrior_on_the_players_side_wins_ties(who):
    warrior, plain = player(1, WARRIOR, level=3), player(2, level=3)
    fighter, helper = (warrior, plain) if who == "fighter" else (plain, warrior)
    view = fight(fighter, monster(level=6), helper=helper)
    assert view["wins_ties"] and view["winning"] and view["needed"] == 0


def test_role_abilities_count_only_in_that_role():
    dog = {"kind": "race", "name": "Dog",
           "effects": [{"stat": "strength", "value": 4, "if": {"role": "helping"}}]}
    pony = {"kind": "race", "name": "Pony",
            "effects": [{"stat": "strength", "value": 3, "if": {"role": "helped"}}]}
    assert fight(player(1, dog, level=3), monster())["fighter_strength"] == 3
    assert fight(player(1, pony, level=3), monster())["fighter_strength"] == 3
    view = fight(player(1, pony, level=3), monster(), helper=player(2, dog, level=3),
                 edition=TAILS)
    assert (view["fighter_strength"], view["helper_strength"]) == (6, 7)


def test_an_item_bonus_against_a_tag_needs_such_a_monster_in_the_fight():
    mace = item("Holy Mace", 2, "1-hand",
                effects=[{"stat": "strength", "value": 3, "if": {"tag": "undead"}}])
    p = player(1, mace, level=1)
    assert fight(p, monster("Ghost", tags=["undead"]))["fighter_strength"] == 6
    assert fight(p, monster("Rat"))["fighter_strength"] == 3


def test_staying_curses_and_allies_count_in_the_fight():
    curse = {"kind": "curse", "name": "Change Sex", "bonus": -5, "duration": "next_fight"}
    ally = {"kind": "ally", "name": "Toto", "bonus": 2}
    assert fight(player(1, curse, ally, level=8), monster(), edition=OZ)["fighter_strength"] == 5


def test_one_shots_add_to_the_side_they_were_played_on():
    view = fight(player(1, level=2), monster(level=3), helper=player(2, level=1),
                 one_shots=[shot("Potion", 2), shot("Brew", 3, **{"for": 2}),
                            shot("Poison", 4, side="monsters")])
    assert view["fighter_strength"] == 4
    assert view["helper_strength"] == 4
    assert view["monsters_strength"] == 7
    assert view["breakdown"]["monsters"] == [{"source": "Poison", "value": 4}]


def test_a_monster_one_shot_aimed_at_one_monster_shows_on_it():
    view = fight(player(1), monster("A", 2), monster("B", 3),
                 one_shots=[shot("Rage", 2, side="monsters", monster=1)])
    assert [m["strength"] for m in view["monsters"]] == [2, 5]
    assert view["monsters_strength"] == 7


# ---------------------------------------------------------------- several monsters, Mate, gone


def test_several_monsters_are_fought_with_their_combined_strength():
    view = fight(player(1, level=6), monster("A", 2, 1), monster("B", 3, 2, levels=2))
    assert view["monsters_strength"] == 5 and view["winning"]
    assert view["rewards"] == {"treasures": 3, "fighter_levels": 3, "helper_levels": 0,
                               "shared_victory": False}


def test_mate_copies_the_monster_with_every_enhancer_on_it():
    mate = enhancer("Mate", 0, mate=True)
    ms = [{"card": monster("Orc", 4, 2), "enhancers": [enhancer("Ancient", 10, 2), mate,
                                                        enhancer("Baby", -5, -1)]}]
    view = combat.compute(rules=TableRules.chosen(TAILS), fighter=player(1, level=9), helper=None,
                          monsters=ms, one_shots=[])
    orc, copy = view["monsters"]
    assert (orc["strength"], copy["strength"]) == (9, 9)
    assert (orc["treasures"], copy["treasures"]) == (3, 3)
    assert copy["mate"] and copy["mate_of"] == 0 and copy["index"] == 1
    assert view["monsters_strength"] == 18
    assert view["rewards"]["treasures"] == 6 and view["rewards"]["fighter_levels"] == 2


def test_mate_placed_before_or_after_the_other_enhancers_gives_the_same_fight():
    mate, ancient = enhancer("Mate", 0, mate=True), enhancer("Ancient", 10, 2)
    a = fight(player(1), {"card": monster("Orc", 4, 2), "enhancers": [mate, ancient]})
    b = fight(player(1), {"card": monster("Orc", 4, 2), "enhancers": [ancient, mate]})
    assert a["monsters_strength"] == b["monsters_strength"] == 28
    assert a["rewards"] == b["rewards"]


def test_a_gone_monster_counts_no_strength_gives_its_treasures_but_no_level():
    view = fight(player(1, level=2), {"card": monster("A", 20, 3), "enhancers": [],
                                      "gone": True}, monster("B", 1, 1))
    assert view["monsters_strength"] == 1 and view["winning"]
    assert view["rewards"]["treasures"] == 4 and view["rewards"]["fighter_levels"] == 1
    assert [e["monster"] for e in view["escape"]] == [1]


def test_extra_treasures_for_a_kill_by_a_given_race():
    m = monster("Shiny", 2, 1, {"stat": "treasures", "value": 2, "if": {"race": "elf"}})
    assert fight(player(1, ELF, level=5), m)["rewards"]["treasures"] == 3
    assert fight(player(1, level=5), m)["rewards"]["treasures"] == 1


# ---------------------------------------------------------------- rewards for the helper


def test_classic_elf_helper_gains_a_level_per_monster_killed():
    view = fight(player(1, level=5), monster("A"), monster("B"), helper=player(2, ELF))
    assert view["rewards"]["helper_levels"] == 2
    assert view["rewards"]["fighter_levels"] == 2


def test_no_helper_levels_where_the_edition_gives_none_even_for_an_elf_card():
    view = fight(player(1, level=5), monster("A"), helper=player(2, ELF), edition=TAILS)
    assert view["rewards"]["helper_levels"] == 0


def test_a_non_elf_helper_gains_no_level_in_classic():
    view = fight(player(1, level=5), monster("A"), helper=player(2, WARRIOR))
    assert view["rewards"]["helper_levels"] == 0


def test_tails_forced_helper_does_not_count_in_a_fight_for_the_win():
    args = dict(helper=player(2, level=9), edition=TAILS, helper_forced=True)
    view = fight(player(1, level=9), monster(level=12), **args)
    assert view["for_the_win"] and not view["helper_counts"]
    assert view["players_strength"] == 9 and not view["winning"]
    calm = fight(player(1, level=5), monster(level=12), **args)
    assert calm["helper_counts"] and calm["players_strength"] == 14


def test_a_voluntary_helper_counts_in_a_fight_for_the_win_and_so_does_a_forced_one_in_classic():
    assert fight(player(1, level=9), monster(level=12), helper=player(2, level=9),
                 edition=TAILS)["winning"]
    assert fight(player(1, level=9), monster(level=12), helper=player(2, level=9),
                 helper_forced=True)["winning"]


def test_shared_victory_variant_lets_the_helper_win_too():
    args = dict(helper=player(2, level=3), edition=OZ)
    assert fight(player(1, level=9), monster(), variants={"shared_victory": True},
                 **args)["rewards"]["shared_victory"]
    assert not fight(player(1, level=9), monster(), **args)["rewards"]["shared_victory"]
    assert not fight(player(1, level=5), monster(), variants={"shared_victory": True},
                     **args)["rewards"]["shared_victory"]


# ---------------------------------------------------------------- running away


def test_escape_needs_five_or_more_without_modifiers():
    (row,) = fight(player(1), monster(level=9))["escape"]
    assert row == {"player": 1, "monster": 0, "needs": 5, "chance": 0.333, "auto": False,
                   "parts": [{"source": {"said": "Bare roll to escape"}, "value": 5, "base": True}]}


def test_the_escape_row_says_what_makes_up_the_roll_needed():
    fast = monster("Fast", 9, 1, {"stat": "run_away", "value": -2})
    (row,) = fight(player(1, ELF), fast)["escape"]
    assert [part["value"] for part in row["parts"]] == [5, 1, -2]  # bare roll, the Elf, the monster
    assert row["needs"] == 5 - 1 + 2


def test_elves_escape_on_four_and_halflings_on_six():
    assert fight(player(1, ELF), monster(level=9))["escape"][0]["needs"] == 4
    assert fight(player(1, HALFLING), monster(level=9))["escape"][0]["needs"] == 6
    assert fight(player(1, ELF), monster(level=9))["escape"][0]["chance"] == 0.5


def test_a_fast_monster_penalty_counts_only_for_the_players_it_names():
    fast = monster("Fast", 9, 1, {"stat": "run_away", "value": -2, "if": {"race": "elf"}})
    view = fight(player(1), fast, helper=player(2, ELF))
    needs = {row["player"]: row["needs"] for row in view["escape"]}
    assert needs == {1: 5, 2: 5 - (1 - 2)}  # the Elf's +1 and the monster's -2


def test_escape_roll_is_clamped_so_chance_stays_between_none_and_certain():
    slow = monster("Slow", 9, 1, {"stat": "run_away", "value": 9})
    fast = monster("Fast", 9, 1, {"stat": "run_away", "value": -9})
    assert fight(player(1), slow)["escape"][0]["needs"] == 1
    assert fight(player(1), slow)["escape"][0]["chance"] == 1.0
    row = fight(player(1), fast)["escape"][0]
    assert row["needs"] == 7 and row["chance"] == 0.0


def test_auto_escape_needs_no_roll():
    lazy = monster("Lazy", 9, 1, {"stat": "auto_escape", "value": True, "if": {"class": "cleric"}})
    view = fight(player(1), lazy, helper=player(2, CLERIC))
    rows = {row["player"]: row for row in view["escape"]}
    assert rows[2]["auto"] and rows[2]["chance"] == 1.0
    assert not rows[1]["auto"] and rows[1]["needs"] == 5


def test_each_player_rolls_against_each_monster_and_recorded_rolls_show():
    view = fight(player(1), monster("A", 9), monster("B", 9), helper=player(2),
                 stage="running", escapes=[{"player": 1, "monster": 0, "roll": 6,
                                            "escaped": True}])
    assert view["stage"] == "running"
    assert [(r["player"], r["monster"]) for r in view["escape"]] == [(1, 0), (2, 0), (1, 1),
                                                                      (2, 1)]
    assert view["escape"][0]["roll"] == 6 and view["escape"][0]["escaped"]


# ---------------------------------------------------------------- the calculator


def test_calculator_player_turns_plain_numbers_and_names_into_a_player():
    p = combat.calculator_player({"level": 4, "gear": 3, "items": [item("Sword", 2, "1-hand")],
                                  "races": ["Elf", "Dwarf"], "classes": ["Warrior"],
                                  "sex": "female"})
    view = combat.compute(rules=TableRules.chosen("classic"), fighter=p, helper=None,
                          monsters=[{"card": SLIME, "enhancers": []}], one_shots=[])
    assert view["fighter"] == "fighter"
    assert view["fighter_strength"] == 4 + 3 + 2
    assert view["monsters_strength"] == 5
    assert [c["card"]["kind"] for c in p["cards"]] == ["race", "race", "half-breed", "class",
                                                       "item"]
    assert view["escape"][0]["player"] == "fighter"


def test_calculator_player_looks_names_up_when_given_a_resolver():
    cards = {("class", "Warrior"): WARRIOR}
    p = combat.calculator_player({"level": 3, "classes": ["Warrior"]},
                                 resolve=lambda kind, name: cards.get((kind, name)))
    assert fight(p, monster(level=3))["winning"]


def test_a_not_female_item_gives_a_female_character_nothing():
    # The card schema accepts requires.not_sex; it used to be checked nowhere, so she got it.
    skirt = item("Kilt", 3, requires={"not_sex": "female"})
    assert fight(player(1, skirt, level=1, sex="female"), monster(level=5))["fighter_strength"] == 1
    assert fight(player(1, skirt, level=1, sex="male"), monster(level=5))["fighter_strength"] == 4


def test_an_elves_only_one_shot_counts_for_an_elf_helper_whoever_played_it():
    # An "if Elf" potion (Yuppie Water) counts its bonus once for the players' side when the
    # one it is for is an Elf, or else the other player on the side is: at a table
    # the one it is for is whoever played it.
    elf_potion = {"kind": "one-shot", "name": "Elf Brew", "bonus": 0,
                  "effects": [{"stat": "strength", "value": 3, "if": {"race": "elf"}}]}
    elf = player(2, {"kind": "race", "name": "Elf", "slug": "elf"}, level=1)
    by_helper = fight(player(1, level=1), monster(level=9), helper=elf,
                      one_shots=[{"side": "players", "card": elf_potion, "by": 2}])
    by_fighter = fight(player(1, level=1), monster(level=9), helper=elf,
                       one_shots=[{"side": "players", "card": elf_potion, "by": 1}])
    assert by_helper["players_strength"] == by_fighter["players_strength"] == 1 + 1 + 3
    assert by_helper["helper_strength"] == by_fighter["helper_strength"] == 4
    no_elf = fight(player(1, level=1), monster(level=9), helper=player(2, level=1),
                   one_shots=[{"side": "players", "card": elf_potion, "by": 1}])
    assert no_elf["players_strength"] == 2
