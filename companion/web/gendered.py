"""Messages whose words agree with a player's sex, and the catalogs that say them so.

The engine puts the player's ``sex`` ("female"/"male") into the params of such a said or event
(``engine.words``); ``companion.web.words`` then looks its translation up in that gettext
context (``pgettext("female", msgid)``) and falls back to the plain translation where the
catalog has none: the plain one is the masculine form in French, Spanish, Italian and
Portuguese, so those need only "female"; Polish, Russian and Ukrainian have both, and their
plain translation (for an event older than the ``sex`` param) stays worded around the sex.
German and English need nothing. ``docs/TRANSLATING.md`` tells translators how to write them.

``G_``/``NG_`` mark the entries for extraction (babel.cfg: ``G_:1c,2`` and ``NG_:1c,2,3``), so
``pybabel extract`` and ``update`` keep the context entries in every catalog. Each maps to the
catalogs that translate it; ``tests/test_gender_agreement.py`` checks both ways.
"""

from __future__ import annotations


def G_(context: str, msgid: str) -> tuple[str, str]:
    """Marks ``msgid``'s translation in ``context`` for extraction."""
    return context, msgid


def NG_(context: str, singular: str, plural: str) -> tuple[str, str]:
    """Marks a counted message's translation in ``context`` (the singular is its key)."""
    return context, singular


# (context, msgid) -> the languages whose catalogs translate it in that context.
GENDERED: dict[tuple[str, str], str] = {
    # Death: French morte, Italian morta; Russian погиб/погибла, Ukrainian загинув/загинула
    # (the name is the subject, so it stays in the nominative).
    G_("female", "%(name)s is dead: a new character appears when the next player's "
                 "turn begins."): "fr it ru uk",
    G_("male", "%(name)s is dead: a new character appears when the next player's "
               "turn begins."): "ru uk",
    G_("female", "%(name)s is dead until the next turn"): "fr it ru uk",
    G_("male", "%(name)s is dead until the next turn"): "ru uk",
    G_("female", "%(name)s is dead until their next turn"): "fr it ru uk",
    G_("male", "%(name)s is dead until their next turn"): "ru uk",
    G_("female", "%(name)s is dead and stays at level %(level)s"): "fr it ru uk",
    G_("male", "%(name)s is dead and stays at level %(level)s"): "ru uk",
    G_("female", "%(name)s is dead and runs from nothing more"): "fr it ru uk",
    G_("male", "%(name)s is dead and runs from nothing more"): "ru uk",
    G_("female", "%(name)s is already dead; a new character appears when the next "
                 "player's turn begins."): "fr it ru uk",
    G_("male", "%(name)s is already dead; a new character appears when the next "
               "player's turn begins."): "ru uk",
    # How a lost fight ended: French rattrapée, échappée; Italian presa, scappata.
    G_("female", "%(name)s was caught by %(cards)s and died"): "fr it",
    G_("female", "%(name)s died"): "fr it",
    # Forced help: French forcée, Spanish obligada, Italian costretta, Portuguese obrigada/forçada.
    G_("female", "this fight would give %(fighter)s the winning level, so %(name)s "
                 "cannot be made to help"): "fr it pt_BR",
    G_("female", "%(name)s was made to help and may back out only once the fight would "
                 "give the winning level"): "fr it pt_BR",
    G_("female", "%(name)s helps %(fighter)s (forced by a card)"): "es fr it pt_BR",
    G_("female", "%(name)s was made to help in a fight for the win, which does not "
                 "count, so runs from nothing"): "fr it pt_BR ru uk",
    G_("male", "%(name)s was made to help in a fight for the win, which does not "
               "count, so runs from nothing"): "ru uk",
    # Caught while running away, cursed, caught stealing.
    G_("female", "%(name)s rolls %(roll)s against %(monster)s (needs %(needs)s): "
                 "caught, unless a second try rolls again"): "fr it",
    # Caught while running away, cursed, caught stealing.
    G_("female", "%(name)s rolls %(roll)s against %(monster)s (needs %(needs)s): "
                 "caught! %(bad_stuff)s"): "fr it",
    G_("female", "%(name)s was caught by %(cards)s"): "fr it",
    G_("female", "%(name)s got away"): "fr it",
    G_("female", "%(name)s is cursed: %(card)s"): "fr it",
    G_("female", "rolls %(roll)s (needs %(needs)s): caught, level %(old)s to %(new)s"): "fr it pt_BR",
    # French "seule Anne", "devant elle"; Polish dodał/dodała.
    G_("female", "Only %(name)s or the host can do that for %(name)s."): "fr",
    G_("female", "Only %(name)s or the host can put cards in front of %(name)s."): "fr",
    G_("female", "%(name)s added %(card)s: only %(name)s or the host takes it off the "
                 "table"): "fr pl ru uk",
    G_("male", "%(name)s added %(card)s: only %(name)s or the host takes it off the "
               "table"): "pl ru uk",
    G_("female", "during a fight only %(turn)s, whose turn it is, may play a new race "
                 "or class"): "fr",
    G_("female", "%(name)s has no card %(instance)s in front of them."): "fr",
    G_("female", "receive cards: none played in front of them, no gifts, no Charity"): "fr ru uk",
    NG_("female", "on their next turn they draw %(n)s card from each deck",
        "on their next turn they draw %(n)s cards from each deck"): "fr",
    # Russian должен/должна.
    G_("female", "%(name)s must first discard an item for %(monster)s"): "ru",
    G_("female", "%(name)s must first sell the Big items over the limit or give them away"): "ru",
    # Past tenses that the Polish, Russian and Ukrainian catalogs had worded around or
    # written with "(ла)": sprzedał/sprzedała, продал/продала, продав/продала.
    G_("female", "%(name)s already sold an item at double price this turn"): "pl ru uk",
    G_("male", "%(name)s already sold an item at double price this turn"): "pl ru uk",
    G_("female", "%(name)s already rolled against that monster"): "pl ru uk",
    G_("male", "%(name)s already rolled against that monster"): "pl ru uk",
    G_("female", "%(name)s already used %(power)s in this fight"): "pl ru uk",
    G_("male", "%(name)s already used %(power)s in this fight"): "pl ru uk",
    NG_("female", "%(name)s already discarded %(n)s card for it in this fight; at most "
                  "%(most)s",
        "%(name)s already discarded %(n)s cards for it in this fight; at most "
        "%(most)s"): "pl ru uk",
    NG_("male", "%(name)s already discarded %(n)s card for it in this fight; at most "
                "%(most)s",
        "%(name)s already discarded %(n)s cards for it in this fight; at most "
        "%(most)s"): "pl ru uk",
    G_("female", "%(name)s already used %(power)s on %(target)s in this fight"): "pl ru uk",
    G_("male", "%(name)s already used %(power)s on %(target)s in this fight"): "pl ru uk",
    G_("female", "%(name)s already used %(power)s for that roll"): "pl ru uk",
    G_("male", "%(name)s already used %(power)s for that roll"): "pl ru uk",
    G_("female", "%(name)s has taken the Bad Stuff of %(monster)s by hand"): "pl",
    G_("male", "%(name)s has taken the Bad Stuff of %(monster)s by hand"): "pl",
}

# The msgids some catalog translates by sex.
MSGIDS = frozenset(msgid for _, msgid in GENDERED)
