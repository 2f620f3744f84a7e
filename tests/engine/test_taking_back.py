"""Undo as a rule of the engine (``engine.undo.take_back``): the latest change comes back off
the stack, taken back by the player who made it or by the host; the log, the id counter and
the version are never taken back."""

from __future__ import annotations

import pytest

from companion.engine import Actor, BadAction, Forbidden
from companion.engine.errors import TooFarBack
from companion.engine.undo import Change, reverse_patch, take_back

from .driver import Game


def change(g: Game, who: str, **action) -> Change:
    """Apply ``action`` as ``who`` and return the change as the store's log would hold it."""
    before = g.state
    happened = g(who, **action)
    return Change(actor_player=g.ids.get(who), undo_data=reverse_patch(before, g.state), event=happened)


def test_the_player_who_made_a_change_takes_it_back():
    g = Game("classic", "Ann", "Bob")
    ann = g.ids["Ann"]
    last = change(g, "Ann", type="level", player=ann, delta=2)
    assert g.p("Ann")["level"] == 3
    restored, happened = take_back(g.state, last, g.actor("Ann"))
    assert next(p for p in restored["players"] if p["id"] == ann)["level"] == 1
    assert happened["kind"] == "undo" and happened["undone"] == last.event


def test_another_player_may_not_take_it_back_but_the_host_may():
    g = Game("classic", "Ann", "Bob")
    last = change(g, "Ann", type="level", player=g.ids["Ann"], delta=2)
    with pytest.raises(Forbidden, match="Only the player who made the last change, or the host"):
        take_back(g.state, last, g.actor("Bob"))
    with pytest.raises(Forbidden, match="Join the game first"):
        take_back(g.state, last, Actor())
    restored, _ = take_back(g.state, last, g.actor("host"))
    assert next(p for p in restored["players"] if p["id"] == g.ids["Ann"])["level"] == 1


def test_nothing_to_take_back_and_a_change_too_old_are_refused_clearly():
    g = Game("classic", "Ann")
    with pytest.raises(BadAction, match="nothing to undo"):
        take_back(g.state, None, g.actor("Ann"))
    old = Change(actor_player=g.ids["Ann"], undo_data=None, event={"kind": "note", "text": "x"})
    with pytest.raises(TooFarBack) as refused:
        take_back(g.state, old, g.actor("Ann"))
    assert refused.value.status == 409


def test_the_log_the_ids_and_the_version_are_never_taken_back():
    g = Game("classic", "Ann")
    g.state["version"], g.state["log"] = 4, [{"seq": 4, "text": "earlier"}]
    last = change(g, "Ann", type="play", player=g.ids["Ann"],
                  card={"kind": "item", "name": "Club", "bonus": 1, "slot": "1-hand"})
    g.state["version"], g.state["log"] = 5, g.state["log"] + [{"seq": 5, "text": "Ann plays Club"}]
    next_id = g.state["next_id"]
    restored, _ = take_back(g.state, last, g.actor("Ann"))
    assert restored["players"][0]["cards"] == []  # the card is back off the table
    assert (restored["version"], restored["next_id"], len(restored["log"])) == (5, next_id, 2)
