"""The action reducers, played the way a table plays: each test reads like a rule."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings, strategies as st

from companion import engine
from companion.engine import Actor, BadAction, Forbidden, RuleViolation
from companion.engine.words import render

from companion.fuzzing import VALID_ACTIONS
from .driver import Game

HOST = Actor(host=True)


def item(name, bonus, slot="other", **extra):
    return {"kind": "item", "name": name, "bonus": bonus, "slot": slot, "gold": extra.pop("gold", 300), **extra}


# --- races and classes --------------------------------------------------------------------

def test_one_race_unless_half_breed_and_never_two_copies():
    g = Game("classic")
    g("Ann", type="play", player=g.ids["Ann"], card="classic/elf")
    assert g.refused("Ann", type="play", player=g.ids["Ann"], card="classic/dwarf").rule == "race-limit"
    g("Ann", type="play", player=g.ids["Ann"], card="classic/half-breed")
    assert g.refused("Ann", type="play", player=g.ids["Ann"], card="classic/elf").rule == "no-duplicate-card"
    g("Ann", type="play", player=g.ids["Ann"], card="classic/dwarf")
    assert set(g.p("Ann")["races"]) == {"elf", "dwarf"}


def test_half_breed_needs_a_race_and_falls_when_the_last_race_goes():
    g = Game("tails")
    assert g.refused("Ann", type="play", player=g.ids["Ann"], card="tails/half-breed").rule == "half-breed-needs-race"
    g("Ann", type="play", player=g.ids["Ann"], card="tails/dog")
    g("Ann", type="play", player=g.ids["Ann"], card="tails/half-breed")
    g("Ann", type="discard", player=g.ids["Ann"], instance=g.iid("Ann", "Dog"))
    assert g.p("Ann")["cards"] == [] and g.p("Ann")["half_breed"] is False


@pytest.mark.parametrize("edition", ["oz", "spell-skool", "russia"])
def test_editions_without_races_refuse_a_race_card(edition):
    g = Game(edition)
    refusal = g.refused("Ann", type="play", player=g.ids["Ann"], card={"kind": "race", "name": "elf"})
    assert refusal.rule == "no-races-in-edition"
    assert refusal.citation.startswith(engine.editions.get(edition).rulebook)


def test_races_and_classes_can_be_discarded_even_in_a_fight():
    g = Game("classic")
    g("Ann", type="play", player=g.ids["Ann"], card="classic/elf")
    g("Ann", type="fight", player=g.ids["Ann"], monster="classic/drooling-slime")
    with_elf = g.view["monsters_strength"]
    g("Ann", type="discard", player=g.ids["Ann"], instance=g.iid("Ann", "Elf"))
    assert g.view["monsters_strength"] == with_elf - 4


# --- items -------------------------------------------------------------------------------

def test_equip_limits_one_headgear_and_two_hands():
    g = Game("classic")
    ann = g.ids["Ann"]
    g("Ann", type="play", player=ann, card=item("Helm A", 1, "headgear"))
    g("Ann", type="play", player=ann, card=item("Helm B", 2, "headgear"))
    assert [i["equipped"] for i in g.p("Ann")["items"]] == [True, False]  # the second is only carried
    assert g.refused("Ann", type="equip", player=ann, instance=g.iid("Ann", "Helm B"), equipped=True).rule == "equip-slot-limit"
    g("Ann", type="play", player=ann, card=item("Sword", 3, "1-hand"))
    g("Ann", type="play", player=ann, card=item("Pole", 4, "2-hands"))
    assert g.refused("Ann", type="equip", player=ann, instance=g.iid("Ann", "Pole"), equipped=True).rule == "equip-slot-limit"
    assert g.p("Ann")["gear_bonus"] == 1 + 3


def test_an_item_whose_restriction_fails_is_carried_but_counts_for_nothing_and_says_why():
    g = Game("classic")
    g("Ann", type="play", player=g.ids["Ann"], card=item("Sword of Song", 3, "1-hand", requires={"class": "warrior"}))
    row = g.p("Ann")["items"][0]
    assert row["counts"] is False and "arrior" in render(row["why_not"])
    assert g.p("Ann")["gear_bonus"] == 0
    g("Ann", type="play", player=g.ids["Ann"], card="classic/warrior")
    assert g.p("Ann")["gear_bonus"] == 3


def test_one_big_item_in_classic_any_number_for_a_dwarf():
    g = Game("classic")
    ann = g.ids["Ann"]
    g("Ann", type="play", player=ann, card=item("Big One", 2, big=True))
    assert g.refused("Ann", type="play", player=ann, card=item("Big Two", 2, big=True)).rule == "big-item-limit"
    g("Ann", type="play", player=ann, card="classic/dwarf")
    g("Ann", type="play", player=ann, card=item("Big Two", 2, big=True))
    assert g.p("Ann")["big_carried"] == 2


def test_tails_prints_no_big_item_limit():
    g = Game("tails")
    g("Ann", type="play", player=g.ids["Ann"], card=item("Big One", 2, big=True))
    g("Ann", type="play", player=g.ids["Ann"], card=item("Big Two", 2, big=True))
    assert g.p("Ann")["big_carried"] == 2


def test_no_trading_or_equipping_in_a_fight():
    g = Game("classic")
    ann = g.ids["Ann"]
    g("Ann", type="play", player=ann, card=item("Boots", 1, "footgear"))
    g("Ann", type="fight", player=ann, monster={"kind": "monster", "name": "Rat", "level": 1})
    assert g.refused("Ann", type="give", player=ann, instance=g.iid("Ann", "Boots"), to=g.ids["Bob"]).rule == "no-trade-in-combat"
    assert g.refused("Ann", type="equip", player=ann, instance=g.iid("Ann", "Boots"), equipped=False).rule == "no-equip-in-combat"


def test_only_items_can_be_given():
    g = Game("classic")
    g("Ann", type="play", player=g.ids["Ann"], card="classic/elf")
    assert g.refused("Ann", type="give", player=g.ids["Ann"], instance=g.iid("Ann", "Elf"), to=g.ids["Bob"]).rule == "give-items-only"


# --- selling -----------------------------------------------------------------------------

def test_selling_gives_a_level_per_thousand_with_no_change():
    g = Game("classic")
    ann = g.ids["Ann"]
    for name, gold in (("A", 600), ("B", 500), ("C", 1000)):
        g("Ann", type="play", player=ann, card=item(name, 1, gold=gold))
    line = g.line("Ann", type="sell", player=ann, instances=[g.iid("Ann", "A"), g.iid("Ann", "B"), g.iid("Ann", "C")])
    assert g.p("Ann")["level"] == 3 and "no change" in line
    assert g.p("Ann")["items"] == []


def test_selling_only_on_your_turn_outside_a_fight_and_never_to_level_ten():
    g = Game("classic")
    bob = g.ids["Bob"]
    g("Bob", type="play", player=bob, card=item("Gem", 1, gold=1000))
    assert g.refused("Bob", type="sell", player=bob, instances=[g.iid("Bob", "Gem")]).rule == "sell-own-turn"
    g("host", type="set_turn", player=bob)
    g("Bob", type="level", player=bob, delta=8, source="kill")
    assert g.refused("Bob", type="sell", player=bob, instances=[g.iid("Bob", "Gem")]).rule == "level-ten-needs-kill"
    g("Bob", type="fight", player=bob, monster={"kind": "monster", "name": "Rat", "level": 1})
    assert g.refused("Bob", type="sell", player=bob, instances=[g.iid("Bob", "Gem")]).rule == "sell-not-in-combat"


def test_no_value_items_count_as_zero_gold():
    # Oz, Selling Items for Levels: alone a No Value item buys nothing (no change is given).
    g = Game("oz")
    g("Ann", type="play", player=g.ids["Ann"], card=item("Junk", 1, gold=None))
    assert g.refused("Ann", type="sell", player=g.ids["Ann"], instances=[g.iid("Ann", "Junk")]).rule == "sell-no-change"


# --- curses and death ----------------------------------------------------------------------

def test_a_curse_on_something_you_lack_does_nothing_and_says_so():
    g = Game("oz")
    line = g.line("Bob", type="play", player=g.ids["Ann"], card="oz/lose-your-armor")
    assert "nothing" in line and g.p("Ann")["cards"] == []


def test_a_lasting_curse_stays_and_lowers_strength_until_removed():
    g = Game("classic")
    curse = {"kind": "curse", "name": "Chicken", "duration": "lasting", "bonus": -1}
    g("Bob", type="play", player=g.ids["Ann"], card=curse)
    assert g.p("Ann")["combat_strength"] == 0
    g("Ann", type="discard", player=g.ids["Ann"], instance=g.iid("Ann", "Chicken"))
    assert g.p("Ann")["combat_strength"] == 1


def test_a_next_fight_curse_is_used_up_by_that_fight():
    g = Game("classic")
    g("Bob", type="play", player=g.ids["Ann"], card={"kind": "curse", "name": "Hex", "duration": "next_fight", "bonus": -5})
    g("Ann", type="level", player=g.ids["Ann"], delta=6)
    g("Ann", type="fight", player=g.ids["Ann"], monster={"kind": "monster", "name": "Rat", "level": 1})
    assert g.view["players_strength"] == 7 - 5
    g("Ann", type="resolve")
    assert g.p("Ann")["curses"] == []


def test_death_takes_items_and_hand_and_keeps_level_race_class():
    g = Game("classic")
    ann = g.ids["Ann"]
    g("Ann", type="level", player=ann, delta=4)
    g("Ann", type="play", player=ann, card="classic/elf")
    g("Ann", type="play", player=ann, card=item("Boots", 2, "footgear"))
    g("Ann", type="set_hand", player=ann, count=4)
    line = g.line("Ann", type="die", player=ann)
    ann_now = g.p("Ann")
    assert (ann_now["level"], ann_now["races"], ann_now["items"], ann_now["hand"], ann_now["dead"]) == (5, ["elf"], [], 0, True)
    assert "looting order" in line and "draws 2 from each deck" in line  # the older classic text
    g("Bob", type="play", player=g.ids["Bob"], card=item("Gift", 1))
    assert g.refused("Bob", type="give", player=g.ids["Bob"], instance=g.iid("Bob", "Gift"), to=ann).rule == "dead-no-cards"
    g("Ann", type="end_turn", player=ann)
    assert g.p("Ann")["dead"] is False  # the new character appears when the next turn begins


def test_dead_players_cannot_help():
    g = Game("classic")
    g("Bob", type="die", player=g.ids["Bob"])
    g("Ann", type="fight", player=g.ids["Ann"], monster={"kind": "monster", "name": "Rat", "level": 5})
    assert g.refused("Bob", type="help", player=g.ids["Bob"]).rule == "dead-cannot-help"


# --- charity -------------------------------------------------------------------------------

def test_charity_gives_the_excess_to_the_lowest_level_split_evenly():
    g = Game("classic", "Ann", "Bob", "Cid", "Dee")
    g("Ann", type="level", player=g.ids["Ann"], delta=3)
    g("Dee", type="level", player=g.ids["Dee"], delta=1)
    g("Ann", type="set_hand", player=g.ids["Ann"], count=8)
    line = g.line("Ann", type="end_turn", player=g.ids["Ann"])
    hands = {n: g.p(n)["hand"] for n in ("Ann", "Bob", "Cid", "Dee")}
    assert hands == {"Ann": 5, "Bob": 2, "Cid": 1, "Dee": 0}
    assert "Charity" in line and g.state["turn"] == g.ids["Bob"]


def test_charity_when_you_are_the_lowest_is_discarded():
    g = Game("classic")
    g("Bob", type="level", player=g.ids["Bob"], delta=1)
    g("Cid", type="level", player=g.ids["Cid"], delta=1)
    g("Ann", type="set_hand", player=g.ids["Ann"], count=7)
    g("Ann", type="end_turn", player=g.ids["Ann"])
    assert [g.p(n)["hand"] for n in ("Ann", "Bob", "Cid")] == [5, 0, 0]


def test_a_dwarf_holds_six_cards_in_classic():
    g = Game("classic")
    g("Ann", type="play", player=g.ids["Ann"], card="classic/dwarf")
    g("Ann", type="set_hand", player=g.ids["Ann"], count=6)
    g("Ann", type="level", player=g.ids["Ann"], delta=1)
    g("Ann", type="end_turn", player=g.ids["Ann"])
    assert g.p("Ann")["hand"] == 6


def test_russian_oligarchs_take_one_card_each_first():
    g = Game("russia", "Ann", "Bob", "Cid", "Dee")
    g("Ann", type="level", player=g.ids["Ann"], delta=4)
    g("Dee", type="level", player=g.ids["Dee"], delta=2)
    g("Dee", type="play", player=g.ids["Dee"], card="russia/oligarch")
    g("Ann", type="set_hand", player=g.ids["Ann"], count=9)
    g("Ann", type="end_turn", player=g.ids["Ann"])
    assert [g.p(n)["hand"] for n in ("Ann", "Bob", "Cid", "Dee")] == [5, 2, 1, 1]


# --- the worked examples, played as actions ----------------------------------------------

def test_oz_enrique_and_the_fighting_trees():
    g = Game("oz", "Enrique", "Marissa", "Third")
    e = g.ids["Enrique"]
    g("Enrique", type="level", player=e, delta=4)
    g("Enrique", type="play", player=e, card="oz/wizard")
    g("Enrique", type="play", player=e, card="oz/munchkin-morningstar")
    g("Enrique", type="fight", player=e, monster="oz/fighting-trees")
    assert (g.view["players_strength"], g.view["monsters_strength"]) == (8, 12)
    g("Enrique", type="one_shot", side="players", card="oz/yellow-brick")
    assert (g.view["players_strength"], g.view["winning"]) == (13, True)
    g("Marissa", type="enhance", monster=0, card="oz/magical")
    assert (g.view["players_strength"], g.view["monsters_strength"]) == (13, 17)
    g("Enrique", type="play", player=e, card="oz/wizard-of-oz")
    assert (g.view["players_strength"], g.view["monsters_strength"], g.view["winning"]) == (16, 17, False)
    # The Wizard's charm: the monster leaves without being killed; 4 treasures, no level.
    g("Enrique", type="remove_monster", monster=0)
    line = g.line("Enrique", type="resolve")
    assert g.p("Enrique")["level"] == 5 and "4 treasures" in line


def test_russia_natasha_boris_and_the_smashing_bear_with_a_bribe():
    g = Game("russia", "Natasha", "Boris", "Third")
    n, b = g.ids["Natasha"], g.ids["Boris"]
    g("Natasha", type="level", player=n, delta=1)
    g("Natasha", type="play", player=n, card="russia/cossack")
    g("Natasha", type="play", player=n, card="russia/rofling-pin")
    g("Boris", type="level", player=b, delta=5)
    g("Boris", type="gear", player=b, delta=4)
    g("Natasha", type="fight", player=n, monster="russia/smashing-bear")
    assert (g.view["players_strength"], g.view["monsters_strength"], g.view["winning"]) == (5, 5, False)
    g("Natasha", type="one_shot", side="players", card="russia/instant-borsch")
    assert (g.view["players_strength"], g.view["winning"]) == (9, True)
    g("Boris", type="enhance", monster=0, card="russia/survived-the-perestroyka")
    assert (g.view["players_strength"], g.view["monsters_strength"]) == (9, 15)
    boris = next(h for h in g.view["helpers"] if h["player"] == b)
    assert (boris["strength"], boris["would_win"], boris["margin"]) == (10, True, 4)
    g("Natasha", type="offer", to=b, treasures=1, pick_first=True)
    g("Boris", type="accept_offer", player=b)
    assert (g.view["players_strength"], g.view["winning"]) == (19, True)
    line = g.line("Natasha", type="resolve")
    assert g.p("Natasha")["level"] == 3 and g.p("Boris")["level"] == 6
    assert "4 treasures face up" in line
    assert g.state["ledger"][0]["treasures"] == 1 and g.state["ledger"][0]["pick_first"] is True


def test_spell_skool_rupert_and_the_ex_librarian():
    g = Game("spell-skool", "Rupert", "Two", "Three")
    r = g.ids["Rupert"]
    g("Rupert", type="level", player=r, delta=3)
    g("Rupert", type="play", player=r, card="spell-skool/extra-pointy-hat")
    g("Rupert", type="fight", player=r, monster="spell-skool/ex-librarian")
    assert (g.view["players_strength"], g.view["monsters_strength"], g.view["winning"]) == (7, 10, False)
    g("Rupert", type="one_shot", side="players", card="spell-skool/bug-beer")
    assert (g.view["players_strength"], g.view["winning"]) == (11, True)
    g("Rupert", type="resolve")
    assert g.p("Rupert")["level"] == 5


# --- fights -------------------------------------------------------------------------------

def test_only_one_helper_and_a_volunteer_may_not_back_out():
    g = Game("classic")
    g("Ann", type="fight", player=g.ids["Ann"], monster={"kind": "monster", "name": "Rat", "level": 9})
    g.helps("Bob")
    assert g.refused("Cid", type="help", player=g.ids["Cid"]).rule == "helper-limit"
    assert g.refused("Bob", type="stop_helping").rule == "voluntary-helper-stays"


def test_a_forced_helper_may_back_out_in_tails_once_the_fight_is_for_the_win():
    g = Game("tails")
    g("Ann", type="level", player=g.ids["Ann"], delta=7)
    g("Ann", type="fight", player=g.ids["Ann"], monster={"kind": "monster", "name": "Rat", "level": 9})
    g("host", type="help", player=g.ids["Bob"], forced=True)
    assert g.refused("Bob", type="stop_helping").rule == "forced-helper-may-leave"
    g("Cid", type="add_monster", monster={"kind": "monster", "name": "Bat", "level": 1})
    g("Bob", type="stop_helping")
    assert g.view["helper"] is None


def test_only_the_player_whose_turn_it_is_starts_a_fight_and_one_at_a_time():
    g = Game("classic")
    rat = {"kind": "monster", "name": "Rat", "level": 1}
    assert g.refused("Bob", type="fight", player=g.ids["Bob"], monster=rat).rule == "fight-own-turn"
    g("Ann", type="fight", player=g.ids["Ann"], monster=rat)
    assert g.refused("Ann", type="fight", player=g.ids["Ann"], monster=rat).rule == "one-fight-at-a-time"


def test_a_kill_gives_a_level_per_monster_and_an_elf_helper_levels_in_classic():
    g = Game("classic")
    g("Ann", type="level", player=g.ids["Ann"], delta=5)
    g("Bob", type="play", player=g.ids["Bob"], card="classic/elf")
    g("Ann", type="fight", player=g.ids["Ann"], monster={"kind": "monster", "name": "Rat", "level": 3})
    g("Cid", type="add_monster", monster={"kind": "monster", "name": "Bat", "level": 3, "treasures": 2})
    g.helps("Bob")
    g("Ann", type="resolve")
    assert g.p("Ann")["level"] == 8 and g.p("Bob")["level"] == 3


def test_mate_doubles_the_monster_with_its_enhancers():
    g = Game("classic")
    g("Ann", type="fight", player=g.ids["Ann"], monster={"kind": "monster", "name": "Rat", "level": 3, "treasures": 1})
    g("Bob", type="enhance", monster=0, card={"kind": "enhancer", "name": "Ancient", "bonus": 10, "treasures": 2})
    g("Bob", type="enhance", monster=0, card={"kind": "enhancer", "name": "Mate", "bonus": 0, "treasures": 0, "mate": True})
    assert g.view["monsters_strength"] == 26 and len(g.view["monsters"]) == 2


def test_losing_leads_to_running_away_each_monster_separately_with_bad_stuff():
    g = Game("classic")
    ann = g.ids["Ann"]
    g("Ann", type="fight", player=ann, monster={"kind": "monster", "name": "Ogre", "level": 9,
                                                "bad_stuff": {"levels": 2, "death": False}})
    g("Ann", type="level", player=ann, delta=4, source="adjust")
    g("Ann", type="resolve")
    assert g.view["stage"] == "running"
    assert g.view["escape"][0]["needs"] == 5 and g.view["escape"][0]["chance"] == pytest.approx(0.333, abs=0.001)
    line = g.line("Ann", type="run_away", player=ann, monster=0, roll=2)
    assert "caught" in line and g.p("Ann")["level"] == 3
    assert g.view["stage"] == "over"
    assert g.refused("Ann", type="run_away", player=ann, monster=0, roll=6).rule == "no-combat"


def test_oz_ally_is_sacrificed_for_an_automatic_escape():
    g = Game("oz")
    ann = g.ids["Ann"]
    g("Ann", type="play", player=ann, card="oz/wizard-of-oz")
    g("Ann", type="fight", player=ann, monster={"kind": "monster", "name": "Witch", "level": 18})
    g("Ann", type="resolve")
    g("Ann", type="sacrifice_ally", player=ann)
    assert g.view["stage"] == "over" and g.p("Ann")["allies"] == []


def test_bribes_only_from_the_fighter_and_only_what_the_fight_yields():
    g = Game("classic")
    g("Ann", type="fight", player=g.ids["Ann"], monster={"kind": "monster", "name": "Rat", "level": 9, "treasures": 2})
    assert g.refused("Cid", type="offer", to=g.ids["Bob"], treasures=1).rule == "bribe-fighter-only"
    assert g.refused("Ann", type="offer", to=g.ids["Bob"], treasures=3).rule == "bribe-treasure-limit"
    assert g.refused("Ann", type="offer", to=g.ids["Bob"], items=[999]).rule == "bribe-own-items"


def test_once_someone_helps_every_other_offer_lapses_both_ways():
    # Cid offers from his phone, Ann offers bribes to Bob and Cid; Bob takes his: one helper,
    # so Cid's offer and Ann's to Cid are gone (accepting one of them again would name a
    # second helper, or the same one twice).
    g = Game("classic")
    ann, bob, cid = g.ids["Ann"], g.ids["Bob"], g.ids["Cid"]
    g("Ann", type="fight", player=ann, monster={"kind": "monster", "name": "Rat", "level": 9, "treasures": 2})
    g("Cid", type="help", player=cid)
    g("Ann", type="offer", to=bob, treasures=1)
    g("Ann", type="offer", to=cid, treasures=1)
    g("Bob", type="accept_offer", player=bob)
    fight = g.state["combat"]
    assert fight["helper"] == bob and fight["volunteers"] == [] and fight["offers"] == []
    g.refused("Ann", BadAction, type="accept_help", player=cid)
    g.refused("Cid", BadAction, type="accept_offer", player=cid)
    # And the other way: a free offer taken lets the fighter's bribes lapse.
    g("host", type="close_fight")
    g("Ann", type="fight", player=ann, monster={"kind": "monster", "name": "Rat", "level": 9, "treasures": 2})
    g("Ann", type="offer", to=bob, treasures=1)
    g("Cid", type="help", player=cid)
    g("Ann", type="accept_help", player=cid)
    assert g.state["combat"]["offers"] == []


def test_promised_items_move_to_the_helper_when_the_fight_is_won():
    g = Game("classic")
    ann, bob = g.ids["Ann"], g.ids["Bob"]
    g("Ann", type="play", player=ann, card=item("Cloak", 1, "other", gold=400))
    g("Bob", type="level", player=bob, delta=8, source="kill")
    g("Ann", type="fight", player=ann, monster={"kind": "monster", "name": "Rat", "level": 9, "treasures": 2})
    g("Ann", type="offer", to=bob, treasures=0, items=[g.iid("Ann", "Cloak")])
    g("Bob", type="accept_offer", player=bob)
    g("Ann", type="resolve")
    assert [i["name"] for i in g.p("Bob")["items"]] == ["Cloak"] and g.p("Ann")["items"] == []


def test_the_shared_victory_variant_lets_the_helper_win_too():
    g = Game("tails")
    g("host", type="set_variant", variant="shared_victory", on=True)
    g("Ann", type="level", player=g.ids["Ann"], delta=8, source="kill")
    g("Ann", type="fight", player=g.ids["Ann"], monster={"kind": "monster", "name": "Rat", "level": 12})
    g.helps("Bob")
    g("Bob", type="gear", player=g.ids["Bob"], delta=10)
    g("Ann", type="resolve")
    assert set(g.state["winners"]) == {g.ids["Ann"], g.ids["Bob"]}


# --- invariants ---------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["level", "gear"]), st.integers(-3, 3)), max_size=30))
def test_a_level_stays_between_1_and_10_whatever_is_tapped(taps):
    g = Game("classic")
    for kind, delta in taps:
        try:
            g("Ann", type=kind, player=g.ids["Ann"], delta=delta)
        except (RuleViolation, BadAction):
            pass
        assert 1 <= g.p("Ann")["level"] <= 9  # manual taps can never make the winning level


@settings(max_examples=300, deadline=None)
@given(VALID_ACTIONS)
def test_a_refused_action_never_changes_the_state(action):
    """Any action of the whole vocabulary (drawn from the action models, as /api/schema has
    them): accepted or refused, the caller's state is never changed in place."""
    g = Game("classic")
    g("Ann", type="fight", player=g.ids["Ann"], monster={"kind": "monster", "name": "Rat", "level": 3})
    before = copy.deepcopy(g.state)
    kept = g.state
    try:
        engine.apply(kept, action, HOST, rng=random.Random(7))
    except (RuleViolation, BadAction, Forbidden):
        pass
    assert kept == before


def test_items_can_be_sold_straight_from_the_hand():
    g = Game("classic")
    g("Ann", type="sell", player=g.ids["Ann"], instances=[], hand_gold=1000)
    assert g.p("Ann")["level"] == 2
    with pytest.raises(BadAction):
        g("Ann", type="sell", player=g.ids["Ann"], instances=[])


def test_an_item_of_unknown_worth_is_not_mistaken_for_no_value():
    g = Game("tails")
    g("Ann", type="play", player=g.ids["Ann"], card="tails/saddle-shoes")
    row = g.p("Ann")["items"][0]
    assert row["gold_known"] is False
    with pytest.raises(BadAction, match="does not know what Saddle Shoes is worth"):
        g("Ann", type="sell", player=g.ids["Ann"], instances=[row["iid"]])


def test_giving_the_turn_to_whoever_has_it_is_refused_and_does_not_bring_the_dead_back():
    g = Game("classic")
    g("Bob", type="die", player=g.ids["Bob"])
    refused = g.refused("Ann", type="set_turn", player=g.ids["Ann"])
    assert refused.rule == "turn-pass"
    assert g.p("Bob")["dead"]
