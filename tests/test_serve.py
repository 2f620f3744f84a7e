"""``companion serve`` for real: gevent in a subprocess on a free loopback port.

Every wait here is bounded; nothing asserts how fast anything is.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time

import pytest
import requests

from companion.store.doorbell import Doorbell

from .serving import WAIT, Stream, act, free_port, new_table, serving, stderr_of

CAP = 3  # --max-streams-per-game for this server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = dict(os.environ, COMPANION_INSTANCE_PATH=str(tmp_path_factory.mktemp("serve")),
               COMPANION_PUBLIC_URL=url, COMPANION_SECRET_KEY="serve-tests")
    with serving([sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                  "--max-streams-per-game", str(CAP), "--header-timeout", "1", "--idle-timeout", "1"],
                 url, output=stderr_of, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        yield {"url": url, "port": port, "proc": proc}


def test_serve_answers_pages_and_rings_a_stream_after_an_action(server):
    url = server["url"]
    page = requests.get(url + "/", timeout=WAIT)
    assert page.status_code == 200 and "<html" in page.text.lower()
    code, player, token = new_table(url)
    version = requests.get(f"{url}/api/games/{code}", timeout=WAIT).json()["version"]
    stream = Stream(server["port"], code, since=version)
    try:
        assert stream.read_until(b"retry: 1500")
        head = stream.data.split(b"\r\n\r\n", 1)[0].lower()
        assert b"content-type: text/event-stream" in head
        assert b"content-encoding" not in head  # the doorbell is never compressed
        new_version = act(url, code, player, token)
        assert new_version == version + 1
        assert stream.read_until(f"id: {new_version}\nevent: changed\n".encode())
        assert f'"version": {new_version}'.encode() in stream.data
    finally:
        stream.close()


def test_a_game_past_its_stream_cap_closes_its_oldest_stream(server):
    url, port = server["url"], server["port"]
    code, player, token = new_table(url)
    version = requests.get(f"{url}/api/games/{code}", timeout=WAIT).json()["version"]
    streams = []
    try:
        for _ in range(CAP + 1):
            stream = Stream(port, code, since=version)
            assert stream.read_until(b"retry: 1500")  # open and counted before the next one
            streams.append(stream)
        oldest, kept = streams[0], streams[1:]
        assert oldest.ended()
        new_version = act(url, code, player, token)
        for stream in kept:
            assert stream.read_until(f"id: {new_version}\n".encode()), "a newer stream was closed"
            assert not stream.closed
        # Another game's streams are not counted against this one.
        other, *_ = new_table(url)
        elsewhere = Stream(port, other)
        streams.append(elsewhere)
        assert elsewhere.read_until(b"event: changed")
        assert not any(s.closed for s in kept)
    finally:
        for stream in streams:
            stream.close()


def test_a_half_sent_request_head_is_dropped_and_pages_still_answer(server):
    sock = socket.create_connection(("127.0.0.1", server["port"]), timeout=WAIT)
    try:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        dropped = False
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:  # trickle a byte now and then, as a slowloris does
            try:
                sock.sendall(b"a")
                sock.settimeout(0.3)
                if sock.recv(1024) == b"":
                    dropped = True
                    break
            except socket.timeout:
                continue
            except OSError:
                dropped = True
                break
        assert dropped, "the server kept a connection that never finished its request head"
        assert requests.get(server["url"] + "/", timeout=WAIT).status_code == 200
    finally:
        sock.close()


def _answer(port: int, head: bytes) -> bytes:
    """What the server answers a raw request head (sent whole), until it closes."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
    try:
        try:
            sock.sendall(head)
        except OSError:  # the server may answer and close before the whole head is sent
            pass
        data, deadline = b"", time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except (socket.timeout, OSError):
                break
            if not chunk:
                break
            data += chunk
        return data
    finally:
        sock.close()


@pytest.mark.parametrize("path", ["/", "/api/games/ABCDEF"])
def test_a_request_head_too_large_is_answered_431_at_once(server, path):
    too_many = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode() + b"".join(
        f"X-Pad-{i}: 1\r\n".encode() for i in range(60)) + b"\r\n"
    answer = _answer(server["port"], too_many)
    assert answer.startswith(b"HTTP/1.1 431"), answer[:200]
    # One header line of 40 KB, never finished: refused once the budget is spent, not held.
    huge = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ".encode() + b"a" * 40_000
    answer = _answer(server["port"], huge)
    assert answer.startswith(b"HTTP/1.1 431"), answer[:200]
    if path.startswith("/api/"):
        assert b"application/json" in answer and b'"error"' in answer
    # A head of ordinary size is served.
    normal = f"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n".encode() + b"".join(
        f"X-Pad-{i}: {'b' * 200}\r\n".encode() for i in range(30)) + b"\r\n"
    assert _answer(server["port"], normal).startswith(b"HTTP/1.1 200")


def test_one_address_holds_a_bounded_number_of_connections(tmp_path):
    """A server whose heads may take 60 s: the connections beyond the address's bound are hung
    up at once, those within it are kept (they are slow, not over the bound)."""
    port, bound = free_port(), 4
    url = f"http://127.0.0.1:{port}"
    env = dict(os.environ, COMPANION_INSTANCE_PATH=str(tmp_path), COMPANION_PUBLIC_URL=url,
               COMPANION_SECRET_KEY="serve-tests", COMPANION_MAX_CONNECTIONS_PER_ADDRESS=str(bound))
    with serving([sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                  "--header-timeout", "60"], url, output=stderr_of, env=env,
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE):
        held = []
        try:
            for _ in range(bound + 3):
                sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
                sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and stalls
                held.append(sock)
            beyond = held[bound:]
            for sock in beyond:  # hung up: the server closes them without waiting for the head
                sock.settimeout(WAIT)
                try:
                    assert sock.recv(1) == b""
                except ConnectionResetError:
                    pass
            for sock in held[:bound]:  # still open: nothing to read, no close
                sock.settimeout(0.2)
                with pytest.raises(socket.timeout):
                    sock.recv(1)
        finally:
            for sock in held:
                sock.close()
        # Once they are gone, the address is served again.
        deadline = time.monotonic() + WAIT
        while requests.get(url + "/", timeout=WAIT).status_code != 200 and time.monotonic() < deadline:
            pass
        assert requests.get(url + "/", timeout=WAIT).status_code == 200


def test_an_idle_kept_alive_connection_is_closed(server):
    sock = socket.create_connection(("127.0.0.1", server["port"]), timeout=WAIT)
    try:
        sock.sendall(b"GET /static/icon.svg HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        data, deadline = b"", time.monotonic() + WAIT
        while time.monotonic() < deadline:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
        assert data.startswith(b"HTTP/1.1 200") and b"</svg>" in data
        assert time.monotonic() < deadline, "the server kept an idle connection open"
    finally:
        sock.close()


def test_doorbell_wakes_a_waiter_with_the_new_version():
    bell = Doorbell()
    answers = []
    waiter = threading.Thread(target=lambda: answers.append(bell.wait("ABC", 3, timeout=WAIT)))
    waiter.start()
    time.sleep(0.05)
    bell.ring("XYZ", 9)  # another game: no wake-up
    bell.ring("ABC", 4)
    waiter.join(WAIT)
    assert answers == [4]
    assert bell.wait("ABC", 3, timeout=0.01) == 4  # already past: answers at once
    assert bell.wait("ABC", 4, timeout=0.01) is None  # nothing newer: times out


def test_doorbell_wait_ends_early_when_its_bell_is_set():
    bell, own = Doorbell(), threading.Event()
    answers = []
    waiter = threading.Thread(target=lambda: answers.append(bell.wait("ABC", 0, timeout=WAIT, bell=own)))
    waiter.start()
    time.sleep(0.05)
    own.set()
    waiter.join(WAIT)
    assert answers == [None] and not waiter.is_alive()


def test_serve_compiles_every_template_before_the_first_phone_arrives(app):
    # A cold first game page spent about half a second compiling templates; serve warms them.
    from companion.cli import warm

    compiled = lambda: {key[1] for key in app.jinja_env.cache.keys()}  # noqa: E731
    assert "game.html" not in compiled()
    warm(app)
    assert {"game.html", "_live.html", "_fight.html", "table.html", "summary.html"} <= compiled()
