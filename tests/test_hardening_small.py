"""Issue 22, item 7, attacked the way an attacker would: under ``/api/`` every answer is JSON,
even to a 10 KB address, an ``OPTIONS`` probe or a request the server cannot parse (these go
to the real gevent server over a raw socket, since it answers some of them before Flask sees
them); answers and pages that carry a seat or host token are ``no-store``; and the first
request after PostgreSQL dropped its connections is served, not answered 503."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time

import pytest
import requests
from sqlalchemy import text

from .serving import free_port, serving, stderr_of

WAIT = 15  # seconds any one step may take before the test gives up


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``companion serve`` for real, in a subprocess on a free loopback port."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = dict(os.environ, COMPANION_INSTANCE_PATH=str(tmp_path_factory.mktemp("small")),
               COMPANION_PUBLIC_URL=url, COMPANION_SECRET_KEY="small-tests")
    with serving([sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
                 url, output=stderr_of, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE):
        yield {"url": url, "port": port}


def raw(port: int, request: bytes) -> tuple[int, dict, bytes]:
    """Send ``request`` as is and read the whole answer: (status, headers, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as sock:
        sock.sendall(request)
        data = b""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            head, sep, body = data.partition(b"\r\n\r\n")
            if sep:
                lines = head.decode("latin-1").split("\r\n")
                headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
                length = headers.get("content-length")
                if length is not None and len(body) >= int(length):
                    return int(lines[0].split()[1]), headers, body[:int(length)]
            try:
                chunk = sock.recv(65536)
            except ConnectionError:
                chunk = b""
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def assert_json_error(status: int, headers: dict, body: bytes, expected: int) -> None:
    assert status == expected, (status, body)
    assert headers.get("content-type", "").startswith("application/json"), headers
    message = json.loads(body)["error"]["message"]
    assert isinstance(message, str) and message


# --- JSON under /api/, whatever the request ------------------------------------------------

def test_a_ten_kilobyte_address_under_api_answers_json_414(server):
    path = "/api/games/" + "A" * 10_000
    status, headers, body = raw(server["port"], f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert_json_error(status, headers, body, 414)


def test_a_ten_kilobyte_address_elsewhere_is_still_refused(server):
    status, _headers, _body = raw(server["port"], f"GET /{'A' * 10_000} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert status == 414


@pytest.mark.parametrize("request_bytes", [
    b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}",
    b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: -5\r\n\r\n{}",
    b"GET /api/games/x HTTP/1.1 junk\r\nHost: x\r\n\r\n",
    b"GET /api/games/x HTTP/9.9\r\nHost: x\r\n\r\n",
    b"GET /api/games/x HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 70_000 + b"\r\n\r\n",
    b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 7\r\n\r\n{}",
    b"POST /api/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
], ids=["content-length-text", "content-length-negative", "request-line", "version", "header-too-long",
        "content-length-twice", "chunk-size"])
def test_a_request_the_server_cannot_parse_under_api_answers_json_400(server, request_bytes, request):
    status, headers, body = raw(server["port"], request_bytes)
    # A head over the server's bound (32 KB) is answered 431 before it is read whole.
    expected = 431 if request.node.callspec.id == "header-too-long" else 400
    assert_json_error(status, headers, body, expected)


def test_a_malformed_json_body_answers_json_400(server):
    r = requests.post(server["url"] + "/api/games", data=b'{"edition": "classic"', timeout=WAIT,
                      headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.headers["Content-Type"].startswith("application/json")
    assert r.json()["error"]["message"]


@pytest.mark.parametrize("path", ["/api/games/x", "/api/games", "/api/games/x/actions", "/api/nothing"])
def test_options_under_api_answers_json(client, path):
    r = client.open(path, method="OPTIONS")
    assert r.headers["Content-Type"].startswith("application/json"), r.data
    body = r.get_json()
    if r.status_code == 404:
        assert body["error"]["message"]
    else:
        assert r.status_code == 200
        allowed = {m.strip() for m in r.headers["Allow"].split(",")}
        assert "OPTIONS" in allowed and set(body["allow"]) == allowed


def test_options_under_api_answers_json_on_the_real_server(server):
    status, headers, body = raw(server["port"], b"OPTIONS /api/games/x HTTP/1.1\r\nHost: x\r\n"
                                                b"Origin: http://evil.example\r\n"
                                                b"Access-Control-Request-Method: POST\r\n\r\n")
    assert status == 200 and headers["content-type"].startswith("application/json")
    assert "GET" in json.loads(body)["allow"]
    assert "access-control-allow-origin" not in headers  # no CORS grant to another site


# --- answers that carry a token are never stored ---------------------------------------------

def test_the_answers_that_carry_a_token_are_no_store(client):
    r = client.post("/api/games", json={"edition": "classic"})
    assert r.status_code == 201 and r.json["host_token"]
    assert r.headers["Cache-Control"] == "no-store"
    code = r.json["code"]
    r = client.post(f"/api/games/{code}/players", json={"name": "Ann", "sex": "female"})
    assert r.status_code == 201 and r.json["token"]
    assert r.headers["Cache-Control"] == "no-store"
    r = client.get(f"/api/games/{code}")  # no token in it: revalidated as before
    assert r.headers["Cache-Control"] == "no-cache"


def test_the_pages_that_set_a_seat_or_host_cookie_are_no_store(client):
    r = client.post("/games", data={"edition": "classic", "name": "Ann", "sex": "female"})
    assert r.status_code == 303
    cookies = " ".join(r.headers.getlist("Set-Cookie"))
    assert "host_" in cookies and "seat_" in cookies
    assert r.headers["Cache-Control"] == "no-store"
    code = r.headers["Location"].split("/")[2]  # /games/<code>/host
    other = client.application.test_client()  # another phone joins through the join page
    r = other.post(f"/join/{code}", data={"name": "Bob", "sex": "male"})
    assert r.status_code == 303 and "seat_" in " ".join(r.headers.getlist("Set-Cookie"))
    assert r.headers["Cache-Control"] == "no-store"
    assert other.get(f"/join/{code}").headers["Cache-Control"] in ("no-cache", "no-store")


# --- PostgreSQL: the first request after a restart is served ----------------------------------

@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_the_first_request_after_postgres_drops_its_connections_is_served(client, app, postgres_admin):
    code = client.post("/api/games", json={"edition": "classic"}).json["code"]
    assert client.get(f"/api/games/{code}").status_code == 200  # a pooled connection now exists
    store = app.extensions["companion_store"]
    name = store.engine.url.database
    with postgres_admin.connect() as connection:  # what a restart does to every connection
        killed = connection.execute(text(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = :name "
            "AND pid <> pg_backend_pid() AND application_name <> 'companion-tests'"), {"name": name}).scalar()
    assert killed
    r = client.get(f"/api/games/{code}")
    assert r.status_code == 200, r.data
    r = client.post(f"/api/games/{code}/players", json={"name": "Ann", "sex": "female"})
    assert r.status_code == 201, r.data
