"""``engine.allowed``: what a seat may do now, read like the rules, and never at odds with
``engine.apply`` (a property over random short games whose moves come from ``allowed``)."""

from __future__ import annotations

import copy
import random
from functools import partial

from hypothesis import HealthCheck, given, settings, strategies as st

from companion import engine
from companion.engine import Actor
from companion.engine.core import CHECKS
from companion.engine.frozen import freeze, thaw
from companion.engine.allowed import Options, action_types, is_allowed, lists, options

from . import driver
from .driver import FIGHT_MOVES, STEP_CARDS, concrete

AFTER_WIN = {"set_sex", "set_hand", "remove_player", "lock_table"}
Game = partial(driver.Game, seed=3, sex="female")


def item(name, bonus=1, slot="other", **extra):
    return {"kind": "item", "name": name, "bonus": bonus, "slot": slot, "gold": 300, **extra}


def monster(name, level, **extra):
    return {"kind": "monster", "name": name, "level": level, **extra}


def test_every_action_type_of_the_engine_has_candidates():
    assert action_types() == set(engine.REDUCERS)


def test_every_action_type_has_a_check_apart_from_its_reducer():
    # apply runs the check first and allowed runs only checks: a type without one could not
    # be refused at all.
    assert set(CHECKS) == set(engine.REDUCERS)


def test_a_check_never_writes_the_state_it_reads():
    # Checks get the stored state itself, frozen: a write would raise. Here every candidate
    # of a busy table (a fight with a helper, cards in front of everyone) is checked on a
    # frozen state and the state is the same afterwards.
    t = Game()
    ann, bob = t.ids["Ann"], t.ids["Bob"]
    for who in ("Ann", "Bob", "Cid"):
        t(who, type="play", player=t.ids[who], card=item(f"{who}'s club", 1, "1-hand"))
    t("Ann", type="fight", player=ann, monster=monster("Beast", 12))
    t("Ann", type="help", player=bob)
    frozen = freeze(t.state)
    before = copy.deepcopy(t.state)
    for who in ("host", "Ann", "Bob", "Cid"):
        found = Options(frozen, t.actor(who))
        for kind in found.types():
            found.entries(kind, accepted=True)
    assert thaw(frozen) == before


def test_at_the_start_only_the_turn_player_may_fight():
    t = Game()
    ann, bob = t.ids["Ann"], t.ids["Bob"]
    assert t.state["turn"] == ann
    assert t.allowed("Ann")["fight"] == [{"player": ann, "needs": ["monster"], "kind": "monster"}]
    assert "fight" not in t.allowed("Bob")
    # The host may start it for Ann, and only for Ann.
    assert [a["player"] for a in t.allowed("host")["fight"]] == [ann]
    # With the monster given, the action is concrete.
    assert t.allowed("Ann", card="classic/drooling-slime")["fight"] == [
        {"player": ann, "monster": "classic/drooling-slime"}]
    t("host", type="set_turn", player=bob)
    assert "fight" not in t.allowed("Ann") and t.allowed("Bob")["fight"][0]["player"] == bob


def test_in_a_lost_fight_the_fighter_may_run_from_each_monster_and_does_not_resolve_twice():
    t = Game()
    ann = t.ids["Ann"]
    t("Ann", type="fight", player=ann, monster=monster("Ogre", 12))
    t("Bob", type="add_monster", monster=monster("Troll", 9))
    assert t.allowed("Ann")["resolve"] == [{}]
    t("Ann", type="resolve")  # 1 against 21: run away
    assert "resolve" not in t.allowed("Ann") and "resolve" not in t.allowed("host")
    assert t.allowed("Ann")["run_away"] == [{"player": ann, "monster": 0}, {"player": ann, "monster": 1}]
    assert "run_away" not in t.allowed("Bob")  # Bob is not in the fight
    t("Ann", type="run_away", player=ann, monster=0, roll=6)
    assert t.allowed("Ann")["run_away"] == [{"player": ann, "monster": 1}]  # one roll per monster


def test_the_helper_may_not_offer_a_bribe_and_only_the_offered_player_may_accept():
    t = Game("classic", "Ann", "Bob", "Cid", "Dee")
    ann, bob, cid = t.ids["Ann"], t.ids["Bob"], t.ids["Cid"]
    t("Ann", type="fight", player=ann, monster=monster("Ogre", 5))
    assert {o["to"] for o in t.allowed("Ann")["offer"]} == {bob, cid, t.ids["Dee"]}
    assert "offer" not in t.allowed("Bob")  # only the fighter bribes
    t("Ann", type="offer", to=cid, treasures=1)
    assert t.allowed("Cid")["accept_offer"] == [{"player": cid}]
    assert t.allowed("Cid")["decline_offer"] == [{"player": cid}]
    assert "accept_offer" not in t.allowed("Bob") and "accept_offer" not in t.allowed("Ann")
    t.helps("Bob")
    assert "offer" not in t.allowed("Bob")  # the helper bribes nobody
    assert "accept_offer" not in t.allowed("Cid")  # one helper at a time
    assert "help" not in t.allowed("Dee")


def test_the_host_may_do_everything_the_rules_allow_for_anyone():
    t = Game("oz")
    ann, bob = t.ids["Ann"], t.ids["Bob"]
    t("Ann", type="play", player=ann, card=item("Sword", 3, "1-hand"))
    t("Bob", type="play", player=bob, card={"kind": "ally", "name": "Hound", "bonus": 1})
    t("Ann", type="fight", player=ann, monster=monster("Ogre", 4))
    host = t.allowed("host")
    for who in ("Ann", "Bob", "Cid"):
        for kind, entries in t.allowed(who).items():
            for entry in entries:
                assert entry in host.get(kind, []), (who, kind, entry)
    # ... and what only the host does: the table's seats and switches.
    assert {"lock_table", "remove_player", "set_variant"} <= set(host)
    assert not {"lock_table", "remove_player", "set_variant"} & set(t.allowed("Ann"))


def test_a_dead_player_may_not_help():
    t = Game()
    bob, cid = t.ids["Bob"], t.ids["Cid"]
    t("Bob", type="die", player=bob)
    t("Ann", type="fight", player=t.ids["Ann"], monster=monster("Ogre", 4))
    assert "help" not in t.allowed("Bob")
    assert {h["player"] for h in t.allowed("host")["help"]} == {cid}
    _, refused = options(t.state, t.actor("Bob"))
    assert {r["rule"] for r in refused["help"]} == {"dead-cannot-help"}


def test_after_the_game_is_won_only_the_after_win_actions_remain():
    t = Game()
    ann = t.ids["Ann"]
    t("Ann", type="level", player=ann, delta=8)
    t("Ann", type="fight", player=ann, monster=monster("Slime", 1))
    t("Ann", type="resolve")
    assert t.state["winners"] == [ann]
    for who in ("Ann", "Bob", "host"):
        assert set(t.allowed(who)) <= AFTER_WIN, who
    assert set(t.allowed("host")) == AFTER_WIN
    # The rest is refused by the rule that the game is over (a phone may say so).
    _, refused = options(t.state, t.actor("Ann"))
    assert {r["rule"] for entries in refused.values() for r in entries} == {"game-over"}


def test_once_the_game_is_won_no_control_is_offered_only_to_say_so():
    t = Game()
    ann, bob = t.ids["Ann"], t.ids["Bob"]
    t("Ann", type="level", player=ann, delta=8)
    t("Ann", type="fight", player=ann, monster=monster("Slime", 1))
    t("Ann", type="resolve")
    found = Options(t.state, t.actor("Bob"))
    # The rule still refuses it (and says who won), but a page offers no button for it.
    assert lists(found.refused, "level", player=bob, delta=1)
    assert not found.may_try("level", player=bob, delta=1, source="adjust")
    assert not found.may_try("gear", player=bob, delta=1)


def test_an_unseated_asker_may_do_nothing():
    t = Game()
    assert engine.allowed(t.state, Actor()) == {}


def test_lists_finds_an_entry_by_some_of_its_params():
    table = {"run_away": [{"player": 3, "monster": 1}], "fight": [{"player": 1, "needs": ["monster"]}]}
    assert lists(table, "run_away", player=3) and lists(table, "run_away", player=3, monster=1)
    assert not lists(table, "run_away", player=3, monster=0) and not lists(table, "resolve")
    assert lists(table, "fight", player=1)


# --- the property: allowed and apply never disagree ------------------------------------------

ID_FIELDS = ("player", "to", "instance", "monster")
# set_hand's count is relative to the hand of the player it names: another player with the
# same count is a different (and maybe allowed) move, so it is not a mutation to test.
RELATIVE = {"set_hand"}


def accepted(state: dict, action: dict, actor: Actor) -> bool:
    try:
        engine.apply(state, action, actor, rng=random.Random(0))
    except engine.EngineError:
        return False
    return True


def id_pool(state: dict, field: str) -> list[int]:
    players = [p["id"] for p in state["players"]]
    if field in ("player", "to"):
        return players + [max(players) + 50]
    if field == "instance":
        return [c["iid"] for p in state["players"] for c in p["cards"]] + [state["next_id"] + 50]
    fight = state.get("combat") or {}
    return list(range(len(fight.get("monsters", ())) + 3))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["classic", "oz", "tails"]), st.integers(0, 2**32 - 1), st.integers(3, 14))
def test_allowed_and_apply_never_disagree(edition, seed, steps):
    r = random.Random(seed)
    t = Game(edition, "Ann", "Bob", "Cid")
    for who in ("Ann", "Bob", "Cid"):  # some gear in front of everyone
        for n in range(r.randint(0, 2)):
            t(who, type="play", player=t.ids[who], card=item(f"{who}'s thing {n}", r.randint(0, 3), r.choice(
                ["headgear", "footgear", "1-hand", "other"])))
    for step in range(steps):
        who = r.choice(["host", "Ann", "Bob", "Cid", "Cid", "Ann"])
        actor = t.actor(who)
        before = copy.deepcopy(t.state)
        card = r.choice(STEP_CARDS)(r)
        allowed = engine.allowed(t.state, actor, card=card)
        assert t.state == before, "allowed changed the state it was asked about"

        # Every listed action is one apply accepts (a sample, to keep the test quick).
        listed = [(kind, entry) for kind, entries in allowed.items() for entry in entries]
        for kind, entry in r.sample(listed, min(len(listed), 25)):
            action = concrete(kind, entry, t.state)
            assert accepted(t.state, action, actor), (who, action)

        # Actions of the same types, at other targets or for other players, that allowed does
        # not list, apply refuses.
        tried = 0
        for kind, entry in r.sample(listed, len(listed)):
            fields = [f for f in ID_FIELDS if f in entry and kind not in RELATIVE]
            if not fields or tried >= 25:
                continue
            field = r.choice(fields)
            for value in id_pool(t.state, field):
                other = dict(entry, **{field: value})
                if other not in allowed.get(kind, []):
                    tried += 1
                    assert not accepted(t.state, concrete(kind, other, t.state), actor), (who, kind, other)

        # The checks alone (``actions.verdict``) answer what ``apply`` does, for candidates
        # the checks accept and refuse alike: a check that accepts what the reducer then
        # refuses, or refuses what it carries out, fails here.
        found = Options(t.state, actor, card=card)
        every = [(kind, entry, action) for kind in found.types() for entry, action in found._of(kind)]
        for kind, entry, action in r.sample(every, min(len(every), 40)):
            assert (is_allowed(t.state, action, actor)
                    == accepted(t.state, action, actor)), (who, action)

        # The next move comes from the list itself (a type first, so fights get going).
        if not listed:
            continue
        fighting = [k for k in FIGHT_MOVES if k in allowed]
        kind = r.choice(fighting) if fighting and r.random() < 0.6 else r.choice(sorted(allowed))
        entry = r.choice(allowed[kind])
        t.state, _ = engine.apply(t.state, concrete(kind, entry, t.state), actor, rng=r)
