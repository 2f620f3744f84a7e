"""A light, cached first load: compression, fingerprinted static URLs and their cache headers."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from pathlib import Path

import brotli

from companion import ROOT

STATIC = ROOT / "static"
IMMUTABLE = "public, max-age=31536000, immutable"


def decoded(response) -> bytes:
    encoding = response.headers.get("Content-Encoding")
    if encoding == "br":
        return brotli.decompress(response.data)
    if encoding == "gzip":
        return gzip.decompress(response.data)
    assert encoding is None, encoding
    return response.data


def static_urls(html: str) -> list[str]:
    """The static files a page names (an icon names the sprite and its drawing, ``#skull``)."""
    urls = (u.replace("&amp;", "&").split("#")[0] for u in re.findall(r'(?:href|src)="(/static/[^"]+)"', html))
    return list(dict.fromkeys(urls))


def test_pages_and_json_are_compressed_with_what_the_phone_accepts(client, table):
    plain = client.get("/", headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
    for encoding in ("br", "gzip"):
        page = client.get("/", headers={"Accept-Encoding": encoding})
        assert page.headers["Content-Encoding"] == encoding
        assert "Accept-Encoding" in page.headers["Vary"]
        html = decoded(page)  # the same page (its form token and nonce differ per request)
        assert html.lower().startswith(b"<!doctype html") and html.rstrip().endswith(b"</html>")
        assert len(page.data) < len(plain.data) / 2
    # A browser offers both: brotli wins.
    assert client.get("/", headers={"Accept-Encoding": "gzip, deflate, br"}).headers["Content-Encoding"] == "br"
    for name in ("Ann", "Bob", "Cid"):
        table.join(name)
    state = table.request("GET", headers={"Accept-Encoding": "gzip"})
    assert state.headers["Content-Encoding"] == "gzip"
    assert json.loads(decoded(state))["code"] == table.code


def test_the_event_stream_is_never_compressed(client, table):
    response = table.request("GET", "events", headers={"Accept-Encoding": "gzip, deflate, br"}, buffered=False)
    try:
        assert response.mimetype == "text/event-stream"
        assert "Content-Encoding" not in response.headers
        first = next(iter(response.response))
        assert (first.decode() if isinstance(first, bytes) else first).startswith("retry: ")
    finally:
        response.close()


def static_path(url: str) -> str:
    """The file in static/ that a fingerprinted URL names."""
    return re.sub(r"^/static/_v/[0-9a-f]+/", "", url)


def test_static_urls_carry_the_content_hash(client):
    html = client.get("/").get_data(as_text=True)
    urls = static_urls(html)
    assert any(u.endswith("/app.css") for u in urls) and any(u.endswith("/htmx.min.js") for u in urls)
    for url in urls:
        match = re.fullmatch(r"/static/_v/([0-9a-f]{16})/(.+)", url)
        assert match, url
        digest, path = match.groups()
        assert digest == hashlib.sha256((STATIC / path).read_bytes()).hexdigest()[:16], url


def test_a_fingerprinted_asset_is_cached_for_good_and_a_page_is_not(client):
    page = client.get("/")
    assert page.headers["Cache-Control"] in ("no-cache", "no-store")
    for url in static_urls(page.get_data(as_text=True)):
        asset = client.get(url, headers={"Accept-Encoding": "br, gzip"})
        assert asset.status_code == 200, url
        assert asset.headers["Cache-Control"] == IMMUTABLE, url
        assert decoded(asset) == (STATIC / static_path(url)).read_bytes(), url
    # Without the hash, or with an old one, the phone must ask again (and gets a 304).
    for url in ("/static/app.css", "/static/_v/0123456789abcdef/app.css"):
        asset = client.get(url)
        assert asset.headers["Cache-Control"] == "no-cache"
        assert "immutable" not in asset.headers["Cache-Control"]
        again = client.get(url, headers={"If-None-Match": asset.headers["ETag"]})
        assert again.status_code == 304


def test_text_assets_are_compressed_and_videos_keep_ranges(client):
    css = client.get("/static/app.css", headers={"Accept-Encoding": "gzip"})
    assert css.headers["Content-Encoding"] == "gzip" and css.mimetype == "text/css"
    js = client.get("/static/vendor/htmx-2.0.11/htmx.min.js", headers={"Accept-Encoding": "br"})
    assert js.headers["Content-Encoding"] == "br"
    assert len(js.data) < (STATIC / "vendor/htmx-2.0.11/htmx.min.js").stat().st_size / 2
    video = client.get("/static/vendor/nosleep.js-0.12.0/no-sleep.mp4", headers={"Range": "bytes=0-9",
                                                                               "Accept-Encoding": "br"})
    assert video.status_code == 206 and len(video.data) == 10
    assert "Content-Encoding" not in video.headers
    # app.js finds the videos next to itself: under its own hash they load, but revalidated.
    app_js = next(u for u in static_urls(client.get("/").get_data(as_text=True)) if u.endswith("/app.js"))
    beside = client.get(app_js.replace("app.js", "vendor/nosleep.js-0.12.0/no-sleep.webm"))
    assert beside.status_code == 200 and beside.headers["Cache-Control"] == "no-cache"
    assert client.get("/static/../companion/__init__.py").status_code == 404
    assert client.get("/static/_v/0123/%2E%2E/companion/__init__.py").status_code == 404
    assert client.get("/static/nothing-here.js").status_code == 404


def test_the_manifest_and_its_icons_still_load(client):
    url = next(u for u in static_urls(client.get("/").get_data(as_text=True)) if "manifest" in u)
    manifest = client.get(url, headers={"Accept-Encoding": "br"})
    assert manifest.status_code == 200 and manifest.mimetype == "application/manifest+json"
    icons = json.loads(decoded(manifest))["icons"]
    assert icons
    for icon in icons:
        answer = client.get(icon["src"])
        assert answer.status_code == 200 and answer.mimetype == icon["type"], icon
        assert answer.data == Path(STATIC / icon["src"].removeprefix("/static/")).read_bytes()
