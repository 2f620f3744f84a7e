"""How fast a tap reaches six phones and the table screen in the browser: one seat taps (its
level up and down) during a fight, and each screen records when the ring arrived, when its
re-fetched part's first and last byte came, when htmx's swap of it began and ended, and when
the frame showing it was painted; it counts the live part's nodes too. The test asserts that
every screen showed every tap through a swap of its live part, and prints and keeps the figures
(``test-artifacts/live-update-figures.json``); how fast is measured, never asserted here."""

from __future__ import annotations

import json
import statistics
import time

from .conftest import ARTIFACTS
from .helpers import Table

TAPS = 12
LAPTOP = {"width": 1280, "height": 720}
# Each page keeps, on the epoch clock (ms): when its live part changed (DOM mutations), when a
# ring came (the stream's message), and each swap of its live part (#live, #tv-live): when htmx
# began it (beforeSwap), when the swap's task ended (a microtask queued then runs once htmx's
# response handler, the morph and every afterSwap handler have returned: the DOM mutations are
# seen then too), when the next frame began (requestAnimationFrame) and when that frame's
# style, layout and paint were done (a message posted from the frame runs after them).
RECORDER = """
const now = () => performance.timeOrigin + performance.now();
window.__muts = []; window.__rings = []; window.__swaps = [];
new MutationObserver(() => window.__muts.push(now()))
  .observe(document, {subtree: true, childList: true, characterData: true});
// Captured, before the page's own listeners: app.js rings "live-changed" on the body (an event
// that does not bubble), htmx's SSE extension "sse:changed" on the table screen's live part.
document.addEventListener("live-changed", () => window.__rings.push(now()), true);
document.addEventListener("sse:changed", () => window.__rings.push(now()), true);
document.addEventListener("htmx:beforeSwap", e => {
  const id = e.detail.target && e.detail.target.id;
  if (id !== "live" && id !== "tv-live") return;
  const mark = {start: now()};
  window.__swaps.push(mark);
  queueMicrotask(() => {
    mark.end = now();
    requestAnimationFrame(() => {
      mark.frame = now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { mark.painted = now(); };
      channel.port2.postMessage(0);
    });
  });
});
"""
# Each re-fetch of a live part since t0: when it was asked for, its first and last byte, its size.
FETCHES = """t0 => performance.getEntriesByType("resource")
  .filter(e => /\\/(live|table)(\\?|$)/.test(e.name) && performance.timeOrigin + e.startTime >= t0)
  .map(e => [performance.timeOrigin + e.startTime, performance.timeOrigin + e.responseStart,
              performance.timeOrigin + e.responseEnd, e.decodedBodySize])"""
# Every swap begun since t0 has been painted (a swap htmx was told to skip, an older answer, too).
PAINTED = "t0 => window.__swaps.filter(s => s.start >= t0).every(s => s.painted)"
STEPS = ("ring", "request", "first_byte", "last_byte", "swap_start", "swap_end", "painted")


def _first_after(values, t0):
    later = [v for v in values if v >= t0]
    return min(later) - t0 if later else None


def _pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else None


def _spread(values):
    values = [v for v in values if v is not None]
    return {"median": round(statistics.median(values), 1), "p95": round(_pct(values, 95), 1), "n": len(values)} if values else None


def _marks(page, t0):
    """When each step of this tap's update came on this screen, in ms after the tap."""
    muts, rings, swaps = page.evaluate("() => [window.__muts, window.__rings, window.__swaps]")
    screen = _first_after(muts, t0)
    marks = {"screen": screen, "ring": _first_after(rings, t0)}
    fetches = sorted(page.evaluate(FETCHES, t0))
    if fetches:
        marks["request"], marks["first_byte"], marks["last_byte"] = (v - t0 for v in fetches[0][:3])
        marks["bytes"] = fetches[0][3]
    # The swap that changed the page: the last one begun before the change was seen.
    begun = [s for s in swaps if s["start"] >= t0 and screen is not None and s["start"] - t0 <= screen]
    if begun:
        swap = begun[-1]
        marks.update(swap_start=swap["start"] - t0, swap_end=swap["end"] - t0, painted=swap["painted"] - t0)
    return marks


def test_six_phones_and_the_table_screen_report_tap_to_screen_figures(server, browser):
    table = Table(server, "classic")
    seats = [table.seat(name, "female" if i % 2 else "male") for i, name in enumerate(("Ann", "Bob", "Cid", "Dee", "Eve", "Fay"))]
    tapper = seats[0]
    # The taps come during a fight (the heavier page: the fight on top and in its tab).
    table.act(tapper, {"type": "fight", "player": tapper,
                       "monster": {"kind": "monster", "name": "Plutonium Dragon", "level": 20, "treasures": 5}})
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
        marks = {name: [] for name, _, _ in screens}
        level = 1
        for tap in range(TAPS):
            delta = 1 if level == 1 else -1
            level += delta
            t0 = time.time() * 1000
            table.act(tapper, {"type": "level", "player": tapper, "delta": delta, "source": "adjust"})
            for name, page, selector in screens:
                page.wait_for_function(f"() => document.querySelector('{selector}')?.textContent.trim() === '{level}'")
                page.wait_for_function(PAINTED, arg=t0)
                marks[name].append(_marks(page, t0))
            for _, page, _ in screens:  # the next tap's marks start empty
                page.evaluate("() => { window.__muts = []; window.__rings = []; window.__swaps = []; performance.clearResourceTimings(); }")
        nodes = {name: page.evaluate("() => document.querySelectorAll('#live *, #tv-live *').length") for name, page, _ in screens}

        def spread(names, key):
            return _spread([m.get(key) for name in names for m in marks[name]])

        def between(names, a, b):
            return _spread([m[b] - m[a] for name in names for m in marks[name] if m.get(a) is not None and m.get(b) is not None])

        phones = [name for name in marks if name.startswith("phone")]
        every = [v for ms in marks.values() for m in ms if (v := m["screen"]) is not None]
        summary = {"taps": TAPS, "screens": len(screens), "during_a_fight": True,
                   "tap_to_screen_ms": {"median": statistics.median(every), "p95": _pct(every, 95)},
                   "ring_ms": {"median": spread(marks, "ring")["median"]},
                   "first_byte_ms": {"median": spread(marks, "first_byte")["median"]},
                   "per_screen": {name: {"median": statistics.median([m["screen"] for m in ms if m["screen"] is not None])}
                                  for name, ms in marks.items()},
                   # Where the time goes, from the tap (ms after it) and step by step (ms each).
                   "where": {group: {"after_the_tap": {key: spread(names, key) for key in STEPS},
                                     "steps": {"ring_to_request": between(names, "ring", "request"),
                                               "request_to_first_byte": between(names, "request", "first_byte"),
                                               "download": between(names, "first_byte", "last_byte"),
                                               "last_byte_to_swap": between(names, "last_byte", "swap_start"),
                                               "swap": between(names, "swap_start", "swap_end"),
                                               "render": between(names, "swap_end", "painted")},
                                     "bytes": spread(names, "bytes")["median"],
                                     "nodes": max(nodes[name] for name in names)}
                             for group, names in (("phones", phones), ("table screen", ["table screen"]))}}
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "live-update-figures.json").write_text(json.dumps(summary, indent=1))
        print("\nlive update in the browser:", json.dumps(summary))
        assert len(every) == TAPS * len(screens)  # every screen showed every tap
        # ...and every change came by a swap of its live part, seen through to a painted frame.
        assert all("painted" in m for ms in marks.values() for m in ms), marks
    finally:
        for context in contexts:
            context.close()
