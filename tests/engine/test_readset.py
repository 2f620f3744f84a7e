"""A verdict carried over to the next version (``engine/readset.py``) is the verdict a fresh
check gives: what a check read is recorded, and a change to any of it sends the check again."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings, strategies as st

from companion import engine
from companion.engine import Actor
from companion.engine.allowed import Options
from companion.engine.frozen import copy_state, freeze
from companion.engine.readset import KEYS, LENGTH, Changes, tracked_root
from companion.engine.words import render

from .test_allowed import FIGHT_MOVES, STEP_CARDS, Game, concrete, item


def reads_of(state: dict, read) -> "ReadSet":  # noqa: F821
    root = tracked_root(state)
    read(copy_state(root))
    return root.reads


STATE = freeze({"players": [{"id": 1, "level": 3, "cards": [{"iid": 5, "card": {"name": "Club"}}]},
                            {"id": 2, "level": 4, "cards": []}],
                "combat": None, "turn": 1, "variants": {"faster_play": False}})


def changed(**edits) -> dict:
    state = copy_state(STATE)
    for edit in edits.values():
        edit(state)
    return freeze(state)


def test_a_field_read_holds_until_that_field_changes():
    reads = reads_of(STATE, lambda s: s["players"][1]["level"])
    assert reads.holds(Changes(STATE, changed(other=lambda s: s["players"][0].update(level=9))))
    assert not reads.holds(Changes(STATE, changed(mine=lambda s: s["players"][1].update(level=5))))


def test_looking_a_player_up_depends_on_who_sits_not_on_their_levels():
    def find_two(s):
        return next(p for p in s["players"] if p["id"] == 2)
    reads = reads_of(STATE, find_two)
    assert reads.holds(Changes(STATE, changed(level=lambda s: s["players"][0].update(level=9))))
    assert not reads.holds(Changes(STATE, changed(seat=lambda s: s["players"].append({"id": 3, "level": 1, "cards": []}))))


def test_asking_whether_a_key_is_there_depends_on_that_key():
    reads = reads_of(STATE, lambda s: "winners" in s)
    assert reads.holds(Changes(STATE, changed(turn=lambda s: s.update(turn=2))))
    assert not reads.holds(Changes(STATE, changed(won=lambda s: s.update(winners=[1]))))
    reads = reads_of(STATE, lambda s: s.get("winners"))
    assert not reads.holds(Changes(STATE, changed(won=lambda s: s.update(winners=[1]))))


def test_a_small_part_read_at_all_is_read_whole():
    reads = reads_of(STATE, lambda s: len(s["players"][0]["cards"]))
    assert not reads.holds(Changes(STATE, changed(card=lambda s: s["players"][0]["cards"][0].update(iid=6))))


def test_a_dict_read_as_a_whole_changes_with_any_key():
    reads = reads_of(STATE, lambda s: dict(s["variants"].items()))
    assert not reads.holds(Changes(STATE, changed(on=lambda s: s["variants"].update(listen=True))))
    reads = reads_of(STATE, lambda s: bool(s["variants"]))
    assert not reads.holds(Changes(STATE, changed(on=lambda s: s["variants"].update(listen=True))))


def test_a_fight_starting_is_a_change_to_whoever_asked_about_the_fight():
    reads = reads_of(STATE, lambda s: s.get("combat"))
    assert not reads.holds(Changes(STATE, changed(fight=lambda s: s.update(combat={"fighter": 1}))))


def test_changes_name_lengths_and_keys():
    after = changed(seat=lambda s: s["players"].append({"id": 3}), key=lambda s: s.update(winners=[]))
    paths = Changes(STATE, after).paths
    assert ("players", LENGTH) in paths and ("players", 2) in paths
    assert (KEYS,) in paths and ("winners",) in paths and ("players", 0) not in paths


# --- the property: carried verdicts are fresh verdicts, over random games -----------------------

def everything(options: Options, kinds=None) -> dict:
    return {kind: (options.entries(kind, accepted=True), options.entries(kind, accepted=False))
            for kind in (options.types() if kinds is None else kinds)}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["classic", "oz", "tails"]), st.integers(0, 2**32 - 1), st.integers(6, 16))
def test_a_carried_verdict_is_the_verdict_a_fresh_check_gives(edition, seed, steps):
    r = random.Random(seed)
    t = Game(edition, "Ann", "Bob", "Cid")
    for who in ("Ann", "Bob", "Cid"):
        for n in range(r.randint(0, 2)):
            t(who, type="play", player=t.ids[who], card=item(f"{who}'s thing {n}", r.randint(0, 3)))
    seats = ["host", "Ann", "Bob", "Cid"]
    last: dict[str, Options] = {}
    carried = 0
    for step in range(steps):
        state = freeze(t.state)
        for who in seats:
            actor = t.actor(who)
            before = last.get(who)
            found = Options(state, actor, previous=before,
                            changes=Changes(before.state, state) if before else None)
            # A page asks about some moves only: a verdict not asked at one version is
            # carried over at a later one, through the versions between.
            kinds = r.sample(found.types(), r.randint(1, len(found.types())))
            assert everything(found, kinds) == everything(Options(state, actor), kinds), (step, who)
            carried += found.carried
            last[who] = found
        # The next move, from what a random seat may do (fights more often than their share).
        who = r.choice(seats)
        allowed = dict(last[who].allowed)
        if not allowed:
            continue
        fighting = [k for k in FIGHT_MOVES if k in allowed]
        kind = r.choice(fighting) if fighting and r.random() < 0.6 else r.choice(sorted(allowed))
        entry = r.choice(allowed[kind])
        action = concrete(kind, entry, t.state)
        if "card" in action and isinstance(action["card"], dict) and kind in ("fight", "play", "enhance"):
            action["card"] = r.choice(STEP_CARDS)(r) if kind == "play" else action["card"]
        try:
            t.state, _ = engine.apply(t.state, action, t.actor(who), rng=r)
        except engine.EngineError:
            pass  # a card drawn at random may not fit: the game goes on without it
    assert carried > 0  # the games did carry verdicts over


def test_a_death_is_judged_without_reading_who_loots_first():
    # The looting order reads every player's level, but death is never refused for it: a
    # level change elsewhere at the table keeps a seat's verdict on dying (and its sheet).
    t = Game("classic", "Ann", "Bob", "Cid")
    for who in ("Ann", "Bob", "Cid"):  # cards in front of everyone, as at a real table
        t(who, type="play", player=t.ids[who], card=item(f"{who}'s club", 1))
    before = freeze(t.state)
    found = Options(before, t.actor("Ann"))
    assert found.may_try("die", player=t.ids["Ann"])
    reads = found.reads_for("may_try", ("die",), {"player": t.ids["Ann"]})
    t("Bob", type="level", player=t.ids["Bob"], delta=1)
    assert reads.holds(Changes(before, freeze(t.state)))
    # The order itself still follows the levels: Bob, now highest, loots first.
    t("Ann", type="die", player=t.ids["Ann"])
    assert "looting order Bob" in render(t.events[-1])
