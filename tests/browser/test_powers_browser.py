"""A class power and a Bad Stuff done by hand, on a phone: the Warrior berserks from
the fight on her screen, her strength and hand follow; caught by Net Troll, whose Bad Stuff
needs the table's choice, she finds the card's words on her sheet and marks it done."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import ARTIFACTS
from .helpers import Table, tab


def test_a_warrior_berserks_on_her_phone_and_confirms_a_bad_stuff_done_by_hand(server, phones):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female", "classic/warrior")
    table.act(ann, {"type": "set_hand", "player": ann, "count": 3})
    table.act(ann, {"type": "fight", "player": ann, "monster": "classic/net-troll"})
    (phone,) = phones(1)
    table.open(phone, ann)

    # The fight is on her screen, and Berserking with it: discarding two cards adds two.
    expect(phone.locator("#game")).to_have_attribute("data-tab", "fight")
    expect(phone.locator("#players-strength")).to_have_text("1")  # her level alone
    berserk = phone.get_by_role("button", name="discard 2 cards")
    expect(berserk).to_be_in_viewport()
    berserk.click()
    expect(phone.locator("#players-strength")).to_have_text("3")
    expect(phone.get_by_role("button", name="discard 1 card")).to_have_count(0)  # once per fight
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "powers-berserk-360x740.png"))

    # Still short: she runs, rolls a 1 on the real die, and is caught.
    phone.get_by_role("button", name="Give up: run away").click()
    escape = phone.locator('#escapes li:has-text("Net Troll")')
    escape.get_by_label("Real die result").select_option("1")
    escape.get_by_role("button", name="I rolled this").click()
    expect(phone.locator("#fight-result")).to_contain_text("Ann was caught by Net Troll")

    # The Bad Stuff the app cannot choose waits on her sheet with the card's words (she puts
    # the roll's undo toast away first: it sits over the lower part of the screen).
    toast = phone.locator("#notice")
    expect(toast).to_contain_text("Bad Stuff: Each highest-Level player takes one Item from you.")
    toast.get_by_role("button", name="Dismiss").click()
    tab(phone, "me")
    note = phone.locator('[id^="pending-bad-stuff-"]')
    expect(note).to_contain_text("Each highest-Level player takes one Item from you.")
    expect(note).to_be_in_viewport()
    phone.screenshot(path=str(ARTIFACTS / "powers-bad-stuff-by-hand-360x740.png"))
    note.get_by_role("button", name="Done").click()
    expect(note).to_have_count(0)
    assert table.state()["players"][0]["hand"] == 1


def test_a_tails_thief_picks_the_item_and_the_cards_and_says_the_theft_worked(server, phones):
    table = Table(server, "tails")
    ann = table.seat("Ann", "female", {"kind": "class", "name": "Thief"})
    bob = table.seat("Bob")
    cy = table.seat("Cy")
    table.act(ann, {"type": "set_hand", "player": ann, "count": 3})
    for owner, item in ((bob, "Spork"), (bob, "Rubber Chicken"), (cy, "Soup Ladle")):
        table.act(owner, {"type": "play", "player": owner, "card": {"kind": "item", "name": item, "slot": "1-hand"}})
    phone, bob_phone = phones(2)
    table.open(phone, ann)
    table.open(bob_phone, bob)
    tab(phone, "me")

    # One form per player she may rob, not a button per item x cards x outcome.
    thefts = phone.locator("form.power-pick")
    expect(thefts).to_have_count(2)
    from_bob = thefts.filter(has_text="Theft: Bob")
    from_bob.get_by_label("Item").select_option(label="Rubber Chicken")
    from_bob.get_by_label("Cards to discard").select_option("1")
    from_bob.scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "powers-theft-picker-360x740.png"))
    from_bob.get_by_role("button", name="It worked").click()

    expect(phone.locator(".log")).to_contain_text("takes Rubber Chicken from Bob")
    expect(phone.locator("#hand-count")).to_have_text("2")
    players = {p["name"]: p for p in table.state()["players"]}
    assert [c["card"]["name"] for c in players["Bob"]["cards"]] == ["Spork"]
    assert "Rubber Chicken" in [c["card"]["name"] for c in players["Ann"]["cards"]]
    # Bob is told on his phone, on top, with what was taken.
    robbed = bob_phone.locator('#calls .call[data-call^="power-on-me-"]')
    expect(robbed).to_contain_text("takes Rubber Chicken from Bob", timeout=5000)
    expect(robbed).to_be_in_viewport()
    bob_phone.screenshot(path=str(ARTIFACTS / "powers-theft-victim-told-360x740.png"))


def test_a_tails_warrior_berserks_with_the_bonus_on_her_card_in_one_form(server, phones):
    table = Table(server, "tails")
    ann = table.seat("Ann", "female", {"kind": "class", "name": "Warrior"})
    table.act(ann, {"type": "set_hand", "player": ann, "count": 4})
    table.act(ann, {"type": "fight", "player": ann,
                    "monster": {"kind": "monster", "name": "Angry Goose", "level": 8, "treasures": 1}})
    (phone,) = phones(1)
    table.open(phone, ann)
    expect(phone.locator("#players-strength")).to_have_text("1")
    # One form: how many cards, the bonus printed on her card, one button.
    berserk = phone.locator("#tab-fight form.power-pick").filter(has_text="Berserking")
    berserk.get_by_label("Cards to discard").select_option("2")
    berserk.get_by_label("Bonus on your card").fill("3")
    berserk.get_by_role("button", name="Use it").click()
    expect(phone.locator("#players-strength")).to_have_text("4")
    expect(phone.locator("#hand-count")).to_have_text("2")
