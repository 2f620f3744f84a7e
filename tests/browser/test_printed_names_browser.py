"""A German, a Russian and a Polish table find a card of their hand by the name printed on it
(cards/translations/names), at a phone's size: the lookup finds it as typed (a letter off
too), the card page heads with the printed name and gives the English one beside it, and the
fight and the log then say the printed name."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import ARTIFACTS, PHONE
from .helpers import Table

LIVE_MS = 5000

# (language, what the player types, the card, its printed name, its English name, a word of
# that language's fight heading, the log line's start)
TABLES = [
    ("de", "sabernder schleim", "classic/drooling-slime", "Sabbernder Schleim", "Drooling Slime"),
    ("ru", "сочащаяся слиз", "classic/drooling-slime", "Сочащаяся слизь", "Drooling Slime"),
    ("pl", "3872 orki", "classic/3872-orcs", "3872 orki", "3,872 Orcs"),
]


@pytest.mark.parametrize("lang, typed, card_id, printed, english", TABLES, ids=[t[0] for t in TABLES])
def test_a_table_finds_its_card_by_the_printed_name_and_fights_it_under_that_name(
        server, phones, lang, typed, card_id, printed, english):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female", level=9)
    (phone,) = phones(1, viewport=PHONE)
    phone.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
    table.open(phone, ann, f"/cards?game={table.code}")

    phone.locator("#card-q").fill(typed)
    found = phone.locator(f'#table-cards a[href^="/cards/{card_id}"]')
    expect(phone.locator("#table-cards li")).to_have_count(1)  # the search answered: one card
    expect(found).to_have_text(printed)
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / f"printed-names-{lang}-1-lookup-360x740.png"), full_page=True)

    found.click()
    expect(phone.locator("h1")).to_have_text(printed)
    expect(phone.locator("#card-english-name [lang=en]")).to_have_text(english)
    # Ann kicked the door open: the source offered first is the door.
    expect(phone.locator('#card-source input[value="door"]')).to_be_checked()
    phone.screenshot(path=str(ARTIFACTS / f"printed-names-{lang}-2-card-360x740.png"), full_page=True)
    phone.locator("#card-actions button.primary").first.click()

    expect(phone.locator("#fight-h")).to_contain_text(printed, timeout=LIVE_MS)
    expect(phone.locator("#fight-h")).not_to_contain_text(english)
    phone.locator('.tabbar a[data-tab="table"]').click()
    expect(phone.locator(".log li").first).to_contain_text(printed)
    phone.screenshot(path=str(ARTIFACTS / f"printed-names-{lang}-3-fight-360x740.png"), full_page=True)
    assert table.state()["players"][0]["hand"] == 4  # from the door: the hand kept its cards
