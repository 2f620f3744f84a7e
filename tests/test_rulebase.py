"""The rules base: every ruling is well formed, the engine's rule ids exist with citations, the
API behaves, edition filtering works, and no ruling repeats the rulebooks' wording."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

import companion.rulebase as rb
from companion.rulebase import (BOOKS, UNSEEN_SECTIONS, RulebaseError, all_rulings,
                                citation_for, explain, get_ruling, load_rulings,
                                ruling_for_edition, rulings_for_topic, search, topics,
                                validate_record)

RULINGS_DIR = Path(rb.__file__).resolve().parent / "rulings"
SHARED = Path(__file__).resolve().parents[2] / "shared"
SEEDS = SHARED / "seeds"
EDITIONS = ("classic", "oz", "spell-skool", "russia", "tails")
NEWER = ("oz", "spell-skool", "russia", "tails")

# The ids the rules engine raises (docs/ENGINE.md, "Rule ids"), with the editions whose
# rulebooks must cite each of them. None means all five.
REQUIRED: dict[str, tuple[str, ...] | None] = {
    "level-minimum": None, "level-ten-needs-kill": None, "game-over": None, "turn-pass": None,
    "fight-own-turn": None, "one-fight-at-a-time": None, "no-combat": None,
    "race-limit": ("classic", "tails"), "class-limit": None,
    "no-duplicate-card": ("classic", "oz", "russia", "tails"),
    "half-breed-needs-race": ("classic", "tails"),
    "super-munchkin-needs-class": ("classic", "oz", "russia", "tails"),
    "no-races-in-edition": ("oz", "spell-skool", "russia"),
    "no-half-breed-in-edition": ("oz", "spell-skool", "russia"),
    "no-super-munchkin-in-edition": ("spell-skool",),
    "single-race-no-drawbacks": ("oz", "russia", "tails"),
    "discard-anytime": None, "equip-slot-limit": None,
    "big-item-limit": ("classic", "oz", "russia"),
    "item-user-restriction": None, "no-equip-in-combat": None, "no-trade-in-combat": None,
    "trade-items-only": None, "give-items-only": None, "sell-own-turn": None,
    "sell-not-in-combat": None, "sell-no-change": None, "sell-no-value": NEWER,
    "ally-limit": ("oz",), "no-allies-in-edition": ("classic", "spell-skool", "russia", "tails"),
    "ally-sacrifice-escape": ("oz",),
    "dead-no-cards": NEWER, "dead-keeps": None, "death-looting": None, "charity": None,
    "charity-oligarchs": ("russia",), "hand-limit": None, "curse-nothing-to-affect": None,
    "curse-next-fight": NEWER, "curse-lasting": None, "monsters-win-ties": None,
    "warrior-wins-ties": ("classic", "tails"), "helper-limit": None,
    "helper-not-fighter": None, "dead-cannot-help": None, "helper-no-level": None,
    "elf-helper-levels": ("classic",), "forced-helper-may-leave": ("tails",),
    "voluntary-helper-stays": ("tails",), "shared-victory": ("oz", "tails"),
    "run-away-roll": None, "flee-each-monster": None, "flee-both": None,
    "mate-copies-enhancers": ("classic", "tails"), "enhancer-choose-monster": None,
    "one-shot-either-side": None, "monster-plural-single": None,
    "grouping-monsters": ("spell-skool", "russia"), "monster-effects-helper": None,
    "kill-levels": None, "defeat-without-kill": None, "treasure-face-up-with-help": None,
    "bribe-offer": None, "bribe-fighter-only": None, "bribe-own-items": None,
    "bribe-treasure-limit": None, "player-count": None, "go-up-a-level-anytime": None,
    "winning-level-shared-kill": ("classic",), "no-item-discard": NEWER,
}


# ---------------------------------------------------------------- the data

def test_at_least_seventy_rulings():
    assert len(all_rulings()) >= 70


def test_every_file_is_a_list_of_valid_records():
    files = sorted(RULINGS_DIR.glob("*.json"))
    assert files
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert isinstance(data, list) and data, path.name
        for rec in data:
            validate_record(rec, path.name)
            assert rec["topic"] == path.stem


def test_ids_unique():
    ids = [r["id"] for r in all_rulings()]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("rule_id", sorted(REQUIRED))
def test_required_rule_id_exists_with_citations(rule_id):
    rec = get_ruling(rule_id)
    assert rec is not None, f"missing ruling {rule_id}"
    expected = REQUIRED[rule_id] or EDITIONS
    assert set(rec["editions"]) == set(expected), rec["editions"]
    cited = {c["edition"]: c["source"] for c in rec["citations"]}
    for ed in rec["editions"]:
        assert ed in cited, f"{rule_id}: no citation for {ed}"
        assert cited[ed].startswith(BOOKS[ed] + ", ")
        assert citation_for(rec, ed) == cited[ed]


def test_records_read_well_on_a_phone():
    for r in all_rulings():
        # the answer is what a refusal shows: one or two plain sentences, not an essay
        # "Cheat!" is a card's name, not the end of a sentence
        sentences = [s for s in re.split(r"(?<=[.!?])\s+", r["answer"].replace("Cheat!", "Cheat").strip()) if s]
        if sentences[0] in ("Yes.", "No.", "Nothing.", "One.", "You.") and len(sentences) > 1:
            sentences = sentences[1:]
        assert 1 <= len(sentences) <= 2, (r["id"], r["answer"])
        assert len(r["answer"]) <= 260, (r["id"], len(r["answer"]))
        if r["id"] in REQUIRED:  # shown as a refusal: a statement of the rule, not "Yes."
            assert not r["answer"].startswith("Yes"), r["id"]
        assert r["answer"][0].isupper() and r["answer"].rstrip()[-1] in ".!", r["id"]
        assert len(r["keywords"]) >= 3, r["id"]


def test_edition_specific_rulings_name_their_editions():
    assert get_ruling("elf-helper-levels")["editions"] == ["classic"]
    assert get_ruling("charity-oligarchs")["editions"] == ["russia"]
    assert get_ruling("forced-helper-may-leave")["editions"] == ["tails"]
    for rid in ("ally-limit", "ally-sacrifice-escape"):
        assert get_ruling(rid)["editions"] == ["oz"]
    # a rule missing from some rulebooks says how the others differ
    for rid in ("helper-no-level", "big-item-limit", "defeat-without-kill", "no-item-discard",
                "super-munchkin-needs-class", "curse-next-fight", "dead-keeps"):
        assert get_ruling(rid)["differs"], rid


def test_rule_base_agrees_with_the_edition_data():
    editions = pytest.importorskip("companion.engine.editions").EDITIONS
    for ed in editions.values():
        assert BOOKS[ed.id] == ed.rulebook
        assert (ed.id in get_ruling("elf-helper-levels")["editions"]) == ed.elf_helper_levels
        assert (ed.id in get_ruling("forced-helper-may-leave")["editions"]) == ed.forced_help_never_wins
        assert (ed.id in get_ruling("charity-oligarchs")["editions"]) == ed.charity_oligarchs_first
        assert (ed.id in get_ruling("ally-limit")["editions"]) == ed.allies
        assert (ed.id in get_ruling("no-allies-in-edition")["editions"]) == (not ed.allies)
        assert (ed.id in get_ruling("no-races-in-edition")["editions"]) == (not ed.races)
        assert (ed.id in get_ruling("no-half-breed-in-edition")["editions"]) == (not ed.half_breed)
        assert (ed.id in get_ruling("grouping-monsters")["editions"]) == bool(ed.grouping_tags)


SEED_FILES = {"classic": "munchkin-classic.txt", "oz": "munchkin-oz.txt",
              "spell-skool": "munchkin-spell-skool.txt", "russia": "munchkin-russia.txt",
              "tails": "munchkin-tails.txt"}


def _squash(text: str) -> str:
    # the Russia text breaks headings into letters ("C\nomBat"): compare without spaces
    return re.sub(r"[\s*#]+", "", text.lower().replace("\u2019", "'").replace("\u201c", "\"")
                  .replace("\u201d", "\"").replace("\u2013", "-"))


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the rulebooks (shared/seeds) are not here")
def test_cited_sections_exist_in_the_rulebooks():
    texts = {ed: _squash((SEEDS / f).read_text(errors="replace")) for ed, f in SEED_FILES.items()}
    missing = []
    for r in all_rulings():
        for c in r["citations"]:
            ed = c["edition"]
            sections = c["source"][len(BOOKS[ed]) + 2:]
            for part in sections.split(";"):
                part = re.sub(r"\(p\. \d+\)", "", part).strip()
                if part in UNSEEN_SECTIONS.get(ed, ()):
                    continue
                for piece in re.split(r"[():]| -- ", part):
                    piece = piece.strip().strip("-").strip()
                    if piece and _squash(piece) not in texts[ed]:
                        missing.append(f"{r['id']}: {c['source']!r} ({piece!r})")
    assert not missing, missing


# ---------------------------------------------------------------- the API

def test_ruling_for_edition():
    r = ruling_for_edition("ally-limit", "classic")
    assert r["applies"] is False and r["citation"].startswith("Not in ")
    r = ruling_for_edition(get_ruling("ally-limit"), "oz")
    assert r["applies"] is True and r["citation"] == "Munchkin Oz, Allies"
    with pytest.raises(KeyError):
        ruling_for_edition("no-such-rule", "oz")


def test_get_ruling_and_unknown_id():
    assert get_ruling("charity")["topic"] == "charity"
    assert get_ruling("no-such-rule") is None


def test_callers_get_copies():
    r = get_ruling("charity")
    r["answer"] = "changed"
    r["citations"].clear()
    assert get_ruling("charity")["answer"] != "changed"
    assert get_ruling("charity")["citations"]
    hits = search("charity")
    hits[0]["keywords"].append("x")
    assert "x" not in get_ruling(hits[0]["id"])["keywords"]


def test_citation_for_edition_and_note_when_missing():
    assert citation_for("ally-limit", "oz") == "Munchkin Oz, Allies"
    note = citation_for(get_ruling("ally-limit"), "classic")
    assert note.startswith("Not in the classic Munchkin rulebook; Munchkin Oz, Allies")
    note = citation_for("elf-helper-levels", "oz")
    assert note.startswith("Not in Munchkin Oz's rulebook; Munchkin (classic rules), ")
    assert citation_for("charity", None) == get_ruling("charity")["citations"][0]["source"]
    with pytest.raises(KeyError):
        citation_for("no-such-rule", "oz")


def test_explain():
    answer, cite = explain("level-ten-needs-kill", "russia")
    assert "kill" in answer.lower()
    assert cite.startswith("Munchkin Russia, ")
    answer, cite = explain("charity-oligarchs", "tails")
    assert cite.startswith("Not in Munchkin Tails's rulebook; Munchkin Russia, ")
    with pytest.raises(KeyError):
        explain("no-such-rule", "classic")


def test_topics_and_browse():
    ts = topics()
    assert ts == sorted(set(ts))
    for t in ("levels", "combat", "help", "items", "curses", "death", "charity", "allies"):
        assert t in ts
    assert sum(len(rulings_for_topic(t)) for t in ts) == len(all_rulings())
    assert all(r["topic"] == "allies" for r in rulings_for_topic("allies"))


def _write(tmp_path, name, records):
    (tmp_path / name).write_text(json.dumps(records))


def _good(**over):
    rec = {"id": "x-rule", "topic": "misc", "question": "Is this a rule?", "answer": "Yes.",
           "reasoning": "Because.", "keywords": ["x"], "editions": ["oz"],
           "citations": [{"edition": "oz", "source": "Munchkin Oz, Combat"}], "differs": None}
    rec.update(over)
    return rec


@pytest.mark.parametrize("bad,msg", [
    (_good(answer=""), "answer"),
    (_good(editions=["narnia"]), "unknown edition"),
    (_good(editions=["oz", "tails"]), "no citation for edition(s) tails"),
    (_good(citations=[{"edition": "oz", "source": "Oz, Combat"}]), "must read 'Munchkin Oz, "),
    (_good(colour="red"), "unknown key"),
    ({k: v for k, v in _good().items() if k != "keywords"}, "missing key(s) keywords"),
    (_good(question="No question mark"), "question"),
    (_good(topic="other"), "does not match its file"),
])
def test_malformed_record_names_file_and_id(tmp_path, bad, msg):
    _write(tmp_path, "misc.json", [bad])
    with pytest.raises(RulebaseError) as exc:
        load_rulings(tmp_path)
    text = str(exc.value)
    assert "rulings/misc.json" in text and "'x-rule'" in text and msg in text


def test_malformed_files(tmp_path):
    (tmp_path / "misc.json").write_text("{not json")
    with pytest.raises(RulebaseError, match="misc.json: not valid JSON"):
        load_rulings(tmp_path)
    _write(tmp_path, "misc.json", {"id": "x"})
    with pytest.raises(RulebaseError, match="misc.json: expected a JSON list"):
        load_rulings(tmp_path)
    _write(tmp_path, "misc.json", [_good()])
    _write(tmp_path, "other.json", [_good(topic="other")])
    with pytest.raises(RulebaseError, match="duplicate id, also in rulings/misc.json"):
        load_rulings(tmp_path)


# ---------------------------------------------------------------- search

def test_search_shape_and_limit():
    hits = search("helper", limit=5)
    assert 1 <= len(hits) <= 5
    assert {"id", "question", "answer", "citations", "editions"} <= set(hits[0])
    assert search("", limit=5) == []
    assert search("   ?!", limit=5) == []
    assert search("helper", limit=0) == []
    assert search("zzzzqqq xyzzy") == []


def test_search_forgives_typos_and_slang():
    def top(q, n=3):
        return [r["id"] for r in search(q, limit=n)]
    assert "helper-limit" in top("how many helprs")
    assert "run-away-roll" in top("runaway")
    assert "run-away-roll" in top("escpae")
    assert "equip-slot-limit" in top("2 helmets")
    assert "level-ten-needs-kill" in top("ding to 10 selling loot")
    assert "dead-keeps" in top("what do i keep if i get killed")


def test_edition_boosts_its_rulings():
    assert search("allies", edition="oz")[0]["id"] == "ally-limit"
    assert search("can i use allies", edition="classic")[0]["id"] == "no-allies-in-edition"
    assert search("can i be an elf", edition="oz")[0]["id"] == "no-races-in-edition"

    def rank(q, rid, ed):
        ids = [r["id"] for r in search(q, edition=ed, limit=50)]
        return ids.index(rid)
    q = "who gets the charity cards"
    assert rank(q, "charity-oligarchs", "russia") < rank(q, "charity-oligarchs", "oz")
    q = "does my helper go up a level"
    assert rank(q, "elf-helper-levels", "classic") <= rank(q, "elf-helper-levels", "tails")
    # an unknown edition is ignored rather than an error
    assert [r["id"] for r in search(q, edition="narnia")] == [r["id"] for r in search(q)]


def test_edition_does_not_hide_other_editions():
    # a table may ask what another edition says: rulings outside the edition still show
    ids = [r["id"] for r in search("sacrifice my ally to escape", edition="classic", limit=5)]
    assert "ally-sacrifice-escape" in ids


# ---------------------------------------------------------------- own words

def _verbatim_words():
    tool = SHARED / "tools" / "verbatim_check.py"
    if tool.exists():
        spec = importlib.util.spec_from_file_location("verbatim_check", tool)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod.words
    return lambda text: re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text.lower().replace("\u2019", "'"))


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the rulebooks (shared/seeds) are not here")
def test_no_run_of_twelve_words_from_the_rulebooks():
    words = _verbatim_words()
    run = 12
    seed_runs = set()
    for seed in sorted(SEEDS.glob("*.txt")):
        w = words(seed.read_text(errors="replace"))
        seed_runs.update(tuple(w[i:i + run]) for i in range(len(w) - run + 1))
    assert seed_runs
    package = RULINGS_DIR.parent
    found = []
    for path in sorted(RULINGS_DIR.glob("*.json")) + sorted(package.glob("*.py")):
        w = words(path.read_text(errors="replace"))
        for i in range(len(w) - run + 1):
            if tuple(w[i:i + run]) in seed_runs:
                found.append(f"{path.name}: {' '.join(w[i:i + run])}")
    assert not found, found


# ---------------------------------------------------------------- answers that answer

# Words that send the reader elsewhere instead of answering.
POINTERS = re.compile(r"^see\b|\bsee (?:below|above|the reasoning|the [\w-]+ ruling|the card)\b"
                      r"|\bas (?:described|explained|noted|said) (?:below|above)\b"
                      r"|\bread (?:the reasoning|below|on)\b|\bdepends\.?$", re.I)


def _answers_of(r):
    yield "answer", r["answer"]
    if "official" in r:
        yield "official", r["official"]["answer"]


@pytest.mark.parametrize("ruling", all_rulings(), ids=lambda r: r["id"])
def test_every_answer_is_a_self_contained_sentence_that_answers(ruling):
    for field, text in _answers_of(ruling):
        words = re.findall(r"[A-Za-z0-9']+", text)
        # more than a bare "Yes." / "No.": the answer says what the rule is
        assert len(words) >= 6, (ruling["id"], field, text)
        assert text[0].isupper() and text.rstrip()[-1] in ".!", (ruling["id"], field, text)
        assert not POINTERS.search(text), (ruling["id"], field, text)


def test_the_corrected_rulings_say_what_the_rulebooks_mean():
    power = get_ruling("discard-to-power")
    assert "race or class card whose power" in power["answer"]
    items = get_ruling("no-item-discard")["answer"]
    for way in ("sell", "pay for a power", "Bad Stuff", "curse", "forced to drop"):
        assert way in items, way
    peek = get_ruling("discard-pile-peek")
    assert "classic" in peek["editions"] and peek["answer"].startswith("No.")
    assert "computer version" in peek["differs"] and "not a rule for the table" in peek["differs"]
    berserk = get_ruling("warrior-berserk-once")
    assert set(berserk["editions"]) == {"classic", "tails"}
    assert "once per combat" in berserk["answer"] and "Tails" not in berserk["answer"]
    divine = get_ruling("divine-intervention")["answer"]
    assert "every Cleric" in divine


# ---------------------------------------------------------------- official rulings

def test_the_2018_rule_changes_stand_beside_the_printed_rules():
    for rid in ("fight-ends-last-monster-removed", "forced-helper-may-leave", "voluntary-helper-stays"):
        rec = get_ruling(rid)
        off = rec["official"]
        assert "2018" in off["source"] and off["source"].startswith("Steve Jackson Games, ")
        # given for the boxes whose rulebook does not print it
        assert {"classic", "oz", "spell-skool"} <= set(off["editions"])
        assert not set(off["editions"]) & {"tails"}
        assert off["answer"] != rec["answer"]


def test_a_table_sees_its_choice_first_and_the_other_answer_second():
    printed_first = ruling_for_edition("fight-ends-last-monster-removed", "classic")
    assert [a["kind"] for a in printed_first["answers"]] == ["printed", "official"]
    assert printed_first["answers"][0]["source"].startswith("Not in the classic Munchkin rulebook")
    official_first = ruling_for_edition("fight-ends-last-monster-removed", "classic", official_updates=True)
    assert [a["kind"] for a in official_first["answers"]] == ["official", "printed"]
    assert "2018" in official_first["answers"][0]["source"]
    assert official_first["applies"] is True and printed_first["applies"] is False
    # Tails prints the rule itself: one answer, whatever the table chose
    tails = ruling_for_edition("fight-ends-last-monster-removed", "tails", official_updates=True)
    assert [a["kind"] for a in tails["answers"]] == ["printed"]
    # a ruling without an official part has its printed answer only
    assert [a["kind"] for a in ruling_for_edition("charity", "oz", True)["answers"]] == ["printed"]


def test_explain_gives_the_official_answer_to_a_table_that_follows_it():
    answer, cite = explain("forced-helper-may-leave", "classic", official_updates=True)
    assert "every edition" in answer and "2018" in cite
    answer, cite = explain("forced-helper-may-leave", "classic")
    assert answer == get_ruling("forced-helper-may-leave")["answer"] and cite.startswith("Not in")
    ru, _ = explain("forced-helper-may-leave", "classic", lang="ru", official_updates=True)
    assert ru != answer and re.search("[а-я]", ru)


@pytest.mark.parametrize("official,msg", [
    ({"answer": "Yes, always."}, "official must be"),
    ({"answer": "Yes, always.", "source": "Some blog, 2018"}, "must read 'Steve Jackson Games, "),
    ({"answer": "", "source": "Steve Jackson Games, FAQ"}, "official answer"),
    ({"answer": "Yes.", "source": "Steve Jackson Games, FAQ", "editions": ["narnia"]}, "official editions"),
    ({"answer": "Yes.", "source": "Steve Jackson Games, FAQ", "colour": "red"}, "official must be"),
])
def test_a_malformed_official_part_is_an_error(tmp_path, official, msg):
    _write(tmp_path, "misc.json", [_good(official=official)])
    with pytest.raises(RulebaseError, match=re.escape(msg)):
        load_rulings(tmp_path)


def test_any_rulings_file_in_the_folder_is_read(tmp_path):
    # files other helpers add (official.json, sheet_rules.json, powers.json) load like the rest
    _write(tmp_path, "official.json", [_good(id="a-rule", topic="official", official={
        "answer": "Yes, in every edition.", "source": "Steve Jackson Games, FAQ"})])
    _write(tmp_path, "sheet_rules.json", [_good(id="b-rule", topic="sheet-rules")])
    _write(tmp_path, "powers.json", [_good(id="c-rule", topic="powers")])
    assert {r["id"] for r in load_rulings(tmp_path)} == {"a-rule", "b-rule", "c-rule"}
    _write(tmp_path, "powers.json", [_good(id="c-rule", topic="sheet-rules")])
    with pytest.raises(RulebaseError, match="does not match its file powers.json"):
        load_rulings(tmp_path)


# ---------------------------------------------------------------- ranking by the table's edition

def _holds(rec, edition, official=False):
    return rb.applies(rec, edition, official)


def test_a_classic_table_asking_about_curses_in_a_fight_gets_a_classic_ruling_first():
    for q in ("can someone curse me during a fight", "curse during combat",
              "can i get cursed in the middle of my fight"):
        hits = search(q, edition="classic", limit=3)
        assert hits[0]["id"] == "curse-anytime", (q, [h["id"] for h in hits])
        assert "classic" in hits[0]["editions"]


def test_rulings_that_hold_at_the_table_rank_above_those_that_do_not():
    from companion.rulebase.search import score_all
    # the same question scored with and without an edition: a ruling of that edition never
    # drops below one that is not, unless it scored under half as much without the edition
    for q in ("curse in a fight", "run away from two monsters", "can my helper leave the fight",
              "sell items for a level", "how many big items"):
        plain = {r["id"]: s for s, r in score_all(q)}
        for ed in EDITIONS:
            ranked = [r for _, r in score_all(q, ed)]
            for i, hi in enumerate(ranked):
                for lo in ranked[i + 1:]:
                    if _holds(lo, ed) and not _holds(hi, ed) and rb.official_for(hi, ed) is None:
                        assert plain[hi["id"]] > 2 * plain[lo["id"]], (q, ed, hi["id"], lo["id"])


def test_a_table_that_follows_the_official_rulings_gets_them_ranked_as_its_own():
    q = "the only monster was charmed is the fight over"

    def rank(official):
        ids = [r["id"] for r in search(q, edition="classic", limit=20, official_updates=official)]
        return ids.index("fight-ends-last-monster-removed")
    assert rank(True) <= rank(False)
    assert rank(True) < 3


# ---------------------------------------------------------------- the pages know the game

def _official_table(client, edition="classic"):
    from .helpers import ApiTable

    table = ApiTable(client, edition)
    table.act("host", {"type": "set_variant", "variant": "official_updates", "on": True})
    return table


def test_the_arbiter_opened_from_a_game_uses_its_edition_and_official_choice(client):
    table = _official_table(client)
    body = client.get(f"/api/rules?q=is+the+fight+over+when+the+only+monster+is+charmed&game={table.code}").get_json()
    assert body["edition"] == "classic" and body["official_updates"] is True and body["game"] == table.code
    hit = next(r for r in body["rulings"] if r["id"] == "fight-ends-last-monster-removed")
    assert [a["kind"] for a in hit["answers"]] == ["official", "printed"]
    # a table on the printed rules sees the printed answer first
    from .helpers import ApiTable

    plain = ApiTable(client, "classic")
    hit = client.get(f"/api/rules/fight-ends-last-monster-removed?game={plain.code}").get_json()
    assert [a["kind"] for a in hit["answers"]] == ["printed", "official"]
    # the ruling page shows both, in the table's order, each with its source
    page = client.get(f"/rules/fight-ends-last-monster-removed?game={table.code}").get_data(as_text=True)
    assert page.index('data-kind="official"') < page.index('data-kind="printed"')
    assert "Two Munchkin Rule Changes" in page and "Not in the classic Munchkin rulebook" in page


def test_the_rules_pages_link_back_to_the_game_and_carry_it_on(client):
    table = _official_table(client, "oz")
    page = client.get(f"/rules?q=curse&game={table.code}").get_data(as_text=True)
    assert f'id="back-to-game" href="/games/{table.code}"' in page
    links = re.findall(r'href="(/rules[^"]*)"', page)
    assert links and all(f"game={table.code}" in link for link in links), links
    assert f'name="game" value="{table.code}"' in page  # the question form keeps it too
    ruling = client.get(links[0].replace("&amp;", "&")).get_data(as_text=True)
    assert f'href="/games/{table.code}"' in ruling
    assert f"game={table.code}" in re.search(r'href="(/rules[^"]*)">', ruling.split('id="ruling"')[1]).group(1)
    # opened from a game page without ?game=: the Referer names the game
    page = client.get("/rules/charity", headers={"Referer": f"http://localhost/games/{table.code}"})
    assert f'href="/games/{table.code}"' in page.get_data(as_text=True)


def test_a_bad_or_foreign_game_reference_is_ignored(client):
    for ref in ("?game=NOSUCH", "?game=%3Cscript%3E", "?game=../../etc", "?game="):
        r = client.get("/rules/charity" + ref)
        assert r.status_code == 200
        assert "back-to-game" not in r.get_data(as_text=True)
    r = client.get("/rules/charity", headers={"Referer": "http://evil.example/games/ABCDEF"})
    assert "back-to-game" not in r.get_data(as_text=True)
    assert client.get("/api/rules?q=charity&game=NOSUCH").get_json()["game"] is None
