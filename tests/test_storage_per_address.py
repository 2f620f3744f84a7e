"""What one address may store: the games it made write at most COMPANION_MAX_BYTES_PER_ADDRESS
bytes a day (answered 413, nothing written), undo included past a small allowance; games idle
for COMPANION_GAME_TTL_DAYS are deleted with their seats and events. The attack replayed: house
cards imported and undone again and again, from one address."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import text

from companion import create_app
from companion.store.tables import _now

from .helpers import ApiTable, CompiledTemplates

BOTH_DATABASES = True
BUDGET = 400_000


@pytest.fixture
def small_budget(database_url, monkeypatch, request):
    budget = getattr(request, "param", BUDGET)
    monkeypatch.setenv("COMPANION_MAX_BYTES_PER_ADDRESS", str(budget))
    app = CompiledTemplates.share(create_app({"TESTING": True, "COMPANION_DATABASE_URL": database_url,
                                              "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False,
                                              "RATELIMIT_ENABLED": False}))
    yield app
    app.extensions["companion_store"].close()


def _cards(n, tag):
    return [{"kind": "monster", "name": f"{tag} beast {i}", "level": 3, "treasures": 1,
             "summary": "x" * 300} for i in range(n)]


def test_one_addresss_games_write_a_bounded_amount_a_day(small_budget):
    client = small_budget.test_client()
    table = ApiTable(client)
    refused = None
    for round_ in range(40):  # about 60 KB imported and undone each round
        r = table.send("host", {"type": "import_house_cards", "cards": _cards(150, f"r{round_}")})
        if r.status_code != 200:
            refused = r
            break
        assert table.request("POST", "undo", "host").status_code == 200
    assert refused is not None, "the address never met its budget"
    assert refused.status_code == 413 and refused.is_json
    assert "written as much today" in refused.get_json()["error"]["message"]
    version = table.state()["version"]
    assert table.send("host", {"type": "import_house_cards", "cards": _cards(5, "again")}).status_code == 413
    assert table.state()["version"] == version  # nothing was written
    # Another game from the same address counts in the same budget ...
    other = ApiTable(client)  # making a game writes no change; seating its first player does
    assert "written as much today" in other.join("Ann", expect=413)["error"]["message"]
    # ... a game made from another address does not.
    elsewhere = small_budget.test_client()
    elsewhere.environ_base["REMOTE_ADDR"] = "10.1.2.3"
    theirs = ApiTable(elsewhere)
    theirs.join("Bob")
    theirs.act("Bob", {"type": "level", "player": theirs.ids["Bob"], "delta": 1})


def test_games_idle_past_their_days_are_deleted_with_seats_and_events(app, client):
    store = app.extensions["companion_store"]
    old, fresh = ApiTable(client), ApiTable(client)
    for table in (old, fresh):
        table.join("Ann")
        table.act("Ann", {"type": "level", "player": table.ids["Ann"], "delta": 1})
    with store.engine.begin() as connection:
        connection.execute(text("UPDATE game SET updated_at = :at WHERE code = :code"),
                           {"at": _now() - timedelta(days=91), "code": old.code})
    assert store.prune() == 1
    assert old.request("GET").status_code == 404
    assert fresh.request("GET").status_code == 200
    with store.engine.connect() as connection:
        games = connection.execute(text("SELECT id FROM game")).all()
        assert len(games) == 1
        for table_name in ("seat", "event"):
            left = connection.execute(text(f"SELECT COUNT(*) FROM {table_name} WHERE game_id != :id"),
                                      {"id": games[0][0]}).scalar()
            assert left == 0, table_name


@pytest.mark.parametrize("small_budget", [150_000], indirect=True)
def test_undo_takes_back_a_change_made_within_the_budget_but_no_more(small_budget):
    """Two imports of about 63 KB each stay within 150 KB; the third is refused. The last
    import can still be undone (the day then passes its budget), but once the day is past its
    budget and the undo allowance (a quarter of it), undo is refused too."""
    client = small_budget.test_client()
    table = ApiTable(client)
    imported = 0
    while True:
        r = table.send("host", {"type": "import_house_cards", "cards": _cards(150, f"u{imported}")})
        if r.status_code != 200:
            break
        imported += 1
    assert r.status_code == 413 and "written as much today" in r.get_json()["error"]["message"]
    assert imported == 2
    results = [table.request("POST", "undo", "host").status_code for _ in range(imported)]
    assert results == [200, 413]
