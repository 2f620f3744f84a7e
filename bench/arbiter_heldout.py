"""How well the arbiter answers questions players really asked, per language.

    .venv/bin/python bench/arbiter_heldout.py [--show-misses]

``bench/arbiter_heldout.json`` holds questions players wrote on forums and FAQs (German,
Russian, Polish, French), each with the rulings that answer it. The set is held out: nothing in
the arbiter (keywords, synonyms, stop words) is tuned on it, so the score says how the arbiter
meets questions it has not seen. Prints, per language, how often an answering ruling is first
and in the first three (``rulebase.search``, the arbiter's own ranking, for a classic table).
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion import rulebase  # noqa: E402


def main() -> None:
    data = json.loads((ROOT / "bench" / "arbiter_heldout.json").read_text(encoding="utf-8"))
    show = "--show-misses" in sys.argv
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # asked, first, top three
    for item in data["questions"]:
        found = [r["id"] for r in rulebase.search(item["q"], "classic", limit=3, lang=item["lang"])]
        wanted = set(item["answers"])
        counts = tally[item["lang"]]
        counts[0] += 1
        counts[1] += bool(found[:1] and found[0] in wanted)
        counts[2] += bool(wanted & set(found))
        if show and not wanted & set(found):
            print(f"  miss [{item['lang']}] {item['q']!r}: got {found}, wanted {sorted(wanted)}")
    print(f"{'lang':<5} {'asked':>5} {'top-1':>7} {'top-3':>7}")
    for lang in sorted(tally):
        asked, first, three = tally[lang]
        print(f"{lang:<5} {asked:>5} {first / asked:>7.0%} {three / asked:>7.0%}")


if __name__ == "__main__":
    main()
