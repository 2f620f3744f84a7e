"""The ``companion`` command: ``companion serve [--host HOST] [--port PORT]``.

Runs the app under gevent's WSGI server, an event loop: a phone's open live stream is a
parked greenlet and a socket, not an OS thread, so one process holds thousands of them while
ordinary requests keep flowing. A connection must send its request line and headers within
``--header-timeout`` seconds, and an idle kept-alive connection is closed after
``--idle-timeout``: half-open connections cost almost nothing and do not linger.

``--workers N`` (Linux) runs N such processes on one port: the parent binds the listening
socket, runs the database's migrations once, then forks the workers, which all accept on
that socket, and restarts one that dies. Workers share nothing but the database, and so do
separate ``companion serve`` processes on several machines behind a load balancer: with
PostgreSQL, a change made through one reaches the live streams of all the others
(LISTEN/NOTIFY; SQLite polls instead, see ``companion/store/doorbell.py``).

With ``COMPANION_TRUSTED_PROXIES`` set, ``serve`` refuses an address other machines reach
unless told ``--allow-remote-proxies``: whoever reaches the port could forge their address.
"""

from __future__ import annotations

import argparse
import errno
import gc
import os
import signal
import sys
import time
from typing import NoReturn

DEFAULT_PORT = 8000
HEADER_TIMEOUT = 10.0  # seconds for a request line and its headers, from the first byte
IDLE_TIMEOUT = 75.0  # seconds a kept-alive connection may wait for its next request
IO_TIMEOUT = 60.0  # seconds any single read or write of a request body or response may block
BACKLOG = 2048
MAX_CONNECTIONS = 20000
# A request's head (request line and headers) may have at most this many bytes and header
# lines: a browser sends a few KB; what is larger is answered 431 before it is held in memory
# (150 connections stalled with 99 header lines of 64 KB each once took 1 GB).
MAX_HEAD_BYTES = 32 * 1024
MAX_HEAD_LINES = 50
# Connections one address may hold open at once, unless a trusted proxy is in front (then every
# connection comes from the proxy, which bounds them itself): ten tables of seven phones in a
# café behind one address, each with a stream and a request or two, stay well under it.
MAX_CONNECTIONS_PER_ADDRESS = 256


def _patch() -> None:
    """Make the standard library cooperative (sockets, threading, time.sleep ...).

    Must run before SQLAlchemy, the store and the app are imported, so their locks and
    sockets are gevent's. ``companion/__init__`` has already imported Flask, which imports
    ``ssl`` through ``http.client``; nothing here uses TLS (a proxy terminates it), so
    gevent's warning about that is silenced.
    """
    import warnings

    from gevent import monkey

    if monkey.is_module_patched("socket"):
        return
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=monkey.MonkeyPatchWarning)
        monkey.patch_all()


def _share_the_loop() -> None:
    """Long computations (a seat's possible moves, a search of hundreds of house cards) pause
    every few steps until the event loop has nothing else to do (``gevent.idle``): the other
    tables' taps go first, so one request never freezes every table (bench/worst_requests.py
    --served measures the delay it gives another table's taps: p95 24 ms against 14.5 ms
    alone, where a sleep(0) between steps still gave 125 ms)."""
    import importlib

    import gevent

    # The modules, not the functions of the same names their packages export.
    card_search = importlib.import_module("companion.catalog.search")
    possible_moves = importlib.import_module("companion.engine.allowed")
    possible_moves.pause = card_search.pause = gevent.idle


def _fail(message: str) -> NoReturn:
    print(f"companion: {message}", file=sys.stderr, flush=True)
    raise SystemExit(1)


def _app_or_exit(create_app, config: dict):
    """The app, or one clear line and exit 1 when its database cannot be used."""
    from sqlalchemy.exc import OperationalError, ProgrammingError

    from . import configured_database_url
    from .operations import _first_line, safe_url
    from .store import StoreError
    from .store.migrations import SchemaTooNew

    url = safe_url(configured_database_url())
    try:
        return create_app(config)
    except SchemaTooNew as exc:
        _fail(f"cannot serve: {exc}")
    except (OperationalError, ProgrammingError, StoreError) as exc:
        _fail(f"cannot reach the database {url}: {_first_line(exc)}. Start it (or check "
              "COMPANION_DATABASE_URL) and start the companion again; `companion check` tells more.")


def _start_or_exit(server, host: str, port: int, *, listen_only: bool = False) -> None:
    """Bind the port, or one clear line and exit 1 (a port in use, an address not ours)."""
    try:
        server.init_socket() if listen_only else server.start()
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            _fail(f"port {port} on {host} is already in use (another companion serve?); stop it "
                  "or choose another with --port.")
        _fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}.")


_serving_lock = None  # the lock on the SQLite file, held for the process's life (operations.py)

PRUNE_EVERY = 24 * 3600.0  # seconds between two deletions of idle games while serving


def _prune_daily(app) -> None:
    """Delete idle games (``Store.prune``) at start and then once a day, in the background."""
    import gevent

    def prune_forever():
        while True:
            try:
                gone = app.extensions["companion_store"].prune()
                if gone:
                    print(f"companion: {gone} idle games deleted.", file=sys.stderr, flush=True)
            except Exception as exc:  # noqa: BLE001 - a failed pass is retried the next day
                print(f"companion: deleting idle games failed: {exc}", file=sys.stderr, flush=True)
            gevent.sleep(PRUNE_EVERY)

    gevent.spawn(prune_forever)


def raise_open_file_limit() -> int | None:
    """Raise the soft limit on open files to the hard limit (each connection is one file).

    Returns the soft limit in force afterwards, or None where there is no ``resource``
    module (Windows)."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard
    if hard == resource.RLIM_INFINITY:
        # macOS refuses an infinite soft limit; ask for a large finite one.
        wanted = max(soft, 1 << 20) if soft != resource.RLIM_INFINITY else soft
    for target in (wanted, 1 << 16, 10240):
        if soft == resource.RLIM_INFINITY or target <= soft:
            break
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            break
        except (ValueError, OSError):
            continue
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return None if soft == resource.RLIM_INFINITY else soft


def _site_url(app, host: str, port: int) -> str:
    from .web.invite import lan_address

    configured = app.config.get("COMPANION_PUBLIC_URL")
    if configured:
        return configured.rstrip("/")
    if host in ("0.0.0.0", "::", ""):
        host = lan_address() or "127.0.0.1"
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def print_banner(url: str, out=sys.stdout) -> None:
    """The URL, and the QR code phones scan when the output is a terminal (not a journal)."""
    out.write(f"\nMunchkin Table Companion is running.\nOpen on any phone on this network: {url}\n")
    if out.isatty():
        import qrcode

        code = qrcode.QRCode(border=1)
        code.add_data(url)
        out.write("\n")
        code.print_ascii(out=out, invert=True)
        out.write("\nStop with Ctrl+C.\n")
    out.flush()


# gevent answers a request line too long to read (414) or a request it cannot parse (400:
# a bad Content-Length, a broken header line) itself, with an empty body, before the app sees
# it. Under /api/ every answer is JSON, so these are too; the headers were not read, so the
# message is in the default language.
_GEVENT_ERRORS = {"414": (414, "Request-URI Too Long", 413), "400": (400, "Bad Request", 400),
                  "431": (431, "Request Header Fields Too Large", 413)}
_HEAD_TOO_LARGE = (b"HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n"
                   b"Content-Type: text/plain; charset=utf-8\r\nContent-Length: 37\r\n\r\n"
                   b"The request's headers are too large.\n")


class _HeadTooLarge(ValueError):
    """A request head over ``MAX_HEAD_BYTES`` or ``MAX_HEAD_LINES``: answered 431."""


class _BoundedHead:
    """The connection's reader while the headers are read: each line is read only as far as
    the head's budget allows, so an oversized head is refused before it is held in memory."""

    def __init__(self, rfile, budget: int, lines: int):
        self._rfile, self._budget, self._lines = rfile, budget, lines

    def readline(self, limit: int = -1) -> bytes:
        self._lines -= 1
        if self._budget <= 0 or self._lines < 0:
            raise _HeadTooLarge("request head too large")
        want = self._budget + 1 if limit is None or limit < 0 else min(limit, self._budget + 1)
        line = self._rfile.readline(want)
        self._budget -= len(line)
        if self._budget < 0:
            raise _HeadTooLarge("request head too large")
        return line

    def __getattr__(self, name):
        return getattr(self._rfile, name)


def _json_under_api(requestline: str | None, result):
    """``result`` of gevent's ``handle_one_request``, its error answer made JSON for /api/."""
    if not isinstance(result, tuple) or not requestline or result[0] not in _GEVENT_ERRORS:
        return result
    parts = requestline.split(None, 2)
    target = parts[1] if len(parts) > 1 else ""
    if not target.startswith("/"):  # absolute-form: http://host/api/...
        from urllib.parse import urlsplit

        try:
            target = urlsplit(target).path
        except ValueError:
            return result
    if not target.startswith("/api/"):
        return result
    import json

    from companion.web.errors import HTTP_MESSAGES

    status, reason, said = _GEVENT_ERRORS[result[0]]
    body = json.dumps({"error": {"message": HTTP_MESSAGES[said]}}).encode() + b"\n"
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"X-Content-Type-Options: nosniff\r\nContent-Length: {len(body)}\r\n\r\n")
    return result[0], head.encode("latin-1") + body


class _HeadTimeout(BaseException):
    """The client was too slow to send a request head, or idle too long: hang up.

    A BaseException, so pywsgi's handlers for bad input do not answer it with a 400."""


def _handler_class(header_timeout: float, idle_timeout: float, io_timeout: float,
                   per_address: int | None = MAX_CONNECTIONS_PER_ADDRESS):
    """gevent's WSGI handler with a deadline for each request's head, one for the wait
    between kept-alive requests, and one for any single read or write after the head; a head
    over ``MAX_HEAD_BYTES``/``MAX_HEAD_LINES`` answered 431; at most ``per_address`` open
    connections from one address (None: no such bound)."""
    import collections
    import socket

    import gevent
    from gevent.pywsgi import WSGIHandler

    open_from: collections.Counter = collections.Counter()

    class Handler(WSGIHandler):
        _requests = 0
        _head_timer = None

        def handle(self):
            address = self.client_address[0] if isinstance(self.client_address, tuple) else self.client_address
            if per_address is not None and open_from[address] >= per_address:
                self.close_connection = True  # this address holds enough already: hang up
                return
            open_from[address] += 1
            try:
                try:
                    # pywsgi sends a response's head and body in two writes; without this,
                    # Nagle's algorithm holds the body until the client's delayed ACK (~40 ms).
                    self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                except (OSError, AttributeError):
                    pass
                super().handle()
            finally:
                open_from[address] -= 1
                if open_from[address] <= 0:
                    del open_from[address]

        def format_request(self):
            # The client's address as the app saw it: behind trusted proxies, ProxyFix has put
            # the phone's address into the environ; else it is the connection's.
            line = super().format_request()
            seen = (getattr(self, "environ", None) or {}).get("REMOTE_ADDR")
            connected = self.client_address[0] if isinstance(self.client_address, tuple) else self.client_address
            if seen and connected and seen != connected and line.startswith(str(connected)):
                line = seen + line[len(str(connected)):]
            return line

        def MessageClass(self, fp, *args):  # noqa: N802 (gevent's name)
            budget = MAX_HEAD_BYTES - len(self.requestline or "")
            return super().MessageClass(_BoundedHead(fp, budget, MAX_HEAD_LINES), *args)

        def _handle_client_error(self, ex):
            if isinstance(ex, _HeadTooLarge):
                self.close_connection = True
                return ("431", _HEAD_TOO_LARGE)
            return super()._handle_client_error(ex)

        def read_requestline(self):
            self.socket.settimeout(None)  # the head's own deadlines below bound the wait
            if self._requests:  # kept alive: wait for the next request's first byte
                with gevent.Timeout(idle_timeout, _HeadTimeout):
                    self.rfile.peek(1)
            self._requests += 1
            self._head_timer = gevent.Timeout.start_new(header_timeout, _HeadTimeout)
            return super().read_requestline()

        def read_request(self, raw_requestline):
            try:
                return super().read_request(raw_requestline)
            finally:
                self._stop_head_timer()
                # Reading a body or writing a response: no single read or write may stall longer.
                self.socket.settimeout(io_timeout)

        def handle_one_request(self):
            try:
                result = super().handle_one_request()
                return _json_under_api(self.requestline, result)
            except _HeadTimeout:
                self.close_connection = True
                return None
            finally:
                self._stop_head_timer()

        def _stop_head_timer(self):
            if self._head_timer is not None:
                self._head_timer.close()
                self._head_timer = None

    return Handler


def make_server(app, host: str, port: int, *, header_timeout: float = HEADER_TIMEOUT,
                idle_timeout: float = IDLE_TIMEOUT, io_timeout: float = IO_TIMEOUT,
                max_connections: int | None = None, access_log: bool = False):
    """A gevent WSGI server for ``app`` with header, idle and I/O timeouts.

    Call after :func:`_patch` (``serve`` does both)."""
    from gevent.pool import Pool
    from gevent.pywsgi import WSGIServer

    from . import _trusted_proxies

    # Behind a trusted proxy every connection comes from the proxy, which bounds them itself.
    per_address = None if _trusted_proxies() else int(
        os.environ.get("COMPANION_MAX_CONNECTIONS_PER_ADDRESS") or MAX_CONNECTIONS_PER_ADDRESS)
    handler = _handler_class(header_timeout, idle_timeout, io_timeout, per_address)
    limit = max_connections or MAX_CONNECTIONS
    server = WSGIServer((host, port), app, handler_class=handler, backlog=BACKLOG,
                        spawn=Pool(limit), log=sys.stderr if access_log else None)
    return server


def can_fork_workers() -> bool:
    """Whether ``--workers`` can run several processes on one port here (Linux)."""
    return sys.platform.startswith("linux") and hasattr(os, "fork")


def _terminate_with_parent(parent: int) -> None:
    """Ask Linux for a SIGTERM when the parent process dies (PR_SET_PDEATHSIG)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it died before we asked
        os.kill(os.getpid(), signal.SIGTERM)


def _serve_in_worker(server, parent: int, set_signal) -> NoReturn:
    """A forked worker's whole life: serve on the parent's socket until SIGTERM, then exit
    the process (it never returns to the parent's code)."""
    import traceback

    import gevent

    status = 0
    try:
        gevent.reinit()  # the forked hub: fresh event loop state, resolver, threadpool
        # Ctrl+C reaches the whole process group: the parent answers it for everyone, with
        # a SIGTERM to each worker. A worker whose parent dies gets a SIGTERM too (Linux).
        set_signal(signal.SIGINT, signal.SIG_IGN)
        set_signal(signal.SIGTERM, signal.SIG_DFL)
        _terminate_with_parent(parent)
        gevent.signal_handler(signal.SIGTERM, server.close)
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    except BaseException:
        traceback.print_exc()
        status = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)


class _Workers:
    """The parent's side of ``--workers``: its children (pid to when each started) and
    whether it is stopping. It uses the original, blocking ``fork``, ``waitpid`` and
    ``sleep``: gevent's loop never runs in the parent after the first fork."""

    def __init__(self, server, set_signal) -> None:
        from gevent import monkey

        self._fork = monkey.get_original("os", "fork")
        self._waitpid = monkey.get_original("os", "waitpid")
        self._pause = monkey.get_original("time", "sleep")
        self._set_signal = set_signal
        self.server = server
        self.children: dict[int, float] = {}
        self.stopping = False
        self.parent = os.getpid()

    def start(self) -> None:
        pid = self._fork()
        if pid:
            self.children[pid] = time.monotonic()
            return
        _serve_in_worker(self.server, self.parent, self._set_signal)

    def stop(self, _signum, _frame) -> None:
        """The parent's SIGTERM and SIGINT handler: a SIGTERM to every worker."""
        self.stopping = True
        for pid in list(self.children):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    def watch(self) -> None:
        """Wait for the workers to end; start another for one that died (at most one a
        second), unless stopping."""
        while self.children:
            try:
                pid, status = self._waitpid(-1, 0)
            except ChildProcessError:
                break
            started = self.children.pop(pid, None)
            if started is None or self.stopping:
                continue
            sys.stderr.write(f"companion: worker {pid} ended ({os.waitstatus_to_exitcode(status)}); "
                             "starting another\n")
            self._pause(max(0.0, 1.0 - (time.monotonic() - started)))
            if not self.stopping:
                self.start()


def run_workers(server, count: int) -> None:
    """Fork ``count`` workers that all accept on ``server``'s socket (bound by the caller).

    A worker that dies is started again (at most one a second); SIGTERM or Ctrl+C stops them
    all, each finishing its requests as a single ``companion serve`` would. The parent serves
    nothing: it never runs gevent's loop after the first fork, only waits for its children
    with the original, blocking ``os.waitpid``; each child re-initialises gevent's hub."""
    from gevent import monkey

    set_signal = monkey.get_original("signal", "signal")
    workers = _Workers(server, set_signal)
    set_signal(signal.SIGTERM, workers.stop)
    set_signal(signal.SIGINT, workers.stop)
    for _ in range(count):
        workers.start()
    workers.watch()


GC_THRESHOLDS = (10_000, 20, 20)  # objects between young passes, then passes between older ones


def warm(app) -> None:
    """Do once, before the first phone arrives, what its first page would otherwise wait for:
    compile every template (about half a second) and build the card search index and the
    arbiter's index of every language (about 0.1 s each, else the first question in it waits)."""
    from companion import rulebase
    from companion.catalog import load_catalog
    from companion.web.languages import LANGUAGES

    for name in app.jinja_env.list_templates(extensions=["html"]):
        app.jinja_env.get_template(name)
    load_catalog().search("warm up")
    for lang in LANGUAGES:
        rulebase.search("warm up", lang=lang)


def serve(host: str, port: int, *, header_timeout: float = HEADER_TIMEOUT,
          idle_timeout: float = IDLE_TIMEOUT, max_connections: int | None = None,
          max_streams_per_game: int | None = None, access_log: bool = False,
          workers: int = 1) -> None:
    _patch()
    if workers > 1 and not can_fork_workers():
        print(f"companion: --workers {workers} needs Linux (one port shared by forked processes); "
              "serving with one process.", file=sys.stderr, flush=True)
        workers = 1
    files = raise_open_file_limit()
    if max_connections is None:
        # Keep some files for the database, the listener and the logs.
        max_connections = MAX_CONNECTIONS if files is None else max(16, min(MAX_CONNECTIONS, files - 64))

    from . import configured_database_url, create_app
    from .operations import ServingLock, sqlite_file

    config = {}
    if max_streams_per_game is not None:
        config["LIVE_MAX_STREAMS_PER_GAME"] = max_streams_per_game
    database = sqlite_file(configured_database_url())
    if database is not None:  # held while serving: `companion restore` refuses meanwhile
        global _serving_lock
        _serving_lock = ServingLock(database).share()
    app = _app_or_exit(create_app, config)
    _share_the_loop()
    _prune_daily(app)
    warm(app)
    # What start-up loaded (modules, the card catalog, the rulings, templates) lives as long as
    # the process: keep it out of the garbage collector's full passes, which would otherwise
    # walk it again and again while thousands of streams are open.
    gc.collect()
    gc.freeze()
    # A page allocates tens of thousands of short-lived objects, nearly all freed by their
    # reference counts; at Python's default (a pass every 700) a tap paid ~9 ms of collection
    # (bench/refresh.py), at this one ~1 ms, for a few MB more between passes.
    gc.set_threshold(*GC_THRESHOLDS)
    server = make_server(app, host, port, header_timeout=header_timeout, idle_timeout=idle_timeout,
                         max_connections=max_connections, access_log=access_log)
    if workers > 1:
        # Bind here, once; every worker accepts on this socket. The migrations ran when the app
        # was made; no pooled database connection may cross the fork.
        _start_or_exit(server, host, port, listen_only=True)
        app.extensions["companion_store"].engine.dispose()
        print_banner(_site_url(app, host, port))
        print(f"{workers} worker processes.", flush=True)
        run_workers(server, workers)
        return
    _start_or_exit(server, host, port)  # bind first, so the banner only shows once the port is ours
    print_banner(_site_url(app, host, port))

    import gevent

    if os.name == "posix":
        # systemd and `kill` send SIGTERM: stop accepting, give requests a moment, exit.
        gevent.signal_handler(signal.SIGTERM, server.close)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or a name) only listens on this machine's loopback."""
    import ipaddress
    import socket

    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return bool(found) and all(ipaddress.ip_address(info[4][0].split("%")[0]).is_loopback
                               for info in found)


def proxy_trust_problem(host: str) -> str | None:
    """Why serving on ``host`` would let anyone forge their address, or None.

    With COMPANION_TRUSTED_PROXIES set, the app believes the X-Forwarded-* headers of whoever
    connects; if that port is reachable from beyond the machine, a client can skip the proxy
    and claim any address (and dodge the per-address limits)."""
    from . import _trusted_proxies

    proxies = _trusted_proxies()  # raises on a value that is not a number, as create_app would
    if not proxies or is_loopback(host):
        return None
    return (f"COMPANION_TRUSTED_PROXIES={proxies} makes the app believe the X-Forwarded-* "
            f"headers of whoever connects, and --host {host} accepts connections from other "
            "machines: anyone reaching this port directly could forge their address.")


def _positive(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return number


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("serve", help="run the web app for the table")
    run.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    run.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    run.add_argument("--header-timeout", type=float, default=HEADER_TIMEOUT, metavar="SECONDS",
                     help=f"time a client has to send a request's line and headers (default {HEADER_TIMEOUT:g})")
    run.add_argument("--idle-timeout", type=float, default=IDLE_TIMEOUT, metavar="SECONDS",
                     help=f"close a kept-alive connection idle this long (default {IDLE_TIMEOUT:g})")
    run.add_argument("--max-connections", type=int, default=None, metavar="N",
                     help=f"open connections at most (default: the open-file limit, at most {MAX_CONNECTIONS})")
    run.add_argument("--max-streams-per-game", type=int, default=None, metavar="N",
                     help="live streams a game may hold; a new one closes the oldest (default 60)")
    run.add_argument("--access-log", action="store_true", help="log every request to stderr")
    run.add_argument("--workers", type=_positive, default=1, metavar="N",
                     help="processes serving the port (Linux; default 1). Several processes "
                          "scale with PostgreSQL (COMPANION_DATABASE_URL); on SQLite they work "
                          "but see each other's changes by polling")
    run.add_argument("--allow-remote-proxies", action="store_true",
                     help="with COMPANION_TRUSTED_PROXIES set, serve on an address other machines "
                          "reach (the proxies are elsewhere and a firewall keeps everyone else "
                          "out); without it, that refuses to start")
    backup = commands.add_parser("backup", help="a consistent copy of the database while the server "
                                 "runs (SQLite; on PostgreSQL it prints the pg_dump command)")
    backup.add_argument("path", help="the backup file to write (or a folder to write it in)")
    restore = commands.add_parser("restore", help="replace the database with a backup; refused "
                                  "while a server uses it (SQLite; on PostgreSQL: the pg_restore command)")
    restore.add_argument("path", help="the backup file")
    checking = ("whether a server could use the configured database: it answers, its schema is one "
                "this version knows, and making or upgrading the tables and writing a game work for "
                "its role (tried, then rolled back)")
    commands.add_parser("check", help=checking, description=checking[:1].upper() + checking[1:] + ".")
    prune = commands.add_parser("prune", help="delete the games nobody changed for "
                                "COMPANION_GAME_TTL_DAYS days (default 90); serve does it daily")
    prune.add_argument("--days", type=float, default=None, metavar="DAYS",
                       help="idle days instead of COMPANION_GAME_TTL_DAYS")
    args = parser.parse_args(argv)
    if args.command in ("backup", "restore", "check"):
        from . import configured_database_url
        from . import operations

        url = configured_database_url()
        try:
            done = (operations.check(url) if args.command == "check"
                    else getattr(operations, args.command)(url, args.path))
        except operations.OperationError as exc:
            print(f"companion {args.command}: {exc}", file=sys.stderr, flush=True)
            return 1
        print(done, flush=True)
        return 0
    if args.command == "prune":
        from . import create_app

        gone = create_app().extensions["companion_store"].prune(args.days)
        print(f"{gone} idle game{'s' if gone != 1 else ''} deleted.", flush=True)
        return 0
    if args.command == "serve":
        problem = proxy_trust_problem(args.host)
        if problem and not args.allow_remote_proxies:
            print(f"companion: refusing to start. {problem}\nListen on loopback behind the proxy "
                  "(--host 127.0.0.1), or, if the proxies are on other machines and a firewall "
                  "keeps everyone else off this port, add --allow-remote-proxies.",
                  file=sys.stderr, flush=True)
            return 2
        if problem:
            print(f"companion: WARNING: {problem} (--allow-remote-proxies: only the proxies "
                  "may reach this port)", file=sys.stderr, flush=True)
        serve(args.host, args.port, header_timeout=args.header_timeout, idle_timeout=args.idle_timeout,
              max_connections=args.max_connections, max_streams_per_game=args.max_streams_per_game,
              access_log=args.access_log, workers=args.workers)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
