"""The four worked combat examples of the rulebooks, step by step, every number as printed.

Oz (Example of Combat): Enrique and the Fighting Trees. Spell Skool (Example of Combat):
Rupert and the Ex-Librarian. Russia (Example of Combat): Natasha, Boris and the Smashing
Bear. Tails (Example of Combat): Chuck, Mel and the Corral Snake. Cards are written inline
with only the facts the examples give.
"""

from companion.engine import combat, editions, help as helping
from companion.engine.rules import TableRules

OZ, SKOOL, RUSSIA, TAILS = (editions.get(e) for e in ("oz", "spell-skool", "russia", "tails"))


def player(pid, name, level, *cards, sex="male"):
    return {"id": pid, "name": name, "level": level, "sex": sex, "gear_adjust": 0,
            "dead": False, "cards": [{"iid": pid * 100 + i, "card": c,
                                      "equipped": c["kind"] == "item"}
                                     for i, c in enumerate(cards)]}


def fight(edition, fighter, monsters, one_shots=(), helper=None):
    return combat.compute(rules=TableRules.chosen(edition), fighter=fighter, helper=helper,
                          monsters=monsters, one_shots=list(one_shots))


def shot(card, side="players"):
    return {"side": side, "card": card}


# ---------------------------------------------------------------- Munchkin Oz

WIZARD = {"kind": "class", "name": "Wizard"}
MORNINGSTAR = {"kind": "item", "name": "Munchkin Morningstar", "bonus": 3, "slot": "1-hand",
               "gold": 400}
FIGHTING_TREES = {"kind": "monster", "name": "Fighting Trees", "level": 10, "treasures": 3,
                  "effects": [{"stat": "strength", "value": 2, "per": "empty_hand"}]}
YELLOW_BRICK = {"kind": "one-shot", "name": "Yellow Brick", "bonus": 5}
MAGICAL = {"kind": "enhancer", "name": "Magical", "bonus": 5, "treasures": 1}
WIZARD_OF_OZ = {"kind": "ally", "name": "Wizard of Oz", "bonus": 3}


def test_oz_enrique_eight_against_fighting_trees_twelve_for_his_one_empty_hand():
    enrique = player(1, "Enrique", 5, WIZARD, MORNINGSTAR)
    view = fight(OZ, enrique, [{"card": FIGHTING_TREES, "enhancers": []}])
    assert view["fighter_strength"] == 8
    assert view["monsters"][0]["strength"] == 12
    assert not view["winning"]


def test_oz_yellow_brick_puts_enrique_ahead_thirteen_to_twelve():
    enrique = player(1, "Enrique", 5, WIZARD, MORNINGSTAR)
    view = fight(OZ, enrique, [{"card": FIGHTING_TREES, "enhancers": []}], [shot(YELLOW_BRICK)])
    assert (view["players_strength"], view["monsters_strength"]) == (13, 12)
    assert view["winning"] and view["needed"] == 0


def test_oz_magical_trees_lead_seventeen_to_thirteen():
    enrique = player(1, "Enrique", 5, WIZARD, MORNINGSTAR)
    view = fight(OZ, enrique, [{"card": FIGHTING_TREES, "enhancers": [MAGICAL]}],
                 [shot(YELLOW_BRICK)])
    assert (view["players_strength"], view["monsters_strength"]) == (13, 17)
    assert not view["winning"]
    assert view["needed"] == 5
    assert view["rewards"]["treasures"] == 4


def test_oz_wizard_of_oz_ally_brings_enrique_to_sixteen_still_losing_to_seventeen():
    enrique = player(1, "Enrique", 5, WIZARD, MORNINGSTAR, WIZARD_OF_OZ)
    view = fight(OZ, enrique, [{"card": FIGHTING_TREES, "enhancers": [MAGICAL]}],
                 [shot(YELLOW_BRICK)])
    assert (view["players_strength"], view["monsters_strength"]) == (16, 17)
    assert not view["winning"] and view["needed"] == 2
    assert {"source": "Wizard of Oz", "value": 3} in view["breakdown"]["fighter"]


def test_oz_charmed_trees_give_four_treasures_and_no_level():
    enrique = player(1, "Enrique", 5, WIZARD, MORNINGSTAR, WIZARD_OF_OZ)
    view = fight(OZ, enrique, [{"card": FIGHTING_TREES, "enhancers": [MAGICAL], "gone": True}],
                 [shot(YELLOW_BRICK)])
    assert view["winning"]
    assert view["monsters_strength"] == 0
    assert view["rewards"]["treasures"] == 4
    assert view["rewards"]["fighter_levels"] == 0


# ---------------------------------------------------------------- Munchkin Spell Skool

EXTRA_POINTY_HAT = {"kind": "item", "name": "Extra-Pointy Hat", "bonus": 3, "slot": "headgear",
                    "gold": 300}
EX_LIBRARIAN = {"kind": "monster", "name": "Ex-Librarian", "level": 10, "treasures": 3}
BUG_BEER = {"kind": "one-shot", "name": "Bug Beer", "bonus": 4}


def test_spell_skool_rupert_seven_loses_to_the_ex_librarian_ten():
    rupert = player(1, "Rupert", 4, EXTRA_POINTY_HAT)
    view = fight(SKOOL, rupert, [{"card": EX_LIBRARIAN, "enhancers": []}])
    assert (view["players_strength"], view["monsters_strength"]) == (7, 10)
    assert not view["winning"] and view["needed"] == 4


def test_spell_skool_bug_beer_makes_rupert_eleven_and_he_kills_the_ex_librarian():
    rupert = player(1, "Rupert", 4, EXTRA_POINTY_HAT)
    view = fight(SKOOL, rupert, [{"card": EX_LIBRARIAN, "enhancers": []}], [shot(BUG_BEER)])
    assert (view["players_strength"], view["monsters_strength"]) == (11, 10)
    assert view["winning"]
    assert view["rewards"]["fighter_levels"] == 1


# ---------------------------------------------------------------- Munchkin Russia

COSSACK = {"kind": "class", "name": "Cossack"}
ROFLING_PIN = {"kind": "item", "name": "Rofling Pin", "bonus": 3, "slot": "1-hand", "gold": 300}
SMASHING_BEAR = {"kind": "monster", "name": "Smashing Bear", "level": 8, "treasures": 2,
                 "effects": [{"stat": "strength", "value": -3, "if": {"class": "cossack"}}]}
INSTANT_BORSCH = {"kind": "one-shot", "name": "Instant Borsch", "bonus": 4}
PERESTROYKA = {"kind": "enhancer", "name": "Survived the Perestroyka", "bonus": 10,
               "treasures": 2}
BORIS_GEAR = {"kind": "item", "name": "Boris's things", "bonus": 4, "slot": "other", "gold": 0}


def natasha():
    return player(1, "Natasha", 2, COSSACK, ROFLING_PIN, sex="female")


def boris():
    return player(2, "Boris", 6, BORIS_GEAR)


def test_russia_natasha_ties_the_smashing_bear_at_five_and_monsters_win_ties():
    view = fight(RUSSIA, natasha(), [{"card": SMASHING_BEAR, "enhancers": []}])
    assert view["fighter_strength"] == 5
    assert view["monsters"][0]["strength"] == 5
    assert not view["winning"] and view["needed"] == 1


def test_russia_instant_borsch_nine_beats_the_bear_five():
    view = fight(RUSSIA, natasha(), [{"card": SMASHING_BEAR, "enhancers": []}],
                 [shot(INSTANT_BORSCH)])
    assert (view["players_strength"], view["monsters_strength"]) == (9, 5)
    assert view["winning"]


def test_russia_survived_the_perestroyka_bear_fifteen_beats_natasha_nine():
    view = fight(RUSSIA, natasha(), [{"card": SMASHING_BEAR, "enhancers": [PERESTROYKA]}],
                 [shot(INSTANT_BORSCH)])
    assert (view["players_strength"], view["monsters_strength"]) == (9, 15)
    assert not view["winning"]


def test_russia_boris_ten_joins_and_they_win_nineteen_to_fifteen():
    view = fight(RUSSIA, natasha(), [{"card": SMASHING_BEAR, "enhancers": [PERESTROYKA]}],
                 [shot(INSTANT_BORSCH)], helper=boris())
    assert view["helper_strength"] == 10
    assert (view["players_strength"], view["monsters_strength"]) == (19, 15)
    assert view["winning"]


def test_russia_natasha_goes_up_one_level_and_draws_four_treasures_boris_none():
    view = fight(RUSSIA, natasha(), [{"card": SMASHING_BEAR, "enhancers": [PERESTROYKA]}],
                 [shot(INSTANT_BORSCH)], helper=boris())
    assert view["rewards"]["fighter_levels"] == 1
    assert view["rewards"]["treasures"] == 2 + 2
    assert view["rewards"]["helper_levels"] == 0


def test_russia_helper_options_show_boris_would_win_by_four():
    options = helping.helper_options(
        rules=TableRules.chosen(RUSSIA), fighter=natasha(), others=[boris()],
        monsters=[{"card": SMASHING_BEAR, "enhancers": [PERESTROYKA]}],
        one_shots=[shot(INSTANT_BORSCH)])
    (opt,) = options
    assert opt["player"] == 2 and opt["can_help"]
    assert opt["strength"] == 10 and opt["would_win"] and opt["margin"] == 4


# ---------------------------------------------------------------- Munchkin Tails

PONY = {"kind": "race", "name": "Pony",
        "effects": [{"stat": "strength", "value": 3, "if": {"role": "helped"}}]}
DOG = {"kind": "race", "name": "Dog",
       "effects": [{"stat": "strength", "value": 4, "if": {"role": "helping"}}]}
SADDLE_SHOES = {"kind": "item", "name": "Saddle Shoes", "bonus": 3, "slot": "footgear",
                "gold": 400}
CORRAL_SNAKE = {"kind": "monster", "name": "Corral Snake", "level": 8, "treasures": 2,
                "effects": [{"stat": "strength", "value": 3, "if": {"race": "pony"}}]}
TACTICAL_PLUSHIE = {"kind": "one-shot", "name": "Tactical Plushie", "bonus": 5}
RABID = {"kind": "enhancer", "name": "Rabid", "bonus": 10, "treasures": 2}


def chuck():
    return player(1, "Chuck", 4, PONY, SADDLE_SHOES)


def mel():
    return player(2, "Mel", 3, DOG)


def test_tails_chuck_seven_loses_to_corral_snake_eleven_with_its_bonus_against_ponies():
    view = fight(TAILS, chuck(), [{"card": CORRAL_SNAKE, "enhancers": []}])
    assert view["fighter_strength"] == 7
    assert view["monsters"][0]["strength"] == 11
    assert not view["winning"]


def test_tails_tactical_plushie_twelve_beats_eleven():
    view = fight(TAILS, chuck(), [{"card": CORRAL_SNAKE, "enhancers": []}],
                 [shot(TACTICAL_PLUSHIE)])
    assert (view["players_strength"], view["monsters_strength"]) == (12, 11)
    assert view["winning"]


def test_tails_rabid_snake_twenty_one_beats_chuck_twelve():
    view = fight(TAILS, chuck(), [{"card": CORRAL_SNAKE, "enhancers": [RABID]}],
                 [shot(TACTICAL_PLUSHIE)])
    assert (view["players_strength"], view["monsters_strength"]) == (12, 21)
    assert view["needed"] == 10


def test_tails_mel_dog_helping_seven_and_chuck_pony_helped_fifteen_win_twenty_two_to_twenty_one():
    view = fight(TAILS, chuck(), [{"card": CORRAL_SNAKE, "enhancers": [RABID]}],
                 [shot(TACTICAL_PLUSHIE)], helper=mel())
    assert view["helper_strength"] == 7
    assert view["fighter_strength"] == 15
    assert (view["players_strength"], view["monsters_strength"]) == (22, 21)
    assert view["winning"]


def test_tails_helper_options_show_mel_would_win_by_one():
    (opt,) = helping.helper_options(
        rules=TableRules.chosen(TAILS), fighter=chuck(), others=[mel()],
        monsters=[{"card": CORRAL_SNAKE, "enhancers": [RABID]}],
        one_shots=[shot(TACTICAL_PLUSHIE)])
    assert opt["can_help"] and opt["strength"] == 7
    assert opt["would_win"] and opt["margin"] == 1


def test_tails_charmed_corral_snake_gives_four_treasures_and_no_level():
    view = fight(TAILS, player(1, "Chuck", 4, PONY, SADDLE_SHOES, WIZARD),
                 [{"card": CORRAL_SNAKE, "enhancers": [RABID], "gone": True}],
                 [shot(TACTICAL_PLUSHIE)])
    assert view["winning"]
    assert view["rewards"]["treasures"] == 4
    assert view["rewards"]["fighter_levels"] == 0
