"""The table's winning level, played on two phones: the host starts a long game (to level 20,
Epic Munchkin) from the home page, a friend sits down, both phones show what they play to
under their level, and when the host sets it back to 10 the friend's phone follows live. The
table's rules (the level, the rulings, the optional rules switched on) are on every phone's
Table tab, and follow the host's choices live too."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import shot


def test_a_long_game_to_level_20_and_the_table_rules_show_on_every_phone_and_follow_the_host(server, phones):
    host, friend = phones(2)

    host.goto(server.url + "/")
    host.get_by_label("To level 20: Epic Munchkin, a long game").check()
    host.get_by_label("Your name").fill("Ann")
    host.get_by_label("female", exact=True).check()
    host.get_by_role("button", name="New game").click()
    host.wait_for_url("**/host")
    code = host.locator(".join-code").inner_text().strip()

    friend.goto(host.locator("#join-url").get_attribute("href"))
    friend.get_by_label("Your name").fill("Bob")
    friend.get_by_label("male", exact=True).check()
    friend.get_by_role("button", name="Take a seat").click()
    friend.wait_for_url(f"**/games/{code}")
    expect(friend.locator("#winning-level")).to_have_text("of 20")
    shot(friend, "winning-level-01-phone-of-20")

    # The host's optional rules offer the other level; taking it reaches Bob's phone live.
    host.reload()
    expect(host.locator("#winning-level-form")).to_contain_text("Winning level: 20")
    shot(host, "winning-level-02-host-options")
    host.get_by_role("button", name="Play to level 10").click()
    expect(host.get_by_role("button", name="Play to level 20")).to_be_visible()
    expect(friend.locator("#winning-level")).to_have_text("of 10")

    # The friend's Table tab says what this table plays by; the host switches on Faster play
    # (the classic rulebook's optional rule) and the friend's phone says so without a reload.
    friend.get_by_role("navigation", name="Game sections").get_by_role("link", name="Table").click()
    rules = friend.locator("#table-rules")
    expect(rules).to_contain_text("To level 10")
    expect(rules).to_contain_text("Rules as printed")
    expect(rules).not_to_contain_text("Faster play")
    host.locator("#variants li", has_text="Faster play").get_by_role("button", name="Switch on").click()
    expect(host.locator("#variants li", has_text="Faster play")).to_contain_text("Switch off")
    expect(rules).to_contain_text("Faster play")
    shot(friend, "winning-level-03-phone-table-rules")
