"""What a player's cards add up to, and what the rules let them put in front of them."""

import pytest

from companion.engine import character as ch
from companion.engine import editions
from companion.engine.errors import RuleViolation
from companion.engine.words import render

CLASSIC, OZ, SKOOL, RUSSIA, TAILS = (editions.get(e) for e in
                                     ("classic", "oz", "spell-skool", "russia", "tails"))
ALL = (CLASSIC, OZ, SKOOL, RUSSIA, TAILS)
WITHOUT_RACES = (OZ, SKOOL, RUSSIA)


def player(*cards, level=1, sex="male", equipped=True, gear_adjust=0, name="Ann"):
    return {"id": 1, "name": name, "level": level, "sex": sex, "gear_adjust": gear_adjust,
            "dead": False,
            "cards": [{"iid": i + 1, "card": c, "equipped": equipped and c["kind"] == "item"}
                      for i, c in enumerate(cards)]}


def race(name, *effects, **extra):
    return {"kind": "race", "name": name, "effects": list(effects), **extra}


def klass(name, *effects):
    return {"kind": "class", "name": name, "effects": list(effects)}


def item(name, bonus=0, slot="other", **extra):
    return {"kind": "item", "name": name, "bonus": bonus, "slot": slot, "gold": 100, **extra}


HALF_BREED = {"kind": "half-breed", "name": "Half-Breed"}
SUPER = {"kind": "super-munchkin", "name": "Super Munchkin"}
ELF = race("Elf", {"stat": "run_away", "value": 1})
DWARF = race("Dwarf", {"stat": "hand_limit", "value": 6}, {"stat": "big_items", "value": 99})
HALFLING = race("Halfling", {"stat": "run_away", "value": -1, "drawback": True})
MOUSE = race("Mouse", {"stat": "strength", "value": -1, "drawback": True},
             {"stat": "run_away", "value": 1})
WARRIOR = klass("Warrior", {"stat": "wins_ties", "value": True})
WIZARD = klass("Wizard")
CLERIC = klass("Cleric")
THIEF = klass("Thief")


def rule_of(fn, *args):
    with pytest.raises(RuleViolation) as err:
        fn(*args)
    return err.value.rule


# ---------------------------------------------------------------- races and classes


@pytest.mark.parametrize("edition", [CLASSIC, TAILS], ids=lambda e: e.id)
def test_a_player_without_a_race_card_is_human_where_the_edition_has_races(edition):
    assert ch.races(player(), edition) == ["human"]


@pytest.mark.parametrize("edition", WITHOUT_RACES, ids=lambda e: e.id)
def test_a_player_has_no_race_at_all_in_editions_without_races(edition):
    assert ch.races(player(), edition) == []


def test_a_race_card_replaces_being_human_and_is_named_by_its_slug():
    assert ch.races(player(ELF), CLASSIC) == ["elf"]
    assert ch.races(player(race("Whatever", slug="pony")), TAILS) == ["pony"]
    assert ch.classes(player(klass("Chess Club")), SKOOL) == ["chess-club"]


def test_without_a_class_card_a_player_has_no_class():
    assert ch.classes(player(ELF), CLASSIC) == []


# ---------------------------------------------------------------- drawbacks and Half-Breed


def test_a_lone_race_with_half_breed_sheds_its_drawbacks_in_tails():
    effects = ch.active_effects(player(MOUSE, HALF_BREED), TAILS)
    assert [(e["stat"], e["value"]) for e in effects] == [("run_away", 1)]


def test_two_races_with_half_breed_keep_every_drawback_in_tails():
    effects = ch.active_effects(player(MOUSE, race("Dog"), HALF_BREED), TAILS)
    assert ("strength", -1) in [(e["stat"], e["value"]) for e in effects]


def test_a_race_without_half_breed_keeps_its_drawbacks():
    assert ch.sheet(player(HALFLING), CLASSIC)["run_away"] == -1


def test_classic_half_breed_with_one_race_is_half_human_and_sheds_the_drawbacks():
    # the classic Half-Breed card (ruling half-breed-single-race-classic); half human: its rulebook
    assert ch.sheet(player(HALFLING, HALF_BREED), CLASSIC)["run_away"] == 0
    assert ch.races(player(HALFLING, HALF_BREED), CLASSIC) == ["halfling", "human"]


@pytest.mark.parametrize("edition", [OZ, RUSSIA, TAILS], ids=lambda e: e.id)
def test_a_lone_class_with_super_munchkin_sheds_its_drawbacks(edition):
    shy = klass("Cossack" if edition is RUSSIA else "Wizard",
                {"stat": "run_away", "value": -2, "drawback": True})
    assert ch.sheet(player(shy, SUPER), edition)["run_away"] == 0
    assert ch.sheet(player(shy), edition)["run_away"] == -2


# ---------------------------------------------------------------- items


def test_a_class_only_item_is_usable_only_by_that_class():
    staff = item("Staff", 4, "2-hands", requires={"class": "wizard"})
    assert ch.usable(staff, player(WIZARD), CLASSIC) is None
    assert render(ch.usable(staff, player(WARRIOR), CLASSIC)) == "only a Wizard can use it"


def test_race_sex_and_forbidden_race_restrictions():
    assert render(ch.usable(item("Bow", requires={"race": "elf"}), player(), CLASSIC)) == \
        "only an Elf can use it"
    assert render(ch.usable(item("Gown", requires={"sex": "female"}), player(), CLASSIC)) == \
        "only a female character can use it"
    assert ch.usable(item("Gown", requires={"sex": "female"}), player(sex="female"),
                     CLASSIC) is None
    assert render(ch.usable(item("Stilts", requires={"not_race": "dwarf"}), player(DWARF),
                            CLASSIC)) == "a Dwarf cannot use it"


def test_human_only_items_work_for_a_player_without_a_race_card():
    assert ch.usable(item("Suit", requires={"race": "human"}), player(), TAILS) is None


def test_a_lone_class_with_super_munchkin_may_use_items_forbidden_to_that_class_in_tails():
    mace = item("Mace", 3, "1-hand", requires={"not_class": "wizard"})
    assert ch.usable(mace, player(WIZARD, SUPER), TAILS) is None
    assert render(ch.usable(mace, player(WIZARD), TAILS)) == "a Wizard cannot use it"
    assert render(ch.usable(mace, player(WIZARD, CLERIC, SUPER), TAILS)) == "a Wizard cannot use it"


def test_classic_super_munchkin_does_not_lift_an_item_ban():
    mace = item("Mace", 3, "1-hand", requires={"not_class": "wizard"})
    assert render(ch.usable(mace, player(WIZARD, SUPER), CLASSIC)) == "a Wizard cannot use it"


def test_an_item_the_player_cannot_use_is_carried_equipped_but_counts_for_nothing():
    staff = item("Staff", 4, "2-hands", requires={"class": "wizard"})
    s = ch.sheet(player(staff, level=3), CLASSIC)
    (row,) = s["items"]
    assert row["equipped"] and not row["counts"]
    assert render(row["why_not"]) == "only a Wizard can use it"
    assert s["gear_bonus"] == 0 and s["combat_strength"] == 3
    assert s["empty_hands"] == 2


def test_a_carried_item_gives_nothing_and_says_so():
    s = ch.sheet(player(item("Sword", 3, "1-hand"), equipped=False), CLASSIC)
    assert render(s["items"][0]["why_not"]) == "carried, not equipped"
    assert s["gear_bonus"] == 0


def test_gear_bonus_is_equipped_usable_items_plus_item_effects_plus_the_manual_adjustment():
    boots = item("Boots", 2, "footgear", effects=[{"stat": "strength", "value": 1}])
    sword = item("Sword", 3, "1-hand")
    s = ch.sheet(player(boots, sword, level=4, gear_adjust=2), CLASSIC)
    assert s["gear_bonus"] == 2 + 1 + 3 + 2
    assert s["combat_strength"] == 4 + 8
    assert s["empty_hands"] == 1


def test_combat_strength_counts_allies_and_staying_curses_but_not_conditional_bonuses():
    ally = {"kind": "ally", "name": "Tin Friend", "bonus": 2}
    curse = {"kind": "curse", "name": "Chicken", "bonus": -1, "duration": "lasting"}
    spent = {"kind": "curse", "name": "Lose a Level", "duration": "once", "bonus": -5}
    dog = race("Dog", {"stat": "strength", "value": 4, "if": {"role": "helping"}})
    s = ch.sheet(player(dog, ally, curse, spent, level=5), TAILS)
    assert s["combat_strength"] == 5 + 2 - 1
    assert [c["name"] for c in s["curses"]] == ["Chicken", "Lose a Level"]
    assert s["allies"] == [{"iid": 2, "name": "Tin Friend"}]


def test_a_classic_dwarf_holds_six_cards_and_any_number_of_big_items():
    s = ch.sheet(player(DWARF), CLASSIC)
    assert s["hand_limit"] == 6 and s["big_allowed"] == 99
    plain = ch.sheet(player(), CLASSIC)
    assert plain["hand_limit"] == 5 and plain["big_allowed"] == 1


def test_elves_run_away_better_and_warriors_win_ties():
    assert ch.sheet(player(ELF), CLASSIC)["run_away"] == 1
    assert ch.sheet(player(WARRIOR), CLASSIC)["wins_ties"]
    assert not ch.sheet(player(WIZARD), CLASSIC)["wins_ties"]


def test_two_handed_item_fills_both_hands():
    assert ch.sheet(player(item("Pole", 3, "2-hands")), CLASSIC)["empty_hands"] == 0


# ---------------------------------------------------------------- check_play


@pytest.mark.parametrize("edition", WITHOUT_RACES, ids=lambda e: e.id)
def test_race_cards_are_refused_where_the_edition_has_no_races(edition):
    assert rule_of(ch.check_play, player(), ELF, edition) == "no-races-in-edition"


@pytest.mark.parametrize("edition", [CLASSIC, TAILS], ids=lambda e: e.id)
def test_a_second_race_needs_half_breed_and_a_third_is_never_allowed(edition):
    first, second, third = race("Elf"), race("Dwarf"), race("Pony")
    assert rule_of(ch.check_play, player(first), second, edition) == "race-limit"
    ch.check_play(player(first, HALF_BREED), second, edition)
    assert rule_of(ch.check_play, player(first, second, HALF_BREED), third, edition) == \
        "race-limit"


@pytest.mark.parametrize("edition", ALL, ids=lambda e: e.id)
def test_a_second_class_needs_super_munchkin_where_there_is_one(edition):
    a, b, c = klass("Alpha"), klass("Beta"), klass("Gamma")
    assert rule_of(ch.check_play, player(a), b, edition) == "class-limit"
    if edition.super_munchkin:
        ch.check_play(player(a, SUPER), b, edition)
        assert rule_of(ch.check_play, player(a, b, SUPER), c, edition) == "class-limit"


def test_two_copies_of_the_same_race_class_half_breed_or_super_munchkin_are_refused():
    assert rule_of(ch.check_play, player(ELF, HALF_BREED), race("Elf"), CLASSIC) == \
        "no-duplicate-card"
    assert rule_of(ch.check_play, player(WIZARD, SUPER), klass("Wizard"), CLASSIC) == \
        "no-duplicate-card"
    assert rule_of(ch.check_play, player(ELF, HALF_BREED), HALF_BREED, CLASSIC) == \
        "no-duplicate-card"
    assert rule_of(ch.check_play, player(WIZARD, SUPER), SUPER, TAILS) == "no-duplicate-card"


def test_half_breed_needs_a_race_card_and_super_munchkin_a_class_card():
    assert rule_of(ch.check_play, player(), HALF_BREED, TAILS) == "half-breed-needs-race"
    assert rule_of(ch.check_play, player(), SUPER, OZ) == "super-munchkin-needs-class"
    ch.check_play(player(race("Fox")), HALF_BREED, TAILS)
    ch.check_play(player(klass("Soldier")), SUPER, OZ)


@pytest.mark.parametrize("edition", WITHOUT_RACES, ids=lambda e: e.id)
def test_half_breed_only_exists_where_races_do(edition):
    assert rule_of(ch.check_play, player(), HALF_BREED, edition) == "no-half-breed-in-edition"


def test_spell_skool_has_no_super_munchkin():
    assert rule_of(ch.check_play, player(klass("Chess Club")), SUPER, SKOOL) == \
        "no-super-munchkin-in-edition"


def test_oz_allows_one_ally_at_a_time_and_other_editions_none():
    ally = {"kind": "ally", "name": "Toto", "bonus": 1}
    ch.check_play(player(), ally, OZ)
    assert rule_of(ch.check_play, player(ally), {**ally, "name": "Lion"}, OZ) == "ally-limit"
    for edition in (CLASSIC, SKOOL, RUSSIA, TAILS):
        assert rule_of(ch.check_play, player(), ally, edition) == "no-allies-in-edition"


def test_a_second_big_item_is_refused_unless_the_player_is_a_classic_dwarf():
    big = item("Ladder", 2, big=True)
    assert rule_of(ch.check_play, player(big), {**big, "name": "Cart"}, CLASSIC) == \
        "big-item-limit"
    ch.check_play(player(DWARF, big), {**big, "name": "Cart"}, CLASSIC)
    ch.check_play(player(item("Dagger", 1)), big, OZ)


def test_curses_and_small_items_are_always_playable():
    ch.check_play(player(), {"kind": "curse", "name": "Duck", "duration": "lasting"}, OZ)
    ch.check_play(player(item("A"), item("B")), item("C"), RUSSIA)


# ---------------------------------------------------------------- equipping


def test_one_headgear_one_armor_one_footgear():
    for slot in ("headgear", "armor", "footgear"):
        p = player(item("Old", 1, slot), item("New", 2, slot))
        p["cards"][1]["equipped"] = False
        assert rule_of(ch.check_equip, p, 2, True, TAILS) == "equip-slot-limit"


def test_two_hands_hold_two_one_hand_items_or_one_two_hands_item():
    p = player(item("Sword", 1, "1-hand"), item("Shield", 1, "1-hand"),
               item("Dagger", 1, "1-hand"))
    p["cards"][2]["equipped"] = False
    assert rule_of(ch.check_equip, p, 3, True, CLASSIC) == "equip-slot-limit"
    q = player(item("Pole", 3, "2-hands"), item("Dagger", 1, "1-hand"))
    q["cards"][1]["equipped"] = False
    assert rule_of(ch.check_equip, q, 2, True, CLASSIC) == "equip-slot-limit"
    ch.check_equip(q, 1, True, CLASSIC)


def test_unequipping_and_other_slot_items_are_never_refused():
    p = player(item("Hat", 1, "headgear"), item("Cap", 1, "headgear"))
    ch.check_equip(p, 2, False, CLASSIC)
    r = player(item("Ring", 1), item("Cloak", 1))
    ch.check_equip(r, 2, True, CLASSIC)


def test_check_equip_also_accepts_the_short_form_meaning_equip():
    p = player(item("Hat", 1, "headgear"), item("Cap", 1, "headgear"))
    p["cards"][1]["equipped"] = False
    assert rule_of(ch.check_equip, p, 2, CLASSIC) == "equip-slot-limit"


def test_equipping_an_item_the_player_cannot_use_is_a_warning_not_a_refusal():
    staff = item("Staff", 4, "2-hands", requires={"class": "wizard"})
    p = player(WARRIOR, staff, equipped=False)
    ch.check_equip(p, 2, True, CLASSIC)
    (warning,) = ch.warnings_for_equip(p, 2, True, CLASSIC)
    assert warning["rule"] == "item-user-restriction"
    assert "only a Wizard" in render(warning["detail"])
    assert ch.warnings_for_equip(player(WIZARD, staff), 2, True, CLASSIC) == []


# ---------------------------------------------------------------- discarding


def test_half_breed_goes_when_the_last_race_card_goes():
    p = player(HALF_BREED)
    assert ch.discard_cleanup(p, TAILS, removed=ELF) == [1]
    assert ch.discard_cleanup(player(ELF, HALF_BREED), CLASSIC, removed=race("Dwarf")) == []


def test_super_munchkin_stays_with_one_class_left_in_the_newer_rulebooks():
    assert ch.discard_cleanup(player(WIZARD, SUPER), TAILS, removed=CLERIC) == []
    assert ch.discard_cleanup(player(SUPER), OZ, removed=WIZARD) == [1]


def test_classic_super_munchkin_goes_with_either_class_card():
    assert ch.discard_cleanup(player(WIZARD, SUPER), CLASSIC, removed=CLERIC) == [2]
    assert ch.discard_cleanup(player(SUPER), CLASSIC) == [1]
