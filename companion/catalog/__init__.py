"""The card catalog: ``cards/*.json`` validated against the schema, looked up and searched.

Public API (see docs/ENGINE.md "Cards" for the card dict):

- ``load_catalog(directory=None) -> Catalog`` (the repo's ``cards/`` by default, cached)
- ``Catalog.get(id)``, ``Catalog.cards``, ``Catalog.sets``, ``Catalog.search(q, set, kind, limit, extra)``
- ``validate_card(data, where=...) -> dict``: one card, normalized; raises ``CatalogError``
- ``resolve_card(spec, house_cards=()) -> dict``: catalog id, house id or inline dict -> a copy;
  raises ``companion.engine.errors.BadAction``
- ``CARD_FACTS``: the catalog as the engine's card facts (``engine.cards.CardFacts``)
- ``export_cards(cards) -> str`` / ``import_cards(text) -> list[dict]``: house cards as a file
- ``localized_card(card, lang) -> dict``: a copy with its summary (and Bad Stuff line) in
  ``lang`` when ``cards/translations/<lang>.json`` has them, plus ``lang`` and ``fallback``
- ``load_card_translations(lang, directory=None, catalog=None) -> dict`` (validated; cached for
  the default directory) and ``missing_card_translations(lang) -> list[str]``

Card names stay as printed (they are facts); only our own words are translated. A translation
file maps a catalog card id to ``{"summary": ..., "bad_stuff": ...}``, ``bad_stuff`` exactly
when the English card has a Bad Stuff summary. An unknown id is an error; a missing id is not
(that card falls back to English with ``"fallback": True``).
"""

from __future__ import annotations

import copy
import json
import threading
from pathlib import Path
from typing import Any, Iterable

from pydantic import TypeAdapter, ValidationError

from companion.paths import DATA
from companion.catalog import search as _search
from companion.catalog.printed import PrintedNames, PrintedNamesError, load_printed_names
from companion.engine import card_schema as schema
from companion.engine.cards import InvalidCard
from companion.engine.card_schema import SETS, slugify
from companion.engine.errors import BadAction
from companion.engine.words import N_

__all__ = [
    "CARD_FACTS", "Catalog", "CatalogError", "DEFAULT_DIR", "EXPORT_FORMAT", "export_cards", "import_cards",
    "load_card_translations", "load_catalog", "localized_card", "missing_card_translations",
    "resolve_card", "validate_card",
]

DEFAULT_DIR = DATA / "cards"  # the checkout's cards/, or the installed package's copy
EXPORT_FORMAT = "munchkin-companion-cards"
_ADAPTER = TypeAdapter(schema.Card)
_KIND_WORDS = ", ".join(schema.KINDS)


class CatalogError(ValueError):
    """A card or card file does not fit the schema. ``str()`` names the file, card and field."""

    def __init__(self, message: str, *, where: str = "", card: str | None = None,
                 field: str | None = None):
        super().__init__(message)
        self.message = message
        self.where = where
        self.card = card
        self.field = field


def _card_label(data: Any, index: int | None = None) -> str:
    if isinstance(data, dict):
        for key in ("id", "name"):
            if isinstance(data.get(key), str) and data[key].strip():
                # Shown in an error message: text that is not valid Unicode is shown escaped.
                return data[key].encode("utf-8", "backslashreplace").decode("utf-8")
    return f"#{index + 1}" if index is not None else "?"


def _explain(err: dict) -> str:
    kind = err.get("type", "")
    if kind == "union_tag_not_found":
        return f"missing; one of: {_KIND_WORDS}"
    if kind == "union_tag_invalid":
        tag = (err.get("ctx") or {}).get("tag", err.get("input"))
        return f"{tag!r} is not a kind; one of: {_KIND_WORDS}"
    if kind == "extra_forbidden":
        return "unknown key (a typo?)"
    if kind == "missing":
        return "required"
    if kind == "string_too_short":
        return "must not be empty"
    if kind == "string_pattern_mismatch":
        return "needs letters or digits (a name like 'elf' or 'chess-club')"
    if kind == "literal_error":
        expected = (err.get("ctx") or {}).get("expected", "")
        return f"{err.get('input')!r} is not one of {expected}"
    msg = err.get("msg", "invalid")
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, "):]
    return msg


def _field(err: dict) -> str:
    if err.get("type") in ("union_tag_not_found", "union_tag_invalid"):
        return "kind"
    return schema.error_field(err)


def _validation_error(exc: ValidationError, where: str, label: str) -> CatalogError:
    errors = exc.errors()
    field = _field(errors[0])
    parts = [f"field '{_field(e)}': {_explain(e)}" for e in errors[:3]]
    more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
    message = f"{where}: card '{label}': " + "; ".join(parts) + more
    return CatalogError(message, where=where, card=label, field=field)


def _check(data: Any, *, where: str, label: str, default_set: str | None = None,
           make_id: bool = True) -> dict:
    if not isinstance(data, dict):
        raise CatalogError(f"{where}: card '{label}': a card must be a JSON object",
                           where=where, card=label)
    data = dict(data)
    if "kind" in data:
        data["kind"] = schema.normalize_kind(data["kind"])
    if default_set is not None:
        data.setdefault("set", default_set)
    try:
        model = _ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise _validation_error(exc, where, label) from None
    card = schema.normalize(model, set(data))
    unknown_keys = set(card.get("unknown", ()))
    bad = sorted(k for k in unknown_keys if k in card)
    if bad:
        raise CatalogError(f"{where}: card '{label}': field 'unknown': {bad[0]!r} is both given "
                           "and listed as unknown", where=where, card=label, field="unknown")
    slug = slugify(card["name"])
    if not slug:
        raise CatalogError(f"{where}: card '{label}': field 'name': needs letters or digits",
                           where=where, card=label, field="name")
    if card["set"] == "house" and make_id:
        card["id"] = f"house/{slug}"
    elif "id" in card and not card["id"].startswith(card["set"] + "/"):
        raise CatalogError(f"{where}: card '{label}': field 'id': must start with "
                           f"'{card['set']}/'", where=where, card=label, field="id")
    if "id" in card:
        card = {"id": card.pop("id"), **card}
    return card


def validate_card(data: dict, *, where: str = "inline card") -> dict:
    """Validate one card dict and return it normalized (defaults filled, house id made).

    An inline card of a real set keeps the id it was given, if any (a stored copy of a catalog
    card); house cards always get ``house/<slug of name>``. A card without ``set`` is a house
    card. Strings in fixed vocabularies are matched loosely ("Elf" -> "elf", "1 Hand" -> "1-hand",
    "Monster Enhancer" -> "enhancer").
    """
    label = _card_label(data)
    return _check(data, where=where, label=label, default_set="house")


class Catalog:
    """Validated cards of every set file, with id lookup and fuzzy search."""

    def __init__(self, cards: list[dict], sets: list[str], names: dict[str, str] | None = None,
                 printed: PrintedNames | None = None):
        self._cards = cards
        self._by_id = {c["id"]: c for c in cards}
        self._sets = sets
        self.set_names = dict(names or {})
        self.printed = printed if printed is not None else PrintedNames()
        # An English name -> the catalog ids printed with it, in set order ("Wizard": classic's
        # first, then Tails'): what a stored event's card name is looked up by.
        self._ids_by_name: dict[str, list[str]] = {}
        for c in cards:
            self._ids_by_name.setdefault(c["name"], []).append(c["id"])
        self._entries = [_search.make_entry(c, self._order(c, i), self.printed.every_name(c["id"]))
                         for i, c in enumerate(cards)]

    def ids_named(self, english_name: str) -> list[str]:
        """The catalog ids whose printed English name is ``english_name`` (set order)."""
        return list(self._ids_by_name.get(english_name, ()))

    def printed_name(self, card_id: str, lang: str) -> str | None:
        """The name printed on the card in ``lang``'s edition; None where no source gives it."""
        return self.printed.name(card_id, lang)

    def _order(self, card: dict, index: int) -> tuple:
        s = card.get("set", "house")
        return (SETS.index(s) if s in SETS else len(SETS), index)

    @property
    def cards(self) -> list[dict]:
        """Every catalog card (copies), in set order then file order."""
        return copy.deepcopy(self._cards)

    @property
    def sets(self) -> list[str]:
        return list(self._sets)

    def __len__(self) -> int:
        return len(self._cards)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._by_id

    def get(self, card_id: str) -> dict | None:
        card = self._by_id.get(card_id)
        return copy.deepcopy(card) if card is not None else None

    def house_entries(self, extra: Iterable[dict]) -> tuple:
        """A game's house cards (already validated) as search entries, after the catalog's."""
        base = len(self._cards)
        return tuple(_search.make_entry(c, (len(SETS) + 1, base + i))
                     for i, c in enumerate(extra or ()) if isinstance(c, dict))

    def search(self, q: str | None = None, set: str | None = None, kind: str | None = None,
               limit: int = 50, extra: Iterable[dict] = (), extra_entries: tuple | None = None) -> list[dict]:
        """Cards best match first; without ``q`` every card passing the filters, stable order.

        ``extra`` (a game's house cards, already validated) is searched along with the catalog;
        ``extra_entries``: the same already made into entries (``house_entries``, kept per
        version of a game by its caller).
        """
        if kind:
            kind = schema.normalize_kind(kind)
        if set:
            set = slugify(set)
        entries = self._entries
        if extra_entries is None:
            extra_entries = self.house_entries(extra)
        if extra_entries:
            entries = entries + list(extra_entries)
        found = _search.search(entries, q, set=set, kind=kind, limit=limit)
        return [copy.deepcopy(e.card) for e in found]


def _load_file(path: Path, where: str) -> tuple[schema.SetFile, list[dict]]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise CatalogError(f"{where}: not valid JSON (line {exc.lineno}, column {exc.colno}): "
                           f"{exc.msg}", where=where) from None
    try:
        head = schema.SetFile.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = schema.error_field(err)
        raise CatalogError(f"{where}: field '{field}': {_explain(err)}", where=where,
                           field=field) from None
    cards = []
    for i, data in enumerate(head.cards):
        label = _card_label(data, i)
        card = _check(data, where=where, label=label, default_set=head.set, make_id=False)
        if card["set"] != head.set:
            raise CatalogError(f"{where}: card '{label}': field 'set': {card['set']!r} in the "
                               f"file of set {head.set!r}", where=where, card=label, field="set")
        if not (card.get("summary") or "").strip():
            raise CatalogError(f"{where}: card '{label}': field 'summary': every catalog card "
                               "says in our words what it does", where=where, card=label, field="summary")
        if "id" not in card:
            card = {"id": f"{head.set}/{slugify(card['name'])}", **card}
        cards.append(card)
    return head, cards


def _load(directory: Path) -> Catalog:
    if not directory.is_dir():
        raise CatalogError(f"{directory}: no such card directory", where=str(directory))
    files = sorted(directory.glob("*.json"))
    loaded = []
    for path in files:
        where = f"{directory.name}/{path.name}"
        head, cards = _load_file(path, where)
        loaded.append((head, cards, where))
    loaded.sort(key=lambda t: (SETS.index(t[0].set), t[2]))
    all_cards: list[dict] = []
    seen: dict[str, str] = {}
    sets: list[str] = []
    names: dict[str, str] = {}
    for head, cards, where in loaded:
        if head.set not in sets:
            sets.append(head.set)
        names[head.set] = head.name
        for card in cards:
            if card["id"] in seen:
                raise CatalogError(f"{where}: card '{card['id']}': field 'id': already used in "
                                   f"{seen[card['id']]}", where=where, card=card["id"],
                                   field="id")
            seen[card["id"]] = where
            all_cards.append(card)
    try:
        printed = load_printed_names(directory, seen)
    except PrintedNamesError as exc:
        raise CatalogError(str(exc), where="translations/names") from None
    return Catalog(all_cards, sets, names, printed)


_CACHE: dict[str, Catalog] = {}
_LOCK = threading.Lock()


def load_catalog(directory: str | Path | None = None) -> Catalog:
    """Load and validate every ``*.json`` set file; the default directory is loaded once."""
    if directory is None:
        with _LOCK:
            if "default" not in _CACHE:
                _CACHE["default"] = _load(DEFAULT_DIR)
            return _CACHE["default"]
    return _load(Path(directory))


SOURCE_LANG = "en"
_TRANSLATIONS: dict[str, dict[str, dict]] = {}
_TR_KEYS = frozenset({"summary", "bad_stuff"})


def _normalize_lang(lang) -> str:
    code = str(lang or "").strip().replace("-", "_").split("_")[0].lower()
    return code if code.isascii() and code.isalpha() and 2 <= len(code) <= 3 else SOURCE_LANG


def _bad_stuff_text(card: dict) -> str:
    return ((card.get("bad_stuff") or {}).get("summary") or "").strip()


def load_card_translations(lang: str, directory: str | Path | None = None,
                           catalog: Catalog | None = None) -> dict[str, dict]:
    """``<cards>/translations/<lang>.json`` validated against the catalog; {} without a file.

    Raises ``CatalogError`` for an id the catalog lacks, an unknown key, an empty text, or a
    ``bad_stuff`` given for a card with no Bad Stuff summary (or missing for one that has it).
    The default directory's files are read once per language.
    """
    lang = _normalize_lang(lang)
    default = directory is None
    if default and lang in _TRANSLATIONS:
        return _TRANSLATIONS[lang]
    base = Path(directory) if directory is not None else DEFAULT_DIR / "translations"
    path = base / f"{lang}.json"
    where = f"translations/{path.name}"
    data: dict = {}
    if lang != SOURCE_LANG and path.is_file():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise CatalogError(f"{where}: not valid JSON (line {exc.lineno}, column {exc.colno}): "
                               f"{exc.msg}", where=where) from None
        if not isinstance(data, dict):
            raise CatalogError(f"{where}: expected an object mapping card ids to texts",
                               where=where)
        catalog = catalog if catalog is not None else load_catalog()
        for card_id, entry in data.items():
            card = catalog.get(card_id)
            if card is None:
                raise CatalogError(f"{where}: card '{card_id}': no catalog card has this id",
                                   where=where, card=card_id, field="id")
            if not isinstance(entry, dict):
                raise CatalogError(f"{where}: card '{card_id}': expected an object",
                                   where=where, card=card_id)
            extra = sorted(set(entry) - _TR_KEYS)
            if extra:
                raise CatalogError(f"{where}: card '{card_id}': field '{extra[0]}': unknown key "
                                   "(a typo?)", where=where, card=card_id, field=extra[0])
            for key in ("summary",) + (("bad_stuff",) if _bad_stuff_text(card) else ()):
                value = entry.get(key)
                if not isinstance(value, str) or not value.strip():
                    raise CatalogError(f"{where}: card '{card_id}': field '{key}': must be a "
                                       "non-empty text", where=where, card=card_id, field=key)
            if "bad_stuff" in entry and not _bad_stuff_text(card):
                raise CatalogError(f"{where}: card '{card_id}': field 'bad_stuff': the card has "
                                   "no Bad Stuff summary", where=where, card=card_id,
                                   field="bad_stuff")
    if default:
        with _LOCK:
            _TRANSLATIONS.setdefault(lang, data)
    return data


def missing_card_translations(lang: str) -> list[str]:
    """Catalog card ids (in catalog order) with no summary in ``lang`` yet."""
    lang = _normalize_lang(lang)
    if lang == SOURCE_LANG:
        return []
    have = load_card_translations(lang)
    return [c["id"] for c in load_catalog().cards if c["id"] not in have]


def localized_card(card: dict, lang) -> dict:
    """A copy of ``card`` with its summary (and Bad Stuff summary) in ``lang`` if translated.

    Adds ``"lang"``: the language of the texts returned, and ``"fallback"``: True when ``lang``
    was asked for but the catalog card is only in English. A house card (or any card not in the
    catalog) is in the table's own words: ``"lang": None`` and ``"fallback": False``.
    Adds ``"printed_name"``: the name printed on the card in ``lang``'s edition (None where no
    source gives it: ``name``, the English one, stands), and ``"printed_names"``: every
    language's printed name known (``cards/translations/names``).
    """
    out = copy.deepcopy(card)
    want = _normalize_lang(lang)
    card_id = card.get("id")
    if not isinstance(card_id, str) or card.get("set") == "house" \
            or card_id not in load_catalog():
        out["lang"], out["fallback"] = None, False
        out["printed_name"], out["printed_names"] = None, {}
        return out
    printed = load_catalog().printed
    out["printed_name"] = card.get("name") if want == SOURCE_LANG else printed.name(card_id, want)
    out["printed_names"] = {code: name for code in printed.languages()
                            if (name := printed.name(card_id, code))}
    entry = load_card_translations(want).get(card_id) if want != SOURCE_LANG else None
    if entry is None:
        out["lang"], out["fallback"] = SOURCE_LANG, want != SOURCE_LANG
        return out
    out["summary"] = entry["summary"]
    if "bad_stuff" in entry and isinstance(out.get("bad_stuff"), dict):
        out["bad_stuff"]["summary"] = entry["bad_stuff"]
    out["lang"], out["fallback"] = want, False
    return out


def resolve_card(spec: Any, *, house_cards: Iterable[dict] = ()) -> dict:
    """A catalog id, a house card id or an inline card dict -> a normalized card (a copy)."""
    if isinstance(spec, str):
        card_id = spec.strip()
        for card in house_cards or ():
            if isinstance(card, dict) and card.get("id") == card_id:
                return copy.deepcopy(card)
        card = load_catalog().get(card_id)
        if card is None:
            if card_id.startswith("house/"):
                raise BadAction(N_("This table has no house card '%(card)s'."), card=card_id)
            raise BadAction(N_("There is no card '%(card)s' in the catalog. Search for it by "
                                 "name, or add it as a house card."), card=card_id)
        return card
    if isinstance(spec, dict):
        try:
            return validate_card(spec, where="inline card")
        except CatalogError as exc:
            raise BadAction(N_("That card is not valid: %(problem)s"), problem=str(exc)) from None
    raise BadAction(N_("A card is a catalog id (like 'classic/drooling-slime') or a card's facts."))


class _CatalogCardFacts:
    """The catalog as the engine's card facts (``companion.engine.cards.CardFacts``)."""

    def resolve(self, spec: Any, house_cards: Iterable[dict]) -> dict:
        return resolve_card(spec, house_cards=house_cards)

    def validate(self, data: dict) -> dict:
        try:
            return validate_card(data, where="house card")
        except CatalogError as exc:
            raise InvalidCard(exc.card, exc.field) from None


CARD_FACTS = _CatalogCardFacts()


def export_cards(cards: Iterable[dict]) -> str:
    """House cards as a JSON data file another table can import."""
    out = [validate_card(c, where="exported card") for c in cards]
    return json.dumps({"format": EXPORT_FORMAT, "version": 1, "cards": out},
                      indent=2, ensure_ascii=False) + "\n"


def import_cards(text: str | bytes) -> list[dict]:
    """Cards from an exported file (also accepts a bare list or a set file's ``cards``)."""
    where = "imported file"
    try:
        raw = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CatalogError(f"{where}: not valid JSON: {exc}", where=where) from None
    if isinstance(raw, dict):
        fmt = raw.get("format")
        if fmt is not None and fmt != EXPORT_FORMAT:
            raise CatalogError(f"{where}: field 'format': {fmt!r} is not {EXPORT_FORMAT!r}",
                               where=where, field="format")
        cards = raw.get("cards")
    else:
        cards = raw
    if not isinstance(cards, list):
        raise CatalogError(f"{where}: field 'cards': expected a list of cards", where=where,
                           field="cards")
    out = []
    seen = set()
    for i, data in enumerate(cards):
        card = _check(data, where=where, label=_card_label(data, i), default_set="house")
        key = card.get("id") or (card["set"], card["name"])
        if key in seen:
            raise CatalogError(f"{where}: card '{_card_label(data, i)}': field 'name': appears "
                               "twice", where=where, card=_card_label(data, i), field="name")
        seen.add(key)
        out.append(card)
    return out
