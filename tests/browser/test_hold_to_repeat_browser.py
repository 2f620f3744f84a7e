"""Press and hold on a +/- button repeats, with a finger and with a mouse. A tap is one
step; a hold steps the number on screen on, stops where the engine would refuse (level 9 without
a kill, level 1, no cards in hand), and on release sends the final value once: one change, one
undo, and no extra step from the click a released button would otherwise make. Cut off, a hold
waits as one tap with its final value, like any tap."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .helpers import Table


# Every form this page submits, counted (a hold's change, and any click that slipped through).
COUNT_SUBMITS = "window.submits = 0; document.addEventListener('submit', function () { window.submits += 1; }, true);"


def center(page, locator) -> dict:
    box = locator.bounding_box()
    return {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}


class Finger:
    """A finger on the phone's screen, put down and lifted by the browser's own touch input."""

    def __init__(self, page):
        self.cdp = page.context.new_cdp_session(page)

    def down(self, point: dict) -> None:
        self.cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})

    def up(self) -> None:
        self.cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_holding_plus_or_minus_steps_on_and_sends_the_final_value_once(server, phones):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female")
    table.act(ann, {"type": "set_hand", "player": ann, "count": 3})
    (phone,) = phones(1)
    phone.add_init_script(COUNT_SUBMITS)
    table.open(phone, ann)
    level = phone.locator("#my-level")
    up, down = phone.get_by_role("button", name="Level up"), phone.get_by_role("button", name="Level down")
    expect(level).to_have_text("1")

    # A tap is one step, as before.
    up.tap()
    expect(level).to_have_text("2")
    assert table.state()["players"][0]["level"] == 2 and phone.evaluate("window.submits") == 1
    version = table.state()["version"]

    # A mouse held on +1: the level climbs to 9 and stops there (10 needs a kill); released,
    # one change goes, from 2 to 9.
    phone.mouse.move(**center(phone, up))
    phone.mouse.down()
    expect(up).to_have_class("round primary holding")
    expect(level).to_have_text("9")
    phone.mouse.up()
    expect(phone.locator("#notice .toast")).to_contain_text("level 2 to 9")
    assert table.state()["players"][0]["level"] == 9
    assert table.state()["version"] == version + 1 and phone.evaluate("window.submits") == 2
    expect(phone.locator("#notice [role=alert]")).to_have_count(0)  # nothing refused

    # A finger held on -1: down to 1 and no further; one change again, which one undo takes back.
    finger = Finger(phone)
    finger.down(center(phone, down))
    expect(level).to_have_text("1")
    finger.up()
    toast = phone.locator("#notice .toast")
    expect(toast).to_contain_text("level 9 to 1")
    assert table.state()["players"][0]["level"] == 1
    assert table.state()["version"] == version + 2 and phone.evaluate("window.submits") == 3
    toast.get_by_role("button", name="Undo").click()
    expect(level).to_have_text("9")

    # The cards in hand, held down with a finger: 3, 2, 1, 0, and one change to 0.
    fewer = phone.get_by_role("button", name="One card fewer in hand")
    fewer.scroll_into_view_if_needed()
    finger.down(center(phone, fewer))
    expect(phone.locator("#hand-count")).to_have_text("0")
    finger.up()
    expect(phone.locator("#notice .toast")).to_contain_text("Ann")
    assert table.state()["players"][0]["hand"] == 0
    assert phone.evaluate("window.submits") == 5  # the undo, and this one
    expect(fewer).to_have_count(0)  # no fewer than none

    # Cut off, a hold on the gear bonus waits as one tap with its final value (the click that
    # follows a released button adds no second one), the screen showing what was sent so far;
    # back online it goes by itself.
    phone.context.set_offline(True)
    expect(phone.locator("#link-state")).to_have_attribute("data-state", "lost")
    gear_up, gear = phone.get_by_role("button", name="Gear bonus up"), phone.locator("#my-gear")
    gear_up.scroll_into_view_if_needed()
    phone.mouse.move(**center(phone, gear_up))
    phone.mouse.down()
    expect(gear).to_have_text(re.compile(r"^\+([3-9]|\d\d)$"))
    phone.mouse.up()
    waiting = phone.locator("#pending .pending-tap")
    expect(waiting).to_have_count(1)
    expect(waiting).to_contain_text("Gear bonus up")
    expect(gear).to_have_text("+0")
    steps = int(waiting.locator('input[name="delta"]').input_value())
    assert steps >= 3
    phone.context.set_offline(False)
    expect(gear).to_have_text(f"+{steps}")
    expect(waiting).to_have_count(0)
    assert table.state()["players"][0]["gear_bonus"] == steps
