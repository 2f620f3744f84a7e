"""The quick calculator on a phone: every field recomputes the totals as it is typed
in (debounced, no submit), and the visible Compute button gives the same answer without
JavaScript."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import shot


def test_every_field_recomputes_and_the_button_works_without_javascript(server, browser, phones):
    (phone,) = phones(1)
    phone.goto(server.url + "/calculator")
    expect(phone.locator("#calc-players")).to_have_text("1")
    expect(phone.locator("#calc-monsters")).to_have_text("1")

    # A monster level typed in (not "your level"): the totals follow without a tap elsewhere.
    phone.get_by_label("Monster level").fill("8")
    expect(phone.locator("#calc-monsters")).to_have_text("8")
    expect(phone.locator("#calc-result")).to_contain_text("Monsters win")
    phone.get_by_label("Gear bonus").fill("6")
    expect(phone.locator("#calc-players")).to_have_text("7")
    phone.get_by_label("Enhancers").fill("3")
    expect(phone.locator("#calc-monsters")).to_have_text("11")
    phone.get_by_label("One-shots for you").fill("5")
    expect(phone.locator("#calc-players")).to_have_text("12")
    expect(phone.locator("#calc-result")).to_contain_text("Players win")
    # A select counts too: a Warrior wins ties (classic), so 11 vs 11 is a win for the players.
    phone.get_by_label("One-shots for you").fill("4")
    expect(phone.locator("#calc-players")).to_have_text("11")
    expect(phone.locator("#calc-result")).to_contain_text("Monsters win")
    phone.get_by_label("Class", exact=True).select_option("Warrior")
    expect(phone.locator("#calc-result")).to_contain_text("Players win")
    assert "monster_level" not in phone.url  # htmx swapped the result; the page stayed
    expect(phone.get_by_role("button", name="Compute")).to_be_visible()
    shot(phone, "calculator-01-recomputed-as-typed")

    # Without JavaScript the button is there and submits the whole form.
    context = browser.new_context(viewport=phone.viewport_size, java_script_enabled=False)
    try:
        plain = context.new_page()
        plain.goto(server.url + "/calculator")
        plain.get_by_label("Monster level").fill("9")
        plain.get_by_role("button", name="Compute").click()
        plain.wait_for_url("**/calculator?*monster_level=9*")
        expect(plain.locator("#calc-monsters")).to_have_text("9")
        expect(plain.locator("#calc-players")).to_have_text("1")
    finally:
        context.close()
