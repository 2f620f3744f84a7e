"""Undo's reverse patch (engine.undo.reverse_patch): whatever a change did to the state, applying the
patch to the state after it gives back the state before it, and the patch holds what changed,
not the whole state."""

from __future__ import annotations

import copy
import json

import jsonpatch
from hypothesis import given, settings, strategies as st

from companion.engine.undo import NOT_UNDONE, reverse_patch

scalars = st.none() | st.booleans() | st.integers(-5, 5) | st.text("ab~/", max_size=3)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text("ab~/", max_size=2), inner, max_size=4),
                           max_leaves=20)
states = st.dictionaries(st.sampled_from(["players", "combat", "ledger", "turn", "a/b", "m~n"]),
                         json_values, max_size=5)


def undone(before: dict, after: dict) -> dict:
    return jsonpatch.apply_patch({k: v for k, v in after.items() if k not in NOT_UNDONE},
                                 reverse_patch(before, after))


@settings(max_examples=300, deadline=None)
@given(states, states)
def test_the_patch_turns_any_state_after_back_into_the_one_before(before, after):
    kept = copy.deepcopy(after)
    assert json.dumps(undone(before, after), sort_keys=True) == json.dumps(before, sort_keys=True)
    assert after == kept  # making the patch changes neither state


@settings(max_examples=200, deadline=None)
@given(states, st.data())
def test_a_list_that_gained_or_lost_items_anywhere_comes_back(before, data):
    cards = data.draw(st.lists(json_values, max_size=6))
    at = data.draw(st.integers(0, len(cards)))
    added = data.draw(st.lists(json_values, min_size=1, max_size=2))
    before = {**before, "players": [{"cards": cards}]}
    after = {**before, "players": [{"cards": cards[:at] + added + cards[at:]}]}
    assert undone(before, after) == before
    assert undone(after, before) == after


def test_one_level_up_is_one_small_operation_whatever_the_house_cards():
    house = [{"kind": "item", "name": f"House item {n}", "bonus": 1} for n in range(300)]
    before = {"players": [{"id": 1, "level": 3, "cards": []}, {"id": 2, "level": 5, "cards": []}],
              "house_cards": house, "log": [], "version": 7}
    after = copy.deepcopy(before)
    after["players"][1]["level"] = 6
    after["log"].append({"seq": 8})
    after["version"] = 8
    assert reverse_patch(before, after) == [{"op": "replace", "path": "/players/1/level", "value": 5}]


def test_a_card_put_in_play_is_taken_out_by_one_remove():
    before = {"players": [{"id": 1, "cards": [{"iid": 1}, {"iid": 2}]}]}
    after = {"players": [{"id": 1, "cards": [{"iid": 1}, {"iid": 3}, {"iid": 2}]}]}
    assert reverse_patch(before, after) == [{"op": "remove", "path": "/players/0/cards/1"}]


def test_false_and_zero_are_different_values_to_undo():
    # Python says False == 0; JSON (and the state read back) does not.
    assert reverse_patch({"players": [False]}, {"players": [0]}) == \
        [{"op": "replace", "path": "/players/0", "value": False}]
    assert undone({"turn": {"a": 1}}, {"turn": {"a": True}}) == {"turn": {"a": 1}}
