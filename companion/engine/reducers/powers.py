"""Race and class powers: ``use_power`` with a ``power`` id of the game's edition.

The power's data (``companion/engine/powers.py``) says who has it, when it may be used, its
limit, its cost in discards and its effect; this reducer checks them in that order, pays the
cost (the hand count goes down where it is tracked, cards in play are discarded) and applies
the effect. Where an effect is another action's (a run-away roll, removing a charmed monster,
a sale) that action's reducer does it, so its rules hold here too.

Uses of a fight's powers are remembered in the fight (``combat.powers``), where their limits
live (once per fight, per victim, per roll); a new fight starts with none. The Halfling's
double sale is the ``sell`` action's ``doubled`` (reducers/sheet.py) and not repeated here.
"""

from __future__ import annotations

from .. import character, dice, powers, sheet
from ..action_models import RemoveMonsterAction, RunAwayAction, UsePowerAction
from ..core import CHECKS, REDUCERS, Context, checks, in_fight, own, reducer
from ..errors import BadAction, RuleViolation
from ..powers import Power
from ..public import combat_view
from ..state import find_card, find_player
from ..words import N_, event, event_words, said, said_plural
from .fight import run_away

# The monster groups a power names, as words (the same msgids as the card pages').
TAG_WORDS = {"undead": N_("Undead"), "dragon": N_("a Dragon"), "plant": N_("a Plant")}


def _tag_said(tag: str) -> dict:
    return said(TAG_WORDS.get(tag, tag))

event_words("power", N_("%(name)s uses %(power)s (%(cost)s)"))

# The fields each effect takes besides player, power, from_hand and from_play (a field given
# as null counts as left out).
FIELDS = {
    "strength": {"bonus"}, "backstab": {"target", "bonus"}, "theft": {"target", "item", "roll", "succeeded"},
    "flight": {"monster", "roll"}, "second_try": {"monster", "roll"}, "charm": {"monster"},
    "resurrection": set(), "recorded": set(), "sell": set(), "passive": set(),
}
COMMON = {"type", "player", "power", "from_hand", "from_play"}


@checks("use_power")
def _use_power_check(state, action, actor, ctx):
    """The power's rules in order (``_ready``), then what its effect would refuse: the roll a
    Flight goes on, the item a theft names, the monster a charm sends away."""
    player, power, target, monster, after_fail = _ready(state, action, actor, ctx)
    if after_fail:
        _check_flight_roll(state, player, monster, action)
    if power.effect == "theft":
        _check_theft(player, target, action, ctx)
    if power.effect == "charm":
        CHECKS["remove_monster"](state, RemoveMonsterAction(type="remove_monster", monster=monster), actor, ctx)


def _ready(state: dict, action: UsePowerAction, actor, ctx: Context) -> tuple:
    """(the player, the power, its target, the monster, whether Flight waits for a failed
    roll), or the refusal: who has the power, when, its limit and its cost (read only)."""
    player = own(state, action, actor)
    power = powers.get(ctx.edition.id, action.power)
    if power is None:
        raise RuleViolation("power-not-in-edition", N_("%(edition)s has no power %(power)s"),
                            edition=said(ctx.edition.name), power=action.power)
    if not character.printing_holds(power, ctx.edition):
        # The Halfling's second try is the later card's; the box's rulebook gives a penalty.
        raise RuleViolation("halfling-printing", N_("%(power)s is on the later printing of the card, "
                                                    "and this table plays the box's printed rules"),
                            power=said(power.name))
    if power.passive:
        raise RuleViolation("power-passive", N_("%(power)s works by itself and is already counted"),
                            power=said(power.name))
    if power.action != "use_power":
        raise BadAction(N_("%(power)s is part of the '%(action)s' action: use that."),
                        power=said(power.name), action=power.action)
    _check_fields(power, action)
    if not _holds(player, power):
        raise RuleViolation("power-needs-card", N_("%(name)s has no %(card)s card in play"),
                            name=player["name"], sex=player.get("sex"), card=character.title(power.holder))
    if player["dead"]:
        raise RuleViolation("power-dead", N_("%(name)s is dead until the next turn"), name=player["name"], sex=player.get("sex"))
    target = find_player(state, action.target, "target") if action.target is not None else None
    after_fail = power.effect == "flight" and ctx.rules.edition.flight_after_failed_roll
    monster = _timing(state, power, player, target, action, after_fail)
    hand, play = _cost(power, player, action)
    _limit(state, power, player, target, monster, hand + len(play))
    return player, power, target, monster, after_fail


@reducer("use_power")
def _use_power(state, action, actor, ctx):
    # The same values the check worked out (it passed, so nothing here refuses).
    player, power, target, monster, after_fail = _ready(state, action, actor, ctx)
    hand, play = _cost(power, player, action)
    if after_fail:  # the die first: the cards are discarded only after a failed roll
        roll, waiting = _flight_roll(state, power, player, monster, action, ctx)
        if roll is not None:  # it escapes on the die alone: nothing discarded
            hand, play = 0, []
        paid = _pay(power, player, hand, play, ctx)
        parts = _flight_after_fail(state, power, player, monster, paid, roll, waiting, action, actor, ctx)
        _remember(state, power, player, target, monster, paid["n"])
        return event("power", *parts, player=player["id"], name=player["name"], sex=player.get("sex"), power=said(power.name),
                     power_id=power.id, cost=paid["said"], cards=paid["n"])
    paid = _pay(power, player, hand, play, ctx)
    parts = _effect(state, power, player, target, monster, paid, action, actor, ctx)
    _remember(state, power, player, target, monster, paid["n"])
    # The player it was used on (a theft, a backstab): their phone tells them.
    on = {"target": target["id"]} if target is not None else {}
    return event("power", *parts, player=player["id"], name=player["name"], sex=player.get("sex"), power=said(power.name),
                 power_id=power.id, cost=paid["said"], cards=paid["n"], **on)


def _holds(player: dict, power: Power) -> bool:
    return any(e["card"].get("kind") == power.kind and character.card_slug(e["card"]) == power.holder
               for e in player["cards"])


def _check_fields(power: Power, action: UsePowerAction) -> None:
    given = {name for name in action.model_fields_set if getattr(action, name) is not None}
    extra = sorted(given - COMMON - FIELDS[power.effect])
    if extra:
        raise BadAction(N_("'%(field)s' does not go with %(power)s."), field=extra[0], power=said(power.name))
    if "bonus" in given and not power.table_bonus:
        raise BadAction(N_("'bonus' does not go with %(power)s: the app knows its number."),
                        power=said(power.name))
    if power.effect == "theft":
        if "roll" in given and not power.roll_needs:
            raise BadAction(N_("'roll' does not go with %(power)s: say whether it worked ('succeeded')."),
                            power=said(power.name))
        if "succeeded" in given and power.roll_needs:
            raise BadAction(N_("'succeeded' does not go with %(power)s: the die decides ('roll')."),
                            power=said(power.name))
        if "succeeded" not in given and not power.roll_needs:
            raise BadAction(N_("'succeeded' is required: did the theft work?"))
        if "item" not in given:
            raise BadAction(N_("'item' is required: the item to steal."))
    if power.targets_player and "target" not in given:
        raise BadAction(N_("'target' is required: the player it is used on."))


# --- when ----------------------------------------------------------------------------------

def _in_it(state: dict, fight: dict, pid: int) -> bool:
    """A player in the fight whose strength counts (a forced helper may not count in Tails)."""
    if pid == fight["fighter"]:
        return True
    return pid == fight.get("helper") and combat_view(state, helpers=False)["helper_counts"]


def _monster_index(state: dict, action: UsePowerAction) -> int:
    view = combat_view(state, helpers=False)
    count = len(view["monsters"])
    if action.monster is None:
        if count != 1:
            raise BadAction(N_("'monster' is required: which monster (there are %(n)s)."), n=count)
        return 0
    index = action.monster
    if index >= count:
        raise BadAction(N_("There is no monster %(monster)s in this fight."), monster=index)
    return index


def _timing(state: dict, power: Power, player: dict, target: dict | None, action: UsePowerAction,
            after_fail: bool = False) -> int | None:
    """Refuse a power used out of its time; answer the monster it names, if any."""
    if power.when in ("fight", "fight_any"):
        return _while_fighting(state, power, player, target, action)
    if power.when == "running":
        return _while_running(state, power, player, action, after_fail)
    _out_of_fights(state, power, player, target)
    return None


def _while_fighting(state: dict, power: Power, player: dict, target: dict | None,
                    action: UsePowerAction) -> int | None:
    """A power of a fight still being fought: by a player in it (``fight``), or by anyone on
    a player in it (``fight_any``); the monster it names must still be in the fight."""
    fight = state.get("combat")
    if not (in_fight(state) and fight["stage"] == "fighting"):
        raise RuleViolation("power-in-fight", N_("%(power)s is used while a fight is being fought"),
                            power=said(power.name))
    if power.when == "fight" and not _in_it(state, fight, player["id"]):
        raise RuleViolation("power-in-fight", N_("%(name)s is not fighting or helping in this fight"),
                            name=player["name"], sex=player.get("sex"))
    if power.when == "fight_any":
        if target["id"] == player["id"]:
            raise RuleViolation(power.rule, N_("%(power)s is used on another player"), power=said(power.name))
        if not _in_it(state, fight, target["id"]):
            raise RuleViolation("power-in-fight", N_("%(name)s is not fighting or helping in this fight"),
                                name=target["name"], sex=target.get("sex"))
    if power.tag and not any(power.tag in (m.get("tags") or ()) and not m["gone"]
                             for m in combat_view(state, helpers=False)["monsters"]):
        raise RuleViolation(power.rule, N_("no monster in this fight is %(tag)s"), tag=_tag_said(power.tag))
    if power.needs_monster:
        index = _monster_index(state, action)
        if combat_view(state, helpers=False)["monsters"][index]["gone"]:
            raise RuleViolation(power.rule, N_("that monster has already left the fight"))
        return index
    return None


def _while_running(state: dict, power: Power, player: dict, action: UsePowerAction, after_fail: bool) -> int:
    """A power for one run-away roll not yet made (or, for a second try, one failed and
    waiting) by a runner, against a monster still in the fight."""
    fight = state.get("combat")
    if not (in_fight(state) and fight["stage"] == "running"):
        raise RuleViolation("power-running", N_("%(power)s is used while running away"),
                            power=said(power.name))
    if player["id"] not in (fight["fighter"], fight.get("helper")):
        raise RuleViolation("power-running", N_("%(name)s is not running from this fight"),
                            name=player["name"], sex=player.get("sex"))
    index = _monster_index(state, action)
    if combat_view(state, helpers=False)["monsters"][index]["gone"]:
        raise RuleViolation("power-running", N_("that monster has already left the fight"))
    rolled = [e for e in fight["escapes"] if e["player"] == player["id"] and e["monster"] == index]
    if power.effect == "second_try":  # a failed roll waiting for it, and only that
        if not any(e.get("second_try") for e in rolled):
            raise RuleViolation("power-running", N_("%(power)s rolls a failed run-away roll again: "
                                                    "there is none waiting against that monster"),
                                power=said(power.name))
    elif rolled and not (after_fail and all(e.get("second_try") for e in rolled)):
        # (after a failed roll, Flight may still take a roll that waits, e.g. a Halfling's)
        raise RuleViolation("power-running", N_("%(name)s already rolled against that monster"),
                            name=player["name"], sex=player["sex"])
    return index


def _out_of_fights(state: dict, power: Power, player: dict, target: dict | None) -> None:
    """A power never used while a fight is on (``face_up_draw``, ``no_fight``), or not by or
    on a player in one (``not_fighting``)."""
    when, fight = power.when, state.get("combat")
    if when == "face_up_draw" and in_fight(state):
        raise RuleViolation(power.rule, N_("%(power)s takes the place of a card drawn face up, and "
                                           "none is drawn while a fight is on"), power=said(power.name))
    if when in ("no_fight", "not_fighting"):
        if target["id"] == player["id"]:
            raise RuleViolation(power.rule, N_("%(power)s is used on another player"), power=said(power.name))
        if in_fight(state):
            busy = {fight["fighter"], fight.get("helper")}
            if when == "no_fight":
                raise RuleViolation(power.rule, N_("a fight is going on"))
            if {player["id"], target["id"]} & busy:
                raise RuleViolation(power.rule, N_("%(name)s is in a fight"),
                                    name=player["name"] if player["id"] in busy else target["name"], sex=(player if player["id"] in busy else target).get("sex"))


# --- limits --------------------------------------------------------------------------------

def _uses(state: dict, power: Power, player: dict) -> list[dict]:
    where = (state.get("combat") or {}).get("powers") or []
    return [u for u in where if u["power"] == power.id and u["player"] == player["id"]]


def _limit(state: dict, power: Power, player: dict, target: dict | None, monster: int | None,
           n: int) -> None:
    limit = power.limit
    if limit is None:
        return
    uses = _uses(state, power, player)
    if limit == "once_per_combat" and uses:
        raise RuleViolation(power.rule, N_("%(name)s already used %(power)s in this fight"),
                            name=player["name"], power=said(power.name), sex=player["sex"])
    if limit == "cards_per_combat":
        spent = sum(u["cards"] for u in uses)
        if spent + n > power.cost.most:
            raise RuleViolation(power.rule, said_plural(
                "%(name)s already discarded %(n)s card for it in this fight; at most %(most)s",
                "%(name)s already discarded %(n)s cards for it in this fight; at most %(most)s",
                spent, name=player["name"], most=power.cost.most, sex=player["sex"]))
    if limit == "once_per_victim" and any(u.get("target") == target["id"] for u in uses):
        raise RuleViolation(power.rule, N_("%(name)s already used %(power)s on %(target)s in this fight"),
                            name=player["name"], power=said(power.name), target=target["name"],
                            sex=player["sex"])
    if limit == "once_per_monster" and any(u.get("monster") == monster for u in uses):
        raise RuleViolation(power.rule, N_("%(name)s already used %(power)s for that roll"),
                            name=player["name"], power=said(power.name), sex=player["sex"])


def _remember(state: dict, power: Power, player: dict, target: dict | None, monster: int | None,
              n: int) -> None:
    use = {"power": power.id, "player": player["id"], "cards": n}
    if target is not None:
        use["target"] = target["id"]
    if monster is not None:
        use["monster"] = monster
    if state.get("combat") is not None and power.when in ("fight", "fight_any", "running"):
        fight = state["combat"]
        fight["powers"] = list(fight.get("powers") or []) + [use]


# --- cost ----------------------------------------------------------------------------------

def _cost(power: Power, player: dict, action: UsePowerAction) -> tuple[int, list[dict]]:
    """(cards from the hand, entries in play) the action pays with, checked against the cost."""
    cost = power.cost
    held = player.get("hand")  # None: the table does not track this hand
    iids = action.from_play
    if len(set(iids)) != len(iids):
        raise BadAction(N_("'from_play' must list distinct card instance ids."))
    play = [find_card(player, iid, "from_play") for iid in iids]
    for entry in play:
        card = entry["card"]
        if card.get("kind") == "curse":
            raise RuleViolation("discard-to-power", N_("%(card)s is a curse kept as a reminder"),
                                card=card.get("name", "?"))
        if card.get("kind") == power.kind and character.card_slug(card) == power.holder:
            raise RuleViolation("discard-to-power", N_("%(card)s cannot pay for its own power"),
                                card=card.get("name", "?"))
    if cost.whole_hand:
        if play:
            raise RuleViolation("power-cost", N_("%(power)s takes the whole hand and nothing else"),
                                power=said(power.name))
        hand = held if action.from_hand is None else action.from_hand
        if hand is None:
            raise BadAction(N_("'from_hand' is required: how many cards the hand holds."))
        if held is not None and hand != held:
            raise RuleViolation("power-cost", said_plural(
                "%(power)s takes the whole hand: %(n)s card", "%(power)s takes the whole hand: %(n)s cards",
                held, power=said(power.name)))
        if hand < cost.least:
            raise RuleViolation("power-cost", said_plural(
                "%(power)s needs a hand of at least %(n)s card", "%(power)s needs a hand of at least %(n)s cards",
                cost.least, power=said(power.name)))
        return hand, []
    hand = action.from_hand or 0
    n = hand + len(play)
    if cost.swap and play:
        raise RuleViolation("power-cost", N_("%(power)s discards from the hand"), power=said(power.name))
    if n < cost.least:
        raise RuleViolation("power-cost", said_plural(
            "%(power)s needs %(n)s card discarded", "%(power)s needs %(n)s cards discarded",
            cost.least, power=said(power.name)))
    if cost.most is not None and n > cost.most:
        raise RuleViolation("power-cost", said_plural(
            "%(power)s takes at most %(n)s card", "%(power)s takes at most %(n)s cards",
            cost.most, power=said(power.name)))
    if held is not None and hand > held and not cost.swap:
        raise RuleViolation("power-cost", said_plural(
            "%(name)s has %(n)s card in hand", "%(name)s has %(n)s cards in hand", held,
            name=player["name"], sex=player.get("sex")))
    return hand, play


def _pay(power: Power, player: dict, hand: int, play: list[dict], ctx: Context) -> dict:
    if player.get("hand") is not None and not power.cost.swap:
        player["hand"] = max(0, player["hand"] - hand)
    dropped = []
    for entry in play:
        if any(c["iid"] == entry["iid"] for c in player["cards"]):  # not already gone with another
            dropped += sheet.discard(player, entry["iid"], ctx.edition)
    n = hand + len(play)
    if power.cost.swap:
        words = said_plural("takes %(n)s card from the discards and discards %(n)s",
                            "takes %(n)s cards from the discards and discards %(n)s", n)
    elif n == 0:
        words = said(N_("no discard"))
    elif dropped:
        words = said_plural("%(n)s card discarded, with %(cards)s", "%(n)s cards discarded, with %(cards)s",
                            n, cards=", ".join(d["card"].get("name", "?") for d in dropped))
    else:
        words = said_plural("%(n)s card discarded", "%(n)s cards discarded", n)
    return {"n": n, "said": words}


# --- effects -------------------------------------------------------------------------------

def _shot(state: dict, card: dict, by: int, for_: int, power: Power, **extra) -> None:
    """The power's number joins the fight as a one-shot of the players' side, counted for
    ``for_``; the card is named by the power's English name, as a card's printed name is."""
    fight = state["combat"]
    fight["one_shots"] = list(fight["one_shots"]) + [
        {"side": "players", "card": card, "by": by, "for": for_, "power": power.id, **extra}]


def _run_from(state: dict, player: dict, monster: int, roll: int | None, actor, ctx: Context, *,
              second_try: bool = False) -> dict:
    """The run-away roll (``roll``; None: the app rolls) is the ``run_away`` action's, with its
    own rules."""
    action = RunAwayAction(type="run_away", player=player["id"], monster=monster, roll=roll)
    return run_away(state, action, actor, ctx, second_try=second_try)


def _effect(state, power, player, target, monster, paid, action, actor, ctx) -> list:
    effect = power.effect
    n = paid["n"]
    if effect == "strength":
        bonus = power.per_card * n if power.per_card is not None else action.bonus
        if not bonus:
            return [said(N_("the bonus is on the card: the table adds it"))]
        card = {"kind": "other", "name": power.name}
        if power.tag:
            card["effects"] = [{"stat": "strength", "value": bonus, "if": {"tag": power.tag}}]
            _shot(state, card, player["id"], player["id"], power)
            return [said(N_("+%(bonus)s to %(target)s against %(tag)s"), bonus=bonus,
                         target=player["name"], tag=_tag_said(power.tag))]
        card["bonus"] = bonus
        _shot(state, card, player["id"], player["id"], power)
        return [said(N_("+%(bonus)s to %(target)s in this fight"), bonus=bonus, target=player["name"])]
    if effect == "backstab":
        penalty = power.value if power.value is not None else action.bonus
        if not penalty:
            return [said(N_("on %(target)s: the penalty is on the card, the table applies it"),
                         target=target["name"])]
        _shot(state, {"kind": "other", "name": power.name, "bonus": -penalty},
              player["id"], target["id"], power)
        return [said(N_("-%(penalty)s to %(target)s in this fight"), penalty=penalty, target=target["name"])]
    if effect == "flight":
        bonus = power.per_card * n
        _shot(state, {"kind": "other", "name": power.name,
                      "effects": [{"stat": "run_away", "value": bonus}]},
              player["id"], player["id"], power, monster=monster)
        ran = _run_from(state, player, monster, action.roll, actor, ctx)
        return [said(N_("+%(bonus)s to the roll"), bonus=bonus), ran]
    if effect == "second_try":  # the waiting failed roll is rolled again, and that one stands
        fight = state["combat"]
        fight["escapes"] = [e for e in fight["escapes"] if not (
            e["player"] == player["id"] and e["monster"] == monster and e.get("second_try"))]
        ran = _run_from(state, player, monster, action.roll, actor, ctx, second_try=True)
        return [said(N_("the failed roll is rolled again")), ran]
    if effect == "charm":
        # The monster leaves as the remove_monster action takes it, with its rules.
        charmed = RemoveMonsterAction(type="remove_monster", monster=monster)
        return [REDUCERS["remove_monster"](state, charmed, actor, ctx)]  # its check: ours
    if effect == "theft":
        return _theft(state, power, player, target, action, ctx)
    if effect == "resurrection":
        return [said(N_("takes the top discard instead of drawing face up"))]
    return [said(N_("the table applies what the card says"))]


# --- Flight after a failed roll (the current Wizard card; variant official_updates) ---------

def _flight_roll(state, power, player, monster, action, ctx) -> tuple[int | None, dict | None]:
    """The run-away roll Flight's cards are added to, once it has failed (rule
    ``wizard-flight-timing``): a failed roll waiting against that monster, the die result the
    action gives, or the app's roll. Returns ``(roll, None)`` when that roll escapes on its
    own (no card is discarded then; a die result that escapes is refused), else
    ``(None, failed)`` with ``failed`` = ``{"roll", "waiting"}``."""
    waiting = _waiting_roll(state, player, monster)
    if waiting is not None:
        return None, {"roll": waiting["roll"], "waiting": waiting}
    given = action.roll
    # the app's die is the run-away roll's own (rule undo-keeps-rolls): the same die run_away gives
    roll = given if given is not None else dice.die(state, ctx, "run_away", player["id"], monster, 1)
    if _escapes(state, player, monster, roll):  # only the app's die here (the check refused a given one)
        return roll, None
    return None, {"roll": roll, "waiting": None}


def _waiting_roll(state: dict, player: dict, monster: int) -> dict | None:
    return next((e for e in state["combat"]["escapes"] if e["player"] == player["id"]
                 and e["monster"] == monster and e.get("second_try")), None)


def _escapes(state: dict, player: dict, monster: int, roll: int) -> dict | None:
    """The escape row of ``player`` from ``monster`` when ``roll`` gets away on its own."""
    row = next(e for e in combat_view(state, helpers=False)["escape"]
               if e["player"] == player["id"] and e["monster"] == monster)
    return row if row.get("auto") or roll >= row["needs"] else None


def _check_flight_roll(state: dict, player: dict, monster: int, action: UsePowerAction) -> None:
    """Flight's cards go on a failed roll (rule ``wizard-flight-timing``): a die result the
    action gives must be the failed roll waiting, or one that fails."""
    waiting = _waiting_roll(state, player, monster)
    if waiting is not None:
        if action.roll not in (None, waiting["roll"]):
            raise RuleViolation("wizard-flight-timing", N_("%(name)s already rolled %(roll)s against that "
                                                      "monster: Flight's cards go on that roll"),
                                name=player["name"], sex=player.get("sex"), roll=waiting["roll"])
        return
    if action.roll is not None:
        row = _escapes(state, player, monster, action.roll)
        if row is not None:
            raise RuleViolation("wizard-flight-timing", N_("a roll of %(roll)s escapes already (needs "
                                                      "%(needs)s): Flight's cards are discarded only "
                                                      "after a failed roll"),
                                roll=action.roll, needs=row["needs"])


def _flight_after_fail(state, power, player, monster, paid, roll, failed, action, actor, ctx) -> list:
    if failed is None:  # the app's die escaped alone: the roll stands, no card discarded
        ran = _run_from(state, player, monster, roll, actor, ctx)
        return [said(N_("the roll escapes without it: no card discarded")), ran]
    bonus = power.per_card * paid["n"]
    _shot(state, {"kind": "other", "name": power.name,
                  "effects": [{"stat": "run_away", "value": bonus}]},
          player["id"], player["id"], power, monster=monster)
    again = failed["waiting"] is not None
    if again:  # that roll is made again with the bonus, its catch waits no more
        fight = state["combat"]
        fight["escapes"] = [e for e in fight["escapes"] if e is not failed["waiting"]]
    ran = _run_from(state, player, monster, failed["roll"], actor, ctx, second_try=again)
    return [said(N_("after a failed roll of %(roll)s: +%(bonus)s to it"), roll=failed["roll"],
                 bonus=bonus), ran]


def _check_theft(player: dict, target: dict, action: UsePowerAction, ctx: Context) -> None:
    """Only a Small item is stolen, one the thief could use."""
    card = find_card(target, action.item, "item")["card"]
    if card.get("kind") != "item" or card.get("big"):
        raise RuleViolation("power-theft-small-item", N_("%(card)s is not a Small item"),
                            card=card.get("name", "?"))
    character.check_play(player, card, ctx.edition)


def _theft(state, power, player, target, action, ctx) -> list:
    entry = find_card(target, action.item, "item")
    card = entry["card"]
    if power.roll_needs:
        roll = action.roll
        if roll is None:  # the same die after an undo (rule undo-keeps-rolls)
            roll = dice.die(state, ctx, "theft", player["id"], target["id"], entry["iid"],
                            state.get("turn_count"), player.get("hand"), player["level"])
        stolen = roll >= power.roll_needs
    else:
        roll, stolen = None, action.succeeded
    if stolen:
        target["cards"].remove(entry)
        player["cards"].append({"iid": entry["iid"], "card": card, "equipped": False})
        if roll is None:
            return [said(N_("takes %(card)s from %(target)s"), card=card.get("name", "?"), target=target["name"])]
        return [said(N_("rolls %(roll)s (needs %(needs)s): takes %(card)s from %(target)s"), roll=roll,
                     needs=power.roll_needs, card=card.get("name", "?"), target=target["name"])]
    if roll is None:
        return [said(N_("the theft fails: the Thief card says what follows"))]
    old = player["level"]
    player["level"] = max(1, old - 1)  # a level is never below 1
    return [said(N_("rolls %(roll)s (needs %(needs)s): caught, level %(old)s to %(new)s"), roll=roll,
                 needs=power.roll_needs, old=old, new=player["level"], sex=player["sex"])]
