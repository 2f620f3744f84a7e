"""Undo in reach on two phones: the toast of a tap keeps its Undo until the next change by
anyone (its Undo would then take back that change instead), and "Undo" in the log names the
change and shows only on the phone that may take it back."""

from __future__ import annotations

from playwright.sync_api import expect

from .helpers import Table


PHONE = {"width": 360, "height": 740}
LIVE_MS = 10_000


def test_the_undo_toast_goes_with_the_next_change_and_undo_names_the_change(server, phones):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female")
    bob = table.seat("Bob", "male")
    ann_phone, bob_phone = phones(2, viewport=PHONE)
    table.open(ann_phone, ann)
    table.open(bob_phone, bob)
    ann_phone.get_by_role("button", name="+1 Level up").click()
    toast = ann_phone.locator("#notice .toast")
    expect(toast.get_by_role("button", name="Undo")).to_be_visible()
    ann_phone.locator('.tabbar a[data-tab="table"]').click()
    expect(ann_phone.locator("#undo-last")).to_contain_text("Undo: Ann: level 1 to 2")
    bob_phone.locator('.tabbar a[data-tab="table"]').click()
    expect(bob_phone.locator("#undo-last")).to_have_count(0)
    # Bob's tap is the next change: Ann's toast goes, and the log's Undo moves to Bob.
    bob_phone.get_by_role("button", name="+1 Level up").click()
    expect(toast).to_have_count(0, timeout=LIVE_MS)
    expect(ann_phone.locator("#undo-last")).to_have_count(0, timeout=LIVE_MS)
    expect(bob_phone.locator("#undo-last")).to_contain_text("Undo: Bob: level 1 to 2")
