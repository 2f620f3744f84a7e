"""The table's winning level (``engine.rules``): 10 by every rulebook, 20 when the table plays
Epic Munchkin (which the Oz rulebook names). The rules about the winning level follow the
table's choice: only a kill reaches it, a fight that reaches it is one for the win."""

from __future__ import annotations

import pytest

from companion import engine
from companion.engine import BadAction, Forbidden, RuleViolation
from companion.engine.public import combat_view

from .driver import Game

SLIME = {"kind": "monster", "name": "Slime", "level": 1}


def epic(*names) -> Game:
    g = Game("classic", *names or ("Ann", "Bob"))
    g("host", type="set_winning_level", level=20)
    return g


def test_a_game_plays_to_level_10_unless_the_table_chooses_20():
    assert engine.new_game("T", "classic")["winning_level"] == 10
    assert engine.new_game("T", "oz", winning_level=20)["winning_level"] == 20
    for wrong in (15, "20", 9, True):
        with pytest.raises(BadAction, match="10 .* or 20"):
            engine.new_game("T", "classic", winning_level=wrong)


def test_playing_to_20_a_kill_to_level_10_does_not_win_but_one_to_20_does():
    g = epic()
    ann = g.ids["Ann"]
    g("Ann", type="level", player=ann, delta=8)  # level 9, by adjusting: fine below 20
    g("Ann", type="fight", player=ann, monster=SLIME)
    g("Ann", type="resolve")
    assert g.p("Ann")["level"] == 10 and g.state["winners"] == []
    g("Ann", type="level", player=ann, delta=9)  # level 19
    with pytest.raises(RuleViolation) as refused:  # the winning level only by a kill
        g("Ann", type="level", player=ann, delta=1)
    assert refused.value.rule == "level-ten-needs-kill"
    g("Ann", type="fight", player=ann, monster=SLIME)
    assert combat_view(g.state, helpers=False)["for_the_win"]
    g("Ann", type="resolve")
    assert g.p("Ann")["level"] == 20 and g.state["winners"] == [ann]


def test_playing_to_10_a_fight_from_level_9_is_for_the_win_and_playing_to_20_it_is_not():
    for game, for_the_win in ((Game("classic", "Ann", "Bob"), True), (epic(), False)):
        game("Ann", type="level", player=game.ids["Ann"], delta=8)
        game("Ann", type="fight", player=game.ids["Ann"], monster=SLIME)
        assert combat_view(game.state, helpers=False)["for_the_win"] is for_the_win


def test_only_the_host_sets_it_and_never_at_or_below_a_level_a_player_has():
    g = Game("classic", "Ann", "Bob")
    with pytest.raises(Forbidden):
        g("Ann", type="set_winning_level", level=20)
    with pytest.raises(BadAction, match="already plays to level 10"):
        g("host", type="set_winning_level", level=10)
    g("host", type="set_winning_level", level=20)
    g("Ann", type="level", player=g.ids["Ann"], delta=9)
    g("Ann", type="level", player=g.ids["Ann"], delta=2)  # level 12
    with pytest.raises(BadAction, match="Ann is already at level 12"):
        g("host", type="set_winning_level", level=10)
    assert g.state["winning_level"] == 20


def test_the_host_is_offered_the_other_winning_level_and_a_player_none():
    g = Game("classic", "Ann")
    assert g.allowed("host")["set_winning_level"] == [{"level": 20}]
    assert "set_winning_level" not in g.allowed("Ann")


def test_a_game_from_before_the_choice_plays_to_10():
    g = Game("classic", "Ann")
    del g.state["winning_level"]
    assert engine.public_state(g.state)["winning_level"] == 10
