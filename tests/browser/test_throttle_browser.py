"""A seat that taps faster than anyone plays: the page says so in a toast that goes
by itself once the wait is over, and the tap changed nothing."""

from __future__ import annotations

import requests
from playwright.sync_api import expect

from .helpers import Table


LEVEL_DOWN_TRIES = 400  # more than the default per-seat budget (300 a minute)


def test_a_throttled_tap_shows_a_toast_that_goes_by_itself(server, phones):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female")
    (phone,) = phones(1)
    table.open(phone, ann)
    expect(phone.locator("#my-level")).to_be_visible()
    # A script in Ann's seat uses up her budget (taps the rules refuse count all the same).
    with requests.Session() as script:
        for _ in range(LEVEL_DOWN_TRIES):
            r = script.post(f"{server.url}/api/games/{table.code}/actions", timeout=10,
                            json={"type": "level", "player": ann, "delta": -1},
                            headers={"Authorization": f"Bearer {table.tokens[ann]}"})
            if r.status_code == 429:
                break
    assert r.status_code == 429
    phone.get_by_role("button", name="Level up").click()
    toast = phone.locator("#notice .notice")
    expect(toast).to_contain_text("Too many changes from this seat")
    expect(toast).to_be_in_viewport()
    expect(toast).to_have_count(0, timeout=12000)  # gone by itself (at most 8 s)
    assert table.state()["players"][0]["level"] == 1
