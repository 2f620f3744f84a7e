"""A table that rolls real dice enters every die on the phone: running away from a monster
whose Bad Stuff rolls a die too (3,872 Orcs: a 1 or 2 kills, any other roll costs that many
levels) offers that die beside the run-away roll, and the app rolls it only when left to."""

from __future__ import annotations

from playwright.sync_api import expect

from .helpers import Table

PHONE = {"width": 360, "height": 740}
SNAIL = {"kind": "monster", "name": "Slow Snail", "level": 12, "treasures": 3}


def _running_from(server, phones, monster):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female", level=6)
    table.seat("Bob", "male")
    table.act(ann, {"type": "fight", "player": ann, "monster": monster})
    table.act(ann, {"type": "resolve"})  # losing: she gives up and runs
    (phone,) = phones(1, viewport=PHONE)
    table.open(phone, ann, f"/games/{table.code}?tab=fight")
    return table, ann, phone


def test_the_real_die_for_the_orcs_bad_stuff_is_entered_with_the_run_away_roll(server, phones):
    table, ann, phone = _running_from(server, phones, "classic/3872-orcs")
    row = phone.locator(f'#escapes li[data-escape="{ann}-0"]')
    row.get_by_label("Real die result").select_option("2")
    row.get_by_label("Bad Stuff die, if caught").select_option("4")
    row.get_by_role("button", name="I rolled this").click()
    expect(phone.locator("#notice")).to_contain_text("the Bad Stuff die shows 4")
    expect(phone.locator("#my-level")).to_have_text("2")
    assert table.state()["players"][0]["level"] == 2


def test_a_bad_stuff_without_a_die_asks_for_none(server, phones):
    table, ann, phone = _running_from(server, phones, SNAIL)
    row = phone.locator(f'#escapes li[data-escape="{ann}-0"]')
    expect(row.get_by_label("Real die result")).to_be_visible()
    expect(row.get_by_label("Bad Stuff die, if caught")).to_have_count(0)
