"""``freeze_like``: the next version of a state, frozen, sharing with the last every part that
holds the same; what it gives is exactly ``freeze`` of the new state (JSON-strict)."""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from companion.engine.frozen import freeze, freeze_like

SCALARS = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["a", "b", ""])
# Not "card" nor "log": a card or a log line is a value whose fields have one type each (the
# card schema, the store's own log lines), compared whole with == (see the tests below).
KEYS = st.sampled_from(["players", "cards", "level", "x", "y"])
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(KEYS, inner, max_size=4), max_leaves=25)
STATES = st.dictionaries(KEYS, JSON, max_size=5)
# Deeper, so a kept part can be big (three levels and more) under a rebuilt one.
DEEP = JSON | JSON.map(lambda v: [[[v]], {"x": [v]}]) | JSON.map(lambda v: {"players": [{"cards": [[v]]}]})
DEEP_STATES = st.dictionaries(KEYS, DEEP, min_size=1, max_size=4)


def same_json(a, b) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def shape(value):
    """The frozen types all the way down (which parts a view copies whole, which lazily)."""
    if isinstance(value, dict):
        return type(value).__name__, {k: shape(v) for k, v in dict.items(value)}
    if isinstance(value, list):
        return type(value).__name__, [shape(v) for v in list.__iter__(value)]
    return type(value).__name__


@settings(max_examples=150, deadline=None)
@given(STATES, STATES)
def test_it_is_the_new_state_frozen_whatever_the_last_one_was(before, after):
    shared = freeze_like(json.loads(json.dumps(after)), freeze(before))
    assert same_json(shared, after)
    assert shape(shared) == shape(freeze(after))


def changed(data, part):
    """A new version of a frozen ``part`` as a change makes it: some parts kept as themselves
    (what the change never touched), some rebuilt around kept children, some new."""
    how = data.draw(st.sampled_from(["keep", "new", "rebuilt"]))
    if how == "keep":
        return part
    if how == "new" or not isinstance(part, (dict, list)):
        return data.draw(JSON)
    if isinstance(part, dict):
        return {k: changed(data, v) for k, v in dict.items(part)}
    return [changed(data, v) for v in list.__iter__(part)]


# 200 changes: the keys and scalars are a handful, so a few dozen examples already reach every
# keep/new/rebuilt mix at three levels and more; each run draws new ones.
@settings(max_examples=200, deadline=None)  # a loaded machine is no failure
@given(STATES | DEEP_STATES, st.data())
def test_a_change_that_keeps_parts_as_themselves_freezes_as_if_parsed(state, data):
    before = freeze(state)
    after = {k: changed(data, v) for k, v in dict.items(before)}
    shared = freeze_like(after, before)
    assert same_json(shared, after)
    # The same kinds all the way down as a fresh freeze of the same JSON: which parts a view
    # copies whole and which lazily does not depend on what was kept.
    assert shape(shared) == shape(freeze(json.loads(json.dumps(after))))
    for key, value in after.items():
        if value is before.get(key) and isinstance(value, (dict, list)):
            assert shared[key] is value, key


@settings(max_examples=200, deadline=None)
@given(STATES)
def test_an_unchanged_state_is_the_last_one_part_for_part(state):
    before = freeze(json.loads(json.dumps(state)))
    shared = freeze_like(json.loads(json.dumps(state)), before)
    for key, value in state.items():
        if isinstance(value, (dict, list)):
            assert shared[key] is before[key], key


def test_a_change_to_one_player_leaves_the_others_shared():
    before = freeze({"players": [{"id": 1, "level": 2, "cards": [{"iid": 1, "card": {"name": "Club"}}]},
                                 {"id": 2, "level": 3, "cards": []}], "log": [{"seq": 1, "text": "x"}]})
    after = {"players": [{"id": 1, "level": 2, "cards": [{"iid": 1, "card": {"name": "Club"}}]},
                         {"id": 2, "level": 4, "cards": []}], "log": [{"seq": 1, "text": "x"}, {"seq": 2, "text": "y"}]}
    shared = freeze_like(after, before)
    assert shared["players"][0] is before["players"][0]
    assert shared["players"][1] is not before["players"][1] and shared["players"][1]["level"] == 4
    assert shared["log"][0] is before["log"][0] and len(shared["log"]) == 2


def test_false_is_not_zero():
    before = freeze({"players": [{"id": 1, "dead": False}]})
    shared = freeze_like({"players": [{"id": 1, "dead": 0}]}, before)
    assert shared["players"][0]["dead"] is not False and shared["players"][0] is not before["players"][0]


LINE = st.fixed_dictionaries({"seq": st.integers(1, 5), "text": st.sampled_from(["a", "b"]),
                              "event": st.fixed_dictionaries({"kind": st.sampled_from(["level", "gear"]),
                                                              "up": st.booleans()})})


@settings(max_examples=200, deadline=None)
@given(st.lists(LINE, max_size=5), st.lists(LINE, max_size=5))
def test_log_lines_are_the_new_lines_frozen(before, after):
    shared = freeze_like({"log": json.loads(json.dumps(after))}, freeze({"log": before}))
    assert same_json(shared, {"log": after})


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 8), st.integers(0, 3), st.integers(0, 3))
def test_the_lines_a_sliding_log_keeps_are_the_last_ones(count, dropped, added):
    lines = [{"seq": n, "text": f"line {n}", "event": {"kind": "level"}} for n in range(count + added)]
    old = freeze({"log": lines[:count]})
    after = lines[min(dropped, count):count + added]
    shared = freeze_like({"log": json.loads(json.dumps(after))}, old)
    assert same_json(shared, {"log": after})
    for line in shared["log"]:
        if line["seq"] < count:
            assert line is old["log"][line["seq"]]


def test_a_kept_part_gives_its_new_parent_the_kind_a_fresh_freeze_would():
    before = freeze({"p1": {"big": [[[1]]]}, "p2": {"small": {"x": [1]}}, "p3": {"small": {"x": 1}},
                     "p4": {"enhancers": [{"bonus": 5}]}})
    after = {key: {**dict(part), "n": 1} for key, part in before.items()}  # each parent rebuilt
    shared = freeze_like(after, before)
    assert shape(shared) == shape(freeze(json.loads(json.dumps(after))))
    assert [type(shared[k]).__name__ for k in ("p1", "p2", "p3", "p4")] == \
        ["_FrozenDict", "_FrozenDict", "_SmallDict", "_SmallDict"]
