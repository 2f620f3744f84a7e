"""The ``companion`` command: ``companion serve [--host HOST] [--port PORT]``.

Runs the app under waitress, a production WSGI server. Each open live stream holds one of
its threads, so the pool is sized for a full table of phones plus the bench (at least 50).
"""

from __future__ import annotations

import argparse
import sys

import qrcode

from . import create_app
from .web.common import lan_address

DEFAULT_PORT = 8000
THREADS = 128


def _site_url(app, host: str, port: int) -> str:
    configured = app.config.get("COMPANION_PUBLIC_URL")
    if configured:
        return configured.rstrip("/")
    if host in ("0.0.0.0", "::", ""):
        host = lan_address() or "127.0.0.1"
    return f"http://{host}:{port}"


def print_banner(url: str, out=sys.stdout) -> None:
    code = qrcode.QRCode(border=1)
    code.add_data(url)
    out.write(f"\nMunchkin Table Companion is running.\nOpen on any phone on this network: {url}\n\n")
    code.print_ascii(out=out, invert=True)
    out.write("\nStop with Ctrl+C.\n")
    out.flush()


def serve(host: str, port: int) -> None:
    from waitress import serve as waitress_serve

    app = create_app()
    print_banner(_site_url(app, host, port))
    waitress_serve(app, host=host, port=port, threads=THREADS, connection_limit=1000,
                   channel_timeout=120, ident="companion")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("serve", help="run the web app for the table")
    run.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    run.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    args = parser.parse_args(argv)
    if args.command == "serve":
        serve(args.host, args.port)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
