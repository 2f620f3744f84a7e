"""Taking a seat is an engine action (``join``), with its rules like any other: anyone with
the game's code sits down unless the host locked the table; only the host seats a player who
has no phone; the edition's most players; no two names that look alike; no seat once won."""

from __future__ import annotations

import pytest

from companion.engine import Actor, BadAction, Forbidden, RuleViolation, TableLocked
from companion.store import Store

from .driver import Game

STRANGER = Actor()  # a phone that scanned the code and has no seat yet


def test_a_stranger_with_the_code_sits_down_with_a_phone():
    g = Game("classic", "Ann")
    happened = g(STRANGER, type="join", name="Bob", sex="male")
    bob = g.state["players"][-1]
    assert (bob["name"], bob["phone"], bob["level"]) == ("Bob", True, 1)
    assert happened == {**happened, "kind": "join", "player": bob["id"], "name": "Bob"}


def test_a_locked_table_seats_no_stranger_but_the_host_still_seats_a_player_without_a_phone():
    g = Game("classic", "Ann")
    g("host", type="lock_table", locked=True)
    with pytest.raises(TableLocked):
        g(STRANGER, type="join", name="Bob", sex="male")
    happened = g("host", type="join", name="Grandpa", sex="male", phone=False)
    assert happened["kind"] == "join_phoneless" and g.state["players"][-1]["phone"] is False


def test_only_the_host_seats_a_player_without_a_phone():
    g = Game("classic", "Ann")
    for who in (STRANGER, "Ann"):
        with pytest.raises(Forbidden, match="Only the host adds a player who has no phone"):
            g(who, type="join", name="Grandpa", sex="male", phone=False)
    assert [p["name"] for p in g.state["players"]] == ["Ann"]


def test_the_edition_says_how_many_may_sit():
    g = Game("classic", "A1", "A2", "A3", "A4", "A5", "A6")
    most = len(g.state["players"])
    while True:
        try:
            g(STRANGER, type="join", name=f"P{len(g.state['players'])}", sex="female")
        except RuleViolation as refusal:
            assert refusal.rule == "player-count"
            break
    assert len(g.state["players"]) >= most


def test_a_name_that_looks_like_a_seated_one_is_refused_and_a_name_and_sex_are_needed():
    g = Game("classic", "Ann")
    with pytest.raises(BadAction):
        g(STRANGER, type="join", name="ANN", sex="female")
    with pytest.raises(BadAction, match="needs a name"):
        g(STRANGER, type="join", sex="female")
    with pytest.raises(BadAction, match="Sex must be"):
        g(STRANGER, type="join", name="Bob")


def test_nobody_sits_down_at_a_game_already_won():
    g = Game("classic", "Ann")
    g("Ann", type="level", player=g.ids["Ann"], delta=8)
    g("Ann", type="fight", player=g.ids["Ann"], monster={"kind": "monster", "name": "Slime", "level": 1})
    g("Ann", type="resolve")
    with pytest.raises(RuleViolation) as refused:
        g(STRANGER, type="join", name="Bob", sex="male")
    assert refused.value.rule == "game-over"


def test_the_host_is_offered_seating_a_player_without_a_phone_and_a_player_is_not():
    g = Game("classic", "Ann")
    assert g.allowed("host")["join"] == [{"phone": False, "needs": ["name", "sex"]}]
    assert "join" not in g.allowed("Ann")


def test_a_seat_is_taken_only_through_the_door_that_gives_it_its_token(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'g.db'}")
    state, host_token = store.create_game("classic")
    code = state["code"]
    _, ann, _token = store.join(code, "Ann", "female")
    with pytest.raises(BadAction, match="POST /api/games/<code>/players"):
        store.apply(code, {"type": "join", "name": "Ghost", "sex": "male"}, Actor(player=ann))
    assert [p["name"] for p in store.load(code)["players"]] == ["Ann"]
