"""Rulings the arbiter gives that the engine enforces too: the arbiter and the engine say the
same thing, and a refusal names the ruling it follows.

Each test reads like the ruling: a curse's pick freezes the worn items; a classic Half-Breed on
one race keeps that race's advantages and none of its drawbacks (the card); the Wizard's Flight
Spell goes on a failed roll where the table follows the current rulings, before the roll by
the older card text.
"""

from __future__ import annotations

import pytest

from companion import engine, rulebase
from companion.engine import Actor, editions
from companion.engine.words import render

from .driver import Game

HOST = Actor(host=True)


def item(name, bonus=1, slot="other", **extra):
    return {"kind": "item", "name": name, "bonus": bonus, "slot": slot, "gold": 300, **extra}


def card(kind, name, **extra):
    return {"kind": kind, "name": name, **extra}


def verdict(g, who, **action):
    """What the arbiter's ``/check`` answers (it runs ``engine.check``), as the rule id."""
    answer = engine.check(g.state, action, g.actor(who))
    return answer["rule"] if not answer["allowed"] else "allowed"


# --- curse-no-swap: no changing worn items while a curse's pick waits -----------------------

@pytest.mark.parametrize("edition", list(editions.EDITIONS))
def test_while_the_victim_picks_what_a_curse_takes_no_worn_item_may_be_put_on_or_taken_off(edition):
    g = Game(edition)
    ann = g.ids["Ann"]
    g("Ann", type="play", player=ann, card=item("Ring", 1))
    g("Ann", type="play", player=ann, card=item("Cloak", 2))
    g("Ann", type="play", player=ann, card=item("Helm", 1, "headgear"))
    g("Ann", type="play", player=ann, card=item("Cap", 1, "headgear"))  # carried: the head is taken
    helm, cap, ring = g.iid("Ann", "Helm"), g.iid("Ann", "Cap"), g.iid("Ann", "Ring")
    g("Bob", type="play", player=ann, card=card("curse", "Lose a Small Item", lose_slot="small"))
    assert g.p("Ann")["pending_losses"]
    # Taking an item off, putting one on or swapping the hat: all wait for the pick.
    for iid, on in ((ring, False), (helm, False), (cap, True)):
        refusal = g.refused("Ann", type="equip", player=ann, instance=iid, equipped=on)
        assert refusal.rule == "curse-no-swap" and "Lose a Small Item" in render(refusal.detail)
        assert refusal.citation.startswith(editions.get(edition).rulebook)
        assert verdict(g, "Ann", type="equip", player=ann, instance=iid, equipped=on) == "curse-no-swap"
    assert not g.may("Ann", "equip", instance=ring, equipped=False)
    # A new item played meanwhile is carried, not worn: it could have dodged the curse.
    g("Ann", type="play", player=ann, card=item("Boots", 2, "footgear"))
    assert not g.row("Ann", "Boots")["equipped"]
    # Once the victim has picked (and discarded) the item, worn items may change again.
    g("Ann", type="discard", player=ann, instance=g.iid("Ann", "Cloak"))
    assert verdict(g, "Ann", type="equip", player=ann, instance=helm, equipped=False) == "allowed"
    g("Ann", type="equip", player=ann, instance=helm, equipped=False)
    g("Ann", type="equip", player=ann, instance=cap, equipped=True)
    assert g.row("Ann", "Cap")["equipped"] and not g.row("Ann", "Helm")["equipped"]


def test_a_curse_that_takes_its_item_at_once_leaves_nothing_to_wait_for():
    g = Game("classic")
    ann = g.ids["Ann"]
    g("Ann", type="play", player=ann, card=item("Ring", 1))
    g("Bob", type="play", player=ann, card=card("curse", "Lose a Small Item", lose_slot="small"))
    assert not g.p("Ann").get("pending_losses") and g.names("Ann") == []  # the Ring went at once
    g("Ann", type="play", player=ann, card=item("Helm", 1, "headgear"))
    g("Ann", type="equip", player=ann, instance=g.iid("Ann", "Helm"), equipped=False)


def test_the_ruling_on_swapping_during_a_curse_is_the_one_a_refusal_cites():
    ruling = rulebase.get_ruling("curse-no-swap")
    assert set(ruling["editions"]) == set(editions.EDITIONS)
    assert "may not change which items you wear" in ruling["answer"]


# --- half-breed-single-race-classic: the card's reading --------------------------------------

HALFLING = "classic/halfling"
HALF_BREED = "classic/half-breed"


def test_a_classic_half_breed_with_one_race_keeps_its_advantages_and_none_of_its_drawbacks():
    g = Game("classic")
    ann = g.ids["Ann"]
    g("Ann", type="play", player=ann, card=HALFLING)
    assert g.p("Ann")["run_away"] == -1  # the Halfling's drawback
    g("Ann", type="play", player=ann, card=HALF_BREED)
    me = g.p("Ann")
    assert me["run_away"] == 0  # shed, as the card says
    assert me["races"] == ["halfling", "human"]  # and half human, as the rulebook says
    assert me["drawbacks_shed"] == [{"kind": "race", "slug": "halfling",
                                     "rule": "half-breed-single-race-classic"}]
    assert me["double_sale"]  # the advantage stays


def test_a_classic_half_breed_with_two_races_has_both_races_drawbacks():
    g = Game("classic")
    g.play("Ann", HALFLING, HALF_BREED, "classic/dwarf")
    me = g.p("Ann")
    assert me["run_away"] == -1 and me["drawbacks_shed"] == [] and me["races"] == ["halfling", "dwarf"]
    assert me["hand_limit"] == 6


def test_monsters_that_hate_a_race_ignore_a_classic_half_breed_of_it():
    hater = {"kind": "monster", "name": "Halfling Hater", "level": 4, "treasures": 1,
             "effects": [{"stat": "strength", "value": 5, "if": {"race": "halfling"}}]}
    g = Game("classic")
    g.play("Ann", HALFLING)
    g.fight("Ann", dict(hater))
    assert g.view["monsters_strength"] == 9
    g("host", type="discard", player=g.ids["Ann"], instance=g.iid("Ann", "Halfling"))
    g.play("Ann", HALFLING, HALF_BREED)
    assert g.view["monsters_strength"] == 4


def test_a_classic_half_breed_may_use_an_item_its_lone_race_is_barred_from():
    stilts = item("Stilts", 2, requires={"not_race": "halfling"})
    g = Game("classic")
    g.play("Ann", HALFLING, stilts)
    assert g.row("Ann", "Stilts")["why_not"] and not g.row("Ann", "Stilts")["counts"]
    g.play("Ann", HALF_BREED)
    assert g.row("Ann", "Stilts")["counts"]


def test_classic_super_munchkin_and_the_other_editions_are_as_before():
    assert not editions.get("classic").lone_card_sheds_drawbacks  # classic Super Munchkin: two classes
    t = Game("tails")
    t.play("Ann", card("race", "Mouse", effects=[{"stat": "strength", "value": -1, "drawback": True}]),
           "tails/half-breed")
    assert t.p("Ann")["drawbacks_shed"] == [{"kind": "race", "slug": "mouse",
                                             "rule": "single-race-no-drawbacks"}]
    assert t.p("Ann")["races"] == ["mouse"]  # no half-human rule in Tails


def test_the_half_breed_rulings_named_by_the_editions_exist_with_their_citations():
    for edition in editions.EDITIONS.values():
        if not edition.half_breed:
            continue
        ruling = rulebase.get_ruling(edition.half_breed_rule)
        assert edition.id in ruling["editions"]
        assert any(c["edition"] == edition.id for c in ruling["citations"])
    # the ruling says what the engine does: the card's reading, half human too
    assert "half-human reading" not in rulebase.get_ruling("half-breed-single-race-classic")["reasoning"]


# --- wizard-flight-timing: the cards go before the roll (older card) or after it fails -------

def wizard_running(official=False, hand=4, *cards, dice_seed=None):
    g = Game("classic", official=official)
    if dice_seed is not None:
        g.state["dice_seed"] = dice_seed  # the game's dice, which its fights' dice come from
    g.play("Ann", {"kind": "class", "name": "Wizard"}, *cards)
    g.hand("Ann", hand)
    g.fight("Ann", {"kind": "monster", "name": "Ogre", "level": 12, "treasures": 2})
    g("host", type="resolve")
    return g


def test_by_the_older_card_flight_cards_are_discarded_before_the_roll():
    g = wizard_running()
    line = render(g.power("Ann", "wizard-flight", monster=0, from_hand=2, roll=6))
    assert "2 cards discarded" in line and "escapes" in line
    assert g.p("Ann")["hand"] == 2  # paid before the roll, even though 6 escapes anyway


def test_with_the_current_rulings_flight_cards_go_only_after_a_failed_roll():
    g = wizard_running(official=True)
    ann = g.ids["Ann"]
    refusal = g.refused_power("Ann", "wizard-flight", monster=0, from_hand=2, roll=6)
    assert refusal.rule == "wizard-flight-timing" and "discarded only after a failed roll" in render(refusal.detail)
    assert verdict(g, "Ann", type="use_power", player=ann, power="wizard-flight", monster=0,
                   from_hand=2, roll=6) == "wizard-flight-timing"
    assert verdict(g, "Ann", type="use_power", player=ann, power="wizard-flight", monster=0,
                   from_hand=2, roll=3) == "allowed"
    line = render(g.power("Ann", "wizard-flight", monster=0, from_hand=2, roll=3))  # 3 failed; +2 makes 5
    assert "after a failed roll of 3: +2 to it" in line and "escapes" in line
    assert g.p("Ann")["hand"] == 2


def test_with_the_current_rulings_a_roll_the_app_makes_that_escapes_costs_no_card():
    g = wizard_running(official=True, dice_seed="0")  # the app then rolls a 6: away without the spell
    line = render(g.power("Ann", "wizard-flight", monster=0, from_hand=2))
    assert "no card discarded" in line and "escapes" in line and g.p("Ann")["hand"] == 4


def test_with_the_current_rulings_flight_takes_a_failed_roll_that_waits():
    # A Halfling Wizard's failed roll waits (a second try could roll it again): Flight's cards
    # may go on that very roll instead.
    g = wizard_running(True, 4, HALFLING)
    line = g.line("host", type="run_away", player=g.ids["Ann"], monster=0, roll=3)
    assert "unless a second try" in line
    assert g.refused_power("Ann", "wizard-flight", monster=0, from_hand=2, roll=4).rule == "wizard-flight-timing"
    line = render(g.power("Ann", "wizard-flight", monster=0, from_hand=3))  # needs 6 (Halfling): 3 + 3
    assert "after a failed roll of 3: +3 to it" in line and "escapes" in line
    assert [e["escaped"] for e in g.stored["escapes"]] == [True]


def test_the_flight_ruling_gives_both_printings_and_the_table_chooses():
    printed = rulebase.ruling_for_edition("wizard-flight-timing", "classic")
    official = rulebase.ruling_for_edition("wizard-flight-timing", "classic", official_updates=True)
    assert [a["kind"] for a in printed["answers"]] == ["printed", "official"]
    assert [a["kind"] for a in official["answers"]] == ["official", "printed"]
    assert official["answers"][0]["answer"].startswith("After a run-away roll has failed")
