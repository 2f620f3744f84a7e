"""Race and class powers as actions: each power is accepted when the rules allow it
and refused, with its rule, out of its time, over its limit, or with too few cards."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion import engine, rulebase
from companion.engine import BadAction, powers
from companion.engine.words import render

from .driver import HOST, Game


def cls(name):
    return {"kind": "class", "name": name}


def race(name):
    return {"kind": "race", "name": name}


def item(name, bonus=1, slot="other", **extra):
    return {"kind": "item", "name": name, "bonus": bonus, "slot": slot, "gold": 300, **extra}


def monster(name, level, **extra):
    return {"kind": "monster", "name": name, "level": level, "treasures": 2, **extra}


# --- classic: Warrior ---------------------------------------------------------------------

def test_berserking_adds_one_per_card_and_takes_the_cards_from_the_hand():
    g = Game().give("Ann", cls("Warrior"), hand=4).fight()
    line = render(g.power("Ann", "warrior-berserking", from_hand=3))
    assert "+3" in line
    assert g.p("Ann")["hand"] == 1
    assert g.view["fighter_strength"] == 1 + 3


def test_berserking_is_once_per_fight_and_only_in_a_fight_you_are_in():
    g = Game().give("Ann", cls("Warrior"), hand=5).give("Bob", cls("Warrior"), hand=2)
    assert g.refused_power("Ann", "warrior-berserking", from_hand=1).rule == "power-in-fight"
    g.fight()
    assert g.refused_power("Bob", "warrior-berserking", from_hand=1).rule == "power-in-fight"  # a bystander
    g.power("Ann", "warrior-berserking", from_hand=1)
    assert g.refused_power("Ann", "warrior-berserking", from_hand=1).rule == "power-once-per-combat"


def test_berserking_costs_one_to_three_cards_and_no_more_than_the_hand():
    g = Game().give("Ann", cls("Warrior"), hand=2).fight()
    assert g.refused_power("Ann", "warrior-berserking", from_hand=3).rule == "power-cost"  # holds 2
    assert g.refused_power("Ann", "warrior-berserking").rule == "power-cost"  # no card at all
    g("Ann", type="set_hand", player=g.ids["Ann"], count=5)
    assert g.refused_power("Ann", "warrior-berserking", from_hand=4).rule == "power-cost"  # at most 3


def test_a_helping_warrior_berserks_for_the_helper_column():
    g = Game().give("Bob", cls("Warrior"), hand=3).fight()
    g.helps("Bob")
    g.power("Bob", "warrior-berserking", from_hand=2)
    assert g.view["helper_strength"] == 1 + 2 and g.view["fighter_strength"] == 1


def test_cards_in_play_pay_too_but_never_the_class_card_itself_nor_a_kept_curse():
    g = Game().give("Ann", cls("Warrior"), item("Hat", 1, "headgear"), hand=0).fight()
    g("host", type="play", player=g.ids["Ann"], card={"kind": "curse", "name": "Sticky", "duration": "lasting"})
    warrior, hat, curse = g.iid("Ann", "Warrior"), g.iid("Ann", "Hat"), g.iid("Ann", "Sticky")
    assert g.refused_power("Ann", "warrior-berserking", from_play=[warrior]).rule == "discard-to-power"
    assert g.refused_power("Ann", "warrior-berserking", from_play=[curse]).rule == "discard-to-power"
    g.power("Ann", "warrior-berserking", from_play=[hat])
    assert all(c["card"]["name"] != "Hat" for c in g.p("Ann")["cards"])
    assert g.view["fighter_strength"] == 1 + 1  # the hat's +1 is gone, Berserking's +1 came


def test_a_power_needs_its_card_and_a_living_character():
    g = Game().give("Ann", hand=3).fight()
    assert g.refused_power("Ann", "warrior-berserking", from_hand=1).rule == "power-needs-card"
    g = Game().give("Bob", cls("Cleric"), hand=2)
    g("Bob", type="die", player=g.ids["Bob"])
    assert g.refused_power("Bob", "cleric-resurrection", from_hand=1).rule == "power-dead"


def test_passive_powers_and_other_editions_powers_are_not_actions():
    g = Game().give("Ann", race("Elf"), cls("Warrior"))
    assert g.refused_power("Ann", "elf-helper-levels").rule == "power-passive"
    assert g.refused_power("Ann", "professor-ability").rule == "power-not-in-edition"
    # The Halfling's double sale is the sell action's 'doubled': one way to do it.
    g = Game().give("Cid", race("Halfling"))
    with pytest.raises(BadAction, match="sell"):
        g.power("Cid", "halfling-double-sale")


# --- classic: Cleric ----------------------------------------------------------------------

def test_resurrection_is_recorded_and_leaves_the_hand_count_as_it_was():
    g = Game().give("Ann", cls("Cleric"), item("Mace"), hand=2)
    line = render(g.power("Ann", "cleric-resurrection", from_hand=1))
    assert "discard" in line and g.p("Ann")["hand"] == 2
    assert g.refused_power("Ann", "cleric-resurrection", from_play=[g.iid("Ann", "Mace")]).rule == "power-cost"


def test_resurrection_takes_the_place_of_a_face_up_draw_so_never_while_a_fight_is_on():
    g = Game("classic").give("Ann", cls("Cleric"), hand=2)
    g("Ann", type="level", player=g.ids["Ann"], delta=2)
    g.fight("Ann", monster("Slime", 1))
    refused = g.refused_power("Ann", "cleric-resurrection", from_hand=1)
    assert refused.rule == "cleric-resurrection-face-up" and "face up" in refused.message
    assert refused.citation  # the ruling's words and where the card says so
    g("Ann", type="resolve")  # won: the treasures of a helped kill would be drawn face up
    g.power("Ann", "cleric-resurrection", from_hand=1)


def test_turning_gives_three_per_card_only_against_undead_and_three_cards_a_fight():
    g = Game().give("Ann", cls("Cleric"), hand=5).fight("Ann", monster("Ogre", 8))
    assert g.refused_power("Ann", "cleric-turning", from_hand=1).rule == "power-turning-undead"
    g("host", type="add_monster", monster=monster("Ghoul", 4, tags=["undead"]))
    g.power("Ann", "cleric-turning", from_hand=2)
    assert g.view["fighter_strength"] == 1 + 6
    assert g.refused_power("Ann", "cleric-turning", from_hand=2).rule == "power-turning-undead"  # 4 > 3
    g.power("Ann", "cleric-turning", from_hand=1)
    assert g.view["fighter_strength"] == 1 + 9 and g.p("Ann")["hand"] == 2


# --- classic: Thief -----------------------------------------------------------------------

def test_backstab_is_minus_two_once_per_victim_per_fight_on_someone_in_it():
    g = Game().give("Cid", cls("Thief"), hand=4).fight()
    g.helps("Bob")
    g.power("Cid", "thief-backstab", target=g.ids["Ann"], from_hand=1)
    assert g.view["fighter_strength"] == 1 - 2
    assert g.refused_power("Cid", "thief-backstab", target=g.ids["Ann"], from_hand=1).rule == "power-backstab-once"
    g.power("Cid", "thief-backstab", target=g.ids["Bob"], from_hand=1)  # another victim
    assert g.view["helper_strength"] == 1 - 2 and g.p("Cid")["hand"] == 2
    assert g.refused_power("Cid", "thief-backstab", target=g.ids["Cid"], from_hand=1).rule == "power-backstab-once"


def test_backstab_needs_a_victim_in_a_fight_and_one_card():
    g = Game().give("Cid", cls("Thief"), hand=2)
    assert g.refused_power("Cid", "thief-backstab", target=g.ids["Ann"], from_hand=1).rule == "power-in-fight"
    g.fight()
    assert g.refused_power("Cid", "thief-backstab", target=g.ids["Bob"], from_hand=1).rule == "power-in-fight"
    assert g.refused_power("Cid", "thief-backstab", target=g.ids["Ann"], from_hand=2).rule == "power-cost"


def test_theft_takes_a_small_item_on_four_or_more_else_costs_a_level():
    g = Game().give("Cid", cls("Thief"), hand=3).give("Ann", item("Ring", 2), item("Cart", 1, big=True))
    g("host", type="level", player=g.ids["Cid"], delta=2)
    ring = g.iid("Ann", "Ring")
    line = render(g.power("Cid", "thief-theft", target=g.ids["Ann"], item=ring, roll=4, from_hand=1))
    assert "takes Ring" in line and any(c["iid"] == ring for c in g.p("Cid")["cards"])
    assert g.p("Cid")["hand"] == 2
    g("Cid", type="give", player=g.ids["Cid"], instance=ring, to=g.ids["Ann"])
    g.power("Cid", "thief-theft", target=g.ids["Ann"], item=ring, roll=3, from_hand=1)
    assert g.p("Cid")["level"] == 2 and any(c["iid"] == ring for c in g.p("Ann")["cards"])
    rule = g.refused_power("Cid", "thief-theft", target=g.ids["Ann"], item=g.iid("Ann", "Cart"), roll=6, from_hand=1).rule
    assert rule == "power-theft-small-item"


def test_theft_never_during_a_fight_in_classic_and_never_from_yourself():
    g = Game().give("Cid", cls("Thief"), item("Dagger"), hand=3).give("Bob", item("Ring"))
    assert g.refused_power("Cid", "thief-theft", target=g.ids["Cid"], item=g.iid("Cid", "Dagger"),
                     roll=6, from_hand=1).rule == "thief-no-steal-in-combat"
    g.fight()  # Ann fights: nobody at the table steals now
    assert g.refused_power("Cid", "thief-theft", target=g.ids["Bob"], item=g.iid("Bob", "Ring"),
                     roll=6, from_hand=1).rule == "thief-no-steal-in-combat"


# --- classic: Wizard ----------------------------------------------------------------------

def test_flight_adds_one_per_card_to_that_roll_only():
    g = Game().give("Ann", cls("Wizard"), hand=4).fight("Ann", monster("Ogre", 9), monster("Troll", 9))
    assert g.refused_power("Ann", "wizard-flight", monster=0, from_hand=2).rule == "power-running"  # still fighting
    g("Ann", type="resolve")
    line = render(g.power("Ann", "wizard-flight", monster=0, from_hand=2, roll=3))  # 3 + 2 = 5: away
    assert "escapes" in line and g.p("Ann")["hand"] == 2
    rows = {e["monster"]: e for e in g.view["escape"]}
    assert rows[0]["escaped"] is True and rows[0]["needs"] == 3 and rows[1]["needs"] == 5
    assert g.refused_power("Ann", "wizard-flight", monster=0, from_hand=1).rule == "power-running"  # rolled
    assert g.refused_power("Ann", "wizard-flight", monster=1, from_hand=3, roll=1).rule == "power-cost"  # holds 2


def test_charm_takes_the_whole_hand_sends_one_monster_away_and_gives_its_treasures_only():
    g = Game().give("Ann", cls("Wizard"), hand=0).fight("Ann", monster("Ogre", 12))
    assert g.refused_power("Ann", "wizard-charm", monster=0).rule == "power-cost"  # no hand to discard
    g("Ann", type="set_hand", player=g.ids["Ann"], count=3)
    assert g.refused_power("Ann", "wizard-charm", monster=0, from_hand=2).rule == "power-cost"  # not all
    assert g.refused_power("Ann", "wizard-charm", monster=0, from_play=[g.iid("Ann", "Wizard")]).rule == "discard-to-power"
    g.power("Ann", "wizard-charm", monster=0)
    assert g.p("Ann")["hand"] == 0 and g.view["monsters"][0]["gone"]
    g("Ann", type="resolve")
    assert g.p("Ann")["level"] == 1 and g.state["combat"]["result"]["treasures"] == 2


def test_charm_is_for_a_monster_still_in_a_fight_being_fought():
    g = Game().give("Ann", cls("Wizard"), hand=5)
    assert g.refused_power("Ann", "wizard-charm", monster=0).rule == "power-in-fight"
    g.fight("Ann", monster("Ogre", 12), monster("Troll", 3))
    g("host", type="remove_monster", monster=1)
    assert g.refused_power("Ann", "wizard-charm", monster=1).rule == "power-charm"


# --- classic: Halfling --------------------------------------------------------------------

def test_the_halflings_second_try_rolls_a_failed_roll_again_for_a_card_once_per_roll():
    # The later Halfling card's power: a table on the publisher's current rulings.
    g = Game(official=True).give("Ann", race("Halfling"), hand=2).fight("Ann", monster("Ogre", 9))
    g("Ann", type="resolve")
    # Not before a roll: there is no failed roll to roll again.
    assert g.refused_power("Ann", "halfling-second-try", monster=0, from_hand=1).rule == "power-running"
    # A failed roll waits for the second try: no Bad Stuff yet, the fight still runs.
    line = g.line("Ann", type="run_away", player=g.ids["Ann"], monster=0, roll=1)
    assert "unless a second try" in line
    assert g.stored["stage"] == "running" and g.view["escape"][0]["second_try"]
    line = render(g.power("Ann", "halfling-second-try", monster=0, from_hand=1, roll=6))
    assert "rolled again" in line and "escapes" in line and g.p("Ann")["hand"] == 1
    assert g.stored["stage"] == "over" and g.view["escape"][0]["escaped"]
    assert g.refused_power("Ann", "halfling-second-try", monster=0, from_hand=1).rule == "power-running"


def test_a_second_try_that_fails_too_is_caught_and_a_halfling_may_let_the_first_roll_stand():
    g = Game(official=True).give("Ann", race("Halfling"), hand=2).fight("Ann", monster("Ogre", 9))
    g("Ann", type="resolve")
    g("Ann", type="run_away", player=g.ids["Ann"], monster=0, roll=1)
    line = render(g.power("Ann", "halfling-second-try", monster=0, from_hand=1, roll=2))
    assert "caught" in line and "unless" not in line  # the second roll stands
    assert g.stored["stage"] == "over" and not g.view["escape"][0]["escaped"]
    # Another fight: Ann lets the failed roll stand (run_away again, no roll): caught now.
    g("host", type="close_fight")
    g.fight("Ann", monster("Ogre", 9))
    g("Ann", type="resolve")
    g("Ann", type="run_away", player=g.ids["Ann"], monster=0, roll=1)
    assert g.refused("Ann", type="run_away", player=g.ids["Ann"], monster=0, roll=6).rule == "power-running"
    line = g.line("Ann", type="run_away", player=g.ids["Ann"], monster=0)
    assert "caught" in line and "unless" not in line
    assert g.stored["stage"] == "over"


def test_no_second_try_waits_for_a_halfling_with_no_card_to_pay_it():
    g = Game().give("Ann", race("Halfling"), hand=0).fight("Ann", monster("Ogre", 9))
    g("Ann", type="resolve")
    line = g.line("Ann", type="run_away", player=g.ids["Ann"], monster=0, roll=1)
    assert "unless" not in line and g.stored["stage"] == "over"


def test_the_roll_needed_to_run_away_says_what_makes_it_up():
    g = Game().give("Ann", "classic/halfling", hand=2).fight("Ann", monster("Ogre", 9))
    g("Ann", type="resolve")
    row = g.view["escape"][0]
    assert row["needs"] == 6  # 5, and the Halfling's -1 (the classic rulebook: a penalty)
    assert [(part["value"], bool(part.get("base"))) for part in row["parts"]] == [(5, True), (-1, False)]
    assert "Halfling" in str(row["parts"][1]["source"])


def test_a_hand_the_table_does_not_track_pays_without_a_count_going_below_zero():
    g = Game().give("Ann", cls("Wizard")).fight("Ann", monster("Ogre", 12))
    g.state["players"][0]["hand"] = None  # an older table that never counted hands
    with pytest.raises(BadAction):
        g.power("Ann", "wizard-charm", monster=0)  # how big is the whole hand? it must be said
    g.power("Ann", "wizard-charm", monster=0, from_hand=2)
    assert g.stored_p("Ann")["hand"] is None and g.state["combat"]["monsters"][0]["gone"]


# --- the other editions -------------------------------------------------------------------

def test_oz_charm_needs_three_cards_at_least():
    g = Game("oz").give("Ann", cls("Wizard"), hand=2).fight("Ann", monster("Fighting Trees", 14))
    assert g.refused_power("Ann", "wizard-charm", monster=0).rule == "power-cost"
    g("Ann", type="set_hand", player=g.ids["Ann"], count=3)
    g.power("Ann", "wizard-charm", monster=0)
    assert g.p("Ann")["hand"] == 0 and g.view["monsters"][0]["gone"]


@pytest.mark.parametrize("edition, holder, power", [
    ("oz", "Professor", "professor-ability"), ("oz", "Soldier", "soldier-ability"),
    ("spell-skool", "Chess Club", "chess-club-ability"), ("spell-skool", "Sports Club", "sports-club-ability"),
    ("russia", "Hacker", "hacker-ability"), ("russia", "Cossack", "cossack-ability"),
    ("tails", "Cleric", "cleric-ability"),
])
def test_powers_printed_only_on_their_cards_are_recorded_with_their_cost(edition, holder, power):
    g = Game(edition).give("Ann", cls(holder), hand=3)
    line = render(g.power("Ann", power, from_hand=2))
    assert "the table applies what the card says" in line and g.p("Ann")["hand"] == 1
    assert g.refused_power("Ann", power, from_hand=4).rule == "power-cost"
    assert g.refused_power("Bob", power).rule == "power-needs-card"


def test_tails_races_with_powers_on_their_cards_are_recorded_and_the_dog_is_passive():
    g = Game("tails").give("Ann", race("Fox"), hand=1).give("Bob", race("Dog"))
    g.power("Ann", "fox-ability", from_hand=1)
    assert g.p("Ann")["hand"] == 0
    assert g.refused_power("Bob", "dog-helping").rule == "power-passive"
    assert g.refused_power("Ann", "oligarch-charity").rule == "power-not-in-edition"


def test_tails_berserk_once_per_fight_with_the_cards_number_or_recorded():
    g = Game("tails").give("Ann", cls("Warrior"), hand=4).fight()
    g.power("Ann", "warrior-berserking", from_hand=2, bonus=4)
    assert g.view["fighter_strength"] == 1 + 4
    assert g.refused_power("Ann", "warrior-berserking", from_hand=1).rule == "power-once-per-combat"
    g = Game("tails").give("Ann", cls("Warrior"), hand=4).fight()
    assert "the table adds it" in render(g.power("Ann", "warrior-berserking", from_hand=1))
    assert g.view["fighter_strength"] == 1 and g.p("Ann")["hand"] == 3
    with pytest.raises(BadAction):  # classic knows the number: no bonus to enter
        Game().give("Ann", cls("Warrior"), hand=2).fight().power("Ann", "warrior-berserking", from_hand=1, bonus=5)


def test_tails_theft_is_allowed_in_someone_elses_fight_but_not_when_either_is_fighting():
    g = Game("tails").give("Cid", cls("Thief"), hand=2).give("Bob", item("Bone")).give("Ann", item("Collar"))
    g.fight("Ann")
    g.power("Cid", "thief-theft", target=g.ids["Bob"], item=g.iid("Bob", "Bone"), succeeded=True)
    assert any(c["card"]["name"] == "Bone" for c in g.p("Cid")["cards"])
    assert g.refused_power("Cid", "thief-theft", target=g.ids["Ann"], item=g.iid("Ann", "Collar"),
                     succeeded=True).rule == "thief-no-steal-in-combat"
    with pytest.raises(BadAction):  # the card decides: the table says whether it worked
        g.power("Cid", "thief-theft", target=g.ids["Bob"], item=g.iid("Cid", "Bone"), roll=5)


def test_tails_backstab_and_charm():
    g = Game("tails").give("Cid", cls("Thief"), hand=1).give("Ann", cls("Wizard"), hand=3)
    g.fight("Ann", monster("Corral Snake", 8))
    g.power("Cid", "thief-backstab", target=g.ids["Ann"], bonus=2)
    assert g.view["fighter_strength"] == 1 - 2
    g.power("Ann", "wizard-charm", monster=0)
    # The whole hand (3) pays for the charm; with its last monster gone the fight is won
    # (Tails, Combat) and the Snake's 2 treasures, drawn face down, fill the emptied hand.
    assert g.view["monsters"][0]["gone"] and g.p("Ann")["hand"] == 2


# --- the data and allowed -----------------------------------------------------------------

def test_every_power_names_a_ruling_that_cites_its_edition():
    for edition, table in powers.POWERS.items():
        for power in table.values():
            ruling = rulebase.get_ruling(power.rule)
            assert ruling is not None, power.id
            assert rulebase.applies(ruling, edition), (edition, power.id, power.rule)


def test_allowed_lists_the_powers_a_seat_may_use_now():
    g = Game().give("Ann", cls("Wizard"), hand=2).give("Cid", cls("Thief"), hand=1)
    assert g.allowed_powers("Ann") == []  # a Wizard's powers are for fights
    g.fight("Ann", monster("Ogre", 12))
    assert g.allowed_powers("Ann") == [{"player": g.ids["Ann"], "power": "wizard-charm", "monster": 0}]
    assert g.allowed_powers("Cid") == [{"player": g.ids["Cid"], "power": "thief-backstab", "from_hand": 1,
                                        "target": g.ids["Ann"]}]
    g("Ann", type="resolve")
    flights = [a for a in g.allowed_powers("Ann") if a["power"] == "wizard-flight"]
    assert [a["from_hand"] for a in flights] == [1, 2]  # up to three, but the hand holds two


POWER_EDITIONS = {e: [p for p in t.values() if p.action == "use_power"] for e, t in powers.POWERS.items()}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(POWER_EDITIONS)), st.integers(0, 2 ** 32 - 1), st.integers(1, 5))
def test_allowed_powers_are_all_accepted_and_no_hand_goes_below_zero(edition, seed, steps):
    r = random.Random(seed)
    g = Game(edition, "Ann", "Bob", "Cid")
    holders = sorted({(p.kind, p.holder) for p in POWER_EDITIONS[edition]})
    for who in g.ids:
        kind, holder = r.choice(holders)
        g(who, type="play", player=g.ids[who], card={"kind": kind, "name": holder.replace("-", " ").title()})
        g(who, type="set_hand", player=g.ids[who], count=r.randint(0, 5))
        g(who, type="play", player=g.ids[who], card=item(f"{who}'s ring"))
    g.fight("Ann", monster("Ghoul", r.randint(1, 14), tags=["undead"]), *(
        [monster("Ogre", 3)] if r.random() < 0.5 else []))
    for _ in range(steps):
        # The host may act for every seat, so the host's list holds every seat's powers.
        listed = g.allowed_powers("host")
        for entry in listed:
            action = {"type": "use_power", **{k: v for k, v in entry.items() if k != "needs"}}
            engine.apply(g.state, action, HOST, rng=random.Random(0))  # raises if refused
        if listed:
            entry = r.choice(listed)
            g("host", type="use_power", **{k: v for k, v in entry.items() if k != "needs"})
        elif g.state["combat"]["stage"] == "fighting":
            g("Ann", type="resolve")
        assert all(p["hand"] >= 0 for p in g.state["players"])


# --- the classic Halfling by printing (ruling halfling-printing) -----------------------------

def _halfling_running(official: bool) -> Game:
    g = Game(official=official).give("Ann", "classic/halfling", hand=2).fight("Ann", monster("Ogre", 9))
    g("Ann", type="resolve")
    return g


def test_the_box_halfling_runs_at_minus_one_and_has_no_second_try():
    g = _halfling_running(official=False)
    assert g.view["escape"][0]["needs"] == 6  # 5 or more, -1 for the Halfling
    line = g.line("Ann", type="run_away", player=g.ids["Ann"], monster=0, roll=1)
    assert "unless a second try" not in line and "caught" in line
    refusal = _halfling_running(official=False).refused_power("Ann", "halfling-second-try", monster=0, from_hand=1)
    assert refusal.rule == "halfling-printing"


def test_the_current_halfling_card_runs_without_the_penalty_and_gets_its_second_try():
    g = _halfling_running(official=True)
    assert g.view["escape"][0]["needs"] == 5
    assert "unless a second try" in g.line("Ann", type="run_away", player=g.ids["Ann"], monster=0, roll=1)
