"""Shared fixtures: every test gets its own app and its own fresh database (SQLite, or
PostgreSQL too in the modules that ask for both)."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import uuid
from pathlib import Path

import pytest
from hypothesis import settings
from sqlalchemy.pool import NullPool

from companion import create_app
from companion.catalog import load_catalog
from companion.engine.editions import EDITIONS

from .helpers import ApiTable, CompiledTemplates

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


APP_CONFIG = {
    "TESTING": True,
    "SECRET_KEY": "test-secret",
    "WTF_CSRF_ENABLED": False,
    "LIVE_STREAM_SECONDS": 2,
    "LIVE_HEARTBEAT_SECONDS": 0.5,
}


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory):
    """A SQLite file as the app leaves a new one: migrated to the newest revision, no game in
    it (checked). Each test's app starts on a copy of it, which saves it the migrations (about
    30 ms a test); a fresh file migrated from nothing is tests/test_store_databases.py's."""
    path = tmp_path_factory.mktemp("migrated") / "migrated.db"
    create_app({**APP_CONFIG, "COMPANION_DATABASE_URL": f"sqlite:///{path}"}).extensions["companion_store"].close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # everything in the file itself
        tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        rows = {name: db.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0] for name in tables}
    assert rows.pop("alembic_version") == 1 and not any(rows.values()), rows
    return path


@pytest.fixture
def app(request, database_url):
    if database_url.startswith("sqlite:///"):
        path = Path(database_url.removeprefix("sqlite:///"))
        if not path.exists():  # nothing put there by the test first
            shutil.copyfile(request.getfixturevalue("migrated_sqlite"), path)
    app = create_app({**APP_CONFIG, "COMPANION_DATABASE_URL": database_url})
    CompiledTemplates.share(app)
    yield app
    app.extensions["companion_store"].close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def table(client):
    return ApiTable(client)


@pytest.fixture
def game_in_full_swing(client):
    """(table, names): a classic game with a fight on (Ann against a Big Rat with an enhancer,
    a bribe offered to Bob, Bob cursed, a refusal), and the names its pages show (players, cards,
    editions), which are the same in every language."""
    table = ApiTable(client)
    for name, sex in (("Ann", "female"), ("Bob", "male"), ("Cid", "male")):
        table.join(name, sex)
    ann, bob = table.ids["Ann"], table.ids["Bob"]
    table.act("Ann", {"type": "play", "player": ann, "card": {"kind": "item", "name": "Club", "bonus": 2,
                                                             "slot": "1-hand", "gold": 300}})
    table.act("Bob", {"type": "play", "player": bob, "card": {"kind": "item", "name": "Hat", "bonus": 1,
                                                             "slot": "headgear", "gold": 200,
                                                             "requires": {"race": "elf"}}})
    table.act("Bob", {"type": "play", "player": bob, "card": {"kind": "curse", "name": "Hex",
                                                             "duration": "lasting", "bonus": -1}})
    table.act("Ann", {"type": "level", "player": ann, "delta": 2})
    table.act("Ann", {"type": "fight", "player": ann,
                      "monster": {"kind": "monster", "name": "Big Rat", "level": 8, "treasures": 2}})
    table.act("Ann", {"type": "enhance", "monster": 0, "card": {"kind": "enhancer", "name": "Ancient",
                                                                "bonus": 10, "treasures": 2}})
    table.act("Ann", {"type": "offer", "to": bob, "treasures": 1})
    table.act("Bob", {"type": "level", "player": bob, "delta": -1}, expect=422)
    names = {"Ann", "Bob", "Cid", "Club", "Hat", "Hex", "Big Rat", "Ancient", table.code, "Munchkin",
             "Munchkin Companion", "QR"}
    names |= {e.name for e in EDITIONS.values()}
    names |= {c["name"] for c in load_catalog().search(None)}
    return table, names

