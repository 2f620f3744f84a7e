"""The start of a game and the header, played on two phones: the host creates a game and sees the
invite first, with the way on to the game right under it; a friend scans it and sits down; the
host ends the turn from whatever tab they are on (the header holds the button on every tab);
the ask-the-rules box is folded into one button at the top, one tap from open."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import shot
from .helpers import tab


def test_the_host_invites_first_ends_the_turn_from_any_tab_and_asks_the_folded_rules_box(server, phones):
    host, friend = phones(2)

    # The host names themself on the home page: the invite comes first, then the way on.
    host.goto(server.url + "/")
    host.get_by_label("Your name").fill("Ann")
    host.get_by_label("female", exact=True).check()
    host.get_by_role("button", name="New game").click()
    host.wait_for_url("**/host")
    code = host.locator(".join-code").inner_text().strip()
    for part in (".join-code", ".qr svg", "#join-url"):
        expect(host.locator(part)).to_be_in_viewport(ratio=1)
    go_on = host.get_by_role("link", name="Open my sheet")
    expect(go_on).to_be_in_viewport(ratio=1)
    shot(host, "turn-01-invite-first")

    # A friend opens the invite's link and sits down; the host goes on to the game.
    friend.goto(host.locator("#join-url").get_attribute("href"))
    friend.get_by_label("Your name").fill("Bob")
    friend.get_by_label("male", exact=True).check()
    friend.get_by_role("button", name="Take a seat").click()
    friend.wait_for_url(f"**/games/{code}")
    go_on.click()
    host.wait_for_url(f"**/games/{code}")

    # The rules box is folded: one button at the top, the field hidden until it is tapped.
    ask = host.locator("#ask")
    expect(ask.locator("summary")).to_be_in_viewport(ratio=1)
    expect(host.get_by_label("Ask the rules")).to_be_hidden()
    assert host.locator(".topbar").bounding_box()["height"] <= 60  # one row: the sheet comes first
    expect(host.locator("#my-level")).to_be_in_viewport(ratio=1)

    # Ann's turn: "End turn" sits in the header on the Me tab, once on the page.
    end_turn = host.get_by_role("button", name="End turn")
    expect(host.locator("#hud")).to_contain_text("Your turn")
    expect(end_turn).to_have_count(1)
    expect(end_turn).to_be_in_viewport(ratio=1)
    expect(friend.get_by_role("button", name="End turn")).to_have_count(0)  # not Bob's turn
    host.screenshot(path=str(shot_path("turn-02-me-tab-during-turn")))
    # ... and stays in reach on the other tabs, scrolled down too.
    tab(host, "fight")
    expect(end_turn).to_be_in_viewport(ratio=1)
    tab(host, "table")
    host.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    expect(end_turn).to_be_in_viewport(ratio=1)
    # The invite stays where it was: the Table tab leads back to it.
    expect(host.get_by_role("link", name="Invite (QR)")).to_have_attribute("href", f"/games/{code}/host")

    end_turn.click()
    expect(host.locator("#notice .toast")).to_contain_text("Bob")
    expect(end_turn).to_have_count(0)
    expect(host.locator("#turn")).to_contain_text("Turn: Bob")
    bob_ends = friend.get_by_role("button", name="End turn")
    expect(bob_ends).to_be_in_viewport(ratio=1, timeout=5000)  # live, on Bob's phone

    # The folded box opens with one tap, the cursor in it; a question goes to the arbiter.
    host.screenshot(path=str(shot_path("turn-03-rules-box-folded")))
    ask.locator("summary").click()
    box = host.get_by_label("Ask the rules")
    expect(box).to_be_visible()
    expect(box).to_be_focused()
    host.screenshot(path=str(shot_path("turn-04-rules-box-open")))
    box.fill("can i sell stuff to hit lvl 10")
    box.press("Enter")
    expect(host).to_have_url(re.compile(r"/rules\?"))
    expect(host.locator("#rules-q")).to_have_value("can i sell stuff to hit lvl 10")
    expect(host.locator(".ruling-hit").first).to_be_visible()


def shot_path(name: str):
    """A screenshot of what the phone's screen shows (not the whole page), kept as an artifact."""
    from .conftest import ARTIFACTS

    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / f"{name}.png"
