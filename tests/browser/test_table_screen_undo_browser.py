"""The host's Undo on the table screen stays whole at 1280x720 under a long log and a fight:
the log's oldest lines fade and give way, never the button under them."""

from __future__ import annotations

from playwright.sync_api import expect

from .helpers import Table

LAPTOP = {"width": 1280, "height": 720}


def test_the_undo_under_a_long_log_is_whole_and_on_the_screen(server, browser):
    table = Table(server, "classic")
    names = ("Anna", "Ben", "Clara", "Dieter", "Olga", "Frank")
    ids = [table.seat(name, "female" if i % 2 else "male", "classic/elf") for i, name in enumerate(names)]
    for pid in ids:  # a log longer than the side's room
        table.act(None, {"type": "level", "player": pid, "delta": 1, "source": "adjust"})
    table.act(ids[0], {"type": "fight", "player": ids[0], "monster": "classic/drooling-slime"})
    context = browser.new_context(viewport=LAPTOP)
    try:
        laptop = context.new_page()
        table.let_in(context, ids[0], host=True)
        laptop.goto(f"{server.url}/games/{table.code}/table")
        undo = laptop.locator("#tv-undo button")
        expect(undo).to_contain_text("Undo: Anna fights Drooling Slime")
        button, log = undo.bounding_box(), laptop.locator(".tv-log").bounding_box()
        # inside the log's box (which hides what overflows it) and inside the window
        assert button["y"] + button["height"] <= log["y"] + log["height"] + 0.5, (button, log)
        assert button["y"] + button["height"] <= LAPTOP["height"], button
        # nothing fades it: no mask on the button or any box around it
        masked = undo.evaluate("""b => { for (let e = b; e; e = e.parentElement) {
            const m = getComputedStyle(e).maskImage || getComputedStyle(e).webkitMaskImage;
            if (m && m !== "none") return e.className; } return null; }""")
        assert masked is None, masked
    finally:
        context.close()
