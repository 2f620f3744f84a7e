"""Bad Stuff and monster conditions as data, driven through ``engine.apply`` like a table.

Munchkin (classic rules), Running Away: a monster that catches you does the Bad Stuff on its
card, and some monsters hurt you even when you get away; Death: the dead lose their items
and hand. Munchkin Tails, Asking For Help: a Human facing the Human Rights Activist chases it
away. The cards' numbers and conditions are in cards/*.json (bad_stuff.steps, effects).
"""

from __future__ import annotations

from functools import partial

import pytest

from companion import engine
from companion.engine import BadAction
from companion.engine.bad_stuff import APPLIERS
from companion.engine.vocab import BAD_STUFF_DOS
from companion.engine.words import render

from . import driver

Game = partial(driver.Game, seed=5)


def item(name, bonus, slot="other", **extra):
    return {"kind": "item", "name": name, "bonus": bonus, "slot": slot, "gold": 300, **extra}


def monster(name, level=20, **extra):
    return {"kind": "monster", "name": name, "level": level, **extra}


# --- the bugs of the played game ------------------------------------------------------------

def test_face_sucker_takes_the_headgear_off_the_sheet_and_a_level():
    t = Game()
    t.play("Ann", "classic/helm-of-courage", "classic/buckler-of-swashing")
    t.level("Ann", 4)
    assert t.p("Ann")["gear_bonus"] == 1 + 2
    line = render(t.lose_to("classic/face-sucker"))
    assert "Helm of Courage discarded" in line and "level 4 to 3" in line
    ann = t.p("Ann")
    assert ann["level"] == 3
    assert "Helm of Courage" not in t.names("Ann")  # gone, not merely unequipped
    assert ann["gear_bonus"] == 2  # only the buckler still counts


def test_face_sucker_on_a_bare_head_still_takes_the_level():
    t = Game()
    t.level("Ann", 2)
    line = render(t.lose_to("classic/face-sucker"))
    assert "Ann has no headgear item" in line and t.p("Ann")["level"] == 1


def test_squidzilla_does_not_pursue_a_level_one_cleric_who_escapes_without_a_roll():
    t = Game()
    t.play("Ann", "classic/cleric")
    t("host", type="fight", player=t.ids["Ann"], monster="classic/squidzilla")
    line = t.line("host", type="resolve")
    assert "Squidzilla does not pursue Ann: escaped without a roll" in line
    assert t.view["stage"] == "over" and t.view["escape"][0]["not_pursued"] is True
    assert t.state["combat"]["escapes"] == [{"player": t.ids["Ann"], "monster": 0, "roll": None,
                                             "escaped": True, "not_pursued": True}]
    assert not t.p("Ann")["dead"]


def test_squidzilla_pursues_an_elf_and_anyone_above_level_four():
    t = Game()
    t.play("Bob", "classic/elf")
    t("host", type="set_turn", player=t.ids["Bob"])
    t("host", type="fight", player=t.ids["Bob"], monster="classic/squidzilla")
    t("host", type="resolve")
    assert t.view["stage"] == "running" and t.view["escape"][0]["auto"] is False
    t("host", type="close_fight")
    t.level("Ann", 5)
    assert "Ann dies" in render(t.lose_to("classic/squidzilla"))


def test_a_human_chases_the_human_rights_activist_away_a_win_without_a_kill():
    t = Game("tails")
    line = t.line("host", type="fight", player=t.ids["Ann"], monster="tails/human-rights-activist",
             level=10)
    assert "Ann chases Human Rights Activist away" in line  # Ann has no race card: a Human
    assert t.view["monsters"][0]["gone"] is True and t.view["winning"] is True
    # Tails, Combat: a fight whose last monster has left is over at once, won without a kill.
    assert "Every monster has left the fight, so it is over" in line
    assert t.view["result"]["won"] is True and t.p("Ann")["level"] == 1  # no level: no kill
    assert t.view["rewards"]["fighter_levels"] == 0
    with pytest.raises(engine.RuleViolation):
        t("host", type="add_monster", monster="tails/human-rights-activist", level=10)


def test_a_cleric_may_chase_the_wannabe_vampire_away_and_a_classic_fight_waits_for_its_end():
    # The card's "may": the Cleric is offered the chase, and nothing happens until she takes it.
    t = Game("classic")
    t.play("Ann", "classic/cleric")
    line = t.line("host", type="fight", player=t.ids["Ann"], monster="classic/wannabe-vampire")
    assert "chases" not in line and t.view["monsters"][0]["gone"] is False
    assert t.may("Ann", "chase_away", player=t.ids["Ann"], monster=0)
    line = t.line("Ann", type="chase_away", player=t.ids["Ann"], monster=0)
    assert "Ann chases Wannabe Vampire away" in line
    assert "it is over" not in line and t.view["stage"] == "fighting"  # classic prints no end
    line = t.line("host", type="resolve")
    assert line.startswith("Ann wins") and t.p("Ann")["level"] == 1


def test_a_cleric_may_instead_fight_the_wannabe_vampire_for_the_level():
    t = Game("classic")
    t.play("Ann", "classic/cleric")
    t.level("Ann", 9)
    t("host", type="fight", player=t.ids["Ann"], monster="classic/wannabe-vampire", level=5)
    line = t.line("Ann", type="resolve")
    assert line.startswith("Ann wins") and t.p("Ann")["level"] == 10


def test_only_a_cleric_is_offered_the_chase():
    t = Game("classic")
    t("host", type="fight", player=t.ids["Ann"], monster="classic/wannabe-vampire")
    assert not t.may("Ann", "chase_away", player=t.ids["Ann"], monster=0)
    t.refused("Ann", BadAction, type="chase_away", player=t.ids["Ann"], monster=0)


def test_a_human_helper_chases_it_away_from_a_dog_fighter():
    t = Game("tails")
    t.play("Ann", "tails/dog")
    t("host", type="fight", player=t.ids["Ann"], monster="tails/human-rights-activist", level=10)
    assert t.view["monsters"][0]["gone"] is False  # a Dog does not chase it
    line = render(t.helps("Bob"))  # Bob has no race card: a Human
    assert "Bob chases Human Rights Activist away" in line
    assert t.view["monsters"][0]["gone"] is True


@pytest.mark.parametrize("roll, dead, level", [(1, True, 6), (2, True, 6), (3, False, 3),
                                               (5, False, 1)])
def test_3872_orcs_roll_a_die_one_or_two_kills_else_that_many_levels(roll, dead, level):
    t = Game()
    t.level("Ann", 6)
    line = render(t.lose_to("classic/3872-orcs", bad_stuff_roll=roll))
    assert f"the Bad Stuff die shows {roll}" in line
    assert t.p("Ann")["dead"] is dead and t.p("Ann")["level"] == level


# --- each kind of step -----------------------------------------------------------------------

def test_lose_levels_stops_at_level_one():
    t = Game()
    t.level("Ann", 2)
    t.lose_to("classic/gazebo")
    assert t.p("Ann")["level"] == 1


def test_level_to_lowest_drops_to_the_lowest_level_at_the_table():
    t = Game()
    t.level("Ann", 8)
    t.level("Bob", 3)
    t.level("Cid", 5)
    assert "level 8 to 3" in render(t.lose_to("classic/ghoulfiends"))


def test_lose_items_of_a_slot_takes_only_what_is_worn_there():
    t = Game()
    t.play("Ann", item("Hat", 1, "headgear"), item("Cap", 2, "headgear"), item("Boots", 2, "footgear"))
    t.lose_to("classic/bigfoot")
    assert t.names("Ann", "item") == ["Cap", "Boots"]  # the carried Cap stays


def test_lose_items_big_takes_every_big_item():
    t = Game()
    t.play("Ann", "classic/dwarf", "classic/huge-rock", "classic/stepladder", "classic/buckler-of-swashing")
    t.lose_to("classic/gelatinous-octahedron", level=20)
    assert t.names("Ann", "item") == ["Buckler of Swashing"]


def test_lose_items_all_and_the_hand_king_tut():
    t = Game()
    t.play("Ann", "classic/buckler-of-swashing", "classic/leather-armor")
    t.level("Ann", 5)
    t.hand("Ann", 3)
    t.lose_to("classic/king-tut")
    ann = t.p("Ann")
    assert t.names("Ann", "item") == [] and ann["hand"] == 0
    assert ann["level"] == 3  # pursued at level 5: fleeing costs 2 levels as well


def test_king_tut_does_not_pursue_level_three_so_nothing_is_lost():
    t = Game()
    t.play("Ann", "classic/buckler-of-swashing")
    t.level("Ann", 3)
    t("host", type="fight", player=t.ids["Ann"], monster="classic/king-tut")
    t("host", type="resolve")
    assert t.view["stage"] == "over"
    assert t.p("Ann")["level"] == 3 and t.names("Ann", "item") == ["Buckler of Swashing"]


def test_lose_items_best_takes_the_one_that_counts_for_most():
    t = Game()
    t.play("Ann", "classic/buckler-of-swashing", "classic/staff-of-napalm",
           "classic/really-impressive-title")
    thief = monster("Pickpocket", bad_stuff={"summary": "Takes your best item.",
                                              "steps": [{"do": "lose_items", "which": "best"}]})
    t.lose_to(thief)
    # the Staff (+5) needs a Wizard, so it counts for nothing: the Title (+3) is the best
    assert t.names("Ann", "item") == ["Buckler of Swashing", "Staff of Napalm"]


def test_crabs_cannot_be_outrun_and_take_armor_and_everything_below_the_waist():
    t = Game()
    t.play("Ann", "classic/leather-armor", "classic/boots-of-butt-kicking",
           "classic/kneepads-of-allure", "classic/helm-of-courage")
    t("host", type="fight", player=t.ids["Ann"], monster="classic/crabs", level=30)
    t("host", type="resolve")
    assert t.view["escape"][0]["needs"] == 7 and t.view["escape"][0]["chance"] == 0
    assert "caught" in t.line("host", type="run_away", player=t.ids["Ann"], monster=0, roll=6)
    assert t.names("Ann", "item") == ["Helm of Courage"]


@pytest.mark.parametrize("boots, items, level", [(True, [], 3), (False, [], 2)])
def test_drooling_slime_takes_the_footgear_or_else_a_level(boots, items, level):
    t = Game()
    if boots:
        t.play("Ann", "classic/boots-of-butt-kicking")
    t.level("Ann", 3)
    t.lose_to("classic/drooling-slime", level=20)
    assert t.names("Ann", "item") == items and t.p("Ann")["level"] == level


def test_shrieking_geek_leaves_a_plain_human_half_breed_and_super_munchkin_fall_too():
    t = Game()
    t.play("Ann", "classic/elf", "classic/half-breed", "classic/dwarf", "classic/warrior")
    t.lose_to("classic/shrieking-geek")
    ann = t.p("Ann")
    assert t.names("Ann") == [] and ann["races"] == ["human"] and ann["classes"] == []


def test_amazon_takes_the_class_or_else_three_levels():
    t = Game()
    t.play("Ann", "classic/thief")
    t.level("Ann", 5)
    t.lose_to("classic/amazon")
    assert t.p("Ann")["classes"] == [] and t.p("Ann")["level"] == 5
    t("host", type="close_fight")
    t.lose_to("classic/amazon")
    assert t.p("Ann")["level"] == 2


def test_amazon_leaves_a_woman_alone_with_one_treasure():
    t = Game("classic", "Ann", "Bob", "Cid", sex="female")
    line = t.line("host", type="fight", player=t.ids["Ann"], monster="classic/amazon")
    assert "Ann chases Amazon away" in line
    t("host", type="resolve")
    assert t.view["rewards"]["treasures"] == 1 and t.p("Ann")["level"] == 1


def test_the_horror_kills_all_but_a_wizard_who_only_loses_that_class():
    t = Game()
    t.play("Ann", "classic/wizard", "classic/super-munchkin", "classic/cleric")
    t.lose_to("classic/unspeakably-awful-indescribable-horror")
    assert not t.p("Ann")["dead"] and t.p("Ann")["classes"] == ["cleric"]
    t("host", type="close_fight")
    assert "Ann dies" in render(t.lose_to("classic/unspeakably-awful-indescribable-horror"))


def test_tongue_demon_takes_one_more_level_from_an_elf():
    t = Game()
    t.level("Ann", 6)
    t.level("Bob", 6)
    t.play("Bob", "classic/elf")
    t.lose_to("classic/tongue-demon")
    t("host", type="close_fight")
    t.lose_to("classic/tongue-demon", name="Bob")
    assert (t.p("Ann")["level"], t.p("Bob")["level"]) == (4, 3)


def test_lose_hand_discards_it_and_lawyers_share_it_out_round_the_table():
    t = Game()
    t.hand("Ann", 4)
    t.lose_to("classic/pukachu")
    assert t.p("Ann")["hand"] == 0
    t("host", type="close_fight")
    t.hand("Bob", 3)
    line = render(t.lose_to("classic/lawyers", name="Bob"))
    assert [t.p(n)["hand"] for n in ("Ann", "Bob", "Cid")] == [1, 0, 1]
    assert "1 card from the hand discarded" in line


def test_lawyers_leave_a_thief_alone_and_give_no_treasure():
    t = Game()
    t.play("Ann", "classic/thief")
    t("host", type="fight", player=t.ids["Ann"], monster="classic/lawyers")
    t("host", type="resolve")
    assert t.view["rewards"] == {**t.view["rewards"], "treasures": 0, "fighter_levels": 0}


def test_a_cleric_helper_chases_the_wannabe_vampire_away_full_treasure_no_level():
    t = Game()
    t.play("Bob", "classic/cleric")
    t("host", type="fight", player=t.ids["Ann"], monster="classic/wannabe-vampire")
    assert t.view["monsters"][0]["gone"] is False
    t.helps("Bob")
    t("host", type="resolve")
    assert t.view["rewards"]["treasures"] == 3 and t.p("Ann")["level"] == 1


def test_death_bad_stuff_kills():
    t = Game()
    t.level("Ann", 5)
    t.play("Ann", "classic/buckler-of-swashing")
    assert "Ann dies: loses Buckler of Swashing" in render(t.lose_to("classic/bullrog"))
    assert t.p("Ann")["dead"]


def test_mr_bones_costs_a_level_even_to_escape_and_three_when_he_catches():
    t = Game()
    t.level("Ann", 5)
    line = render(t.lose_to("classic/mr-bones", roll=6, level=20))
    assert "escapes" in line and "fleeing costs: level 5 to 4" in line
    t("host", type="close_fight")
    t.lose_to("classic/mr-bones", roll=1, level=20)
    assert t.p("Ann")["level"] == 1


def test_manual_bad_stuff_waits_for_the_table_to_confirm_it_by_hand():
    t = Game()
    t.play("Ann", "classic/buckler-of-swashing")
    line = render(t.lose_to("classic/net-troll"))
    assert "Bad Stuff: Each highest-Level player takes one Item from you." in line
    notes = t.p("Ann")["pending_bad_stuff"]
    assert [(n["monster"], n["summary"]) for n in notes] == [
        ("Net Troll", "Each highest-Level player takes one Item from you.")]
    assert t.names("Ann", "item") == ["Buckler of Swashing"]  # the app takes nothing by itself
    ann = t.ids["Ann"]
    assert t.allowed("Ann")["confirm_bad_stuff"] == [
        {"player": ann, "pending": notes[0]["id"]}]
    assert "confirm_bad_stuff" not in t.allowed("Bob")
    with pytest.raises(BadAction):
        t("Ann", type="confirm_bad_stuff", player=ann, pending=notes[0]["id"] + 1)
    line = t.line("Ann", type="confirm_bad_stuff", player=ann, pending=notes[0]["id"])
    assert line == "Ann has taken the Bad Stuff of Net Troll by hand"
    assert "pending_bad_stuff" not in t.p("Ann")


def test_cards_without_steps_keep_their_old_meaning():
    t = Game()
    t.level("Ann", 4)
    line = render(t.lose_to(monster("Ogre", bad_stuff={"levels": 2, "summary": "Bonk."})))
    assert line.endswith("caught! Bad Stuff: level 4 to 2; Bonk.")
    assert "pending_bad_stuff" not in t.p("Ann")
    t("host", type="close_fight")
    t.lose_to(monster("Ghost", bad_stuff={"summary": "Haunts you."}))
    assert [n["summary"] for n in t.p("Ann")["pending_bad_stuff"]] == ["Haunts you."]


def test_a_monster_with_no_bad_stuff_does_nothing():
    t = Game()
    t.level("Ann", 3)
    line = render(t.lose_to(monster("Pebble", bad_stuff={"summary": "None.", "steps": []})))
    assert line.endswith("caught! Bad Stuff: nothing happens") and t.p("Ann")["level"] == 3


# Each kind of step has a test above; this table names it, and the test below checks every word
# of the vocabulary is here (tests/test_catalog_effects.py: every step the catalog uses is one).
STEP_TESTS = {
    "lose_levels": test_lose_levels_stops_at_level_one,
    "roll_levels": test_3872_orcs_roll_a_die_one_or_two_kills_else_that_many_levels,
    "level_to_lowest": test_level_to_lowest_drops_to_the_lowest_level_at_the_table,
    "lose_items": test_lose_items_of_a_slot_takes_only_what_is_worn_there,
    "lose_race": test_shrieking_geek_leaves_a_plain_human_half_breed_and_super_munchkin_fall_too,
    "lose_class": test_amazon_takes_the_class_or_else_three_levels,
    "lose_hand": test_lose_hand_discards_it_and_lawyers_share_it_out_round_the_table,
    "death": test_death_bad_stuff_kills,
    "manual": test_manual_bad_stuff_waits_for_the_table_to_confirm_it_by_hand,
}


def test_every_step_of_the_vocabulary_has_an_applier_and_a_test():
    assert set(APPLIERS) == set(BAD_STUFF_DOS) == set(STEP_TESTS)


def test_the_sheet_shows_the_note_and_its_done_button_confirms_it(client):
    """The page: the note is on the caught player's sheet until its button is pressed."""
    from ..helpers import ApiTable

    table = ApiTable(client)
    ann = table.join("Ann")
    table.join("Bob")
    table.join("Cid")
    table.act("Ann", {"type": "fight", "player": ann["player_id"], "monster": "classic/platycore"})
    table.act("Ann", {"type": "resolve"})
    table.act("Ann", {"type": "run_away", "player": ann["player_id"], "monster": 0, "roll": 1})
    client.set_cookie(f"seat_{table.code}", ann["token"])
    html = client.get(f"/games/{table.code}").get_data(as_text=True)
    note = next(p for p in table.state()["players"] if p["name"] == "Ann")["pending_bad_stuff"][0]
    assert f'id="pending-bad-stuff-{note["id"]}"' in html and "Platycore" in html
    r = client.post(f"/games/{table.code}/act", data={
        "type": "confirm_bad_stuff", "player": ann["player_id"], "pending": str(note["id"])})
    assert r.status_code == 303
    assert "pending_bad_stuff" not in next(p for p in table.state()["players"] if p["name"] == "Ann")
    assert "pending-bad-stuff" not in client.get(f"/games/{table.code}").get_data(as_text=True)
