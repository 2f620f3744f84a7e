"""The card schema the catalog checks its files against: the engine's
(``companion.engine.card_schema``), since a card's facts are said in the engine's words."""

from companion.engine.card_schema import *  # noqa: F401,F403
from companion.engine.card_schema import __all__  # noqa: F401
