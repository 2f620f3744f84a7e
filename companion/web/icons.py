"""Icons that ship with the app: emoji and symbol characters show as empty boxes on a phone
without an emoji font; these are drawn the same everywhere, in the text's colour.

They are Lucide's (``static/vendor/lucide-<version>/icons``, one file each, as published),
gathered into one sprite, ``static/icons.svg`` (made by ``python -m companion.web.icons``; a
test checks it is up to date). A page refers to a drawing in it by name, so an icon costs a page
about a hundred bytes, and the sprite is fetched once and kept (a fingerprinted static file).

``icon(name)`` is a template global: ``{{ icon("skull") }}``. The icon is decoration
(``aria-hidden``): the words beside it say what it means, for screen readers and for anyone who
does not read the picture. Its strokes are styled in ``app.css`` (``.icon``)."""

from __future__ import annotations

import functools
import re
import sys
from pathlib import Path

from flask import current_app, request, url_for
from markupsafe import Markup

from companion.paths import DATA

LUCIDE = "lucide-1.33.0"
SPRITE = "icons.svg"  # in static/
_OPEN = re.compile(r"<svg\b[^>]*>", re.S)
_ID = re.compile(r'<symbol id="([a-z0-9-]+)"')


def build_sprite(static: Path) -> str:
    """The sprite made from the vendored icons: one <symbol> per file, named after it."""
    folder = static / "vendor" / LUCIDE / "icons"
    symbols = []
    for path in sorted(folder.glob("*.svg")):
        inside = _OPEN.sub("", path.read_text(), count=1).replace("</svg>", "")
        drawing = " ".join(inside.split()).replace("> <", "><").replace(" />", "/>")
        symbols.append(f'<symbol id="{path.stem}" viewBox="0 0 24 24">{drawing}</symbol>')
    return ('<svg xmlns="http://www.w3.org/2000/svg">'
            f"<!-- Made by companion/web/icons.py from static/vendor/{LUCIDE}/icons"
            f" (Lucide, ISC license: static/vendor/{LUCIDE}/LICENSE) -->\n"
            + "\n".join(symbols) + "\n</svg>\n")


@functools.lru_cache(maxsize=None)  # the sprite does not change while the server runs
def names(static: str) -> frozenset[str]:
    return frozenset(_ID.findall((Path(static) / SPRITE).read_text()))


def icon(name: str) -> Markup:
    """``<svg class="icon icon-NAME">`` drawing the sprite's NAME, hidden from screen readers.
    Made once per app, URL root and name: a page draws dozens, and each ``url_for`` of the
    fingerprinted sprite cost a tenth of a fragment's time."""
    made = current_app.extensions.setdefault("companion_icons", {})
    key = (request.script_root, name)
    found = made.get(key)
    if found is None:
        if name not in names(current_app.static_folder):
            raise ValueError(f"no icon {name!r} in static/{SPRITE}")
        href = url_for("static", filename=SPRITE)
        found = made[key] = Markup(f'<svg class="icon icon-{name}" aria-hidden="true">'
                                   f'<use href="{href}#{name}"/></svg>')
    return found


if __name__ == "__main__":  # python -m companion.web.icons: write static/icons.svg again
    target = DATA / "static" / SPRITE
    target.write_text(build_sprite(DATA / "static"))
    print(f"wrote {target}", file=sys.stderr)
