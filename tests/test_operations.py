"""Running it for others: a backup taken while phones write, restored into a fresh instance
with every game intact; restore refused while a server uses the database; /healthz with the
database up and down; a database from a newer version refused in one clear line; a busy port
and an unreachable database at start: one line and exit 1, no traceback; `companion check`."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading

import pytest
import requests
from sqlalchemy import create_engine, text

from companion import create_app

from .serving import free_port, serving, stderr_of

WAIT = 30


def _env(instance, **more):
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
    return {**env, "COMPANION_INSTANCE_PATH": str(instance), "COMPANION_SECRET_KEY": "ops-tests", **more}


def _companion(*args, env, timeout=60):
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], env=env, capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture
def running(tmp_path):
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = _env(tmp_path / "live", COMPANION_PUBLIC_URL=url,
               **{k: "100000 per minute" for k in ("COMPANION_RATELIMIT_CREATE", "COMPANION_RATELIMIT_JOIN",
                                                    "COMPANION_RATELIMIT_ACTIONS")})
    with serving([sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
                 url, output=stderr_of, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        yield {"url": url, "env": env, "port": port, "proc": proc, "instance": tmp_path / "live"}


def _table(url):
    game = requests.post(f"{url}/api/games", json={"edition": "classic"}, timeout=WAIT).json()
    seat = requests.post(f"{url}/api/games/{game['code']}/players", json={"name": "Ann", "sex": "female"},
                         timeout=WAIT).json()
    return game["code"], seat


def test_a_backup_taken_while_phones_write_restores_every_game(running, tmp_path):
    url = running["url"]
    tables = [_table(url) for _ in range(3)]
    stop = threading.Event()

    def tapping():  # phones keep writing while the backup is taken
        delta = 1
        while not stop.is_set():
            for code, seat in tables:
                requests.post(f"{url}/api/games/{code}/actions", timeout=WAIT,
                              headers={"Authorization": f"Bearer {seat['token']}"},
                              json={"type": "gear", "player": seat["player_id"], "delta": delta})
            delta = -delta
    worker = threading.Thread(target=tapping)
    worker.start()
    try:
        done = _companion("backup", str(tmp_path / "nightly.db"), env=running["env"])
    finally:
        stop.set()
        worker.join()
    assert done.returncode == 0, done.stderr
    assert "backed up 3 games" in done.stdout
    # Restore is refused while the server uses the database ...
    refused = _companion("restore", str(tmp_path / "nightly.db"), env=running["env"])
    assert refused.returncode == 1 and "a server is using" in refused.stderr
    assert "Traceback" not in refused.stderr
    # ... and a fresh instance restored from the backup has every game, each at a version.
    fresh = _env(tmp_path / "fresh")
    restored = _companion("restore", str(tmp_path / "nightly.db"), env=fresh)
    assert restored.returncode == 0, restored.stderr
    app = create_app({"TESTING": True, "SECRET_KEY": "x",
                      "COMPANION_DATABASE_URL": f"sqlite:///{tmp_path / 'fresh' / 'companion.db'}"})
    store = app.extensions["companion_store"]
    for code, _seat in tables:
        state = store.load(code)
        assert [p["name"] for p in state["players"]] == ["Ann"] and state["version"] >= 1
    store.close()


def test_healthz_answers_with_the_database_up_and_down(app, client, monkeypatch):
    r = client.get("/healthz")
    assert r.status_code == 200 and r.get_json()["ok"] is True
    for _ in range(30):  # never counted as a guess of a code, however often a monitor asks
        assert client.get("/healthz").status_code == 200
    store = app.extensions["companion_store"]
    port = free_port()  # nothing listens there: the database is down
    monkeypatch.setattr(store, "engine", create_engine(f"postgresql+psycopg://nobody@127.0.0.1:{port}/none",
                                                       connect_args={"connect_timeout": 2}))
    r = client.get("/healthz")
    assert r.status_code == 503 and r.get_json() == {"ok": False, "database": "unreachable"}


def test_a_database_from_a_newer_version_is_refused_in_one_line(tmp_path):
    env = _env(tmp_path)
    assert _companion("check", env=env).returncode == 0
    create_app({"TESTING": True, "SECRET_KEY": "x",
                "COMPANION_DATABASE_URL": f"sqlite:///{tmp_path / 'companion.db'}"}).extensions["companion_store"].close()
    engine = create_engine(f"sqlite:///{tmp_path / 'companion.db'}")
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0099'"))
    engine.dispose()
    checked = _companion("check", env=env)
    assert checked.returncode == 1 and "newer than this version" in checked.stderr
    port = free_port()
    served = _companion("serve", "--host", "127.0.0.1", "--port", str(port), env=env)
    assert served.returncode == 1
    assert "upgraded by a newer version" in served.stderr and "Traceback" not in served.stderr
    assert len(served.stderr.strip().splitlines()) == 1


def test_a_busy_port_and_an_unreachable_database_are_one_line_each(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        served = _companion("serve", "--host", "127.0.0.1", "--port", str(port), env=_env(tmp_path))
    assert served.returncode == 1 and "already in use" in served.stderr
    assert "Traceback" not in served.stderr
    down = f"postgresql://nobody@127.0.0.1:{free_port()}/none?connect_timeout=2"
    served = _companion("serve", "--host", "127.0.0.1", "--port", str(free_port()),
                        env=_env(tmp_path, COMPANION_DATABASE_URL=down))
    assert served.returncode == 1 and "cannot reach the database" in served.stderr
    assert "Traceback" not in served.stderr and "nobody@127.0.0.1" in served.stderr
    checked = _companion("check", env=_env(tmp_path, COMPANION_DATABASE_URL=down))
    assert checked.returncode == 1 and "cannot use the database" in checked.stderr


def test_backup_on_postgresql_says_pg_dump_is_the_way(tmp_path):
    url = "postgresql://companion:secret@db.example:5432/companion"
    done = _companion("backup", str(tmp_path / "x.dump"), env=_env(tmp_path, COMPANION_DATABASE_URL=url))
    assert done.returncode == 1 and "pg_dump --format=custom" in done.stderr and "secret" not in done.stderr


def test_the_access_log_names_the_phones_address_behind_a_trusted_proxy(tmp_path):
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = _env(tmp_path, COMPANION_PUBLIC_URL=url, COMPANION_TRUSTED_PROXIES="1")
    with serving([sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                  "--access-log"], url, output=stderr_of, env=env,
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert requests.get(url + "/healthz", headers={"X-Forwarded-For": "203.0.113.9"},
                            timeout=WAIT).status_code == 200
    log = proc.stderr.read().decode()
    line = next(l for l in log.splitlines() if "/healthz" in l)
    assert line.startswith("203.0.113.9 "), line
