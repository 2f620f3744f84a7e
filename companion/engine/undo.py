"""Taking a change back: ``take_back`` is to ``engine.apply`` what python-chess's ``Board.pop``
is to ``Board.push``, and the engine's one other way a game changes.

Every change is stored with its reverse patch (``reverse_patch(before, after)``: the JSON Patch
that turns the state after it back into the state before, only what changed). Undo is a strict
stack: the latest change not taken back yet is the one undone, so its patch always applies to
the current state. The log, the id counter and the version are never taken back
(``NOT_UNDONE``): the history stays honest, ids are never reused, versions only go up.

Who may take a change back is a rule like any other (``take_back``): the player who made it,
or the host. The store hands the engine the change as its log holds it (``Change``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import jsonpatch
import jsonpointer

from .core import Actor
from .errors import BadAction, Forbidden, TooFarBack
from .words import N_, event, event_words

# Parts of the state that undo does not restore: the log (the history stays honest), the id
# counter (ids are never reused) and the version (it only goes up).
NOT_UNDONE = ("log", "next_id", "version")

event_words("undo", N_("Undo: %(undone)s"))


@dataclass(frozen=True)
class Change:
    """The change undo would take back, as the store's log holds it."""

    actor_player: int | None  # who made it (None: the host, or a join)
    # What undo restores from: the reverse patch; None once compacted (too old to take back).
    undo_data: list | None
    event: dict  # what happened (words.py), named in the undo's own event


def take_back(state: dict, last: Change | None, actor: Actor) -> tuple[dict, dict]:
    """Take back ``last``, the latest change not taken back yet; (the state before it, the event)."""
    if not actor.seated:
        raise Forbidden(N_("Join the game first."))
    if last is None:
        raise BadAction(N_("There is nothing to undo."))
    if not actor.host and last.actor_player != actor.player:
        raise Forbidden(N_("Only the player who made the last change, or the host, can undo it."))
    if last.undo_data is None:
        raise TooFarBack(N_("That change is too far back to undo: a game keeps what undo "
                            "needs for its latest few hundred changes only."))
    return restore(state, last.undo_data), event("undo", undone=last.event)


def _undoable(state: dict) -> dict:
    return {k: v for k, v in state.items() if k not in NOT_UNDONE}


def reverse_patch(before: dict, after: dict) -> list:
    """The JSON Patch that turns ``after`` back into ``before`` (the parts undo restores).

    Only what changed is written, down to the smallest changed part: a changed level is one
    ``replace``, a card added to a list one ``remove``; 300 unchanged house cards cost nothing.
    """
    ops: list[dict] = []
    _diff(_undoable(before), _undoable(after), "", ops)
    return ops


def _pointer(key: Any) -> str:
    return "/" + str(key).replace("~", "~0").replace("/", "~1")


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON: like ``==``, but ``false`` is not ``0`` (nor ``1`` ``1.0``)."""
    if a is b:
        return True
    if isinstance(a, dict):
        return isinstance(b, dict) and len(a) == len(b) and \
            all(k in b and _same(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(_same, a, b))
    return type(a) is type(b) and a == b


def _diff(before: Any, after: Any, path: str, ops: list[dict]) -> None:
    """Append to ``ops`` the operations that turn ``after`` into ``before``, in order."""
    if before is after:
        return
    if isinstance(before, dict) and isinstance(after, dict):
        for key in after:
            if key not in before:
                ops.append({"op": "remove", "path": path + _pointer(key)})
        for key, value in before.items():
            if key not in after:
                ops.append({"op": "add", "path": path + _pointer(key), "value": value})
            elif not _same(value, after[key]):
                _diff(value, after[key], path + _pointer(key), ops)
        return
    if isinstance(before, list) and isinstance(after, list):
        # The unchanged ends are kept; the changed middle is diffed item by item when it kept
        # its length, else its items are taken out and put back (one card added: one op).
        start, short = 0, min(len(before), len(after))
        while start < short and _same(before[start], after[start]):
            start += 1
        end = 0
        while end < short - start and _same(before[-1 - end], after[-1 - end]):
            end += 1
        was, now = before[start:len(before) - end], after[start:len(after) - end]
        if len(was) == len(now):
            for i, (old, new) in enumerate(zip(was, now)):
                _diff(old, new, f"{path}/{start + i}", ops)
            return
        for i in reversed(range(len(now))):
            ops.append({"op": "remove", "path": f"{path}/{start + i}"})
        for i, old in enumerate(was):
            ops.append({"op": "add", "path": f"{path}/{start + i}", "value": old})
        return
    if not _same(before, after):
        ops.append({"op": "replace", "path": path, "value": before})


def restore(current: dict, stored: list | None, *, in_place: bool = False) -> dict:
    """The state before an event, from the current state and what the event stored.

    Undo is a strict stack, so the current state is always the state right after the event
    being undone (apart from the parts undo does not restore), and its patch applies.
    ``in_place``: ``current`` may be changed (a walk back through many events owns it); else
    ``current`` is left as it was and the result shares with it every part the patch leaves.
    """
    if stored is None:  # compacted (COMPACTED): what came before cannot be rebuilt from it
        raise jsonpatch.InvalidJsonPatch("this event's patch was compacted")
    doc = _undoable(current)
    restored = jsonpatch.apply_patch(doc, stored, in_place=True) if in_place else _patched(doc, stored)
    for key in NOT_UNDONE:
        if key in current:
            restored[key] = current[key]
    return restored


def _patched(doc: dict, ops: list) -> dict:
    """``doc`` (a fresh top level) with ``ops`` applied, copying before each op only the
    containers from the top down to the one it writes into. The parts no op touches stay the
    current state's own: what compares the two states after an undo (its reverse patch, the
    store's frozen copy) skips them at once. A whole copy made a 5,000-event game's undo copy,
    compare and freeze its chronicle and 500 house cards item by item: two thirds of its
    profile (bench/long_profile.py)."""
    owned = {id(doc): doc}  # copies made here (kept alive, so their ids stay theirs)
    for op in ops:
        for pointer in (op.get("path"), op.get("from")):  # "from": a move takes out of there
            if isinstance(pointer, str):
                _own_path(doc, pointer, owned)
        doc = jsonpatch.apply_patch(doc, [op], in_place=True)  # one by one: an op moves items
        owned[id(doc)] = doc
    return doc


def _own_path(doc: Any, pointer: str, owned: dict) -> None:
    """Copy (shallowly, once) each container on the way to the one ``pointer`` names the
    member of; a path that is not there is left for the patch to refuse."""
    parent = doc
    for token in jsonpointer.JsonPointer(pointer).parts[:-1]:
        if isinstance(parent, dict) and token in parent:
            key = token
        elif isinstance(parent, list) and token.isdigit() and int(token) < len(parent):
            key = int(token)
        else:
            return
        child = parent[key]
        if id(child) not in owned:
            if not isinstance(child, (dict, list)):
                return
            child = dict(child) if isinstance(child, dict) else list(child)
            owned[id(child)] = child
            parent[key] = child
        parent = child
