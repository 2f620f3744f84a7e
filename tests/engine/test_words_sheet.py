"""The character sheet says everything as data: every event of its reducers is registered and
renders, every line, refusal and explanation goes through translation, and a translation that
names a parameter the engine does not give falls back to English instead of failing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion import engine
from companion.engine import EngineError
from companion.engine import character as ch
from companion.engine import editions
from companion.engine import sheet as sheet_rules
from companion.engine.reducers import sheet as sheet_reducers
from companion.engine.words import EVENT_WORDS, english_plural, render

from .driver import Game

CLASSIC, OZ, SKOOL, TAILS = (editions.get(e) for e in ("classic", "oz", "spell-skool", "tails"))
PLACEHOLDER = re.compile(r"(%\(\w+\)s)")
# The kinds the sheet's reducers register (read from the module, so a new one is not missed).
SHEET_KINDS = set(re.findall(r'event_words\(\s*"([^"]+)"', Path(sheet_reducers.__file__).read_text()))


# ---------------------------------------------------------------- translators


def upper(msgid: str) -> str:
    """A "translation" that upper-cases the words and keeps the placeholders."""
    return "".join(p if PLACEHOLDER.fullmatch(p) else p.upper() for p in PLACEHOLDER.split(msgid))


def upper_plural(singular: str, plural: str, n: int) -> str:
    return upper(english_plural(singular, plural, n))


def dropping(msgid: str) -> str:
    """A broken translation: every placeholder renamed to one the engine never gives."""
    return PLACEHOLDER.sub(lambda m: m.group(1)[:-2] + "_gone)s", msgid)


def dropping_plural(singular: str, plural: str, n: int) -> str:
    return dropping(english_plural(singular, plural, n))


TITLED = re.compile(r"[A-Z][a-z]+(?:[ ,]+[A-Z][a-z]+)*")  # "Wizard", "Halfling, Gnome"


def facts(value) -> list[str]:
    """The race and class names (titled slugs, facts) among a said or event's parameters. The
    test's players and cards are named in capitals, so any other lower-case text is English."""
    if isinstance(value, list):
        return [f for v in value for f in facts(v)]
    if not isinstance(value, dict):
        return [value] if isinstance(value, str) and TITLED.fullmatch(value) else []
    return [f for k, v in value.items() if k not in ("said", "plural", "kind") for f in facts(v)]


def assert_translated(value) -> None:
    """Rendered by the upper-casing translator, nothing but facts is left in lower case."""
    text = render(value, upper, upper_plural)
    assert text != render(value)
    rest = text
    for fact in sorted(set(facts(value)), key=len, reverse=True):
        rest = rest.replace(fact, "")
    assert not re.search("[a-z]", rest), f"English bypassed translation: {text!r}"


def assert_complete(value) -> None:
    """Rendered in English with every parameter there (no raw placeholder left)."""
    text = render(value)
    assert text and "%" not in text, text


# ---------------------------------------------------------------- a game that plays and is refused everything


def item(name, bonus=1, slot="other", **extra):
    return {"kind": "item", "name": name, "bonus": bonus, "slot": slot, "gold": extra.pop("gold", 300),
            **extra}


def play_everything() -> Game:
    """Drive every reducer of the sheet, and every variant of its words, once."""
    g = Game("classic", "ANN", "BOB", "CID")
    ann, bob, cid = g.ids["ANN"], g.ids["BOB"], g.ids["CID"]
    g("ANN", type="play", player=ann, card=item("HELM", 1, "headgear"))              # equipped
    g("ANN", type="play", player=ann, card=item("HAT", 1, "headgear"))               # carried
    g("ANN", type="play", player=ann, card={"kind": "race", "name": "ELF"})          # plain
    g("ANN", type="equip", player=ann, instance=g.iid("ANN", "HELM"), equipped=False)
    g("ANN", type="equip", player=ann, instance=g.iid("ANN", "HAT"), equipped=True)
    g("BOB", type="play", player=ann, card={"kind": "go-up-a-level", "name": "POTION", "levels": 2})
    g("BOB", type="play", player=ann, card={"kind": "curse", "name": "HEX", "lose_levels": 1,
                                            "change_sex": True, "duration": "lasting",
                                            "lose_slot": "any"})                  # ANN picks
    g("BOB", type="play", player=ann, card={"kind": "curse", "name": "HEX TWO", "change_sex": True})
    g("BOB", type="play", player=cid, card={"kind": "curse", "name": "DRAIN", "lose_levels": 1})
    for slot in ("headgear", "armor", "footgear", "1-hand", "2-hands", "other", "big", "any"):
        g("ANN", type="play", player=bob, card={"kind": "curse", "name": "RUST", "lose_slot": slot})
    g("ANN", type="discard", player=ann, instance=g.iid("ANN", "HELM"))                # HEX's pick
    g("ANN", type="play", player=ann, card=item("GEM", gold=1200))
    g("ANN", type="sell", player=ann, instances=[g.iid("ANN", "GEM")])                # 200 lost
    g("ANN", type="sell", player=ann, instances=[], hand_gold=1000)
    g("ANN", type="play", player=ann, card=item("RING", gold=500))
    g("ANN", type="sell", player=ann, instances=[g.iid("ANN", "RING")], hand_gold=500)
    g("ANN", type="give", player=ann, instance=g.iid("ANN", "HAT"), to=bob)
    g.hand("BOB", 2)
    g("BOB", type="die", player=bob)                                                  # loses HAT
    first, second = g.state["bodies"][0]["order"]                                     # ANN, CID by level
    names = {ann: "ANN", cid: "CID"}
    g(names[first], type="loot", player=first, body=bob, instance=g.state["bodies"][0]["cards"][0]["iid"])
    g(names[second], type="loot", player=second, body=bob, from_hand=True)             # looting ends
    g("CID", type="die", player=cid)                                                  # nothing
    g("ANN", type="die", player=ann)                                                  # nobody loots
    g("ANN", type="end_turn", player=ann)                                             # BOB's turn
    g("BOB", type="play", player=bob, card={"kind": "race", "name": "HALFLING"})
    g("BOB", type="play", player=bob, card=item("CROWN", slot="headgear", gold=600))  # worn
    g("BOB", type="play", player=bob, card=item("JUNK", gold=None))
    g("BOB", type="play", player=bob, card={"kind": "one-shot", "name": "FLASK", "gold": 400})
    g("BOB", type="sell", player=bob, instances=[g.iid("BOB", "CROWN"), g.iid("BOB", "JUNK")],
      doubled=g.iid("BOB", "CROWN"))                                                  # 1200 gold
    g("BOB", type="play", player=bob, card=item("CAP", slot="headgear"))              # worn
    g("ANN", type="play", player=bob, card={"kind": "curse", "name": "SNATCH", "lose_slot": "headgear"})
    g("BOB", type="die", player=bob)                                                  # FLASK in play
    g("ANN", type="end_looting", body=bob)                                            # FLASK discarded
    g("ANN", type="draw", player=ann)
    g("ANN", type="draw", player=ann, deck="door")                                     # looting the room
    g("ANN", type="draw", player=ann, deck="treasure")
    g("ANN", type="draw", player=ann, count=3)
    return g


def refuse_everything() -> Game:
    """Every refusal the sheet's reducers make themselves."""
    g = Game("classic", "ANN", "BOB", "CID")
    ann, bob = g.ids["ANN"], g.ids["BOB"]
    g.refused("BOB", EngineError, type="play", player=ann, card=item("SWORD"))        # Forbidden
    g.refused("ANN", EngineError, type="play", player=ann, card={"kind": "monster", "name": "ORC", "level": 1})
    g.refused("ANN", EngineError, type="play", player=ann, card={"kind": "enhancer", "name": "HUGE", "bonus": 5})
    g("ANN", type="play", player=ann, card={"kind": "race", "name": "ELF"})
    g.refused("ANN", EngineError, type="equip", player=ann, instance=g.iid("ANN", "ELF"), equipped=True)
    g.refused("ANN", EngineError, type="give", player=ann, instance=g.iid("ANN", "ELF"), to=bob)
    g("ANN", type="play", player=ann, card=item("SWORD"))
    g.refused("ANN", EngineError, type="give", player=ann, instance=g.iid("ANN", "SWORD"), to=ann)
    g.refused("ANN", EngineError, type="sell", player=ann, instances=[])
    g.refused("ANN", EngineError, type="sell", player=ann, instances=[g.iid("ANN", "SWORD"), g.iid("ANN", "SWORD")])
    g("BOB", type="play", player=bob, card=item("GEM", gold=1000))
    g.refused("BOB", EngineError, type="sell", player=bob, instances=[g.iid("BOB", "GEM")])  # not BOB's turn
    g("ANN", type="fight", player=ann, monster={"kind": "monster", "name": "RAT", "level": 1})
    g.refused("ANN", EngineError, type="play", player=ann, card=item("AXE"))
    g.refused("ANN", EngineError, type="play", player=ann, card={"kind": "one-shot", "name": "POTION", "bonus": 2})
    g.refused("ANN", EngineError, type="equip", player=ann, instance=g.iid("ANN", "SWORD"), equipped=False)
    g.refused("ANN", EngineError, type="give", player=ann, instance=g.iid("ANN", "SWORD"), to=bob)
    g.refused("ANN", EngineError, type="sell", player=ann, instances=[g.iid("ANN", "SWORD")])
    g("CID", type="die", player=g.ids["CID"])
    g.refused("CID", EngineError, type="play", player=g.ids["CID"], card=item("AXE"))
    g.refused("BOB", EngineError, type="give", player=bob, instance=g.iid("BOB", "GEM"), to=g.ids["CID"])
    g.refused("CID", EngineError, type="die", player=g.ids["CID"])                    # already dead
    g("ANN", type="resolve")                                                         # SWORD wins
    g("ANN", type="end_turn", player=ann)                                            # BOB's turn
    g("BOB", type="play", player=bob, card=item("RING", gold=600))
    g.refused("BOB", EngineError, type="sell", player=bob, instances=[g.iid("BOB", "GEM")],
             doubled=g.iid("BOB", "GEM"))                                             # no Halfling
    g("BOB", type="play", player=bob, card={"kind": "race", "name": "HALFLING"})
    g("BOB", type="sell", player=bob, instances=[g.iid("BOB", "RING")], doubled=g.iid("BOB", "RING"))
    g.refused("BOB", EngineError, type="sell", player=bob, instances=[g.iid("BOB", "GEM")],
             doubled=g.iid("BOB", "GEM"))                                             # twice
    g("BOB", type="play", player=bob, card=item("PEBBLE", gold=None))
    g.refused("BOB", EngineError, type="sell", player=bob, instances=[g.iid("BOB", "GEM")],
             doubled=g.iid("BOB", "PEBBLE"))                                          # not sold
    g("ANN", type="play", player=bob, card={"kind": "curse", "name": "RUST", "lose_slot": "any"})
    g.refused("BOB", EngineError, type="give", player=bob, instance=g.iid("BOB", "GEM"), to=ann)  # BOB picks
    return g


# ---------------------------------------------------------------- the sheet's other words


def player(*cards, name="ANN", sex="male", level=1, equipped=True):
    return {"id": 1, "name": name, "level": level, "sex": sex, "gear_adjust": 0, "dead": False,
            "hand": 0, "cards": [{"iid": i + 1, "card": c, "equipped": equipped and c["kind"] == "item"}
                                 for i, c in enumerate(cards)]}


def race(name):
    return {"kind": "race", "name": name}


def klass(name):
    return {"kind": "class", "name": name}


HALF_BREED = {"kind": "half-breed", "name": "Half-Breed"}
SUPER = {"kind": "super-munchkin", "name": "Super Munchkin"}
BIG = item("BIG ONE", big=True)

# (function, args): each call must refuse
REFUSALS = [
    (ch.check_play, (player(), race("ELF"), OZ)),                                   # no races
    (ch.check_play, (player(race("ELF")), race("ELF"), CLASSIC)),                   # an Elf
    (ch.check_play, (player(race("DWARF")), race("DWARF"), CLASSIC)),               # a Dwarf
    (ch.check_play, (player(race("ELF"), HALF_BREED, race("DWARF")), race("HALFLING"), CLASSIC)),
    (ch.check_play, (player(race("ELF")), race("DWARF"), CLASSIC)),                 # an Elf, no HB
    (ch.check_play, (player(race("DWARF")), race("ELF"), CLASSIC)),                 # a Dwarf, no HB
    (ch.check_play, (player(klass("WIZARD")), klass("WIZARD"), CLASSIC)),
    (ch.check_play, (player(klass("WIZARD"), SUPER, klass("THIEF")), klass("CLERIC"), CLASSIC)),
    (ch.check_play, (player(klass("CHESS CLUB"), klass("POTIONS CLUB")), klass("SPORTS CLUB"), SKOOL)),
    (ch.check_play, (player(klass("WIZARD")), klass("THIEF"), CLASSIC)),
    (ch.check_play, (player(), HALF_BREED, OZ)),
    (ch.check_play, (player(race("ELF"), HALF_BREED), HALF_BREED, CLASSIC)),
    (ch.check_play, (player(), HALF_BREED, CLASSIC)),
    (ch.check_play, (player(), SUPER, SKOOL)),
    (ch.check_play, (player(klass("WIZARD"), SUPER), SUPER, CLASSIC)),
    (ch.check_play, (player(), SUPER, CLASSIC)),
    (ch.check_play, (player(), {"kind": "ally", "name": "PAL"}, CLASSIC)),
    (ch.check_play, (player({"kind": "ally", "name": "PAL"}), {"kind": "ally", "name": "BUD"}, OZ)),
    (ch.check_play, (player({"kind": "ally"}), {"kind": "ally", "name": "BUD"}, OZ)),
    (ch.check_play, (player(BIG), item("BIG TWO", big=True), CLASSIC)),             # 1 Big item
    (ch.check_play, (player(BIG, BIG, race("DWARF", )), item("BIG TWO", big=True),
                     editions.get("russia"))),                                        # 2 Big items
    (ch.check_equip, (player(race("ELF")), 1, CLASSIC)),
    (ch.check_equip, (player({"kind": "race"}), 1, CLASSIC)),
    (ch.check_equip, (player(item("CAP", slot="headgear"), item("HAT", slot="headgear")), 2, CLASSIC)),
    (ch.check_equip, (player(item("MAIL", slot="armor"), item("PLATE", slot="armor")), 2, CLASSIC)),
    (ch.check_equip, (player(item("BOOT", slot="footgear"), item("SHOE", slot="footgear")), 2, CLASSIC)),
    (ch.check_equip, (player(item("POLE", slot="2-hands"), item("KNIFE", slot="1-hand")), 2, CLASSIC)),
    (ch.check_equip, (player(), 9, CLASSIC)),                                        # no such card
    (ch.check_equip, ({"id": 4, "cards": []}, 9, CLASSIC)),                          # nameless player
    (sheet_rules.sale, (player(), [{"iid": 1, "card": race("ELF")}], CLASSIC)),
    (sheet_rules.sale, (player(), [{"iid": 1, "card": {"kind": "item", "name": "ODD"}}], CLASSIC)),
    (sheet_rules.sale, (player(), [{"iid": 1, "card": item("JUNK", gold=None)}], CLASSIC)),
    (sheet_rules.sale, (player(), [{"iid": 1, "card": item("JUNK", gold=400)}], CLASSIC)),
]


def said_refusals() -> list[dict]:
    out = []
    for fn, args in REFUSALS:
        with pytest.raises(EngineError) as caught:
            fn(*args)
        out.append(caught.value.said)
    return out + [e.said for e in refuse_everything().refusals]


def sheet_saids() -> list:
    """Why items do not count, warnings, curse outcomes and Charity: everything the sheet puts
    into the state or the public state."""
    wizard_staff = item("STAFF", slot="2-hands", requires={"class": "wizard"})
    restricted = [
        item("BOW", requires={"race": "halfling"}), item("ORB", requires={"race": "orc"}),
        item("AXE", requires={"race": ["halfling", "gnome"]}),
        item("DAGGER", requires={"class": "thief"}), item("CHALICE", requires={"class": "alchemist"}),
        item("GOWN", requires={"sex": "female"}), item("KILT", requires={"sex": "male"}),
        item("ODD", requires={"sex": []}),
        item("STILTS", requires={"not_race": "dwarf"}), item("LIGHT", requires={"not_race": "elf"}),
        item("MACE", requires={"not_class": "wizard"}), item("ROD", requires={"not_class": "alchemist"}),
    ]
    rows = ch.item_rows(player(
        item("SWORD", equipped=False),
        item("CAP", slot="headgear"), item("HAT", slot="headgear"),
        item("MAIL", slot="armor"), item("PLATE", slot="armor"),
        item("BOOT", slot="footgear"), item("SHOE", slot="footgear"),
        item("POLE", slot="2-hands"), item("KNIFE", slot="1-hand"),
        wizard_staff, *restricted, klass("WIZARD"), race("DWARF")), CLASSIC)
    rows += ch.item_rows(player(*restricted, klass("ALCHEMIST"), race("ELF"), sex="female"), CLASSIC)
    saids = [r["why_not"] for r in rows if r["why_not"]]
    saids += [w["detail"] for w in ch.warnings_for_equip(player(wizard_staff, equipped=False), 1, True,
                                                          CLASSIC)]
    saids.append(ch.player_name({"id": 4}))
    for curse in ({"lose_levels": 1}, *({"lose_slot": s} for s in
                                        ("headgear", "armor", "footgear", "1-hand", "2-hands", "hand",
                                         "other", "big", "small", "any"))):
        saids.append(sheet_rules.apply_curse(player(), {"kind": "curse", "name": "X", **curse},
                                             CLASSIC)["nothing"])
    state = engine.new_game("TEST1", "classic")
    ids = [engine.add_player(state, n, "male") for n in ("ANN", "BOB", "CID", "DEE")]
    giver = state["players"][0]
    giver["hand"], giver["level"] = 6, 3
    saids.append(sheet_rules.charity(state, giver, CLASSIC)["text"])                 # 1 card to BOB
    giver["hand"] = 12
    saids.append(sheet_rules.charity(state, giver, CLASSIC, order=ids[::-1])["text"])  # 3, 2, 2
    giver["level"] = 1
    saids.append(sheet_rules.charity(state, giver, CLASSIC)["text"])                 # 7 discarded
    giver["hand"] = 6
    saids.append(sheet_rules.charity(state, giver, CLASSIC)["text"])                 # 1 discarded
    return saids


# ---------------------------------------------------------------- (a) registered and complete


def test_every_event_kind_of_the_sheet_is_registered_and_played_here():
    played = {e["kind"] for e in play_everything().events}
    assert SHEET_KINDS and SHEET_KINDS <= set(EVENT_WORDS)
    assert SHEET_KINDS <= played, f"never driven: {SHEET_KINDS - played}"
    # a Go Up a Level card says the table's level line; a turn ends to bring the dead back
    assert played - SHEET_KINDS <= {"level", "end_turn", "set_hand"}


def test_every_event_renders_in_english_with_all_its_parameters():
    for happened in play_everything().events:
        assert "text" not in happened  # data, not words
        assert_complete(happened)


def test_every_refusal_and_sheet_text_is_a_said_that_renders():
    for said in said_refusals() + sheet_saids():
        assert isinstance(said, dict) and "said" in said, said
        assert_complete(said)


def test_the_english_lines_read_as_before():
    lines = [render(e) for e in play_everything().events if e["kind"] != "set_hand"]
    assert lines[:6] == ["ANN plays HELM (equipped)", "ANN plays HAT (carried)", "ANN plays ELF",
                         "ANN unequips HELM", "ANN equips HAT", "ANN: level 1 to 3, POTION"]
    assert lines[6] == ("ANN is cursed: HEX; level 3 to 2; now female; it stays in front of them; "
                        "they discard one of: HELM, HAT (the victim picks)")
    assert lines[8] == "CID is cursed: DRAIN; nothing to affect, so it does nothing (CID is already level 1)"
    assert lines[19] == "ANN sells GEM for 1200 gold: level 2 to 3; 200 gold lost: no change is given"
    assert lines[22] == "ANN sells RING and cards from the hand for 1000 gold: level 4 to 5"
    assert lines[23] == "ANN gives HAT to BOB"
    assert lines[24] == ("BOB dies: loses HAT and the hand; looting order ANN, CID; "
                         "draws 2 from each deck on their next turn")
    assert lines[25] == "ANN takes HAT from the body of BOB"
    assert lines[26] == "CID takes a card from the hand of BOB; 1 card of the hand discarded"
    assert lines[28] == ("ANN dies: loses nothing in play and the hand; looting order nobody; "
                         "draws 2 from each deck on their next turn")
    assert lines[-5] == "Looting the body of BOB ends; discarded: FLASK"
    assert lines[-4:] == ["ANN draws a card face down", "ANN draws a door card face down",
                          "ANN draws a treasure face down", "ANN draws cards face down: 3"]
    assert render(sheet_saids()[-3]) == "Charity: 3 cards to DEE; 2 cards to CID; 2 cards to BOB"


# ---------------------------------------------------------------- (b) nothing bypasses translation


def test_every_line_of_the_sheet_goes_through_translation():
    for happened in play_everything().events:
        assert_translated(happened)


def test_every_refusal_and_explanation_goes_through_translation():
    for said in said_refusals() + sheet_saids():
        assert_translated(said)


# ---------------------------------------------------------------- (c) a broken translation


def test_a_translation_naming_a_missing_parameter_falls_back_to_english():
    for value in play_everything().events + said_refusals() + sheet_saids():
        assert render(value, dropping, dropping_plural) == render(value)
