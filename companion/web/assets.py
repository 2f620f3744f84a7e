"""A light, cached first load: compressed responses and fingerprinted static files.

- ``url_for('static', filename='app.css')`` gives ``/static/_v/<content hash>/app.css``. A
  static file asked for under its current hash is answered ``Cache-Control: public,
  max-age=31536000, immutable``, so a phone's second visit fetches no asset at all; when the
  file changes, its URL changes. The hash is a path segment, not a query, so file names still
  end in ``.css``/``.js`` and relative URLs keep working. Without the hash, or under another
  one (the icons the manifest names, an old page, a file found relative to a hashed one), it
  is ``no-cache``: the phone revalidates with the ETag and gets a 304.
- Text assets (CSS, JS, SVG, the manifest) are compressed once, with brotli at its best
  setting and gzip, and kept in memory; video and PNG files are sent as they are (with
  ranges, which Safari needs for video).
- Pages and JSON are compressed per response by Flask-Compress (brotli, else gzip). Streamed
  responses, the live ``text/event-stream`` above all, are never compressed: a compressor
  would hold the doorbell's events back.
- Everything else that does not say otherwise is ``Cache-Control: no-cache``: pages are never
  reused without asking the server.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
import threading
from dataclasses import dataclass, field

from flask import Flask, abort, current_app, request, send_from_directory
from flask_compress import Compress
from werkzeug.security import safe_join

from .security import no_store, sets_a_token_cookie

try:
    import brotli
except ImportError:  # pragma: no cover - brotli is a dependency; gzip alone still works
    try:
        import brotlicffi as brotli
    except ImportError:
        brotli = None

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
FINGERPRINT = "_v/"  # /static/_v/<hash>/<filename>
COMPRESSIBLE_TYPES = {"text/css", "text/javascript", "application/javascript", "application/json",
                      "application/manifest+json", "image/svg+xml", "text/plain", "text/html"}
COMPRESS_IN_MEMORY_MAX = 2 * 1024 * 1024  # text assets up to this size are kept compressed
mimetypes.add_type("application/manifest+json", ".webmanifest")


@dataclass
class Asset:
    path: str
    stamp: tuple[int, int]  # (mtime_ns, size): a changed file is read again
    digest: str
    mimetype: str
    data: bytes | None  # kept for text assets, which are sent compressed
    _encoded: dict[str, bytes] = field(default_factory=dict)

    def encoded(self, encoding: str | None) -> bytes:
        assert self.data is not None
        if encoding is None:
            return self.data
        body = self._encoded.get(encoding)
        if body is None:
            if encoding == "br":
                body = brotli.compress(self.data, quality=11)
            else:
                body = gzip.compress(self.data, compresslevel=9, mtime=0)
            self._encoded[encoding] = body
        return body


class Assets:
    """The static folder's files with their content hashes (and compressed text bodies)."""

    def __init__(self, folder: str):
        self.folder = folder
        self._lock = threading.Lock()
        self._assets: dict[str, Asset] = {}

    def get(self, filename: str) -> Asset | None:
        path = safe_join(self.folder, filename)
        if path is None:
            return None
        try:
            st = os.stat(path)
        except OSError:
            return None
        if not os.path.isfile(path):
            return None
        stamp = (st.st_mtime_ns, st.st_size)
        asset = self._assets.get(filename)
        if asset is not None and asset.stamp == stamp:
            return asset
        with open(path, "rb") as f:
            content = f.read()
        mimetype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        keep = mimetype in COMPRESSIBLE_TYPES and len(content) <= COMPRESS_IN_MEMORY_MAX
        asset = Asset(path=path, stamp=stamp, digest=hashlib.sha256(content).hexdigest()[:16],
                      mimetype=mimetype, data=content if keep else None)
        with self._lock:
            self._assets[filename] = asset
        return asset


def _assets() -> Assets:
    return current_app.extensions["companion_assets"]


def _encoding() -> str | None:
    accepted = request.accept_encodings
    if brotli is not None and accepted["br"] > 0:
        return "br"
    if accepted["gzip"] > 0:
        return "gzip"
    return None


def static_file(filename: str):
    """The ``static`` endpoint: long-cached when fingerprinted, compressed when text."""
    digest = None
    if filename.startswith(FINGERPRINT):
        digest, _, filename = filename[len(FINGERPRINT):].partition("/")
    asset = _assets().get(filename)
    if asset is None:
        abort(404)
    fingerprinted = digest == asset.digest
    if asset.data is not None:
        encoding = _encoding()
        response = current_app.response_class(asset.encoded(encoding), mimetype=asset.mimetype)
        if encoding:
            response.headers["Content-Encoding"] = encoding
        response.vary.add("Accept-Encoding")
        response.set_etag(f"{asset.digest}-{encoding or 'identity'}")
        response.make_conditional(request)
    else:
        response = send_from_directory(current_app.static_folder, filename, etag=True)
    response.headers["Cache-Control"] = IMMUTABLE if fingerprinted else REVALIDATE
    return response


def init_app(app: Flask) -> None:
    app.extensions["companion_assets"] = Assets(app.static_folder)
    app.view_functions["static"] = static_file

    @app.url_defaults
    def fingerprint(endpoint, values):
        if endpoint != "static" or not isinstance(values.get("filename"), str):
            return
        filename = values["filename"]
        if filename.startswith(FINGERPRINT):
            return
        asset = app.extensions["companion_assets"].get(filename)
        if asset is not None:
            values["filename"] = f"{FINGERPRINT}{asset.digest}/{filename}"

    @app.after_request
    def not_cached(response):
        if sets_a_token_cookie(response):  # a seat or host token: never kept by any cache
            return no_store(response)
        if "Cache-Control" not in response.headers:
            response.headers["Cache-Control"] = REVALIDATE
        return response

    for key, value in {
        "COMPRESS_ALGORITHM": ["br", "gzip"],
        # Per response: brotli's fastest setting. From 2 up it sets up hash tables of a few
        # hundred KB for every answer, which cost the server ~0.5 ms a page (bench/refresh.py:
        # 27.5 ms of CPU per tap at 5, 23.6 at 1) for ~1 KB less on a 27 KB page (4.0 vs 3.1 KB).
        "COMPRESS_BR_LEVEL": 1,
        "COMPRESS_LEVEL": 6,
        "COMPRESS_STREAMS": False,  # never buffer a stream (the live events)
        "COMPRESS_MIN_SIZE": 500,
    }.items():
        app.config.setdefault(key, value)
    Compress(app)
