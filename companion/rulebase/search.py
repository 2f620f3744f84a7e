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

A question written mostly in Cyrillic is searched in Russian instead: against a second index
built the same way from the Russian texts and keywords (``translations/ru.json``; a ruling not
translated yet is indexed by its English words), with a Russian tokenizer (``ru_tokens``: stop
words, number words, a few set phrases and word families mapped to one token, a light ending
stripper). The English index and its scores are unchanged.
"""

from __future__ import annotations

import copy
import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz, process

from . import _rulings, _translations, official_for

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


# ------------------------------------------------------------------ Russian questions

_CYRILLIC_RE = re.compile(r"[а-яё]")
_LATIN_RE = re.compile(r"[a-z]")
_RU_TOKEN_RE = re.compile(r"[a-zа-я0-9]+")


def query_lang(q: str) -> str:
    """"ru" when ``q`` has more Cyrillic than Latin letters, else "en"."""
    low = q.lower()
    return "ru" if len(_CYRILLIC_RE.findall(low)) > len(_LATIN_RE.findall(low)) else "en"


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
_fam("смерть", "смерт", "умер", "умир", "погиб", "мертв", "мерт", "труп", "сдох", "помер")
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

# inflection endings, longest first; a stem keeps at least 3 letters
_RU_ENDINGS = tuple(sorted(set("""
иями ями ами иях ях ах ов ев ей ой ий ый ая яя ое ее ые ие ую юю ом ем им ым их ых ого его
ому ему ыми ими ешь ишь ет ит ут ют ат ят ете ите ать ять ить еть уть ыть ла ло ли ал ял ил
ел ул ость ости ание ания ение ения ка ки ку ке кой а я о е ы и у ю ь й ает яет ают яют
ала ало али ила ило или ела ели ует уют ывать ивать
""".split()), key=len, reverse=True))


def _ru_stem(word: str) -> str:
    if len(word) > 5 and word.endswith(("ся", "сь")):
        word = word[:-2]
    for end in _RU_ENDINGS:
        if word.endswith(end) and len(word) - len(end) >= 3:
            return word[:-len(end)]
    return word


@lru_cache(maxsize=8192)
def _ru_canon(word: str) -> str:
    if word in _RU_NUMBERS:
        return _RU_NUMBERS[word]
    if word in _RU_WORDS:
        return _RU_WORDS[word]
    for pre in _RU_FAMILY_PREFIXES:
        if word.startswith(pre):
            return _RU_FAMILIES[pre]
    return _ru_stem(word)


def ru_tokens(text: str) -> list[str]:
    """Canonical tokens of a Russian ``text``; Latin words in it go through ``tokens``."""
    text = text.lower().replace("ё", "е").replace("\u2019", "'").replace("'", "")
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


def _fields_ru(rec: dict) -> dict[str, list[list[str]]]:
    tr = _translations("ru").get(rec["id"])
    src, tok = (rec, tokens) if tr is None else ({**rec, **tr}, ru_tokens)  # untranslated: English
    return {
        "question": [tok(src["question"])],
        "keywords": [tok(k) for k in src["keywords"]],
        "name": [],
        "answer": [tok(src["answer"])],
        "reasoning": [tok(src["reasoning"])],
        "differs": [tok(src.get("differs") or "")],
        "official": [tok(tr.get("official", "") if tr is not None
                         else (rec.get("official") or {}).get("answer", ""))],
    }


@lru_cache(maxsize=4)
def _index(lang: str = "en") -> _Index:
    docs: list[_Doc] = []
    df: Counter[str] = Counter()
    fields_of = _fields_ru if lang == "ru" else _fields_en
    for rec in _rulings():
        fields = fields_of(rec)
        tf: Counter[str] = Counter()
        length = 0.0
        for field, lists in fields.items():
            w = _FIELD_WEIGHTS[field]
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
    n = len(docs)
    idf = {t: math.log(1 + (n - c + 0.5) / (c + 0.5)) for t, c in df.items()}
    avglen = sum(d.length for d in docs) / max(n, 1)
    vocab = sorted(set(df) | set(_SYNONYMS)) if lang == "en" else sorted(df)
    return _Index(docs, idf, avglen, vocab)


@lru_cache(maxsize=4096)
def _fuzzy(token: str, lang: str = "en") -> tuple[str, float] | None:
    """The index token closest to an unknown ``token`` and a similarity weight in (0, 1]."""
    if len(token) < 4 or token.isdigit():
        return None
    idx = _index(lang)
    cutoff = 75 if len(token) <= 4 else 80
    best = process.extractOne(token, idx.vocab, scorer=fuzz.ratio, score_cutoff=cutoff)
    if best is None:
        return None
    match = _SYNONYMS.get(best[0], best[0])
    if match not in idx.idf:
        match = _canon(best[0])
        if match not in idx.idf:
            return None
    return match, best[1] / 100.0


def _query_terms(q: str, lang: str = "en") -> tuple[dict[str, float], list[str]]:
    """Weighted canonical query terms, and the token sequence (for pair bonuses)."""
    idx = _index(lang)
    seq: list[str] = []
    terms: dict[str, float] = {}
    for t in (ru_tokens(q) if lang == "ru" else tokens(q)):
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
    """(score, ruling) for every ruling with a positive score, best first (internal records).

    ``lang`` ("en" or "ru") picks the index; by default the script of ``q`` decides. With an
    ``edition``, each score is weighted by ``edition_weight``: rulings its rulebook states are
    boosted, rulings the publisher's later rulings give for it come next (boosted too when the
    table follows them, ``official_updates``), any other is penalized.
    """
    lang = lang if lang in ("en", "ru") else query_lang(q)
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


def search(q: str, edition: str | None = None, limit: int = 10,
           official_updates: bool = False) -> list[dict]:
    """The rulings best answering ``q``, best first, as copies of the records.

    ``edition`` (a game's edition id) boosts rulings that hold at that table and penalizes the
    others (``official_updates``: the table follows the publisher's later rulings); an unknown
    edition id is ignored. ``limit`` caps the list.
    """
    from . import BOOKS
    if not isinstance(q, str) or not q.strip() or limit <= 0:
        return []
    if edition not in BOOKS:
        edition = None
    return [copy.deepcopy(rec) for _, rec in score_all(q, edition, official_updates=official_updates)[:limit]]
