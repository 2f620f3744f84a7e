"""The play screen on a crowded table, on three phones at once: what matters now is
inside every phone's screen wherever its player has scrolled. A fight shows on top of every
phone with both totals and the fighter's move; an offer reaches the helper as a banner with
Accept right there; a refused tap far down the page shows its alert inside the screen; a tap
that is easy to regret offers its undo; an open tab survives live updates; a dead player's
sheet says so; the log is newest first. And the page still works without JavaScript."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import ARTIFACTS
from .helpers import Table, item_row, tab

VIEWPORTS = [{"width": 360, "height": 740}, {"width": 412, "height": 915}]
LIVE_MS = 5000  # a change reaches the other phones; how fast is measured by bench/offer_on_phone.py and bench/live_roundtrip.py, not here
# navigator.vibrate, counted (a headless browser has no motor to ask).
COUNT_VIBRATIONS = "window.vibrations = 0; navigator.vibrate = function () { window.vibrations += 1; return true; };"
GOLD_PAN = {"kind": "item", "name": "Golden Pan", "bonus": 1, "slot": "1-hand", "gold": 600}
CID_ITEMS = [{"kind": "item", "name": f"Spoon {n}", "bonus": 0, "slot": "other", "gold": 100 * n} for n in range(1, 7)]


def size(viewport) -> str:
    return f"{viewport['width']}x{viewport['height']}"


def screen(page, name: str, viewport) -> None:
    """What the phone's screen shows (not the whole page): the file names stay the same."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"play-{name}-{size(viewport)}.png"))


def scroll_to_bottom(page) -> None:
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_function("() => window.scrollY > 0")


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=size)
def test_the_fight_offers_and_refusals_reach_every_phone_inside_its_screen(server, phones, viewport):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female", GOLD_PAN)  # first seated: her turn
    bob = table.seat("Bob", "male", {"kind": "item", "name": "Big Club", "bonus": 6, "slot": "2-hands"}, level=4)
    cid = table.seat("Cid", "male", *CID_ITEMS)
    ann_phone, bob_phone, cid_phone = phones(3, viewport=viewport)
    bob_phone.add_init_script(COUNT_VIBRATIONS)
    for phone, pid in ((ann_phone, ann), (bob_phone, bob), (cid_phone, cid)):
        table.open(phone, pid)

    # No fight yet: each phone opens on its own sheet, level and strength on top.
    expect(ann_phone.locator("#game")).to_have_attribute("data-tab", "me")
    expect(ann_phone.locator("#my-level")).to_be_in_viewport()
    expect(ann_phone.get_by_role("button", name="Level up")).to_be_in_viewport()
    expect(ann_phone.locator(".call[data-call^=turn]")).to_contain_text("Your turn, Ann")
    screen(ann_phone, "me", viewport)
    ann_phone.locator(".call").get_by_role("button", name="OK").click()
    expect(ann_phone.locator(".call")).to_have_count(0)

    # Bob reads the table, scrolled to its end; Cid is far down his own long sheet.
    tab(bob_phone, "table")
    expect(bob_phone.locator(".log li").first).to_contain_text("Cid plays Spoon 6")  # newest first
    expect(bob_phone.locator("ol.log, .log[reversed]")).to_have_count(0)  # no countdown
    scroll_to_bottom(bob_phone)
    screen(bob_phone, "table", viewport)
    scroll_to_bottom(cid_phone)

    # Ann kicks open the door from her phone's fight tab: a level 8 monster by hand.
    tab(ann_phone, "fight")
    ann_phone.locator("#start-fight summary").click()
    ann_phone.get_by_label("Monster name").fill("Gazebo")
    ann_phone.get_by_label("Level", exact=True).fill("8")
    ann_phone.get_by_role("button", name="Fight").click()
    # On every phone, wherever it was: who fights what and both totals, in view.
    for phone in (ann_phone, bob_phone, cid_phone):
        expect(phone.locator("#fight-h")).to_contain_text("Ann vs Gazebo")
        for total, value in (("#players-strength", "2"), ("#monsters-strength", "8")):
            expect(phone.locator(total)).to_have_text(value)
            expect(phone.locator(total)).to_be_in_viewport(ratio=1)
        expect(phone.locator("#verdict")).to_contain_text("Players need 7 more")
    give_up = ann_phone.get_by_role("button", name="Give up: run away")
    expect(give_up).to_be_in_viewport(ratio=1)
    expect(ann_phone.get_by_role("link", name="Ask for help")).to_be_in_viewport(ratio=1)
    expect(cid_phone.get_by_role("button", name="Offer to help")).to_be_in_viewport(ratio=1)
    # Bob's open tab survived the live updates.
    expect(bob_phone.locator("#game")).to_have_attribute("data-tab", "table")
    expect(bob_phone.locator("#tab-table")).to_be_visible()
    screen(ann_phone, "fight", viewport)

    # Giving up is one tap, and undone with one more.
    give_up.click()
    toast = ann_phone.locator("#notice .toast")
    expect(toast).to_contain_text("Ann cannot win (2 against 8): run away")
    expect(toast.get_by_role("button", name="Undo")).to_be_in_viewport(ratio=1)
    expect(ann_phone.locator("#notice")).to_have_count(1)  # the toast went into the page's notice
    expect(ann_phone.locator("#escapes")).to_be_visible()
    toast.get_by_role("button", name="Undo").click()
    expect(give_up).to_be_in_viewport(ratio=1)
    expect(ann_phone.locator("#escapes")).to_have_count(0)
    expect(toast).to_contain_text("Undo: Ann cannot win")
    expect(toast.get_by_role("button", name="Undo")).to_have_count(0)

    # Ann offers Bob a bribe from the "Ask for help" link; Bob, scrolled far down his table
    # tab, gets it on top of his screen with Accept right there (bench/offer_on_phone.py: well within a second).
    scroll_to_bottom(bob_phone)
    ann_phone.get_by_role("link", name="Ask for help").click()
    bob_row = ann_phone.locator(f'#helpers li[data-helper="{bob}"]')
    expect(bob_row).to_be_in_viewport()
    bob_row.get_by_label("Treasures").fill("1")
    bob_row.get_by_role("button", name="Offer it to Bob").click()
    call = bob_phone.locator(".call[data-call^=offer]")
    accept = call.get_by_role("button", name="Accept and help")
    expect(accept).to_be_in_viewport(ratio=1, timeout=LIVE_MS)
    expect(call).to_contain_text("Ann asks you to help: 1 treasure")
    expect(call.get_by_role("button", name="Decline")).to_be_in_viewport(ratio=1)
    assert bob_phone.evaluate("() => window.vibrations") >= 1
    screen(bob_phone, "offer", viewport)
    accept.click()
    for phone in (ann_phone, bob_phone, cid_phone):
        expect(phone.locator("#fight-h")).to_contain_text("Ann + Bob vs Gazebo", timeout=LIVE_MS)
        expect(phone.locator("#verdict")).to_contain_text("Players win by 4")
    expect(call).to_have_count(0)

    # Cid, far down his sheet, sells out of turn: the refusal shows inside his screen.
    cid_phone.locator('summary:text-is("Sell items for levels")').click()
    cid_phone.get_by_label("Spoon 6 (600)").check()
    cid_phone.get_by_label("Spoon 4 (400)").check()
    sell = cid_phone.get_by_role("button", name="Sell selected")
    sell.click()
    assert cid_phone.evaluate("() => window.scrollY") > viewport["height"] / 2, "the button is far down the page"
    alert = cid_phone.locator("#notice [role=alert]")
    expect(alert).to_contain_text("Not allowed")
    expect(alert).to_be_in_viewport()
    expect(alert.get_by_role("button", name="Dismiss")).to_be_in_viewport(ratio=1)
    screen(cid_phone, "refusal", viewport)
    alert.get_by_role("button", name="Dismiss").click()
    expect(alert).to_have_count(0)

    # Ann wins; then gives her Golden Pan to Cid by mistake and takes it back from the toast.
    ann_phone.get_by_role("button", name="Resolve the fight").click()
    expect(cid_phone.locator("#fight-result")).to_contain_text("Ann wins (12 against 8)", timeout=LIVE_MS)
    tab(ann_phone, "me")
    pan = item_row(ann_phone, "Golden Pan")
    pan.get_by_label("Give to").select_option(label="Cid")
    pan.get_by_role("button", name="Give").click()
    expect(toast).to_contain_text("Ann gives Golden Pan to Cid")
    expect(toast.get_by_role("button", name="Undo")).to_be_in_viewport(ratio=1)
    expect(item_row(cid_phone, "Golden Pan")).to_have_count(1, timeout=LIVE_MS)
    toast.get_by_role("button", name="Undo").click()
    expect(pan).to_have_count(1)
    expect(item_row(cid_phone, "Golden Pan")).to_have_count(0, timeout=LIVE_MS)

    # A dead player's own sheet says so, in view on top of the sheet.
    table.act(cid, {"type": "die", "player": cid})
    expect(cid_phone.locator("#dead")).to_contain_text("Cid is dead", timeout=LIVE_MS)
    expect(cid_phone.locator("#hud .hud-name")).to_contain_text("dead: Cid")  # beside the skull icon
    expect(cid_phone.locator("#hud .hud-name .icon-skull")).to_be_visible()


def test_the_sections_work_without_javascript(server, browser):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female")
    table.seat("Bob", "male")
    context = browser.new_context(viewport=VIEWPORTS[0], java_script_enabled=False)
    context.set_default_timeout(8000)
    context.set_default_navigation_timeout(8000)
    try:
        page = context.new_page()
        table.open(page, ann)
        expect(page.locator("#tab-me")).to_be_visible()
        expect(page.locator("#tab-table")).to_be_hidden()
        # The tab bar is plain links: the table section comes from the server.
        page.locator('.tabbar a[data-tab="table"]').click()
        page.wait_for_url(re.compile(r"tab=table"))
        expect(page.locator("#tab-table")).to_be_visible()
        expect(page.locator("#tab-me")).to_be_hidden()
        # A form posted from a section comes back to that section.
        page.get_by_role("button", name="Level up").click()
        page.wait_for_url(re.compile(r"tab=table"))
        expect(page.locator("#my-level")).to_have_text("2")
        expect(page.locator('.player-row:has-text("Ann") .level')).to_have_text("2")
        expect(page.locator("#tab-table")).to_be_visible()
    finally:
        context.close()
