"""Messages that agree with the player: one form of address per language (the
familiar one), and no "(ла)" endings in Russian and Ukrainian (sentences are worded so nothing
agrees with the player's sex, and names stay in the nominative)."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from companion import ROOT


def _strings(lang):
    with (ROOT / "companion" / "translations" / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    for m in catalog:
        if m.id and m.string:
            yield m.id, (m.string if isinstance(m.string, (tuple, list)) else (m.string,))


# The polite or plural address, when one player is spoken to. "one of you" (several players)
# is plural on purpose.
POLITE = {
    # вы and its cases; imperatives in -ите/-йте/-ьте, also reflexive (проверьте, бросьте,
    # коснитесь, присоединитесь); present tense in -ете/-ёте, also reflexive (играете, можете,
    # идёте, пошлёте, смываетесь). Not nouns in the prepositional case that end the same way
    # (в предмете, пакете, полёте, совете, отчёте, приоритете, на монете, пулемёте, тёте):
    # they are told apart by what precedes -ете.
    "ru": re.compile(r"\b(вы|вас|вам|ваш\w*|вами)\b"
                     r"|\b\w+(ите|йте|ьте)(сь)?\b"
                     r"|\b(?!т[её]те\b)"
                     r"(?!\w*([^ш]л|к|ф|б|и|тч|сч|уч|зач|[аео]м|предм|ком|отв|сов|св|цв|прив|зав"
                     r"|план|мон|кабин|интерн|кларн|портр|секр|декр|запр|бюдж|сюж|касс|корс|газ|ит"
                     r"|каст|кварт)"
                     r"[её]те\b)\w+(ете|ёте)(сь)?\b", re.I),
    "de": re.compile(r"\b(euer|eure\w*)\b|\bEntfernt\b"),
    "es": re.compile(r"\b(usted\w*|vuestr\w*)\b", re.I),
    # vous/votre/vos; 2nd-plural verbs in -ez (imperatives "Choisissez", "pouvez", "devriez")
    # and êtes/faites/dites. Not "chez", "assez", "nez", nor the card "Gagnez un niveau"
    # (Go Up a Level: its printed French name, used by the rulings too).
    "fr": re.compile(r"\b(vous|votre|vos|êtes|faites|dites)\b"
                     r"|\b(?!(chez|assez|nez)\b|gagnez un niveau\b)\w+ez\b", re.I),
    "it": re.compile(r"\b(vostr\w*)\b", re.I),
    "pl": re.compile(r"\b(wasz\w*)\b|\b(skończcie|rozstrzygnijcie|uciekajcie)\b", re.I),
    # ви and its cases; imperatives in -іть/-йте/-ьте (натисніть, додайте, киньте, also
    # reflexive торкніться, змивайтеся); present tense in -єте/-ете/-ите/-їте (маєте, можете,
    # просите, б'єтеся). Not "навіть", nor participles like "відкрите".
    "uk": re.compile(r"\b(ви|вас|вам|ваш\w*|вами)\b"
                     r"|\b(?!навіть\b)\w[\w'ʼ’]*(іть|йте|ьте)(ся|сь)?\b"
                     r"|\b(?!\w*крите\b)\w[\w'ʼ’]*(єте|ете|ите|їте)(ся|сь)?\b", re.I),
}
PLURAL_ON_PURPOSE = {"one of you is in a fight"}


@pytest.mark.parametrize("lang", sorted(POLITE))
def test_one_player_is_spoken_to_familiarly(lang):
    wrong = [(mid, s) for mid, strings in _strings(lang) if mid not in PLURAL_ON_PURPOSE
             for s in strings if POLITE[lang].search(s)]
    assert not wrong, f"{lang}: {wrong[:5]}"


def _plain_strings(path, lang):
    """Strings without a msgctxt: those with one ("female", "male") are gendered on purpose."""
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    for m in catalog:
        if m.id and m.string and not m.context:
            yield m.id, (m.string if isinstance(m.string, (tuple, list)) else (m.string,))


def _la_endings(path, lang):
    return [(mid, s) for mid, strings in _plain_strings(path, lang) for s in strings
            if re.search(r"\w\((ла|а)\)", s)]


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_no_la_endings(lang):
    wrong = _la_endings(ROOT / "companion" / "translations" / lang / "LC_MESSAGES" / "messages.po", lang)
    assert not wrong, f"{lang}: {wrong[:5]}"
