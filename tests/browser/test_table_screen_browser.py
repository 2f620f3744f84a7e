"""The host sits down from the start page in one step; a laptop at 1280x720 in the middle of the
table shows everyone's level and strength in big type, the fight with both totals (live), the
level race, and at the end a link to the summary."""

from __future__ import annotations

import requests
from playwright.sync_api import expect

from .conftest import ARTIFACTS, PHONE
from .helpers import BLOCKING, violations

LAPTOP = {"width": 1280, "height": 720}


def _font_px(locator) -> list[float]:
    return locator.evaluate_all("els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")


def _inside(page, locator) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    return (box is not None and box["x"] >= 0 and box["y"] >= 0
            and box["x"] + box["width"] <= size["width"] and box["y"] + box["height"] <= size["height"])


def test_the_table_screen_at_1280x720_shows_levels_and_the_fight_from_two_metres(server, browser):
    # The phone also scans the summary with axe-core, which the pages' CSP would block.
    phone_context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True)
    laptop_context = browser.new_context(viewport=LAPTOP)
    try:
        phone, laptop = phone_context.new_page(), laptop_context.new_page()
        for page in (phone, laptop):
            page.set_default_timeout(8000)

        # Ann starts the game on her phone with her name: she sits down at once, and lands on
        # the invite, her sheet one tap on.
        phone.goto(server.url + "/")
        phone.get_by_label("Current official rulings").check()
        phone.get_by_label("Your name").fill("Ann")
        phone.get_by_label("female").check()
        phone.get_by_role("button", name="New game").click()
        phone.wait_for_url("**/games/*/host")
        code = phone.url.rstrip("/").rsplit("/", 2)[1]
        phone.get_by_role("link", name="Open my sheet").click()
        phone.wait_for_url(f"**/games/{code}")
        cookies = {c["name"]: c["value"] for c in phone_context.cookies()}
        ann_token = cookies[f"seat_{code}"]
        api = f"{server.url}/api/games/{code}"
        state = requests.get(api).json()
        assert [p["name"] for p in state["players"]] == ["Ann"]
        assert state["variants"] == {"official_updates": True}
        ann = state["players"][0]["id"]

        bob = requests.post(f"{api}/players", json={"name": "Bob", "sex": "male"}).json()
        cid = requests.post(f"{api}/players", json={"name": "Cid", "sex": "male"}).json()

        def act(token, action):
            r = requests.post(f"{api}/actions", json=action, headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 200, r.text

        act(ann_token, {"type": "level", "player": ann, "delta": 2})
        act(bob["token"], {"type": "level", "player": bob["player_id"], "delta": 1})

        laptop.goto(f"{server.url}/games/{code}/table")
        board = laptop.locator(".tv .big-table")
        expect(board.locator("li.turn .name")).to_have_text("Ann")
        numbers = board.locator(".num")
        expect(numbers).to_have_count(6)
        sizes = _font_px(numbers)
        assert min(sizes) >= 48, sizes
        turn_sizes = _font_px(board.locator("li.turn .num"))
        assert min(turn_sizes) > max(_font_px(board.locator("li:not(.turn) .num"))), "the turn is the largest"
        expect(laptop.locator(".qr svg")).to_be_visible()
        assert _inside(laptop, laptop.locator(".tv-join .qr"))

        # Ann fights: the laptop shows it without a reload, both totals and who leads by how much.
        act(ann_token, {"type": "fight", "player": ann,
                        "monster": {"kind": "monster", "name": "Ogre", "level": 6}})
        fight = laptop.locator("#tv-fight")
        expect(fight).to_contain_text("Ogre", timeout=3000)
        expect(laptop.locator("#tv-players-strength")).to_have_text("3")
        expect(laptop.locator("#tv-monsters-strength")).to_have_text("6")
        expect(laptop.locator("#tv-verdict")).to_contain_text("Monsters win by 3")
        assert min(_font_px(fight.locator(".num"))) >= 48
        assert _inside(laptop, fight)
        expect(laptop.locator(".tv-lines li").first).to_contain_text("Ann fights Ogre")
        expect(laptop.locator("#tv-race svg[role=img] title")).to_have_text(
            "Level race: each player's level over the game")
        expect(laptop.locator("#tv-race .race-words")).to_contain_text("Ann: 1 → 3")

        act(cid["token"], {"type": "one_shot", "side": "players",
                           "card": {"kind": "one-shot", "name": "Potion", "bonus": 5}})
        expect(laptop.locator("#tv-verdict")).to_contain_text("Players win by 2")
        ARTIFACTS.mkdir(exist_ok=True)
        laptop.screenshot(path=str(ARTIFACTS / "table-screen-1280x720.png"))  # what the table sees

        # The kill wins the game (level 9, then the kill): the table screen offers the summary.
        act(ann_token, {"type": "level", "player": ann, "delta": 6})
        act(ann_token, {"type": "resolve"})
        link = laptop.get_by_role("link", name="Game summary")
        expect(link).to_be_visible()
        # Ann's phone, still on her game page, says she won and links the same summary.
        expect(phone.locator(".winner #summary-link")).to_have_attribute("href", f"/games/{code}/summary")
        laptop.screenshot(path=str(ARTIFACTS / "table-screen-winner-1280x720.png"))
        link.click()
        laptop.wait_for_url("**/summary")
        expect(laptop.locator("#summary-winner")).to_contain_text("Ann")
        expect(laptop.locator('tr:has-text("Ann") td.kills')).to_have_text("1")
        expect(laptop.locator("#summary-race svg[role=img]")).to_be_visible()
        laptop.screenshot(path=str(ARTIFACTS / "summary-1280x720.png"), full_page=True)
        phone.goto(f"{server.url}/games/{code}/summary")
        expect(phone.locator('tr:has-text("Bob") td.level')).to_have_text("2")
        phone.screenshot(path=str(ARTIFACTS / "summary-360x740.png"), full_page=True)
        found = [v for v in violations(phone) if v["impact"] in BLOCKING]
        assert not found, found
    finally:
        phone_context.close()
        laptop_context.close()
