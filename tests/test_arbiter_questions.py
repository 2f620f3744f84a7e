"""The arbiter finds the right ruling for questions worded the way players word them.

Each case is (question as typed at the table, expected ruling id, edition of the game or None).
At least 95% of the 200 questions must have their ruling among the first three results (the
search is tuned with general synonyms and edition ranking, never for one of these strings).
"""

from __future__ import annotations

from collections import Counter

from companion.rulebase import get_ruling, search

QUESTIONS = [
    # levels and winning
    ("can i sell stuff to hit level 10", "level-ten-needs-kill", None),
    ("can i use a go up a level to win", "level-ten-needs-kill", "tails"),
    ("gual for the winning level??", "level-ten-needs-kill", None),
    ("can i ding to 10 by selling gear", "level-ten-needs-kill", "oz"),
    ("can a curse put me below level 1", "level-minimum", None),
    ("lvl 0 possible", "level-minimum", None),
    ("how many levels for killing 2 monsters", "kill-levels", None),
    ("can i play go up a level on my friend during a fight", "go-up-a-level-anytime", None),
    ("we both hit 10 on the same kill who wins", "winning-level-shared-kill", "classic"),
    ("divine intervention win", "divine-intervention", "classic"),
    ("somebody reached level 10 do we keep playing", "game-over", None),
    # helping and bribes
    ("does my helper get a level", "helper-no-level", None),
    ("helpr gets lvl?", "helper-no-level", "oz"),
    ("how many ppl can help me", "helper-limit", None),
    ("can 2 players help me fight", "helper-limit", None),
    ("does an elf get a level for helping", "elf-helper-levels", "classic"),
    ("i got forced to help and now its the winning fight can i leave", "forced-helper-may-leave", "tails"),
    ("i agreed to help but he's gonna win can i back out", "voluntary-helper-stays", "tails"),
    ("what can i offer to get help", "bribe-offer", None),
    ("can i pay someone with treasure to help", "bribe-offer", None),
    ("promise more treasure than the monster has", "bribe-treasure-limit", None),
    ("monster gets +4 vs my helpers class does it count", "monster-effects-helper", None),
    ("face up or face down treasure when helped", "treasure-face-up-with-help", None),
    ("i just died can i help the next guy", "dead-cannot-help", None),
    ("if i help someone hit 10 do i win too", "shared-victory", "tails"),
    # combat
    ("what happens on a tie", "monsters-win-ties", None),
    ("tied with the monster who wins", "monsters-win-ties", "oz"),
    ("do warriors win ties", "warrior-wins-ties", "classic"),
    ("charmed the monster do i get treasure", "defeat-without-kill", None),
    ("can i potion someone elses fight", "one-shot-either-side", None),
    ("fight one monster and run from the other", "eliminate-one-run-other", None),
    ("can i swap my weapon mid fight", "no-equip-in-combat", None),
    ("switch helmets during combat", "no-equip-in-combat", None),
    ("can i fight a monster on someone elses turn", "fight-own-turn", None),
    # running away
    ("runaway", "run-away-roll", None),
    ("what do i need to roll to flee", "run-away-roll", None),
    ("escpae roll", "run-away-roll", None),
    ("running from 2 monsters", "flee-each-monster", None),
    ("do me and my helper both have to run", "flee-both", None),
    ("if i die to the first monster do i roll for the second", "dead-no-more-running", "oz"),
    ("sacrifice ally to escape", "ally-sacrifice-escape", "oz"),
    # items
    ("2 big items as dwarf?", "big-item-limit", "classic"),
    ("can i carry two big things", "big-item-limit", "oz"),
    ("big stuff limit", "big-item-limit", None),
    ("can i wear two hats", "equip-slot-limit", None),
    ("how many weapons can i hold", "equip-slot-limit", None),
    ("can i use a wizard only item if im not a wizard", "item-user-restriction", None),
    ("class only item on someone else", "item-user-restriction", None),
    ("can i just throw away an item", "no-item-discard", "tails"),
    ("is a no value card an item", "no-value-is-item", None),
    # trading and selling
    ("trade with someone whos in a fight", "no-trade-in-combat", None),
    ("can i trade cards from my hand", "trade-items-only", None),
    ("sell 1500 gold do i get change", "sell-no-change", None),
    ("whats a no value item worth when selling", "sell-no-value", None),
    ("can i sell on someone elses turn", "sell-own-turn", None),
    ("sell items mid combat", "sell-not-in-combat", None),
    ("can i give my stuff to another player", "give-items-only", None),
    # races and classes
    ("can i be an elf and a dwarf", "race-limit", "classic"),
    ("two classes at once", "class-limit", None),
    ("super munchkin with only one class", "super-munchkin-needs-class", "oz"),
    ("half breed with one race do i get the bad stuff of the race", "single-race-no-drawbacks", "tails"),
    ("halfbreed without a race card", "half-breed-needs-race", "tails"),
    ("are there races in oz", "no-races-in-edition", "oz"),
    ("can i quit my class in the middle of a fight", "discard-anytime", None),
    ("two copies of the same class card", "no-duplicate-card", None),
    # monsters and curses
    ("plural named monster is it many monsters", "monster-plural-single", None),
    ("winged monkeys count as one monster?", "monster-plural-single", "oz"),
    ("mate and enhancers", "mate-copies-enhancers", "classic"),
    ("which monster gets my enhancer", "enhancer-choose-monster", None),
    ("can i add my wolf to his wolf fight", "grouping-monsters", "russia"),
    ("undead join fight without wandering monster", "grouping-monsters", "spell-skool"),
    ("lose your armor curse but i have no armor", "curse-nothing-to-affect", None),
    ("next combat curse played during my fight", "curse-next-fight", "tails"),
    ("does the curse stay on me", "curse-lasting", None),
    ("who picks which item a curse takes", "curse-victim-chooses", None),
    # death and charity
    ("what do i keep when i die", "dead-keeps", None),
    ("looting a body", "death-looting", None),
    ("how does looting the corpse work", "death-looting", None),
    ("can a dead guy get charity", "dead-no-cards", "oz"),
    ("how many cards can i hold", "hand-limit", None),
    ("too many cards end of turn", "charity", None),
    ("chairty split between two lowest players", "charity-split", None),
    ("do oligarchs get charity first", "charity-oligarchs", "russia"),
    ("how many cards when i come back from dying", "dead-redraw", None),
    # allies, variants, setup
    ("how many allies can i have", "ally-limit", "oz"),
    ("can i use allies", "no-allies-in-edition", "classic"),
    ("what is listen at the door", "listen-at-the-door", "tails"),
    ("faster play rules classic", "faster-play-classic", "classic"),
    ("how many players", "player-count", None),
    ("can we play with 2 players", "player-count", "spell-skool"),
    ("card says something different than the rules", "cards-override-rules", None),
    # more, as typed at the table
    ("what happens when i die", "dead-keeps", None),
    ("can i put on boots during a fight", "no-equip-in-combat", None),
    ("does a curse work if i dont have the item", "curse-nothing-to-affect", None),
    ("gear trade mid battle", "no-trade-in-combat", None),
    ("i want to give my sword to ann", "give-items-only", None),
    ("monster is stronger than me what now", "cant-win-options", None),
    ("can i refuse to help", "helper-may-refuse", None),
    ("my hand is full", "hand-limit", None),
    ("do i need to kill to win", "level-ten-needs-kill", None),
    ("tie goes to who", "monsters-win-ties", None),
    ("can a class card be traded", "trade-items-only", None),
    ("can someone else bribe my helper", "bribe-fighter-only", None),
    # the publisher's FAQ topics and more, as typed at the table (typos and slang kept)

    # class and race powers
    ("can my wizard charm both monsters", "wizard-charm-one-monster", "classic"),
    ("charm spell with two monsters in the fight", "wizard-charm-one-monster", "oz"),
    ("do i get treasure if i charm the monster", "wizard-charm-one-monster", "tails"),
    ("how many times can a thief steal per turn", "thief-steal-how-often", "classic"),
    ("thief keeps stealing all my stuff is there a limit", "thief-steal-how-often", "tails"),
    ("can the thief steal while im fighting", "thief-no-steal-in-combat", "tails"),
    ("warrior berserk twice vs 2 monsters", "warrior-berserk-once", "classic"),
    ("berserk once per monster or once per fight", "warrior-berserk-once", "tails"),
    ("can i discard my wizard card to pay for charm", "discard-to-power", "classic"),
    ("which cards can i toss for my class power", "discard-to-power", None),
    ("can i use a curse in front of me to pay for my ability", "discard-to-power", "oz"),
    ("elf helps me and we both hit 10", "elf-helper-winning-level", "classic"),
    ("can an elf win by helping", "elf-helper-winning-level", "classic"),
    ("divine intervention who gets the level", "divine-intervention", "classic"),
    ("does divine intervention level up everyone", "divine-intervention", "classic"),
    ("can i be a warrior and a wizard", "class-limit", "tails"),
    ("can i ditch my race card mid combat", "discard-anytime", "tails"),
    ("when can i put down a new class", "play-class-timing", None),
    ("im a dwarf how many cards can i keep", "hand-limit", "classic"),
    ("does a warrior helper make us win ties", "warrior-wins-ties", "tails"),
    # card types
    ("is go up a level an item", "item-needs-value", None),
    ("can i sell a go up a level card", "item-needs-value", "oz"),
    ("which cards are door cards", "card-kinds", None),
    ("whats the difference between door and treasure cards", "card-kinds", None),
    ("can i leave a potion on the table for later", "one-shot-on-table", "tails"),
    ("play my one shot to the table", "one-shot-on-table", "russia"),
    ("can i sell my potion", "one-shot-sell", "spell-skool"),
    ("how does cheat work", "cheat-card", None),
    ("cheat card on a second helmet", "cheat-card", "oz"),
    ("what does the cheat! card do", "cheat-card", "tails"),
    ("is a card with no value still an item", "no-value-is-item", "russia"),
    ("do cards in my hand give bonuses", "hand-not-in-play", None),
    ("can i pick up my item back into my hand", "cards-in-play-stay", None),
    # curses and their timing
    ("can i curse myself", "curse-self", None),
    ("play a monster on myself for more levels", "curse-self", "tails"),
    ("can i throw a wandering monster into my own fight", "curse-self", "oz"),
    ("can someone curse me during a fight", "curse-anytime", "classic"),
    ("curse during combat", "curse-anytime", "classic"),
    ("someone cursed me right after i won", "wait-reasonable-time", None),
    ("next turn curse played on my turn", "curse-next-fight", "oz"),
    ("does chicken on my head go away when i die", "curse-death-persists", "classic"),
    ("do curses stay after you die", "curse-death-persists", "tails"),
    ("can i discard the curse in front of me", "curse-kept-not-discardable", None),
    ("how do i get rid of a curse that stays", "curse-kept-not-discardable", "spell-skool"),
    ("lose an item curse can it take a card from my hand", "curse-hits-table-not-hand", None),
    ("are items in my hand safe from bad stuff", "curse-hits-table-not-hand", "classic"),
    ("drew a curse when kicking the door", "curse-from-door", None),
    ("curse says lose your headgear which hat do i lose", "curse-victim-chooses", None),
    ("curse says lose a level but im level 1", "level-minimum", "spell-skool"),
    # combat
    ("monster wont pursue anyone level 3 or lower", "will-not-pursue", "classic"),
    ("the dragon will not pursue low level players do i still roll", "will-not-pursue", "oz"),
    ("do i have to use all my potions", "full-effort-not-required", None),
    ("can i lose on purpose", "full-effort-not-required", None),
    ("when can i swap my gear", "item-swap-timing", None),
    ("can i change my equipment right before the fight", "item-swap-timing", "russia"),
    ("can i unequip my sword after a curse is played on me", "item-swap-timing", "tails"),
    ("only monster got charmed can someone add a wandering monster now", "fight-ends-last-monster-removed", "tails"),
    ("killed the only monster with a card is combat over", "fight-ends-last-monster-removed", "classic"),
    ("forced to help someone win can i bail", "forced-helper-may-leave", "classic"),
    ("can a card force me to help in the winning fight", "forced-helper-may-leave", "oz"),
    ("what if we both have the same strength as the monster", "monsters-win-ties", "russia"),
    ("how do i add up my combat strength", "combat-strength", None),
    ("do i level up right when the monster dies", "no-rewards-mid-combat", None),
    ("can someone still play cards after i won", "wait-reasonable-time", "oz"),
    ("i have to fight the monster from the door?", "monster-must-fight", None),
    ("no monster behind the door now what", "look-for-trouble", None),
    ("can i fight 2 monsters one after another", "one-fight-at-a-time", None),
    ("can anyone enhance the monster", "enhancer-anyone", None),
    ("how does wandering monster work", "wandering-monster", None),
    ("do i get levels if the monster is charmed", "defeat-without-kill", "oz"),
    ("if i run do i loot the room", "run-no-loot", None),
    ("what happens if i fail to run away", "bad-stuff", None),
    ("wat does the monster do if it catches me", "bad-stuff", None),
    # turns, setup, general
    ("who starts", "who-goes-first", "tails"),
    ("how many cards do we deal at the start", "starting-cards", "oz"),
    ("what are we at the start of the game", "starting-character", None),
    ("can i end my turn whenever i want", "turn-pass", None),
    ("deck ran out of cards", "deck-runs-out", None),
    ("can i look in the discard pile", "discard-pile-peek", "classic"),
    ("can i dig through the discards for a card", "discard-pile-peek", "tails"),
    ("can i show my cards to others", "show-hand", "russia"),
    ("we argue about a rule who decides", "owner-last-word", None),
    ("can we mix oz and tails cards", "mixing-sets", "oz"),
    # items, selling, trading
    ("can i just discard an item i dont want", "no-item-discard", "oz"),
    ("how do i get rid of junk items", "no-item-discard", "spell-skool"),
    ("can i sell items straight from my hand", "sell-from-hand", None),
    ("can i trade with someone on my turn while im fighting", "no-trade-in-combat", "russia"),
    ("traded item can i put it in my hand", "trade-received-stays", None),
    ("no longer a dwarf what about my big items", "lose-big-item-ability", "classic"),
    ("discard my big item to play a new one", "big-item-swap", "oz"),
    ("can i trade my ally", "ally-no-trade", "oz"),
    ("can i play an ally in the middle of a fight", "ally-anytime", "oz"),
    # death, help
    ("i died can my friends take my stuff", "death-looting", None),
    ("after dying who picks cards first", "death-looting", "tails"),
    ("who draws the treasure when i had help", "helper-treasure-draw", "spell-skool"),
    ("can the helper play the loot right away", "helper-plays-treasure", "tails"),
    ("can i help myself with my own second character", "helper-not-fighter", None),
    # Spell Skool and Russia tables
    ("can i be in two clubs at once", "no-super-munchkin-in-edition", "spell-skool"),
    ("can i join the sports club in the middle of combat", "discard-anytime", "spell-skool"),
    ("can i throw my zombie into his undead fight", "grouping-monsters", "spell-skool"),
    ("how many ppl can play spell skool", "player-count", "spell-skool"),
    ("my club item doesnt work for my club", "item-user-restriction", "spell-skool"),
    ("the oligarch takes charity first?", "charity-oligarchs", "russia"),
    ("can granny join another granny fight", "grouping-monsters", "russia"),
    ("super munchkin on a single class russia", "super-munchkin-needs-class", "russia"),
    ("can i be an elf in munchkin russia", "no-races-in-edition", "russia"),
    ("sell stuff during my fight for a lvl", "sell-not-in-combat", "russia"),
]

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


# Issue 24: the misses of the second set of real questions, asked as they are typed on a phone.
# Each must find its ruling among the first three, every one (not 95%): these are the rulings
# added for them. (question, ruling, edition of the game or None)
ROUND_THREE = [
    # the three the issue names
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
    # the ranking fixes brought the misses from five down to two
    misses = [q for q, rid, ed in QUESTIONS
              if rid not in [r["id"] for r in search(q, edition=ed, limit=3)]]
    assert len(misses) <= 2, misses
