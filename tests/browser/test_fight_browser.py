"""Fights on every phone, replaying the Tails example of combat: Chuck (a level 4
Pony in Saddle Shoes) fights the Corral Snake, plays a Tactical Plushie, another player makes
the snake Rabid, and Mel (a level 3 Dog) helps. Three phones, the same numbers on each."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import shot
from .helpers import Table

LIVE_MS = 5000  # a change reaches the other phones; how fast is measured by bench/offer_on_phone.py and bench/live_roundtrip.py, not here


def same_numbers(actor, others, players: int, monsters: int) -> None:
    """The phone that acted shows the new numbers; every other phone within a second."""
    expect(actor.locator("#players-strength")).to_have_text(str(players))
    expect(actor.locator("#monsters-strength")).to_have_text(str(monsters))
    for phone in others:
        expect(phone.locator("#players-strength")).to_have_text(str(players), timeout=LIVE_MS)
        expect(phone.locator("#monsters-strength")).to_have_text(str(monsters), timeout=LIVE_MS)


def tails_table(server) -> tuple[Table, int, int, int]:
    table = Table(server, "tails")
    chuck = table.seat("Chuck", "male", "tails/pony", "tails/saddle-shoes", level=4)
    mel = table.seat("Mel", "female", "tails/dog", level=3)
    rex = table.seat("Rex", "male")
    return table, chuck, mel, rex


def test_three_phones_fight_help_and_enhance_and_see_the_same_numbers(server, phones):
    table, chuck, mel, rex = tails_table(server)
    chuck_phone, mel_phone, rex_phone = phones(3)
    table.open(mel_phone, mel)
    table.open(rex_phone, rex)

    # Chuck, whose turn it is, kicks open the door: the Corral Snake, +3 against Ponies.
    table.open(chuck_phone, chuck, f"/cards/tails/corral-snake?game={table.code}")
    chuck_phone.get_by_role("button", name="Fight this monster").click()
    chuck_phone.wait_for_url(f"**/games/{table.code}")
    same_numbers(chuck_phone, [mel_phone, rex_phone], 7, 11)
    for phone in (chuck_phone, mel_phone, rex_phone):
        expect(phone.locator("#verdict")).to_contain_text("Monsters win")
    expect(chuck_phone.locator("#needed")).to_have_text("5")
    shot(rex_phone, "fight-01-chuck-vs-corral-snake")

    # Chuck plays a Tactical Plushie (+5) from its card page: 12 against 11.
    chuck_phone.goto(f"{server.url}/cards/tails/tactical-plushie?game={table.code}")
    chuck_phone.get_by_role("button", name="Play for the players").click()
    chuck_phone.wait_for_url(f"**/games/{table.code}")
    same_numbers(chuck_phone, [mel_phone, rex_phone], 12, 11)
    expect(mel_phone.locator("#verdict")).to_contain_text("Players win by 1")

    # Rex makes the snake Rabid (+10) from the enhancer's card page: 12 against 21.
    rex_phone.goto(f"{server.url}/cards/tails/rabid?game={table.code}")
    rex_phone.get_by_role("button", name="Play it on Corral Snake").click()
    rex_phone.wait_for_url(f"**/games/{table.code}")
    same_numbers(rex_phone, [chuck_phone, mel_phone], 12, 21)
    expect(chuck_phone.locator("#needed")).to_have_text("10")
    shot(mel_phone, "fight-02-rabid-snake")

    # Mel, a Dog, helps for free: Mel 3 + 4 helping, Chuck 12 + 3 helped by someone = 22.
    helpers = mel_phone.locator("#helpers")
    expect(helpers.locator(f'li[data-helper="{mel}"]')).to_contain_text("would win by 1")
    # The offer to help is on top of Mel's screen, whichever section she has open; Chuck,
    # fighting, says yes on his.
    mel_phone.locator("#fight-now").get_by_role("button", name="Offer to help").click()
    chuck_phone.locator("#calls").get_by_role("button", name="Accept the help").click()
    same_numbers(mel_phone, [chuck_phone, rex_phone], 22, 21)
    expect(rex_phone.locator("#fight-h")).to_contain_text("Chuck + Mel vs Corral Snake")
    expect(rex_phone.locator("#verdict")).to_contain_text("Players win by 1")
    # The breakdown names the abilities that made the numbers.
    chuck_phone.locator('#fight summary:text-is("How the numbers add up")').click()
    breakdown = chuck_phone.locator("#fight details").first
    expect(breakdown).to_contain_text("Pony")
    expect(breakdown).to_contain_text("Dog")
    expect(breakdown).to_contain_text("Rabid")
    shot(chuck_phone, "fight-03-mel-helps")

    # Chuck resolves: one level for the kill, Mel (a volunteer, no Elf) gains none.
    chuck_phone.get_by_role("button", name="Resolve the fight").click()
    expect(chuck_phone.locator("#my-level")).to_have_text("5")
    for phone in (mel_phone, rex_phone):
        expect(phone.locator('.player-row:has-text("Chuck") .level')).to_have_text("5", timeout=LIVE_MS)
        expect(phone.locator("#fight-result")).to_contain_text("Chuck wins (22 against 21)", timeout=LIVE_MS)
    expect(mel_phone.locator("#my-level")).to_have_text("3")
    expect(rex_phone.locator("#fight-result")).to_contain_text("4 treasures face up")
    shot(rex_phone, "fight-04-resolved")


def test_a_lost_fight_goes_to_running_away_and_the_real_die_decides(server, phones):
    table, chuck, mel, rex = tails_table(server)
    chuck_phone, mel_phone = phones(2)
    table.open(chuck_phone, chuck)
    # Before any fight an enhancer's card page offers nothing to press, and says why.
    table.open(mel_phone, mel, f"/cards/tails/rabid?game={table.code}")
    expect(mel_phone.locator("#card-actions")).to_contain_text("played on a monster in a fight")
    expect(mel_phone.locator("#card-actions").get_by_role("button")).to_have_count(0)
    mel_phone.goto(f"{server.url}/games/{table.code}")

    # A monster the catalog does not need to know: just its level and treasures.
    chuck_phone.get_by_role("navigation", name="Game sections").get_by_role("link", name="Fight").click()
    chuck_phone.locator('#start-fight summary').click()
    chuck_phone.get_by_label("Monster name").fill("Angry Goose")
    chuck_phone.get_by_label("Level", exact=True).fill("6")
    chuck_phone.locator("#mon-tr").fill("1")
    chuck_phone.get_by_role("button", name="Fight").click()
    same_numbers(chuck_phone, [mel_phone], 7, 6)

    # Mel plays an enhancer from the fight section's Enhance form (+5): 7 against 11.
    mel_phone.get_by_role("navigation", name="Game sections").get_by_role("link", name="Fight").click()
    mel_phone.get_by_label("Enhancer bonus").fill("5")
    mel_phone.get_by_role("button", name="Enhance").click()
    same_numbers(mel_phone, [chuck_phone], 7, 11)

    # Mel adds a wandering Gazebo (level 8, Bad Stuff: lose 3 levels). (Not the Floating
    # Nose: nobody runs away from it.)
    mel_phone.goto(f"{server.url}/cards/classic/gazebo?game={table.code}")
    mel_phone.get_by_role("button", name="Add this monster to the fight").click()
    mel_phone.wait_for_url(f"**/games/{table.code}")
    same_numbers(mel_phone, [chuck_phone], 7, 19)
    shot(chuck_phone, "fight-05-losing")

    chuck_phone.get_by_role("button", name="Give up: run away").click()
    goose = chuck_phone.locator('#escapes li:has-text("Angry Goose")')
    gazebo = chuck_phone.locator('#escapes li:has-text("Gazebo")')
    expect(goose).to_contain_text("needs 5+ (33%)")
    expect(gazebo).to_contain_text("needs 5+ (33%)")
    # Mel is not running: her phone shows the rolls but no dice.
    expect(mel_phone.locator("#escapes")).to_contain_text("Chuck from Gazebo", timeout=LIVE_MS)
    expect(mel_phone.get_by_role("button", name="I rolled this")).to_have_count(0)
    shot(chuck_phone, "fight-06-running-away")

    goose.get_by_label("Real die result").select_option("6")
    goose.get_by_role("button", name="I rolled this").click()
    expect(goose).to_contain_text("rolled 6: escaped")
    gazebo.get_by_label("Real die result").select_option("2")
    gazebo.get_by_role("button", name="I rolled this").click()
    expect(chuck_phone.locator("#fight-result")).to_contain_text("The fight is over: Chuck was caught by Gazebo")
    expect(chuck_phone.locator("#my-level")).to_have_text("1")  # 4, less 3
    log = mel_phone.locator(".log")
    expect(log).to_contain_text("Chuck rolls 6 against Angry Goose (needs 5): escapes", timeout=LIVE_MS)
    expect(log).to_contain_text("Chuck rolls 2 against Gazebo (needs 5): caught! Bad Stuff: level 4 to 1")
    expect(mel_phone.locator('.player-row:has-text("Chuck") .level')).to_have_text("1")
    shot(mel_phone, "fight-07-caught")

    chuck_phone.get_by_role("button", name="Clear the fight").click()
    expect(chuck_phone.locator("#fight")).to_have_count(0)
    expect(chuck_phone.locator("#start-fight")).to_be_visible()
