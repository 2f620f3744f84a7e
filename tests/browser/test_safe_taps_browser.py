"""Taps that cannot go wrong, on phones: the host watching someone else's
fight finds its moves apart, named for whose fight it is, and asked before they act; clearing
a fight that is not decided asks first and the log says what it was; a helper already helping
is not offered "Offer to help"; a declined bribe tells the fighter."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import ARTIFACTS
from .helpers import Table

PHONE = {"width": 360, "height": 740}
GAZEBO = {"kind": "monster", "name": "Gazebo", "level": 8, "treasures": 2}


def test_the_hosts_moves_in_another_seats_fight_sit_apart_and_ask_first(server, phones):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female")
    bob = table.seat("Bob", "male")
    table.act(ann, {"type": "fight", "player": ann, "monster": GAZEBO})
    host, = phones(1, viewport=PHONE)
    host.context.add_cookies([{"name": f"host_{table.code}", "value": table.host_token, "url": server.url}])
    table.open(host, bob)  # Bob's phone holds the host's cookie too
    expect(host.locator("#fight-h")).to_contain_text("Ann vs Gazebo")
    # None of Ann's own moves on top: they are folded under the host's moves, named for Ann.
    expect(host.get_by_role("button", name="Give up: run away")).to_have_count(0)
    moves = host.locator("#host-moves")
    expect(moves).to_contain_text("Host: moves in Ann's fight")
    clear = moves.get_by_role("button", name="Clear the fight")
    expect(clear).to_be_hidden()
    moves.locator("summary").click()
    expect(moves.get_by_role("button", name="Make Ann run away")).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    host.screenshot(path=str(ARTIFACTS / "safe-taps-host-moves.png"))

    # Clearing it asks first; said no, nothing happens.
    asked = []
    host.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    clear.click()
    expect(host.locator("#fight-now")).to_be_visible()
    assert asked and "before it is decided" in asked[0]
    assert table.state()["combat"] is not None
    # Said yes: cleared, and the log says it was undecided.
    host.once("dialog", lambda d: d.accept())
    clear.click()
    expect(host.locator("#fight-now")).to_have_count(0)
    host.locator('.tabbar a[data-tab="table"]').click()
    expect(host.locator(".log li").first).to_contain_text("clears an undecided fight")
    expect(host.locator("#notice .toast").get_by_role("button", name="Undo")).to_be_visible()


def test_a_helper_is_not_offered_to_help_again_and_a_declined_bribe_tells_the_fighter(server, phones):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female")
    bob = table.seat("Bob", "male")
    cid = table.seat("Cid", "male")
    table.act(ann, {"type": "fight", "player": ann, "monster": GAZEBO})
    ann_phone, cid_phone = phones(2, viewport=PHONE)
    table.open(ann_phone, ann)
    table.open(cid_phone, cid)

    # Ann offers Bob a treasure; Bob says no: Ann's phone says so.
    table.act(ann, {"type": "offer", "to": bob, "treasures": 1})
    table.act(bob, {"type": "decline_offer", "player": bob})
    declined = ann_phone.locator(".call[data-call^=declined]")
    expect(declined).to_contain_text("Bob declined your offer.")
    declined.get_by_role("button", name="OK").click()
    expect(declined).to_be_hidden()

    # Cid offers to help; while Ann decides his phone no longer offers it; Ann says yes.
    help_free = cid_phone.get_by_role("button", name="Offer to help")
    help_free.click()
    expect(cid_phone.locator("#calls")).to_contain_text("waiting for a yes")
    expect(help_free).to_have_count(0)
    expect(cid_phone.locator("#notice .toast").get_by_role("button", name="Undo")).to_be_visible()
    ann_phone.locator("#calls").get_by_role("button", name="Accept the help").click()
    expect(cid_phone.locator("#fight-h")).to_contain_text("Ann + Cid vs Gazebo", timeout=5000)
    expect(help_free).to_have_count(0)
