"""The hand count at a phone's size: Ann wins a fight and her hand shows the
treasures she drew; she then counts three more cards with + and neither the table screen nor
another phone's log gets a line for them."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import ARTIFACTS, PHONE
from .helpers import Table, tab

LAPTOP = {"width": 1280, "height": 720}
LIVE_MS = 5000  # a change reaches the other screens


def test_a_won_fight_fills_the_hand_and_counting_it_by_hand_writes_no_log_lines(server, phones, browser):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female", level=3)  # first seated: her turn
    bob = table.seat("Bob")
    ann_phone, bob_phone = phones(2, viewport=PHONE)
    table.open(ann_phone, ann)
    table.open(bob_phone, bob)
    tv_context = browser.new_context(viewport=LAPTOP)
    try:
        tv = tv_context.new_page()
        tv.set_default_timeout(8000)
        tv.goto(f"{server.url}/games/{table.code}/table")
        hand = ann_phone.locator("#hand-count")
        expect(hand).to_have_text("4")  # dealt at the start: two from each deck (classic)

        # Ann kicks open the door: a level 1 monster worth 3 treasures, and kills it.
        tab(ann_phone, "fight")
        ann_phone.locator("#start-fight summary").click()
        ann_phone.get_by_label("Monster name").fill("Rat")
        ann_phone.get_by_label("Level", exact=True).fill("1")
        ann_phone.get_by_label("Treasures").fill("3")
        ann_phone.get_by_role("button", name="Fight").click()
        ann_phone.get_by_role("button", name="Resolve the fight").click()
        won = "Ann wins (3 against 1); level 3 to 4; 3 treasures face down"
        expect(tv.locator(".tv-lines li").first).to_contain_text(won, timeout=LIVE_MS)

        # The three treasures drawn face down are in her hand.
        tab(ann_phone, "me")
        expect(hand).to_have_text("7")

        # Three more cards counted by hand, one tap each.
        more = ann_phone.get_by_role("button", name="One card more in hand")
        for count in ("8", "9", "10"):
            more.click()
            expect(hand).to_have_text(count)
        ARTIFACTS.mkdir(exist_ok=True)
        ann_phone.screenshot(path=str(ARTIFACTS / "hand-count-360x740.png"), full_page=True)

        # A move after them: on the table screen and Bob's log it comes right after the win,
        # with no line for the counting in between.
        ann_phone.get_by_role("button", name="Level up").click()
        level = "Ann: level 4 to 5, adjusted"
        lines = tv.locator(".tv-lines li")
        expect(lines.first).to_contain_text(level, timeout=LIVE_MS)
        expect(lines.nth(1)).to_contain_text(won)
        expect(tv.locator(".tv-lines")).not_to_contain_text("in hand")
        tab(bob_phone, "table")
        log = bob_phone.locator(".log li")
        expect(log.first).to_contain_text(level, timeout=LIVE_MS)
        expect(log.nth(1)).to_contain_text(won)
        expect(bob_phone.locator(".log")).not_to_contain_text("in hand")
        tv.screenshot(path=str(ARTIFACTS / "hand-count-table-screen-1280x720.png"))
    finally:
        tv_context.close()
