"""The character sheet on a phone: a player rebuilds a character from the cards in
front of them, sees the gear bonus and combat strength follow, sells items for a level on
their own turn, meets the rules' refusals (with citation) and dies."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import shot
from .helpers import Table, item_row


def open_add_card(page) -> None:
    """Open the add-card panel as a player does, by its summary. A live update may open it at
    the moment of the tap (the server renders it open after some moves), and the tap then
    closes it again: look at what the page shows, and tap again if it is closed."""
    details = page.locator("#add-card")
    for _ in range(3):
        if details.get_attribute("open") is None:
            details.locator("> summary").click()
        try:
            expect(details.locator("#item-name")).to_be_visible(timeout=3000)
            return
        except AssertionError:
            continue
    expect(details.locator("#item-name")).to_be_visible()


def test_a_player_builds_a_classic_character_sells_meets_refusals_and_dies(server, phones):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female")  # first seated: her turn
    table.seat("Bob", "male", level=3)
    (phone,) = phones(1)
    table.open(phone, ann)
    expect(phone.locator("#me-h")).to_contain_text("Ann")

    # Race and class from the sheet's pickers.
    open_add_card(phone)
    phone.locator("#race-pick").select_option(label="Elf")
    phone.get_by_role("button", name="Play race").click()
    expect(phone.locator("#identity")).to_contain_text("Elf")
    open_add_card(phone)
    phone.locator("#class-pick").select_option(label="Wizard")
    phone.get_by_role("button", name="Play class").click()
    expect(phone.locator("#identity")).to_contain_text("Wizard")
    expect(phone.locator("#my-strength")).to_have_text("1")
    shot(phone, "sheet-01-elf-wizard")

    # An item from the card lookup: typed, opened, "Add to my cards".
    open_add_card(phone)
    phone.get_by_role("link", name="Find a card by name").click()
    phone.locator("#card-q").press_sequentially("pointy hat", delay=20)
    expect(phone.locator("#card-results li").first).to_contain_text("Pointy Hat of Power")
    phone.locator("#card-results li").first.get_by_role("link").click()
    expect(phone.locator("#card-page h1")).to_have_text("Pointy Hat of Power")
    phone.get_by_role("button", name="Add to my cards").click()
    phone.wait_for_url(f"**/games/{table.code}")
    expect(item_row(phone, "Pointy Hat of Power")).to_contain_text("equipped")
    expect(phone.locator("#my-gear")).to_have_text("+3")
    expect(phone.locator("#my-strength")).to_have_text("4")

    # An item typed in by hand (a card the catalog lacks).
    open_add_card(phone)
    phone.locator("#item-name").fill("Sword of Song")
    phone.locator("#item-bonus").fill("3")
    phone.locator("#item-gold").fill("400")
    phone.locator("#item-slot").select_option("1-hand")
    phone.get_by_role("button", name="Add item").click()
    expect(item_row(phone, "Sword of Song")).to_contain_text("equipped")
    expect(phone.locator("#my-gear")).to_have_text("+6")
    expect(phone.locator("#my-strength")).to_have_text("7")
    # The table's row agrees with the sheet.
    expect(phone.locator('.player-row:has-text("Ann") .gear')).to_have_text("+6")
    expect(phone.locator('.player-row:has-text("Ann") .strength')).to_have_text("7")

    # A Cleric-only item: carried in a free hand but it gives nothing, and the sheet says why.
    phone.goto(f"{server.url}/cards?game={table.code}")
    phone.locator("#card-q").press_sequentially("mace of sharp", delay=20)
    expect(phone.locator("#card-results li").first).to_contain_text("Mace of Sharpness")
    phone.locator("#card-results li").first.get_by_role("link").click()
    phone.get_by_role("button", name="Add to my cards").click()
    phone.wait_for_url(f"**/games/{table.code}")
    mace = item_row(phone, "Mace of Sharpness")
    expect(mace.locator(".why")).to_contain_text("only a Cleric can use it")
    expect(phone.locator("#my-gear")).to_have_text("+6")
    shot(phone, "sheet-02-items-and-why-not")

    # Unequip and equip again.
    phone.get_by_role("button", name="Unequip Sword of Song").click()
    expect(item_row(phone, "Sword of Song")).to_contain_text("carried")
    expect(phone.locator("#my-gear")).to_have_text("+3")
    expect(phone.locator("#my-strength")).to_have_text("4")
    phone.get_by_role("button", name="Equip Sword of Song").click()
    expect(item_row(phone, "Sword of Song")).to_contain_text("equipped")
    expect(phone.locator("#my-strength")).to_have_text("7")

    # One Big item is fine; a second is refused with the rule and the rulebook's citation.
    open_add_card(phone)
    phone.locator("#item-name").fill("Ladder of Climbing")
    phone.locator("#item-bonus").fill("2")
    phone.locator("#item-gold").fill("400")
    phone.locator("#item-slot").select_option("other")
    phone.locator('#add-card input[name="card.big"]').check()
    phone.get_by_role("button", name="Add item").click()
    expect(item_row(phone, "Ladder of Climbing")).to_contain_text("Big")
    expect(phone.locator("#my-gear")).to_have_text("+8")
    open_add_card(phone)
    phone.locator("#item-name").fill("Chainsaw")
    phone.locator("#item-slot").select_option("2-hands")
    phone.locator('#add-card input[name="card.big"]').check()
    phone.get_by_role("button", name="Add item").click()
    notice = phone.locator("#notice")
    expect(notice).to_contain_text("Not allowed")
    expect(notice).to_contain_text("one Big item")
    expect(notice.locator(".citation")).to_contain_text("Munchkin (classic rules)")
    expect(notice.get_by_role("link", name="The full ruling (big-item-limit)")).to_be_visible()
    expect(item_row(phone, "Chainsaw")).to_have_count(0)
    shot(phone, "sheet-03-second-big-item-refused")
    notice.get_by_role("button", name="Dismiss").click()  # as a player would: it sits over the sheet

    # Selling on her own turn: 400 + 600 gold is one level, no change.
    phone.locator('summary:text-is("Sell items for levels")').click()
    phone.get_by_label("Sword of Song (400)").check()
    phone.get_by_label("Mace of Sharpness (600)").check()
    phone.get_by_role("button", name="Sell selected").click()
    expect(phone.locator("#my-level")).to_have_text("2")
    expect(item_row(phone, "Sword of Song")).to_have_count(0)
    expect(item_row(phone, "Mace of Sharpness")).to_have_count(0)
    expect(phone.locator(".log")).to_contain_text("sells Sword of Song, Mace of Sharpness for 1000 gold")
    expect(notice.get_by_role("alert")).to_have_count(0)  # the refusal went; the sale offers its undo
    expect(notice.locator(".toast")).to_contain_text("sells Sword of Song")

    # At level 9 no sale may reach level 10: the refusal names the rule and cites the book.
    table.act(ann, {"type": "level", "player": ann, "delta": 7, "source": "kill"})
    expect(phone.locator("#my-level")).to_have_text("9")  # arrives live, no reload
    sell = phone.locator('summary:text-is("Sell items for levels")')
    if phone.locator("details:has(> summary:text-is('Sell items for levels'))").get_attribute("open") is None:
        sell.click()
    phone.get_by_label("Pointy Hat of Power (400)").check()
    phone.get_by_label("Ladder of Climbing (400)").check()
    phone.get_by_label("Gold of items sold from your hand").fill("200")
    phone.get_by_role("button", name="Sell selected").click()
    expect(notice).to_contain_text("Not allowed")
    expect(notice).to_contain_text("level 10")
    expect(notice.locator(".citation")).to_contain_text("Munchkin (classic rules)")
    expect(phone.locator("#my-level")).to_have_text("9")
    expect(item_row(phone, "Pointy Hat of Power")).to_have_count(1)
    shot(phone, "sheet-04-sale-to-level-ten-refused")
    notice.get_by_role("button", name="Dismiss").click()  # as a player would: it sits over the sheet

    # Dying: confirm the dialog; items go, level, race and class stay.
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.get_by_role("button", name="Record that Ann died").click()
    expect(phone.locator("#items")).to_contain_text("No items in play.")
    expect(phone.locator("#my-level")).to_have_text("9")
    expect(phone.locator("#identity")).to_contain_text("Elf")
    expect(phone.locator("#identity")).to_contain_text("Wizard")
    expect(phone.locator('.player-row:has-text("Ann")')).to_contain_text("dead")
    expect(phone.locator(".log")).to_contain_text("Ann dies")
    expect(phone.locator(".log")).to_contain_text("looting order Bob")
    shot(phone, "sheet-05-died")
    ann_state = next(p for p in table.state()["players"] if p["id"] == ann)
    assert ann_state["dead"] and ann_state["level"] == 9 and ann_state["hand"] == 0
    assert {c["card"]["kind"] for c in ann_state["cards"]} == {"race", "class"}


def test_another_players_change_keeps_my_half_filled_forms_and_selling_off_turn_is_refused(server, phones):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female")
    bob = table.seat("Bob", "male", {"kind": "item", "name": "Golden Pan", "bonus": 1,
                                     "slot": "1-hand", "gold": 1000})
    (phone,) = phones(1)
    table.open(phone, bob)
    assert table.state()["turn"] == ann
    # Bob is half-way through two forms when Ann changes something on her phone.
    open_add_card(phone)
    phone.locator("#item-name").fill("Cheese Gra")
    phone.locator("#race-pick").select_option(label="Dwarf")
    phone.locator('summary:text-is("Sell items for levels")').click()
    phone.get_by_label("Golden Pan (1000)").check()
    table.act(ann, {"type": "level", "player": ann, "delta": 1})
    expect(phone.locator('.player-row:has-text("Ann") .level')).to_have_text("2")
    expect(phone.locator("#add-card")).to_have_attribute("open", "")
    expect(phone.locator("#item-name")).to_have_value("Cheese Gra")
    expect(phone.locator("#race-pick")).to_have_value("classic/dwarf")
    expect(phone.get_by_label("Golden Pan (1000)")).to_be_checked()
    # Selling is for one's own turn only.
    phone.get_by_role("button", name="Sell selected").click()
    notice = phone.locator("#notice")
    expect(notice).to_contain_text("Not allowed")
    expect(notice).to_contain_text("turn")
    expect(notice.locator(".citation")).to_be_visible()
    expect(phone.locator("#my-level")).to_have_text("1")
    notice.get_by_role("button", name="Dismiss").click()
    # Changing one's mind at the confirm dialog changes nothing.
    phone.once("dialog", lambda dialog: dialog.dismiss())
    phone.get_by_role("button", name="Record that Bob died").click()
    expect(item_row(phone, "Golden Pan")).to_have_count(1)
    assert not next(p for p in table.state()["players"] if p["id"] == bob)["dead"]
