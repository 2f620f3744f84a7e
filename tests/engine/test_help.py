"""Asking for help: who could turn the fight, and a bribe the table can argue with."""

from companion.engine import editions, help as helping
from companion.engine.rules import TableRules
from companion.engine.words import render

CLASSIC, OZ, RUSSIA, TAILS = (editions.get(e) for e in ("classic", "oz", "russia", "tails"))


def player(pid, *cards, level=1, dead=False, equipped=True):
    return {"id": pid, "name": f"P{pid}", "level": level, "sex": "male", "gear_adjust": 0,
            "dead": dead,
            "cards": [{"iid": pid * 100 + i, "card": c,
                       "equipped": equipped and c["kind"] == "item"}
                      for i, c in enumerate(cards)]}


def monster(name, level, treasures, *effects, **extra):
    return {"card": {"kind": "monster", "name": name, "level": level, "treasures": treasures,
                     "effects": list(effects), **extra}, "enhancers": []}


def item(name, bonus, gold, slot="other"):
    return {"kind": "item", "name": name, "bonus": bonus, "slot": slot, "gold": gold}


def options(fighter, others, monsters, edition=CLASSIC, **kw):
    return {o["player"]: o for o in helping.helper_options(
        rules=TableRules.chosen(edition), fighter=fighter, others=others, monsters=monsters,
        one_shots=[], **kw)}


def bribe(fighter, helper, monsters, edition=CLASSIC, one_shots=()):
    return helping.suggest_bribe(rules=TableRules.chosen(edition), fighter=fighter, helper=helper,
                                 monsters=monsters, one_shots=list(one_shots))


ELF = {"kind": "race", "name": "Elf", "effects": [
    {"stat": "run_away", "value": 1},
    {"stat": "helper_levels", "value": True, "if": {"role": "helping"}}]}
DOG = {"kind": "race", "name": "Dog",
       "effects": [{"stat": "strength", "value": 4, "if": {"role": "helping"}}]}
PONY = {"kind": "race", "name": "Pony",
        "effects": [{"stat": "strength", "value": 3, "if": {"role": "helped"}}]}
WARRIOR = {"kind": "class", "name": "Warrior", "effects": [{"stat": "wins_ties", "value": True}]}
SLIME = monster("Drooling Slime", 10, 2, {"stat": "strength", "value": 4, "if": {"race": "elf"}})


# ---------------------------------------------------------------- helper options


def test_an_elf_helper_makes_a_monster_that_hates_elves_stronger():
    opts = options(player(1, level=5), [player(2, ELF, level=8), player(3, level=8)], [SLIME])
    assert opts[2]["strength"] == 8 and opts[3]["strength"] == 8
    assert opts[2]["margin"] == 13 - 14 and not opts[2]["would_win"]
    assert opts[3]["margin"] == 13 - 10 and opts[3]["would_win"]


def test_an_elf_helper_adds_nothing_to_the_monster_when_the_fighter_is_an_elf_already():
    opts = options(player(1, ELF, level=5), [player(2, ELF, level=8)], [SLIME])
    assert opts[2]["margin"] == 13 - 14
    opts = options(player(1, ELF, level=7), [player(2, ELF, level=8)], [SLIME])
    assert opts[2]["margin"] == 15 - 14 and opts[2]["would_win"]


def test_a_dog_counts_its_helping_bonus_and_a_pony_fighter_its_helped_bonus():
    opts = options(player(1, PONY, level=4), [player(2, DOG, level=3), player(3, level=3)],
                   [monster("Snake", 13, 2)], edition=TAILS)
    assert opts[2]["strength"] == 7 and opts[2]["margin"] == (4 + 3 + 7) - 13
    assert opts[3]["strength"] == 3 and opts[3]["margin"] == (4 + 3 + 3) - 13


def test_a_warrior_helper_wins_a_tie():
    opts = options(player(1, level=4), [player(2, WARRIOR, level=4)], [monster("M", 8, 1)])
    assert opts[2]["margin"] == 0 and opts[2]["would_win"] and opts[2]["needed"] == 0


def test_dead_players_and_players_in_the_fight_cannot_help():
    fighter = player(1, level=4)
    opts = options(fighter, [fighter, player(2, dead=True, level=9)], [monster("M", 5, 1)])
    assert not opts[1]["can_help"] and "fighting" in render(opts[1]["why_not"])
    assert not opts[2]["can_help"] and "dead" in render(opts[2]["why_not"])


def test_while_someone_helps_nobody_else_can_but_the_numbers_show_a_swap():
    current = player(2, level=1)
    opts = options(player(1, level=4), [current, player(3, level=9)], [monster("M", 10, 1)],
                   helper=current)
    assert not opts[2]["can_help"] and "already helping" in render(opts[2]["why_not"])
    assert not opts[3]["can_help"] and "only one player" in render(opts[3]["why_not"])
    assert opts[3]["strength"] == 9 and opts[3]["would_win"]


# ---------------------------------------------------------------- bribes


def test_tails_mel_is_offered_one_of_four_treasures_and_chuck_picks_first():
    snake = {"card": {"kind": "monster", "name": "Corral Snake", "level": 8, "treasures": 2,
                      "effects": [{"stat": "strength", "value": 3, "if": {"race": "pony"}}]},
             "enhancers": [{"kind": "enhancer", "name": "Rabid", "bonus": 10, "treasures": 2}]}
    plushie = {"side": "players", "card": {"kind": "one-shot", "name": "Plushie", "bonus": 5}}
    deal = bribe(player(1, PONY, item("Saddle Shoes", 3, 400, "footgear"), level=4),
                 player(2, DOG, level=3), [snake], edition=TAILS, one_shots=[plushie])
    assert deal["would_win"] and deal["of"] == 4
    assert deal["treasures"] == 1 and not deal["pick_first"]
    assert "7 of 22" in render(deal["explanation"])


def test_a_helper_bringing_half_the_strength_or_more_picks_first():
    deal = bribe(player(1, level=4), player(2, level=6), [monster("M", 9, 4)])
    assert deal["share"] == 0.6 and deal["treasures"] == 2 and deal["pick_first"]
    assert "P2 picks first" in render(deal["explanation"])


def test_a_fight_for_the_win_is_worth_every_treasure():
    deal = bribe(player(1, level=9), player(2, level=2), [monster("M", 10, 3)])
    assert deal["treasures"] == 3 and deal["pick_first"]
    assert "game" in render(deal["explanation"])


def test_a_classic_elf_helper_is_offered_one_treasure_less_since_it_levels_anyway():
    plain = bribe(player(1, level=5), player(2, level=5), [monster("M", 9, 4)])
    elf = bribe(player(1, level=5), player(2, ELF, level=5), [monster("M", 9, 4)])
    assert (plain["treasures"], elf["treasures"]) == (2, 1)
    assert plain["share"] == 0.5 and plain["pick_first"]
    assert "level" in render(elf["explanation"])


def test_no_bribe_when_the_helper_would_not_turn_the_fight_or_is_not_needed():
    hopeless = bribe(player(1, level=2), player(2, level=2), [monster("M", 9, 2)])
    assert not hopeless["would_win"] and hopeless["treasures"] == 0
    assert "6 more" in render(hopeless["explanation"])
    needless = bribe(player(1, level=9), player(2, level=2), [monster("M", 3, 2)])
    assert needless["treasures"] == 0 and "without help" in render(needless["explanation"])


def test_items_offered_instead_are_carried_ones_first_and_worth_the_treasures():
    fighter = player(1, item("Sword", 3, 600, "1-hand"), level=4)
    fighter["cards"] += [{"iid": 150, "card": item("Spare Hat", 1, 300, "headgear"),
                          "equipped": False},
                         {"iid": 151, "card": item("Old Boots", 1, 200, "footgear"),
                          "equipped": False}]
    deal = bribe(fighter, player(2, level=5), [monster("M", 10, 2)])
    assert deal["treasures"] == 1
    assert deal["items"] == [{"iid": 150, "name": "Spare Hat", "gold": 300}]
    assert "Spare Hat (300 gold)" in render(deal["explanation"])


def test_the_suggestion_is_deterministic():
    args = (player(1, item("Ring", 0, 500), level=4), player(2, level=6), [monster("M", 9, 4)])
    assert bribe(*args) == bribe(*args)
