"""The arbiter finds the right ruling for questions worded the way players word them.

Each case is (question as typed at the table, expected ruling id, edition of the game or None).
At least 95% of the 200 questions must have their ruling among the first three results (the
search is tuned with general synonyms and edition ranking, never for one of these strings).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from companion import rulebase
from companion.rulebase import get_ruling, search

# The player questions (``companion/rulebase/questions.json``: the arbiter's yardstick, read by
# bench/search.py too): (question as typed, expected ruling id, edition or None).
QUESTIONS = [(q["question"], q["ruling"], q["edition"]) for q in
             json.loads((Path(rulebase.__file__).parent / "questions.json").read_text(encoding="utf-8"))]


def test_two_hundred_questions_across_the_editions():
    assert len(QUESTIONS) >= 200
    assert len({q for q, _, _ in QUESTIONS}) == len(QUESTIONS), "a question is listed twice"
    for q, rid, ed in QUESTIONS:
        assert get_ruling(rid) is not None, rid
    per_edition = Counter(ed for _, _, ed in QUESTIONS)
    for ed in ("classic", "oz", "spell-skool", "russia", "tails", None):
        assert per_edition[ed] >= 8, (ed, per_edition[ed])


def test_at_least_95_percent_find_their_ruling_in_the_top_three():
    misses = []
    for question, expected, edition in QUESTIONS:
        got = [r["id"] for r in search(question, edition=edition, limit=3)]
        if expected not in got:
            misses.append(f"{question!r} ({edition}): want {expected}, got {got}")
    assert len(misses) <= len(QUESTIONS) * 0.05, "\n".join(misses)


# The misses of the second set of real questions, asked as they are typed on a phone.
# Each must find its ruling among the first three, every one (not 95%): these are the rulings
# added for them. (question, ruling, edition of the game or None)
ROUND_THREE = [
    # three rulings, each asked three or four ways
    ("can i take off my boots before the curse hits", "curse-no-swap", None),
    ("lose footgear curse can i swap shoes first", "curse-no-swap", "classic"),
    ("cursed lose headgear can i unequip my hat quick", "curse-no-swap", "tails"),
    ("can i switch armor when someone curses me", "curse-no-swap", "oz"),
    ("can i sell stuff before charity", "charity-sell-first", None),
    ("too many cards can i sell some instead of giving them away", "charity-sell-first", "tails"),
    ("end of turn 8 cards can i sell items from hand to get to 5", "charity-sell-first", "classic"),
    ("can i give bob my sword so he wont help ann", "give-items-against-help", None),
    ("can i bribe someone NOT to help", "give-items-against-help", "oz"),
    ("pay a player to not help the fighter", "give-items-against-help", "spell-skool"),
    # the fine points of powers
    ("what can resurrection replace", "cleric-resurrection-face-up", "classic"),
    ("cleric resurrection on loot the room?", "cleric-resurrection-face-up", "classic"),
    ("can my cleric take from the discard pile instead of kicking the door", "cleric-resurrection-face-up", "classic"),
    ("what happens if my thief fails to steal", "thief-theft-failed", "classic"),
    ("failed theft roll", "thief-theft-failed", None),
    ("thief rolled a 2 on steal now what", "thief-theft-failed", "classic"),
    ("flight spell before or after the roll", "wizard-flight-timing", "classic"),
    ("when do i discard for flight", "wizard-flight-timing", None),
    ("wizard failed run roll can i still use flight", "wizard-flight-timing", "classic"),
    ("half breed one race classic drawbacks", "half-breed-single-race-classic", "classic"),
    ("halfbreed with just elf do i keep elf downsides", "half-breed-single-race-classic", "classic"),
    # card-level questions
    ("does the wishing ring stop a curse", "wishing-ring-curse", "classic"),
    ("wishing ring vs curse", "wishing-ring-curse", None),
    ("can i use wishing ring on chicken on my head", "wishing-ring-curse", "classic"),
    ("are the 3872 orcs one monster", "monster-plural-single", "classic"),
    ("wight brothers count as 2 monsters?", "monster-plural-single", "classic"),
    ("is the fighting trees one monster or more", "monster-plural-single", "oz"),
    ("card says food what counts", "card-food", "spell-skool"),
    ("does food mean real food", "card-food", None),
    # the monsters whose card rules the fight now applies, and a card's type
    ("can anyone help me vs gazebo", "monster-no-help", "classic"),
    ("insurance salesman does my level count", "monster-level-ignored", "classic"),
    ("tongue demon do i lose an item", "monster-discard-item-first", "classic"),
    ("how to escape pit bull", "monster-drop-to-escape", "classic"),
    ("chicken killed with fire extra level?", "monster-extra-levels", "classic"),
    ("pukachu bonus level", "monster-extra-levels", "classic"),
    ("can i run from the floating nose", "monster-no-escape", "classic"),
    ("do i have to fight the stone golem", "monster-walk-past", "classic"),
    ("is the plutonium dragon undead", "monster-type-on-card", "classic"),
    ("which monsters count as undead", "monster-type-on-card", "spell-skool"),
    # ranking: these came fourth or lower before
    ("forced to help someone win can i bail", "forced-helper-may-leave", "classic"),
    ("can i be a warrior and a wizard", "class-limit", "tails"),
    ("can i join the sports club in the middle of combat", "discard-anytime", "spell-skool"),
    ("who picks which item a curse takes", "curse-victim-chooses", None),
    ("curse says lose your headgear which hat do i lose", "curse-victim-chooses", None),
]

# The same rulings asked in Russian (the Russian index, translations/ru.json).
ROUND_THREE_RU = [
    ("можно снять ботинки до проклятия", "curse-no-swap"),
    ("можно продать шмотки перед благотворительностью", "charity-sell-first"),
    ("кольцо желаний отменяет проклятие?", "wishing-ring-curse"),
    ("отдать шмотку чтобы он не помогал", "give-items-against-help"),
    ("вор не украл что теперь", "thief-theft-failed"),
    ("полёт до броска или после", "wizard-flight-timing"),
    ("воскрешение клирика чистка нычек", "cleric-resurrection-face-up"),
    ("полукровка с одной расой минусы в классике", "half-breed-single-race-classic"),
    ("что значит еда на карте", "card-food"),
    ("можно смыться от летающего носа", "monster-no-escape"),
    ("этот монстр андед?", "monster-type-on-card"),
]


def test_round_three_questions_find_their_ruling_in_the_top_three():
    misses = []
    for question, expected, edition in ROUND_THREE:
        assert get_ruling(expected) is not None, expected
        got = [r["id"] for r in search(question, edition=edition, limit=3)]
        if expected not in got:
            misses.append(f"{question!r} ({edition}): want {expected}, got {got}")
    for question, expected in ROUND_THREE_RU:
        got = [r["id"] for r in search(question, limit=3)]
        if expected not in got:
            misses.append(f"{question!r}: want {expected}, got {got}")
    assert not misses, "\n".join(misses)


def test_the_first_two_hundred_miss_at_most_two():
    # the ranking's fixes brought the misses from five down to two
    misses = [q for q, rid, ed in QUESTIONS
              if rid not in [r["id"] for r in search(q, edition=ed, limit=3)]]
    assert len(misses) <= 2, misses
