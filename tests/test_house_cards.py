"""House cards at a table: imported from a file on the host's page (junk refused clearly),
taken back by undo, removed only by the host or the seat that added them, at most 500 to a
game, and never jamming it: imported and undone in a loop, or up to the game's bound, every
action still works."""

from __future__ import annotations

import json

from .helpers import HOUSE_MONSTER, ApiTable, house_cards, make_app

BOTH_DATABASES = True  # every test here that uses the database runs on SQLite and PostgreSQL


# --- import, undo, the limit --------------------------------------------------------------------

def test_house_cards_import_from_the_page_takes_a_file_and_refuses_junk_clearly(table):
    table.join("Ann")
    client = table.client
    client.set_cookie("host_" + table.code, table.host_token)
    good = json.dumps({"cards": [dict(HOUSE_MONSTER, name="Page Monster")]})
    r = client.post(f"/games/{table.code}/house/import", data={"text": good})
    assert r.status_code == 303
    assert [c["name"] for c in table.state()["house_cards"]] == ["Page Monster"]
    for junk in ("not json", json.dumps({"cards": [{"kind": "monster", "name": "\ud800"}]})):
        r = client.post(f"/games/{table.code}/house/import", data={"text": junk})
        assert r.status_code == 400 and b"<html" in r.data.lower()
    assert len(table.state()["house_cards"]) == 1


def test_undo_of_a_house_card_import_takes_the_cards_back(table):
    table.act("host", {"type": "import_house_cards", "cards": house_cards(3)})
    table.undo("host")
    assert table.state()["house_cards"] == []


def test_house_cards_per_game_are_limited_with_a_clear_413(table):
    table.act("host", {"type": "import_house_cards", "cards": house_cards(500)})
    body = table.act("host", {"type": "add_house_card", "card": dict(HOUSE_MONSTER, name="One more")},
                     expect=413)
    assert "500" in body["error"]["message"]
    assert len(table.state()["house_cards"]) == 500


# --- removed by the host or their adder ------------------------------------------------------

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


# --- never jamming the game ------------------------------------------------------------------

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
