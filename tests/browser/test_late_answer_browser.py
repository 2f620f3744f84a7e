"""A phone's own tap is answered late (a slow network), after the live update for the same
change has already shown it: what the player picked since stays picked. CI caught the real
die for the second monster sent as 1 when the player had picked 2 (the late answer reset it)."""

from __future__ import annotations

import time

from playwright.sync_api import expect

from .helpers import Table


def hold_answers(page) -> list:
    """Hold back the answers to this phone's taps: each tap reaches the server (the live
    update shows it), its answer waits in the list until ``answer_of`` hands it over."""
    held: list = []

    def hold(route):
        entry = [route, None]
        held.append(entry)
        entry[1] = route.fetch()

    page.route("**/act", hold)
    return held


def answer_of(page, held, n: int = 0):
    """The held tap ``n`` and its answer, once the server has answered it (waited for)."""
    deadline = time.monotonic() + 15
    while not (len(held) > n and held[n][1] is not None):
        assert time.monotonic() < deadline, "the held tap never got its answer"
        page.wait_for_timeout(20)  # lets Playwright's handlers run: a wait on the condition above
    return held[n]


def release_answer(page, held) -> None:
    """The first held answer arrives now; the phone shows it (its undo toast)."""
    route, answer = answer_of(page, held)
    route.fulfill(response=answer)
    page.unroute("**/act")
    expect(page.locator('.toast[data-toast="undo"]')).to_be_visible()


def ann_fights_goose_and_gazebo(server, goose: int, gazebo: int) -> tuple[Table, int]:
    """Ann (level 4) fights an Angry Goose and a Gazebo of these levels; Bob watches."""
    table = Table(server, "classic")
    ann = table.seat("Ann", "female", level=4)
    table.seat("Bob")
    table.act(ann, {"type": "fight", "player": ann,
                    "monster": {"kind": "monster", "name": "Angry Goose", "level": goose, "treasures": 1}})
    table.act(ann, {"type": "add_monster",
                    "monster": {"kind": "monster", "name": "Gazebo", "level": gazebo, "treasures": 1}})
    return table, ann


def test_a_late_answer_to_my_tap_keeps_the_die_i_picked_since(server, phones):
    table, ann = ann_fights_goose_and_gazebo(server, 12, 14)
    table.act(ann, {"type": "resolve"})  # she loses: running away from both
    (phone,) = phones(1)
    table.open(phone, ann, f"/games/{table.code}?tab=fight")
    goose = phone.locator('#escapes li:has-text("Angry Goose")')
    gazebo = phone.locator('#escapes li:has-text("Gazebo")')

    # The answer to her tap is held back (her phone's slow reply); the server has the change,
    # and the live update shows it first.
    held = hold_answers(phone)
    goose.get_by_label("Real die result").select_option("6")
    goose.get_by_role("button", name="I rolled this").click()
    expect(goose).to_contain_text("escaped")
    # She picks her real die for the Gazebo; then the late answer arrives.
    gazebo.get_by_label("Real die result").select_option("2")
    release_answer(phone, held)
    expect(gazebo.get_by_label("Real die result")).to_have_value("2")

    gazebo.get_by_role("button", name="I rolled this").click()
    expect(phone.locator(".log")).to_contain_text("Ann rolls 2 against Gazebo")


def test_the_form_i_sent_empties_and_what_i_typed_elsewhere_stays(server, phones):
    table, ann = ann_fights_goose_and_gazebo(server, 6, 8)
    (phone,) = phones(1)
    table.open(phone, ann, f"/games/{table.code}?tab=fight")
    # She types a bonus for the Gazebo, then sends +5 on the Goose; the Goose's form was sent
    # and empties, the Gazebo's bonus is still hers to send.
    phone.locator("#enh-1").fill("3")
    phone.locator("#enh-0").fill("5")
    phone.get_by_role("button", name="Enhance Angry Goose").click()
    expect(phone.locator("#monsters-strength")).to_have_text("19")
    expect(phone.locator("#enh-0")).to_have_value("")
    expect(phone.locator("#enh-1")).to_have_value("3")


def test_a_second_tap_while_the_first_is_on_its_way_is_not_lost(server, phones):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female", level=2)
    table.seat("Bob")
    (phone,) = phones(1)
    table.open(phone, ann)
    hand = table.state()["players"][0]["hand"]
    # Her +1 level is on a slow network; she taps "one card more in hand" meanwhile.
    held = []

    def hold_the_first(route):
        if held:
            route.continue_()
        else:
            entry = [route, None]
            held.append(entry)
            entry[1] = route.fetch()

    phone.route("**/act", hold_the_first)
    phone.get_by_role("button", name="Level up").first.click()
    expect(phone.locator("#my-level")).to_have_text("3")  # the live update shows it
    phone.get_by_role("button", name="One card more in hand").click()
    route, answer = answer_of(phone, held)
    route.fulfill(response=answer)
    expect(phone.locator("#hand-count")).to_have_text(str(hand + 1))
    assert table.state()["players"][0]["hand"] == hand + 1
    phone.unroute("**/act")


def test_one_kill_counted_on_two_phones_at_once_is_counted_once(server, phones):
    table = Table(server, "classic")
    ann = table.seat("Ann", "female")
    table.seat("Bob")
    ann_phone, host_phone = phones(2)
    table.open(ann_phone, ann)
    expect(ann_phone.locator("#my-level")).to_have_text("1")
    # Ann's page is slow to fetch its update (held), so it still shows level 1 when the
    # host counts her kill from his phone, and she taps +1 for the same kill.
    held = []
    ann_phone.route("**/live*", lambda route: held.append(route))
    table.let_in(host_phone.context, ann, host=True)
    host_phone.goto(f"{server.url}/games/{table.code}?player={ann}")
    host_phone.get_by_role("button", name="Level up").click()
    expect(host_phone.locator("#my-level")).to_have_text("2")
    ann_phone.get_by_role("button", name="Level up").click()
    expect(ann_phone.locator("#notice")).to_contain_text(
        "Ann's level changed on another phone meanwhile: it is 2 now.")
    assert table.state()["players"][0]["level"] == 2
    # Her page catches up (the held fetches go on): 2, and +1 from here counts.
    ann_phone.unroute("**/live*")
    expect(ann_phone.locator("#my-level")).to_have_text("2")
    ann_phone.get_by_role("button", name="Level up").click()
    expect(ann_phone.locator("#my-level")).to_have_text("3")


def test_a_late_answer_puts_back_the_fields_of_the_form_sent_even_when_the_update_rebuilt_it(server, phones):
    # Natasha offers Boris other treasures than suggested; her page shows
    # the offer from the live update before the answer to her tap comes: the offer form then
    # shows the suggestion again, not what she sent (a later offer would send it again).
    table = Table(server, "russia")
    natasha = table.seat("Natasha", "female", level=2)
    boris = table.seat("Boris", "male", {"kind": "item", "name": "Boris's things", "bonus": 4,
                                         "slot": "other", "gold": 0}, level=6)
    table.act(natasha, {"type": "fight", "player": natasha,
                        "monster": {"kind": "monster", "name": "Bear", "level": 12, "treasures": 4}})
    (phone,) = phones(1)
    table.open(phone, natasha, f"/games/{table.code}?tab=fight")
    row = phone.locator(f'#helpers li[data-helper="{boris}"]')
    suggested = row.get_by_label("Treasures").input_value()
    sent = "3" if suggested != "3" else "2"
    held = hold_answers(phone)
    row.get_by_label("Treasures").fill(sent)
    row.get_by_role("button", name="Offer").click()
    expect(phone.locator(".log")).to_contain_text(f"Natasha offers Boris: {sent} treasures")  # the live update
    release_answer(phone, held)
    expect(row.get_by_label("Treasures")).to_have_value(suggested)
