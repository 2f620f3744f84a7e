"""Looting the body on two phones (every edition's Death): Ann dies with Leather Armor on and
three cards in hand; Bob's and Cid's phones both show the body and the looting order; Bob,
the higher level, chooses first and takes the armor into his hand; then Cid takes an unseen
card of her hand, and the rest is discarded. Each hand count follows the card taken; a card
drawn face down afterwards (looting the room) counts too."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import ARTIFACTS, PHONE
from .helpers import Table, tab

LIVE_MS = 5000  # a change reaches the other phones


def test_a_death_is_looted_card_by_card_in_the_looting_order_on_two_phones(server, phones):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female", "classic/leather-armor", level=2)
    bob = table.seat("Bob", "male", level=3)
    cid = table.seat("Cid", "female")
    table.act(None, {"type": "set_hand", "player": ann, "count": 3})
    for pid in (bob, cid):
        table.act(None, {"type": "set_hand", "player": pid, "count": 4})
    bob_phone, cid_phone = phones(2, viewport=PHONE)
    table.open(bob_phone, bob)
    table.open(cid_phone, cid)

    table.act(ann, {"type": "die", "player": ann})

    # Both phones show the body: the armor she wore, her hand counted, and who chooses first.
    for phone in (bob_phone, cid_phone):
        body = phone.locator(f"#body-{ann}")
        expect(body).to_contain_text("The body of Ann", timeout=LIVE_MS)
        expect(body).to_contain_text("Leather Armor")
        expect(body).to_contain_text("Their hand: 3 cards")
        expect(body.locator(".next-looter")).to_have_text("Bob")
    # Cid waits: Bob, at the higher level, chooses first.
    expect(cid_phone.locator(f"#body-{ann} li button")).to_have_count(0)
    ARTIFACTS.mkdir(exist_ok=True)
    bob_phone.screenshot(path=str(ARTIFACTS / "looting-01-bob-360x740.png"), full_page=True)

    bob_phone.get_by_role("button", name="Take Leather Armor from the body of Ann").click()
    # The armor goes into Bob's hand (to be played from there as usual); Cid's turn to choose.
    expect(cid_phone.locator(f"#body-{ann}")).not_to_contain_text("Leather Armor", timeout=LIVE_MS)
    expect(cid_phone.locator(f"#body-{ann} .next-looter")).to_have_text("Cid")
    tab(bob_phone, "me")
    expect(bob_phone.locator("#hand-count")).to_have_text("5")

    cid_phone.get_by_role("button", name="Take a card of the hand").click()
    # Everyone has taken a card: the body is gone, the rest discarded, and the log says so.
    expect(cid_phone.locator(f"#body-{ann}")).to_have_count(0, timeout=LIVE_MS)
    expect(bob_phone.locator(f"#body-{ann}")).to_have_count(0, timeout=LIVE_MS)
    tab(cid_phone, "me")
    expect(cid_phone.locator("#hand-count")).to_have_text("5")
    tab(cid_phone, "table")
    log = cid_phone.locator(".log li")
    expect(log.first).to_contain_text("Cid takes a card from the hand of Ann; 2 cards of the hand discarded")
    expect(log.nth(1)).to_contain_text("Bob takes Leather Armor from the body of Ann")
    cid_phone.screenshot(path=str(ARTIFACTS / "looting-02-cid-360x740.png"), full_page=True)
    state = table.state()
    assert [p["hand"] for p in state["players"]] == [0, 5, 5]
    assert not state["bodies"]

    # Bob loots the room: a door card drawn face down, into his hand, and into the log.
    bob_phone.get_by_role("button", name="Draw a door face down (loot the room)").click()
    expect(bob_phone.locator("#hand-count")).to_have_text("6")
    expect(cid_phone.locator(".log li").first).to_contain_text("Bob draws a door card face down",
                                                              timeout=LIVE_MS)
