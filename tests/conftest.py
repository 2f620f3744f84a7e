"""Shared fixtures: every test gets its own app and its own fresh SQLite database."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import create_app


BROWSER_TESTS = Path(__file__).parent / "browser"


def pytest_collection_modifyitems(config, items):
    # A ``pytestmark`` in a conftest marks nothing, so the browser tests are marked here:
    # ``-m browser`` selects exactly them and ``-m "not browser"`` never starts Chromium.
    for item in items:
        if BROWSER_TESTS in Path(item.path).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture
def app(tmp_path):
    app = create_app({
        "TESTING": True,
        "COMPANION_DATABASE_URL": f"sqlite:///{tmp_path / 'test.db'}",
        "SECRET_KEY": "test-secret",
        "WTF_CSRF_ENABLED": False,
        "LIVE_STREAM_SECONDS": 2,
        "LIVE_HEARTBEAT_SECONDS": 0.5,
    })
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


class Table:
    """A game driven through the JSON API the way phones drive it."""

    def __init__(self, client, edition="classic"):
        self.client = client
        r = client.post("/api/games", json={"edition": edition})
        assert r.status_code == 201, r.get_json()
        body = r.get_json()
        self.code, self.host_token, self.join_url = body["code"], body["host_token"], body["join_url"]
        self.tokens: dict[str, str] = {}
        self.ids: dict[str, int] = {}

    def join(self, name, sex="male"):
        r = self.client.post(f"/api/games/{self.code}/players", json={"name": name, "sex": sex})
        assert r.status_code == 201, r.get_json()
        body = r.get_json()
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
        token = self.host_token if who == "host" else self.tokens[who]
        r = self.client.post(f"/api/games/{self.code}/actions", json=action,
                             headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == expect, (r.status_code, r.get_json())
        return r.get_json()

    def undo(self, who, expect=200):
        token = self.host_token if who == "host" else self.tokens[who]
        r = self.client.post(f"/api/games/{self.code}/undo", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == expect, (r.status_code, r.get_json())
        return r.get_json()

    def state(self):
        return self.client.get(f"/api/games/{self.code}").get_json()

    def player(self, name):
        return next(p for p in self.state()["players"] if p["id"] == self.ids[name])


@pytest.fixture
def table(client):
    return Table(client)
