"""The hand count follows what the app knows: treasures won go into hands,
a card played from the hand leaves it, Charity and death set it, a dead player's new hand
comes on their next turn; it never goes below 0. Correcting it by hand writes no log line.
Each test names the rule it follows (``companion/engine/hand.py`` lists where each is applied).
"""

from __future__ import annotations

import random
from functools import partial

from hypothesis import HealthCheck, given, settings, strategies as st

from companion import engine
from companion.engine import Actor
from companion.engine.hand import MAX_HAND
from companion.engine.words import in_log

from . import driver

Game = partial(driver.Game, seed=5)
HOST = Actor(host=True)


def item(name, bonus=1, slot="other", gold=300):
    return {"kind": "item", "name": name, "bonus": bonus, "slot": slot, "gold": gold}


def monster(name="Rat", level=1, treasures=2):
    return {"kind": "monster", "name": name, "level": level, "treasures": treasures}


def hands(g, *names):
    return [g.p(n)["hand"] for n in names]


def win(g, who="Ann", treasures=2):
    """``who``, at level 3, kills a level-1 monster worth ``treasures``."""
    g.level(who, 3)
    g(who, type="fight", player=g.ids[who], monster=monster(treasures=treasures))
    return g.line(who, type="resolve")


# --- treasures won --------------------------------------------------------------------------

def test_a_fight_won_alone_puts_its_treasures_in_the_fighters_hand():
    # Treasure is drawn face down by a fighter who won alone (ruling treasure-face-up-with-help).
    g = Game()
    g.hand("Ann", 3)
    line = win(g, treasures=2)
    assert "2 treasures face down" in line
    assert hands(g, "Ann", "Bob", "Cid") == [5, 0, 0]


def test_with_a_helper_the_deal_says_whose_hand_each_treasure_goes_to():
    # The fighter draws them all face up and shares them as agreed (ruling helper-treasure-draw).
    g = Game()
    ann, bob = g.ids["Ann"], g.ids["Bob"]
    g.level("Bob", 9)  # with Bob, the players win
    g("Ann", type="fight", player=ann, monster=monster("Troll", 8, treasures=3))
    g("Ann", type="offer", to=bob, treasures=1)
    g("Bob", type="accept_offer", player=bob)
    g("Ann", type="resolve")
    assert hands(g, "Ann", "Bob", "Cid") == [2, 1, 0]


def test_a_helper_who_was_promised_no_treasure_gets_none():
    g = Game()
    ann, bob = g.ids["Ann"], g.ids["Bob"]
    g.level("Bob", 9)
    g("Ann", type="play", player=ann, card=item("Cloak"))
    g("Ann", type="fight", player=ann, monster=monster("Troll", 8, treasures=3))
    g("Ann", type="offer", to=bob, items=[g.iid("Ann", "Cloak")])
    g("Bob", type="accept_offer", player=bob)
    g("Ann", type="resolve")
    assert hands(g, "Ann", "Bob") == [3, 0]


def test_a_lost_fight_brings_no_treasure():
    g = Game()
    g("Ann", type="fight", player=g.ids["Ann"], monster=monster("Troll", 12, treasures=3))
    g("Ann", type="resolve")
    g("Ann", type="run_away", player=g.ids["Ann"], roll=6)
    assert hands(g, "Ann") == [0]


# --- cards played from the hand ------------------------------------------------------------

def test_an_item_played_from_the_hand_leaves_it_and_one_straight_from_a_draw_does_not():
    g = Game()
    ann = g.ids["Ann"]
    g.hand("Ann", 4)
    g("Ann", type="play", player=ann, card=item("Sword"))
    assert hands(g, "Ann") == [3]
    g("Ann", type="play", player=ann, card=item("Helm", slot="headgear"), from_hand=False)
    assert hands(g, "Ann") == [3]


def test_the_host_putting_a_card_in_front_of_a_player_takes_it_from_that_players_hand():
    g = Game()
    g.hand("Bob", 2)
    g.play("Bob", item("Sword"))  # the host taps it in for Bob
    assert hands(g, "Bob") == [1]


def test_a_race_a_class_and_a_go_up_a_level_come_from_the_hand():
    g = Game()
    ann = g.ids["Ann"]
    g.hand("Ann", 5)
    g("Ann", type="play", player=ann, card="classic/elf")
    g("Ann", type="play", player=ann, card="classic/warrior")
    g("Ann", type="play", player=ann, card={"kind": "go-up-a-level", "name": "Bribe GM"})
    assert hands(g, "Ann") == [2]


def test_a_curse_on_someone_leaves_the_casters_hand_and_one_from_the_door_leaves_none():
    # A curse drawn face up from the door applies to whoever kicked it open (ruling
    # curse-from-door): played on oneself, it never was in the hand.
    g = Game()
    ann, bob = g.ids["Ann"], g.ids["Bob"]
    g.hand("Ann", 2)
    g.hand("Bob", 2)
    curse = {"kind": "curse", "name": "Lose a level", "lose_levels": 1}
    g.level("Ann", 3)
    g.level("Bob", 3)
    g("Bob", type="play", player=ann, card=curse)
    assert hands(g, "Ann", "Bob") == [2, 1]
    g("Ann", type="play", player=ann, card=curse)
    assert hands(g, "Ann", "Bob") == [2, 1]


def test_divine_intervention_is_played_as_soon_as_it_is_drawn():
    g = Game()
    g.hand("Ann", 2)
    g("Ann", type="play", player=g.ids["Ann"], card="classic/divine-intervention")
    assert hands(g, "Ann") == [2]


def test_a_monster_from_the_door_leaves_no_hand_and_one_looked_for_in_trouble_does():
    g = Game()
    ann = g.ids["Ann"]
    g.hand("Ann", 2)
    g("Ann", type="fight", player=ann, monster=monster())
    assert hands(g, "Ann") == [2]
    g("host", type="close_fight")
    g("Ann", type="fight", player=ann, monster=monster(), from_hand=True)
    assert hands(g, "Ann") == [1]


def test_an_enhancer_a_wandering_monster_and_a_one_shot_leave_the_hand_of_who_plays_them():
    g = Game()
    ann, bob = g.ids["Ann"], g.ids["Bob"]
    g.hand("Ann", 3)
    g.hand("Bob", 3)
    g("Ann", type="fight", player=ann, monster=monster())
    g("Bob", type="enhance", monster=0, card={"kind": "enhancer", "name": "Enraged", "bonus": 5})
    g.hand("Bob", 4)
    # A monster from the hand joins through a Wandering Monster from the same hand: two cards.
    g("Bob", type="add_monster", monster=monster("Bat"))
    g("Ann", type="one_shot", side="players", card={"kind": "one-shot", "name": "Potion", "bonus": 2})
    assert hands(g, "Ann", "Bob") == [2, 2]
    g("Bob", type="one_shot", side="monsters", card={"kind": "one-shot", "name": "Potion", "bonus": 2},
      from_hand=False)
    assert hands(g, "Ann", "Bob") == [2, 2]
    g("Bob", type="one_shot", side="monsters", card={"kind": "one-shot", "name": "Potion", "bonus": 2},
      source="door")
    assert hands(g, "Ann", "Bob") == [2, 2]


def test_a_one_shot_lying_on_the_table_was_not_in_the_hand():
    g = Game()
    ann = g.ids["Ann"]
    g.hand("Ann", 2)
    g("Ann", type="play", player=ann, card={"kind": "one-shot", "name": "Potion", "bonus": 2})
    assert hands(g, "Ann") == [1]
    g.hand("Ann", 1)
    g("Ann", type="fight", player=ann, monster=monster())
    g("Ann", type="one_shot", side="players", player=ann, instance=g.iid("Ann", "Potion"))
    assert hands(g, "Ann") == [1]


def test_items_sold_from_the_hand_leave_it_one_card_unless_the_sale_says_how_many():
    # Items may be sold straight from the hand (ruling sell-from-hand).
    g = Game()
    ann = g.ids["Ann"]
    g.hand("Ann", 5)
    g("Ann", type="sell", player=ann, hand_gold=1000)
    assert hands(g, "Ann") == [4]
    g("Ann", type="sell", player=ann, hand_gold=1000, from_hand=3)
    assert hands(g, "Ann") == [1]


def test_a_power_pays_its_cards_out_of_the_hand():
    g = Game()
    ann = g.ids["Ann"]
    g("Ann", type="play", player=ann, card="classic/warrior", from_hand=False)
    g.hand("Ann", 4)
    g("Ann", type="fight", player=ann, monster=monster("Troll", 12))
    g.power("Ann", "warrior-berserking", from_hand=2)
    assert hands(g, "Ann") == [2]


# --- never below 0 ------------------------------------------------------------------------

def test_a_card_played_from_an_empty_hand_leaves_it_at_0():
    # The app did not see it drawn (the door, a loot): the count stays 0, never -1.
    g = Game()
    g("Ann", type="play", player=g.ids["Ann"], card=item("Sword"))
    assert hands(g, "Ann") == [0]


# --- death and Charity set it -------------------------------------------------------------

def test_death_empties_the_hand_and_the_new_hand_comes_on_the_players_next_turn():
    # The hand is lost (ruling dead-keeps); the new character draws from each deck on the
    # player's next turn: two of each in the classic text (ruling dead-redraw).
    g = Game()
    ann, bob = g.ids["Ann"], g.ids["Bob"]
    g.hand("Bob", 6)
    g("Bob", type="die", player=bob)
    assert hands(g, "Bob") == [0]
    line = g.line("Ann", type="end_turn", player=ann)  # Bob's turn: the new character draws
    assert "Bob draws 4 cards for the new character" in line
    assert hands(g, "Bob") == [4]


def test_a_player_dead_on_their_own_turn_draws_when_their_next_turn_comes_round():
    g = Game("tails")
    ann, bob, cid = g.ids["Ann"], g.ids["Bob"], g.ids["Cid"]
    g.hand("Ann", 3)
    g("Ann", type="die", player=ann)
    g("Ann", type="end_turn", player=ann)
    assert hands(g, "Ann") == [0] and not g.p("Ann")["dead"]  # back, with no cards yet
    g("Bob", type="end_turn", player=bob)
    g("Cid", type="end_turn", player=cid)
    assert hands(g, "Ann") == [8]  # four of each in the newer rulebooks
    g("Ann", type="end_turn", player=ann)
    g("Bob", type="end_turn", player=bob)
    g("Cid", type="end_turn", player=cid)
    assert hands(g, "Ann") == [5]  # once: Charity took her down to the limit before


def test_classic_faster_play_deals_four_of_each_on_coming_back():
    # Classic's Faster Play rule deals four of each deck on returning from death (ruling
    # faster-play-classic); the die line says the same number.
    g = Game()
    g("host", type="set_variant", variant="faster_play", on=True)
    line = g.line("Bob", type="die", player=g.ids["Bob"])
    assert "draws 4 from each deck" in line
    g("host", type="set_turn", player=g.ids["Bob"])
    assert hands(g, "Bob") == [8]


def test_charity_gives_the_cards_over_the_limit_to_the_lowest_level_player():
    # Rule charity: down to the hand limit (five), the rest to the lowest level player.
    g = Game()
    ann = g.ids["Ann"]
    g.level("Ann", 3)
    g.level("Bob", 2)
    g.hand("Ann", 8)
    g.hand("Bob", 1)
    g("Ann", type="end_turn", player=ann)
    assert hands(g, "Ann", "Bob", "Cid") == [5, 1, 3]


def test_the_lowest_level_player_discards_the_charity():
    g = Game()
    g.hand("Ann", 7)
    g("Ann", type="end_turn", player=g.ids["Ann"])
    assert hands(g, "Ann", "Bob", "Cid") == [5, 0, 0]


# --- correcting it by hand ----------------------------------------------------------------

def test_a_count_corrected_by_hand_writes_no_log_line_and_neither_does_its_undo():
    g = Game()
    happened = g("Ann", type="set_hand", player=g.ids["Ann"], count=3)
    assert happened["kind"] == "set_hand" and not in_log(happened)
    assert not in_log({"kind": "undo", "undone": happened})
    assert in_log(g("Ann", type="level", player=g.ids["Ann"], delta=1))
    assert in_log({"kind": "undo", "undone": {"kind": "level"}})


# --- the property -------------------------------------------------------------------------

MOVES = ("play", "sell", "fight", "add_monster", "enhance", "one_shot", "resolve", "run_away",
         "close_fight", "die", "end_turn", "set_hand", "use_power")


def _card(r: random.Random, kind: str) -> dict:
    return {"monster": monster("Beast", r.randint(1, 12), treasures=r.randint(0, 4)),
            "enhancer": {"kind": "enhancer", "name": "Enraged", "bonus": 5},
            "one_shot": {"kind": "one-shot", "name": "Potion", "bonus": 2},
            }.get(kind) or r.choice([item("Club", 2), {"kind": "curse", "name": "Lose a level",
                                                        "lose_levels": 1}, "classic/elf", "classic/wizard"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(5, 40))
def test_no_sequence_of_moves_takes_a_hand_below_0_or_above_the_most_it_may_hold(seed, steps):
    r = random.Random(seed)
    g = Game()
    for _ in range(steps):
        who = r.choice(["Ann", "Bob", "Cid", "host"])
        actor = g.actor(who)
        listed = {k: v for k, v in engine.allowed(g.state, actor).items() if k in MOVES}
        if not listed:
            continue
        kind = r.choice(sorted(listed))
        action = {"type": kind, **{k: v for k, v in r.choice(listed[kind]).items()
                                   if k not in ("needs", "kind")}}
        if kind in ("play", "fight", "add_monster", "enhance", "one_shot") and "instance" not in action:
            action["monster" if kind in ("fight", "add_monster") else "card"] = _card(
                r, "monster" if kind in ("fight", "add_monster") else kind)
            action["from_hand"] = r.random() < 0.8
        if kind == "sell":
            action.update(hand_gold=1000, from_hand=r.randint(0, 8))
        if kind == "set_hand":
            action["count"] = r.choice([0, 1, 5, MAX_HAND])
        try:
            g.state, _ = engine.apply(g.state, action, actor, rng=r)
        except engine.EngineError:
            continue
        for player in g.state["players"]:
            assert 0 <= player["hand"] <= MAX_HAND, (action, player["hand"])


def test_a_hand_the_table_does_not_count_shows_no_charity_and_ends_the_turn_without_giving():
    g = Game()
    g.state["players"][0]["hand"] = None  # a table from before hands were counted
    others = [p["hand"] for p in g.state["players"][1:]]
    assert g.p("Ann")["hand"] is None  # the public view is made, with no Charity to preview
    g("Ann", type="end_turn", player=g.ids["Ann"])
    assert g.stored_p("Ann")["hand"] is None and [p["hand"] for p in g.state["players"][1:]] == others


def test_the_source_offered_first_is_where_the_engine_would_take_the_card_from():
    # A phone shows first the likely source of a card: the door for a monster kicked open and
    # for Divine Intervention (played as soon as it is drawn), the hand for the rest.
    from companion.engine import looting
    t = driver.Game()
    ann = t.ids["Ann"]
    t("Ann", type="set_hand", player=ann, count=3)
    divine = {"kind": "other", "name": "Divine Intervention"}
    assert looting.likely_source(t.state, ann, divine) == "door"
    assert looting.likely_source(t.state, ann, {"kind": "monster", "name": "Ogre", "level": 4}) == "door"
    assert looting.likely_source(t.state, ann, {"kind": "one-shot", "name": "Potion", "bonus": 2}) == "hand"


def test_a_card_played_by_a_seat_whose_hand_is_counted_at_0_is_offered_from_the_door_first():
    # No card is left in an empty hand: the likely source is the door (the phone can still say
    # "from my hand", and the count stays at 0).
    from companion.engine import looting
    t = driver.Game()
    ann = t.ids["Ann"]
    potion = {"kind": "one-shot", "name": "Potion", "bonus": 2}
    t("Ann", type="set_hand", player=ann, count=1)
    assert looting.likely_source(t.state, ann, potion) == "hand"
    t("Ann", type="set_hand", player=ann, count=0)
    assert looting.likely_source(t.state, ann, potion) == "door"
