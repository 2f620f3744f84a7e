"""The card lookup on a phone: typos are forgiven as the player types, the card page
starts a fight, and a table's house card is found and fought like a catalog card."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import shot
from .helpers import Table


def type_into_lookup(page, text: str) -> None:
    """Type like a thumb does, one key at a time; nobody presses Enter or a search button."""
    page.locator("#card-q").press_sequentially(text, delay=25)


def test_typos_find_their_cards_as_the_player_types_and_the_card_page_starts_the_fight(server, phones):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female", "classic/elf")  # her turn; the Slime hates Elves
    bob = table.seat("Bob")
    ann_phone, bob_phone = phones(2)
    table.open(ann_phone, ann)
    table.open(bob_phone, bob)

    ann_phone.get_by_role("navigation", name="Game sections").get_by_role("link", name="Fight").click()
    ann_phone.get_by_role("link", name="Find the monster").click()
    ann_phone.wait_for_url("**/cards?*")
    type_into_lookup(ann_phone, "drooling slim")
    first = ann_phone.locator("#card-results li").first
    # The result arrives while typing (150 ms debounce), well within a second, no submit.
    expect(first).to_contain_text("Drooling Slime", timeout=1500)
    assert "q=" not in ann_phone.url  # the page never navigated: htmx swapped the list
    # The table's rulebook first; the other sets (an Oz card sounds alike) only below a divider.
    expect(ann_phone.locator("#table-cards-h")).to_contain_text("Munchkin (classic)")
    expect(ann_phone.locator("#table-cards li").first).to_contain_text("classic")
    for line in ann_phone.locator("#table-cards li").all_inner_texts():
        assert line.rstrip().endswith(("Munchkin (classic)", "House cards")), line  # sets by name
    shot(ann_phone, "cards-01-typo-drooling-slim")
    first.get_by_role("link").click()
    expect(ann_phone.locator("#card-page h1")).to_have_text("Drooling Slime")
    expect(ann_phone.locator(".facts")).to_contain_text("monster")
    shot(ann_phone, "cards-02-card-page")
    ann_phone.get_by_role("button", name="Fight this monster").click()
    ann_phone.wait_for_url(f"**/games/{table.code}")
    # Level 1 Slime, +4 against an Elf: 5 against Ann's 1.
    expect(ann_phone.locator("#fight-h")).to_contain_text("Drooling Slime")
    expect(ann_phone.locator("#monsters-strength")).to_have_text("5")
    expect(ann_phone.locator("#players-strength")).to_have_text("1")
    expect(bob_phone.locator("#monsters-strength")).to_have_text("5", timeout=2000)
    shot(ann_phone, "cards-03-fight-started")

    # Bob, not the fighter, finds a second monster with a worse typo and adds it to the fight.
    bob_phone.goto(f"{server.url}/cards?game={table.code}")
    bob_phone.locator("#card-kind").select_option("monster")
    type_into_lookup(bob_phone, "plutonim dragn")
    first = bob_phone.locator("#card-results li").first
    expect(first).to_contain_text("Plutonium Dragon", timeout=1500)
    first.get_by_role("link").click()
    expect(bob_phone.locator("#card-actions")).not_to_contain_text("Fight this monster")
    bob_phone.get_by_role("button", name="Add this monster to the fight").click()
    bob_phone.wait_for_url(f"**/games/{table.code}")
    expect(bob_phone.locator("#monsters-strength")).to_have_text("25")
    expect(ann_phone.locator("#monsters-strength")).to_have_text("25", timeout=2000)
    expect(ann_phone.locator("#monsters")).to_contain_text("Plutonium Dragon")
    shot(ann_phone, "cards-04-dragon-added")


def test_a_house_card_added_on_the_phone_is_found_by_the_lookup_and_fought(server, phones):
    table = Table(server, "tails")
    chuck = table.seat("Chuck", "male", "tails/pony")
    (phone,) = phones(1)
    table.open(phone, chuck)

    open_add = phone.locator("#add-card > summary")
    open_add.click()
    phone.get_by_role("link", name="House cards").click()
    phone.wait_for_url(f"**/games/{table.code}/house")
    phone.get_by_label("Name").fill("Grumpy Gnome Lord")
    phone.get_by_label("Kind").select_option("monster")
    phone.get_by_label("Level (monsters)").fill("7")
    phone.get_by_label("Treasures").fill("2")
    phone.get_by_label("What it does (your words)").fill("A cranky gnome; our table's own card.")
    phone.get_by_role("button", name="Add card").click()
    phone.wait_for_url(f"**/games/{table.code}/house")
    expect(phone.locator(".search-results")).to_contain_text("Grumpy Gnome Lord")
    shot(phone, "cards-05-house-card-added")

    phone.goto(f"{server.url}/cards?game={table.code}")
    type_into_lookup(phone, "grumpy gnom")
    first = phone.locator("#card-results li").first
    expect(first).to_contain_text("Grumpy Gnome Lord", timeout=1500)
    expect(first).to_contain_text("House cards")
    first.get_by_role("link").click()
    expect(phone.locator("#card-page")).to_contain_text("A cranky gnome")
    phone.get_by_role("button", name="Fight this monster").click()
    phone.wait_for_url(f"**/games/{table.code}")
    expect(phone.locator("#fight-h")).to_contain_text("Grumpy Gnome Lord")
    expect(phone.locator("#monsters-strength")).to_have_text("7")
    expect(phone.locator("#players-strength")).to_have_text("1")
    expect(phone.locator("#monsters")).to_contain_text("2 treasures")
    shot(phone, "cards-06-house-card-fight")
    # Another table does not see this table's house card.
    other = Table(server, "tails")
    phone.goto(f"{server.url}/cards?game={other.code}")
    with phone.expect_response(lambda r: "/cards/search" in r.url and "gnom" in r.url):
        type_into_lookup(phone, "grumpy gnom")
    expect(phone.locator("#card-results")).not_to_contain_text("Grumpy Gnome Lord")


def test_the_player_who_added_a_house_card_takes_it_off_the_table_and_nobody_else_may(server, phones):
    table = Table(server, "classic")
    ann, bob = table.seat("Ann", "female"), table.seat("Bob", "male")
    ann_phone, bob_phone = phones(2)
    table.open(ann_phone, ann)
    table.open(bob_phone, bob)
    ann_phone.goto(f"{server.url}/games/{table.code}/house")
    ann_phone.get_by_label("Name").fill("Rubber Chicken")
    ann_phone.get_by_label("Kind").select_option("item")
    ann_phone.get_by_role("button", name="Add card").click()
    remove = ann_phone.get_by_role("button", name="Remove Rubber Chicken")
    expect(remove).to_be_visible()
    shot(ann_phone, "cards-07-house-card-remove")

    bob_phone.goto(f"{server.url}/games/{table.code}/house")
    expect(bob_phone.locator(".search-results")).to_contain_text("Rubber Chicken")
    expect(bob_phone.get_by_role("button", name="Remove Rubber Chicken")).to_have_count(0)

    ann_phone.once("dialog", lambda dialog: dialog.accept())  # the tap asks first
    remove.click()
    expect(ann_phone.locator(".search-results")).to_contain_text("None yet.")
    expect(ann_phone.locator(".search-results")).not_to_contain_text("Rubber Chicken")


def test_a_monster_whose_level_the_catalog_lacks_is_fought_at_the_level_on_the_tables_card(server, phones):
    table = Table(server, "tails")
    ann = table.seat("Ann", "female")
    (phone,) = phones(1)
    table.open(phone, ann, f"/cards/tails/chihuahua?game={table.code}")
    phone.get_by_label("Level printed on your card").fill("3")
    shot(phone, "cards-level-unknown-360")
    phone.get_by_role("button", name="Fight this monster").click()
    phone.wait_for_url(f"**/games/{table.code}*")
    expect(phone.locator("#monsters-strength")).to_have_text("3")
    expect(phone.locator("#fight-h")).to_contain_text("Chihuahua")
