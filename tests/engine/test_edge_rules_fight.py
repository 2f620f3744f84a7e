"""The fight's edge cases a real table hits, each named by its rulebook section,
and the publisher's later rulings a table may choose (variant ``official_updates``)."""

from __future__ import annotations

from functools import partial

import pytest

from companion import engine
from companion.engine import BadAction
from companion.engine.words import render

from . import driver

Game = partial(driver.Game, seed=3)


def monster(name, level, treasures=1, **extra):
    return {"kind": "monster", "name": name, "level": level, "treasures": treasures, **extra}


MATE = {"kind": "enhancer", "name": "Mate", "mate": True}


# --- Tails, forced help (Asking For Help; Conflicts Between Cards and Rules) ----------------

def forced_into_a_fight_that_becomes_for_the_win(edition="tails", official=False) -> Game:
    """Ann (level 8) fights a Rat; Bob is made to help; then a Bat joins, and killing both
    would take Ann to level 10."""
    g = Game(edition, official=official)
    g("Ann", type="level", player=g.ids["Ann"], delta=7)
    g("Ann", type="fight", player=g.ids["Ann"], monster=monster("Rat", 14, bad_stuff={"levels": 1}))
    g("host", type="help", player=g.ids["Bob"], forced=True)
    assert g.view["helper_counts"] and not g.view["for_the_win"]
    g("Cid", type="add_monster", monster=monster("Bat", 1))
    assert g.view["for_the_win"] and not g.view["helper_counts"]
    return g


def test_tails_forced_helper_in_a_lost_fight_for_the_win_runs_from_nothing_and_the_fight_ends():
    # Tails, Asking For Help: forcing help does not work in a fight for the win, so the forced
    # helper is not in it: no run-away roll (it used to crash) and the fight ends without the host.
    g = forced_into_a_fight_that_becomes_for_the_win()
    g("Ann", type="resolve")
    assert g.stored["stage"] == "running"
    assert {e["player"] for e in g.view["escape"]} == {g.ids["Ann"]}
    assert g.refused("Bob", type="run_away", player=g.ids["Bob"], monster=0, roll=6).rule == \
        "forced-helper-may-leave"
    g("Ann", type="run_away", player=g.ids["Ann"], monster=0, roll=6)
    g("Ann", type="run_away", player=g.ids["Ann"], monster=1, roll=6)
    assert g.stored["stage"] == "over"
    assert render(g.stored["result"]["text"]) == "The fight is over: Ann got away."


def test_the_forced_helper_run_away_answers_a_rule_not_a_server_error_through_the_api(client):
    from ..helpers import ApiTable

    t = ApiTable(client, "tails")
    for name in ("Ann", "Bob", "Cid"):
        t.join(name)
    ann, bob = t.ids["Ann"], t.ids["Bob"]
    t.act("Ann", {"type": "level", "player": ann, "delta": 7})
    t.act("Ann", {"type": "fight", "player": ann, "monster": monster("Rat", 14)})
    t.act("host", {"type": "help", "player": bob, "forced": True})
    t.act("Cid", {"type": "add_monster", "monster": monster("Bat", 1)})
    t.act("Ann", {"type": "resolve"})
    refusal = t.act("Bob", {"type": "run_away", "player": bob, "monster": 0, "roll": 6}, expect=422)
    assert refusal["error"]["rule"] == "forced-helper-may-leave"
    assert refusal["error"]["citation"].startswith("Munchkin Tails, Asking For Help")
    t.act("Ann", {"type": "run_away", "player": ann, "monster": 0, "roll": 6})
    t.act("Ann", {"type": "run_away", "player": ann, "monster": 1, "roll": 6})
    assert t.state()["combat"]["stage"] == "over"


def test_tails_forced_helper_who_does_not_count_does_not_share_the_victory():
    # Tails, Faster Play Rules (shared victory) and Asking For Help: only a helper who counts
    # shares a win; a forced helper in a fight for the win is not in it.
    g = forced_into_a_fight_that_becomes_for_the_win()
    g.state["variants"]["shared_victory"] = True
    g("Ann", type="one_shot", side="players", card={"kind": "one-shot", "name": "Boost", "bonus": 20})
    g("Ann", type="resolve")
    assert g.state["winners"] == [g.ids["Ann"]]
    assert g.p("Bob")["level"] == 1
    assert "treasures face down" in render(g.stored["result"]["text"])


def test_a_voluntary_helper_still_shares_the_victory():
    g = Game("tails")
    g.state["variants"]["shared_victory"] = True
    g("Ann", type="level", player=g.ids["Ann"], delta=8)
    g("Ann", type="fight", player=g.ids["Ann"], monster=monster("Rat", 3))
    g.helps("Bob")
    g("Ann", type="resolve")
    assert g.state["winners"] == [g.ids["Ann"], g.ids["Bob"]]


def test_tails_forced_helper_backs_out_only_once_the_fight_is_for_the_win():
    # Tails, Asking For Help: the forced helper may back out when the fight becomes one for
    # the win, not before; a volunteer never may.
    g = Game("tails")
    g("Ann", type="level", player=g.ids["Ann"], delta=7)
    g("Ann", type="fight", player=g.ids["Ann"], monster=monster("Rat", 14))
    g("host", type="help", player=g.ids["Bob"], forced=True)
    assert g.refused("Bob", type="stop_helping").rule == "forced-helper-may-leave"
    g("Cid", type="add_monster", monster=monster("Bat", 1))
    g("Bob", type="stop_helping")
    assert g.stored["helper"] is None
    g.helps("Cid")
    assert g.refused("Cid", type="stop_helping").rule == "voluntary-helper-stays"


def test_nobody_can_be_forced_to_help_in_a_fight_already_for_the_win_in_tails_only_as_printed():
    # Tails, Conflicts Between Cards and Rules (4): you cannot force another player to help you
    # reach level 10. The classic rulebook does not say so.
    for edition, refused in (("tails", True), ("classic", False), ("oz", False)):
        g = Game(edition)
        g("Ann", type="level", player=g.ids["Ann"], delta=8)
        g("Ann", type="fight", player=g.ids["Ann"], monster=monster("Rat", 14))
        if refused:
            assert g.refused("host", type="help", player=g.ids["Bob"], forced=True).rule == \
                "forced-helper-may-leave"
        else:
            g("host", type="help", player=g.ids["Bob"], forced=True)
            assert g.view["helper_counts"]
            assert g.refused("Bob", type="stop_helping").rule == "voluntary-helper-stays"


def test_with_the_official_rulings_nobody_can_be_forced_to_help_in_a_fight_for_the_win_anywhere():
    # The publisher's later rulings (the official part of forced-helper-may-leave): the Tails
    # rule in every edition, and the refusal gives the official answer with its source.
    g = Game("classic", official=True)
    g("Ann", type="level", player=g.ids["Ann"], delta=8)
    g("Ann", type="fight", player=g.ids["Ann"], monster=monster("Rat", 14))
    refusal = g.refused("host", type="help", player=g.ids["Bob"], forced=True)
    assert refusal.rule == "forced-helper-may-leave"
    assert refusal.citation.startswith("Steve Jackson Games") and "every edition" in refusal.message
    g = forced_into_a_fight_that_becomes_for_the_win("russia", official=True)
    g("Bob", type="stop_helping")


# --- a helper adds cards mid-fight (Oz, Combat; Tails, When You May Take Actions) ------------

@pytest.mark.parametrize("edition", ["classic", "oz", "tails"])
def test_the_helper_cannot_bring_a_new_item_into_the_fight(edition):
    # Oz and Tails, Combat: in combat nobody equips or plays Treasures from the hand; classic,
    # Items: the fight is finished with the equipment one has.
    g = Game(edition)
    g("Ann", type="fight", player=g.ids["Ann"], monster=monster("Rat", 9))
    g.helps("Bob")
    sword = {"kind": "item", "name": "Big Sword", "bonus": 5, "slot": "1-hand", "gold": 400}
    assert g.refused("Bob", type="play", player=g.ids["Bob"], card=sword).rule == "no-equip-in-combat"
    assert g.refused("Ann", type="play", player=g.ids["Ann"], card=sword).rule == "no-equip-in-combat"
    assert g.view["players_strength"] == 2


def test_the_helper_cannot_become_a_dog_mid_fight_but_the_fighter_may_play_a_class():
    # Tails, When You May Take Actions: a new race or class is played on one's own turn (the
    # fighter's example plays a Wizard mid-fight); the helper is not on their turn.
    g = Game("tails")
    g("Ann", type="fight", player=g.ids["Ann"], monster=monster("Rat", 9))
    g.helps("Bob")
    before = g.view["players_strength"]
    assert g.refused("Bob", type="play", player=g.ids["Bob"], card="tails/dog").rule == \
        "play-class-timing"
    assert g.refused("Cid", type="play", player=g.ids["Cid"], card="tails/dog").rule == \
        "play-class-timing"
    assert g.view["players_strength"] == before
    g("Ann", type="play", player=g.ids["Ann"], card="tails/wizard")
    assert "wizard" in g.p("Ann")["classes"]


# --- Mate (classic, Combat) ---------------------------------------------------------------

def test_charming_a_monster_leaves_its_mate_to_be_fought_and_run_from():
    # classic, Combat: one monster may be eliminated and the other still fought.
    g = Game("classic")
    g("Ann", type="level", player=g.ids["Ann"], delta=3)
    g("Ann", type="fight", player=g.ids["Ann"], monster=monster("Orc", 5, 2))
    g("Cid", type="enhance", monster=0, card=MATE)
    assert g.view["monsters_strength"] == 10
    g("Ann", type="remove_monster", monster=0)
    assert [m["gone"] for m in g.view["monsters"]] == [True, False]
    assert g.view["monsters_strength"] == 5 and not g.view["winning"]
    assert g.stored["stage"] == "fighting"
    g("Ann", type="resolve")
    assert [(e["player"], e["monster"]) for e in g.view["escape"]] == [(g.ids["Ann"], 1)]
    g("Ann", type="run_away", player=g.ids["Ann"], monster=1, roll=5)
    assert g.stored["stage"] == "over"


def test_the_monster_left_when_its_mate_is_charmed_is_killed_for_one_level_and_both_treasures():
    g = Game("classic")
    g("Ann", type="level", player=g.ids["Ann"], delta=3)
    g("Ann", type="fight", player=g.ids["Ann"], monster=monster("Orc", 3, 2))
    g("Cid", type="enhance", monster=0, card=MATE)
    g("Ann", type="remove_monster", monster=1)  # the Mate is charmed, the Orc stays
    assert [m["gone"] for m in g.view["monsters"]] == [False, True]
    assert g.view["monsters_strength"] == 3 and g.view["winning"]
    with pytest.raises(engine.BadAction):  # the charmed Mate cannot leave twice
        g("Ann", type="remove_monster", monster=1)
    g("Ann", type="resolve")
    assert g.p("Ann")["level"] == 5
    assert g.stored["result"]["treasures"] == 4


# --- Baby (classic, When To Play Cards) -----------------------------------------------------

def test_baby_never_takes_a_monster_below_level_1_in_classic():
    # classic, When To Play Cards: no card reduces a monster to level 0 or below.
    g = Game("classic")
    g("Ann", type="fight", player=g.ids["Ann"], monster=monster("Rat", 3, 1))
    g("Cid", type="enhance", monster=0, card="classic/baby")
    rat = g.view["monsters"][0]
    assert rat["strength"] == 1 and g.view["monsters_strength"] == 1
    assert rat["level"] + sum(b["value"] for b in rat["bonuses"]) == 1  # the breakdown adds up
    assert rat["treasures"] == 1  # Baby's one treasure fewer, not below one
    assert not g.view["winning"]  # level 1 against 1: monsters win ties
    g("Cid", type="one_shot", side="monsters", card={"kind": "one-shot", "name": "Sap", "bonus": -4})
    assert g.view["monsters_strength"] == 1


def test_in_the_newer_rulebooks_a_monster_strength_may_fall_below_1():
    # Tails, Conflicts Between Cards and Rules (1): a monster's combat strength may go below 1.
    g = Game("tails")
    g("Ann", type="fight", player=g.ids["Ann"], monster=monster("Rat", 3, 1))
    g("Cid", type="enhance", monster=0, card={"kind": "enhancer", "name": "Tiny", "bonus": -5})
    assert g.view["monsters_strength"] == -2


# --- the fight ends when its last monster leaves (Russia, Tails: Combat) --------------------

@pytest.mark.parametrize("edition", ["russia", "tails"])
def test_the_fight_is_over_once_its_last_monster_has_left_and_takes_nothing_more(edition):
    g = Game(edition)
    g("Ann", type="fight", player=g.ids["Ann"], monster=monster("Snake", 8, 2))
    line = g.line("Ann", type="remove_monster", monster=0)
    assert g.stored["stage"] == "over" and g.stored["ended"] == "no_monsters"
    assert "Every monster has left the fight, so it is over; 2 treasures face down" in line
    assert g.p("Ann")["level"] == 1  # no kill, no level
    for action in ({"type": "add_monster", "monster": monster("Bat", 1)},
                   {"type": "enhance", "monster": 0, "card": {"kind": "enhancer", "name": "Rabid", "bonus": 5}},
                   {"type": "one_shot", "side": "monsters", "card": {"kind": "one-shot", "name": "Sap", "bonus": 3}}):
        refusal = g.refused("Cid", **action)
        assert refusal.rule == "fight-ends-last-monster-removed"
        assert refusal.citation.startswith(f"Munchkin {edition.title()}, Combat")
    g("Ann", type="close_fight")


def test_as_printed_a_classic_fight_stays_open_when_its_last_monster_leaves():
    g = Game("classic")
    g("Ann", type="fight", player=g.ids["Ann"], monster=monster("Snake", 8, 2))
    g("Ann", type="remove_monster", monster=0)
    assert g.stored["stage"] == "fighting"
    g("Cid", type="add_monster", monster=monster("Bat", 3))
    assert not g.view["winning"]


@pytest.mark.parametrize("edition", ["classic", "oz", "spell-skool"])
def test_with_the_official_rulings_every_edition_ends_the_fight_with_its_last_monster(edition):
    g = Game(edition, official=True)
    g("Ann", type="fight", player=g.ids["Ann"], monster=monster("Snake", 8, 2))
    g("Ann", type="remove_monster", monster=0)
    assert g.stored["stage"] == "over"
    refusal = g.refused("Cid", type="add_monster", monster=monster("Bat", 3))
    assert refusal.rule == "fight-ends-last-monster-removed"
    assert refusal.citation.startswith("Steve Jackson Games")  # no box of these prints it
    assert "add_monster" not in g.allowed("Cid")


# --- Divine Intervention (classic, Starting and Finishing) ----------------------------------

def test_divine_intervention_raises_every_cleric_and_may_give_the_winning_level():
    g = Game("classic")
    g("Ann", type="level", player=g.ids["Ann"], delta=8)
    g("Ann", type="play", player=g.ids["Ann"], card="classic/cleric")
    g("Cid", type="play", player=g.ids["Cid"], card="classic/cleric")
    line = g.line("Bob", type="play", player=g.ids["Bob"], card="classic/divine-intervention")
    assert line == ("Divine Intervention: every Cleric goes up a level: "
                    "Ann level 9 to 10 and wins the game; Cid level 1 to 2")
    assert g.state["winners"] == [g.ids["Ann"]]
    assert g.p("Bob")["level"] == 1
    assert not any(c["card"]["name"] == "Divine Intervention" for c in g.p("Bob")["cards"])


def test_divine_intervention_with_no_cleric_raises_nobody():
    g = Game("classic")
    line = g.line("Bob", type="play", player=g.ids["Bob"], card="classic/divine-intervention")
    assert line == "Divine Intervention: nobody at the table is a Cleric, so nobody goes up a level"
    assert [p["level"] for p in g.state["players"]] == [1, 1, 1]


# --- Yuppie Water (classic) ----------------------------------------------------------------

def test_yuppie_water_counts_for_an_elf_helper_whoever_plays_it():
    g = Game("classic")
    g("Bob", type="play", player=g.ids["Bob"], card="classic/elf")
    g("Ann", type="fight", player=g.ids["Ann"], monster=monster("Troll", 10))
    g.helps("Bob")
    before = g.view["players_strength"]
    g("Ann", type="one_shot", side="players", card="classic/yuppie-water")
    assert g.view["players_strength"] == before + 2
    assert g.view["helper_strength"] == 1 + 2


# --- the fight's words, over a played game ------------------------------------------------

def test_a_lost_fight_says_who_was_caught_and_who_died():
    g = Game("classic")
    g("Ann", type="fight", player=g.ids["Ann"], monster=monster("Dragon", 20, bad_stuff={"death": True}))
    g("Ann", type="resolve")
    g("Ann", type="run_away", player=g.ids["Ann"], monster=0, roll=1)
    assert g.stored["stage"] == "over"
    assert render(g.stored["result"]["text"]) == "The fight is over: Ann was caught by Dragon and died."


def test_after_a_win_the_big_numbers_are_the_ones_the_words_name():
    g = Game("classic")
    g("Ann", type="level", player=g.ids["Ann"], delta=4)
    g("Ann", type="fight", player=g.ids["Ann"], monster=monster("Orc", 3, levels=2))
    players, monsters = g.view["players_strength"], g.view["monsters_strength"]
    g("Ann", type="resolve")
    assert g.p("Ann")["level"] == 7  # the win moved the level ...
    view = g.view
    assert (view["players_strength"], view["monsters_strength"]) == (players, monsters) == (5, 3)
    assert render(view["result"]["text"]).startswith(
        f"Ann wins ({view['players_strength']} against {view['monsters_strength']})")


def test_an_enhancer_cannot_go_on_a_monster_that_has_left_the_fight():
    # A charmed or discarded monster is out of the fight (classic, Combat): nothing to enhance.
    g = Game("classic")
    g("Ann", type="fight", player=g.ids["Ann"], monster=monster("Ogre", 12, 2))
    g("Ann", type="add_monster", monster=monster("Rat", 1))
    g("Ann", type="remove_monster", monster=1)
    g.refused("Cid", BadAction, type="enhance", monster=1,
              card={"kind": "enhancer", "name": "Baby", "bonus": -5})  # and nothing changed
    assert [e["monster"] for e in g.allowed("Cid")["enhance"]] == [0]
