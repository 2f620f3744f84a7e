"""Running away explained, on a phone: the roll needed says what makes it
up (the bare roll, the Halfling's penalty, the monster's bonus); a failed roll is not shown with
a check mark. The classic Halfling follows the printing the table plays (ruling
``halfling-printing``): the box's -1 to run away and no second try, or the current card's
second try, offered right after a failed roll, and no penalty."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import ARTIFACTS
from .helpers import Table

PHONE = {"width": 360, "height": 740}


SLOW_SNAIL = {"kind": "monster", "name": "Slow Snail", "level": 12, "treasures": 3,
              "effects": [{"stat": "run_away", "value": 1}]}


def _halfling_running(server, phones, **fields):
    table = Table(server, "classic", **fields)
    ann = table.seat("Ann", "female", "classic/halfling")
    table.seat("Bob", "male")
    table.act(ann, {"type": "set_hand", "player": ann, "count": 2})
    table.act(ann, {"type": "fight", "player": ann, "monster": SLOW_SNAIL})
    table.act(ann, {"type": "resolve"})
    (phone,) = phones(1, viewport=PHONE)
    table.open(phone, ann, f"/games/{table.code}?tab=fight")
    return table, ann, phone


def test_the_box_halfling_runs_at_minus_one_and_a_failed_roll_is_caught(server, phones):
    table, ann, phone = _halfling_running(server, phones)
    row = phone.locator(f'#escapes li[data-escape="{ann}-0"]')
    # 5, the Halfling's -1 and the monster's +1: needs 5+.
    expect(row).to_contain_text("needs 5+")
    parts = row.locator(".escape-parts")
    expect(parts).to_contain_text("Bare roll to escape 5+")
    expect(parts).to_contain_text("Halfling -1")
    expect(parts).to_contain_text("Slow Snail +1")
    expect(phone.locator("#tab-fight .powers .power:has-text('Second try')").get_by_role("button")).to_have_count(0)
    row.get_by_label("Real die result").select_option("2")
    row.get_by_role("button", name="I rolled this").click()
    expect(phone.locator("#notice")).to_contain_text("rolls 2 against Slow Snail (needs 5): caught!")
    expect(phone.locator("#notice")).not_to_contain_text("unless a second try")


def test_a_halfling_sees_why_it_needs_a_roll_and_gets_its_second_try(server, phones):
    # The current Halfling card: no penalty, and a second try after a failed roll.
    table, ann, phone = _halfling_running(server, phones, variants={"official_updates": True})
    row = phone.locator(f'#escapes li[data-escape="{ann}-0"]')
    # 5 and the monster's +1: needs 4+ (the current card has no -1).
    expect(row).to_contain_text("needs 4+")
    parts = row.locator(".escape-parts")
    expect(parts).to_contain_text("Bare roll to escape 5+")
    expect(parts).not_to_contain_text("Halfling -1")
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
    expect(phone.locator("#notice")).to_contain_text("rolls 6 against Slow Snail (needs 4): escapes")
    expect(phone.locator("#fight-result")).to_contain_text("Ann got away")
    assert table.state()["players"][0]["hand"] == 1
