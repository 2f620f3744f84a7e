"""The pictures beside the words are icons that ship with the app (inline SVG), not emoji: on
a phone without an emoji font (this test's Chromium has none: only DejaVu and Liberation) an
emoji is an empty box. Every page a player sees during a game carries no emoji or pictographic
symbol in its text; its icons are drawn, and hidden from screen readers, whose words are there
beside them."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import ARTIFACTS
from .helpers import Table, won

# Pictographs in the page's text (scripts aside).
EMOJI = """() => {
  const text = [...document.body.querySelectorAll("*")].filter(el => el.tagName !== "SCRIPT")
    .map(el => [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.data).join("")).join(" ");
  return [...new Set([...text].filter(ch => /\\p{Extended_Pictographic}/u.test(ch)))];
}"""
# The icons on screen (a hidden panel's aside), each hidden from screen readers and drawn: its
# drawing, taken from the sprite the page fetched, has a size. Waited for: the sprite may come
# a moment after the page.
DRAWN = """(least) => {
  const shown = [...document.querySelectorAll("svg.icon")].filter(svg => svg.getClientRects().length);
  return shown.length >= least && shown.every(svg => svg.getAttribute("aria-hidden") === "true"
    && svg.getBoundingClientRect().width >= 8 && svg.querySelector("use").getBBox().width > 0);
}"""


def look(page, name: str, at_least: int = 1) -> None:
    emoji = page.evaluate(EMOJI)
    assert not emoji, f"{name}: emoji in the text: {emoji}"
    page.wait_for_function(DRAWN, arg=at_least)


def test_a_game_shows_icons_that_ship_with_the_app_and_no_emoji(server, phones):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female")
    table.seat("Bob", "male")
    cid = table.seat("Cid", "male")
    table.act(cid, {"type": "die", "player": cid})
    table.act(ann, {"type": "fight", "player": ann, "monster": {"kind": "monster", "name": "Gazebo", "level": 8}})
    (phone,) = phones(1)
    table.open(phone, ann)

    # The fight on top: the crossed swords and the verdict's cross are drawn, the words beside.
    expect(phone.locator("#fight-h .icon-swords")).to_be_visible()
    expect(phone.locator("#verdict .icon-x")).to_be_visible()
    expect(phone.locator("#verdict")).to_contain_text("Monsters win.")
    expect(phone.locator(".tabbar .icon-user")).to_be_visible()
    expect(phone.locator("#awake .icon")).to_be_visible()  # put there by static/app.js
    phone.screenshot(path=str(ARTIFACTS / "icons-fight.png"))
    look(phone, "fight tab", at_least=8)
    phone.locator('.tabbar a[data-tab="table"]').click()
    dead = phone.locator(f'.player-row[data-player="{cid}"]')
    expect(dead.locator(".icon-skull")).to_be_visible()
    expect(dead).to_contain_text("dead")
    expect(dead.locator(".icon-mars")).to_be_visible()
    look(phone, "table tab", at_least=10)
    phone.locator('.tabbar a[data-tab="me"]').click()
    look(phone, "me tab", at_least=6)

    # A refusal: "Not allowed" with its sign, and the rulebook's citation with its book.
    table.act(None, {"type": "close_fight"})  # the host clears it
    phone.get_by_role("button", name="Level down").click()
    notice = phone.locator("#notice [role=alert]")
    expect(notice.locator(".icon-ban")).to_be_visible()
    expect(notice).to_contain_text("Not allowed")
    look(phone, "refusal")

    # The other pages of a game: the invite, and the summary of a won game with its trophy.
    phone.context.add_cookies([{"name": f"host_{table.code}", "value": table.host_token, "url": server.url}])
    phone.goto(f"{server.url}/games/{table.code}/host")
    look(phone, "host page")
    won(table, ann)
    phone.goto(f"{server.url}/games/{table.code}/summary")
    expect(phone.locator("#summary-winner .icon-trophy")).to_be_visible()
    look(phone, "summary")
    phone.goto(f"{server.url}/")
    look(phone, "home")
