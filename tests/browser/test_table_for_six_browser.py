"""The table screen for six (a laptop at 1280x720, a TV at 1920x1080): during a fight and at
the end of a long game, nothing is wider than the screen, log lines wrap instead of being cut,
and at the end the level race takes at least a third of the screen's height with its legend
whole and nothing on top of it; six series, each its own colour, dash and end marker."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import ARTIFACTS
from .helpers import Table

SCREENS = {"laptop": {"width": 1280, "height": 720}, "tv": {"width": 1920, "height": 1080}}
NAMES = (("Ann", "female"), ("Bob", "male"), ("Cid", "male"), ("Dee", "female"),
         ("Eve Maria Longname", "female"), ("Fay", "female"))
RAT = {"kind": "monster", "name": "Rat of the Long Corridor", "level": 1, "treasures": 1}


def _evening(server) -> tuple[Table, dict]:
    """Six players, a dozen turns of level changes, a fight on: the table mid-game."""
    table = Table(server, "classic")
    ids = {name: table.seat(name, sex) for name, sex in NAMES}
    for round_ in range(2):
        for name, pid in ids.items():
            table.act(pid, {"type": "level", "player": pid, "delta": 1 + (round_ + len(name)) % 3})
    table.act(ids["Ann"], {"type": "fight", "player": ids["Ann"], "monster": RAT})
    return table, ids


def _not_covered(page, selector: str) -> list[str]:
    """What covers any part of ``selector``'s box (elements on top of it at sample points)."""
    return page.evaluate("""sel => {
        const el = document.querySelector(sel); if (!el) return ["missing " + sel];
        const r = el.getBoundingClientRect(), found = [];
        for (const fx of [0.05, 0.5, 0.95]) for (const fy of [0.1, 0.5, 0.9]) {
            const x = r.left + r.width * fx, y = r.top + r.height * fy;
            const top = document.elementFromPoint(x, y);
            if (top && !el.contains(top) && !top.contains(el)) found.push(top.tagName + "." + top.className);
        }
        return found; }""", selector)


def _checks(page, size) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"], f"the page is {width} px wide"
    cut = page.evaluate("""() => [...document.querySelectorAll('.tv-lines li')]
        .filter(li => li.scrollWidth > li.clientWidth + 1).map(li => li.textContent)""")
    assert not cut, cut


@pytest.mark.parametrize("screen", SCREENS)
def test_the_table_screen_for_six_during_a_fight_and_at_the_end(server, browser, screen):
    size = SCREENS[screen]
    table, ids = _evening(server)
    context = browser.new_context(viewport=size)
    try:
        page = context.new_page()
        page.set_default_timeout(8000)
        page.goto(f"{server.url}/games/{table.code}/table")
        expect(page.locator("#tv-fight")).to_be_visible()
        expect(page.locator(".big-table li")).to_have_count(6)
        _checks(page, size)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"table-six-fight-{screen}.png"))
        # Beside the fight, "Latest" keeps its lines (the join QR steps down meanwhile).
        whole, lines = page.evaluate("""() => { const box = document.querySelector('.tv-lines').getBoundingClientRect();
            const lines = [...document.querySelectorAll('.tv-lines li')];
            return [lines.filter(li => li.getBoundingClientRect().bottom <= box.bottom + 1).length, lines.length]; }""")
        assert whole == lines, f"{whole} of the {lines} lines of Latest whole beside the fight"

        # Ann wins: the fight is over, and the game.
        table.act(ids["Ann"], {"type": "resolve"})
        table.act(ids["Ann"], {"type": "close_fight"})
        level = table.state()["players"][0]["level"]
        table.act(ids["Ann"], {"type": "level", "player": ids["Ann"], "delta": 9 - level})
        table.act(ids["Ann"], {"type": "fight", "player": ids["Ann"], "monster": RAT})
        table.act(ids["Ann"], {"type": "resolve"})
        expect(page.locator(".tv .winner")).to_be_visible(timeout=10_000)
        page.screenshot(path=str(ARTIFACTS / f"table-six-end-{screen}.png"))
        _checks(page, size)
        race = page.locator(".tv-race svg").bounding_box()
        assert race["height"] >= size["height"] / 3, f"the race is {race['height']} px high"
        legend = page.locator(".tv-race .race-words")
        box = legend.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], box
        assert not _not_covered(page, ".tv-race .race-words"), _not_covered(page, ".tv-race .race-words")
        # Six series, six colours, six end markers' shapes and fills, none the win line's colour.
        looks = page.evaluate("""() => [...document.querySelectorAll('.tv-race .race-line')].map(g => {
            const line = getComputedStyle(g.querySelector('polyline')), mark = g.querySelector('.race-marker');
            return [line.stroke, line.strokeDasharray, mark.tagName + (mark.classList.contains('hollow') ? '-hollow' : '')
                    + (mark.getAttribute('points') || '').split(' ').length]; })""")
        assert len(looks) == 6
        assert len({look[0] for look in looks}) == 6 and len({(look[1], look[2]) for look in looks}) == 6, looks
        win = page.evaluate("getComputedStyle(document.querySelector('.tv-race .race-win')).stroke")
        assert win not in {look[0] for look in looks}
    finally:
        context.close()
