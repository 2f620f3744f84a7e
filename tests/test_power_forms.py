"""A power with many moves is one form with choices, not a wall of buttons: a Tails Thief's
Theft is a form per player robbed (item, cards to discard, it worked / it failed), a Backstab
one form (player, cards); a power with three moves or fewer keeps a button each."""

from __future__ import annotations

import re

from companion.web.power_forms import power_forms

from .helpers import ApiTable
from .test_sections import fragment


def theft(target, item, n, worked):
    return {"player": 1, "power": "thief-theft", "from_hand": n, "target": target, "item": item,
            "succeeded": worked}


def test_the_thefts_from_one_player_are_one_form_and_each_player_has_their_own():
    moves = [theft(t, i, n, w) for t, items in ((2, (10, 11)), (3, (12,)))
             for i in items for n in (0, 1, 2) for w in (True, False)]
    forms = power_forms(moves)
    assert forms[0]["fixed"] == {"player": 1, "power": "thief-theft", "target": 2}
    assert forms[0]["choices"] == {"item": [10, 11], "from_hand": [0, 1, 2], "succeeded": [True, False]}
    # One item: nothing to pick there, it is sent as it is.
    assert forms[1]["fixed"] == {"player": 1, "power": "thief-theft", "target": 3, "item": 12}
    assert forms[1]["choices"] == {"from_hand": [0, 1, 2], "succeeded": [True, False]}


def test_a_backstab_on_any_of_five_players_is_one_form_and_berserking_stays_three_buttons():
    backstabs = [{"player": 1, "power": "thief-backstab", "from_hand": 1, "target": t} for t in range(2, 7)]
    (form,) = power_forms(backstabs)
    assert form["fixed"] == {"player": 1, "power": "thief-backstab", "from_hand": 1}
    assert form["choices"] == {"target": [2, 3, 4, 5, 6]}
    berserks = [{"player": 1, "power": "warrior-berserking", "from_hand": n} for n in (1, 2, 3)]
    assert power_forms(berserks) == [{"move": m} for m in berserks]


def test_moves_that_take_the_cards_number_are_one_form_with_one_field_for_it():
    # Tails Berserking: the bonus is on the card. Three buttons had three bonus fields, and a
    # bonus typed in one was lost when another was tapped.
    berserks = [{"player": 1, "power": "warrior-berserking", "from_hand": n, "needs": ["bonus"]}
                for n in (1, 2, 3)]
    (form,) = power_forms(berserks)
    assert form == {"fixed": {"player": 1, "power": "warrior-berserking"},
                    "choices": {"from_hand": [1, 2, 3]}, "needs": ["bonus"]}


def test_a_tails_thief_sees_a_theft_form_per_player_with_their_items_by_name(app):
    client = app.test_client()
    table = ApiTable(client, "tails")
    for name, sex in (("Ann", "female"), ("Bob", "male"), ("Cy", "male")):
        table.join(name, sex)
    ann, bob, cy = (table.ids[n] for n in ("Ann", "Bob", "Cy"))
    table.act("host", {"type": "play", "player": ann, "card": {"kind": "class", "name": "Thief"}})
    table.act("host", {"type": "set_hand", "player": ann, "count": 3})
    for owner, item in ((bob, "Spork"), (bob, "Rubber Chicken"), (cy, "Soup Ladle")):
        table.act("host", {"type": "play", "player": owner, "card": {"kind": "item", "name": item, "slot": "1-hand"}})
    phone = app.test_client()
    phone.set_cookie(f"seat_{table.code}", table.tokens["Ann"])
    page = fragment(phone, table.code)

    forms = re.findall(r'<form[^>]*>(?:(?!</form>).)*?value="thief-theft".*?</form>', page, re.S)
    assert len(forms) == 2  # 18 moves: 3 items x 0-2 cards x worked or not
    bobs, cys = (" ".join(f.split()) for f in forms)
    assert "Theft: Bob" in bobs and "Theft: Cy · Soup Ladle" in cys
    assert re.search(r'<select name="item">.*Spork.*Rubber Chicken.*</select>', bobs)
    assert '<select name="from_hand"><option value="0">0</option><option value="1">1</option>' in bobs
    assert 'name="succeeded" value="true"' in bobs and 'name="succeeded" value="false"' in bobs
    assert 'name="item"' in cys and '<select name="item">' not in cys  # one item: nothing to pick


def test_a_power_waiting_says_the_rule_it_waits_on(app):
    client = app.test_client()
    table = ApiTable(client)
    table.join("Ann", "female")
    ann = table.ids["Ann"]
    table.act("host", {"type": "play", "player": ann, "card": "classic/warrior"})
    table.act("host", {"type": "set_hand", "player": ann, "count": 3})
    phone = app.test_client()
    phone.set_cookie(f"seat_{table.code}", table.tokens["Ann"])
    # Out of a fight: Berserking waits for one.
    waiting = re.search(r'<div class="power waiting">.*?</div>', fragment(phone, table.code), re.S)
    said = " ".join(waiting.group(0).split()) if waiting else ""
    assert "Not now: Berserking is used while a fight is being fought." in said
    assert 'href="/rules/power-in-fight"' in said
    table.act("Ann", {"type": "fight", "player": ann, "monster": {"kind": "monster", "name": "Ogre", "level": 9}})
    table.act("Ann", {"type": "use_power", "player": ann, "power": "warrior-berserking", "from_hand": 1})
    waiting = re.search(r'<div class="power waiting">.*?</div>', fragment(phone, table.code), re.S)
    said = " ".join(waiting.group(0).split()) if waiting else ""
    assert "Not now: Ann already used Berserking in this fight." in said
    assert 'href="/rules/power-once-per-combat"' in said
