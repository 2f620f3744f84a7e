"""A player asks the arbiter a question from a phone, in their own words."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import seated_phone, shot


def test_asking_the_rules_from_the_game_page_finds_the_ruling_with_its_citation(server, phones):
    (phone,) = phones(1)
    code = seated_phone(server, phone, "classic", "Ann", "female")
    phone.locator("#ask > summary").click()  # the box is folded into a button at the top
    box = phone.get_by_label("Ask the rules")
    box.fill("can i sell stuff to hit lvl 10")
    box.press("Enter")
    first = phone.locator(".ruling-hit").first
    expect(first).to_have_attribute("data-rule", "level-ten-needs-kill")
    expect(first.locator(".citation")).to_contain_text("Munchkin (classic rules)")
    # Typing another question updates the answers as the player types, without a submit.
    phone.get_by_label("Your question, in your own words").fill("does my helpr get a level")
    expect(phone.locator(".ruling-hit").first).to_have_attribute("data-rule", "helper-no-level")
    shot(phone, "rules-arbiter")
    phone.locator(".ruling-hit a").first.click()
    expect(phone.locator("#ruling h1")).to_be_visible()
    expect(phone.locator("#ruling")).to_contain_text("Asking For Help")
    # The rules pages remember the game they were opened from, and lead back to it.
    phone.get_by_role("link", name="Ask another question").click()
    expect(phone.locator("#rules-q")).to_be_visible()
    phone.get_by_role("link", name=f"Back to the game ({code})").click()
    expect(phone).to_have_url(re.compile(rf"/games/{code}$"))


def test_a_refusal_on_a_phone_links_to_its_full_ruling(server, phones):
    (phone,) = phones(1)
    seated_phone(server, phone, "tails", "Mel")
    phone.get_by_role("button", name="Level down").click()
    notice = phone.locator("#notice")
    expect(notice).to_contain_text("Munchkin Tails")
    notice.get_by_role("link").click()
    expect(phone.locator("#ruling")).to_contain_text("level-minimum")


def test_a_question_typed_before_the_page_is_ready_is_asked_once_it_is(server, phones):
    """A slow phone: the player types while the page's scripts are still on their way."""
    (phone,) = phones(1)
    held = []
    phone.route("**/htmx.min.js", lambda route: held.append(route))  # let through below, once typed
    with phone.expect_request("**/htmx.min.js"):
        phone.goto(f"{server.url}/rules?q=can+i+sell+stuff+to+hit+lvl+10&edition=classic",
                   wait_until="commit")
    expect(phone.locator(".ruling-hit").first).to_have_attribute("data-rule", "level-ten-needs-kill")
    phone.get_by_label("Your question, in your own words").fill("does my helpr get a level")
    expect(phone.locator(".ruling-hit").first).to_have_attribute("data-rule", "level-ten-needs-kill")
    assert held, "the page is waiting for htmx"
    held[0].continue_()
    expect(phone.locator(".ruling-hit").first).to_have_attribute("data-rule", "helper-no-level")
