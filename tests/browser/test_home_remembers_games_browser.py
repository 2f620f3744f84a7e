"""A phone remembers the games it sat at. Its seat and host cookies are all it keeps;
the home page lists the games they name that still exist (code, edition, the player's name and
level, whether the game is over) and takes the player back in with one tap."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import ARTIFACTS
from .helpers import Table, won


def test_the_home_page_takes_a_player_back_into_the_games_this_phone_sat_at(server, phones):
    playing = Table(server, "classic")
    ann = playing.seat("Ann", "female", level=3)
    over = Table(server, "tails")
    ann_again = over.seat("Ann", "female")
    won(over, ann_again)
    hosted = Table(server, "classic")  # a table this phone made without sitting down at it
    (phone,) = phones(1)
    url = server.url
    phone.context.add_cookies([
        {"name": f"seat_{playing.code}", "value": playing.tokens[ann], "url": url},
        {"name": f"seat_{over.code}", "value": over.tokens[ann_again], "url": url},
        {"name": f"host_{hosted.code}", "value": hosted.host_token, "url": url},
        {"name": "seat_GONE42", "value": "a-seat-in-a-game-that-is-no-more", "url": url},
    ])

    phone.goto(url + "/")
    games = phone.locator("#my-games li")
    expect(games).to_have_count(3)  # the game that is gone is not listed
    row = phone.locator(f'#my-games li[data-code="{playing.code}"]')
    expect(row).to_contain_text("Munchkin (classic)")
    expect(row).to_contain_text(re.compile(r"Ann\s*·\s*Level\s*3"))
    expect(row.locator(".tag")).to_have_count(0)
    finished = phone.locator(f'#my-games li[data-code="{over.code}"]')
    expect(finished).to_contain_text("Game over")
    expect(finished).to_contain_text(re.compile(r"Level\s*10"))
    expect(phone.locator(f'#my-games li[data-code="{hosted.code}"]')).to_contain_text("Host")
    expect(phone.locator("#my-games")).to_be_in_viewport()
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "home-remembered-games.png"))

    # One tap and Ann is back at her seat.
    phone.get_by_role("link", name=f"Back to the game {playing.code}").tap()
    phone.wait_for_url(f"**/games/{playing.code}")
    expect(phone.locator("#my-level")).to_have_text("3")

    # Home again: the game played last comes first (and is the one the installed app opens).
    phone.goto(url + "/")
    expect(games.first).to_have_attribute("data-code", playing.code)
    expect(games.first.get_by_role("link")).to_have_attribute("id", "last-game")
