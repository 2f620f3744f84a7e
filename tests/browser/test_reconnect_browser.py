"""A phone that loses the network: it knows it is cut off and says so until
it is back; on reconnect it catches up at once, without a reload; a tap made while cut off is
never dropped: it waits on screen and is sent when the phone is back, or, when the game moved
meanwhile, asks before it is sent. Two phones, at a phone's size."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import shot
from .helpers import ann_and_bob


def open_live(table, page, name):
    """``name``'s phone opens the game and waits for its live stream; the page marks itself, so
    a reload would show (``still_same_page``)."""
    table.open(page, table.ids[name])
    expect(page.locator("#link-state")).to_have_attribute("data-state", "live")
    page.evaluate("() => { window.sameDocument = true }")  # gone if the page ever reloads


def level(table, name):
    return next(p["level"] for p in table.state()["players"] if p["id"] == table.ids[name])


def still_same_page(page):
    assert page.evaluate("() => window.sameDocument === true"), "the page reloaded"


def test_a_phone_back_online_shows_what_changed_meanwhile_and_sends_its_waiting_tap(server, phones):
    ann, bob = phones(2)
    t = ann_and_bob(server, fight=False)
    open_live(t, ann, "Ann")
    open_live(t, bob, "Bob")
    dot, banner = ann.locator("#link-state"), ann.locator("#connection")
    expect(banner).to_be_hidden()

    ann.context.set_offline(True)
    expect(dot).to_have_attribute("data-state", "lost")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Connection lost")
    # A tap while cut off waits on screen; nothing was sent.
    ann.get_by_role("button", name="Level up").click()
    waiting = ann.locator("#pending .pending-tap")
    expect(waiting).to_have_count(1)
    expect(waiting).to_contain_text("Level up")
    expect(waiting).to_contain_text("not sent yet")
    expect(ann.locator("#my-level")).to_have_text("1")
    shot(ann, "phone-offline-tap-waiting")
    assert level(t, "Ann") == 1

    # Back: the tap goes out by itself (the game is where it was), the indicator says so.
    ann.context.set_offline(False)
    expect(dot).to_have_attribute("data-state", "live")
    expect(ann.locator("#my-level")).to_have_text("2")
    expect(waiting).to_have_count(0)
    expect(ann.locator("#pending")).to_be_hidden()
    expect(banner).to_be_hidden()
    assert level(t, "Ann") == 2
    # ...and the other phone heard of it live.
    expect(bob.locator(".player-row[data-player='%d'] .level" % t.ids["Ann"])).to_have_text("2")

    # Cut off again; meanwhile Bob levels up on his phone, and Ann taps.
    ann.context.set_offline(True)
    expect(dot).to_have_attribute("data-state", "lost")
    bob.get_by_role("button", name="Level up").click()
    expect(bob.locator("#my-level")).to_have_text("2")
    ann.get_by_role("button", name="Level up").click()
    expect(waiting).to_have_count(1)

    # Back: Bob's change shows at once, without a reload; Ann's tap asks first, since the game
    # moved meanwhile, and goes out when she says so.
    ann.context.set_offline(False)
    ann.get_by_role("link", name="Table").click()
    expect(ann.locator(".player-row[data-player='%d'] .level" % t.ids["Bob"])).to_have_text("2")
    expect(waiting).to_contain_text("the game changed meanwhile")
    shot(ann, "phone-back-online-tap-asks")
    assert level(t, "Ann") == 2
    waiting.get_by_role("button", name="Send now").click()
    expect(waiting).to_have_count(0)
    expect(ann.locator("#my-level")).to_have_text("3")
    expect(ann.locator("#notice .toast")).to_contain_text("Undo")
    assert level(t, "Ann") == 3
    still_same_page(ann)


def test_a_waiting_tap_can_be_dropped(server, phones):
    (ann,) = phones(1)
    t = ann_and_bob(server, fight=False)
    open_live(t, ann, "Ann")
    ann.context.set_offline(True)
    expect(ann.locator("#link-state")).to_have_attribute("data-state", "lost")
    ann.get_by_role("button", name="Level up").click()
    waiting = ann.locator("#pending .pending-tap")
    expect(waiting).to_have_count(1)
    # The waiting tap covers neither the level nor the connection banner.
    box = ann.locator("#pending").bounding_box()
    expect(ann.locator("#connection")).to_be_visible()
    for shown in ("#my-level", "#connection"):
        other = ann.locator(shown).bounding_box()
        assert other and (box["y"] >= other["y"] + other["height"] or box["y"] + box["height"] <= other["y"]), shown
    waiting.get_by_role("button", name="Drop it").click()
    expect(waiting).to_have_count(0)
    expect(ann.locator("#pending")).to_be_hidden()
    ann.context.set_offline(False)
    expect(ann.locator("#link-state")).to_have_attribute("data-state", "live")
    expect(ann.locator("#my-level")).to_have_text("1")
    assert level(t, "Ann") == 1
    still_same_page(ann)


def test_a_stream_that_goes_silent_past_two_heartbeats_is_reopened(server, phones):
    """A wifi that drops without a word: no heartbeat for two heartbeats and the phone opens a
    new stream (the page's clock jumps ahead instead of the test waiting)."""
    (ann,) = phones(1)
    t = ann_and_bob(server, fight=False)
    streams = []
    ann.on("request", lambda r: streams.append(r.url) if "/events" in r.url else None)
    ann.clock.install()
    open_live(t, ann, "Ann")
    assert len(streams) == 1
    ann.clock.fast_forward(20_000)  # one heartbeat missed: not yet
    assert len(streams) == 1
    with ann.expect_request(lambda r: "/events" in r.url):
        ann.clock.fast_forward(20_000)  # two, and the margin
    expect(ann.locator("#link-state")).to_have_attribute("data-state", "live")
    # The new stream rings as the old one did.
    t.act(t.ids["Bob"], {"type": "level", "player": t.ids["Bob"], "delta": 1, "source": "adjust"})
    ann.get_by_role("link", name="Table").click()
    expect(ann.locator(".player-row[data-player='%d'] .level" % t.ids["Bob"])).to_have_text("2")
