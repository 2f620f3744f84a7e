"""Running it for others: a backup taken while phones write, restored into a fresh instance
with every game intact; restore refused while a server uses the database; /healthz with the
database up and down; a database from a newer version refused in one clear line; a busy port
and an unreachable database at start: one line and exit 1, no traceback; `companion check`."""

from __future__ import annotations

import json
import os
import re
import shlex
import sqlite3
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

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


@pytest.mark.skipif(os.geteuid() != 0, reason="only root restores into another user's folder")
def test_root_restoring_into_a_new_state_folder_leaves_the_files_to_the_folders_owner(tmp_path):
    made = _env(tmp_path / "made")
    (tmp_path / "made").mkdir()
    create_app({"TESTING": True, "SECRET_KEY": "x", "COMPANION_DATABASE_URL":
                f"sqlite:///{tmp_path / 'made' / 'companion.db'}"}).extensions["companion_store"].close()
    assert _companion("backup", str(tmp_path / "saved.db"), env=made).returncode == 0
    state = tmp_path / "state"  # a new machine's /var/lib/private/companion, the service user's
    state.mkdir()
    os.chown(state, 61234, 61234)
    restored = _companion("restore", str(tmp_path / "saved.db"), env=_env(state))
    assert restored.returncode == 0, restored.stderr
    owners = {p.name: (p.stat().st_uid, p.stat().st_gid) for p in state.iterdir()}
    assert owners and set(owners.values()) == {(61234, 61234)}, owners


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


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
def test_an_older_process_still_running_after_an_upgrade_says_so(client, database_url):
    """The guide's reason to stop every process before upgrading: one left running on a schema
    a newer version changed answers its phones "being upgraded" (never "very busy"), and its
    /healthz turns 503."""
    game = client.post("/api/games", json={"edition": "classic"}).get_json()
    seat = client.post(f"/api/games/{game['code']}/players", json={"name": "Ann", "sex": "female"}).get_json()
    engine = create_engine(database_url)
    try:
        with engine.begin() as connection:  # what a newer version's migration might do
            connection.execute(text("ALTER TABLE event RENAME COLUMN data TO data_in_0099"))
            connection.execute(text("UPDATE alembic_version SET version_num = '0099'"))
    finally:
        engine.dispose()
    answer = client.post(f"/api/games/{game['code']}/actions", headers={"Authorization": f"Bearer {seat['token']}"},
                         json={"type": "level", "player": seat["player_id"], "delta": 1})
    assert answer.status_code == 503 and "being upgraded" in answer.get_json()["error"]["message"]
    health = client.get("/healthz")
    assert health.status_code == 503 and health.get_json()["database"] == "other schema"


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
    _one_line_failure(_companion("check", env=_env(tmp_path, COMPANION_DATABASE_URL=down)),
                      "cannot use the database", "connecting failed", "nobody@127.0.0.1")


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


# --- companion check ----------------------------------------------------------------------

def _one_line_failure(done, *needles):
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    for needle in needles:
        assert needle in done.stderr, done.stderr


def test_check_tries_an_upgrade_and_a_game_on_sqlite_and_leaves_both_undone(tmp_path):
    from .helpers import OLD_SQLITE_SCHEMA

    env = _env(tmp_path)
    database = tmp_path / "companion.db"
    first = _companion("check", env=env)  # before the first start: nothing there, nothing made
    assert first.returncode == 0 and "no database at" in first.stdout and not database.exists()
    with sqlite3.connect(database) as db:  # a database as a version from before migrations left it
        db.executescript(OLD_SQLITE_SCHEMA)
    db.close()
    checked = _companion("check", env=env)
    assert checked.returncode == 0, checked.stderr
    assert "upgrading the schema to" in checked.stdout and "rolled back" in checked.stdout
    with sqlite3.connect(database) as db:  # untouched: the next server start does the upgrade
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        columns = {row[1] for row in db.execute("PRAGMA table_info(event)")}
    db.close()
    assert tables == {"game", "seat", "event"} and "text" in columns and "data" not in columns


def _pg_tool(name: str) -> str:
    """createuser / createdb: on PATH, or beside initdb in Debian's PostgreSQL folder."""
    import glob
    import shutil

    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))[-1:]), None)
    if not found:
        pytest.skip(f"PostgreSQL's {name} is not installed")
    return found


@pytest.fixture
def guide_role(postgres_admin):
    """The role and database deploy/README.md (section 4) tells the operator to make, by its
    own commands (``sudo -u postgres createuser companion --pwprompt``, ``sudo -u postgres
    createdb companion --owner companion``; the test cluster trusts 127.0.0.1, so no password
    prompt), under a name of this test's own; and a second database made without --owner."""
    import uuid

    from sqlalchemy.engine import make_url

    admin = make_url(postgres_admin.url)
    name = f"companion_{uuid.uuid4().hex[:10]}"
    where = ["--host", admin.host, "--port", str(admin.port), "--username", admin.username]
    for command in ([_pg_tool("createuser"), *where, name],
                    [_pg_tool("createdb"), *where, name, "--owner", name],
                    [_pg_tool("createdb"), *where, f"{name}_unowned"]):
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
    with postgres_admin.connect() as connection:
        role = connection.execute(text("SELECT rolsuper, rolcreatedb, rolcreaterole FROM pg_roles "
                                       "WHERE rolname = :n"), {"n": name}).one()
    assert tuple(role) == (False, False, False)  # no CREATEDB, no superuser: the guide's role
    url = admin.set(username=name, password="guide-password", database=name)
    try:
        yield {"name": name, "url": url.render_as_string(hide_password=False), "admin": admin,
               "unowned": url.set(database=f"{name}_unowned").render_as_string(hide_password=False)}
    finally:
        with postgres_admin.connect() as connection:
            for database in (name, f"{name}_unowned"):
                connection.execute(text(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))
            connection.execute(text(f'DROP ROLE IF EXISTS "{name}"'))


def test_check_works_with_the_guides_postgresql_role_and_fails_in_one_line_without_it(guide_role, tmp_path):
    url, name = guide_role["url"], guide_role["name"]
    env = _env(tmp_path, COMPANION_DATABASE_URL=url)
    checked = _companion("check", env=env)
    assert checked.returncode == 0, checked.stderr
    said = checked.stdout
    assert f"as role {name}" in said and "empty" in said and "guide-password" not in said
    assert "making the tables" in said and "writing, changing and deleting a game" in said
    assert "rolled back" in said
    engine = create_engine(url)
    try:
        with engine.connect() as connection:  # nothing stays behind
            assert connection.execute(text("SELECT COUNT(*) FROM pg_tables WHERE schemaname = 'public'")).scalar() == 0
        # The first server start makes the tables, as this role; check then finds them current.
        create_app({"TESTING": True, "SECRET_KEY": "x", "COMPANION_DATABASE_URL": url}) \
            .extensions["companion_store"].close()
        checked = _companion("check", env=env)
        assert checked.returncode == 0 and "up to date, 0 games" in checked.stdout, checked.stderr
        # A privilege a server needs taken away: one line naming the step and the refusal.
        with engine.begin() as connection:
            connection.execute(text(f'REVOKE INSERT ON seat FROM "{name}"'))
        _one_line_failure(_companion("check", env=env), "cannot use the database", f"as role {name}",
                          "writing a game failed", "permission denied for table seat")
    finally:
        engine.dispose()
    # A database the role does not own (createdb without --owner): PostgreSQL 15 lets only
    # the owner make tables in it, so the first start would fail: check says so first.
    _one_line_failure(_companion("check", env=_env(tmp_path, COMPANION_DATABASE_URL=guide_role["unowned"])),
                      "making the tables failed", "permission denied for schema public", "--owner")
    # The database down: test_a_busy_port_and_an_unreachable_database_are_one_line_each.


# --- deploy/README.md, section 5, as written ---------------------------------------------

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"


def guide_line(start: str) -> str:
    """The command of deploy/README.md (a code line) that begins with ``start``: exactly one
    such command, so a reworded guide fails here instead of being tested half."""
    found = {line.strip() for line in (DEPLOY / "README.md").read_text().splitlines()
             if line.startswith("    ") and line.strip().startswith(start)}
    assert len(found) == 1, f"deploy/README.md: expected one command starting {start!r}, found {sorted(found)}"
    return found.pop()


def unit_lines(unit: str, key: str) -> list[str]:
    return re.findall(rf"(?m)^{key}=(.*)$", (DEPLOY / unit).read_text())


class Machine:
    """The guide's paths moved into a temporary folder, ``sudo`` left out (the test is root or
    owns the folder), the installed ``companion`` of the venv running the tests."""

    def __init__(self, root: Path):
        self.env_file = root / "etc" / "companion.env"
        self.state = root / "var" / "lib" / "companion"
        self.backups = root / "var" / "backups" / "companion"
        self.installed = Path(sys.executable).parent / "companion"
        assert self.installed.exists(), "the venv running the tests has no installed companion command"
        self.env_file.parent.mkdir(parents=True)

    def here(self, command: str) -> str:
        for guide, here in (("/etc/companion/companion.env", self.env_file), ("/var/lib/companion", self.state),
                            ("/var/backups/companion", self.backups),
                            ("/opt/companion/.venv/bin/companion", self.installed)):
            command = command.replace(guide, shlex.quote(str(here)))
        return re.sub(r"\bsudo ", "", command)

    def shell(self, *commands: str, env: dict | None = None) -> subprocess.CompletedProcess:
        """The guide's ``companion`` function defined, then ``commands``, in bash."""
        script = "\n".join([self.here(guide_line("companion() {")), *map(self.here, commands)])
        return subprocess.run(["bash", "-c", script], env=env or _env(self.state.parent / "unused"),
                              capture_output=True, text=True, timeout=120)

    def unit_env(self, unit: str) -> dict:
        """What systemd gives the unit: its Environment= lines, then its EnvironmentFile."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
        for line in unit_lines(unit, "Environment"):
            key, value = self.here(line).split("=", 1)
            env[key] = value
        assert [self.here(f) for f in unit_lines(unit, "EnvironmentFile")] == [shlex.quote(str(self.env_file))]
        for line in self.env_file.read_text().splitlines():
            key, value = line.split("=", 1)
            env[key] = value
        return env


def test_the_guides_back_up_restore_and_upgrade_commands_work_as_written(tmp_path):
    machine = Machine(tmp_path)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    # Section 1's settings file (the public URL of this test's server).
    machine.env_file.write_text(f"COMPANION_PUBLIC_URL={url}\nCOMPANION_TRUSTED_PROXIES=1\n"
                                "COMPANION_SECRET_KEY=guide-test-secret-key_-0123456789\n")
    # Before the first start: `companion check` finds no database and makes none.
    first = machine.shell(guide_line("companion check"))
    assert first.returncode == 0 and "no database at" in first.stdout, first.stderr
    assert not (machine.state / "companion.db").exists()
    # `systemctl start companion`: the unit's ExecStart with its environment, on a free port.
    [start] = unit_lines("companion.service", "ExecStart")
    start = machine.here(start).replace("--port 8000", f"--port {port}")
    assert f"--port {port}" in start
    service = machine.unit_env("companion.service")

    def started():
        return serving(shlex.split(start), url, output=stderr_of, env=service,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    with started():
        tables = [_table(url) for _ in range(2)]
        # Back up by hand, into a dated file in the folder.
        done = machine.shell(guide_line("sudo install -d -m 0700 /var/backups/companion"),
                             guide_line("companion backup "))
        assert done.returncode == 0 and "backed up 2 games to" in done.stdout, done.stderr
        assert re.search(r"companion-\d{8}-\d{6}\.db", done.stdout)
        # The backup unit's own commands (what `systemctl start companion-backup.service` runs).
        backup_env = machine.unit_env("companion-backup.service")
        for key in ("ExecStartPre", "ExecStart", "ExecStartPost"):
            [line] = unit_lines("companion-backup.service", key)
            ran = subprocess.run(["sh", "-c", machine.here(line).replace("%%", "%")], env=backup_env,
                                 capture_output=True, text=True, timeout=120)
            assert ran.returncode == 0, (key, ran.stdout, ran.stderr)
        kept = {p.name for p in machine.backups.iterdir()}
        assert {"companion-latest.db", f"companion-{time.strftime('%u')}.db"} <= kept, kept
        # Restore is refused while the server runs.
        refused = machine.shell(guide_line("companion restore "))
        assert refused.returncode == 1 and "a server is using" in refused.stderr
        # Changes after the backup, which the restore takes back.
        requests.post(f"{url}/api/games", json={"edition": "classic"}, timeout=WAIT).raise_for_status()
    # `systemctl stop companion`, then the restore.
    restored = machine.shell(guide_line("companion restore "))
    assert restored.returncode == 0 and "restored 2 games" in restored.stdout, restored.stderr
    # The upgrade's check (the same version here: nothing to upgrade), then the start.
    checked = machine.shell(guide_line("companion check"))
    assert checked.returncode == 0 and "up to date, 2 games" in checked.stdout, checked.stderr
    with started():
        for code, seat in tables:
            game = requests.get(f"{url}/api/games/{code}", timeout=WAIT)
            assert game.status_code == 200 and [p["name"] for p in game.json()["players"]] == ["Ann"]
        health = subprocess.run(["curl", "-fsS", f"{url}/healthz"], capture_output=True, text=True, timeout=WAIT)
        assert health.returncode == 0 and json.loads(health.stdout)["ok"] is True
