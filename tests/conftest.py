"""Shared fixtures: every test gets its own app and its own fresh database (SQLite, or
PostgreSQL too in the modules that ask for both)."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
from hypothesis import settings
from sqlalchemy.pool import NullPool

from companion import create_app

# No property test fails for being slow: on a loaded machine (CI on two cores, the browser
# tests beside it) one example may take seconds, which is no bug of the code under test.
settings.register_profile("companion", deadline=None)
settings.load_profile("companion")


BROWSER_TESTS = Path(__file__).parent / "browser"


def pytest_collection_modifyitems(config, items):
    # A ``pytestmark`` in a conftest marks nothing, so the browser tests are marked here:
    # ``-m browser`` selects exactly them and ``-m "not browser"`` never starts Chromium.
    for item in items:
        if BROWSER_TESTS in Path(item.path).parents:
            item.add_marker(pytest.mark.browser)


DATABASES = ("sqlite", "postgresql")


def pytest_generate_tests(metafunc):
    # A test module that sets ``BOTH_DATABASES = True`` runs every test that uses the database
    # (``database_url``, so also ``app``, ``client`` and ``table``) on SQLite and on PostgreSQL.
    if "database_url" not in metafunc.fixturenames or not getattr(metafunc.module, "BOTH_DATABASES", False):
        return
    for mark in metafunc.definition.iter_markers("parametrize"):
        names = mark.args[0]
        if "database_url" in (names.replace(" ", "").split(",") if isinstance(names, str) else names):
            return  # the test chose its databases itself
    metafunc.parametrize("database_url", DATABASES, indirect=True)


@pytest.fixture(scope="session")
def postgres_admin():
    """An autocommit engine on ``COMPANION_TEST_POSTGRES_URL`` (``scripts/test.sh`` starts a
    throwaway cluster and sets it). Unset, PostgreSQL tests are skipped; set but unreachable,
    they fail."""
    url = os.environ.get("COMPANION_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("COMPANION_TEST_POSTGRES_URL is not set (bash scripts/test.sh sets it)")
    from sqlalchemy import create_engine, text

    from companion.store import database_url

    admin = create_engine(database_url(url), isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as connection:  # unreachable: an error here, never a skip
        connection.execute(text("SELECT 1"))
    yield admin
    admin.dispose()


@pytest.fixture(scope="session")
def postgres_tests(postgres_admin):
    """One database for this test run, dropped at its end: each test gets a schema of its own
    in it (a schema costs a few milliseconds, a database a few hundred)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"companion_tests_{uuid.uuid4().hex[:16]}"
    with postgres_admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(postgres_admin.url).set(database=name)
    engine = create_engine(url, isolation_level="AUTOCOMMIT", pool_size=1, pool_pre_ping=True,
                           connect_args={"application_name": "companion-tests"})
    yield url, engine
    engine.dispose()
    with postgres_admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def database_url(request, tmp_path):
    """A fresh, empty database for this test, gone afterwards: a SQLite file, or (parametrize
    indirectly with "postgresql") a PostgreSQL schema of its own, the only one on the URL's
    search_path."""
    kind = getattr(request, "param", "sqlite")
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'test.db'}"
    from sqlalchemy import text

    url, engine = request.getfixturevalue("postgres_tests")
    schema = f"t_{uuid.uuid4().hex[:20]}"
    with engine.connect() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))

    def drop():
        with engine.connect() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))

    request.addfinalizer(drop)
    return url.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)


@pytest.fixture
def app(database_url):
    app = create_app({
        "TESTING": True,
        "COMPANION_DATABASE_URL": database_url,
        "SECRET_KEY": "test-secret",
        "WTF_CSRF_ENABLED": False,
        "LIVE_STREAM_SECONDS": 2,
        "LIVE_HEARTBEAT_SECONDS": 0.5,
    })
    yield app
    app.extensions["companion_store"].close()


@pytest.fixture
def client(app):
    return app.test_client()


class Table:
    """The one game the API tests drive, through the JSON API the way phones drive it.

    ``Table(client, "tails")`` creates a game (``POST /api/games``, with any other field of its
    body as a keyword: ``variants=``, ``winning_level=``) and holds its code and host token;
    ``Table.of(client, code, host_token)`` drives a game made some other way (the fixture
    ``table`` is ``Table(client)``). ``table.join("Ann", "female")`` seats a player with a phone
    and keeps her id and token (``table.ids``, ``table.tokens``); its answer is the body.

    ``who`` is a seated name or ``"host"``. ``table.act(who, action)`` sends an action with
    who's token, checks that it fits ``GET /api/schema`` (unless a 400 is expected) and that
    the status is ``expect`` (200), and answers the body; ``join`` (201) and ``undo`` (200)
    take ``expect`` too. ``table.state()`` is the public state, ``table.player("Ann")`` Ann in
    it, ``table.allowed(who)`` what ``GET .../allowed`` lists for who, ``table.history(who)``
    the history's events.

    For the HTTP itself, answered unchecked: ``table.send(who, action)`` is the response to the
    action; ``table.request(method, path, who, **kwargs)`` sends any request to
    ``/api/games/<code>/<path>`` (a path starting with ``/``: that path) with who's
    ``Authorization`` header (``table.auth(who)``; none when who is ``None``) merged into
    ``headers``.
    """

    def __init__(self, client, edition="classic", **fields):
        self.client = client
        r = client.post("/api/games", json={"edition": edition, **fields})
        assert r.status_code == 201, r.get_json()
        body = r.get_json()
        self.code, self.host_token, self.join_url = body["code"], body["host_token"], body["join_url"]
        self.tokens: dict[str, str] = {}
        self.ids: dict[str, int] = {}

    @classmethod
    def of(cls, client, code, host_token) -> "Table":
        """The driver of a game already stored (made by the store, or stored as an older
        version left it)."""
        table = cls.__new__(cls)
        table.client, table.code, table.host_token, table.join_url = client, code, host_token, None
        table.tokens, table.ids = {}, {}
        return table

    # --- the HTTP ---------------------------------------------------------------------------

    def auth(self, who) -> dict:
        token = self.host_token if who == "host" else self.tokens[who]
        return {"Authorization": f"Bearer {token}"}

    def request(self, method, path="", who=None, *, headers=None, **kwargs):
        url = path if path.startswith("/") else f"/api/games/{self.code}" + (f"/{path}" if path else "")
        headers = {**(self.auth(who) if who is not None else {}), **(headers or {})}
        return self.client.open(url, method=method, headers=headers, **kwargs)

    # --- seats and actions --------------------------------------------------------------------

    def join(self, name, sex="male", expect=201):
        r = self.request("POST", "players", json={"name": name, "sex": sex})
        assert r.status_code == expect, (r.status_code, r.get_json())
        body = r.get_json()
        if expect == 201:
            self.tokens[name], self.ids[name] = body["token"], body["player_id"]
        return body

    def act(self, who, action, expect=200):
        if expect != 400:  # every well-formed action a test sends fits GET /api/schema
            import jsonschema

            validator = getattr(Table, "_schema_validator", None)
            if validator is None:  # fetched and checked once per test run
                r = self.client.get("/api/schema")
                assert r.status_code == 200, r.status_code
                jsonschema.Draft202012Validator.check_schema(r.get_json()["actions"])
                validator = Table._schema_validator = jsonschema.Draft202012Validator(r.get_json()["actions"])
            error = jsonschema.exceptions.best_match(validator.iter_errors(action))
            assert error is None, (f"{action} does not fit GET /api/schema: {error.message} "
                                   f"(at {'/'.join(map(str, error.absolute_path)) or 'the top'})")
        r = self.send(who, action)
        assert r.status_code == expect, (r.status_code, r.get_json())
        return r.get_json()

    def send(self, who, action, **kwargs):
        """``POST .../actions`` with who's token, answered unchecked (a tap whatever comes of it)."""
        return self.request("POST", "actions", who, json=action, **kwargs)

    def undo(self, who, expect=200):
        r = self.request("POST", "undo", who)
        assert r.status_code == expect, (r.status_code, r.get_json())
        return r.get_json()

    # --- reading the game ---------------------------------------------------------------------

    def state(self):
        return self.request("GET").get_json()

    def player(self, name):
        return next(p for p in self.state()["players"] if p["id"] == self.ids[name])

    def allowed(self, who) -> dict:
        r = self.request("GET", "allowed", who)
        assert r.status_code == 200, (r.status_code, r.get_json())
        return r.get_json()["allowed"]

    def history(self, who=None) -> list[dict]:
        r = self.request("GET", "history", who)
        assert r.status_code == 200, (r.status_code, r.get_json())
        return r.get_json()["events"]


@pytest.fixture
def table(client):
    return Table(client)
