"""The table screen through a game to its end: at 1280x720 and 1920x1080 it
fits the screen without scrolling (the level race's legend included), shows each player's race
and class, its join QR never covers the latest log lines, and the QR leaves once the game is won."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import shot
from .helpers import Table

SCREENS = [{"width": 1280, "height": 720}, {"width": 1920, "height": 1080}]


def _fits(page) -> None:
    heights = page.evaluate("() => [document.scrollingElement.scrollHeight, innerHeight]")
    assert heights[0] <= heights[1], f"the table screen scrolls: {heights[0]} > {heights[1]}"


def _apart(page, one: str, other: str) -> None:
    a, b = page.locator(one).bounding_box(), page.locator(other).bounding_box()
    assert a and b
    overlap = (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
               and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])
    assert not overlap, f"{one} {a} overlaps {other} {b}"


def _identity(page, name: str, words: str) -> None:
    seat = page.locator(f'.tv .big-table li:has(.name:text-is("{name}"))')
    expect(seat.locator(".identity")).to_have_text(words)
    expect(seat.locator(".identity")).to_be_visible()


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s['width']}x{s['height']}")
def test_the_table_screen_fits_names_races_and_classes_and_drops_the_qr_at_the_win(server, browser, screen):
    size = f"{screen['width']}x{screen['height']}"
    table = Table(server, "classic")
    ann = table.seat("Ann", "female", "classic/elf", "classic/warrior")
    bob = table.seat("Bob", "male", "classic/dwarf")
    cid = table.seat("Cid", "male", "classic/wizard")
    dee = table.seat("Dee", "female", "classic/halfling", "classic/thief")
    for pid, levels in ((ann, 8), (bob, 3), (cid, 2), (dee, 4)):
        table.act(pid, {"type": "level", "player": pid, "delta": levels, "source": "adjust"})

    context = browser.new_context(viewport=screen)
    try:
        page = context.new_page()
        page.set_default_timeout(8000)
        page.goto(f"{server.url}/games/{table.code}/table")

        # Everyone's race and class on their row, in words (no race card: Human; no class said).
        _identity(page, "Ann", "Elf · Warrior")
        _identity(page, "Bob", "Dwarf · no class")
        _identity(page, "Cid", "Human · Wizard")
        _identity(page, "Dee", "Halfling · Thief")

        # Ann fights at level 9: the fight, the log and the QR share the screen; nothing scrolls
        # and the QR stays clear of the log.
        table.act(ann, {"type": "fight", "player": ann,
                        "monster": {"kind": "monster", "name": "Ogre", "level": 6}})
        expect(page.locator("#tv-fight")).to_contain_text("Ogre")
        expect(page.locator(".tv-lines li").first).to_contain_text("Ann fights Ogre")
        shot(page, f"table-screen-fight-{size}")
        expect(page.locator(".tv-join .qr svg")).to_be_visible()
        expect(page.locator("#tv-race .race-words")).to_be_in_viewport(ratio=1)
        _fits(page)
        _apart(page, ".tv-join", ".tv-log")
        _apart(page, ".tv-join", "#tv-fight")

        # The kill wins: the QR leaves, the winner and the summary link show, still one screen.
        table.act(ann, {"type": "resolve"})
        expect(page.get_by_role("link", name="Game summary")).to_be_visible()
        expect(page.locator(".tv .winner")).to_contain_text("Ann")
        expect(page.locator(".tv-join")).to_be_hidden()
        expect(page.get_by_role("img", name="QR code of the join link")).to_have_count(0)
        expect(page.locator("#tv-race .race-words")).to_be_in_viewport(ratio=1)
        expect(page.locator(".tv-lines li").first).to_be_in_viewport(ratio=1)
        _identity(page, "Ann", "Elf · Warrior")
        _identity(page, "Dee", "Halfling · Thief")
        _fits(page)
        shot(page, f"table-screen-won-{size}")

        # A reload of the finished game: no QR there either, and still one screen.
        page.reload()
        expect(page.locator(".tv .winner")).to_contain_text("Ann")
        expect(page.locator(".tv-join")).to_have_count(0)
        _fits(page)
    finally:
        context.close()
