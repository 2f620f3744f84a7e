"""Properties every fight must keep, whatever cards are on the table."""

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import combat
from companion.engine.rules import TableRules

EDITIONS = st.sampled_from(["classic", "oz", "spell-skool", "russia", "tails"])
RACES = ["elf", "dwarf", "pony", "mouse"]
CLASSES = ["warrior", "wizard", "cossack"]

conditions = st.one_of(st.none(), st.builds(lambda r: {"race": r}, st.sampled_from(RACES)),
                       st.builds(lambda c: {"class": c}, st.sampled_from(CLASSES)),
                       st.builds(lambda s: {"sex": s}, st.sampled_from(["male", "female"])))
monster_effects = st.lists(st.fixed_dictionaries(
    {"stat": st.sampled_from(["strength", "run_away"]), "value": st.integers(-5, 10)},
    optional={"if": conditions, "per": st.just("empty_hand")}), max_size=2)
items = st.lists(st.fixed_dictionaries({
    "kind": st.just("item"), "name": st.sampled_from(["Sword", "Hat", "Pole", "Ring"]),
    "bonus": st.integers(0, 5),
    "slot": st.sampled_from(["headgear", "armor", "1-hand", "2-hands", "other"])}),
    max_size=3)


@st.composite
def players(draw, pid):
    cards = []
    for r in draw(st.lists(st.sampled_from(RACES), max_size=1, unique=True)):
        cards.append({"kind": "race", "name": r,
                      "effects": [{"stat": "run_away", "value": 1}] if r == "elf" else []})
    for c in draw(st.lists(st.sampled_from(CLASSES), max_size=2, unique=True)):
        cards.append({"kind": "class", "name": c,
                      "effects": [{"stat": "wins_ties", "value": True}] if c == "warrior" else []})
    if sum(1 for c in cards if c["kind"] == "class") > 1 or draw(st.booleans()):
        cards.append({"kind": "super-munchkin", "name": "Super Munchkin"})
    cards += draw(items)
    return {"id": pid, "name": f"P{pid}", "level": draw(st.integers(1, 9)),
            "sex": draw(st.sampled_from(["male", "female"])),
            "gear_adjust": draw(st.integers(-2, 5)), "dead": False,
            "cards": [{"iid": pid * 100 + i, "card": c, "equipped": True}
                      for i, c in enumerate(cards)]}


enhancers = st.lists(st.fixed_dictionaries({
    "kind": st.just("enhancer"), "name": st.sampled_from(["Ancient", "Baby", "Rabid", "Mate"]),
    "bonus": st.integers(-5, 10), "treasures": st.integers(-1, 2)},
    optional={"mate": st.booleans()}), max_size=3)
monsters = st.lists(st.fixed_dictionaries({
    "card": st.fixed_dictionaries({
        "kind": st.just("monster"), "name": st.sampled_from(["Slime", "Bear", "Snake"]),
        "level": st.integers(1, 20), "treasures": st.integers(1, 4),
        "effects": monster_effects}),
    "enhancers": enhancers, "gone": st.booleans()}), min_size=1, max_size=3)
one_shots = st.lists(st.fixed_dictionaries({
    "side": st.sampled_from(["players", "monsters"]),
    "card": st.fixed_dictionaries({"kind": st.just("one-shot"), "name": st.just("Potion"),
                                   "bonus": st.integers(-3, 6)})}), max_size=3)


@st.composite
def fights(draw):
    helper = draw(st.one_of(st.none(), players(2)))
    return dict(rules=TableRules.chosen(draw(EDITIONS)), fighter=draw(players(1)), helper=helper,
                monsters=draw(monsters), one_shots=draw(one_shots),
                helper_forced=draw(st.booleans()))


@settings(max_examples=200, deadline=None)
@given(fights(), st.integers(1, 10))
def test_adding_a_bonus_to_the_players_never_turns_a_win_into_a_loss(fight, bonus):
    before = combat.compute(**fight)
    potion = {"side": "players", "card": {"kind": "one-shot", "name": "Boost", "bonus": bonus}}
    after = combat.compute(**{**fight, "one_shots": fight["one_shots"] + [potion]})
    assert after["players_strength"] == before["players_strength"] + bonus
    if before["winning"]:
        assert after["winning"]


@settings(max_examples=200, deadline=None)
@given(fights(), st.randoms(use_true_random=False))
def test_monster_strength_never_depends_on_the_order_cards_were_played(fight, rnd):
    before = combat.compute(**fight)
    shuffled = []
    for m in fight["monsters"]:
        enh = list(m["enhancers"])
        rnd.shuffle(enh)
        shuffled.append({**m, "enhancers": enh})
    shots = list(fight["one_shots"])
    rnd.shuffle(shots)
    after = combat.compute(**{**fight, "monsters": shuffled, "one_shots": shots})
    assert sorted(m["strength"] for m in after["monsters"]) == \
        sorted(m["strength"] for m in before["monsters"])
    assert after["monsters_strength"] == before["monsters_strength"]
    assert after["rewards"] == before["rewards"]


@settings(max_examples=200, deadline=None)
@given(fights())
def test_needed_is_zero_exactly_when_the_players_are_winning(fight):
    view = combat.compute(**fight)
    assert (view["needed"] == 0) == view["winning"]
    assert view["needed"] >= 0


@settings(max_examples=200, deadline=None)
@given(fights())
def test_needed_is_exactly_what_turns_the_fight(fight):
    view = combat.compute(**fight)
    if view["winning"]:
        return

    def with_bonus(n):
        potion = {"side": "players", "card": {"kind": "one-shot", "name": "Boost", "bonus": n}}
        return combat.compute(**{**fight, "one_shots": fight["one_shots"] + [potion]})

    assert with_bonus(view["needed"])["winning"]
    assert not with_bonus(view["needed"] - 1)["winning"]


@settings(max_examples=200, deadline=None)
@given(fights())
def test_escape_chance_is_a_probability_and_the_roll_needed_a_die_face_or_seven(fight):
    for row in combat.compute(**fight)["escape"]:
        assert 0.0 <= row["chance"] <= 1.0
        assert 1 <= row["needs"] <= 7
        assert row["chance"] == round(max(0, 7 - row["needs"]) / 6, 3)
