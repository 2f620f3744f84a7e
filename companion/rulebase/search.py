"""The arbiter's search: a player's question in, the rulings that answer it out, best first.

Players type the way they talk ("can i sell stuff to hit level 10", "helpr gets lvl?",
"2 big items as dwarf"), so the question goes through the same pipeline as every ruling:

1. normalize: lower case, drop apostrophes and punctuation, "1,000" -> "1000";
2. numbers become words ("2" -> "two", "10th" -> "ten");
3. multi-word phrases become one token ("run away" -> flee, "go up a level" -> gual);
4. slang and synonyms map to one canonical token ("stuff", "gear" -> item; "ding" -> level;
   "died" -> dead; "hat" -> headgear), with a light suffix stemmer for the rest;
5. stop words go.

Each ruling is indexed by field (question and keywords weigh most, then id and topic, the
answer, the reasoning, the differs note). A query token the index has never seen is matched
fuzzily (rapidfuzz) against the index vocabulary, so "helpr", "chairty" or "escpae" still
land. Scores are BM25-like per token, plus a bonus for query word pairs that appear side by
side in a ruling's question or keywords. With an edition, rulings stated in its rulebook get a
boost, rulings the publisher's later rulings give for it come next (as high as its own when the
table follows them), and the others a penalty that puts them below the table's own rulings
(they still show: a table may want to know what another edition says). A ruling's official
answer is indexed too. A query takes well under a millisecond on ~150 rulings.

The reader's language has an index of its own, built the same way from its translations
(``translations/<lang>.json``: question, answer, reasoning, keywords, differs and official answer,
weighted like the English fields; a ruling not translated yet is indexed by its English words).
Its words are folded (no accents, as typed on a phone) and stemmed by Snowball
(``snowballstemmer``: Russian, German, French, Spanish, Italian, Portuguese, Polish); Ukrainian,
which Snowball lacks, by a light ending stripper of our own (``_uk_stem`` says why). Russian keeps
its set phrases and word families (slang) before the stemmer.

A reader's question is searched in both their language's index and the English one
(``score_reader``): each word goes to the index that knows it (``split_words``: a German player's
"curse" or "Wishing Ring" to the English one, "Fluch" to the German one), and a ruling's two
scores add up. A question mostly in Cyrillic is read as Russian (as Ukrainian for a Ukrainian
reader); with no reader's language given, it is searched in Russian alone and any other question
in English alone, as before. Indexes are built on their language's first question and kept.
"""

from __future__ import annotations

import copy
import math
import re
import threading
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

import snowballstemmer
from rapidfuzz import fuzz, process

from .records import BOOKS, _rulings, _translations, normalize_lang, official_for

# ------------------------------------------------------------------ text normalization

_NUMBERS = {
    "0": "zero", "1": "one", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
    "7": "seven", "8": "eight", "9": "nine", "10": "ten", "1st": "one", "2nd": "two",
    "3rd": "three", "4th": "four", "5th": "five", "6th": "six", "9th": "nine", "10th": "ten",
    "first": "one", "second": "two", "third": "three", "tenth": "ten", "ninth": "nine",
    "double": "two", "twice": "two", "both": "two", "pair": "two", "once": "one", "single": "one",
    "1k": "1000", "2k": "2000", "thousand": "1000", "lvl10": "ten", "level10": "ten",
}

# multi-word phrases -> replacement tokens (matched on the raw tokens, longest first)
_PHRASES: dict[tuple[str, ...], tuple[str, ...]] = {
    ("go", "up", "a", "level"): ("gual",),
    ("go", "up", "level"): ("gual",),
    ("goes", "up", "a", "level"): ("gual",),
    ("level", "up", "card"): ("gual",),
    ("run", "away"): ("flee",),
    ("ran", "away"): ("flee",),
    ("running", "away"): ("flee",),
    ("runs", "away"): ("flee",),
    ("get", "away"): ("flee",),
    ("got", "away"): ("flee",),
    ("level", "up"): ("level",),
    ("levels", "up"): ("level",),
    ("levelled", "up"): ("level",),
    ("leveled", "up"): ("level",),
    ("go", "up"): ("level",),
    ("half", "breed"): ("halfbreed",),
    ("super", "munchkin"): ("supermunchkin",),
    ("no", "value"): ("novalue",),
    ("bad", "stuff"): ("badstuff",),
    ("one", "shot"): ("oneshot",),
    ("1", "shot"): ("oneshot",),
    ("one", "shots"): ("oneshot",),
    ("usable", "once"): ("oneshot",),
    ("hand", "limit"): ("handlimit",),
    ("max", "cards"): ("handlimit",),
    ("big", "stuff"): ("big", "item"),
    ("throw", "away"): ("discard",),
    ("get", "rid"): ("discard",),
    ("give", "away"): ("give",),
    ("kick", "open"): ("kick",),
    ("kick", "down"): ("kick",),
    ("kicked", "open"): ("kick",),
    ("open", "the", "door"): ("kick", "door"),
    ("open", "a", "door"): ("kick", "door"),
    ("face", "up"): ("faceup",),
    ("face", "down"): ("facedown",),
    ("face", "upward"): ("faceup",),
    ("next", "combat"): ("next", "fight"),
    ("wandering", "monster"): ("wandering",),
    ("look", "for", "trouble"): ("trouble",),
    ("looking", "for", "trouble"): ("trouble",),
    ("listen", "at", "the", "door"): ("listen", "door"),
    ("shared", "victory"): ("shared", "win"),
    ("same", "time"): ("together",),
    ("at", "once"): ("together",),
    ("new", "character"): ("respawn",),
    ("come", "back"): ("respawn",),
    ("comes", "back"): ("respawn",),
    # not having something: a curse or card with nothing to act on
    ("dont", "have"): ("missing",),
    ("do", "not", "have"): ("missing",),
    ("doesnt", "have"): ("missing",),
    ("didnt", "have"): ("missing",),
    ("havent", "got"): ("missing",),
    ("have", "no"): ("missing",),
    ("has", "no"): ("missing",),
    ("back", "out"): ("leave",),
    ("backing", "out"): ("leave",),
    ("bow", "out"): ("leave",),
    ("drop", "out"): ("leave",),
    ("chess", "club"): ("chess",),
    ("sports", "club"): ("sports",),
    ("potions", "club"): ("potions",),
    ("forbidden", "magic"): ("forbidden",),
}
_MAX_PHRASE = max(len(p) for p in _PHRASES)

# slang, synonyms and inflections -> canonical token (applied to questions and rulings alike)
_SYNONYMS: dict[str, str] = {}


def _syn(canonical: str, *words: str) -> None:
    for w in words:
        _SYNONYMS[w] = canonical


_syn("item", "item", "items", "stuff", "gear", "equipment", "thing", "things")
_syn("level", "level", "levels", "lvl", "lvls", "lv", "ding", "dinged", "dings", "dinging",
     "levelup", "levelled", "leveled", "leveling", "levelling")
_syn("gual", "gual", "guals", "gualcard")
_syn("dead", "dead", "die", "dies", "died", "dying", "death", "deaths", "corpse", "corpses",
     "respawned", "kia")
_syn("respawn", "respawn", "respawning", "revive", "revived", "resurrect", "reborn")
_syn("kill", "kill", "kills", "killed", "killing", "slay", "slain", "slays", "slew", "murder")
_syn("flee", "flee", "flees", "fled", "fleeing", "run", "runs", "ran", "running", "runaway",
     "runaways", "escape", "escapes", "escaped", "escaping", "retreat", "leg")
_syn("bribe", "bribe", "bribes", "bribed", "bribing", "pay", "pays", "paid", "paying",
     "payment", "payoff", "reward", "rewards", "deal", "deals")
_syn("headgear", "hat", "hats", "helmet", "helmets", "helm", "helms", "headgear", "head",
     "cap", "crown")
_syn("footgear", "boots", "boot", "shoes", "shoe", "footgear", "feet", "foot", "sandals")
_syn("armor", "armor", "armour", "armors", "armours", "chainmail")
_syn("help", "help", "helps", "helped", "helping", "helper", "helpers", "assist", "assists",
     "assisted", "assistant", "backup", "teamup", "team")
_syn("curse", "curse", "curses", "cursed", "cursing", "hex", "hexed")
_syn("monster", "monster", "monsters", "mob", "mobs", "enemy", "enemies", "creature",
     "creatures", "beast", "beasts")
_syn("win", "win", "wins", "won", "winning", "winner", "winners", "victory", "victories",
     "victor")
_syn("sell", "sell", "sells", "sold", "selling", "sale", "cash", "cashing", "buy", "buying",
     "bought")
_syn("gold", "gold", "gp", "money", "coins", "value", "worth", "price", "cost", "costs")
_syn("trade", "trade", "trades", "traded", "trading", "exchange", "exchanged", "barter")
_syn("class", "class", "classes", "club", "clubs", "job", "profession")
_syn("race", "race", "races", "species")
_syn("fight", "fight", "fights", "fighting", "fought", "combat", "combats", "battle",
     "battles", "battling", "brawl", "fighter")
_syn("tie", "tie", "ties", "tied", "tying", "equal", "draw", "stalemate")
_syn("discard", "discard", "discards", "discarded", "discarding", "ditch", "ditched", "toss",
     "tossed", "trash", "dump", "drop", "dropped", "bin", "scrap")
_syn("ally", "ally", "allies", "sidekick", "sidekicks", "companion", "companions", "follower",
     "hireling")
_syn("big", "big", "large", "huge", "heavy")
_syn("give", "give", "gives", "gave", "given", "giving", "gift", "gifts", "donate",
     "donated")
_syn("charity", "charity", "charities", "excess", "extra", "extras", "leftover", "leftovers")
_syn("card", "card", "cards")
_syn("treasure", "treasure", "treasures", "loot", "looted", "looting", "loots", "booty")
_syn("enhancer", "enhancer", "enhancers", "enhance", "enhanced", "buff", "buffed", "buffs")
_syn("oneshot", "oneshot", "oneshots", "potion", "potions", "consumable", "consumables")
_syn("equip", "equip", "equips", "equipped", "equipping", "wear", "wears", "wearing", "wore",
     "worn", "wield", "wielding", "wielded", "unequip", "unequipped", "use", "using", "slot",
     "slots")
_syn("halfbreed", "halfbreed", "halfbreeds", "mixed")
_syn("supermunchkin", "supermunchkin")
_syn("novalue", "novalue", "worthless", "valueless")
_syn("steal", "steal", "steals", "stole", "stolen", "stealing", "rob", "robbed", "pickpocket",
     "backstab")
_syn("elf", "elf", "elves", "elven", "elfs")
_syn("dwarf", "dwarf", "dwarves", "dwarfs", "dwarven")
_syn("halfling", "halfling", "halflings", "hobbit")
_syn("body", "body", "bodies")
_syn("limit", "limit", "limits", "max", "maximum", "most", "cap", "capped")
_syn("hand", "hand", "hands")
_syn("item", "weapon", "weapons", "sword", "swords", "axe", "mace", "staff")
_syn("turn", "turn", "turns")
_syn("player", "player", "players", "people", "ppl", "buddy", "buddies", "pal", "person", "someone", "somebody", "others",
     "other", "anyone", "anybody", "friend", "friends", "opponent", "opponents")
_syn("together", "together", "simultaneously", "jointly", "joint", "shared", "share", "sharing",
     "split", "splitting", "divide", "divided", "distribute")
_syn("roll", "roll", "rolls", "rolled", "rolling", "dice", "d6")
_syn("forced", "forced", "force", "forces", "compel", "compelled", "made", "make", "must")
_syn("leave", "leave", "leaves", "left", "quit", "quits", "withdraw", "backout")
_syn("plural", "plural", "plurals", "group")
_syn("rule", "rule", "rules", "rulebook", "rulebooks")
_syn("mate", "mate", "mates", "clone", "copy", "copies", "duplicate")
_syn("one", "one", "only", "lone")
_syn("warrior", "warrior", "warriors")
_syn("wizard", "wizard", "wizards", "wiz")
_syn("oligarch", "oligarch", "oligarchs")
_syn("undead", "undead", "zombie", "zombies")
_syn("wolf", "wolf", "wolves")
_syn("babushka", "babushka", "babushkas", "granny", "grannies")
_syn("dragon", "dragon", "dragons")
_syn("missing", "missing", "lack", "lacking", "lacks", "without", "none")
_syn("during", "during", "mid", "middle", "midst", "while", "meanwhile", "midway", "amid")
_syn("choose", "choose", "chooses", "chose", "chosen", "choosing", "choice", "pick", "picks",
     "picked", "picking", "decide", "decides", "decided", "select", "selects", "which")
_syn("self", "self", "myself", "yourself", "himself", "herself", "themselves", "ourselves",
     "own")
_syn("thief", "thief", "thieves", "rogue")
_syn("cleric", "cleric", "clerics", "priest", "healer")
_syn("charm", "charm", "charms", "charmed", "charming")
_syn("berserk", "berserk", "berserking", "berserks", "rage")
# "bail" is backing out of a deal as often as running from a monster: both, at a lower weight
_syn("bail", "bail", "bails", "bailed", "bailing")
_syn("drawback", "drawback", "drawbacks", "downside", "downsides", "disadvantage",
     "disadvantages", "weakness", "weaknesses", "minus", "minuses")
_syn("advantage", "advantage", "advantages", "upside", "upsides", "perk", "perks")

# every edition's class (club) and race names, as canonical tokens
_CLASS_NAMES = ("warrior", "wizard", "thief", "cleric", "professor", "royalty", "soldier",
                "cossack", "oligarch", "athlete", "hacker", "chess", "sports", "potions",
                "forbidden")
_RACE_NAMES = ("elf", "dwarf", "halfling", "human", "dog", "fox", "mouse", "pony")

# query-only expansions: a token also counts, at a lower weight, as these tokens
_EXPAND: dict[str, tuple[tuple[str, float], ...]] = {
    "treasure": (("item", 0.5),),
    "item": (("treasure", 0.3),),
    "swap": (("trade", 0.6), ("equip", 0.6)),
    "switch": (("equip", 0.6), ("trade", 0.3)),
    "headgear": (("equip", 0.4),),
    "footgear": (("equip", 0.4),),
    "armor": (("equip", 0.4),),
    "gold": (("sell", 0.6),),
    "kill": (("dead", 0.3),),
    "dead": (("kill", 0.2),),
    "respawn": (("dead", 0.6),),
    "body": (("dead", 0.5), ("treasure", 0.3)),
    "bribe": (("give", 0.4), ("help", 0.3)),
    "give": (("bribe", 0.3),),
    "charity": (("give", 0.3),),
    "gual": (("level", 0.4),),
    "halfbreed": (("race", 0.3),),
    "supermunchkin": (("class", 0.3),),
    "oneshot": (("item", 0.2),),
    "wandering": (("monster", 0.3),),
    "mate": (("monster", 0.3),),
    "limit": (("many", 0.5),),
    "bail": (("leave", 0.9), ("flee", 0.8)),
    "many": (("limit", 0.5),),
    # a class or race named by name is a question about classes or races too
    **{name: (("class", 0.5),) for name in _CLASS_NAMES},
    **{name: (("race", 0.5),) for name in _RACE_NAMES},
}

_STOP = frozenset("""
a an the i me my mine you your yours u ur can cant could couldnt do does did doesnt
dont didnt is isnt are arent am be been being it its im ive id ill to of in on at for with and
or if so what whats how when who whose this that these those there theres here get gets
got getting have has had hasnt havent still just any some will wont would wouldnt should
shouldnt we us our they them their theyre he she him her his hers as by from up out about
into than then too very way like really ok okay hey pls please plz yes no not nope yeah yep
also even ever s t d ll ve re m allowed allow possible legal legit happen happens happened
wait um uh guys guy whole hit reach reaching reached get work works working mean means
""".split())

_TOKEN_RE = re.compile(r"[a-z0-9]+")


def _stem(word: str) -> str:
    """A very small suffix stemmer for words the synonym table does not know."""
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith("ed"):
        word = word[:-2]
    elif len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    return word


@lru_cache(maxsize=8192)
def _canon(word: str) -> str:
    if word in _SYNONYMS:
        return _SYNONYMS[word]
    stem = _stem(word)
    return _SYNONYMS.get(stem, stem)


def _raw_tokens(text: str) -> list[str]:
    text = text.lower().replace("\u2019", "'").replace("'", "")
    text = re.sub(r"(?<=\d),(?=\d{3})", "", text)  # 1,000 -> 1000
    return [_NUMBERS.get(t, t) for t in _TOKEN_RE.findall(text)]


def tokens(text: str) -> list[str]:
    """Canonical tokens of ``text``: phrases joined, synonyms mapped, stop words dropped."""
    raw = _raw_tokens(text)
    out: list[str] = []
    i = 0
    while i < len(raw):
        for n in range(min(_MAX_PHRASE, len(raw) - i), 1, -1):
            rep = _PHRASES.get(tuple(raw[i:i + n]))
            if rep is not None:
                out.extend(rep)
                i += n
                break
        else:
            w = raw[i]
            i += 1
            if w in _STOP:
                continue
            out.append(_canon(w))
    return out


# ------------------------------------------------------------------ the reader's languages

#: the languages searched in an index of their own, built from ``translations/<lang>.json``
LANGS = ("ru", "uk", "de", "fr", "es", "it", "pt", "pl")
#: the Snowball algorithm (``snowballstemmer``, the Snowball project's own Python build) that
#: stems each of them; Ukrainian has no Snowball stemmer (see ``_uk_stem``)
SNOWBALL = {"ru": "russian", "de": "german", "fr": "french", "es": "spanish", "it": "italian",
            "pt": "portuguese", "pl": "polish"}
_CYRILLIC_LANGS = frozenset({"ru", "uk"})

_CYRILLIC_RE = re.compile(r"[а-яёіїєґ]")
_LATIN_RE = re.compile(r"[a-z]")
_RU_TOKEN_RE = re.compile(r"[a-zа-я0-9]+")
_UK_TOKEN_RE = re.compile(r"[a-zа-яіїєґ0-9]+")
_LATIN_TOKEN_RE = re.compile(r"[a-z0-9]+")
_APOSTROPHES = "'\u2019\u02bc`\u00b4"


def query_lang(q: str) -> str:
    """"ru" when ``q`` has more Cyrillic than Latin letters, else "en"."""
    low = q.lower()
    return "ru" if len(_CYRILLIC_RE.findall(low)) > len(_LATIN_RE.findall(low)) else "en"


def _latin_fold_table() -> dict[int, str]:
    # a Latin letter with accents -> its bare letter (é -> e, ä -> a, ç -> c, ñ -> n, ą -> a);
    # the letters that do not decompose by hand. Cyrillic is left alone: й, ї and ё are letters
    # of their own on a Russian or Ukrainian keyboard (ё is folded where Russian is read).
    table = {ord("ß"): "ss", ord("ł"): "l", ord("œ"): "oe", ord("æ"): "ae", ord("ø"): "o",
             ord("đ"): "d", ord("ı"): "i", ord("ŀ"): "l"}
    for cp in list(range(0xC0, 0x250)) + list(range(0x1E00, 0x1F00)):
        base = unicodedata.normalize("NFD", chr(cp))
        if cp not in table and len(base) > 1 and "a" <= base[0].lower() <= "z" \
                and all(unicodedata.combining(c) for c in base[1:]):
            table[cp] = base[0].lower()
    return table


_LATIN_FOLD = _latin_fold_table()


def fold(text: str) -> str:
    """Lower case, the accents of Latin letters dropped: the way a question is typed on a phone
    without them ("Gegenstände" and "gegenstande", "maudit", "przedmiotów" and "przedmiotow")."""
    return unicodedata.normalize("NFC", text).lower().translate(_LATIN_FOLD)


_STEMMERS: dict[str, object] = {}
_STEM_LOCK = threading.Lock()


@lru_cache(maxsize=65536)
def _snowball(lang: str, word: str) -> str:
    # a Snowball stemmer object keeps state between calls: one per language, used under a lock
    # (each word is stemmed once, then remembered)
    with _STEM_LOCK:
        st = _STEMMERS.get(lang)
        if st is None:
            st = _STEMMERS[lang] = snowballstemmer.stemmer(SNOWBALL[lang])
        return st.stemWord(word)


# ------------------------------------------------------------------ Russian

# set phrases -> one token (matched on the lower-cased text, with е for ё)
_RU_PHRASES: tuple[tuple[re.Pattern, str], ...] = tuple((re.compile(p), r) for p, r in (
    (r"получи[\s-]+уровень", " получиуровень "),
    (r"без\s+цен[аыу]?\b", " безцены "),
    (r"бродяч\w*\s+твар\w*", " бродячаятварь "),
    (r"супер[\s-]*манчкин\w*", " суперманчкин "),
    (r"полу[\s-]*кровк\w*", " полукровка "),
    (r"(\d+)\s*-?\s*(?:го|й|ый|ого|ом)\b", r" \1 "),  # "10-й уровень" -> 10
))

_RU_NUMBERS: dict[str, str] = {
    word: digit for digit, words in {
        "0": "ноль нуль нулевой нулевого нулевом",
        "1": "один одна одно одного одну одной первый первого первом первым единица",
        "2": "два две двух двум двумя второй второго вторую двое оба обе обоих пара пару",
        "3": "три трех трем третий третьего третья трое",
        "4": "четыре четырех четвертый",
        "5": "пять пяти пятый пятерка",
        "6": "шесть шести шестой шестерка",
        "10": "десять десяти десятый десятого десятом десятку",
    }.items() for word in words.split()}

# short forms the ending stripper cannot reach
_RU_WORDS = {w: "бой" for w in "бой боя бою боем бои боев боях боям".split()}

_RU_STOP = frozenset("""
и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только ее
мне было вот от меня еще нет о из ему теперь когда даже ну ли если уже или ни быть был него
до вас нибудь опять уж вам ведь там потом себя ей может они тут где есть надо ней для мы тебя
их чем была сам чтоб чего тоже себе будет ж тогда кто этот того потому этого какой какая
какие какую совсем ним здесь этом почти мой тем чтобы нее сейчас были куда зачем всех никогда
можно при наконец хоть эти нас про всего них разве эту моя впрочем хорошо свою этой иногда
лучше чуть том нельзя такой им всегда конечно всю ваш ваша ваши вашу мои мою моего свой своя
свои своего своей это вообще типа короче плиз пожалуйста разрешено разрешается бывает могу
можем могут мочь нужно ага го ый ой ом
""".split())

# word families -> one token (the longest matching prefix wins); slang included
_RU_FAMILIES: dict[str, str] = {}


def _fam(canonical: str, *prefixes: str) -> None:
    for pre in prefixes:
        _RU_FAMILIES[pre] = canonical


_fam("смывка", "смыв", "смыт", "смыл", "смоет", "смою", "смое", "убеж", "убег", "сбеж", "сбег",
     "бегств", "удрат", "удра", "свалит")
_fam("уровень", "уров", "лвл", "левел")
_fam("шмотка", "шмот", "барахл", "снаряж", "вещ", "предмет", "экипир")
_fam("помощь", "помо", "помог", "помощ", "подмог", "помоч")
_fam("проклятие", "прокл", "порч")
_fam("сокровище", "сокров", "добыч", "лут")
_fam("дракон", "дракон")
_fam("бой", "драт", "драк", "дерет", "дерус", "дерут", "дерем", "сраж", "битв", "схватк",
     "бьет", "бьют", "бить")
_fam("смерть", "смерт", "умер", "умир", "умр", "погиб", "гибн", "мертв", "мерт", "труп", "сдох",
     "помер")
_fam("убить", "убит", "убил", "убий", "убива", "убьет", "убью", "завал", "замоч")
_fam("продать", "прода", "продаж", "продав", "купит", "покуп", "куплю")
_fam("голд", "голд", "золот", "деньг", "денег", "монет", "цена", "цену", "цены", "стоим",
     "стоит", "стоят")
_fam("обмен", "обмен", "меня", "поменя", "обменя")
_fam("сброс", "сбро", "сбра", "выброс", "выбра", "выкин", "выкид")
_fam("взятка", "взятк", "подкуп", "плати", "плат", "заплат", "награ", "сделк", "уговор")
_fam("головняк", "головняк", "шлем", "шапк", "шляп", "каск")
_fam("броник", "броник", "брон", "доспех", "кольчуг")
_fam("обувка", "обувк", "обув", "ботин", "сапог", "тапк", "туфл", "сандал")
_fam("победа", "побед", "выигр", "выйгр")
_fam("ничья", "ничь", "вничью", "поровну", "равн")
_fam("класс", "класс", "клуб")
_fam("кража", "краж", "краст", "крад", "укра", "своров", "воров")
_fam("карта", "карт")
_fam("спор", "спор", "поспор", "разноглас", "ссор", "ругаем")
_fam("монстр", "монстр", "моб", "тварь", "твар", "чудовищ", "враг")
_fam("игрок", "игрок", "друг", "соперник", "противник", "товарищ")
_fam("рука", "рук")
_fam("ход", "ход")
_fam("союзник", "союзн", "спутник")
_fam("напарник", "напарн")
_fam("эльф", "эльф")
_fam("дварф", "дварф", "гном")
_fam("хафлинг", "хафлинг", "халфлинг", "хоббит")
_fam("большая", "больш", "огромн", "тяжел", "крупн")
_fam("разовая", "разов", "одноразов", "зель")

_RU_FAMILY_PREFIXES = tuple(sorted(_RU_FAMILIES, key=len, reverse=True))


@lru_cache(maxsize=8192)
def _ru_canon(word: str) -> str:
    if word in _RU_NUMBERS:
        return _RU_NUMBERS[word]
    if word in _RU_WORDS:
        return _RU_WORDS[word]
    for pre in _RU_FAMILY_PREFIXES:
        if word.startswith(pre):
            return _RU_FAMILIES[pre]
    return _snowball("ru", word)


def ru_tokens(text: str) -> list[str]:
    """Canonical tokens of a Russian ``text``; Latin words in it go through ``tokens``.

    Set phrases and word families (slang included) map to one token; any other word is stemmed
    by Snowball's Russian stemmer.
    """
    text = text.lower().replace("ё", "е")
    for a in _APOSTROPHES:
        text = text.replace(a, "")
    text = re.sub(r"(?<=\d)[ ,.](?=\d{3})", "", text)  # 1 000 -> 1000
    for pattern, rep in _RU_PHRASES:
        text = pattern.sub(rep, text)
    out: list[str] = []
    for w in _RU_TOKEN_RE.findall(text):
        if _LATIN_RE.match(w):
            out.extend(tokens(w))
        elif w.isdigit():
            out.append(w)
        elif len(w) >= 2 and w not in _RU_STOP:
            out.append(_ru_canon(w))
    return out


# ------------------------------------------------------------------ Ukrainian
#
# Snowball has no Ukrainian stemmer, and none is published on PyPI. The maintained option is a
# dictionary lemmatizer, pymorphy3 with pymorphy3-dicts-uk: it pulls in the Russian dictionaries
# too (about 30 MB installed, some 40 MB of memory in each process), and a lemma joins fewer of
# a family than a stem does (допомога, допомагати and допомогти stay three words). Measured on
# the Ukrainian rulings (their questions, two words of each, their keywords, typed questions),
# it ranked no better than the stripper below (keywords found in the top three: 88% and 87%).
# So Ukrainian goes through a light ending stripper of our own, written the way Snowball's
# Russian one works (the longest ending after the first vowel; a reflexive -ся/-сь first), with
# the set words below for the families whose stem changes (рівень/рівня, бій/бою,
# допомога/допоможу, помер/смерть).

_UK_STOP = frozenset("""
я ти він вона воно ми ви вони мене мені мною тебе тобі тобою його йому ним її їй нею нас нам
вас вам їх їм ними себе собі мій моя моє мої мого моєї мою моїм твій твоя твоє твої свій своя
своє свої свого своєї свою своїм свої наш наша наше наші ваш ваша ваше ваші і й та а але або
чи що як коли де куди хто який яка яке які якого якої якщо бо тому щоб аби у в з із зі на до
від по за при про для над під через між же ж не ні так також теж ще вже лише тільки можу
може можеш можна можуть можемо могти треба потрібно є був була було були буде будуть бути це
цей ця ці цього цієї той те ті того тієї там тут ось ну ага будь ласка чому навіщо хіба
""".split())

_UK_NUMBERS: dict[str, str] = {
    word: digit for digit, words in {
        "1": "один одна одне одного одну одній перший першого першому",
        "2": "два дві двох двом двома другий другого обидва обидві пара пару",
        "3": "три трьох третій третього",
        "4": "чотири чотирьох четвертий",
        "5": "пять пяти пятий",
        "6": "шість шести шостий",
        "10": "десять десяти десятий десятого десятому десятку",
    }.items() for word in words.split()}

# words whose stem changes, as whole words; then families by prefix (the longest wins)
_UK_WORDS = {w: "бій" for w in "бій бою боєм бої боїв боях боям".split()}
_UK_FAMILIES: dict[str, str] = {}
for _canonical, _prefixes in {
    "рівень": "рівн рівен левел лвл",
    "допомога": "допомо допомаг допомі поміч",
    "прокляття": "прокл",
    "втеча": "втек втеч втік утек утеч утік тіка змит змив змиє змию",
    "предмет": "предмет шмот спорядж речі річ",
    "смерть": "смерт помер помир мертв загин",
    "вбити": "вбит вбив вбиває убит убив",
    "продати": "прода",
    "золото": "золот голд монет",
    "монстр": "монстр потвор чудовиськ",
    "гравець": "гравц гравец",
    "обмін": "обмін обміня міня",
}.items():
    for _pre in _prefixes.split():
        _UK_FAMILIES[_pre] = _canonical
del _canonical, _prefixes, _pre
_UK_FAMILY_PREFIXES = tuple(sorted(_UK_FAMILIES, key=len, reverse=True))

_UK_VOWELS = frozenset("аеиоуюяіїє")
# noun, adjective and verb endings, longest first
_UK_ENDINGS = tuple(sorted(set("""
ами ями ах ях ові еві єві ів їв ей ом ем єм ою ею єю ам ям ого ому ими іми ий ій ім им их іх
ої ую юю ати яти ити іти ать ять уть ють ить іть ете ите емо имо ємо ає яє ує ює ають яють
ують юють ала али ало ила или ило ла ли ло ав ив ти ть еш иш єш ість ості ння нню ням нням
а я о е є у ю і ї и ь й
""".split()), key=len, reverse=True))


def _uk_stem(word: str) -> str:
    """A light Ukrainian stemmer: a reflexive ending, then the longest inflection ending after
    the word's first vowel (the stem keeps that vowel and at least three letters), then a
    doubled last consonant made single (прокляття and проклятий meet at "проклят")."""
    if len(word) > 5 and word.endswith(("ся", "сь")):
        word = word[:-2]
    first = next((i for i, c in enumerate(word) if c in _UK_VOWELS), None)
    if first is None:
        return word
    rv = first + 1  # the ending is looked for after the first vowel
    for end in _UK_ENDINGS:
        if word.endswith(end) and len(word) - len(end) >= max(rv, 3):
            word = word[:-len(end)]
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in _UK_VOWELS:
        word = word[:-1]
    return word


@lru_cache(maxsize=8192)
def _uk_canon(word: str) -> str:
    if word in _UK_NUMBERS:
        return _UK_NUMBERS[word]
    if word in _UK_WORDS:
        return _UK_WORDS[word]
    for pre in _UK_FAMILY_PREFIXES:
        if word.startswith(pre):
            return _UK_FAMILIES[pre]
    return _uk_stem(word)


def uk_tokens(text: str) -> list[str]:
    """Canonical tokens of a Ukrainian ``text``; Latin words in it go through ``tokens``."""
    text = text.lower().replace("ґ", "г")
    for a in _APOSTROPHES:  # п'ять, з'їсти: the apostrophe is inside the word
        text = text.replace(a, "")
    text = re.sub(r"(?<=\d)[ ,.](?=\d{3})", "", text)  # 1 000 -> 1000
    text = re.sub(r"(\d+)\s*-?\s*(?:го|й|ий|ого|ому|му)\b", r" \1 ", text)  # 10-й -> 10
    out: list[str] = []
    for w in _UK_TOKEN_RE.findall(text):
        if _LATIN_RE.match(w):
            out.extend(tokens(w))
        elif w.isdigit():
            out.append(w)
        elif len(w) >= 2 and w not in _UK_STOP:
            out.append(_uk_canon(w))
    return out


# ------------------------------------------------------------------ the Latin-script languages
#
# German, French, Spanish, Italian, Portuguese and Polish. The words are folded first (``fold``:
# no accents, as typed on a phone), then stemmed by Snowball, so a question typed with or
# without its accents meets the translation's words. Stop words are written folded: the
# pronouns, articles, prepositions and the "can I" of a question, which say nothing of its
# subject.

_LATIN_STOP: dict[str, frozenset[str]] = {lang: frozenset(words.split()) for lang, words in {
    "de": """
ich du er sie es wir ihr man mich mir dich dir sich uns euch ihn ihm ihnen mein meine meinen
meinem meiner meines dein deine deinen deinem deiner sein seine seinen seinem seiner ihre
ihren ihrem ihrer unser unsere euer eure der die das den dem des ein eine einen einem einer
eines und oder aber wenn ob dass da was wer wem wen wie wo wann warum wieso welche welcher
welches welchen kann kannst konnen konnt darf darfst durfen muss musst mussen soll sollte
sollen will willst wollen ist sind bin bist war waren wird wirst werden wurde habe hast hat
haben hatte hatten noch schon auch nur so zu im in am an auf aus bei beim mit nach von vom
vor zum zur uber um durch fur als dann denn doch ja mal eigentlich bitte etwa gibt es dies
diese dieser dieses diesen diesem jemand jemandem jemanden hier dort sowas nicht nein
""",
    "fr": """
je j tu il elle on nous vous ils elles me m te t se s le la l les un une des du de d au aux
et ou mais si que qu qui quoi quel quelle quels quelles est sont suis es etre ai as a avons
avez ont avoir peux peut puis pouvons pouvez peuvent pourrais pourrait dois doit devons
devez doivent faut ce c cet cette ces ca cela mon ma mes ton ta tes son sa ses notre nos
votre vos leur leurs en y dans sur par pour avec ne n pas non oui comment quand pourquoi
quelqu quelquun un moi toi lui eux soi alors donc bien tres
""",
    "es": """
yo tu el ella usted nosotros vosotros ellos ellas ustedes me te se nos os lo la los las le
les un una unos unas de del al a y e o u pero si que quien quienes cual cuales como cuando
donde por para con en es son soy eres somos esta estan estoy estas ser estar he has ha hemos
han haber puedo puede puedes pueden podemos podria debo debe debes tengo tiene tienes hay mi
mis tu tus su sus este esto estos estas ese esa eso esos esas ya muy mas tambien aun algo
alguien no
""",
    "it": """
io tu lui lei noi voi loro mi ti si ci vi lo la li le gli il i un uno una di del della dello
dei degli delle da dal dalla dai a al alla ai agli alle in nel nella nei su sul sulla per
con tra fra e ed o ma se che chi cosa come quando dove quale quali posso puoi puo possono
possiamo potrei devo deve devi sono sei siamo siete ho hai ha abbiamo hanno essere avere mio
mia miei mie tuo tua tuoi tue suo sua suoi sue c l un dell all nell sull quest qualcuno
questo questa quello quella gia anche ancora molto piu non
""",
    "pt": """
eu tu ele ela nos voce voces eles elas me te se lhe lhes o a os as um uma uns umas de do da
dos das em no na nas num numa ao aos por pelo pela pelos pelas para pra com e ou mas que
quem qual quais como quando onde posso pode podes podem podemos poderia devo deve tenho tem
ha meu minha meus minhas teu tua seu sua seus suas este esta isto esse essa isso aquele
aquela ja muito mais tambem ainda sou somos sao esta estou ser estar foi alguem algo nao sim
""",
    "pl": """
ja ty on ona ono my wy oni one mnie mi mna cie ci ciebie go mu jej ich im nim nia nich sie
siebie sobie moj moja moje moi mojego mojej twoj twoja twoje swoj swoja swoje swoich swojego
swojej i a o w we z ze na do od po za przy przez dla u nad pod czy jak jaki jaka jakie co
kto kogo komu kiedy gdzie dlaczego moge mozesz mozna moze mozemy moga musze musi trzeba jest
sa byc jestem jestes mam masz ma mamy maja to ten ta te tego tej tym juz jeszcze tez albo
lub ale jesli jezeli gdy bo wiec ktos komus kogos cos nie tak
""",
}.items()}

# number words -> digits (folded); the rulings write "level 10" as often as "level ten"
_LATIN_NUMBERS: dict[str, dict[str, str]] = {lang: {
    word: digit for digit, words in table.items() for word in words.split()}
    for lang, table in {
        "de": {"1": "eins erste ersten erster", "2": "zwei beide beiden zweite zweiten zweiter",
               "3": "drei dritte", "4": "vier", "5": "funf", "6": "sechs",
               "10": "zehn zehnte zehnten zehnter"},
        "fr": {"1": "premier premiere", "2": "deux deuxieme second seconde", "3": "trois",
               "4": "quatre", "5": "cinq", "6": "six", "10": "dix dixieme"},
        "es": {"1": "uno primer primero primera", "2": "dos ambos ambas segundo segunda",
               "3": "tres", "4": "cuatro", "5": "cinco", "6": "seis",
               "10": "diez decimo decima"},
        "it": {"1": "primo prima", "2": "due entrambi entrambe secondo seconda", "3": "tre",
               "4": "quattro", "5": "cinque", "6": "sei", "10": "dieci decimo"},
        "pt": {"1": "primeiro primeira", "2": "dois duas ambos ambas segundo segunda",
               "3": "tres", "4": "quatro", "5": "cinco", "6": "seis", "10": "dez decimo"},
        "pl": {"1": "jeden jedna jedno jednego pierwszy", "2": "dwa dwie dwoch obaj oba obie",
               "3": "trzy trzech", "4": "cztery", "5": "piec", "6": "szesc",
               "10": "dziesiec dziesiaty dziesiatego dziesiatym dziesieciu"},
    }.items()}

_ORDINAL_RE = re.compile(r"\b(\d+)(?:e|er|re|eme|o|a|ten|te|ter|ty|ym|ego)\b")


def _latin_prepare(lang: str, word: str) -> str:
    """A folded word made ready for its Snowball stemmer. Polish endings that the stemmer knows
    only with their diacritics get them back (-ow -> -ów, infinitive -ac -> -ać), so a word
    typed bare is stemmed as its written form is; Portuguese plurals in -ões/-ães/-éis lose
    their plural (maldicoes -> maldicao, niveis -> nivel), which Snowball leaves apart."""
    if lang == "pl":
        if word.endswith("ow") and len(word) > 4:
            return word[:-2] + "ów"
        if len(word) > 4 and word[-1] == "c" and word[-2] in "aeiyu":
            return word[:-1] + "ć"
    elif lang == "pt" and len(word) > 5:
        if word.endswith(("oes", "aes")):
            return word[:-3] + "ao"
        if word.endswith("eis"):
            return word[:-3] + "el"
    return word


@lru_cache(maxsize=65536)
def _latin_canon(lang: str, word: str) -> str:
    num = _LATIN_NUMBERS[lang].get(word)
    if num is not None:
        return num
    return fold(_snowball(lang, _latin_prepare(lang, word)))


def latin_tokens(text: str, lang: str) -> list[str]:
    """Canonical tokens of a ``text`` in ``lang`` (de, fr, es, it, pt, pl): folded, stop words
    dropped, each other word stemmed by Snowball. English words in it are stemmed the same way,
    in the rulings not yet translated as in the question."""
    text = fold(text)
    for a in _APOSTROPHES:  # l'objet, quelqu'un, dell'oggetto: the apostrophe parts words
        text = text.replace(a, " ")
    text = re.sub(r"(?<=\d)[ ,.](?=\d{3})", "", text)  # 1.000, 1 000 -> 1000
    text = _ORDINAL_RE.sub(r"\1", text)  # 10e, 10o, 10ten -> 10
    stop = _LATIN_STOP[lang]
    out: list[str] = []
    for w in _LATIN_TOKEN_RE.findall(text):
        if w.isdigit():
            out.append(w)
        elif len(w) >= 2 and w not in stop:
            out.append(_latin_canon(lang, w))
    return out


def lang_tokens(text: str, lang: str) -> list[str]:
    """Canonical tokens of ``text`` read as ``lang`` (English for any language without an index)."""
    if lang == "ru":
        return ru_tokens(text)
    if lang == "uk":
        return uk_tokens(text)
    if lang in _LATIN_STOP:
        return latin_tokens(text, lang)
    return tokens(text)


# ------------------------------------------------------------------ the index

_FIELD_WEIGHTS = {"question": 3.0, "keywords": 3.0, "name": 2.0, "answer": 1.5,
                  "official": 1.0, "reasoning": 0.6, "differs": 0.4}
_K1 = 4.0
_B = 0.25


@dataclass
class _Doc:
    rec: dict
    tf: dict[str, float]  # token -> weighted term frequency
    length: float
    pairs: frozenset[tuple[str, str]]  # adjacent token pairs of question and keywords


@dataclass
class _Index:
    docs: list[_Doc]
    idf: dict[str, float]
    avglen: float
    vocab: list[str]  # for fuzzy matching of unknown query tokens
    native: frozenset[str]  # the tokens of the rulings in the index's language (translated)
    fuzzy: dict[str, tuple[str, float] | None] = field(default_factory=dict)  # remembered matches


def _pairs(toks: list[str]) -> set[tuple[str, str]]:
    return {(a, b) for a, b in zip(toks, toks[1:]) if a != b}


def _fields_en(rec: dict) -> dict[str, list[list[str]]]:
    return {
        "question": [tokens(rec["question"])],
        "keywords": [tokens(k) for k in rec["keywords"]],
        "name": [tokens(rec["id"].replace("-", " ") + " " + rec["topic"].replace("-", " "))],
        "answer": [tokens(rec["answer"])],
        "reasoning": [tokens(rec["reasoning"])],
        "differs": [tokens(rec["differs"] or "")],
        "official": [tokens((rec.get("official") or {}).get("answer", ""))],
    }


def _fields_lang(rec: dict, lang: str) -> dict[str, list[list[str]]]:
    """A ruling's fields in ``lang``; one not translated yet is indexed by its English words
    (through ``tokens`` where the language is written in Cyrillic, whose tokenizer sends Latin
    words there too; else through the language's own, which a question's words go through)."""
    tr = _translations(lang).get(rec["id"])
    if tr is None:
        src = rec
        tok = tokens if lang in _CYRILLIC_LANGS else (lambda text: lang_tokens(text, lang))
        official = (rec.get("official") or {}).get("answer", "")
    else:
        src = {**rec, **tr}
        tok = lambda text: lang_tokens(text, lang)  # noqa: E731
        official = tr.get("official", "")
    return {
        "question": [tok(src["question"])],
        "keywords": [tok(k) for k in src["keywords"]],
        "name": [],
        "answer": [tok(src["answer"])],
        "reasoning": [tok(src["reasoning"])],
        "differs": [tok(src.get("differs") or "")],
        "official": [tok(official)],
    }


@lru_cache(maxsize=16)
def _index(lang: str = "en") -> _Index:
    """The index of ``lang`` ("en" or one of ``LANGS``), built on its first question."""
    docs: list[_Doc] = []
    df: Counter[str] = Counter()
    native: set[str] = set()
    translated = _translations(lang) if lang != "en" else None
    for rec in _rulings():
        fields = _fields_en(rec) if lang == "en" else _fields_lang(rec, lang)
        tf: Counter[str] = Counter()
        length = 0.0
        for fname, lists in fields.items():
            w = _FIELD_WEIGHTS[fname]
            for toks in lists:
                for t in toks:
                    tf[t] += w
                length += w * len(toks)
        pairs: set[tuple[str, str]] = set()
        pairs |= _pairs(fields["question"][0])
        for toks in fields["keywords"]:
            pairs |= _pairs(toks)
        docs.append(_Doc(rec, dict(tf), length, frozenset(pairs)))
        df.update(tf.keys())
        if translated is None or rec["id"] in translated:
            native.update(tf)
    n = len(docs)
    idf = {t: math.log(1 + (n - c + 0.5) / (c + 0.5)) for t, c in df.items()}
    avglen = sum(d.length for d in docs) / max(n, 1)
    vocab = sorted(set(df) | set(_SYNONYMS)) if lang == "en" else sorted(df)
    return _Index(docs, idf, avglen, vocab, frozenset(native))


def _fuzzy(token: str, lang: str = "en") -> tuple[str, float] | None:
    """The index token closest to an unknown ``token`` and a similarity weight in (0, 1]."""
    if len(token) < 4 or token.isdigit():
        return None
    idx = _index(lang)
    if token in idx.fuzzy:
        return idx.fuzzy[token]
    found = None
    cutoff = 75 if len(token) <= 4 else 80
    best = process.extractOne(token, idx.vocab, scorer=fuzz.ratio, score_cutoff=cutoff)
    if best is not None:
        match = best[0]
        if lang == "en":
            match = _SYNONYMS.get(match, match)
            if match not in idx.idf:
                match = _canon(best[0])
        if match in idx.idf:
            found = (match, best[1] / 100.0)
    if len(idx.fuzzy) < 16384:
        idx.fuzzy[token] = found
    return found


def _query_terms(q: str, lang: str = "en") -> tuple[dict[str, float], list[str]]:
    """Weighted canonical query terms, and the token sequence (for pair bonuses)."""
    idx = _index(lang)
    seq: list[str] = []
    terms: dict[str, float] = {}
    for t in lang_tokens(q, lang):
        w = 1.0
        if t not in idx.idf:
            hit = _fuzzy(t, lang)
            if hit is None:
                continue
            t, w = hit
        seq.append(t)
        terms[t] = max(terms.get(t, 0.0), w)
    for t, w in list(terms.items()):
        for extra, ew in _EXPAND.get(t, ()):
            if extra in idx.idf:
                terms[extra] = max(terms.get(extra, 0.0), w * ew)
    # two different classes (or races) named in one question ask about having both at once
    for names, kind in ((_CLASS_NAMES, "class"), (_RACE_NAMES, "race")):
        if len(set(seq) & set(names)) >= 2:
            for extra in ("two", kind):
                if extra in idx.idf:
                    terms[extra] = 1.0
    return terms, seq


#: how a ruling's score changes at a table of a given edition: stated in that edition's rulebook;
#: not printed there but given for it by the publisher's later rulings (the table follows them,
#: or not); neither. Rulings that hold at the table come first, the others still show below.
EDITION_BOOST = 1.15
OFFICIAL_FOLLOWED = 1.15
OFFICIAL_NOT_FOLLOWED = 0.8
EDITION_PENALTY = 0.5


def edition_weight(rec: dict, edition: str, official_updates: bool = False) -> float:
    if edition in rec["editions"]:
        return EDITION_BOOST
    if official_for(rec, edition) is not None:
        return OFFICIAL_FOLLOWED if official_updates else OFFICIAL_NOT_FOLLOWED
    return EDITION_PENALTY


def score_all(q: str, edition: str | None = None, lang: str | None = None,
              official_updates: bool = False) -> list[tuple[float, dict]]:
    """(score, ruling) for every ruling with a positive score in one index, best first
    (internal records).

    ``lang`` ("en" or one of ``LANGS``) picks the index; by default the script of ``q`` decides
    ("ru" for a question mostly in Cyrillic). With an ``edition``, each score is weighted by
    ``edition_weight``: rulings its rulebook states are boosted, rulings the publisher's later
    rulings give for it come next (boosted too when the table follows them,
    ``official_updates``), any other is penalized.
    """
    lang = lang if lang == "en" or lang in LANGS else query_lang(q)
    idx = _index(lang)
    terms, seq = _query_terms(q, lang)
    if not terms:
        return []
    qpairs = _pairs(seq)
    total_w = sum(idx.idf[t] * w for t, w in terms.items())
    scored: list[tuple[float, dict]] = []
    for doc in idx.docs:
        s = 0.0
        matched = 0.0
        norm = _K1 * (1 - _B + _B * doc.length / idx.avglen)
        for t, w in terms.items():
            f = doc.tf.get(t)
            if not f:
                continue
            s += w * idx.idf[t] * f * (_K1 + 1) / (f + norm)
            matched += w * idx.idf[t]
        if s <= 0:
            continue
        for a, b in qpairs & doc.pairs:
            s += 0.6 * (idx.idf.get(a, 0) + idx.idf.get(b, 0))
        s *= 0.6 + 0.4 * (matched / total_w)  # reward covering more of the question
        if edition:
            s *= edition_weight(doc.rec, edition, official_updates)
        scored.append((s, doc.rec))
    scored.sort(key=lambda x: (-x[0], x[1]["id"]))
    return scored


# ------------------------------------------------------------ the reader's language and English


def _has_index(lang: str) -> bool:
    """Whether ``lang`` has texts to search: a translations file with at least one ruling."""
    return lang in LANGS and bool(_translations(lang))


def plan(q: str, lang: str | None = None) -> tuple[str, ...]:
    """The indexes a question is searched in: the reader's language's and English.

    A question mostly in Cyrillic is read as Ukrainian when the reader's language is Ukrainian,
    else as Russian (with no reader's language, in Russian alone, as before languages were
    given). Any other question is read in the reader's language when it has translations,
    and always in English (a German player may type "curse" or an English card name).
    """
    if query_lang(q) == "ru":
        own = "uk" if lang == "uk" and _has_index("uk") else "ru"
        return (own,) if lang is None else (own, "en")
    if lang not in _CYRILLIC_LANGS and _has_index(lang):
        return (lang, "en")
    return ("en",)


def _known(tok: list[str], lang: str) -> float:
    """How surely these tokens are words of ``lang``: 1 for one its rulings have, a fuzzy
    match's similarity for a typo, 0 when none is anywhere near. Only the translated rulings
    count (the English words of one not translated yet are the English index's)."""
    idx = _index(lang)
    best = 0.0
    for t in tok:
        if t in idx.native:
            return 1.0
        hit = _fuzzy(t, lang)
        if hit is not None and hit[0] in idx.native:
            best = max(best, hit[1])
    return best


def split_words(q: str, own: str) -> tuple[str, str]:
    """``q`` cut in two: the words for ``own``'s index, and those for the English one.

    A word goes where it is known (a word both know, like "monster", goes to both); a word
    neither knows goes to the one it is nearer to by fuzzy match, so "kampf" is not matched
    to an English word it happens to look like. A stop word of one language goes to the other
    only when that one has it as it is ("die" is German's article, and English's death).
    """
    chunks = q.split()
    raw = [_raw_tokens(fold(c)) for c in chunks]
    in_phrase = [False] * len(chunks)  # "half breed", "run away": English phrases, word by word
    for i in range(len(chunks)):
        for n in range(2, min(_MAX_PHRASE, len(chunks) - i) + 1):
            if tuple(t for r in raw[i:i + n] for t in r) in _PHRASES:
                in_phrase[i:i + n] = [True] * n
    own_words: list[str] = []
    en_words: list[str] = []
    for chunk, phrase in zip(chunks, in_phrase):
        o_tok = lang_tokens(chunk, own)
        e_tok = tokens(fold(chunk)) or (["phrase"] if phrase else [])
        o = _known(o_tok, own)
        e = 1.0 if phrase else _known(e_tok, "en")
        if o_tok and (o >= e if e_tok else o == 1.0):
            own_words.append(chunk)
        if e_tok and (e >= o if o_tok else e == 1.0):
            en_words.append(chunk)
    return " ".join(own_words), " ".join(en_words)


#: how the two scores of a ruling add up: its score in the reader's language's index, plus
#: this share of its score in the English index (measured on tests/test_arbiter_languages.py)
ENGLISH_SHARE = 1.0


def score_reader(q: str, edition: str | None = None, lang: str | None = None,
                 official_updates: bool = False) -> list[tuple[float, dict]]:
    """(score, ruling) for every ruling that answers ``q`` for a reader of ``lang``, best first:
    its score in the reader's language's index plus its score in the English one (each word of
    ``q`` is looked up in the index that knows it, ``split_words``)."""
    indexes = plan(q, lang)
    if len(indexes) == 1:
        return score_all(q, edition, indexes[0], official_updates)
    own = indexes[0]
    own_q, en_q = split_words(q, own)
    total: dict[str, float] = {}
    recs: dict[str, dict] = {}
    for part, index, share in ((own_q, own, 1.0), (en_q, "en", ENGLISH_SHARE)):
        if not part:
            continue
        for s, rec in score_all(part, edition, index, official_updates):
            total[rec["id"]] = total.get(rec["id"], 0.0) + share * s
            recs[rec["id"]] = rec
    scored = [(s, recs[rid]) for rid, s in total.items()]
    scored.sort(key=lambda x: (-x[0], x[1]["id"]))
    return scored


def search(q: str, edition: str | None = None, limit: int = 10,
           official_updates: bool = False, lang: str | None = None) -> list[dict]:
    """The rulings best answering ``q``, best first, as copies of the records.

    ``edition`` (a game's edition id) boosts rulings that hold at that table and penalizes the
    others (``official_updates``: the table follows the publisher's later rulings); an unknown
    edition id is ignored. ``limit`` caps the list. ``lang`` is the reader's language ("de",
    "pt_BR", a babel Locale): the question is searched in that language's index and in the
    English one (``score_reader``); without it, a question mostly in Cyrillic is searched in
    Russian and any other in English.
    """
    if not isinstance(q, str) or not q.strip() or limit <= 0:
        return []
    if edition not in BOOKS:
        edition = None
    if lang is not None:
        lang = normalize_lang(lang)
    found = score_reader(q, edition, lang, official_updates=official_updates)
    return [copy.deepcopy(rec) for _, rec in found[:limit]]
