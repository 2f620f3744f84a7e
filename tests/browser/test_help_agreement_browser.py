"""Help the way a table plays it (every edition, Asking For Help), on phones: a player who
offers to help waits for the fighter's yes; the fighter turns one offer down and accepts
another, and each volunteer's phone says what the fighter chose. Against the Gazebo nobody can
be asked at all, and the phones say why. A Cleric facing the Wannabe Vampire chooses whether
to chase it away."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import shot
from .helpers import Table

LIVE_MS = 5000
OGRE = {"kind": "monster", "name": "Ogre", "level": 6, "treasures": 2}


def test_help_offered_waits_for_the_fighters_yes_and_each_volunteer_hears_the_answer(server, phones):
    table = Table(server, "classic")
    dmitri = table.seat("Dmitri", "male", level=2)
    eva = table.seat("Eva", "female", level=3)
    boris = table.seat("Boris", "male", level=5)
    table.act(dmitri, {"type": "fight", "player": dmitri, "monster": OGRE})
    dmitri_phone, eva_phone, boris_phone = phones(3)
    table.open(dmitri_phone, dmitri)
    table.open(eva_phone, eva)
    table.open(boris_phone, boris)

    # Eva offers to help: the fight does not change; Dmitri is asked.
    eva_phone.get_by_role("button", name="Offer to help").click()
    expect(eva_phone.locator("#calls")).to_contain_text("You offered to help Dmitri: waiting for a yes.")
    call = dmitri_phone.locator("#calls .call", has_text="Eva offers to help you.")
    expect(call).to_be_visible(timeout=LIVE_MS)
    expect(dmitri_phone.locator("#fight-h")).not_to_contain_text("Eva")
    shot(dmitri_phone, "help-agreement-01-asked")

    # Dmitri turns Eva down; her phone says so.
    call.get_by_role("button", name="Turn it down").click()
    expect(eva_phone.locator("#calls")).to_contain_text("Dmitri turned your help down.", timeout=LIVE_MS)
    expect(dmitri_phone.locator("#fight-h")).not_to_contain_text("Eva")

    # Boris offers; Dmitri accepts: now it is Dmitri + Boris on every phone.
    boris_phone.get_by_role("button", name="Offer to help").click()
    call = dmitri_phone.locator("#calls .call", has_text="Boris offers to help you.")
    call.get_by_role("button", name="Accept the help").click()
    for phone in (dmitri_phone, eva_phone, boris_phone):
        expect(phone.locator("#fight-h")).to_contain_text("Dmitri + Boris", timeout=LIVE_MS)
    log = [e["text"] for e in table.state()["log"]][-4:]
    assert "Dmitri accepts the help of Boris" in log[-1]
    shot(boris_phone, "help-agreement-02-helping")


def test_against_the_gazebo_nobody_can_be_asked_and_the_phones_say_why(server, phones):
    table = Table(server, "classic")
    dmitri = table.seat("Dmitri", "male", level=2)
    boris = table.seat("Boris", "male", level=7)
    table.act(dmitri, {"type": "fight", "player": dmitri, "monster": "classic/gazebo"})
    dmitri_phone, boris_phone = phones(2)
    table.open(dmitri_phone, dmitri)
    table.open(boris_phone, boris)
    dmitri_phone.locator('.tabbar a[data-tab="fight"]').click()
    row = dmitri_phone.locator(f'#helpers li[data-helper="{boris}"]')
    expect(row).to_contain_text("nobody may help against Gazebo")
    expect(row.get_by_role("button")).to_have_count(0)  # no offer, no bribe
    expect(row).not_to_contain_text("would win")
    expect(boris_phone.get_by_role("button", name="Offer to help")).to_have_count(0)
    expect(dmitri_phone.get_by_role("link", name="Ask for help")).to_have_count(0)
    shot(dmitri_phone, "help-agreement-03-gazebo")


def test_a_cleric_chooses_to_chase_the_wannabe_vampire_away(server, phones):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female", "classic/cleric", level=3)
    table.seat("Bob")
    table.act(ann, {"type": "fight", "player": ann, "monster": "classic/wannabe-vampire"})
    (phone,) = phones(1)
    table.open(phone, ann)
    phone.locator('.tabbar a[data-tab="fight"]').click()
    # Not taken for her: the vampire is still in the fight until she chooses.
    expect(phone.locator("#monsters")).not_to_contain_text("removed from the fight")
    expect(phone.locator("#monsters")).to_contain_text("or fight it for the level")
    shot(phone, "help-agreement-04-cleric-chooses")
    phone.get_by_role("button", name="Chase Wannabe Vampire away").click()
    expect(phone.locator("#monsters")).to_contain_text("removed from the fight", timeout=LIVE_MS)
    assert table.state()["combat"]["monsters"][0]["gone"] is True
