"""Rule undo-keeps-rolls: a roll the app made stays made.

The die decides whether a player gets away (every edition's Running Away), and the table's
house rule is that an undo does not buy a new roll: undo a run away and run away again in the
same fight, and the app's die shows the same number, with the same Bad Stuff after it. A new
fight rolls afresh. A number typed in from a real die is taken as given.

Each action here gets fresh randomness, as the store gives it (``Game(seed=None)``), and an
undo puts back the stored state from before the action, as the store's undo does
(``g.undo_to``).
"""

from __future__ import annotations

import copy
import json

from hypothesis import HealthCheck, given, settings, strategies as st

from companion import engine, rulebase
from companion.engine.words import render

from .driver import Game

OGRE = {"kind": "monster", "name": "Ogre", "level": 8, "treasures": 2}  # level 1 needs a 5 to run
ORCS = "classic/3872-orcs"  # caught: a Bad Stuff die (1 or 2 kills, else that many levels)
HALFLING = {"kind": "race", "name": "Halfling"}
WIZARD = {"kind": "class", "name": "Wizard"}
THIEF = {"kind": "class", "name": "Thief"}


def losing(monster=OGRE, *cards, level=None, g=None) -> Game:
    """Ann fights ``monster`` (holding ``cards``, at ``level``) and cannot win: she must run.
    The game (``g``, else a new one) rolls with fresh randomness at every action."""
    g = g or Game(seed=None)
    if cards:
        g.play("Ann", *cards)
    if level is not None:
        g.level("Ann", level)
    g("Ann", type="fight", player=g.ids["Ann"], monster=monster)
    g("Ann", type="resolve")
    assert g.stored["stage"] == "running"
    return g


def test_the_ruling_is_in_the_rules_base_for_every_edition_with_its_citation():
    ruling = rulebase.get_ruling("undo-keeps-rolls")
    assert ruling["topic"] == "running-away"
    assert ruling["answer"].startswith("No.") and "same roll" in ruling["answer"]
    for edition in ("classic", "oz", "spell-skool", "russia", "tails"):
        assert "Running Away" in rulebase.citation_for(ruling, edition)
    assert rulebase.search("can i undo a bad run away roll")[0]["id"] == "undo-keeps-rolls"
    assert not rulebase.localized(ruling, "ru")["fallback"]


def test_undo_a_run_away_and_run_again_twenty_times_same_roll_same_outcome():
    g = losing()
    before = g.snapshot()
    first = g.run_away()
    after = g.snapshot()
    assert first["kind"] in ("escape", "caught")
    for _ in range(20):
        g.undo_to(before)
        assert g.run_away() == first  # the same roll, the same words, the same Bad Stuff
        assert g.state == after  # and the same table after it


def test_undo_does_not_reroll_the_bad_stuff_die_either():
    # The Orcs' Bad Stuff rolls a die too: caught, that die stays what it was as well.
    g = losing(ORCS, level=6)
    before = g.snapshot()
    outcomes = set()
    for _ in range(20):
        g.undo_to(before)
        outcomes.add(json.dumps(g.run_away(), sort_keys=True))
        outcomes.add(json.dumps(g.state["players"], sort_keys=True))
    assert len(outcomes) == 2  # one event, one table: every time


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fight_rng=st.integers(0, 2**64 - 1), undo_rngs=st.lists(st.integers(0, 2**64 - 1), min_size=2, max_size=6))
def test_whatever_the_randomness_of_each_undo_the_roll_is_the_fights(fight_rng, undo_rngs):
    g = Game("classic", seed=fight_rng)
    g("Ann", type="fight", player=g.ids["Ann"], monster=dict(OGRE))
    g("Ann", type="resolve")
    before = copy.deepcopy(g.state)
    rolls = set()
    for seed in undo_rngs:
        g.state, g.seed = copy.deepcopy(before), seed
        rolls.add(g("Ann", type="run_away", player=g.ids["Ann"], monster=0)["roll"])
    assert len(rolls) == 1


def test_a_new_fight_rolls_afresh():
    g = Game(seed=None)
    rolls, seeds = [], set()
    for _ in range(60):
        losing(g=g)
        seeds.add(g.stored["seed"])
        rolls.append(g.run_away()["roll"])
        g("host", type="close_fight")
    assert len(seeds) == 60  # each fight its own dice
    assert len(set(rolls)) >= 4, rolls  # and they roll: 60 rolls, not one number again


def test_a_real_die_the_player_enters_is_taken_as_given():
    g = losing()
    before = g.snapshot()
    app = g.run_away()["roll"]
    for roll in range(1, 7):
        g.undo_to(before)
        assert g.run_away(roll=roll)["roll"] == roll
    g.undo_to(before)
    assert g.run_away()["roll"] == app  # the app's die is still the app's


def test_no_phone_sees_the_fights_dice():
    g = losing()
    seed = g.stored["seed"]
    assert seed not in json.dumps(engine.public_state(g.state))


def test_the_halflings_second_try_is_rolled_once_too():
    g = losing(OGRE, HALFLING, g=Game(seed=None, official=True))  # the later card's power
    g.hand("Ann", 3)
    assert "unless a second try" in render(g.run_away(roll=1))  # a real die failed: the second try waits
    before = g.snapshot()
    first = g.power("Ann", "halfling-second-try", monster=0, from_hand=1)
    for _ in range(10):
        g.undo_to(before)
        assert g.power("Ann", "halfling-second-try", monster=0, from_hand=1) == first
    # Let the first roll stand instead, undone and again: the same Bad Stuff.
    g.undo_to(before)
    caught = g.run_away()
    g.undo_to(before)
    assert g.run_away() == caught


def test_flight_takes_the_run_away_roll_the_app_made_not_a_new_one():
    # With the current rulings Flight's cards go on a failed roll: undoing a run away and
    # casting Flight instead gets that same roll, with +1 a card.
    g = losing(OGRE, WIZARD, g=Game("classic", seed=None, official=True))
    g.hand("Ann", 4)
    before = g.snapshot()
    roll = g.run_away()["roll"]
    for _ in range(5):
        g.undo_to(before)
        g.power("Ann", "wizard-flight", monster=0, from_hand=1)
        assert [e["roll"] for e in g.stored["escapes"]] == [roll]


def test_a_theft_after_the_fight_is_rolled_once():
    g = Game(seed=None)
    g.play("Bob", {"kind": "item", "name": "Sporky Spoon", "bonus": 1})
    g.play("Ann", THIEF)
    g.hand("Ann", 3)
    losing(g=g)
    g.run_away()  # the fight is over; its dice still roll what is left of the turn
    before = g.snapshot()
    theft = dict(target=g.ids["Bob"], item=g.iid("Bob", "Sporky Spoon"), from_hand=1)
    first = g.power("Ann", "thief-theft", **theft)
    for _ in range(10):
        g.undo_to(before)
        assert g.power("Ann", "thief-theft", **theft) == first


def test_a_theft_before_any_fight_is_rolled_once_whatever_the_undos():
    g = Game(seed=None)
    g.state["dice_seed"] = "5eed"  # what the store draws when it makes the game
    g.play("Bob", {"kind": "item", "name": "Sporky Spoon", "bonus": 1})
    g.play("Ann", THIEF)
    g.hand("Ann", 6)
    g.level("Ann", 5)
    theft = dict(target=g.ids["Bob"], item=g.iid("Bob", "Sporky Spoon"), from_hand=1)
    before = g.snapshot()
    first = g.power("Ann", "thief-theft", **theft)
    for _ in range(10):
        g.undo_to(before)
        assert g.power("Ann", "thief-theft", **theft) == first
    games = {}
    for seed in range(40):  # the game's seed decides: tables get different dice
        t = Game(seed=None)
        t.state["dice_seed"] = f"{seed:x}"
        t.play("Bob", {"kind": "item", "name": "Sporky Spoon", "bonus": 1})
        t.play("Ann", THIEF)
        t.hand("Ann", 3)
        games[seed] = t.power("Ann", "thief-theft", target=t.ids["Bob"],
                              item=t.iid("Bob", "Sporky Spoon"), from_hand=1)
    assert len({json.dumps(v, sort_keys=True) for v in games.values()}) > 1


def test_the_games_dice_seed_is_never_shown():
    g = Game(seed=None)
    g.state["dice_seed"] = "5eed"
    assert "dice_seed" not in engine.public_state(g.state)


def test_undoing_back_past_the_fights_start_and_fighting_again_rolls_the_same():
    """The attack that re-rolled the app's die: undo the run away and the fight's start, fight
    the same monster again, run again. The fight's seed comes from the game's (the count of
    fights started, restored by the undo), not from fresh randomness."""
    g = Game(seed=None)
    g.state["dice_seed"] = "5eed"
    before = g.snapshot()
    first = losing(g=g).run_away()
    for _ in range(10):
        g.undo_to(before)
        assert losing(g=g).run_away() == first


def test_a_deaths_looting_order_is_rolled_once_whatever_the_undos():
    g = Game(seed=None)
    g.state["dice_seed"] = "5eed"
    for name in ("Dee", "Eve", "Fay"):
        g.join(name)
    g.play("Bob", {"kind": "item", "name": "Sporky Spoon", "bonus": 1})
    before = g.snapshot()
    g("Bob", type="die", player=g.ids["Bob"])
    first = g.state["bodies"][0]["order"]
    for _ in range(10):
        g.undo_to(before)
        g("Bob", type="die", player=g.ids["Bob"])
        assert g.state["bodies"][0]["order"] == first
    orders = set()
    for seed in range(30):  # the game's seed decides: tables get different orders
        t = Game(seed=None)
        t.state["dice_seed"] = f"{seed:x}"
        for name in ("Dee", "Eve", "Fay"):
            t.join(name)
        t.play("Bob", {"kind": "item", "name": "Sporky Spoon", "bonus": 1})
        t("Bob", type="die", player=t.ids["Bob"])
        orders.add(tuple(t.state["bodies"][0]["order"]))
    assert len(orders) > 1
