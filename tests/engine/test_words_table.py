"""Every word of the table, the house cards and the engine's shared parts goes through
translation: events are registered data, refusals are saids, and a broken translation falls
back to English instead of failing.

The fake translator ``upper`` upper-cases each msgid (outside its placeholders). Rendered with
it, a line must have no lower-case letter left once the parameters' own text (names, ids,
card names: facts, never translated) is taken out: English that bypassed translation would.
"""

from __future__ import annotations

import random
from functools import partial

import pytest

from companion import engine
from companion.engine import Actor, BadAction, EngineError, Forbidden, RuleViolation, editions
from companion.engine.action_models import parse_action
from companion.engine.core import CHECKS, Context
from companion.engine.errors import TooLarge
from companion.engine.reducers import house
from companion.engine.rules import TableRules
from companion.engine.state import choice_field, clean_name, clean_sex, find_card, find_player, monster_index
from companion.engine.words import EVENT_WORDS, english, render

from . import words_check
from .driver import Game
from .words_check import broken, broken_plural, missing_parameters

HOST = Actor(host=True)

# The event kinds this domain's reducers emit (table.py, house.py, core.level_event).
TABLE_KINDS = {
    "level", "level_win", "gear", "gear_down", "sex_male", "sex_female", "set_turn", "end_turn",
    "set_hand", "variant_on", "variant_off", "rename", "remove_player", "lock_table", "unlock_table",
    "add_house_card", "import_house_cards",
}

# The parameters that may hold plain text: facts (names, card names, ids, a field's path, the
# values a field allows), never words. Any other text parameter is English that bypassed
# translation.
FACT_KEYS = {"name", "old", "to_name", "card", "card_id", "cards", "names", "field", "parent", "type",
             "given", "kinds", "choices", "last", "expected", "keys", "key", "edition", "editions",
             "stat", "sex", "variant", "source", "choice"}
param_texts = partial(words_check.param_texts, facts=FACT_KEYS)
assert_all_translated = partial(words_check.assert_all_translated, facts=FACT_KEYS)


# --- the game, driven through engine.apply -------------------------------------------------

HOUSE = {"kind": "monster", "name": "Tax Collector", "level": 4, "treasures": 1}


def table_events() -> list[dict]:
    """Each reducer of the table and the house cards, driven once (twice where it has two words)."""
    t = Game()
    ann, bob, cid = t.ids["Ann"], t.ids["Bob"], t.ids["Cid"]
    t("Ann", type="level", player=ann, delta=2)
    t("Ann", type="gear", player=ann, delta=3)
    t("Ann", type="gear", player=ann, delta=-1)
    t("Ann", type="set_sex", player=ann, sex="female")
    t("Ann", type="set_sex", player=ann, sex="male")
    t("Ann", type="set_hand", player=ann, count=1)
    t("Ann", type="set_hand", player=ann, count=9)  # over the limit: Charity at the end of the turn
    t("Ann", type="end_turn", player=ann)
    t("host", type="set_turn", player=cid)
    t("host", type="set_variant", variant="faster_play", on=True)
    t("host", type="set_variant", variant="faster_play", on=False)
    t("Bob", type="rename", player=bob, name="Bea")
    t("host", type="lock_table", locked=True)
    t("host", type="lock_table", locked=False)
    t("host", type="add_house_card", card=HOUSE)
    t("host", type="import_house_cards", cards=[dict(HOUSE, name="Golem"), dict(HOUSE, name="Imp")])
    t("host", type="remove_player", player=bob)
    t("Cid", type="level", player=cid, delta=9, source="kill")  # the winning level
    return t.events


def test_every_event_kind_of_the_table_is_registered_and_fills_its_sentence():
    events = table_events()
    assert {e["kind"] for e in events} == TABLE_KINDS
    for kind in TABLE_KINDS:
        assert kind in EVENT_WORDS, kind
    for e in events:
        assert missing_parameters(e) == [], e
        assert "%(" not in render(e)


def test_the_table_lines_read_as_before_in_english():
    lines = [render(e) for e in table_events()]
    assert lines[0] == "Ann: level 1 to 3, adjusted"
    assert lines[1:4] == ["Ann: gear bonus adjusted by +3", "Ann: gear bonus adjusted by -1", "Ann: now female"]
    assert lines[5:7] == ["Ann: 1 card in hand", "Ann: 9 cards in hand"]
    assert lines[7].startswith("Ann ends the turn; Charity: ") and lines[7].endswith("; turn: Bob")
    assert lines[8:10] == ["Turn: Cid", "Optional rule faster play: on"]
    assert lines[11:14] == ["Bob is now called Bea", "The host locks the table: nobody else can join",
                            "The host unlocks the table"]
    assert lines[14:] == ["House card added: Tax Collector (monster)", "House cards imported: Golem, Imp",
                          "The host removes Bea from the table",
                          "Cid: level 1 to 10, killed a monster. Cid wins the game!"]


def test_every_table_line_goes_through_translation():
    for e in table_events():
        assert_all_translated(e)


def test_a_broken_translation_of_a_table_line_falls_back_to_english():
    for e in table_events():
        assert render(e, broken, broken_plural) == render(e), e


# --- refusals --------------------------------------------------------------------------------

def table_refusals() -> list[EngineError]:
    """Each refusal the table, the house cards and the shared parts can give, once."""
    out: list[EngineError] = []

    def catch(fn, *args, **kwargs):
        with pytest.raises(EngineError) as caught:
            fn(*args, **kwargs)
        out.append(caught.value)

    t = Game()
    ann, bob = t.ids["Ann"], t.ids["Bob"]
    # core: seats, fights, levels
    out.append(t.refused("Bob", EngineError, type="level", player=ann, delta=1))  # own
    out.append(t.refused("host", EngineError, type="resolve"))  # current_fight
    out.append(t.refused("Ann", EngineError, type="level", player=ann, delta=-1))  # level-minimum
    out.append(t.refused("Ann", EngineError, type="level", player=ann, delta=9))  # level 10 by adjusting
    t("Ann", type="level", player=ann, delta=8)
    out.append(t.refused("Ann", EngineError, type="level", player=ann, delta=1, source="card"))
    out.append(t.refused("Ann", EngineError, type="level", player=ann, delta=1, source="sell"))
    ctx = Context(rules=TableRules.chosen("classic"), resolve=None, rng=random.Random(1))
    catch(ctx.card, t.state, None)
    # the table
    out.append(t.refused("Ann", EngineError, type="level", player=ann, delta=0))
    t("Ann", type="gear", player=ann, delta=50)
    out.append(t.refused("Ann", EngineError, type="gear", player=ann, delta=50))
    out.append(t.refused("Bob", EngineError, type="set_turn", player=bob))
    out.append(t.refused("Bob", EngineError, type="end_turn", player=bob))
    t("Ann", type="fight", player=ann, monster={"kind": "monster", "name": "Blob", "level": 1})
    out.append(t.refused("host", EngineError, type="set_turn", player=bob))
    out.append(t.refused("Ann", EngineError, type="end_turn", player=ann))
    t("host", type="close_fight")
    t("Bob", type="die", player=bob)
    out.append(t.refused("Bob", EngineError, type="set_hand", player=bob, count=5))
    out.append(t.refused("Bob", EngineError, type="level", player=bob, delta=1))  # dead-no-cards
    out.append(t.refused("Ann", EngineError, type="set_variant", variant="faster_play", on=True))
    out.append(t.refused("host", EngineError, type="set_variant", variant="shared_victory", on=True))  # not in classic
    out.append(t.refused("Bob", EngineError, type="rename", player=bob, name="ANN"))
    out.append(t.refused("Ann", EngineError, type="remove_player", player=bob))
    out.append(t.refused("Ann", EngineError, type="lock_table", locked=True))
    # house cards
    t("host", type="add_house_card", card=HOUSE)
    out.append(t.refused("host", EngineError, type="add_house_card", card=HOUSE))
    catch(house._house_card, t.state, dict(HOUSE, name="!!"))
    catch(house._house_card, t.state, dict(HOUSE, unknown=["level"]))
    full = dict(t.state, house_cards=[dict(HOUSE, id=f"house/c{i}") for i in range(500)])
    one_more = parse_action({"type": "add_house_card", "card": dict(HOUSE, name="One more")})
    catch(CHECKS["add_house_card"], full, one_more, HOST, ctx)
    # the state's fields
    catch(engine.new_game, "X", "nope")
    for name in (None, "Ann\ud800", "\u200b", "x" * 41):
        catch(clean_name, name)
    catch(clean_sex, "other")
    catch(engine.add_player, t.state, "ann", "male")
    small = engine.new_game("X", "spell-skool")
    for name in "ABCD":
        engine.add_player(small, name, "male")
    catch(engine.add_player, small, "E", "male")
    catch(find_player, t.state, "1")
    catch(find_player, t.state, 99)
    catch(find_card, find_player(t.state, ann), "1")
    catch(find_card, find_player(t.state, ann), 99)
    catch(monster_index, None, 2)
    catch(monster_index, 10, 10)
    catch(choice_field, "luck", "source", ("kill", "card"))
    # apply
    catch(engine.apply, t.state, {"type": "level", "player": ann, "delta": 1}, Actor())
    won = Game()
    won("Ann", type="level", player=won.ids["Ann"], delta=9, source="kill")
    out.append(won.refused("Bob", EngineError, type="level", player=won.ids["Bob"], delta=1))  # game-over
    return out


MALFORMED = [
    "not an action", {"player": 1}, {"type": "nope"}, {"type": "x" * 50}, {"type": 5},
    {"type": "level", "player": 1, "delta": "2"},  # between
    {"type": "level", "player": "1", "delta": 2},  # a player id
    {"type": "discard", "player": 1, "instance": "2"},  # an instance id
    {"type": "remove_monster", "monster": "2"},  # a monster index
    {"type": "level", "player": 1},  # missing
    {"type": "level", "player": 1, "delta": 1, "ammount": 2},  # extra
    {"type": "play", "player": 1, "card": {"kind": "item", "name": "S", "treasure": 1}},  # extra, nested
    {"type": "set_variant", "variant": "faster_play", "on": "yes"},  # bool
    {"type": "rename", "player": 1, "name": 5},  # string
    {"type": "rename", "player": 1, "name": ""},  # empty
    {"type": "rename", "player": 1, "name": "x" * 300},  # too long
    {"type": "rename", "player": 1, "name": "Ann\ud800"},  # broken character
    {"type": "set_sex", "player": 1, "sex": "other"},  # one of
    {"type": "sell", "player": 1, "instances": 3},  # list
    {"type": "sell", "player": 1, "instances": list(range(1, 200))},  # too many entries
    {"type": "import_house_cards", "cards": []},  # too few
    {"type": "play", "player": 1, "card": 7},  # card spec
    {"type": "play", "player": 1, "card": {"name": "Sword"}},  # card kind missing
    {"type": "play", "player": 1, "card": {"kind": "sword", "name": "Sword"}},  # not a kind
    {"type": "add_house_card", "card": "classic/elf"},  # facts needed
    {"type": "play", "player": 1, "card": {"kind": "item", "name": "S", "requires": 3}},  # object
    {"type": "play", "player": 1, "card": {"kind": "item", "name": "S", "slot": "hat"}},  # one of, nested
    # a card validator's own reason (the card schema's, passed on as a parameter)
    {"type": "play", "player": 1, "card": {"kind": "item", "name": "S", "effects": [{"stat": "strength"}]}},
    {"type": "level", "player": "x", "delta": "y"},  # several problems
]


def malformed_refusals() -> list[EngineError]:
    out = []
    for action in MALFORMED:
        with pytest.raises(BadAction) as caught:
            parse_action(action)
        out.append(caught.value)
    return out


def said_of(exc: EngineError) -> dict:
    return exc.detail_said if isinstance(exc, RuleViolation) else exc.said


def test_every_refusal_is_a_said_that_fills_its_sentence():
    refusals = table_refusals() + malformed_refusals()
    kinds = {type(e) for e in refusals}
    assert {BadAction, Forbidden, RuleViolation, TooLarge} <= kinds
    for exc in refusals:
        assert isinstance(said_of(exc), dict), exc
        assert missing_parameters(said_of(exc)) == [], exc
        assert "%(" not in render(said_of(exc)), exc


def test_the_refusals_read_as_before_in_english():
    messages = [e.message if not isinstance(e, RuleViolation) else e.detail for e in table_refusals()]
    assert messages[0] == "Only Ann or the host can do that for Ann."
    assert "nobody is fighting right now" in messages
    assert "Ann is level 1" in messages and "it is not Bob's turn" in messages
    assert "There is no player 99 at this table." in messages
    assert "'monster' must be between 0 and 9." in messages
    assert "A table may have at most 500 house cards; this one has 500." in messages
    assert "Ann already won" in messages
    bad = [e.message for e in malformed_refusals()]
    assert "'delta' must be a whole number between -9 and 9." in bad
    assert "'sex' must be one of 'male' or 'female'." in bad
    assert "'player' must be a player id (a whole number)." in bad


def test_every_refusal_goes_through_translation():
    for exc in table_refusals() + malformed_refusals():
        assert_all_translated(said_of(exc))


def test_a_broken_translation_of_a_refusal_falls_back_to_english():
    for exc in table_refusals() + malformed_refusals():
        assert render(said_of(exc), broken, broken_plural) == render(said_of(exc), english), exc


# --- the public state ------------------------------------------------------------------------

def test_the_edition_name_is_said_in_the_reader_s_language():
    for edition in editions.EDITIONS:
        name = engine.public_state(engine.new_game("X", edition))["edition_name"]
        assert render(name) == editions.get(edition).name
        assert_all_translated(name)
