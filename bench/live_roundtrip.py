"""Benchmark: action round trip and live fan-out on the real server.

Starts ``companion serve`` on a free loopback port with a fresh database, seats six players
who each keep the live event stream open, sends a few hundred actions, and prints the
median and 95th percentile of (a) the action's HTTP round trip and (b) the time from
sending the action until all six phones have received its "changed" event.

    .venv/bin/python bench/live_roundtrip.py [--actions 300]
"""

from __future__ import annotations

import argparse
import json
import statistics
import threading
import time

import requests
from serving import companion_server, percentile

PHONES = 6


class Listener(threading.Thread):
    """One phone's event stream: records when each version arrived."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url = url
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()
        self.stop = False

    def run(self) -> None:
        try:
            with requests.get(self.url, stream=True, timeout=(5, 60)) as response:
                self.ready.set()
                for line in response.iter_lines(decode_unicode=True):
                    if self.stop:
                        return
                    if line and line.startswith("data: "):
                        self.arrived[json.loads(line[6:])["version"]] = time.perf_counter()
        except requests.RequestException:
            return  # the server stopping at the end of the run closes the stream


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=300)
    args = parser.parse_args()

    with companion_server() as base:
        session = requests.Session()
        game = session.post(base + "/api/games", json={"edition": "classic"}).json()
        code = game["code"]
        seats = []
        for i in range(PHONES):
            body = session.post(f"{base}/api/games/{code}/players",
                                json={"name": f"Player {i + 1}", "sex": "male"}).json()
            seats.append((body["player_id"], body["token"]))
        version = session.get(f"{base}/api/games/{code}").json()["version"]
        listeners = [Listener(f"{base}/api/games/{code}/events?since={version}") for _ in range(PHONES)]
        for listener in listeners:
            listener.start()
            listener.ready.wait(5)
        time.sleep(0.3)

        round_trips, fan_out = [], []
        for n in range(args.actions):
            pid, token = seats[n % PHONES]
            delta = 1 if (n // PHONES) % 2 == 0 else -1
            sent = time.perf_counter()
            r = session.post(f"{base}/api/games/{code}/actions",
                             json={"type": "gear", "player": pid, "delta": delta},
                             headers={"Authorization": f"Bearer {token}"})
            done = time.perf_counter()
            r.raise_for_status()
            new_version = r.json()["state"]["version"]
            round_trips.append(done - sent)
            deadline = time.perf_counter() + 5
            while time.perf_counter() < deadline and not all(new_version in l.arrived for l in listeners):
                time.sleep(0.0005)
            if all(new_version in l.arrived for l in listeners):
                fan_out.append(max(l.arrived[new_version] for l in listeners) - sent)
        for listener in listeners:
            listener.stop = True

        def ms(values: list[float], p: float | None = None) -> str:
            value = statistics.median(values) if p is None else percentile(values, p)
            return f"{value * 1000:.1f} ms"

        print(f"actions sent: {len(round_trips)}, phones listening: {PHONES}")
        print(f"action round trip: median {ms(round_trips)}, p95 {ms(round_trips, 95)}")
        print(f"all {PHONES} phones have the event: median {ms(fan_out)}, p95 {ms(fan_out, 95)} "
              f"({len(fan_out)}/{len(round_trips)} delivered within 5 s)")
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
