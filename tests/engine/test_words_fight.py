"""Every word of a fight, of help and of bribes goes through translation: the reducers answer
with registered events, the fight's result, the ledger, who could help, the bribe's reason and
the breakdown of the numbers are saids, refusals say saids, and a broken translation falls
back to English instead of failing.

The fake translator ``upper`` upper-cases each msgid (outside its placeholders). Rendered with
it, a line must have no lower-case letter left once the parameters' own text (names, card
names, card text, race ids: facts, never translated) is taken out: English that bypassed
translation would.
"""

from __future__ import annotations

import ast
from functools import partial
from pathlib import Path

from companion.engine import EngineError, RuleViolation, combat, editions
from companion.engine import help as helping
from companion.engine.rules import TableRules
from companion.engine.words import EVENT_WORDS, render

from . import words_check
from .driver import Game
from .words_check import broken, broken_plural, missing_parameters, saids

ROOT = Path(__file__).resolve().parents[2]
MY_FILES = [ROOT / "companion" / "engine" / p for p in
            ("reducers/fight.py", "reducers/help.py", "deals.py", "help.py", "combat.py")]

# The event kinds the fight and help reducers emit.
FIGHT_KINDS = {
    "fight", "add_monster", "enhance", "remove_monster", "one_shot_players", "one_shot_monsters",
    "help", "help_forced", "stop_helping", "fight_lost", "fight_won", "escape", "caught",
    "sacrifice_ally", "close_fight", "offer", "accept_offer", "decline_offer",
    "help_offered", "accept_help", "decline_help", "withdraw_help",
}
FIGHT_ACTIONS = {"fight", "add_monster", "enhance", "remove_monster", "one_shot", "help",
                 "stop_helping", "resolve", "run_away", "sacrifice_ally", "close_fight", "offer",
                 "accept_offer", "decline_offer", "accept_help", "decline_help"}

# Parameters that may hold plain text: facts (player and card names, a card's own Bad Stuff
# text, race or class ids, an edition's name, a number written with its sign), never words.
FACT_KEYS = {"name", "to_name", "fighter", "helper", "picker", "card", "cards", "monster",
             "items", "summary", "side", "signed", "edition", "source", "condition", "what",
             "players", "race", "class"}
param_texts = partial(words_check.param_texts, facts=FACT_KEYS)
assert_all_translated = partial(words_check.assert_all_translated, facts=FACT_KEYS)


# --- the game, driven through engine.apply -------------------------------------------------

def fight_events_of(t: Game) -> list[dict]:
    """The events of ``t``'s fight and help actions (not of a card played or a level set)."""
    return [e for action, e in zip(t.actions, t.events) if action["type"] in FIGHT_ACTIONS]


def monster(name, level, treasures=1, **extra):
    return {"kind": "monster", "name": name, "level": level, "treasures": treasures, **extra}


def won_fight(t: Game) -> None:
    """Ann fights with a bribed helper (an Elf: a level for helping) and wins; monsters join,
    one is charmed away, an enhancer and one-shots on both sides, an offer declined."""
    ann, bob, cid = t.ids["Ann"], t.ids["Bob"], t.ids["Cid"]
    t("Ann", type="play", player=ann, card={"kind": "item", "name": "CLOAK", "bonus": 1,
                                            "slot": "other", "gold": 400})
    t("Bob", type="play", player=bob, card="classic/elf")
    t("Ann", type="fight", player=ann, monster=monster("RAT", 9, 2, effects=[
        {"stat": "strength", "value": 2, "if": {"race": "elf"}}]))
    t("Cid", type="add_monster", monster=monster("BAT", 1))
    t("Cid", type="add_monster", monster=monster("MOUSE", 1))
    t("Cid", type="remove_monster", monster=2)
    t("Bob", type="enhance", monster=0, card={"kind": "enhancer", "name": "ANCIENT", "bonus": 2,
                                               "treasures": 1})
    t("Ann", type="one_shot", side="players", card={"kind": "one-shot", "name": "POTION", "bonus": 3})
    t("Cid", type="one_shot", side="monsters", card={"kind": "one-shot", "name": "SLIME", "bonus": 1})
    t("Ann", type="offer", to=cid, treasures=1, pick_first=True)
    t("Cid", type="decline_offer", player=cid)
    t("Ann", type="offer", to=bob, treasures=1, items=[t.iid("Ann", "CLOAK")])
    t("Ann", type="offer", to=cid, treasures=2)
    t("Bob", type="accept_offer", player=bob)
    t("Bob", type="gear", player=bob, delta=20)
    t("Ann", type="resolve")
    t("Ann", type="close_fight")


def fight_events() -> tuple[list[dict], list[dict], dict]:
    """Each fight and help reducer driven once (once per words where it has several); the
    events, the public views along the way, and the state at the end."""
    t = Game()
    ann = t.ids["Ann"]
    won_fight(t)
    # A lost fight: caught by one monster (levels and the card's own Bad Stuff), escaping another.
    t("Ann", type="fight", player=ann, monster=monster("OGRE", 20, bad_stuff={
        "levels": 2, "summary": "LOSE YOUR HAT"}))
    t("Ann", type="add_monster", monster=monster("GHOST", 20, bad_stuff={"summary": "LOSE A HAND"}))
    t("Ann", type="add_monster", monster=monster("IMP", 20, bad_stuff={"levels": 1}))
    t("Ann", type="add_monster", monster=monster("BLOB", 20))
    t("Ann", type="add_monster", monster=monster("DEATH", 20, bad_stuff={"death": True}))
    t("Ann", type="resolve")
    t("Ann", type="run_away", player=ann, monster=0, roll=1)
    t("Ann", type="run_away", player=ann, monster=1, roll=1)
    t("Ann", type="run_away", player=ann, monster=2, roll=1)
    t("Ann", type="run_away", player=ann, monster=3, roll=6)
    t("Ann", type="run_away", player=ann, monster=4, roll=1)
    t("Ann", type="close_fight")
    events, views = fight_events_of(t), t.views

    # Tails: a forced helper backs out once the fight is one for the win (a second monster
    # would take Ann to level 10), another helps of their own will.
    t = Game("tails")
    t("Ann", type="level", player=t.ids["Ann"], delta=7)
    t("Ann", type="fight", player=t.ids["Ann"], monster=monster("RAT", 9))
    t("host", type="help", player=t.ids["Bob"], forced=True)
    t("Cid", type="add_monster", monster=monster("BAT", 1))
    t("Bob", type="stop_helping")
    t("Cid", type="help", player=t.ids["Cid"])                     # an offer, for Ann to answer
    t("Ann", type="decline_help", player=t.ids["Cid"])
    t("Cid", type="help", player=t.ids["Cid"])
    t("Cid", type="decline_help", player=t.ids["Cid"])             # taken back
    t("Ann", type="help", player=t.ids["Cid"])                     # the fighter's own choice
    events, views = events + fight_events_of(t), views + t.views
    # An offer the fighter takes.
    t = Game("classic")
    t("Ann", type="fight", player=t.ids["Ann"], monster=monster("RAT", 9))
    t.helps("Bob")
    events, views = events + fight_events_of(t), views + t.views

    # Oz: an ally is sacrificed instead of rolling.
    t = Game("oz")
    t("Ann", type="play", player=t.ids["Ann"], card={"kind": "ally", "name": "TOTO"})
    t("Ann", type="fight", player=t.ids["Ann"], monster=monster("WITCH", 18))
    t("Ann", type="resolve")
    t("Ann", type="sacrifice_ally", player=t.ids["Ann"])
    return events + fight_events_of(t), views + t.views, t.state


EVENTS, VIEWS, _ = fight_events()


def test_every_event_kind_of_the_fight_is_registered_and_fills_its_sentence():
    assert {e["kind"] for e in EVENTS} == FIGHT_KINDS
    for kind in FIGHT_KINDS:
        assert kind in EVENT_WORDS
    for e in EVENTS:
        assert not missing_parameters(e), e
        assert "%(" not in render(e), e


def test_every_event_of_the_fight_is_translated():
    for e in EVENTS:
        assert_all_translated(e)


def test_the_events_read_as_the_history_read_before():
    lines = [render(e) for e in EVENTS]
    assert "Ann fights RAT (level 9)" in lines
    assert "BAT (level 1) joins the fight; brought by a Wandering Monster" in lines
    assert "MOUSE is removed from the fight (no level for it, its treasures still count)" in lines
    assert "ANCIENT on RAT" in lines and "POTION for the players (+3)" in lines
    assert "SLIME for the monsters (+1)" in lines
    assert "Ann offers Cid: 1 treasure (helper picks first)" in lines
    assert "Ann offers Bob: 1 treasure (fighter picks first) and CLOAK (400 gold)" in lines
    assert "Bob accepts and helps; deal Bob: 1 treasure (fighter picks first) and CLOAK (400 gold)" in lines
    assert "Cid declines the offer" in lines
    assert any(line.startswith("Ann wins (") and line.endswith(
        "; level 1 to 3; Bob level 1 to 3; 5 treasures face up; Deal kept: Ann pays Bob: "
        "1 treasure (fighter picks first) and CLOAK (400 gold)") for line in lines), lines
    assert "Ann rolls 1 against OGRE (needs 5): caught! Bad Stuff: level 3 to 1; LOSE YOUR HAT" in lines
    assert "Ann rolls 1 against GHOST (needs 5): caught! Bad Stuff: LOSE A HAND" in lines
    assert "Ann rolls 1 against IMP (needs 5): caught! Bad Stuff: the level stays at 1" in lines
    assert "Ann rolls 6 against BLOB (needs 5): escapes" in lines
    assert any(line.startswith("Ann rolls 1 against DEATH (needs 5): caught! Ann dies") for line in lines)
    assert "Bob helps Ann (forced by a card)" in lines and "Cid helps Ann" in lines
    assert "Ann accepts the help of Bob" in lines
    assert "Cid offers to help Ann" in lines and "Ann turns down the help of Cid" in lines
    assert "Cid takes back the offer to help" in lines
    assert "Bob stops helping" in lines and "The fight is cleared from the table" in lines
    assert "Ann sacrifices TOTO and escapes every monster" in lines


def test_the_fight_result_the_ledger_helpers_bribes_and_breakdown_are_translated():
    found = [s for view in VIEWS for s in saids({k: view[k] for k in ("combat", "ledger")})]
    texts = {render(s) for s in found}
    # each kind of said the fight puts into the public state shows up at least once
    assert any(t.startswith("Ann wins (") for t in texts)
    # a lost fight's result says what became of each runner
    assert "The fight is over: Ann was caught by OGRE, GHOST, IMP, DEATH and died." in texts
    assert "The fight is over: Ann got away." in texts
    assert "Deal kept: Ann pays Bob: 1 treasure (fighter picks first) and CLOAK (400 gold)" in texts
    assert {"Level", "Gear", "RAT (Elf)"} <= texts
    assert "Ann is the one fighting" not in texts  # the fighter is not among the helpers
    assert any("brings" in t for t in texts)
    for s in found:
        assert not missing_parameters(s), s
        assert_all_translated(s)
    # the stored words are data: the API and the pages get them in the asker's language
    assert all(isinstance(view["ledger"][0]["text"], dict) for view in VIEWS if view["ledger"])


# --- who could help, the bribe and the breakdown, straight from the modules ---------------

def player(pid, *cards, level=1, dead=False, name=True):
    out = {"id": pid, "level": level, "sex": "male", "gear_adjust": 0, "dead": dead,
           "cards": [{"iid": pid * 100 + i, "card": c, "equipped": c["kind"] == "item"}
                     for i, c in enumerate(cards)]}
    if name:
        out["name"] = f"P{pid}"
    return out


def fight_of(*monsters_):
    return [{"card": m, "enhancers": []} for m in monsters_]


CLASSIC = editions.get("classic")
ELF = {"kind": "race", "name": "Elf", "effects": [{"stat": "helper_levels", "value": 1}]}


def module_saids() -> list[dict]:
    out = []
    fighter, dead, current = player(1, level=4), player(2, dead=True), player(3, level=2)
    nameless = player(4, name=False, level=9)
    opts = helping.helper_options(rules=TableRules.chosen(CLASSIC), fighter=fighter,
                                  others=[fighter, dead, current, nameless],
                                  monsters=fight_of(monster("M", 10)), one_shots=[], helper=current)
    out += [o["why_not"] for o in opts] + [opts[3]["name"]]
    common = {"rules": TableRules.chosen(CLASSIC), "one_shots": []}
    sword = {"kind": "item", "name": "SWORD", "bonus": 3, "slot": "1-hand", "gold": 600}
    hat = {"kind": "item", "name": "HAT", "bonus": 1, "slot": "headgear", "gold": 300}
    rich = player(1, sword, level=4)
    rich["cards"].append({"iid": 150, "card": hat, "equipped": False})
    for f, h, ms in [
        (player(1, level=2), player(2, level=2), fight_of(monster("M", 9, 2))),      # hopeless
        (player(1, level=9), player(2, level=2), fight_of(monster("M", 3, 2))),      # needless
        (player(1, level=9), player(2, level=2), fight_of(monster("M", 10, 3))),     # for the win
        (player(1, level=9), player(2, level=2), fight_of(monster("M", 10, 1))),     # ... one treasure
        (player(1, level=5), player(2, ELF, level=5), fight_of(monster("M", 9, 4))),  # an Elf
        (player(1, level=4), player(2, level=6), fight_of(monster("M", 9, 1))),      # one treasure
        (rich, player(2, level=5), fight_of(monster("M", 10, 2))),                   # items too
    ]:
        out.append(helping.suggest_bribe(fighter=f, helper=h, monsters=ms, **common)["explanation"])
    # The breakdown: words (Level, Gear), unnamed cards, conditions and empty hands.
    hands = {"stat": "strength", "value": 1, "per": "empty_hand"}
    fighter = player(1, level=3)
    fighter["gear_adjust"] = 2
    view = combat.compute(
        rules=TableRules.chosen(CLASSIC), fighter=fighter, helper=None,
        monsters=[{"card": {"kind": "monster", "level": 4, "effects": [
            {"stat": "strength", "value": 2, "if": {"sex": "male"}},
            {"stat": "strength", "value": 2, "if": {"not_race": ["elf", "dwarf"]}},
            {"stat": "strength", "value": 2, "if": {"sex": "female"}},
            dict(hands), dict(hands, **{"if": {"sex": "male", "not_class": "thief"}})]},
                   "enhancers": [{"kind": "enhancer", "bonus": 3}]}],
        one_shots=[{"side": "players", "card": {"kind": "one-shot", "bonus": 2}},
                   {"side": "monsters", "card": {"kind": "one-shot", "bonus": 1}}])
    out += saids(view)
    return out


MODULE_SAIDS = module_saids()


def test_who_could_help_the_bribes_and_the_breakdown_say_saids():
    texts = [render(s) for s in MODULE_SAIDS]
    assert "P1 is the one fighting" in texts and "P2 is dead until their next turn" in texts
    assert "P3 is already helping" in texts and "Player 4" in texts
    assert "only one player can help and P3 already does" in texts
    assert any("worth all 3 treasures" in t for t in texts)
    assert any("worth its 1 treasure" in t for t in texts)
    assert any("gains 1 level anyway" in t for t in texts)
    assert any("fight worth 1 treasure:" in t for t in texts)
    assert any(t.endswith("- or HAT (300 gold).") for t in texts)
    assert {"Level", "Gear", "Monster (male)", "Monster (not Elf or Dwarf)", "Enhancer", "One-shot",
            "Monster (2 empty hands)", "Monster (male, not Thief, 2 empty hands)"} <= set(texts)
    for s in MODULE_SAIDS:
        assert isinstance(s, dict), s
        assert not missing_parameters(s), s
        assert_all_translated(s)


# --- refusals ------------------------------------------------------------------------------

def refusals() -> list[EngineError]:
    out = []
    rat = monster("RAT", 9, 2)
    t = Game()
    ann, bob, cid = t.ids["Ann"], t.ids["Bob"], t.ids["Cid"]
    out.append(t.refused("Bob", EngineError, type="fight", player=bob, monster=rat))
    out.append(t.refused("Ann", EngineError, type="fight", player=ann, monster={"kind": "enhancer", "name": "X"}))
    out.append(t.refused("Ann", EngineError, type="fight", player=ann, monster={"kind": "monster", "name": "X"}))
    out.append(t.refused("host", EngineError, type="close_fight"))
    t.state["players"][0]["dead"] = True
    out.append(t.refused("Ann", EngineError, type="fight", player=ann, monster=rat))
    t.state["players"][0]["dead"] = False
    t("Ann", type="fight", player=ann, monster=rat)
    out.append(t.refused("Ann", EngineError, type="fight", player=ann, monster=rat))
    out.append(t.refused("Ann", EngineError, type="enhance", monster=0, card={"kind": "one-shot", "name": "X"}))
    out.append(t.refused("Ann", EngineError, type="one_shot", side="players", card={"kind": "monster", "name": "X", "level": 1}))
    out.append(t.refused("Ann", EngineError, type="stop_helping"))
    out.append(t.refused("Cid", EngineError, type="resolve"))
    out.append(t.refused("Ann", EngineError, type="run_away", player=ann, monster=0, roll=3))
    out.append(t.refused("Ann", EngineError, type="help", player=ann))
    out.append(t.refused("Cid", EngineError, type="offer", to=bob, treasures=1))
    out.append(t.refused("Ann", EngineError, type="offer", to=bob, treasures=3))
    out.append(t.refused("Ann", EngineError, type="offer", to=bob, treasures=1, items=[999]))
    out.append(t.refused("Ann", EngineError, type="offer", to=bob, treasures=0))
    out.append(t.refused("Bob", EngineError, type="accept_offer", player=bob))
    out.append(t.refused("Bob", EngineError, type="decline_offer", player=bob))
    out.append(t.refused("Ann", EngineError, type="close_fight"))
    out.append(t.refused("Ann", EngineError, type="sacrifice_ally", player=ann))
    t.state["players"][2]["dead"] = True
    out.append(t.refused("Cid", EngineError, type="help", player=cid))
    t.state["players"][2]["dead"] = False
    t.helps("Bob")
    out.append(t.refused("Cid", EngineError, type="help", player=cid))
    out.append(t.refused("Bob", EngineError, type="stop_helping"))
    t("Ann", type="add_monster", monster=monster("OGRE", 30))
    t("Ann", type="remove_monster", monster=1)
    t("Ann", type="add_monster", monster=monster("TROLL", 30))
    t("Ann", type="resolve")
    out.append(t.refused("Ann", EngineError, type="add_monster", monster=rat))
    out.append(t.refused("Ann", EngineError, type="enhance", monster=0, card={"kind": "enhancer", "name": "X"}))
    out.append(t.refused("Ann", EngineError, type="one_shot", side="players", card={"kind": "one-shot", "name": "X"}))
    out.append(t.refused("Ann", EngineError, type="resolve"))
    out.append(t.refused("Cid", EngineError, type="help", player=cid))
    out.append(t.refused("Cid", EngineError, type="run_away", player=cid, monster=0, roll=3))
    out.append(t.refused("Ann", EngineError, type="run_away", player=ann, monster=1, roll=3))
    t("Ann", type="run_away", player=ann, monster=0, roll=6)
    out.append(t.refused("Ann", EngineError, type="run_away", player=ann, monster=0, roll=6))
    t.state["players"][0]["dead"] = True
    out.append(t.refused("Ann", EngineError, type="run_away", player=ann, monster=2, roll=6))
    t = Game("oz")
    t("Ann", type="fight", player=t.ids["Ann"], monster=monster("WITCH", 18))
    out.append(t.refused("Ann", EngineError, type="sacrifice_ally", player=t.ids["Ann"]))
    t("Ann", type="resolve")
    out.append(t.refused("Ann", EngineError, type="sacrifice_ally", player=t.ids["Ann"]))
    return out


REFUSALS = refusals()


def refusal_said(error: EngineError) -> dict:
    return error.detail_said if isinstance(error, RuleViolation) else error.said


def test_every_refusal_of_the_fight_says_a_translated_said():
    expected = [
        "it is not Bob's turn", "X is not a monster.", "The catalog does not know X's level",
        "there is no fight to close", "Ann is dead until the next turn",
        "finish the current fight first", "X is not a monster enhancer.",
        "X cannot be played as a one-shot.", "Nobody is helping in this fight.",
        "Only the fighter, the helper or the host can resolve the fight.",
        "resolve the fight first", "Ann is the one fighting",
        "only the player in the fight offers a bribe", "this fight yields 2 treasures",
        "Ann carries no item 999", "An offer promises treasures, items, or both.",
        "There is no offer for Bob.", "There is no offer for Bob.", "the fight is not over yet",
        "Munchkin (classic) has no allies", "Cid is dead until the next turn",
        "Bob is already helping", "Bob agreed to help",
        "the fight is past the point where monsters join", "enhancers go in while the fight is on",
        "one-shots go in while the fight is on",
        "The fight has already been decided; run away or close it.",
        "the fight has already been decided", "Cid is not in this fight.",
        "That monster has left the fight.", "Ann already rolled against that monster",
        "Ann is dead and runs from nothing more",
        "an ally is sacrificed instead of a run-away roll", "Ann has no ally",
    ]
    assert len(REFUSALS) == len(expected)
    for error, words in zip(REFUSALS, expected):
        said_ = refusal_said(error)
        assert said_ is not None and words in render(said_), (words, error)
        assert not missing_parameters(said_), said_
        assert_all_translated(said_)


# --- a broken translation -------------------------------------------------------------------

def test_a_translation_naming_a_parameter_nobody_passes_falls_back_to_english():
    everything = EVENTS + MODULE_SAIDS + [refusal_said(e) for e in REFUSALS] + [
        s for view in VIEWS for s in saids(view.get("combat"))]
    for value in everything:
        assert render(value, broken, broken_plural) == render(value), value


def test_no_english_is_built_by_formatting_in_the_fight_modules():
    """An f-string or ``.format`` makes words at run time that no catalog can hold."""
    for path in MY_FILES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            assert not isinstance(node, ast.JoinedStr), (path.name, node.lineno)
            assert not (isinstance(node, ast.Attribute) and node.attr == "format"), (path.name, node.lineno)
