"""Benchmark: how long an offer takes to reach the helper's phone screen.

Starts ``companion serve`` on a free loopback port with a fresh database and opens the helper's
phone in Debian's Chromium (Playwright, 360x740), scrolled to the bottom of its table tab. The
fighter then offers a bribe again and again (through the API, as the fighter's phone posts it);
each time the benchmark records how long it took until the offer's Accept button was inside the
helper's viewport, then declines it. The target (issue 14) is one second; the browser tests
check that the offer does arrive in view, this script says how fast.

    .venv/bin/python bench/offer_on_phone.py [--offers 30]
"""

from __future__ import annotations

import argparse
import statistics
import time

import requests
from playwright.sync_api import expect, sync_playwright
from serving import companion_server, percentile

CHROMIUM = "/usr/bin/chromium"
TARGET_S = 1.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--offers", type=int, default=30)
    args = parser.parse_args()

    with companion_server(COMPANION_SECRET_KEY="bench") as base:
        api = requests.Session()
        code = api.post(base + "/api/games", json={"edition": "classic"}).json()["code"]
        seats = {}
        for name in ("Ann", "Bob", "Cid"):
            body = api.post(f"{base}/api/games/{code}/players", json={"name": name, "sex": "male"}).json()
            seats[name] = (body["player_id"], body["token"])

        def act(name: str, action: dict) -> None:
            r = api.post(f"{base}/api/games/{code}/actions", json=action,
                         headers={"Authorization": f"Bearer {seats[name][1]}"})
            if r.status_code != 200:
                raise SystemExit(f"{action['type']} refused: {r.text}")

        ann, bob = seats["Ann"][0], seats["Bob"][0]
        act("Ann", {"type": "fight", "player": ann,
                    "monster": {"kind": "monster", "name": "Gazebo", "level": 8, "treasures": 3}})

        took: list[float] = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                        args=["--no-sandbox", "--disable-gpu"])
            context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                          has_touch=True)
            context.add_cookies([{"name": f"seat_{code}", "value": seats["Bob"][1], "url": base}])
            phone = context.new_page()
            phone.goto(f"{base}/games/{code}?tab=table")
            phone.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
            accept = phone.locator(".call[data-call^=offer]").get_by_role("button", name="Accept and help")
            for n in range(args.offers):
                sent = time.perf_counter()
                act("Ann", {"type": "offer", "to": bob, "treasures": 1 + n % 3})
                expect(accept).to_be_in_viewport(ratio=1, timeout=10_000)
                took.append(time.perf_counter() - sent)
                act("Bob", {"type": "decline_offer", "player": bob})
                expect(accept).to_have_count(0, timeout=10_000)
            browser.close()

        def ms(value: float) -> str:
            return f"{value * 1000:.0f} ms"

        within = sum(1 for t in took if t <= TARGET_S)
        print(f"offers sent: {len(took)} (helper's phone at 360x740, scrolled to the bottom)")
        print(f"offer to Accept in the helper's viewport: median {ms(statistics.median(took))}, "
              f"p95 {ms(percentile(took, 95))}, worst {ms(max(took))}; "
              f"{within}/{len(took)} within {TARGET_S:.0f} s")
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
