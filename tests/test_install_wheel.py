"""The project installed as a newcomer installs it: a wheel built from this checkout, put with
its dependencies (from the package index, through pip's cache) into a fresh venv outside the
checkout, and ``companion serve`` started from an unrelated folder plays a game.

``pip install .`` and ``pipx install .`` build the same wheel and install it the same way.
Every wait is bounded and waits on a condition.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
import requests

from .serving import free_port, serving

ROOT = Path(__file__).resolve().parent.parent
WAIT = 30  # seconds for the installed server to come up on a loaded machine
PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]


def run(command: list, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, **kwargs)
    assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def clean_env(**extra: str) -> dict:
    """The environment of someone who never saw the checkout: no venv, no PYTHONPATH, none of
    the tests' COMPANION_* settings."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("COMPANION_", "PYTHON", "VIRTUAL_ENV", "XDG_"))}
    env.update(extra)
    return env


@pytest.fixture(scope="session")
def installed(tmp_path_factory):
    work = tmp_path_factory.mktemp("install")
    dist = work / "dist"
    run([*PIP, "wheel", "--quiet", "--no-deps", "--wheel-dir", str(dist), str(ROOT)], env=clean_env())
    [wheel] = dist.glob("*.whl")
    venv = work / "venv"
    # No pip of its own in the new venv (ensurepip takes seconds): this pip installs into it.
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    # With the redis extra, as a set-up of several processes installs it.
    run([*PIP, "--python", str(python), "install", "--quiet", "--no-compile", f"{wheel}[redis]"],
        env=clean_env())
    return {"work": work, "wheel": wheel, "venv": venv, "python": python}


def test_the_wheel_carries_the_package_and_the_top_level_data(installed):
    names = set(zipfile.ZipFile(installed["wheel"]).namelist())
    wanted = set()
    for top, inside in (("companion", "companion"), ("cards", "companion/_data/cards"),
                        ("templates", "companion/_data/templates"), ("static", "companion/_data/static")):
        for path in (ROOT / top).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                wanted.add(f"{inside}/{path.relative_to(ROOT / top).as_posix()}")
    assert wanted - names == set()


@contextlib.contextmanager
def serving_installed(installed, cwd: Path, env: dict):
    """The installed ``companion serve`` on a free loopback port, started in ``cwd``; its URL."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = cwd / "serve.log"
    with log.open("wb") as out, serving(
            [str(installed["venv"] / "bin" / "companion"), "serve", "--host", "127.0.0.1", "--port", str(port)],
            url, output=lambda proc: log.read_text(errors="replace"), wait=WAIT,
            cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT):
        yield url


def test_the_installed_wheel_serves_a_game_from_another_folder(installed):
    work, venv = installed["work"], installed["venv"]
    elsewhere, home = work / "elsewhere", work / "home"
    elsewhere.mkdir()
    home.mkdir()
    env = clean_env(HOME=str(home))
    where = run([str(installed["python"]), "-c", "import companion; print(companion.DATA)"],
                cwd=elsewhere, env=env).stdout.strip()
    assert Path(where).is_relative_to(venv), where  # the installed copy, not the checkout

    with serving_installed(installed, elsewhere, env) as url:
        home_page = requests.get(url + "/", timeout=10)
        assert home_page.status_code == 200 and "<html" in home_page.text.lower()  # templates/
        css = requests.get(url + "/static/app.css", timeout=10)
        assert css.status_code == 200 and len(css.content) > 100  # static/
        found = requests.get(url + "/api/cards", params={"q": "drooling slime"}, timeout=10)
        assert found.status_code == 200 and "Drooling Slime" in found.text  # cards/

        game = requests.post(url + "/api/games", json={"edition": "classic"}, timeout=10).json()
        code = game["code"]
        seat = requests.post(f"{url}/api/games/{code}/players", json={"name": "Ann", "sex": "female"},
                             timeout=10).json()
        before = requests.get(f"{url}/api/games/{code}", timeout=10).json()["version"]
        played = requests.post(f"{url}/api/games/{code}/actions",
                               json={"type": "level", "player": seat["player_id"], "delta": 1},
                               headers={"Authorization": f"Bearer {seat['token']}"}, timeout=10)
        assert played.status_code == 200, played.text
        state = played.json()["state"]
        assert state["version"] == before + 1
        assert next(p for p in state["players"] if p["id"] == seat["player_id"])["level"] == 2
    # An installed copy keeps its database in the user's data folder, not in site-packages.
    assert (home / ".local" / "share" / "munchkin-companion" / "companion.db").is_file()
    assert not any(venv.rglob("companion.db"))


REDIS = shutil.which("redis-server")


@pytest.mark.skipif(not REDIS, reason="redis-server is not installed (scripts/test.sh installs it)")
def test_the_redis_extra_keeps_the_throttling_counters_in_redis(installed):
    folder = installed["work"] / "redis"
    folder.mkdir()
    port = free_port()
    server = subprocess.Popen([REDIS, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                               "--appendonly", "no", "--dir", str(folder)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def keys() -> int | None:
        """Redis's key count (its DBSIZE command, spoken directly), or None while it is not up."""
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
                sock.sendall(b"DBSIZE\r\n")
                return int(sock.recv(64).strip().lstrip(b":"))
        except (OSError, ValueError):
            return None

    try:
        deadline = time.monotonic() + WAIT
        while keys() is None:
            assert server.poll() is None and time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.1)
        env = clean_env(HOME=str(folder), COMPANION_INSTANCE_PATH=str(folder / "instance"),
                        COMPANION_RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{port}")
        with serving_installed(installed, folder, env) as url:
            created = requests.post(url + "/api/games", json={"edition": "classic"}, timeout=10)
            assert created.status_code == 201, created.text
        assert keys() > 0  # creating a game is throttled: its counter is there
    finally:
        server.terminate()
        server.wait(10)
