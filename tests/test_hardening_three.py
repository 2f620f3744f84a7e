"""Hardening, round three (issue 22), each attack as an attacker would make it: a client
starving a table of its live updates, a seat tapping in a loop, a game jammed by house cards,
and ?game=<code> as a side door past the code-guessing throttle."""

from __future__ import annotations

import threading
import time

import pytest

from companion import create_app

from .helpers import ApiTable


def make_app(tmp_path, **config):
    return create_app({"TESTING": True, "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False,
                       "COMPANION_DATABASE_URL": f"sqlite:///{tmp_path / 'three.db'}", **config})


# --- one client starving a table of its live updates ---------------------------------------

WAIT = 20  # seconds any one step may take before the test gives up


class Reader:
    """A live stream read in its own thread (what a phone's EventSource holds open)."""

    def __init__(self, app, path, cookie=None, **kwargs):
        self.client, self.path, self.kwargs = app.test_client(), path, kwargs
        if cookie:
            self.client.set_cookie(*cookie)
        self.text, self.ended, self.changed = "", threading.Event(), threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        response = self.client.get(self.path, buffered=False, **self.kwargs)
        try:
            for chunk in response.response:
                with self.changed:
                    self.text += chunk.decode() if isinstance(chunk, bytes) else chunk
                    self.changed.notify_all()
        finally:
            response.close()
            with self.changed:
                self.ended.set()
                self.changed.notify_all()

    def wait_for(self, needle):
        """Whether ``needle`` arrives before the stream ends (or WAIT passes)."""
        with self.changed:
            return self.changed.wait_for(lambda: needle in self.text or self.ended.is_set(), WAIT) \
                and needle in self.text


def test_seatless_streams_by_the_dozen_never_starve_a_seated_phone_or_the_host(tmp_path):
    cap, per_address = 4, 2
    app = make_app(tmp_path, LIVE_STREAM_SECONDS=60, LIVE_HEARTBEAT_SECONDS=0.3,
                   LIVE_MAX_STREAMS_PER_GAME=cap, LIVE_MAX_SEATLESS_PER_ADDRESS=per_address)
    client = app.test_client()
    table = ApiTable(client)
    table.join("Ann")
    version = table.state()["version"]
    events = f"/api/games/{table.code}/events?since={version}"
    # The table's phones open their streams first: under a cap counting every stream of the
    # game, they would be the oldest, closed first.
    ann = Reader(app, events, headers=table.auth("Ann"))
    host = Reader(app, events, cookie=(f"host_{table.code}", table.host_token))
    assert ann.wait_for("retry: 1500") and host.wait_for("retry: 1500")
    # One client, one address: many more seatless streams than the cap, each reopened at once
    # when the server closes it (ignoring the retry hint), a made-up token on some.
    stop, opens, lock = threading.Event(), [0], threading.Lock()

    def abuser(n):
        headers = {"Authorization": "Bearer made-up"} if n % 3 == 0 else {}
        while not stop.is_set():
            with lock:
                opens[0] += 1
            response = app.test_client().get(events, buffered=False, headers=headers)
            try:
                for _chunk in response.response:
                    if stop.is_set():
                        break
            finally:
                response.close()

    abusers = [threading.Thread(target=abuser, args=(n,), daemon=True) for n in range(3 * cap)]
    for thread in abusers:
        thread.start()
    try:
        deadline = time.monotonic() + WAIT
        while opens[0] < 6 * cap and time.monotonic() < deadline:  # the pool churns
            stop.wait(0.05)
        assert opens[0] >= 6 * cap
        held = [s for s in app.extensions["companion_live_streams"]._games[table.code] if not s.seated]
        assert len(held) <= per_address  # one address holds at most its share of the pool
        new_version = table.act("Ann", {"type": "gear", "player": table.ids["Ann"], "delta": 1})["state"]["version"]
        for phone in (ann, host):
            assert phone.wait_for(f"id: {new_version}\n"), phone.text[-300:]
            assert not phone.ended.is_set() and "too many live streams" not in phone.text
    finally:
        stop.set()
        for thread in abusers:
            thread.join(WAIT)
    # Another address still gets a seatless stream of its own (a table screen without cookies).
    screen = Reader(app, events, environ_base={"REMOTE_ADDR": "10.9.8.7"})
    assert screen.wait_for(f"id: {new_version}\n")


# --- a seat tapping in a loop (COMPANION_RATELIMIT_ACTIONS) --------------------------------

def test_a_seat_tapping_in_a_loop_meets_the_default_throttle_and_its_table_does_not(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    table = ApiTable(client)
    for name in ("Ann", "Bob"):
        table.join(name)
    ann = table.ids["Ann"]
    # A person tapping fast: ten real changes at once all go through.
    for _ in range(10):
        assert table.send("Ann", {"type": "gear", "player": ann, "delta": 1}).status_code == 200
    # A script tapping as fast as it can (a tap the rules refuse costs the server no write, and
    # counts all the same): it meets the throttle within its first few hundred taps.
    level_down = {"type": "level", "player": ann, "delta": -1}
    answers = []
    for _ in range(400):
        r = table.send("Ann", level_down)
        answers.append(r.status_code)
        if r.status_code == 429:
            break
    assert answers[-1] == 429 and len(answers) <= 300, (len(answers), set(answers))
    assert set(answers[:-1]) == {422}
    assert r.is_json and "seat" in r.get_json()["error"]["message"]
    assert int(r.headers["Retry-After"]) >= 1
    # Throttled, a real change is refused too and changes nothing ...
    before = table.player("Ann")["gear_adjust"]
    assert table.send("Ann", {"type": "gear", "player": ann, "delta": 1}).status_code == 429
    table.undo("Ann", expect=429)
    assert table.player("Ann")["gear_adjust"] == before
    # ... while the other seats at the same table, from the same address, play on.
    assert table.send("Bob", {"type": "gear", "player": table.ids["Bob"], "delta": 1}).status_code == 200
    assert table.send("host", {"type": "gear", "player": ann, "delta": 1}).status_code == 200
    # A made-up token buys no fresh budget: it is not a seat, and may do nothing at all.
    r = table.request("POST", "actions", headers={"Authorization": "Bearer made-up"},
                      json={"type": "gear", "player": ann, "delta": 1})
    assert r.status_code == 403


def test_the_action_throttle_counts_page_posts_and_undo_for_the_seat_not_the_address(tmp_path):
    app = make_app(tmp_path, COMPANION_RATELIMIT_ACTIONS="3 per minute")
    client = app.test_client()
    table = ApiTable(client)
    table.join("Ann")
    table.join("Bob")
    ann = table.ids["Ann"]
    client.set_cookie(f"seat_{table.code}", table.tokens["Ann"])
    gear = {"type": "gear", "player": ann, "delta": 1}
    assert table.send("Ann", gear).status_code == 200  # the API ...
    assert client.post(f"/games/{table.code}/act", data=gear).status_code == 303  # ... a form ...
    assert client.post(f"/games/{table.code}/undo").status_code == 303  # ... and undo share one budget
    # The page's tap (htmx) shows the refusal where notices land, with Retry-After.
    r = client.post(f"/games/{table.code}/act", data=gear, headers={"HX-Request": "true"})
    assert r.status_code == 429 and r.headers["HX-Retarget"] == "#notice"
    assert int(r.headers["Retry-After"]) >= 1 and "Wait" in r.get_data(as_text=True)
    plain = client.post(f"/games/{table.code}/act", data=gear)
    assert plain.status_code == 429 and "<html" in plain.get_data(as_text=True).lower()
    assert table.send("Ann", gear).status_code == 429
    assert table.player("Ann")["gear_adjust"] == 1
    # Bob, at the same table and on the same wifi, is not slowed.
    assert table.send("Bob", {"type": "gear", "player": table.ids["Bob"], "delta": 1}).status_code == 200


# --- ?game=<code>: no side door past the code-guessing throttle ----------------------------

GAME_PATHS = ["/api/rules?game={}", "/rules?game={}", "/cards?game={}", "/calculator?game={}",
              "/api/cards?q=elf&game={}", "/cards/search?q=elf&game={}"]


@pytest.mark.parametrize("path", GAME_PATHS)
def test_unknown_codes_in_game_parameters_are_counted_as_guesses(tmp_path, path):
    app = make_app(tmp_path, COMPANION_RATELIMIT_UNKNOWN_CODE="3 per minute")
    client = app.test_client()
    real = ApiTable(client)
    # Asking with a real code, as the game's own links do, is never a guess.
    for _ in range(5):
        assert client.get(path.format(real.code)).status_code == 200
    for i in range(3):
        assert client.get(path.format(f"ZZZZZ{i:02d}")).status_code == 200
    r = client.get(path.format("ZZZZZ99"))
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    assert r.is_json == path.startswith("/api/")
    # The address is refused a real code too, as after guesses on any other path ...
    assert client.get(path.format(real.code)).status_code == 429
    assert real.request("GET").status_code == 429
    # ... and another address is not.
    assert client.get(path.format(real.code), environ_base={"REMOTE_ADDR": "10.9.8.7"}).status_code == 200


def test_guesses_on_the_game_paths_and_in_game_parameters_share_one_budget(tmp_path):
    app = make_app(tmp_path, COMPANION_RATELIMIT_UNKNOWN_CODE="4 per minute")
    client = app.test_client()
    assert client.get("/api/games/ZZZZZ01").status_code == 404
    assert client.get("/cards?game=ZZZZZ02").status_code == 200
    assert client.get("/calculator?game=not a code").status_code == 200
    assert client.get("/api/rules?game=ZZZZZ03").status_code == 200
    assert client.get("/rules?game=ZZZZZ04").status_code == 429


def test_a_referer_naming_a_game_is_a_guess_too(tmp_path):
    app = make_app(tmp_path, COMPANION_RATELIMIT_UNKNOWN_CODE="3 per minute")
    client = app.test_client()
    real = ApiTable(client)
    page = client.get("/rules", headers={"Referer": f"http://localhost/games/{real.code}"})
    assert f"/games/{real.code}" in page.get_data(as_text=True)  # the way back to the table
    for i in range(3):
        r = client.get("/rules", headers={"Referer": f"http://localhost/games/ZZZZZ{i:02d}"})
        assert r.status_code == 200
    assert real.request("GET").status_code == 429
    # Over the budget, the rules still answer, but a real game's Referer no longer shows.
    page = client.get("/rules", headers={"Referer": f"http://localhost/games/{real.code}"})
    assert page.status_code == 200 and f"/games/{real.code}" not in page.get_data(as_text=True)


# --- house cards: removed by the host or their adder, and never jamming the game -----------

def test_the_house_cards_page_offers_remove_to_the_host_and_the_adder_only(app, table):
    table.join("Ann")
    table.join("Bob")
    table.act("Ann", {"type": "add_house_card", "card": {"kind": "curse", "name": "Rain"}})

    def page_as(cookie: str, token: str):
        phone = app.test_client()
        phone.set_cookie(f"{cookie}_{table.code}", token)
        return phone, phone.get(f"/games/{table.code}/house").get_data(as_text=True)

    _bob, bob_page = page_as("seat", table.tokens["Bob"])
    assert "Rain" in bob_page and 'value="remove_house_card"' not in bob_page
    ann, ann_page = page_as("seat", table.tokens["Ann"])
    assert 'aria-label="Remove Rain"' in ann_page
    r = ann.post(f"/games/{table.code}/act", data={"type": "remove_house_card", "card": "house/rain",
                                                  "next": f"/games/{table.code}/house"})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/games/{table.code}/house")
    assert table.state()["house_cards"] == []
    table.undo("Ann")
    _host, host_page = page_as("host", table.host_token)
    assert 'aria-label="Remove Rain"' in host_page


def test_remove_house_card_through_the_api_the_adder_or_the_host(table):
    table.join("Ann")
    table.join("Bob")
    table.act("Ann", {"type": "add_house_card", "card": {"kind": "curse", "name": "Rain"}})
    body = table.act("Bob", {"type": "remove_house_card", "card": "house/rain"}, expect=422)
    assert body["error"]["rule"] == "owner-last-word" and body["error"]["citation"]
    assert "Ann" in body["error"]["message"]
    body = table.act("Ann", {"type": "remove_house_card", "card": "house/rain"})
    assert body["event"]["text"] == "House card removed: Rain (curse)" and body["state"]["house_cards"] == []
    table.undo("Ann")
    table.act("host", {"type": "remove_house_card", "card": "house/rain"})
    body = table.act("host", {"type": "remove_house_card", "card": "house/rain"}, expect=400)
    assert "no house card house/rain" in body["error"]["message"]


def long_named(count, prefix):
    return [{"kind": "other", "name": f"{prefix} {i:03d} " + "n" * 70} for i in range(count)]


def test_importing_and_undoing_in_a_loop_never_jams_the_game(tmp_path):
    app = make_app(tmp_path)
    table = ApiTable(app.test_client())
    table.join("Ann")
    # 500 cards with 80-character names, imported and taken back again and again: each
    # history line names a few of them, so the log stays small and every action still fits.
    for round_ in range(8):
        table.act("host", {"type": "import_house_cards", "cards": long_named(500, f"R{round_}")})
        table.undo("host")
    table.act("Ann", {"type": "level", "player": table.ids["Ann"], "delta": 1})
    store = app.extensions["companion_store"]
    import json

    from companion.store import MAX_STATE_BYTES
    assert len(json.dumps(store.load(table.code))) < MAX_STATE_BYTES // 4


def big_card(n):
    return {"kind": "item", "name": f"Heirloom {n}", "bonus": 1, "slot": "other",
            "summary": "s" * 600, "sources": ["x" * 600] * 10, "aka": [f"Old {n} " + "a" * 70] * 10}


def test_house_cards_up_to_their_bound_leave_every_action_working(tmp_path):
    app = make_app(tmp_path)
    table = ApiTable(app.test_client())
    table.join("Ann")
    n, refused = 0, None
    while refused is None:  # as many big cards as a request carries, until the table is full
        r = table.send("host", {"type": "import_house_cards", "cards": [big_card(n + i) for i in range(8)]})
        if r.status_code == 413:
            refused = r.get_json()["error"]["message"]
        else:
            assert r.status_code == 200, r.get_json()
            n += 8
    assert "Remove some house cards first" in refused and "KB" in refused
    while table.send("host", {"type": "add_house_card", "card": big_card(n)}).status_code == 200:
        n += 1
    # Full: the game still plays, undoes, and takes cards off; nothing answers 413.
    ann = table.ids["Ann"]
    for _ in range(30):
        table.act("Ann", {"type": "gear", "player": ann, "delta": 1})
    table.undo("Ann")
    table.act("host", {"type": "remove_house_card", "card": "house/heirloom-0"})
    table.act("host", {"type": "add_house_card", "card": big_card(0)})
    assert len(table.state()["house_cards"]) == n
