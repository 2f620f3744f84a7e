"""What one game stores is bounded: an ordinary change adds about its own size, old events lose
the patches undo can no longer reach, undo still reaches back at least 200 changes, a game at
its bound refuses further changes clearly and writes nothing (undo and removing house cards
still work), and a real game night never meets the bound."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text

from companion import store as store_module
from companion.engine import Actor
from companion.engine.errors import TooLarge
from companion.engine.errors import TooFarBack
from companion.store import COMPACTED, MAX_GAME_BYTES, Store

from .helpers import ApiTable, house_cards

BOTH_DATABASES = True


@pytest.fixture
def stores(database_url):
    opened = []

    def open_store(**kwargs) -> Store:
        opened.append(Store(database_url, **kwargs))
        return opened[-1]

    yield open_store
    for store in opened:
        store.close()


def patches(database_url: str, code: str) -> list[str]:
    """Each event's stored patch, oldest first, read straight from the database."""
    eng = create_engine(database_url)
    try:
        with eng.connect() as connection:
            return [row[0] for row in connection.execute(text(
                "SELECT e.state_before FROM event e JOIN game g ON g.id = e.game_id "
                "WHERE g.code = :code ORDER BY e.id"), {"code": code})]
    finally:
        eng.dispose()


def new_table(store: Store) -> tuple[str, int, Actor]:
    state, _host = store.create_game("classic")
    _state, pid, _token = store.join(state["code"], "Ann", "female")
    return state["code"], pid, Actor(player=pid)


def tap(store: Store, code: str, pid: int, actor: Actor, times: int) -> list[int]:
    """``times`` gear taps (up to 50 and down again, and so on); the gear after each."""
    after = []
    for i in range(times):
        state = store.apply(code, {"type": "gear", "player": pid, "delta": 1 if i // 50 % 2 == 0 else -1},
                            actor)
        after.append(gear_of(state, pid))
    return after


def gear_of(state: dict, pid: int) -> int:
    return next(p for p in state["players"] if p["id"] == pid)["gear_adjust"]


# --- undo's reach after compaction -----------------------------------------------------------

def test_undo_reaches_back_at_least_200_changes_after_compaction_and_refuses_clearly_beyond(
        stores, database_url):
    store = stores()
    code, pid, ann = new_table(store)
    after = [0] + tap(store, code, pid, ann, 600)  # version 601: compacted at 100, 200 ... 600
    stored = patches(database_url, code)
    assert stored.count(COMPACTED) > 250  # old patches are gone ...
    assert COMPACTED not in stored[-300:]  # ... the latest 300 are whole
    tracked, counted = store.stored_bytes(code)
    assert tracked == counted

    undone = 0
    with pytest.raises(TooFarBack) as refused:
        while True:
            state = store.undo(code, ann)
            undone += 1
            assert gear_of(state, pid) == after[600 - undone]  # each undo takes back one change
    assert 200 <= undone < 600
    assert refused.value.status == 409
    assert refused.value.message == ("That change is too far back to undo: a game keeps what undo "
                                     "needs for its latest few hundred changes only.")
    assert gear_of(store.load(code), pid) == after[600 - undone]  # the refusal wrote nothing
    tracked, counted = store.stored_bytes(code)
    assert tracked == counted


def test_a_long_run_of_changes_and_undos_does_not_shorten_undos_reach(stores, monkeypatch):
    # At a tenth of the scale (undo keeps 30 changes, compacted every 10 versions, so a run of
    # undos reaches back at least 20, as 200 at full scale): quicker.
    monkeypatch.setattr(store_module, "UNDO_KEPT", 30)
    monkeypatch.setattr(store_module, "COMPACT_EVERY", 10)
    store = stores()
    code, pid, ann = new_table(store)
    after = [0] + tap(store, code, pid, ann, 60)
    for _ in range(40):  # 80 versions of a change taken back again: undo's stack stays put
        store.apply(code, {"type": "level", "player": pid, "delta": 1}, ann)
        store.undo(code, ann)
    for undone in range(1, 21):  # still 20 changes back, across several compactions
        assert gear_of(store.undo(code, ann), pid) == after[60 - undone]
    with pytest.raises(TooFarBack):
        for _ in range(40):
            store.undo(code, ann)


def test_taking_back_what_was_just_done_leaves_200_changes_to_undo(stores, monkeypatch):
    # 99 changes, then a compaction, then the 99 taken back again: 200 more still undo (a
    # tenth of the scale, as above).
    monkeypatch.setattr(store_module, "UNDO_KEPT", 30)
    monkeypatch.setattr(store_module, "COMPACT_EVERY", 10)
    store = stores()
    code, pid, ann = new_table(store)
    after = [0] + tap(store, code, pid, ann, 40)  # version 41
    tap(store, code, pid, ann, 9)  # version 50: compacted with these 9 on top
    for _ in range(9):
        store.undo(code, ann)
    for undone in range(1, 21):
        assert gear_of(store.undo(code, ann), pid) == after[40 - undone]
    tracked, counted = store.stored_bytes(code)
    assert tracked == counted


def test_a_refused_undo_answers_409_json_under_the_api(app, monkeypatch):
    monkeypatch.setattr(store_module, "UNDO_KEPT", 5)
    monkeypatch.setattr(store_module, "COMPACT_EVERY", 10)
    table = ApiTable(app.test_client())
    table.join("Ann")
    for _ in range(30):
        table.act("Ann", {"type": "gear", "player": table.ids["Ann"], "delta": 1})
    n = 0
    while True:
        r = table.request("POST", "undo", "Ann")
        if r.status_code != 200:
            break
        n += 1
    assert 5 <= n < 30
    assert r.status_code == 409 and r.is_json
    assert "too far back to undo" in r.get_json()["error"]["message"]


# --- the bound --------------------------------------------------------------------------------

def rows(database_url: str, code: str) -> tuple:
    eng = create_engine(database_url)
    try:
        with eng.connect() as connection:
            return connection.execute(text(
                "SELECT g.version, g.state, g.house_cards, g.log_bytes, "
                "(SELECT COUNT(*) FROM event e WHERE e.game_id = g.id) FROM game g WHERE g.code = :code"),
                {"code": code}).one()
    finally:
        eng.dispose()


def card(n: int) -> dict:
    return {"kind": "item", "name": f"Heirloom {n}", "bonus": 1, "slot": "other", "summary": "s" * 300}


def test_a_game_at_its_bound_refuses_changes_and_writes_nothing_but_undo_and_removing_cards_work(
        stores, database_url):
    store = stores(max_game_bytes=60_000)
    code, pid, ann = new_table(store)
    host = Actor(host=True)
    added = 0
    with pytest.raises(TooLarge) as refused:
        while True:
            store.apply(code, {"type": "add_house_card", "card": card(added)}, host)
            added += 1
    assert added > 10
    assert refused.value.status == 413
    assert str(refused.value).endswith(
        "This game has stored as much as one game may (0.06 MB), so it takes no more changes. Undo and "
        "removing house cards still work; to play on, start a new game.")
    at_bound = rows(database_url, code)
    tracked, counted = store.stored_bytes(code)
    assert tracked == counted <= 60_000
    # Any other change is refused the same way, and writes nothing (no event, no version).
    for action, actor in (({"type": "gear", "player": pid, "delta": 1}, ann),
                          ({"type": "add_house_card", "card": card(999)}, host)):
        with pytest.raises(TooLarge):
            store.apply(code, action, actor)
    with pytest.raises(TooLarge):
        store.join(code, "Bob", "male")
    assert rows(database_url, code) == at_bound
    assert stores().load(code)["version"] == at_bound[0]  # as another process reads it

    # The game never jams: the host takes cards off, and undo takes changes back.
    state = store.apply(code, {"type": "remove_house_card", "card": "house/heirloom-0"}, host)
    assert len(state["house_cards"]) == added - 1
    state = store.undo(code, host)
    assert len(state["house_cards"]) == added
    state = store.undo(code, host)
    assert len(state["house_cards"]) == added - 1
    tracked, counted = store.stored_bytes(code)
    assert tracked == counted


def test_the_bound_answers_413_json_under_the_api_and_a_notice_on_pages(app):
    store = app.extensions["companion_store"]
    client = app.test_client()
    table = ApiTable(client)
    body = table.join("Ann")
    ann = table.ids["Ann"]
    tracked, _counted = store.stored_bytes(table.code)
    store.max_game_bytes = tracked + 3_000  # room for a few more changes
    refused = None
    for _ in range(50):
        r = table.send("Ann", {"type": "gear", "player": ann, "delta": 1})
        if r.status_code != 200:
            refused = r
            break
    assert refused is not None and refused.status_code == 413 and refused.is_json
    assert "has stored as much as one game may" in refused.get_json()["error"]["message"]
    version = table.state()["version"]
    client.set_cookie(f"seat_{table.code}", body["token"])
    r = client.post(f"/games/{table.code}/act", data={"type": "gear", "player": ann, "delta": "1"},
                    headers={"HX-Request": "true"})
    assert r.status_code == 413 and r.headers["HX-Retarget"] == "#notice"
    assert "start a new game" in r.get_data(as_text=True)
    assert table.state()["version"] == version
    table.undo("Ann")  # undo still works at the bound
    assert table.state()["version"] == version + 1


def test_the_bound_is_set_by_companion_max_game_bytes(database_url, monkeypatch):
    assert MAX_GAME_BYTES == 20_000_000
    monkeypatch.setenv("COMPANION_MAX_GAME_BYTES", "12345")
    store = Store(database_url)
    try:
        assert store.max_game_bytes == 12345
    finally:
        store.close()


# --- a real game night ------------------------------------------------------------------------

def play_rounds(store: Store, code: str, pids: list[int], rounds: int) -> None:
    """Rounds as a table plays them: a turn passed, a level and some gear, a fight lost and run
    from, the level and gear given back."""
    host = Actor(host=True)
    for i in range(rounds):
        pid = pids[i % len(pids)]
        me = Actor(player=pid)
        if i:
            store.apply(code, {"type": "set_turn", "player": pid}, host)
        for action in ({"type": "level", "player": pid, "delta": 1},
                       {"type": "gear", "player": pid, "delta": 2},
                       {"type": "fight", "player": pid, "monster": {
                           "kind": "monster", "name": "Plutonium Dragon", "level": 20, "treasures": 5}},
                       {"type": "resolve"},
                       {"type": "run_away", "player": pid, "roll": 6},
                       {"type": "close_fight"},
                       {"type": "level", "player": pid, "delta": -1},
                       {"type": "gear", "player": pid, "delta": -2}):
            store.apply(code, action, me)
        if i % 7 == 3:
            store.undo(code, me)


def test_a_game_night_of_5000_events_stays_far_under_the_bound(stores):
    # 5,000 events through the store would take a while on two databases; 700 show what each
    # event stores once the log is compacted, and 5,000 of them with the state stay far under.
    store = stores()
    state, _host = store.create_game("classic")
    code = state["code"]
    pids = [store.join(code, name, "female")[1] for name in ("Ann", "Bob", "Cid", "Dee", "Eve")]
    play_rounds(store, code, pids, 80)
    events = store.version(code)
    assert events >= 700
    tracked, counted = store.stored_bytes(code)
    assert tracked == counted
    log_bytes = sum(store.event_sizes(code))
    held = tracked - log_bytes  # the state and the house cards
    per_event = log_bytes / events
    assert per_event < 700
    assert held + per_event * 5000 < MAX_GAME_BYTES // 4


# --- the log's replay after compaction --------------------------------------------------------

def test_the_logs_replay_walks_back_as_far_as_compaction_left_whole_patches(stores, monkeypatch):
    # The replay (web/timeline.py) is for games from before the chronicle, which are never
    # compacted; on a compacted game it stops cleanly where the whole patches end.
    from companion.web import timeline

    monkeypatch.setattr(store_module, "UNDO_KEPT", 30)
    monkeypatch.setattr(store_module, "COMPACT_EVERY", 10)
    store = stores()
    code, pid, ann = new_table(store)
    for _ in range(60):
        store.apply(code, {"type": "level", "player": pid, "delta": 1 if store.load(code)["players"][0]["level"] < 9
                           else -8}, ann)
    state, replayed = timeline.read(store, code)
    versions = [step.version for step in replayed.steps]
    assert versions == list(range(state["version"] - len(versions) + 1, state["version"] + 1))
    assert 30 <= len(versions) < 61
    assert replayed.steps[-1].players[pid].level == state["players"][0]["level"]


# --- what one change adds ------------------------------------------------------------------

def test_an_ordinary_action_adds_about_the_size_of_the_change(table):
    table.join("Ann")
    table.act("host", {"type": "import_house_cards", "cards": house_cards(300)})
    store = table.client.application.extensions["companion_store"]
    before = len(store.event_sizes(table.code))
    table.act("Ann", {"type": "level", "player": table.ids["Ann"], "delta": 1})
    table.act("Ann", {"type": "gear", "player": table.ids["Ann"], "delta": 2})
    sizes = store.event_sizes(table.code)[before:]
    assert sizes and max(sizes) <= 2000, sizes
    table.undo("Ann")
    table.undo("Ann")
    assert table.player("Ann")["level"] == 1 and len(table.state()["house_cards"]) == 300


def test_a_game_cannot_grow_past_its_size_limit(table, monkeypatch):
    from companion import store as store_module

    monkeypatch.setattr(store_module, "MAX_STATE_BYTES", 20_000)
    body = table.act("host", {"type": "import_house_cards", "cards": house_cards(200)}, expect=413)
    assert "KB" in body["error"]["message"]
    assert table.state()["house_cards"] == []
