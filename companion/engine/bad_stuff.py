"""Bad Stuff as data: what a monster does to a player it catches (docs/ENGINE.md, "Bad Stuff").

A monster's ``bad_stuff.steps`` is a list of steps (``{"do": ..., ...}``, vocabulary in
``vocab.BadStuffDo``); ``bad_stuff.on_flee`` are steps a player it pursues suffers whether the
roll escapes or not. ``caught`` carries the steps out on the caught player and answers the
words of what happened (a said, or the death's own event when death is all there is);
``fled`` does the same for ``on_flee``. A step the app cannot carry out (``manual``: other
players choose, or the victim chooses) leaves a note on the player (``pending_bad_stuff``)
until the table confirms it was done by hand (``confirm_bad_stuff``).

Cards without ``steps`` (older data, house cards) keep their meaning: ``death`` kills,
``levels`` are lost, and a summary with neither is a manual step.

Rulebooks: Munchkin (classic rules), Running Away and Death; Munchkin Oz / Spell Skool /
Tails, Running Away (each monster that catches you does its Bad Stuff at once).
"""

from __future__ import annotations

from typing import Any, Callable

from . import character, sheet
from .core import Context, checks, own, reducer
from .death import kill
from .errors import BadAction
from .hand import add_to_hand
from .state import find_player, next_id
from .words import N_, card_text, event, event_words, said, said_plural

Step = dict[str, Any]
# A step's effect: it appends what happened to ``out`` and answers False when it found
# nothing to take (its ``otherwise`` then happens).
Applier = Callable[["_Run", Step], bool]

# Why a lose_items step took nothing (the curse's words where they exist).
NO_ITEMS = {**sheet.NO_ITEM, "all": sheet.NO_ITEM["any"], "best": sheet.NO_ITEM["any"]}


class _Run:
    """One player suffering one monster's Bad Stuff: the saids so far, and a death if any."""

    def __init__(self, state: dict, player: dict, monster: dict, ctx: Context,
                 roll: int | None = None):
        self.state, self.player, self.monster, self.ctx = state, player, monster, ctx
        self.roll = roll
        self.out: list[Any] = []
        self.death: dict | None = None

    def steps(self, steps: list[Step]) -> None:
        for step in steps:
            if self.death is not None:
                return  # the dead lose everything anyway; nothing more happens to them
            if not character.meets(step.get("if"), self.player, self.ctx.edition):
                continue
            if not APPLIERS[step["do"]](self, step) and step.get("otherwise"):
                self.steps(step["otherwise"])

    # -- the steps ------------------------------------------------------------------------

    def lose_levels(self, step: Step) -> bool:
        self._level_to(self.player["level"] - step["value"])
        return True

    def _level_to(self, level: int) -> None:
        old = self.player["level"]
        self.player["level"] = max(1, min(old, level))  # Bad Stuff never raises a level
        if self.player["level"] == old:  # already at 1 (or the lowest): nothing to lose
            self.out.append(said(N_("the level stays at %(old)s"), old=old))
        else:
            self.out.append(said(N_("level %(old)s to %(new)s"), old=old, new=self.player["level"]))

    def level_to_lowest(self, step: Step) -> bool:
        self._level_to(min(p["level"] for p in self.state["players"]))
        return True

    def roll_levels(self, step: Step) -> bool:
        roll = self.roll if self.roll is not None else self.ctx.rng.randint(1, 6)
        self.out.append(said(N_("the Bad Stuff die shows %(roll)s"), roll=roll))
        if roll <= (step.get("death_at_most") or 0):
            return self.death_step(step)
        self._level_to(self.player["level"] - roll)
        return True

    def lose_items(self, step: Step) -> bool:
        items = character.cards_of(self.player, "item")
        which, tag = step.get("which"), step.get("tag")
        if which == "big":
            items = [e for e in items if e["card"].get("big")]
        elif which == "best":
            counting = {r["iid"] for r in character.item_rows(self.player, self.ctx.edition)
                        if r["counts"]}
            items = sorted(items, key=lambda e: (e["iid"] in counting, e["card"].get("bonus") or 0),
                           reverse=True)[:1]
        elif which not in (None, "all"):  # a slot: what the player wears there
            items = [e for e in items if e.get("equipped")
                     and (e["card"].get("slot") or "other") == which]
        if tag:
            items = [e for e in items if e.get("equipped") and tag in (e["card"].get("tags") or ())]
        if not items:
            self.out.append(said(NO_ITEMS.get(which or "any", NO_ITEMS["any"]),
                                 name=self.player["name"], sex=self.player.get("sex")))
            return False
        self._lose(items)
        return True

    def _lose(self, entries: list[dict]) -> None:
        """Discard cards; a race or class takes Half-Breed or Super Munchkin with it."""
        names = []
        for entry in entries:
            if entry in self.player["cards"]:
                names += [d["card"]["name"] for d in sheet.discard(self.player, entry["iid"],
                                                                    self.ctx.edition)]
        self.out.append(said(N_("%(cards)s discarded"), cards=", ".join(names)))

    def _lose_cards(self, step: Step, kind: str, none: str) -> bool:
        entries = [e for e in character.cards_of(self.player, kind)
                   if not step.get("slug") or character.card_slug(e["card"]) == step["slug"]]
        if not entries:
            self.out.append(said(none, name=self.player["name"], sex=self.player.get("sex")))
            return False
        self._lose(entries)
        return True

    def lose_race(self, step: Step) -> bool:
        return self._lose_cards(step, "race", N_("%(name)s has no race card"))

    def lose_class(self, step: Step) -> bool:
        return self._lose_cards(step, "class", N_("%(name)s has no class card")
                                if self.ctx.edition.class_word == "class"
                                else N_("%(name)s has no club card"))

    def lose_hand(self, step: Step) -> bool:
        count = self.player.get("hand") or 0
        if not count:
            self.out.append(said(N_("%(name)s has no cards in hand"), name=self.player["name"], sex=self.player.get("sex")))
            return False
        self.player["hand"] = 0
        if not step.get("shared"):
            self.out.append(said_plural("%(n)s card from the hand discarded",
                                        "%(n)s cards from the hand discarded", count))
            return True
        # Going round the table from the victim, each other living player takes one card;
        # whatever is left is discarded.
        order = [p["id"] for p in self.state["players"]]
        start = order.index(self.player["id"])
        takers = [find_player(self.state, pid) for pid in order[start + 1:] + order[:start]]
        takers = [p for p in takers if not p["dead"]][:count]
        for taker in takers:
            add_to_hand(taker, 1)
        gifts = [said_plural("%(n)s card to %(to_name)s", "%(n)s cards to %(to_name)s", 1,
                             to=p["id"], to_name=p["name"]) for p in takers]
        self.out.append(said(N_("the hand is shared out: %(gifts)s"), gifts=gifts))
        if count > len(takers):
            self.out.append(said_plural("%(n)s card from the hand discarded",
                                        "%(n)s cards from the hand discarded",
                                        count - len(takers)))
        return True

    def death_step(self, step: Step) -> bool:
        self.death = kill(self.state, self.player, self.ctx)
        return True

    def manual(self, step: Step) -> bool:
        bad = self.monster.get("bad_stuff") or {}
        # ``card``: a catalog card's id, so a page can show its text in the reader's language.
        note = {"id": next_id(self.state), "monster": self.monster.get("name"),
                "card": self.monster.get("id"), "summary": bad.get("summary")}
        self.player.setdefault("pending_bad_stuff", []).append(note)
        self.out.append(card_text(self.monster, "bad_stuff", bad["summary"]) if bad.get("summary")
                        else said(N_("as the card says")))
        return True


APPLIERS: dict[str, Applier] = {
    "lose_levels": _Run.lose_levels, "roll_levels": _Run.roll_levels,
    "level_to_lowest": _Run.level_to_lowest, "lose_items": _Run.lose_items,
    "lose_race": _Run.lose_race, "lose_class": _Run.lose_class, "lose_hand": _Run.lose_hand,
    "death": _Run.death_step, "manual": _Run.manual,
}


def steps_of(monster: dict) -> tuple[list[Step], Any]:
    """The monster's Bad Stuff as steps, and a text to show after them: a card without
    ``steps`` is read the older way (death, else levels; a summary alone is done by hand)."""
    bad = monster.get("bad_stuff") or {}
    if bad.get("steps") is not None:
        return bad["steps"], None
    if bad.get("death"):
        return [{"do": "death"}], None
    if bad.get("levels"):
        return ([{"do": "lose_levels", "value": bad["levels"]}],
                card_text(monster, "bad_stuff", bad["summary"]) if bad.get("summary") else None)
    return [{"do": "manual"}], None


def caught(state: dict, player: dict, monster: dict, ctx: Context,
           roll: int | None = None) -> dict:
    """Carry out ``monster``'s Bad Stuff on ``player``; the words of what happened: the
    death's own event when that is all, else ``Bad Stuff: ...`` with one part per step."""
    steps, trailing = steps_of(monster)
    run = _Run(state, player, monster, ctx, roll)
    run.steps(steps)
    if run.death is not None and not run.out:
        return run.death
    what = run.out + ([trailing] if trailing else []) + ([run.death] if run.death else [])
    if not what:
        return said(N_("Bad Stuff: nothing happens"))
    return said(N_("Bad Stuff: %(what)s"), what=what)


def fled(state: dict, player: dict, monster: dict, ctx: Context) -> dict | None:
    """What a monster's ``on_flee`` steps cost a player it pursued, escaped or not."""
    steps = (monster.get("bad_stuff") or {}).get("on_flee")
    if not steps:
        return None
    run = _Run(state, player, monster, ctx)
    run.steps(steps)
    what = run.out + ([run.death] if run.death else [])
    return said(N_("fleeing costs: %(what)s"), what=what) if what else None


event_words("confirm_bad_stuff", N_("%(name)s has taken the Bad Stuff of %(monster)s by hand"))


@checks("confirm_bad_stuff")
def _confirm_check(state, action, actor, ctx):
    player = own(state, action, actor)
    if not any(n["id"] == action.pending for n in player.get("pending_bad_stuff") or ()):
        raise BadAction(N_("%(name)s has no Bad Stuff %(pending)s waiting to be done by hand."),
                        name=player["name"], sex=player.get("sex"), pending=action.pending)


@reducer("confirm_bad_stuff")
def _confirm(state, action, actor, ctx):
    """The table did by hand a Bad Stuff step the app cannot (other players chose cards...)."""
    player = find_player(state, action.player)
    pending = player["pending_bad_stuff"]
    note = next(n for n in pending if n["id"] == action.pending)
    pending.remove(note)
    if not pending:
        del player["pending_bad_stuff"]
    return event("confirm_bad_stuff", player=player["id"], name=player["name"],
                 monster=note["monster"] or said(N_("Monster")), pending=note["id"], sex=player["sex"])
