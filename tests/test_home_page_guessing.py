"""The home page lists the games this browser holds a cookie for; a cookie can name any code,
so the home page is one more door for guessing codes and counts like the others: a code that
names no game is a guess (the budget of /join/<code>), an address over its budget gets no
lookups, and which codes are live is found in one query."""

from __future__ import annotations

from companion import create_app

from .helpers import ApiTable, CompiledTemplates


def make_app(tmp_path, **config):
    return CompiledTemplates.share(create_app({"TESTING": True, "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False,
                                               "COMPANION_DATABASE_URL": f"sqlite:///{tmp_path / 'home.db'}",
                                               **config}))


def test_cookies_naming_no_game_count_as_guesses(tmp_path):
    app = make_app(tmp_path, COMPANION_RATELIMIT_UNKNOWN_CODE="5 per minute")
    client = app.test_client()
    real = ApiTable(client)
    ann = real.join("Ann", "female")
    client.set_cookie(f"seat_{real.code}", ann["token"])
    for _ in range(4):  # one's own games are never guesses
        page = client.get("/")
        assert page.status_code == 200 and real.code in page.get_data(as_text=True)
    for code in ("ZZZZZ01", "ZZZZZ02", "ZZZZZ03", "ZZZZZ04", "ZZZZZ05"):
        client.set_cookie(f"seat_{code}", "x")
    client.get("/")  # five made-up codes: five guesses
    # The address is over its budget: a real game's door is refused ...
    assert real.request("GET").status_code == 429
    # ... and the home page still answers, but looks nothing up, the real game included.
    page = client.get("/")
    assert page.status_code == 200 and real.code not in page.get_data(as_text=True)
    # Another address is not affected.
    other = client.get("/", environ_base={"REMOTE_ADDR": "10.9.8.7"})
    assert other.status_code == 200 and real.code in other.get_data(as_text=True)


def test_the_home_page_asks_which_codes_are_live_in_one_query(tmp_path, monkeypatch):
    app = make_app(tmp_path)
    client = app.test_client()
    real = ApiTable(client)
    ann = real.join("Ann", "female")
    store = app.extensions["companion_store"]
    asked = []
    existing = store.existing
    monkeypatch.setattr(store, "existing", lambda codes: asked.append(sorted(codes)) or existing(codes))
    reads = []
    read = store.read
    monkeypatch.setattr(store, "read", lambda code: reads.append(code) or read(code))
    client.set_cookie(f"seat_{real.code}", ann["token"])
    for code in ("ZZZZZ01", "ZZZZZ02", "ZZZZZ03"):
        client.set_cookie(f"host_{code}", "x")
    assert client.get("/").status_code == 200
    assert asked == [sorted([real.code, "ZZZZZ01", "ZZZZZ02", "ZZZZZ03"])]
    assert reads == [real.code]  # a dead code costs no read of its own
