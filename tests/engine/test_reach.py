"""engine.reach: how far a held +/- button may go in one change, as the engine's own checks say
(the page steps the number on screen that far and sends the final value once)."""

from __future__ import annotations

from companion.engine.reach import reach

from .driver import Game


def steps(g: Game, who: str, field: str, step: int, **action) -> int:
    return reach(g.state, action, g.actor(who), field, step)


def test_a_level_goes_up_to_nine_by_hand_and_down_to_one():
    g = Game("classic", "Ann", "Bob")
    ann = g.ids["Ann"]
    g("Ann", type="level", player=ann, delta=2, source="adjust")  # level 3
    assert steps(g, "Ann", "delta", 1, type="level", player=ann, delta=1, source="adjust") == 6  # to 9
    assert steps(g, "Ann", "delta", -1, type="level", player=ann, delta=-1, source="adjust") == 2  # to 1
    # The steps found are the ones the engine takes as one change, and one more is refused.
    g("Ann", type="level", player=ann, delta=6, source="adjust")
    assert g.p("Ann")["level"] == 9
    g.refused("Ann", type="level", player=ann, delta=1, source="adjust")


def test_no_step_where_even_one_is_refused():
    g = Game("classic", "Ann", "Bob")
    ann, bob = g.ids["Ann"], g.ids["Bob"]
    assert steps(g, "Ann", "delta", -1, type="level", player=ann, delta=-1, source="adjust") == 0  # level 1
    assert steps(g, "Ann", "delta", 1, type="level", player=bob, delta=1, source="adjust") == 0  # not her seat


def test_cards_in_hand_go_down_to_none_and_up_to_the_schema_bound():
    g = Game("classic", "Ann", "Bob")
    ann = g.ids["Ann"]
    g("Ann", type="set_hand", player=ann, count=4)
    assert steps(g, "Ann", "count", -1, type="set_hand", player=ann, count=3) == 4  # 3, 2, 1, 0
    assert steps(g, "Ann", "count", 1, type="set_hand", player=ann, count=5) == 56  # 5 .. 60


def test_a_field_that_is_not_a_number_or_a_step_that_is_not_one_goes_nowhere():
    g = Game("classic", "Ann", "Bob")
    ann = g.ids["Ann"]
    assert steps(g, "Ann", "source", 1, type="level", player=ann, delta=1, source="adjust") == 0
    assert steps(g, "Ann", "delta", 2, type="level", player=ann, delta=1, source="adjust") == 0
    assert steps(g, "Ann", "delta", 1, type="gear", player=ann) == 0  # no delta given
