"""The public set-up as shipped: deploy/nginx.conf and deploy/Caddyfile in front of a real
``companion serve``, the systemd unit's hardening, and ``companion serve`` refusing to trust
proxies on an open port.

Each proxy runs its shipped file with only its ports, addresses, file paths and certificate
changed (a throwaway self-signed one for companion.example.org, on 127.0.0.1). Every wait is
bounded and waits on a condition.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion import cli

from .serving import free_port

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
NAME = "companion.example.org"  # the shipped file's server_name, kept as is
WAIT = 20  # seconds any one step may take on a loaded machine before the test gives up
NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)
CADDY = shutil.which("caddy")
OPENSSL = shutil.which("openssl")


def wait_until(condition, what: str, proc: subprocess.Popen | None = None, log: Path | None = None):
    deadline = time.monotonic() + WAIT
    while True:
        try:
            result = condition()
        except OSError:
            result = None
        if result:
            return result
        if (proc is not None and proc.poll() is not None) or time.monotonic() > deadline:
            detail = log.read_text()[-3000:] if log and log.exists() else ""
            raise RuntimeError(f"{what} did not happen\n{detail}")
        time.sleep(0.05)


def stop(proc: subprocess.Popen, how: int = signal.SIGTERM) -> None:
    proc.send_signal(how)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def nginx_config(shipped: str, *, https: int, http: int, app: int, cert: Path, key: Path,
                 folder: Path) -> str:
    """The shipped file with loopback ports, the test's certificate and its own files.

    Each change must find what it replaces, so a reshaped shipped file fails here loudly
    instead of being tested half-changed."""
    def sub(pattern: str, replacement: str, text: str, count: int) -> str:
        new, found = re.subn(pattern, replacement, text)
        assert found == count, f"expected {count} of {pattern!r} in deploy/nginx.conf, found {found}"
        return new

    text = sub(r"(?m)^\s*listen \[::\]:\d+.*\n", "", shipped, 4)  # IPv4 loopback only
    text = sub(r"\blisten 443\b", f"listen 127.0.0.1:{https}", text, 2)
    text = sub(r"\blisten 80\b", f"listen 127.0.0.1:{http}", text, 2)
    text = sub(r"server 127\.0\.0\.1:8000;", f"server 127.0.0.1:{app};", text, 1)
    text = sub(r"/etc/letsencrypt/live/companion\.example\.org/fullchain\.pem", str(cert), text, 1)
    text = sub(r"/etc/letsencrypt/live/companion\.example\.org/privkey\.pem", str(key), text, 1)
    text = sub(r"pid /run/nginx\.pid;", f"pid {folder}/nginx.pid;", text, 1)
    text = sub(r"/var/log/nginx/", f"{folder}/", text, 2)
    if os.geteuid() != 0:
        # Debian's nginx keeps its temporary files in /var/lib/nginx, writable by root only.
        temp = "".join(f"    {kind}_temp_path {folder}/{kind};\n"
                       for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        text = sub(r"(?m)^http \{\n", "http {\n" + temp, text, 1)
    return text


def caddy_config(shipped: str, *, https: int, admin: int, app: int, cert: Path, key: Path) -> str:
    """The shipped Caddyfile on a loopback port with the test's certificate, its admin API on
    a free port, and no port-80 redirect server (the test has no port 80)."""
    def sub(pattern: str, replacement: str, text: str, count: int) -> str:
        new, found = re.subn(pattern, replacement, text)
        assert found == count, f"expected {count} of {pattern!r} in deploy/Caddyfile, found {found}"
        return new

    text = sub(r"(?m)^\{\n", f"{{\n\tadmin 127.0.0.1:{admin}\n\tauto_https disable_redirects\n", shipped, 1)
    text = sub(r"(?m)^companion\.example\.org \{\n",
               f"{NAME}:{https} {{\n\tbind 127.0.0.1\n\ttls {cert} {key}\n", text, 1)
    return sub(r"127\.0\.0\.1:8000\b", f"127.0.0.1:{app}", text, 2)


PROXIES = {"nginx": NGINX and OPENSSL, "caddy": CADDY and OPENSSL}


@contextlib.contextmanager
def running_stack(kind: str, folder: Path, *, public_url: bool = False):
    """The app on a loopback port, trusting one proxy, and the proxy in front with its shipped
    file; with ``public_url``, the app has COMPANION_PUBLIC_URL set as the guide says, with
    the proxy's port in it."""
    if not PROXIES[kind]:
        pytest.skip(f"{kind} or openssl is not installed (scripts/test.sh installs them)")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run([OPENSSL, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-days", "2", "-subj", f"/CN={NAME}", "-addext", f"subjectAltName=DNS:{NAME}",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True, timeout=WAIT)
    app_port, https, other = free_port(), free_port(), free_port()
    env = dict(os.environ, COMPANION_INSTANCE_PATH=str(folder / "instance"), COMPANION_TRUSTED_PROXIES="1",
               COMPANION_SECRET_KEY="deploy-proxy-tests")
    env.pop("COMPANION_PUBLIC_URL", None)  # unset, the join link must come from the proxied request
    if public_url:
        env["COMPANION_PUBLIC_URL"] = f"https://{NAME}:{https}"
    app_log, proxy_log = folder / "app.log", folder / "error.log"
    running, quit_proxy = [], signal.SIGTERM
    try:
        with app_log.open("wb") as out:
            running.append(subprocess.Popen(
                [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1",
                 "--port", str(app_port)],
                env=env, stdout=out, stderr=subprocess.STDOUT))
        if kind == "nginx":
            conf = folder / "nginx.conf"
            conf.write_text(nginx_config((DEPLOY / "nginx.conf").read_text(), https=https, http=other,
                                         app=app_port, cert=cert, key=key, folder=folder))
            # -g "daemon off;": the test's own foreground process, stopped by the test.
            command = [NGINX, "-p", str(folder), "-c", str(conf), "-e", str(proxy_log), "-g", "daemon off;"]
            proxy_env = None
        else:
            conf = folder / "Caddyfile"
            conf.write_text(caddy_config((DEPLOY / "Caddyfile").read_text(), https=https, admin=other,
                                         app=app_port, cert=cert, key=key))
            command = [CADDY, "run", "--config", str(conf), "--adapter", "caddyfile"]
            # Caddy keeps its state under the user's folders: the test's own.
            proxy_env = dict(os.environ, HOME=str(folder), XDG_DATA_HOME=str(folder),
                             XDG_CONFIG_HOME=str(folder))
        with proxy_log.open("ab") as out:
            running.append(subprocess.Popen(command, env=proxy_env, stdout=out, stderr=subprocess.STDOUT))
        app, proxy = running
        # Caddy's SIGTERM waits for every connection to end; SIGQUIT ends it at once.
        quit_proxy = signal.SIGQUIT if kind == "caddy" else signal.SIGTERM
        wait_until(lambda: socket.create_connection(("127.0.0.1", app_port), timeout=1).close() or True,
                   "companion serve listening", app, app_log)
        wait_until(lambda: socket.create_connection(("127.0.0.1", https), timeout=1).close() or True,
                   f"{kind} listening", proxy, proxy_log)
        context = ssl.create_default_context(cafile=str(cert))
        yield {"kind": kind, "https": https, "http": other, "context": context, "cert": cert}
    finally:
        for proc, how in reversed(list(zip(running, (signal.SIGTERM, quit_proxy)))):
            stop(proc, how)


@pytest.fixture(scope="module", params=sorted(PROXIES))
def stack(request, tmp_path_factory):
    """The shipped proxy in front of the app, without COMPANION_PUBLIC_URL."""
    with running_stack(request.param, tmp_path_factory.mktemp(request.param)) as running:
        yield running


class Client(http.client.HTTPSConnection):
    """HTTPS to companion.example.org on the test's port, reached at 127.0.0.1: the name goes
    into SNI and the Host header as a browser would send them."""

    def __init__(self, stack):
        super().__init__(NAME, stack["https"], context=stack["context"], timeout=WAIT)
        # http.client connects through this attribute, set per instance by its __init__.
        self._create_connection = lambda address, *args: socket.create_connection(
            ("127.0.0.1", address[1]), *args)


def call(stack, method: str, path: str, *, body=None, headers=None):
    """(status, headers as an email.message.Message, body) of one request through the proxy."""
    client = Client(stack)
    try:
        client.request(method, path, body=body, headers=headers or {})
        response = client.getresponse()
        return response.status, response.msg, response.read()
    finally:
        client.close()


def api(stack, method: str, path: str, payload: dict, token: str | None = None) -> dict:
    import json

    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    status, _, body = call(stack, method, path, body=json.dumps(payload), headers=headers)
    assert status in (200, 201), body[:500]
    return json.loads(body)


def origin(stack) -> str:
    return f"https://{NAME}:{stack['https']}"


def test_a_live_update_passes_through_the_proxy_at_once(stack):
    game = api(stack, "POST", "/api/games", {"edition": "classic"})
    code = game["code"]
    seat = api(stack, "POST", f"/api/games/{code}/players", {"name": "Ann", "sex": "female"})
    raw = socket.create_connection(("127.0.0.1", stack["https"]), timeout=WAIT)
    stream = stack["context"].wrap_socket(raw, server_hostname=NAME)
    try:
        stream.sendall(f"GET /api/games/{code}/events HTTP/1.1\r\nHost: {NAME}:{stack['https']}\r\n"
                       "Accept: text/event-stream\r\nAccept-Encoding: gzip, br\r\n\r\n".encode())
        data = bytearray()

        def read_until(needle: bytes) -> bool:
            deadline = time.monotonic() + WAIT  # one bound for the whole wait, however it trickles
            while needle not in data:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                stream.settimeout(left)
                try:
                    chunk = stream.recv(65536)
                except (TimeoutError, socket.timeout):
                    return False
                if not chunk:
                    return False
                data.extend(chunk)
            return True

        assert read_until(b"retry: 1500"), bytes(data)
        head = bytes(data).split(b"\r\n\r\n", 1)[0].lower()
        assert b" 200 " in head.split(b"\r\n", 1)[0] and b"text/event-stream" in head
        assert b"content-encoding" not in head
        changed = api(stack, "POST", f"/api/games/{code}/actions",
                      {"type": "level", "player": seat["player_id"], "delta": 1}, token=seat["token"])
        version = changed["state"]["version"]
        # The stream is still open (no response end), so only unbuffered passing gets it here.
        assert read_until(f"id: {version}\nevent: changed\n".encode()), bytes(data)
    finally:
        stream.close()


def _form_token(stack) -> tuple[str, str]:
    status, headers, body = call(stack, "GET", "/", headers={"Accept-Encoding": "identity"})
    assert status == 200
    # No version shown (nginx: server_tokens off; the Caddyfile drops the header).
    assert headers["Server"] == ("nginx" if stack["kind"] == "nginx" else None)
    assert "max-age" in headers["Strict-Transport-Security"]
    token = re.search(rb'name="csrf_token" value="([^"]+)"', body).group(1).decode()
    [session] = headers.get_all("Set-Cookie")
    assert "; secure" in session.lower()  # the app knows the phone came over https
    return token, session.split(";", 1)[0]


@pytest.mark.parametrize("forged", [{}, {"X-Forwarded-Port": "1", "X-Forwarded-Host": "evil.example",
                                         "X-Forwarded-Proto": "http"}], ids=["plain", "forged"])
def test_a_form_post_works_on_a_port_other_than_443_whatever_the_client_forges(stack, forged):
    token, cookie = _form_token(stack)
    from urllib.parse import urlencode

    headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie,
               "Referer": origin(stack) + "/", "Origin": origin(stack), **forged}
    status, answer, body = call(stack, "POST", "/games", headers=headers,
                                body=urlencode({"csrf_token": token, "edition": "classic"}))
    assert status == 303, body[:500]  # a port lost on the way fails the Referer check: 400
    location = answer["Location"]
    assert location.startswith(("/games/", origin(stack) + "/games/")), location
    code = location.rstrip("/").split("/")[-2]
    cookies = "; ".join(c.split(";", 1)[0] for c in answer.get_all("Set-Cookie"))
    status, _, page = call(stack, "GET", f"/games/{code}/host",
                           headers={"Cookie": cookies, "Accept-Encoding": "identity", **forged})
    assert status == 200
    # The join link in the QR code: the name and port the phones use, never a forged one.
    assert f"{origin(stack)}/join/{code}".encode() in page, re.findall(rb"https?://[^\"<\s]*/join/\w+", page)


@pytest.mark.parametrize("kind", sorted(PROXIES))
def test_the_join_link_keeps_the_port_of_companion_public_url(kind, tmp_path):
    """As the guide sets it up: COMPANION_PUBLIC_URL with the port the proxy listens on (not
    443). The join link and its QR code keep that port, and a form post works."""
    from urllib.parse import urlencode

    from companion.web.invite import qr_svg

    with running_stack(kind, tmp_path, public_url=True) as stack:
        public = origin(stack)  # https://companion.example.org:<port>, as in COMPANION_PUBLIC_URL
        made = api(stack, "POST", "/api/games", {"edition": "classic"})
        assert made["join_url"] == f"{public}/join/{made['code']}"
        token, cookie = _form_token(stack)
        status, answer, body = call(stack, "POST", "/games", body=urlencode({"csrf_token": token,
                                                                            "edition": "classic"}),
                                    headers={"Content-Type": "application/x-www-form-urlencoded",
                                             "Cookie": cookie, "Referer": public + "/", "Origin": public})
        assert status == 303, body[:500]
        code = answer["Location"].rstrip("/").split("/")[-2]
        cookies = "; ".join(c.split(";", 1)[0] for c in answer.get_all("Set-Cookie"))
        status, _, page = call(stack, "GET", f"/games/{code}/host",
                               headers={"Cookie": cookies, "Accept-Encoding": "identity"})
        assert status == 200
        link = f"{public}/join/{code}"
        assert f'href="{link}"'.encode() in page, re.findall(rb"https?://[^\"<\s]*/join/\w+", page)
        assert qr_svg(link).encode() in page  # the QR code encodes exactly that link


def test_an_unknown_host_never_reaches_the_app(stack):
    client = Client(stack)  # the right name in SNI, another in Host
    try:
        client.putrequest("GET", "/", skip_host=True)
        client.putheader("Host", "evil.example")
        client.endheaders()
        if stack["kind"] == "nginx":  # the default server hangs up without a word
            with pytest.raises((http.client.RemoteDisconnected, ConnectionError)):
                client.getresponse()
        else:  # Caddy answers an empty 200 itself when no site matches
            answer = client.getresponse()
            assert answer.read() == b"" and answer.getheader("Content-Security-Policy") is None
    finally:
        client.close()
    # Another name in SNI: the handshake itself is refused, no certificate shown.
    loose = ssl.create_default_context()
    loose.check_hostname, loose.verify_mode = False, ssl.CERT_NONE
    with socket.create_connection(("127.0.0.1", stack["https"]), timeout=WAIT) as raw:
        with pytest.raises(ssl.SSLError):
            loose.wrap_socket(raw, server_hostname="evil.example").close()
    if stack["kind"] != "nginx":
        return  # the test runs Caddy without its port-80 redirect server
    # Plain http: our name is sent to https, any other gets nothing.
    plain = http.client.HTTPConnection("127.0.0.1", stack["http"], timeout=WAIT)
    try:
        plain.request("GET", "/join/ABC", headers={"Host": NAME})
        moved = plain.getresponse()
        moved.read()
        assert moved.status == 301 and moved.getheader("Location") == f"https://{NAME}/join/ABC"
        plain.request("GET", "/", headers={"Host": "evil.example"})
        with pytest.raises((http.client.RemoteDisconnected, ConnectionError)):
            plain.getresponse()
    finally:
        plain.close()


def test_the_proxys_own_errors_under_api_are_json_too(stack):
    """A body past the proxy's bound is refused by the proxy itself (Caddy passes it to the
    app, which refuses it): JSON either way, as every answer under /api/."""
    import json

    status, headers, body = call(stack, "POST", "/api/games", body=b"{" + b" " * 200_000 + b"}",
                                 headers={"Content-Type": "application/json"})
    assert status == 413 and headers.get("Content-Type", "").startswith("application/json"), (status, body[:200])
    assert json.loads(body)["error"]["message"]


def test_the_guides_health_check_answers_through_the_proxy(stack):
    """deploy/README.md's monitor command, as written, against the proxy (curl told where
    companion.example.org is and which certificate to trust: the test's only additions)."""
    import json

    curl = shutil.which("curl")
    if not curl:
        pytest.skip("curl is not installed")
    guide = {line.strip() for line in (DEPLOY / "README.md").read_text().splitlines()
             if line.strip().startswith("curl ") and "/healthz" in line}
    assert len(guide) == 1, guide
    command = shlex.split(guide.pop())
    assert command[-1] == f"https://{NAME}/healthz"
    command[-1] = f"https://{NAME}:{stack['https']}/healthz"
    command[1:1] = ["--cacert", str(stack["cert"]), "--resolve", f"{NAME}:{stack['https']}:127.0.0.1",
                    "--max-time", str(WAIT)]
    done = subprocess.run([curl, *command[1:]], capture_output=True, text=True, timeout=WAIT + 5)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["ok"] is True and found["database"] == "ok" and found["schema"] == found["schema_known"]


def promised_header_timeout(kind: str) -> float:
    """The seconds the shipped file gives a client for its request head (the guide's 10 s).
    nginx's must be at the http{} level: it reads a request's head before it knows the server
    block, so one set in a server block bounds nothing (the default 60 s)."""
    if kind == "nginx":
        text = (DEPLOY / "nginx.conf").read_text()
        assert text.count("client_header_timeout") == 1
        http_level = text[text.index("http {"):text.index("    server {")]
        found = re.search(r"(?m)^    client_header_timeout (\d+)s;", http_level)
    else:
        found = re.search(r"(?m)^\s*read_header (\d+)s\b", (DEPLOY / "Caddyfile").read_text())
    assert found, f"no header timeout where the {kind} file should set it"
    return float(found.group(1))


def test_the_header_timeout_is_set_where_nginx_reads_it():
    assert promised_header_timeout("nginx") == 10  # what deploy/README.md promises


def test_a_client_stalling_in_its_request_head_is_dropped_in_the_promised_time(stack):
    """A slow client (slowloris) that sends part of a request head and then nothing is
    dropped by the proxy after the shipped header timeout, measured on the running proxy:
    about 10 s, not nginx's default 60 s."""
    promised = promised_header_timeout(stack["kind"])
    limit = 2 * promised + 5  # well short of 60 s; the test never waits longer
    raw = socket.create_connection(("127.0.0.1", stack["https"]), timeout=WAIT)
    opened = time.monotonic()
    tls = stack["context"].wrap_socket(raw, server_hostname=NAME)
    try:
        # The request line and a header, never the blank line that ends the head.
        tls.sendall(f"GET / HTTP/1.1\r\nHost: {NAME}:{stack['https']}\r\nUser-Agent: slow".encode())
        answered = bytearray()
        while True:
            left = opened + limit - time.monotonic()
            if left <= 0:
                pytest.fail(f"{stack['kind']} still holds the connection after {limit:g} s "
                            f"(promised: {promised:g} s)")
            tls.settimeout(left)
            try:
                chunk = tls.recv(4096)
            except (TimeoutError, socket.timeout):
                continue  # the loop's deadline check fails the test
            except (ConnectionError, ssl.SSLError):
                break  # reset or a torn TLS session: dropped all the same
            if not chunk:
                break
            answered.extend(chunk)  # a 408 page is fine; the head was never served
        held = time.monotonic() - opened
    finally:
        tls.close()
    assert b" 200 " not in answered[:20], bytes(answered[:200])
    assert 0.8 * promised <= held < limit, f"dropped after {held:.1f} s, promised {promised:g} s"


def test_the_proxy_offers_http2(stack):
    # nginx 1.22 only knows `listen ... http2`; a file written for 1.25 would not even start.
    context = ssl.create_default_context(cafile=str(stack["cert"]))
    context.set_alpn_protocols(["h2", "http/1.1"])
    with socket.create_connection(("127.0.0.1", stack["https"]), timeout=WAIT) as raw:
        with context.wrap_socket(raw, server_hostname=NAME) as tls:
            assert tls.selected_alpn_protocol() == "h2"


# --- companion serve and COMPANION_TRUSTED_PROXIES ---------------------------------------

@pytest.fixture
def served(monkeypatch):
    """Runs ``companion serve``'s argument handling only; records what would be served."""
    calls = []
    monkeypatch.setattr(cli, "serve", lambda host, port, **kw: calls.append(host))
    return calls


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.7"])
def test_serve_refuses_to_trust_proxies_on_an_open_address(monkeypatch, served, capsys, host):
    monkeypatch.setenv("COMPANION_TRUSTED_PROXIES", "1")
    assert cli.main(["serve", "--host", host]) == 2
    assert served == []
    assert "--host 127.0.0.1" in capsys.readouterr().err
    # An explicit flag for proxies on other machines behind a firewall; still a warning.
    assert cli.main(["serve", "--host", host, "--allow-remote-proxies"]) == 0
    assert served == [host]
    assert "WARNING" in capsys.readouterr().err


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "localhost"])
def test_serve_trusts_proxies_on_loopback(monkeypatch, served, capsys, host):
    monkeypatch.setenv("COMPANION_TRUSTED_PROXIES", "1")
    assert cli.main(["serve", "--host", host]) == 0
    assert served == [host]
    assert capsys.readouterr().err == ""


def test_serve_without_proxies_listens_anywhere(monkeypatch, served, capsys):
    monkeypatch.delenv("COMPANION_TRUSTED_PROXIES", raising=False)
    assert cli.main(["serve"]) == 0  # the table's LAN set-up: all addresses, nothing trusted
    assert served == ["0.0.0.0"]
    assert capsys.readouterr().err == ""


def test_the_shipped_unit_listens_on_loopback_and_keeps_secrets_out_of_it():
    unit = (DEPLOY / "companion.service").read_text()
    start = re.search(r"(?m)^ExecStart=(.*)$", unit).group(1)
    assert "--host 127.0.0.1" in start
    assert re.search(r"(?m)^EnvironmentFile=", unit)
    assert not re.search(r"(?m)^Environment=.*(SECRET|PASSWORD|DATABASE_URL)", unit)


SYSTEMD_ANALYZE = shutil.which("systemd-analyze")


@pytest.mark.skipif(not SYSTEMD_ANALYZE,
                    reason="systemd-analyze is not installed (scripts/test.sh installs systemd)")
def test_the_shipped_unit_scores_3_or_better_with_systemd_analyze(tmp_path):
    # --offline reads the file alone; a copy with the unit's real name, as it is installed.
    unit = tmp_path / "companion.service"
    shutil.copy(DEPLOY / "companion.service", unit)
    done = subprocess.run([SYSTEMD_ANALYZE, "security", "--offline=yes", "--no-pager", str(unit)],
                          capture_output=True, text=True, timeout=60)
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
    assert found, done.stdout[-2000:] + done.stderr[-2000:]
    assert float(found.group(1)) <= 3.0, done.stdout
