"""What the game tells a player on her phone at 360 px, as a call in the sticky header: a curse
someone else played on her and what it did (dismissed with OK), and a help someone else named
her for, with the way out where the engine allows it."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import ARTIFACTS
from .helpers import Table

PHONE = {"width": 360, "height": 740}


def test_a_cursed_player_and_a_named_helper_are_told_on_their_phones(server, phones):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female", level=4)
    bob = table.seat("Bob", "male")
    ann_phone, bob_phone = phones(2, viewport=PHONE)
    table.open(ann_phone, ann)
    table.open(bob_phone, bob)

    table.act(bob, {"type": "play", "player": ann, "card": "classic/duck-of-doom"})
    call = ann_phone.locator('#calls [data-call^="cursed-"]')
    expect(call).to_contain_text("Ann is cursed: Duck of Doom")
    expect(ann_phone.locator("#my-level")).to_have_text("2")
    ARTIFACTS.mkdir(exist_ok=True)
    ann_phone.screenshot(path=str(ARTIFACTS / "calls-01-cursed-360.png"))
    call.get_by_role("button", name="OK").click()
    expect(call).to_be_hidden()

    table.act(ann, {"type": "fight", "player": ann, "monster": {"kind": "monster", "name": "Ogre", "level": 9}})
    table.act(ann, {"type": "help", "player": bob})  # Ann names Bob
    named = bob_phone.locator('#calls [data-call^="named-helper-"]')
    expect(named).to_contain_text("You help Ann in this fight.")
    bob_phone.screenshot(path=str(ARTIFACTS / "calls-02-named-helper-360.png"))
    expect(ann_phone.locator('#calls [data-call^="named-helper-"]')).to_have_count(0)
