"""Adds the msgids of a fresh template (``pybabel extract … -o /tmp/messages.pot``) that a
catalog lacks, untranslated, without touching anything else (``pybabel update`` would also
mark near matches fuzzy and guess context entries): ``python scripts/merge_new_msgids.py
/tmp/messages.pot``. See README, "Languages"."""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

CATALOGS = Path(__file__).resolve().parent.parent / "companion" / "translations"


def merge(pot_path: str) -> None:
    with open(pot_path, "rb") as f:
        template = read_po(f)
    for po_path in sorted(CATALOGS.glob("*/LC_MESSAGES/messages.po")):
        lang = po_path.parts[-3]
        with po_path.open("rb") as f:
            catalog = read_po(f, locale=lang)
        added = 0
        for message in template:
            if not message.id or message.context or catalog.get(message.id) is not None:
                continue
            catalog.add(message.id, "" if not message.pluralizable else ("",) * catalog.num_plurals,
                        locations=message.locations, flags=message.flags - {"fuzzy"})
            added += 1
        with po_path.open("wb") as f:
            write_po(f, catalog, width=76)
        print(f"{lang}: {added} added")


if __name__ == "__main__":
    merge(sys.argv[1])
