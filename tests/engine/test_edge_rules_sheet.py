"""Edge cases of the character sheet a real table hits: item curses, an ex-Dwarf's
Big items, the Halfling's double sale, No Value items, a classic Half-Breed's human half,
one-shots on the table, and what a dead player's sheet says. Each test names its rulebook
section."""

from __future__ import annotations

from functools import partial

from companion import engine
from companion.engine import BadAction, character, editions
from companion.engine.allowed import allowed, lists, options
from companion.engine.words import render

from . import driver

Game = partial(driver.Game, seed=3)


def item(name, bonus=1, slot="other", gold=300, **extra):
    return {"kind": "item", "name": name, "bonus": bonus, "slot": slot, "gold": gold, **extra}


def one_shot(name, bonus=2, gold=400):
    return {"kind": "one-shot", "name": name, "bonus": bonus, "gold": gold}


RAT = {"kind": "monster", "name": "Rat", "level": 3}


# --- item curses (classic, Curses) ------------------------------------------------------------

def test_a_headgear_curse_mid_fight_with_one_target_takes_it_at_once_and_the_fight_changes():
    # Classic, Curses: a curse acts on its victim at once, at any time, a fight included.
    g = Game()
    ann = g.ids["Ann"]
    g("Ann", type="play", player=ann, card=item("Helm", 3, "headgear"))
    g("Ann", type="fight", player=ann, monster=RAT)
    assert g.view["players_strength"] == 4
    line = g.line("Bob", type="play", player=ann, card="classic/lose-the-headgear-you-are-wearing")
    assert "Helm is discarded" in line
    assert "Helm" not in g.names("Ann")
    fight = g.view
    assert fight["players_strength"] == 1 and not fight["winning"]


def test_a_worn_item_curse_leaves_carried_ones_alone():
    # The headgear, armor and footgear curses take what the victim wears (classic, Curses;
    # the cards: "the headgear you are wearing"); a spare one carried is not worn.
    g = Game()
    ann = g.ids["Ann"]
    g("Ann", type="play", player=ann, card=item("Helm", 1, "headgear"))
    g("Ann", type="play", player=ann, card=item("Spare Hat", 1, "headgear"))
    assert g.row("Ann", "Spare Hat")["equipped"] is False
    g("Bob", type="play", player=ann, card="classic/lose-the-headgear-you-are-wearing")
    assert g.names("Ann") == ["Spare Hat"]
    line = g.line("Bob", type="play", player=ann, card="classic/lose-the-headgear-you-are-wearing")
    assert "does nothing" in line and g.names("Ann") == ["Spare Hat"]


def test_lose_a_small_item_never_offers_a_big_one():
    # Classic, Curses; the Lose 1 Small Item card: a Big item is not small.
    g = Game()
    ann = g.ids["Ann"]
    g("Ann", type="play", player=ann, card=item("Ladder", 2, big=True))
    line = g.line("Bob", type="play", player=ann, card="classic/lose-1-small-item")
    assert "does nothing" in line and g.names("Ann") == ["Ladder"]
    g("Ann", type="play", player=ann, card=item("Ring", 1))
    line = g.line("Bob", type="play", player=ann, card="classic/lose-1-small-item")
    assert "Ring is discarded" in line and g.names("Ann") == ["Ladder"]


def test_with_several_targets_the_victim_picks_before_selling_or_giving_any_of_them():
    # Classic, Curses: when a curse could take one of several items, the victim picks.
    g = Game()
    ann, bob = g.ids["Ann"], g.ids["Bob"]
    g("Ann", type="play", player=ann, card=item("Ring", 1, gold=1000))
    g("Ann", type="play", player=ann, card=item("Cloak", 2, gold=500))
    g("Ann", type="play", player=ann, card=item("Ladder", 2, big=True))
    line = g.line("Bob", type="play", player=ann, card="classic/lose-1-small-item")
    assert "they discard one of: Ring, Cloak (the victim picks)" in line
    pending = g.p("Ann")["pending_losses"]
    assert [c["name"] for c in pending[0]["candidates"]] == ["Ring", "Cloak"]
    assert "Ann discards one of Ring, Cloak" in render(pending[0]["text"])
    ring, cloak = g.iid("Ann", "Ring"), g.iid("Ann", "Cloak")
    assert g.refused("Ann", type="sell", player=ann, instances=[ring]).rule == "curse-pick-first"
    assert g.refused("Ann", type="give", player=ann, instance=cloak, to=bob).rule == "curse-pick-first"
    assert not g.may("Ann", "give", instance=cloak) and g.may("Ann", "give", instance=g.iid("Ann", "Ladder"))
    assert g.may("Ann", "discard", instance=cloak)
    line = g.line("Ann", type="discard", player=ann, instance=cloak)
    assert "the item Lose 1 Small Item takes" in line
    assert g.p("Ann")["pending_losses"] == []
    g("Ann", type="sell", player=ann, instances=[ring])  # settled: the Ring is free again
    assert g.p("Ann")["level"] == 2


def test_a_pick_still_owed_offers_only_what_is_left():
    # Classic, Curses: a second curse that takes one of the items leaves the victim the others.
    g = Game()
    ann = g.ids["Ann"]
    g("Ann", type="play", player=ann, card=item("Ring", 1))
    g("Ann", type="play", player=ann, card=item("Mail", 2, "armor"))
    g("Ann", type="play", player=ann, card=item("Boots", 1, "footgear"))
    g("Bob", type="play", player=ann, card="classic/lose-1-small-item")
    g("Bob", type="play", player=ann, card="classic/lose-the-armor-you-are-wearing")
    assert [c["name"] for c in g.p("Ann")["pending_losses"][0]["candidates"]] == ["Ring", "Boots"]
    g("Ann", type="discard", player=ann, instance=g.iid("Ann", "Boots"))
    assert g.p("Ann")["pending_losses"] == [] and g.names("Ann") == ["Ring"]
    # When other curses take every item it could take, the pick lapses.
    g("Ann", type="play", player=ann, card=item("Mail", 2, "armor"))
    g("Ann", type="play", player=ann, card=item("Boots", 1, "footgear"))
    g("Ann", type="discard", player=ann, instance=g.iid("Ann", "Ring"))
    g("Bob", type="play", player=ann, card="classic/lose-1-small-item")
    g("Bob", type="play", player=ann, card="classic/lose-the-armor-you-are-wearing")
    g("Bob", type="play", player=ann, card="classic/lose-the-footgear-you-are-wearing")
    assert g.p("Ann")["pending_losses"] == [] and g.names("Ann") == []
    assert "pending_losses" not in g.state["players"][0]


# --- an ex-Dwarf's Big items (classic, Items) -------------------------------------------------

def test_an_ex_dwarf_keeps_one_big_item_counting_and_is_told_why_the_others_do_not():
    # Classic, Items: someone who stops being a Dwarf keeps one Big item and gets rid of the
    # rest at once (sells them on their turn, else gives them to the lowest-level player).
    g = Game()
    ann, bob = g.ids["Ann"], g.ids["Bob"]
    g("Ann", type="play", player=ann, card="classic/dwarf")
    g("Ann", type="play", player=ann, card=item("Ram", 3, "1-hand", big=True, gold=800))
    g("Ann", type="play", player=ann, card=item("Cart", 2, big=True, gold=600))
    assert g.p("Ann")["combat_strength"] == 6
    g("Ann", type="discard", player=ann, instance=g.iid("Ann", "Dwarf"))
    me = g.p("Ann")
    assert (me["big_allowed"], me["big_carried"], me["big_over"]) == (1, 2, 1)
    assert g.row("Ann", "Ram")["counts"] and not g.row("Ann", "Cart")["counts"]
    why = render(g.row("Ann", "Cart")["why_not"])
    assert "may carry only 1 Big item" in why and "sell" in why and "give" in why
    assert me["combat_strength"] == 4
    # No third Big item while over the limit; giving the extra one to the lowest-level player
    # who can carry it puts it right.
    assert g.refused("Ann", type="play", player=ann, card=item("Anvil", big=True)).rule == "big-item-limit"
    g("Bob", type="level", player=bob, delta=1)
    cart = g.iid("Ann", "Cart")
    violation = g.refused("Ann", type="give", player=ann, instance=cart, to=bob)
    assert violation.rule == "lose-big-item-ability" and "Cid" in violation.message
    assert not g.may("Ann", "give", instance=cart, to=bob) and g.may("Ann", "give", instance=cart, to=g.ids["Cid"])
    # "At once": Ann's turn cannot end while she still has the extra one.
    assert g.refused("Ann", type="end_turn", player=ann).rule == "lose-big-item-ability"
    assert not g.may("Ann", "end_turn")
    g("Ann", type="give", player=ann, instance=cart, to=g.ids["Cid"])
    assert g.p("Ann")["big_over"] == 0 and g.p("Ann")["combat_strength"] == 4
    assert g.may("Ann", "end_turn")
    g("Ann", type="end_turn", player=ann)


def test_equipped_big_items_are_the_ones_kept_counting():
    g = Game()
    ann = g.ids["Ann"]
    g("Ann", type="play", player=ann, card="classic/dwarf")
    g("Ann", type="play", player=ann, card=item("Cart", 2, big=True))
    g("Ann", type="play", player=ann, card=item("Ram", 3, "1-hand", big=True))
    g("Ann", type="equip", player=ann, instance=g.iid("Ann", "Cart"), equipped=False)
    g("Ann", type="discard", player=ann, instance=g.iid("Ann", "Dwarf"))
    assert g.row("Ann", "Ram")["counts"] and g.row("Ann", "Cart")["over_big_limit"]


# --- the Halfling's double sale (classic, Items; the Halfling card) ---------------------------

def test_a_halfling_sells_one_item_a_turn_at_double_price():
    g = Game()
    ann = g.ids["Ann"]
    g("Ann", type="play", player=ann, card="classic/halfling")
    for name in ("Gem", "Crown", "Orb"):
        g("Ann", type="play", player=ann, card=item(name, gold=600))
    assert g.p("Ann")["double_sale"] is True
    assert g.may("Ann", "sell", doubled=g.iid("Ann", "Gem"))
    line = g.line("Ann", type="sell", player=ann, instances=[g.iid("Ann", "Gem")], doubled=g.iid("Ann", "Gem"))
    assert g.p("Ann")["level"] == 2 and "1200 gold" in line and "Gem at double price" in line
    assert g.p("Ann")["double_sale"] is False
    crown = g.iid("Ann", "Crown")
    violation = g.refused("Ann", type="sell", player=ann, instances=[crown], hand_gold=400, doubled=crown)
    assert violation.rule == "halfling-double-sale" and "Munchkin (classic rules), Items" in violation.citation
    _, refused = options(g.state, g.actor("Ann"))
    assert lists(refused, "sell", doubled=crown, rule="halfling-double-sale")
    assert not g.may("Ann", "sell", doubled=crown)
    # At normal price the same turn is fine; the next turn the double price is back.
    g("Ann", type="sell", player=ann, instances=[crown], hand_gold=400)
    assert g.p("Ann")["level"] == 3
    for name in ("Ann", "Bob", "Cid"):
        g(name, type="end_turn", player=g.ids[name])
    assert g.p("Ann")["double_sale"] is True
    orb = g.iid("Ann", "Orb")
    g("Ann", type="sell", player=ann, instances=[orb], doubled=orb)
    assert g.p("Ann")["level"] == 4


def test_only_a_halfling_doubles_and_only_an_item_in_the_sale():
    g = Game()
    ann = g.ids["Ann"]
    g("Ann", type="play", player=ann, card=item("Gem", gold=600))
    g("Ann", type="play", player=ann, card=item("Crown", gold=600))
    gem, crown = g.iid("Ann", "Gem"), g.iid("Ann", "Crown")
    assert g.refused("Ann", type="sell", player=ann, instances=[gem], doubled=gem).rule == "halfling-double-sale"
    assert g.p("Ann")["double_sale"] is False
    g("Ann", type="play", player=ann, card="classic/halfling")
    g.refused("Ann", BadAction, type="sell", player=ann, instances=[gem], doubled=crown)


# --- No Value items (Oz, Selling Items for Levels) ---------------------------------------------

def test_a_no_value_item_in_a_sale_counts_as_zero_and_the_sale_goes_through():
    g = Game("oz")
    ann = g.ids["Ann"]
    g("Ann", type="play", player=ann, card=item("Junk", gold=None))
    g("Ann", type="play", player=ann, card=item("Gem", gold=1000))
    line = g.line("Ann", type="sell", player=ann, instances=[g.iid("Ann", "Junk"), g.iid("Ann", "Gem")])
    assert "Junk has No Value and counts as 0 gold" in line and "1000 gold" in line
    assert g.p("Ann")["level"] == 2 and g.p("Ann")["items"] == []


# --- Half-Breed with a single race (classic, Half-Breed and Super Munchkin) --------------------

def test_a_classic_half_breed_with_one_race_is_also_human():
    classic, tails = editions.get("classic"), editions.get("tails")
    g = Game()
    ann = g.ids["Ann"]
    g("Ann", type="play", player=ann, card="classic/elf")
    g("Ann", type="play", player=ann, card="classic/half-breed")
    assert g.p("Ann")["races"] == ["elf", "human"]
    me = g.stored_p("Ann")
    assert character.meets({"race": "human"}, me, classic) and character.meets({"race": "elf"}, me, classic)
    # A monster stronger against Humans is stronger against her.
    hater = {"kind": "monster", "name": "Hater", "level": 2,
             "effects": [{"stat": "strength", "value": 5, "if": {"race": "human"}}]}
    g("Ann", type="fight", player=ann, monster=hater)
    assert g.view["monsters_strength"] == 7
    g("host", type="close_fight")
    # A second race makes her half Elf and half Dwarf: no longer human.
    g("Ann", type="play", player=ann, card="classic/dwarf")
    me = g.stored_p("Ann")
    assert not character.meets({"race": "human"}, me, classic)
    # Tails: a lone race with Half-Breed sheds its drawbacks instead; it is not half human.
    t = Game("tails")
    t("Ann", type="play", player=t.ids["Ann"], card="tails/dog")
    t("Ann", type="play", player=t.ids["Ann"], card="tails/half-breed")
    assert t.p("Ann")["races"] == ["dog"]
    assert not character.meets({"race": "human"}, t.state["players"][0], tails)


# --- one-shots on the table (Tails, One-Shot Treasures) ----------------------------------------

def test_a_one_shot_lies_on_the_table_and_is_sold_from_there():
    g = Game("tails")
    ann = g.ids["Ann"]
    assert g.may("Ann", "play", player=ann, kind="one-shot")
    line = g.line("Ann", type="play", player=ann, card=one_shot("Flask", 2, gold=400))
    assert "(carried)" in line
    row = g.row("Ann", "Flask")
    assert (row["kind"], row["equipped"], row["counts"]) == ("one-shot", False, False)
    assert "one-shot" in render(row["why_not"])
    assert g.p("Ann")["combat_strength"] == 1  # it counts only when played into a fight
    g("Ann", type="play", player=ann, card=item("Gem", gold=600))
    g("Ann", type="sell", player=ann, instances=[g.iid("Ann", "Flask"), g.iid("Ann", "Gem")])
    assert g.p("Ann")["level"] == 2 and g.p("Ann")["items"] == []


def test_a_one_shot_on_the_table_is_played_into_a_fight_later():
    g = Game("tails")
    ann, bob = g.ids["Ann"], g.ids["Bob"]
    g("Bob", type="play", player=bob, card=one_shot("Flask", 3))
    flask = g.iid("Bob", "Flask")
    g("Ann", type="fight", player=ann, monster=RAT)
    # In her own fight a one-shot goes straight into the fight, not onto the table.
    g.refused("Ann", BadAction, type="play", player=ann, card=one_shot("Vial"))
    assert not g.may("Ann", "play", player=ann, kind="one-shot")
    assert g.may("Bob", "play", player=bob, kind="one-shot")
    assert g.may("Bob", "one_shot", player=bob, instance=flask, side="monsters")
    assert not g.may("Ann", "one_shot", player=bob, instance=flask)  # not hers to play
    g("Bob", type="one_shot", side="monsters", player=bob, instance=flask)
    assert "Flask" not in g.names("Bob")
    assert g.view["monsters_strength"] == 6
    g.refused("Bob", BadAction, type="one_shot", side="monsters", player=bob, instance=flask)


def test_death_takes_the_one_shots_on_the_table_too():
    g = Game("tails")
    ann = g.ids["Ann"]
    g("Ann", type="play", player=ann, card=one_shot("Flask"))
    line = g.line("Ann", type="die", player=ann)
    assert "loses Flask" in line and g.p("Ann")["items"] == []


# --- a dead player's sheet (Oz, Tails: Death) -------------------------------------------------

def test_a_dead_players_sheet_says_so_and_lists_what_the_rules_refuse():
    g = Game("tails")
    ann, bob = g.ids["Ann"], g.ids["Bob"]
    assert g.p("Bob")["death"] is None
    g("Bob", type="die", player=bob)
    death = g.p("Bob")["death"]
    assert death["dead"] is True and "Bob is dead" in render(death["text"])
    assert "draw 4 cards from each deck" in render(death["next_turn"])
    rules = {d["rule"] for d in death["may_not"]}
    assert rules == {"dead-no-cards", "dead-cannot-help"}
    # Each rule the sheet names is one the engine really refuses with.
    assert g.refused("Bob", type="play", player=bob, card=item("Sword")).rule == "dead-no-cards"
    assert g.refused("Bob", type="level", player=bob, delta=1, source="card").rule == "dead-no-cards"
    # Nor is a dead player cursed: a curse is a card played on them.
    assert g.refused("Ann", type="play", player=bob, card="classic/duck-of-doom").rule == "dead-no-cards"
    g("Ann", type="fight", player=ann, monster=RAT)
    assert g.refused("Bob", type="help", player=bob).rule == "dead-cannot-help"
    g.refused("Bob", BadAction, type="die", player=bob)  # dying twice makes no sense
    assert not g.may("Bob", "die", player=bob)


# --- allowed() offers exactly what apply accepts -------------------------------------------------

def test_allowed_lists_only_what_apply_accepts_with_table_one_shots_curses_and_a_halfling():
    g = Game("classic")
    ann, bob = g.ids["Ann"], g.ids["Bob"]
    g("Ann", type="play", player=ann, card="classic/halfling")
    g("Ann", type="play", player=ann, card=item("Gem", gold=600))
    g("Ann", type="play", player=ann, card=item("Junk", gold=None))
    g("Ann", type="play", player=ann, card=one_shot("Flask"))
    g("Bob", type="play", player=bob, card=item("Ring"))
    g("Bob", type="play", player=bob, card=item("Cloak"))
    g("Ann", type="play", player=bob, card="classic/lose-1-small-item")
    for who in ("host", "Ann", "Bob"):
        actor = g.actor(who)
        listed = allowed(g.state, actor)
        for kind in ("sell", "give", "discard", "one_shot", "play"):
            for params in listed.get(kind, []):
                if "needs" in params:
                    continue
                engine.apply(g.state, {"type": kind, **params}, actor)  # must not raise
    assert g.may("Ann", "sell", doubled=g.iid("Ann", "Gem"))
    assert not g.may("Ann", "sell", doubled=g.iid("Ann", "Junk"))  # No Value: never listed
