"""The invitation to a table: the join link a phone can reach, and its QR code."""

from __future__ import annotations

import io
import ipaddress
import re
import socket
import subprocess

import qrcode
import qrcode.image.svg
from flask import current_app, request


def _is_loopback(host: str) -> bool:
    name = host.rsplit(":", 1)[0].strip("[]") if host.count(":") <= 1 or host.startswith("[") else host
    if name in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This machine's LAN IPv4 address, found without sending any packet."""
    try:
        out = subprocess.run(["ip", "-o", "-4", "addr", "show", "scope", "global"],
                             capture_output=True, text=True, timeout=2).stdout
        for line in out.splitlines():
            match = re.search(r"inet (\d+\.\d+\.\d+\.\d+)/", line)
            if match:
                return match.group(1)
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        for addr in socket.gethostbyname_ex(socket.gethostname())[2]:
            if not addr.startswith("127."):
                return addr
    except OSError:
        pass
    return None


def base_url() -> str:
    """Where a phone can reach this site: configured URL, else the request's host if a phone
    could use it, else this machine's LAN address with the request's port."""
    configured = current_app.config.get("COMPANION_PUBLIC_URL")
    if configured:
        return configured.rstrip("/")
    host = request.host
    if not _is_loopback(host):
        return f"{request.scheme}://{host}"
    port = host.rsplit(":", 1)[1] if ":" in host and not host.endswith("]") else None
    lan = lan_address()
    if lan:
        return f"{request.scheme}://{lan}" + (f":{port}" if port else "")
    return f"{request.scheme}://{host}"


def join_url(code: str) -> str:
    return f"{base_url()}/join/{code}"


def qr_svg(data: str) -> str:
    """An inline SVG QR code (no Pillow needed)."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    buffer = io.BytesIO()
    image.save(buffer)
    svg = buffer.getvalue().decode()
    return svg[svg.index("<svg"):]  # drop the XML declaration so it can sit inside HTML
