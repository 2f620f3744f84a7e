"""Running away explained (issue 25, item 3), on a phone: the roll needed says what makes it
up (the bare roll, the Halfling's penalty, the monster's bonus); a failed roll waits for the
Halfling's second try, which is offered right then and rolls again; a failed roll is not
shown with a check mark."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import ARTIFACTS
from .test_sheet_browser import Table

PHONE = {"width": 360, "height": 740}


def test_a_halfling_sees_why_it_needs_a_roll_and_gets_its_second_try(server, phones):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female", "classic/halfling")
    table.seat("Bob", "male")
    table.act(ann, {"type": "set_hand", "player": ann, "count": 2})
    table.act(ann, {"type": "fight", "player": ann, "monster": {
        "kind": "monster", "name": "Slow Snail", "level": 12, "treasures": 3,
        "effects": [{"stat": "run_away", "value": 1}]}})
    table.act(ann, {"type": "resolve"})
    (phone,) = phones(1, viewport=PHONE)
    table.open(phone, ann, f"/games/{table.code}?tab=fight")

    row = phone.locator(f'#escapes li[data-escape="{ann}-0"]')
    # 5, the Halfling's -1 and the monster's +1: needs 5+.
    expect(row).to_contain_text("needs 5+")
    parts = row.locator(".escape-parts")
    expect(parts).to_contain_text("Bare roll to escape 5+")
    expect(parts).to_contain_text("Halfling -1")
    expect(parts).to_contain_text("Slow Snail +1")

    # A 2 fails: the catch waits for the second try, offered now; the fight is still on.
    row.get_by_label("Real die result").select_option("2")
    row.get_by_role("button", name="I rolled this").click()
    expect(row).to_contain_text("caught, unless a second try rolls again")
    expect(phone.locator("#fight-result")).to_have_count(0)
    toast = phone.locator("#notice .toast")
    expect(toast).to_contain_text("unless a second try")
    expect(toast.locator(".notice-message .icon-check")).to_have_count(0)
    toast.get_by_role("button", name="Dismiss").click()
    power = phone.locator("#tab-fight .powers .power:has-text('Second try')")
    expect(power.get_by_role("button")).to_be_visible()
    expect(row.get_by_role("button", name="No second try: take the Bad Stuff")).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "run-away-second-try.png"), full_page=True)

    # The second try, with a real die's 6: away.
    power.get_by_label("Real die result").select_option("6")
    power.get_by_role("button").click()
    expect(phone.locator("#notice")).to_contain_text("the failed roll is rolled again")
    expect(phone.locator("#notice")).to_contain_text("rolls 6 against Slow Snail (needs 5): escapes")
    expect(phone.locator("#fight-result")).to_contain_text("Ann got away")
    assert table.state()["players"][0]["hand"] == 1
