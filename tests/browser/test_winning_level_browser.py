"""The table's winning level, played on two phones: the host starts a long game (to level 20,
Epic Munchkin) from the home page, a friend sits down, both phones show what they play to
under their level, and when the host sets it back to 10 the friend's phone follows live."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import shot


def test_a_long_game_to_level_20_shows_on_every_phone_and_the_host_can_set_it_back(server, phones):
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
