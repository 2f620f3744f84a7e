"""Two phones join through the QR's join URL; one levels up, the other sees it live."""

from __future__ import annotations

from playwright.sync_api import expect

from companion.web.invite import qr_svg

from .conftest import join, new_game, shot


def test_two_phones_join_by_the_qr_url_and_see_each_others_levels_live(server, phones):
    host, ann, bob = phones(3)
    code = new_game(host, server)
    join_url = host.locator("#join-url").get_attribute("href")
    assert join_url == f"{server.url}/join/{code}"
    # The QR on the host screen encodes exactly that URL.
    assert host.locator(".qr svg").evaluate("e => e.outerHTML").count("<path") == qr_svg(join_url).count("<path")
    assert qr_svg(join_url).split('d="')[1][:200] in host.locator(".qr").inner_html()

    join(ann, join_url, "Ann", "female")
    join(bob, join_url, "Bob", "male")
    expect(host.locator(".big-table")).to_contain_text("Ann")
    expect(host.locator(".big-table")).to_contain_text("Bob")
    shot(host, "host-screen")

    ann.get_by_role("button", name="Level up").click()
    expect(ann.locator("#my-level")).to_have_text("2")
    # Bob's phone shows it without a reload, well within two seconds.
    expect(bob.locator(f'.player-row:has-text("Ann") .level')).to_have_text("2", timeout=2000)
    shot(bob, "table-after-level-up")

    # A reload (or a closed tab) brings Bob back to his own seat.
    bob.goto(join_url)
    expect(bob.locator("#me-h")).to_contain_text("Bob")


def test_level_ten_refusal_shows_the_rule_and_citation_on_the_phone(server, phones):
    host, ann = phones(2)
    code = new_game(host, server)
    join(ann, f"{server.url}/join/{code}", "Ann")
    kill = ann.get_by_role("button", name="+1 killed a monster")
    for level in range(2, 10):
        kill.click()
        expect(ann.locator("#my-level")).to_have_text(str(level))
    ann.get_by_role("button", name="Level up").click()
    notice = ann.locator("#notice")
    expect(notice).to_contain_text("Not allowed")
    expect(notice).to_contain_text("Munchkin (classic rules)")
    expect(ann.locator("#my-level")).to_have_text("9")
    shot(ann, "refusal-level-ten")
    notice.get_by_role("button", name="Dismiss").click()  # as she would: it sits over her sheet
    kill.click()
    expect(ann.locator(".winner")).to_contain_text("Ann")
