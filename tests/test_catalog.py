"""The card catalog: every set file validates, ids are unique, errors are clear, the
rulebooks' worked examples find the numbers they need, inline/house cards validate, and house
cards survive an export/import round trip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.catalog import (
    Catalog, CatalogError, DEFAULT_DIR, export_cards, import_cards, load_catalog, resolve_card,
    validate_card,
)
from companion.engine.card_schema import KINDS, SETS, slugify
from companion.engine.errors import BadAction

SET_FILES = ["classic", "oz", "spell-skool", "russia", "tails"]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def card(catalog: Catalog, card_id: str) -> dict:
    c = catalog.get(card_id)
    assert c is not None, f"{card_id} is missing"
    return c


def effects(c: dict, stat: str = "strength") -> list[dict]:
    return [e for e in c["effects"] if e["stat"] == stat]


# --- files ------------------------------------------------------------------------------------

@pytest.mark.parametrize("set_id", SET_FILES)
def test_every_set_file_validates(set_id, tmp_path):
    src = DEFAULT_DIR / f"{set_id}.json"
    (tmp_path / src.name).write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    cat = load_catalog(tmp_path)
    assert cat.sets == [set_id]
    assert len(cat) > 0
    raw = json.loads(src.read_text(encoding="utf-8"))
    assert raw["set"] == set_id
    assert len(cat) == len(raw["cards"])


def test_catalog_has_all_sets_and_unique_ids(catalog):
    assert catalog.sets == SET_FILES
    ids = [c["id"] for c in catalog.cards]
    assert len(ids) == len(set(ids))
    for c in catalog.cards:
        assert c["id"] == f"{c['set']}/{c['id'].split('/', 1)[1]}"
        assert c["id"].split("/", 1)[1] == slugify(c["name"]), c["id"]
        assert c["kind"] in KINDS
        assert c["summary"].strip()
        assert isinstance(c["effects"], list)


def test_default_catalog_is_cached(catalog):
    assert load_catalog() is catalog


def test_classic_is_the_whole_base_set(catalog):
    classic = [c for c in catalog.cards if c["set"] == "classic"]
    assert sum(c.get("copies", 1) for c in classic) == 168
    kinds = {k: sum(1 for c in classic if c["kind"] == k) for k in KINDS}
    assert kinds["monster"] == 37
    assert kinds["race"] == 3 and kinds["class"] == 4
    assert kinds["half-breed"] == 1 and kinds["super-munchkin"] == 1
    assert kinds["go-up-a-level"] == 9
    assert kinds["item"] == 39  # 38 equipment + Hireling
    assert {"classic/ancient", "classic/baby", "classic/enraged", "classic/humongous",
            "classic/intelligent", "classic/mate"} <= {c["id"] for c in classic if c["kind"] == "enhancer"}
    for c in classic:
        assert c["sources"], c["id"]


def test_big_monsters_give_two_levels(catalog):
    for cid in ("classic/plutonium-dragon", "classic/bullrog", "classic/squidzilla",
                "classic/hippogriff", "classic/king-tut", "classic/wight-brothers"):
        c = card(catalog, cid)
        assert c["levels"] == 2, cid
        assert c["level"] >= 16
    assert card(catalog, "classic/drooling-slime")["levels"] == 1


def test_classic_monster_facts(catalog):
    slime = card(catalog, "classic/drooling-slime")
    assert (slime["level"], slime["treasures"]) == (1, 1)
    assert effects(slime) == [{"stat": "strength", "value": 4, "if": {"race": "elf"},
                               "per": None, "drawback": False}]
    dragon = card(catalog, "classic/plutonium-dragon")
    assert (dragon["level"], dragon["treasures"]) == (20, 5)
    assert dragon["bad_stuff"]["death"] is True
    assert "dragon" in dragon["tags"]
    for cid in ("classic/king-tut", "classic/mr-bones", "classic/undead-horse", "classic/wight-brothers"):
        assert "undead" in card(catalog, cid)["tags"], cid
    assert card(catalog, "classic/harpies")["effects"][0]["if"] == {"class": "wizard"}
    assert [e["value"] for e in effects(card(catalog, "classic/snails-on-speed"), "run_away")] == [-2]
    assert [e["value"] for e in effects(card(catalog, "classic/lame-goblin"), "run_away")] == [1]
    assert effects(card(catalog, "classic/ghoulfiends"), "level_only")
    assert card(catalog, "classic/gazebo")["bad_stuff"]["levels"] == 3
    bones = card(catalog, "classic/mr-bones")
    assert bones["bad_stuff"]["levels"] == 2 and "hawkinscm" in bones["disagreement"]


def test_classic_race_and_class_numbers(catalog):
    elf = card(catalog, "classic/elf")
    assert {(e["stat"], e["value"]) for e in elf["effects"]} == {("run_away", 1), ("helper_levels", 1)}
    dwarf = card(catalog, "classic/dwarf")
    assert {(e["stat"], e["value"]) for e in dwarf["effects"]} == {("hand_limit", 6), ("big_items", 99)}
    halfling = card(catalog, "classic/halfling")
    (run,) = effects(halfling, "run_away")
    assert run["value"] < 0 and run["drawback"] is True
    warrior = card(catalog, "classic/warrior")
    assert effects(warrior, "wins_ties")
    assert card(catalog, "classic/half-breed")["kind"] == "half-breed"
    assert card(catalog, "classic/super-munchkin")["kind"] == "super-munchkin"


def test_classic_items_and_curses(catalog):
    bow = card(catalog, "classic/bow-with-ribbons")
    assert (bow["bonus"], bow["slot"], bow["gold"], bow["big"]) == (4, "2-hands", 800, False)
    assert bow["requires"] == {"race": "elf"}
    assert card(catalog, "classic/mithril-armor")["requires"] == {"not_class": "wizard"}
    assert card(catalog, "classic/mithril-armor")["big"] is True
    assert card(catalog, "classic/broad-sword")["requires"] == {"sex": "female"}
    assert card(catalog, "classic/huge-rock")["gold"] is None  # No Value
    boots = card(catalog, "classic/boots-of-running-really-fast")
    assert [e["value"] for e in effects(boots, "run_away")] == [2]
    assert card(catalog, "classic/magic-missile")["bonus"] == 5
    assert card(catalog, "classic/ancient")["bonus"] == 10
    assert card(catalog, "classic/ancient")["treasures"] == 2
    assert card(catalog, "classic/baby")["treasures"] == -1
    assert card(catalog, "classic/mate")["mate"] is True
    sex = card(catalog, "classic/change-sex")
    assert sex["change_sex"] is True and sex["duration"] == "next_fight" and sex["bonus"] == -5
    assert card(catalog, "classic/duck-of-doom")["lose_levels"] == 2
    assert card(catalog, "classic/lose-the-headgear-you-are-wearing")["lose_slot"] == "headgear"
    assert card(catalog, "classic/lose-1-big-item")["lose_slot"] == "big"
    assert card(catalog, "classic/chicken-on-your-head")["duration"] == "lasting"
    assert card(catalog, "classic/boil-an-anthill")["levels"] == 1


# --- the rulebooks' worked examples -----------------------------------------------------------

def test_oz_example_cards(catalog):
    trees = card(catalog, "oz/fighting-trees")
    assert (trees["level"], trees["treasures"]) == (10, 3)
    assert effects(trees) == [{"stat": "strength", "value": 2, "if": {}, "per": "empty_hand",
                               "drawback": False}]
    star = card(catalog, "oz/munchkin-morningstar")
    assert (star["bonus"], star["slot"]) == (3, "1-hand")
    assert card(catalog, "oz/yellow-brick")["kind"] == "one-shot"
    assert card(catalog, "oz/yellow-brick")["bonus"] == 5
    magical = card(catalog, "oz/magical")
    assert (magical["kind"], magical["bonus"], magical["treasures"]) == ("enhancer", 5, 1)
    wiz = card(catalog, "oz/wizard-of-oz")
    assert (wiz["kind"], wiz["bonus"]) == ("ally", 3)
    dox = card(catalog, "oz/king-dox")
    assert effects(dox) == [{"stat": "strength", "value": 4, "if": {"class": "professor"},
                             "per": None, "drawback": False}]
    assert "level" not in dox and "level" in dox["unknown"]
    # Enrique: level 5 + Morningstar 3 = 8 against 10 + 2 (one empty hand) = 12
    assert 5 + star["bonus"] == 8
    assert trees["level"] + 1 * 2 == 12
    # + Yellow Brick 13; Magical 17; Wizard of Oz 16; charmed: 3 + 1 treasures
    assert 8 + 5 == 13 and 12 + magical["bonus"] == 17 and 13 + wiz["bonus"] == 16
    assert trees["treasures"] + magical["treasures"] == 4


def test_spell_skool_example_cards(catalog):
    lib = card(catalog, "spell-skool/ex-librarian")
    assert lib["level"] == 10 and lib["kind"] == "monster"
    hat = card(catalog, "spell-skool/extra-pointy-hat")
    assert (hat["bonus"], hat["slot"]) == (3, "headgear")
    beer = card(catalog, "spell-skool/bug-beer")
    assert (beer["kind"], beer["bonus"]) == ("one-shot", 4)
    assert 4 + hat["bonus"] + beer["bonus"] == 11 > lib["level"]
    mouse = card(catalog, "spell-skool/computer-mouse")
    assert effects(mouse)[0]["if"] == {"class": "sports-club"} and effects(mouse)[0]["value"] == 4


def test_russia_example_cards(catalog):
    bear = card(catalog, "russia/smashing-bear")
    assert (bear["level"], bear["treasures"]) == (8, 2)
    assert effects(bear) == [{"stat": "strength", "value": -3, "if": {"class": "cossack"},
                              "per": None, "drawback": False}]
    pin = card(catalog, "russia/rofling-pin")
    assert pin["bonus"] == 3
    borsch = card(catalog, "russia/instant-borsch")
    assert (borsch["kind"], borsch["bonus"]) == ("one-shot", 4)
    per = card(catalog, "russia/survived-the-perestroyka")
    assert (per["kind"], per["bonus"], per["treasures"]) == ("enhancer", 10, 2)
    # Natasha: 2 + 3 = 5 vs 8 - 3 = 5; Borsch 9; Perestroyka 15; 2 + 2 treasures
    assert 2 + pin["bonus"] == bear["level"] - 3 == 5
    assert 5 + borsch["bonus"] == 9 and 5 + per["bonus"] == 15
    assert bear["treasures"] + per["treasures"] == 4


def test_tails_example_cards(catalog):
    snake = card(catalog, "tails/corral-snake")
    assert (snake["level"], snake["treasures"]) == (8, 2)
    assert effects(snake) == [{"stat": "strength", "value": 3, "if": {"race": "pony"},
                               "per": None, "drawback": False}]
    shoes = card(catalog, "tails/saddle-shoes")
    assert (shoes["bonus"], shoes["slot"]) == (3, "footgear")
    plush = card(catalog, "tails/tactical-plushie")
    assert (plush["kind"], plush["bonus"]) == ("one-shot", 5)
    rabid = card(catalog, "tails/rabid")
    assert (rabid["kind"], rabid["bonus"], rabid["treasures"]) == ("enhancer", 10, 2)
    dog = card(catalog, "tails/dog")
    assert dog["effects"] == [{"stat": "strength", "value": 4, "if": {"role": "helping"},
                               "per": None, "drawback": False}]
    pony = card(catalog, "tails/pony")
    assert pony["effects"] == [{"stat": "strength", "value": 3, "if": {"role": "helped"},
                                "per": None, "drawback": False}]
    chi = card(catalog, "tails/chihuahua")
    assert effects(chi)[0]["if"] == {"race": "mouse"} and effects(chi)[0]["value"] == 4
    # Chuck: 4 + 3 = 7 vs 8 + 3 = 11; Plushie 12; Rabid 21; with Mel (3 + 4) and +3: 22
    assert 4 + shoes["bonus"] == 7 and snake["level"] + 3 == 11
    assert 7 + plush["bonus"] == 12 and 11 + rabid["bonus"] == 21
    assert 12 + 3 + 4 + 3 == 22
    assert snake["treasures"] + rabid["treasures"] == 4
    assert card(catalog, "tails/mate")["mate"] is True


@pytest.mark.parametrize("set_id,races,classes", [
    ("classic", {"elf", "dwarf", "halfling"}, {"warrior", "wizard", "thief", "cleric"}),
    ("oz", set(), {"professor", "wizard", "royalty", "soldier"}),
    ("spell-skool", set(), {"chess-club", "forbidden-magic-club", "potions-club", "sports-club"}),
    ("russia", set(), {"cossack", "oligarch", "athlete", "hacker"}),
    ("tails", {"human", "dog", "fox", "mouse", "pony"}, {"warrior", "wizard", "thief", "cleric"}),
])
def test_race_and_class_cards_match_the_editions(catalog, set_id, races, classes):
    from companion.engine import editions

    ed = editions.get(set_id)
    cards = [c for c in catalog.cards if c["set"] == set_id]
    got_races = {c.get("slug") or slugify(c["name"]) for c in cards if c["kind"] == "race"}
    got_classes = {c.get("slug") or slugify(c["name"]) for c in cards if c["kind"] == "class"}
    assert got_races == races
    assert got_classes == classes
    assert races <= set(ed.races) | {"human"} and classes == set(ed.classes)
    if ed.half_breed:
        assert any(c["kind"] == "half-breed" for c in cards)


def test_unknown_facts_are_not_invented(catalog):
    for c in catalog.cards:
        for key in c.get("unknown", ()):
            assert key not in c, (c["id"], key)


# --- clear errors for malformed files ----------------------------------------------------------

def write_set(tmp_path: Path, cards: list, set_id: str = "classic", name: str = "classic.json") -> Path:
    (tmp_path / name).write_text(json.dumps({"set": set_id, "name": "Test", "cards": cards}))
    return tmp_path


SLIME = {"id": "classic/drooling-slime", "name": "Drooling Slime", "kind": "monster",
         "summary": "A slime.", "level": 1, "treasures": 1}


def test_malformed_field_names_file_card_and_field(tmp_path):
    write_set(tmp_path, [dict(SLIME, level="one")])
    with pytest.raises(CatalogError) as exc:
        load_catalog(tmp_path)
    msg = str(exc.value)
    assert msg.startswith(f"{tmp_path.name}/classic.json: card 'classic/drooling-slime': field 'level':")
    assert exc.value.field == "level" and exc.value.card == "classic/drooling-slime"


def test_unknown_key_is_an_error(tmp_path):
    write_set(tmp_path, [dict(SLIME, treasure=2)])
    with pytest.raises(CatalogError, match=r"card 'classic/drooling-slime': field 'treasure': unknown key"):
        load_catalog(tmp_path)


def test_key_of_another_kind_is_an_error(tmp_path):
    write_set(tmp_path, [dict(SLIME, slot="headgear")])
    with pytest.raises(CatalogError, match=r"field 'slot'"):
        load_catalog(tmp_path)


def test_bad_kind_and_missing_name(tmp_path):
    write_set(tmp_path, [dict(SLIME, kind="monstr")])
    with pytest.raises(CatalogError, match=r"field 'kind': 'monstr' is not a kind"):
        load_catalog(tmp_path)
    bad = {k: v for k, v in SLIME.items() if k not in ("name", "id")}
    write_set(tmp_path, [bad])
    with pytest.raises(CatalogError, match=r"card '#1': field 'name': required"):
        load_catalog(tmp_path)


def test_bad_effect_is_named(tmp_path):
    write_set(tmp_path, [dict(SLIME, effects=[{"stat": "strenght", "value": 4}])])
    with pytest.raises(CatalogError, match=r"field 'effects\.0\.stat'"):
        load_catalog(tmp_path)
    write_set(tmp_path, [dict(SLIME, effects=[{"stat": "strength", "value": 4, "if": {"race": "elf", "level": 3}}])])
    with pytest.raises(CatalogError, match=r"field 'effects\.0\.if\.level': unknown key"):
        load_catalog(tmp_path)
    write_set(tmp_path, [dict(SLIME, effects=[{"stat": "strength"}])])
    with pytest.raises(CatalogError, match=r"needs a 'value'"):
        load_catalog(tmp_path)


def test_invalid_json_and_file_fields(tmp_path):
    (tmp_path / "oz.json").write_text('{"set": "oz", "cards": [}')
    with pytest.raises(CatalogError, match=r"oz\.json: not valid JSON \(line 1"):
        load_catalog(tmp_path)
    (tmp_path / "oz.json").write_text(json.dumps({"set": "oz", "name": "Oz", "cards": [], "extra": 1}))
    with pytest.raises(CatalogError, match=r"oz\.json: field 'extra': unknown key"):
        load_catalog(tmp_path)


def test_wrong_set_and_duplicate_ids(tmp_path):
    write_set(tmp_path, [dict(SLIME, id="oz/drooling-slime")])
    with pytest.raises(CatalogError, match=r"field 'id': must start with 'classic/'"):
        load_catalog(tmp_path)
    write_set(tmp_path, [SLIME, SLIME])
    with pytest.raises(CatalogError, match=r"'classic/drooling-slime': field 'id': already used"):
        load_catalog(tmp_path)


def test_ids_are_made_from_names(tmp_path):
    write_set(tmp_path, [{k: v for k, v in SLIME.items() if k != "id"}])
    cat = load_catalog(tmp_path)
    assert cat.get("classic/drooling-slime")["name"] == "Drooling Slime"


# --- inline and house cards ---------------------------------------------------------------------

def test_validate_card_fills_defaults_and_house_id():
    c = validate_card({"name": "Giant Space Hamster", "kind": "monster", "summary": "Big.",
                       "level": 7})
    assert c["id"] == "house/giant-space-hamster" and c["set"] == "house"
    assert (c["levels"], c["treasures"], c["effects"], c["tags"]) == (1, 1, [], [])
    item = validate_card({"set": "house", "name": "Laser Spoon", "kind": "item",
                          "summary": "A spoon.", "bonus": 2, "slot": "1-hand"})
    assert item["big"] is False and item["effects"] == []
    assert "gold" not in item
    nv = validate_card({"name": "Junk", "kind": "item", "summary": "Worthless.", "gold": None,
                        "slot": "other"})
    assert nv["gold"] is None


def test_validate_card_rejects_bad_inline_cards():
    with pytest.raises(CatalogError, match=r"inline card: card 'Blob': field 'level': "):
        validate_card({"name": "Blob", "kind": "monster", "summary": "x", "level": -3})
    with pytest.raises(CatalogError, match=r"field 'kind': missing"):
        validate_card({"name": "Blob", "summary": "x"})
    with pytest.raises(CatalogError, match=r"house card: card 'Blob': field 'levle': unknown key"):
        validate_card({"name": "Blob", "kind": "monster", "summary": "x", "levle": 3},
                      where="house card")
    with pytest.raises(CatalogError, match=r"field 'slot'"):
        validate_card({"name": "Hat", "kind": "item", "summary": "x", "slot": "hat"})
    with pytest.raises(CatalogError, match=r"field 'bonus'"):
        validate_card({"name": "Hat", "kind": "item", "summary": "x", "bonus": "3"})
    with pytest.raises(CatalogError, match=r"field 'summary'"):
        validate_card({"name": "Hat", "kind": "item", "summary": ""})
    with pytest.raises(CatalogError, match=r"a card must be a JSON object"):
        validate_card(["not", "a", "card"])  # type: ignore[arg-type]


def test_validate_card_keeps_inline_card_of_a_real_set_without_id():
    c = validate_card({"set": "tails", "name": "Mystery Pup", "kind": "monster", "summary": "x",
                       "level": 2})
    assert "id" not in c and c["set"] == "tails"


def test_resolve_card_catalog_house_and_inline(catalog):
    c = resolve_card("classic/drooling-slime")
    assert c == card(catalog, "classic/drooling-slime")
    c["level"] = 99
    assert resolve_card("classic/drooling-slime")["level"] == 1  # a copy
    house = validate_card({"name": "Cheese Golem", "kind": "monster", "summary": "x", "level": 3})
    got = resolve_card("house/cheese-golem", house_cards=[house])
    assert got == house and got is not house
    inline = resolve_card({"name": "Blob", "kind": "monster", "summary": "x", "level": 2})
    assert inline["level"] == 2 and inline["treasures"] == 1


def test_resolve_card_errors_are_bad_actions():
    with pytest.raises(BadAction, match=r"no card 'classic/nope' in the catalog"):
        resolve_card("classic/nope")
    with pytest.raises(BadAction, match=r"no house card 'house/gone'"):
        resolve_card("house/gone")
    with pytest.raises(BadAction, match=r"not valid: inline card: card 'Blob': field 'level'"):
        resolve_card({"name": "Blob", "kind": "monster", "summary": "x", "level": "high"})
    with pytest.raises(BadAction):
        resolve_card(42)


def test_export_import_round_trip():
    cards = [
        validate_card({"name": "Giant Space Hamster", "kind": "monster", "summary": "Big.",
                       "level": 7, "treasures": 2, "tags": ["undead"],
                       "bad_stuff": {"levels": 2, "summary": "Nibbles you."},
                       "effects": [{"stat": "strength", "value": 3, "if": {"class": "wizard"}}]}),
        validate_card({"name": "Laser Spoon", "kind": "item", "summary": "A spoon.", "bonus": 2,
                       "slot": "1-hand", "gold": 300, "requires": {"race": "elf"}}),
        validate_card({"name": "Nap Time", "kind": "curse", "summary": "Sleepy.",
                       "duration": "next_fight", "bonus": -2}),
    ]
    text = export_cards(cards)
    data = json.loads(text)
    assert data["format"] == "munchkin-companion-cards" and len(data["cards"]) == 3
    assert import_cards(text) == cards
    assert import_cards(json.dumps(cards)) == cards  # a bare list works too


def test_import_rejects_bad_files():
    with pytest.raises(CatalogError, match=r"imported file: not valid JSON"):
        import_cards("{nope")
    with pytest.raises(CatalogError, match=r"imported file: field 'cards'"):
        import_cards(json.dumps({"format": "munchkin-companion-cards", "cards": 3}))
    with pytest.raises(CatalogError, match=r"field 'format'"):
        import_cards(json.dumps({"format": "something-else", "cards": []}))
    bad = [{"name": "Blob", "kind": "monster", "summary": "x", "level": "big"}]
    with pytest.raises(CatalogError, match=r"imported file: card 'Blob': field 'level'"):
        import_cards(json.dumps(bad))
    twice = [{"name": "Blob", "kind": "other", "summary": "x"}] * 2
    with pytest.raises(CatalogError, match=r"appears twice"):
        import_cards(json.dumps(twice))


def test_every_catalog_card_revalidates(catalog):
    """A normalized card (as stored in a game) validates again to itself."""
    for c in catalog.cards:
        assert validate_card(c, where="stored card") == c, c["id"]


def test_sets_constant_covers_files():
    assert set(SET_FILES) | {"house"} == set(SETS)
