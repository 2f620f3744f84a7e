"""How fast a tap reaches six phones and the table screen in the browser: one seat taps (its
level up and down), and each screen records when the ring arrived, when the first byte of its
re-fetched part came and when its page changed. The test asserts that every screen showed every
tap, and prints and keeps the figures (``test-artifacts/live-update-figures.json``); how fast
is measured, never asserted here."""

from __future__ import annotations

import json
import statistics
import time

from .conftest import ARTIFACTS
from .helpers import Table

TAPS = 12
LAPTOP = {"width": 1280, "height": 720}
# Each page keeps, on the epoch clock (ms): when its live part changed (DOM mutations), when a
# ring came (the stream's message), and each re-fetch's first byte (Resource Timing).
RECORDER = """
window.__muts = []; window.__rings = [];
new MutationObserver(() => window.__muts.push(performance.timeOrigin + performance.now()))
  .observe(document, {subtree: true, childList: true, characterData: true});
document.addEventListener("live-changed", () => window.__rings.push(performance.timeOrigin + performance.now()));
document.addEventListener("htmx:sseMessage", () => window.__rings.push(performance.timeOrigin + performance.now()));
"""
FIRST_BYTES = """t0 => performance.getEntriesByType("resource")
  .filter(e => /\\/(live|table)(\\?|$)/.test(e.name) && performance.timeOrigin + e.startTime >= t0)
  .map(e => performance.timeOrigin + e.responseStart)"""

def _first_after(values, t0):
    later = [v for v in values if v >= t0]
    return min(later) - t0 if later else None

def _pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else None

def test_six_phones_and_the_table_screen_report_tap_to_screen_figures(server, browser):
    table = Table(server, "classic")
    seats = [table.seat(name, "female" if i % 2 else "male") for i, name in enumerate(("Ann", "Bob", "Cid", "Dee", "Eve", "Fay"))]
    tapper = seats[0]
    contexts, screens = [], []
    try:
        for i, pid in enumerate(seats):
            context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
            context.add_init_script(RECORDER)
            contexts.append(context)
            page = context.new_page()
            page.set_default_timeout(15_000)
            table.open(page, pid, f"/games/{table.code}?tab=table")
            screens.append((f"phone {i + 1}", page, f'#players li[data-player="{tapper}"] .level'))
        context = browser.new_context(viewport=LAPTOP)
        context.add_init_script(RECORDER)
        contexts.append(context)
        tv = context.new_page()
        tv.set_default_timeout(15_000)
        tv.goto(f"{server.url}/games/{table.code}/table")
        screens.append(("table screen", tv, ".big-table li:first-child .level"))
        for _, page, selector in screens:
            page.wait_for_selector(selector)
        figures = {name: {"screen": [], "ring": [], "first_byte": []} for name, _, _ in screens}
        level = 1
        for tap in range(TAPS):
            delta = 1 if level == 1 else -1
            level += delta
            t0 = time.time() * 1000
            table.act(tapper, {"type": "level", "player": tapper, "delta": delta, "source": "adjust"})
            for name, page, selector in screens:
                page.wait_for_function(f"() => document.querySelector('{selector}')?.textContent.trim() === '{level}'")
                got = page.evaluate("() => [window.__muts, window.__rings]")
                screen = _first_after(got[0], t0)
                figures[name]["screen"].append(screen)
                ring = _first_after(got[1], t0)
                if ring is not None:
                    figures[name]["ring"].append(ring)
                first = _first_after(page.evaluate(FIRST_BYTES, t0), t0)
                if first is not None:
                    figures[name]["first_byte"].append(first)
            for _, page, _ in screens:  # the next tap's marks start empty
                page.evaluate("() => { window.__muts = []; window.__rings = []; performance.clearResourceTimings(); }")
        every = [v for f in figures.values() for v in f["screen"] if v is not None]
        summary = {"taps": TAPS, "screens": len(screens),
                   "tap_to_screen_ms": {"median": statistics.median(every), "p95": _pct(every, 95)},
                   "ring_ms": {"median": statistics.median([v for f in figures.values() for v in f["ring"]])},
                   "first_byte_ms": {"median": statistics.median([v for f in figures.values() for v in f["first_byte"]])},
                   "per_screen": {name: {"median": statistics.median([v for v in f["screen"] if v is not None])}
                                  for name, f in figures.items()}}
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "live-update-figures.json").write_text(json.dumps(summary, indent=1))
        print("\nlive update in the browser:", json.dumps(summary))
        assert len(every) == TAPS * len(screens)  # every screen showed every tap
    finally:
        for context in contexts:
            context.close()
