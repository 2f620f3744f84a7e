"""Whatever goes wrong, an answer under ``/api/`` is JSON with a message a phone can show: an
unknown path (404) or method (405), a bug (500, with an incident id that is logged), a full disk
or a busy table (503, with Retry-After), a body nested too deep or with broken text (400), and
requests the real gevent server cannot parse or refuses before Flask sees them (a 10 KB address,
a malformed head or body, an ``OPTIONS`` probe), sent to it over a raw socket."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import time

import pytest
import requests
from sqlalchemy import event as sa_event

from .helpers import ApiTable, house_cards, make_app
from .serving import free_port, serving, stderr_of

BOTH_DATABASES = True  # every test here that uses the database runs on SQLite and PostgreSQL

WAIT = 15  # seconds any one step may take before the test gives up


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``companion serve`` for real, in a subprocess on a free loopback port."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = dict(os.environ, COMPANION_INSTANCE_PATH=str(tmp_path_factory.mktemp("api-errors")),
               COMPANION_PUBLIC_URL=url, COMPANION_SECRET_KEY="api-errors-tests")
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


# --- the app's own answers -------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/api/nowhere", "/api/games/ABCDEFG", "/api/rules/no-such-rule"])
def test_every_api_answer_is_json_even_a_404(client, path):
    r = client.get(path)
    assert r.status_code == 404 and r.is_json and r.get_json()["error"]["message"]


def test_a_wrong_method_under_api_is_json(client):
    r = client.delete("/api/games")
    assert r.status_code == 405 and r.is_json


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


def test_a_bug_answers_json_500_with_an_incident_id_that_is_logged(table, monkeypatch, caplog):
    table.join("Ann")
    from companion import engine

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(engine, "apply", broken)
    with caplog.at_level(logging.ERROR, logger="companion.errors"):
        r = table.send("Ann", {"type": "gear", "player": table.ids["Ann"], "delta": 1})
    assert r.status_code == 500 and r.is_json
    incident = r.get_json()["error"]["incident"]
    assert incident in r.get_json()["error"]["message"]
    assert any(incident in rec.getMessage() and rec.exc_info for rec in caplog.records)


@pytest.mark.parametrize("body", [
    "[" * 1000 + "]" * 1000,
    '{"type": ' + "[" * 1000 + "]" * 1000 + "}",
    '{"type": "rename", "player": 1, "name": "\\ud800"}',
])
def test_deep_nesting_and_broken_text_are_a_clear_400(table, body):
    table.join("Ann")
    r = table.request("POST", "actions", "Ann", data=body, content_type="application/json")
    assert r.status_code == 400 and r.is_json, r.data[:200]
    assert table.player("Ann")["name"] == "Ann"


def test_a_full_disk_answers_json_503_and_loses_nothing(tmp_path):  # SQLite: fills its file
    app = make_app(tmp_path)
    table = ApiTable(app.test_client())
    table.join("Ann")
    table.act("Ann", {"type": "level", "player": table.ids["Ann"], "delta": 1})
    store = app.extensions["companion_store"]

    def disk_full(dbapi_connection, _record):  # SQLite's own "database or disk is full"
        pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
        dbapi_connection.execute(f"PRAGMA max_page_count={pages}")

    store.engine.dispose()
    sa_event.listen(store.engine, "connect", disk_full)
    r = table.send("host", {"type": "import_house_cards", "cards": house_cards(200)})
    assert r.status_code == 503 and r.is_json
    assert "disk" in r.get_json()["error"]["message"] and r.headers["Retry-After"]
    page = table.client.post(f"/games/{table.code}/act", headers={"Cookie": ""},
                             data={"type": "level", "player": table.ids["Ann"], "delta": 1})
    assert page.status_code in (403, 503) and not page.is_json
    sa_event.remove(store.engine, "connect", disk_full)
    store.engine.dispose()
    state = table.state()
    assert table.player("Ann")["level"] == 2 and state["house_cards"] == []


def test_a_busy_table_answers_503_json_with_retry_after(table, monkeypatch):
    table.join("Ann")
    from companion import store as store_module

    def always_lose(self, *args, **kwargs):
        raise store_module.Busy("The table is very busy; try again in a moment.")

    monkeypatch.setattr(store_module.Store, "_commit", always_lose)
    r = table.send("Ann", {"type": "gear", "player": table.ids["Ann"], "delta": 1})
    assert r.status_code == 503 and r.is_json and r.headers["Retry-After"] == "1"


# --- the real server, for requests it answers before Flask sees them -----------------------

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


def test_options_under_api_answers_json_on_the_real_server(server):
    status, headers, body = raw(server["port"], b"OPTIONS /api/games/x HTTP/1.1\r\nHost: x\r\n"
                                                b"Origin: http://evil.example\r\n"
                                                b"Access-Control-Request-Method: POST\r\n\r\n")
    assert status == 200 and headers["content-type"].startswith("application/json")
    assert "GET" in json.loads(body)["allow"]
    assert "access-control-allow-origin" not in headers  # no CORS grant to another site
