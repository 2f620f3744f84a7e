"""Shared fixtures: every test gets its own app and its own fresh SQLite database."""

from __future__ import annotations

import pytest

from companion import create_app


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
