"""Answers out of order on two phones: the reply to Ann's own tap comes back after the live
update for Bob's newer change. Ann's phone keeps the newer version (the older reply is not put
in #live), while the reply's out-of-band toast is still delivered."""

from __future__ import annotations

from playwright.sync_api import expect

from .helpers import Table, tab

PHONE = {"width": 360, "height": 740}
LIVE_MS = 10_000

# Every undo toast put in #notice, by the version it was answered at (its tap's own version).
TOASTS_SEEN = """window.toastsSeen = [];
new MutationObserver(function (changes) {
  changes.forEach(function (change) {
    change.addedNodes.forEach(function (node) {
      if (node.nodeType !== 1) return;
      var toast = node.matches(".toast") ? node : node.querySelector(".toast");
      if (toast && toast.closest("#notice")) window.toastsSeen.push(toast.dataset.version);
    });
  });
}).observe(document, {childList: true, subtree: true});"""


def test_a_late_reply_to_a_tap_does_not_undo_a_newer_change_on_screen(server, phones):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female")
    bob = table.seat("Bob", "male")
    start = table.state()["version"]
    ann_phone, bob_phone = phones(2, viewport=PHONE)
    ann_phone.add_init_script(TOASTS_SEEN)
    # Ann's tap reaches the server at once, but its answer is held until Bob's newer change is
    # on her screen: the race two taps a few hundred ms apart make, without its timing.
    held = []
    ann_phone.route(f"**/games/{table.code}/act", lambda route: held.append((route, route.fetch())))
    table.open(ann_phone, ann)
    table.open(bob_phone, bob)
    for phone in (ann_phone, bob_phone):
        expect(phone.locator("body")).to_have_attribute("data-connection", "live")
    tab(ann_phone, "table")
    ann_live = ann_phone.locator("#live .live")

    ann_phone.get_by_role("button", name="+1 Level up").click()
    # Her change is in the game (Bob's phone hears of it) while its answer is still held.
    expect(bob_phone.locator("#live .live")).to_have_attribute("data-version", str(start + 1), timeout=LIVE_MS)
    bob_phone.get_by_role("button", name="+1 Level up").click()
    expect(ann_live).to_have_attribute("data-version", str(start + 2), timeout=LIVE_MS)
    assert len(held) == 1
    route, answer = held[0]
    route.fulfill(response=answer)

    # The late answer was taken in: its toast (of her tap, at its version) reached #notice...
    ann_phone.wait_for_function(f"() => window.toastsSeen.includes('{start + 1}')")
    # ...but the screen still shows the game as it is now, Bob's change with hers.
    game = table.state()
    assert game["version"] == start + 2
    expect(ann_live).to_have_attribute("data-version", str(game["version"]))
    expect(ann_phone.locator(f'#players li[data-player="{bob}"] .level')).to_have_text("2")
    expect(ann_phone.locator(f'#players li[data-player="{ann}"] .level')).to_have_text("2")
    expect(ann_phone.locator("#my-level")).to_have_text("2")
    # Her toast's Undo would now take back Bob's change: it goes, as with any newer change.
    expect(ann_phone.locator("#notice .toast")).to_have_count(0)
