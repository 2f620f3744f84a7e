"""Looting the body, as every edition's Death section says it (classic, Oz, Spell Skool, Tails:
Death, Looting The Body): the dead player's hand is laid out beside the cards they had in
play; starting with the highest level (ties: a die), each other living player takes one card;
what is left is discarded. Looted cards go into the looters' hands (Oz, Spell Skool, Tails;
classic is silent and follows them)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from companion.engine import BadAction

from .driver import Game

ARMOR = {"kind": "item", "name": "Armor", "bonus": 1, "slot": "armor"}
SWORD = {"kind": "item", "name": "Sword", "bonus": 2, "slot": "1-hand"}


def died(edition="classic", hand=3, levels=(1, 3, 2), cards=(ARMOR, SWORD)):
    """Ann (the first level) dies with ``cards`` in play and ``hand`` cards; Bob and Cid look on."""
    g = Game(edition, "Ann", "Bob", "Cid")
    for name, level in zip(("Ann", "Bob", "Cid"), levels):
        if level > 1:
            g.level(name, level)
    g.play("Ann", *cards)
    for name in ("Ann", "Bob", "Cid"):
        g.hand(name, hand)
    g("Ann", type="die", player=g.ids["Ann"])
    return g


def body(g):
    return g.state["bodies"][0] if g.state.get("bodies") else None


@pytest.mark.parametrize("edition", ["classic", "oz", "spell-skool", "russia", "tails"])
def test_the_body_is_the_hand_and_the_cards_in_play_and_the_highest_level_chooses_first(edition):
    g = died(edition)
    laid = body(g)
    assert laid["hand"] == 3 and [e["card"]["name"] for e in laid["cards"]] == ["Armor", "Sword"]
    assert laid["order"] == [g.ids["Bob"], g.ids["Cid"]]  # level 3, then level 2
    assert g.p("Ann")["hand"] == 0


def test_looters_tied_on_level_are_ordered_by_a_die_and_the_order_is_the_logs():
    g = died(levels=(1, 2, 2))
    order = body(g)["order"]
    assert sorted(order) == sorted([g.ids["Bob"], g.ids["Cid"]])
    assert g.events[-1]["parts"][0]["order"] == order


def test_a_looter_out_of_turn_is_refused_with_the_looting_rule():
    g = died()
    refusal = g.refused("Cid", type="loot", player=g.ids["Cid"], body=g.ids["Ann"], from_hand=True)
    assert refusal.rule == "death-looting" and "Bob chooses first" in str(refusal)


def test_each_looter_takes_one_card_into_the_hand_then_the_rest_is_discarded():
    g = died()
    armor = body(g)["cards"][0]["iid"]
    line = g.line("Bob", type="loot", player=g.ids["Bob"], body=g.ids["Ann"], instance=armor)
    assert line == "Bob takes Armor from the body of Ann"
    assert g.p("Bob")["hand"] == 4  # into the hand: played from there as usual
    again = g.refused("Bob", type="loot", player=g.ids["Bob"], body=g.ids["Ann"], from_hand=True)
    assert again.rule == "death-looting"
    line = g.line("Cid", type="loot", player=g.ids["Cid"], body=g.ids["Ann"], from_hand=True)
    assert line == "Cid takes a card from the hand of Ann; discarded: Sword; 2 cards of the hand discarded"
    assert g.p("Cid")["hand"] == 4 and body(g) is None


def test_the_dead_cannot_loot_their_own_body_nor_take_a_card_twice():
    g = died()
    assert g.refused("Ann", type="loot", player=g.ids["Ann"], body=g.ids["Ann"], from_hand=True).rule == "death-looting"


def test_a_card_named_both_ways_or_neither_is_a_bad_action():
    g = died()
    iid = body(g)["cards"][0]["iid"]
    g.refused("Bob", BadAction, type="loot", player=g.ids["Bob"], body=g.ids["Ann"], instance=iid, from_hand=True)
    g.refused("Bob", BadAction, type="loot", player=g.ids["Bob"], body=g.ids["Ann"])


def test_an_item_put_in_play_straight_from_the_body_spends_the_pick_and_leaves_the_hand_alone():
    # The drift a table saw: Leather Armor taken from a body through "Add to my cards" cost a
    # card of the taker's own hand. From the body, it costs the body its card instead.
    g = died(cards=("classic/leather-armor",))
    g("Bob", type="play", player=g.ids["Bob"], card="classic/leather-armor", source="body", body=g.ids["Ann"])
    assert g.p("Bob")["hand"] == 3
    assert "Leather Armor" in g.names("Bob")
    assert body(g)["cards"] == [] and body(g)["looted"] == [g.ids["Bob"]]


def test_a_new_turn_ends_the_looting_and_what_is_left_is_discarded():
    g = died()
    g("Ann", type="end_turn", player=g.ids["Ann"])
    assert body(g) is None


def test_end_looting_discards_the_rest_for_a_table_that_moves_on():
    g = died()
    line = g.line("Cid", type="end_looting", body=g.ids["Ann"])
    assert line == "Looting the body of Ann ends; discarded: Armor, Sword; 3 cards of the hand discarded"


def test_a_looter_who_dies_before_choosing_leaves_the_order():
    g = died()
    g("Bob", type="die", player=g.ids["Bob"])
    assert g.ids["Bob"] not in g.state["bodies"][0]["order"]
    g("Cid", type="loot", player=g.ids["Cid"], body=g.ids["Ann"], from_hand=True)


def test_a_monster_added_from_a_hand_takes_the_wandering_monster_too_and_from_the_door_nothing():
    g = Game("classic", "Ann", "Bob")
    g.hand("Ann", 4).hand("Bob", 4)
    g("Ann", type="fight", player=g.ids["Ann"], monster={"kind": "monster", "name": "Rat", "level": 1})
    assert g.p("Ann")["hand"] == 4  # the door
    g("Bob", type="add_monster", monster={"kind": "monster", "name": "Bat", "level": 1})
    assert g.p("Bob")["hand"] == 2  # the Bat and the Wandering Monster that brought it
    g("Bob", type="add_monster", monster={"kind": "monster", "name": "Owl", "level": 1}, source="door")
    assert g.p("Bob")["hand"] == 2


def test_source_and_from_hand_that_disagree_are_refused():
    g = Game("classic", "Ann", "Bob")
    g.refused("Ann", BadAction, type="play", player=g.ids["Ann"], card=SWORD, source="door", from_hand=True)


@settings(max_examples=40, deadline=None)
@given(picks=st.lists(st.sampled_from(["instance", "hand", "end"]), min_size=1, max_size=4),
       hand=st.integers(min_value=0, max_value=4), in_play=st.integers(min_value=0, max_value=2))
def test_looting_never_makes_or_loses_a_card_but_the_discarded_rest(picks, hand, in_play):
    """Every card of the body ends in exactly one place: a looter's hand, or the discard."""
    g = died(hand=hand, cards=(ARMOR, SWORD)[:in_play], levels=(1, 3, 2))
    laid = body(g)
    if laid is None:
        assert hand == 0 and in_play == 0
        return
    total = laid["hand"] + len(laid["cards"])
    hands_before = g.p("Bob")["hand"] + g.p("Cid")["hand"]
    discarded = 0
    for pick in picks:
        laid = body(g)
        if laid is None:
            break
        looter = next(pid for pid in laid["order"] if pid not in laid["looted"])
        name = next(n for n, pid in g.ids.items() if pid == looter)
        if pick == "end":
            discarded = laid["hand"] + len(laid["cards"])
            g(name, type="end_looting", body=g.ids["Ann"])
            break
        if pick == "instance" and laid["cards"]:
            g(name, type="loot", player=looter, body=g.ids["Ann"], instance=laid["cards"][0]["iid"])
        elif laid["hand"]:
            g(name, type="loot", player=looter, body=g.ids["Ann"], from_hand=True)
        else:
            continue
        after = body(g)
        if after is None:  # the last looter took a card: the rest is discarded
            discarded = total - (g.p("Bob")["hand"] + g.p("Cid")["hand"] - hands_before)
    left = body(g)
    taken = g.p("Bob")["hand"] + g.p("Cid")["hand"] - hands_before
    remaining = (left["hand"] + len(left["cards"])) if left else 0
    assert taken + discarded + remaining == total
    assert taken <= 2  # one card per looter
