"""A fight fits a phone: while a fight is on, the screen holds the fight and
this player's moves and everything else folds away; nothing is said twice (the won fight's
result is in the panel, the toast only offers Undo); the "Your turn: kick open the door" call
leaves when the door is kicked open, does not come back once the fight is cleared, and is not
shown to a dead player."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import ARTIFACTS
from .helpers import Table

PHONE = {"width": 360, "height": 740}


def screen(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"fight-fits-{name}.png"))


def test_a_fight_holds_the_screen_and_the_turn_call_leaves_with_the_door(server, phones):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female", {"kind": "item", "name": "Big Club", "bonus": 6, "slot": "2-hands"}, level=3)
    table.seat("Bob", "male")
    (phone,) = phones(1, viewport=PHONE)
    table.open(phone, ann)
    call = phone.locator(".call[data-call^=turn]")
    expect(call).to_contain_text("Kick open the door")
    ask, box = phone.locator("#ask > summary"), phone.get_by_role("search")
    expect(ask).to_be_visible()  # the ask box, folded into one button in the top bar
    expect(box).to_be_hidden()

    # Ann kicks open the door: a level 4 monster, typed in.
    phone.locator('.tabbar a[data-tab="fight"]').click()
    phone.locator("#start-fight summary").click()
    phone.get_by_label("Monster name").fill("Gazebo")
    phone.get_by_label("Level", exact=True).fill("4")
    phone.get_by_role("button", name="Fight").click()
    expect(phone.locator("#fight-h")).to_contain_text("Ann vs Gazebo")
    # The call is gone, and the ask box stays folded.
    expect(call).to_have_count(0)
    expect(box).to_be_hidden()
    # The fight and Ann's move in it are all in the screen, above the tab bar.
    resolve = phone.get_by_role("button", name="Resolve the fight")
    for part in (phone.locator("#players-strength"), phone.locator("#monsters-strength"),
                 phone.locator("#verdict"), resolve):
        expect(part).to_be_in_viewport(ratio=1)
    tabbar_top = phone.locator(".tabbar").bounding_box()["y"]
    box = resolve.bounding_box()
    assert box["y"] + box["height"] <= tabbar_top, (box, tabbar_top)
    screen(phone, "fight")

    # A win: the result is in the panel; the toast does not say it again, it offers Undo.
    resolve.click()
    result = phone.locator("#fight-result")
    expect(result).to_contain_text("Ann wins (9 against 4)")
    toast = phone.locator("#notice .toast")
    expect(toast.get_by_role("button", name="Undo")).to_be_visible()
    expect(toast).not_to_contain_text("Ann wins")
    screen(phone, "won")
    toast.get_by_role("button", name="Dismiss").click()

    # Cleared: the fight folds away, the ask button is still there, and the door call stays gone.
    phone.get_by_role("button", name="Clear the fight").click()
    expect(phone.locator("#fight-now")).to_have_count(0)
    expect(ask).to_be_visible()
    expect(call).to_have_count(0)


def test_a_dead_player_is_not_told_to_kick_open_the_door(server, phones):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female")
    table.seat("Bob", "male")
    (phone,) = phones(1, viewport=PHONE)
    table.open(phone, ann)
    call = phone.locator(".call[data-call^=turn]")
    expect(call).to_contain_text("Kick open the door")
    table.act(ann, {"type": "die", "player": ann})
    expect(phone.locator("#hud .hud-name")).to_contain_text("dead: Ann")  # beside the skull icon
    expect(phone.locator("#hud .hud-name .icon-skull")).to_be_visible()
    expect(call).to_have_count(0)
