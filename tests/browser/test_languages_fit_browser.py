"""No page wider than the screen in any language: the table screen during a fight at a phone's
360 px and a laptop's 1280 px, and a phone's game page, in each of the nine languages (the
German table screen once ran 380 px wide on a 360 px phone: "KAMPFSTÄRKE")."""

from __future__ import annotations

import pytest

from companion.web.languages import LANGUAGES

from .helpers import Table


SIZES = ({"width": 360, "height": 740}, {"width": 1280, "height": 720})
WIDEST = ("Array.from(document.querySelectorAll('body *'))"
          ".filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)"
          ".map(e => e.tagName + '.' + e.className).slice(0, 5)")


@pytest.fixture(scope="module")
def fighting(server):
    table = Table(server, "classic")
    anna = table.seat("Anna", "female", "classic/leather-armor")
    for name, sex in (("Boris", "male"), ("Dmitri", "male"), ("Eva", "female")):
        table.seat(name, sex)
    table.act(anna, {"type": "fight", "player": anna,
                     "monster": "classic/unspeakably-awful-indescribable-horror"})
    return table, anna


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_no_page_is_wider_than_the_screen_in_any_language(browser, server, fighting, lang):
    table, anna = fighting
    context = browser.new_context(viewport=SIZES[0])
    try:
        context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
        page = context.new_page()
        for size in SIZES:  # one phone's context, resized to the laptop's
            page.set_viewport_size(size)
            page.goto(f"{server.url}/games/{table.code}/table")
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], \
                (lang, size, page.evaluate(WIDEST))
        page.set_viewport_size(SIZES[0])
        table.open(page, anna, f"/games/{table.code}?tab=fight")
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[0]["width"], \
            (lang, "phone", page.evaluate(WIDEST))
    finally:
        context.close()
